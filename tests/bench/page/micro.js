// Interleaved A/B timing of plain-JS variants of one 10-row call, each adding one thing the
// package does, and the package itself, to find where the per-call time goes. Used by
// tests/bench/micro.mjs. Samples are `group` calls in a row; medians per variant.
import init, { BotClient } from "/pkg/index.js";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * p)]; };

export async function runMicro({ baseUrl, apiKey, document, perPage = 10, rounds = 100, group = 5, only }) {
  // The request exactly as the package sends it, for a plain-fetch replay.
  let captured;
  await new BotClient({ baseUrl, apiKey, fetch: async (req) => {
    captured = { url: req.url, headers: [...req.headers], body: await req.clone().text() };
    return fetch(req);
  } }).orderHistory({ page: 1, perPage });
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  const body = () => JSON.stringify({ query: document, variables });
  const bot = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const botOpt = new BotClient({ baseUrl, apiKey, maxRetries: 0, fetch: (r) => fetch(r) });
  const rows = (t) => JSON.parse(t).data.orderHistory.data.length;
  const raceWith = (p, cancel) => Promise.race([p, cancel]);
  const all = {
    "fetch(url+init)": async () => rows(await (await fetch(endpoint, { method: "POST", headers, body: body() })).text()),
    "fetch(new Request)": async () => rows(await (await fetch(new Request(endpoint, { method: "POST", headers, body: body() }))).text()),
    "fetch(url, init+signal)": async () => {
      const c = new AbortController();
      return rows(await (await fetch(endpoint, { method: "POST", headers, body: body(), signal: c.signal })).text());
    },
    "fetch(new Request+signal)": async () => {
      const c = new AbortController();
      return rows(await (await fetch(new Request(endpoint, { method: "POST", headers, body: body(), signal: c.signal }))).text());
    },
    "gloo-like Request+signal": async () => {
      const c = new AbortController();
      const r0 = new Request(endpoint);
      const u = new URL(r0.url);
      u.search = new URLSearchParams().toString();
      const h = new Headers();
      for (const [k, v] of Object.entries(headers)) h.set(k, v);
      return rows(await (await fetch(new Request(u.toString(), { method: "POST", headers: h, body: body(), signal: c.signal }))).text());
    },
    "url+init+timer+race": async () => {
      const c = new AbortController();
      let reject;
      const cancel = new Promise((_, r) => { reject = r; });
      const t = setTimeout(reject, 30000, {});
      const res = await raceWith(fetch(endpoint, { method: "POST", headers, body: body(), signal: c.signal }), cancel);
      const text = await raceWith(res.text(), cancel);
      clearTimeout(t);
      return rows(text);
    },
    "replay package request": async () => rows(await (await fetch(captured.url, { method: "POST", headers: captured.headers, body: captured.body })).text()),
    "package via fetch option": async () => (await botOpt.orderHistory({ page: 1, perPage })).data.length,
    package: async () => (await bot.orderHistory({ page: 1, perPage })).data.length,
  };
  console.log(JSON.stringify(captured));
  const contenders = only ? Object.fromEntries(only.map((k) => [k, all[k]])) : all;
  return interleave(contenders, perPage, rounds, group);
}

// Marks inside one package call on the real network, without a profiler: the globals the
// glue looks up at call time (JSON.stringify, Request, AbortController, setTimeout, fetch,
// Response.prototype.text, JSON.parse, clearTimeout) are wrapped to note when they are
// entered; the means (middle 80 % of calls by total) of the gaps between consecutive marks.
export async function runMarks({ baseUrl, apiKey, perPage = 10, rounds = 300, warmup = 20, ab = false, fine = false }) {
  await init();
  const bots = { package: new BotClient({ baseUrl, apiKey, maxRetries: 0 }) };
  if (ab) {
    const A = await import("/base/index.js");
    await A.default();
    bots.baseline = new A.BotClient({ baseUrl, apiKey, maxRetries: 0 });
  }
  // Plain JS doing what the transport does (AbortController, one Request, fetch, text,
  // JSON.parse), through the same wrapped globals: which marks are inherent to the platform.
  {
    const endpoint = `${baseUrl}/service/bot/graphql`;
    const base = new Request(endpoint, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` } });
    let document;
    await bots.package.orderHistory({ page: 1, perPage: 1, fields: undefined });
    await new BotClient({ baseUrl, apiKey, fetch: async (r) => { document = JSON.parse(await r.clone().text()).query; return fetch(r); } })
      .orderHistory({ page: 1, perPage });
    bots.plain = { orderHistory: async ({ page, perPage: pp }) => {
      const c = new AbortController();
      const body = JSON.stringify({ query: document, variables: { page, perPage: pp }, operationName: "OrderHistory" });
      const res = await fetch(new Request(base, { body, signal: c.signal }));
      return JSON.parse(await res.text()).data.orderHistory;
    } };
  }
  const g = globalThis;
  const real = { stringify: JSON.stringify, parse: JSON.parse, Request: g.Request, AbortController: g.AbortController,
    setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, fetch: g.fetch, text: Response.prototype.text,
    get: Reflect.get, hget: Headers.prototype.get, qm: g.queueMicrotask, race: Promise.race,
    decode: TextDecoder.prototype.decode, encodeInto: TextEncoder.prototype.encodeInto };
  let marks = null;
  const mark = (name) => { if (marks) marks.push([name, performance.now()]); };
  const names = Object.keys(bots);
  const calls = Object.fromEntries(names.map((n) => [n, []]));
  try {
    JSON.stringify = function (...a) { mark("JSON.stringify"); const r = real.stringify.apply(this, a); mark("stringify done"); return r; };
    JSON.parse = function (...a) { mark("JSON.parse"); const r = real.parse.apply(this, a); mark("parse done"); return r; };
    g.Request = function (...a) { mark("new Request"); const r = new real.Request(...a); mark("Request done"); return r; };
    g.Request.prototype = real.Request.prototype;
    g.AbortController = function () { mark("AbortController"); return new real.AbortController(); };
    g.setTimeout = function (...a) { mark("setTimeout"); return real.setTimeout.apply(this, a); };
    g.clearTimeout = function (...a) { mark("clearTimeout"); return real.clearTimeout.apply(this, a); };
    g.fetch = function (...a) {
      mark("fetch"); const p = real.fetch.apply(this, a); mark("fetch returned");
      p.then(() => mark("headers arrived"), () => {}); return p;
    };
    Response.prototype.text = function () {
      mark("text()"); const p = real.text.call(this); p.then(() => mark("body read"), () => {}); return p;
    };
    if (fine) {
      // Finer marks: every Reflect.get (by key), Headers#get, queueMicrotask (the futures
      // queue), Promise.race, and the glue's string crossings (TextDecoder / TextEncoder).
      Reflect.get = function (t, k, ...rest) { mark(`get ${typeof k === "string" ? k : "?"}`); return real.get(t, k, ...rest); };
      Headers.prototype.get = function (...a) { mark("Headers#get"); return real.hget.apply(this, a); };
      g.queueMicrotask = function (f) { mark("queueMicrotask"); return real.qm.call(g, f); };
      Promise.race = function (...a) { mark("Promise.race"); return real.race.apply(this, a); };
      TextDecoder.prototype.decode = function (...a) { mark("decode"); return real.decode.apply(this, a); };
      TextEncoder.prototype.encodeInto = function (...a) { mark("encodeInto"); return real.encodeInto.apply(this, a); };
    }
    // The package looks Response.prototype.text up once per client: one made after the wrapping.
    bots.package = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
    for (let r = 0; r < warmup + rounds; r++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + r) % names.length];
        marks = [["start", performance.now()]];
        const n = (await bots[name].orderHistory({ page: 1, perPage })).data.length;
        mark("resolved");
        if (n !== perPage) throw new Error("rows");
        if (r >= warmup) calls[name].push(marks);
        marks = null;
      }
    }
  } finally {
    Object.assign(JSON, { stringify: real.stringify, parse: real.parse });
    Object.assign(g, { Request: real.Request, AbortController: real.AbortController, setTimeout: real.setTimeout,
      clearTimeout: real.clearTimeout, fetch: real.fetch });
    Response.prototype.text = real.text;
    Reflect.get = real.get;
    Headers.prototype.get = real.hget;
    g.queueMicrotask = real.qm;
    Promise.race = real.race;
    TextDecoder.prototype.decode = real.decode;
    TextEncoder.prototype.encodeInto = real.encodeInto;
  }
  const out = {};
  for (const name of names) {
    const cs = calls[name];
    // The most common sequence of marks (the first call's, normally).
    const seq = cs[0].map(([n]) => n).join(" > ");
    const same = cs.filter((c) => c.map(([n]) => n).join(" > ") === seq);
    const totals = same.map((c) => c[c.length - 1][1] - c[0][1]);
    const sorted = [...totals].sort((a, b) => a - b);
    const lo = sorted[Math.floor(sorted.length * 0.1)], hi = sorted[Math.floor(sorted.length * 0.9)];
    const keep = same.filter((_, i) => totals[i] >= lo && totals[i] <= hi);
    const gaps = cs[0].slice(1).map(([n], i) => [`${cs[0][i][0]} → ${n}`,
      keep.reduce((a, c) => a + c[i + 1][1] - c[i][1], 0) / keep.length]);
    gaps.push(["total", keep.reduce((a, c) => a + c[c.length - 1][1] - c[0][1], 0) / keep.length]);
    out[name] = { n: keep.length, of: cs.length, gaps };
  }
  return out;
}

// A/B in one page: the package at /pkg/ (B, the change) against a copy of the baseline
// package served at /base/ (A), interleaved with plain fetch + JSON.parse.
export async function runAB({ baseUrl, apiKey, document, perPage = 10, rounds = 100, group = 5 }) {
  const A = await import("/base/index.js");
  await A.default();
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  const botA = new A.BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const botB = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const contenders = {
    fetch: async () => JSON.parse(await (await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query: document, variables }) })).text()).data.orderHistory.data.length,
    "A (baseline)": async () => (await botA.orderHistory({ page: 1, perPage })).data.length,
    "B (change)": async () => (await botB.orderHistory({ page: 1, perPage })).data.length,
  };
  return interleave(contenders, perPage, rounds, group);
}

// Times `contenders` (each must return `perPage` rows) interleaved: `rounds` rounds, each
// contender `group` calls per round, the order rotating every round; medians and quartiles.
async function interleave(contenders, perPage, rounds, group) {
  const names = Object.keys(contenders);
  for (const n of names) for (let i = 0; i < 20; i++) if ((await contenders[n]()) !== perPage) throw new Error(n);
  const times = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      const t0 = performance.now();
      for (let g = 0; g < group; g++) await contenders[name]();
      times[name].push((performance.now() - t0) / group);
    }
  }
  return Object.fromEntries(names.map((k) => [k, { median: median(times[k]), q25: q(times[k], 0.25), q75: q(times[k], 0.75) }]));
}
