// In-page benchmark: the package vs plain fetch + JSON.parse vs graphql-request, same
// endpoint, same document, same variables. Driven by tests/bench/bench.mjs (Playwright).
// Exposes window.runBench(config) -> results.
import init, { BotClient } from "/pkg/index.js";
import { GraphQLClient } from "/vendor/graphql-request.js";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// init() as a page calls it: download of the .wasm (no HTTP cache: new context, and the
// sandbox sends no-cache), compile and instantiate.
window.measureInit = async () => {
  const t0 = performance.now();
  await init();
  return performance.now() - t0;
};

// Instantiation alone: the bytes are fetched first (untimed), then init(bytes) compiles and
// instantiates them.
window.measureInstantiate = async () => {
  const bytes = await (await fetch("/pkg/web/settlement_wasm_bg.wasm")).arrayBuffer();
  const t0 = performance.now();
  await init(bytes);
  return performance.now() - t0;
};

window.runBench = async ({ baseUrl, apiKey, document, perPage, rounds, warmup, group = 1 }) => {
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  const bot = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const gql = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = () => JSON.stringify({ query: document, variables });
  const contenders = {
    fetch: async () => {
      const res = await fetch(endpoint, {
        method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` }, body: body(),
      });
      const json = JSON.parse(await res.text());
      return json.data.orderHistory.data.length;
    },
    "graphql-request": async () => (await gql.request(document, variables)).orderHistory.data.length,
    "settlement-wasm": async () => (await bot.orderHistory({ page: 1, perPage })).data.length,
  };
  for (const [name, fn] of Object.entries(contenders)) {
    const n = await fn();
    if (n !== perPage) throw new Error(`${name} returned ${n} rows, expected ${perPage}`);
    for (let i = 0; i < warmup; i++) await fn();
  }
  // One sample = `group` calls in a row, divided by `group`: the browser's clock has a 0.1 ms
  // (jittered) resolution, too coarse for a 5 % difference on a 2 ms call.
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    // Interleave, rotating the order each round, so drift hits every contender alike.
    const names = Object.keys(contenders);
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      const t0 = performance.now();
      for (let g = 0; g < group; g++) await contenders[name]();
      times[name].push((performance.now() - t0) / group);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { median: median(xs), min: Math.min(...xs), n: xs.length }]));
};
// Where the time of one call goes, for plain fetch and for the package: the global `fetch`
// and `Response.prototype.text` are wrapped (the package looks `fetch` up at call time and
// `Response.prototype.text` up once per client: the client is made after the wrapping) to mark
// when the request leaves, when the response headers arrive, when `text()` is called and
// when the body is read; the end is when the call's promise resolves. Each mark's `then` is
// attached before the caller's, so it runs first. Medians of each phase, in ms.
window.runBreakdown = async ({ baseUrl, apiKey, document, perPage, rounds, warmup }) => {
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  let bot;
  const contenders = {
    fetch: async () => {
      const res = await fetch(endpoint, {
        method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query: document, variables }),
      });
      return JSON.parse(await res.text()).data.orderHistory.data.length;
    },
    "settlement-wasm": async () => (await bot.orderHistory({ page: 1, perPage })).data.length,
  };
  const realFetch = globalThis.fetch, realText = Response.prototype.text;
  let m = null;
  globalThis.fetch = function (...args) {
    const mark = m; mark.fetch = performance.now();
    const p = realFetch.apply(this, args);
    p.then(() => { mark.headers = performance.now(); }, () => {});
    return p;
  };
  Response.prototype.text = function () {
    const mark = m; mark.text = performance.now();
    const p = realText.call(this);
    p.then(() => { mark.body = performance.now(); }, () => {});
    return p;
  };
  bot = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const names = Object.keys(contenders);
  const phases = Object.fromEntries(names.map((n) => [n,
    { before: [], network: [], "headers→text()": [], "text() read": [], "body→resolved": [], total: [] }]));
  const out = {};
  try {
    // Interleaved, rotating the order each round, as in runBench.
    for (let r = 0; r < warmup + rounds; r++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + r) % names.length];
        m = {};
        const t0 = performance.now();
        await contenders[name]();
        const end = performance.now();
        if (r < warmup) continue;
        const p = phases[name];
        p.before.push(m.fetch - t0);
        p.network.push(m.headers - m.fetch);
        p["headers→text()"].push(m.text - m.headers);
        p["text() read"].push(m.body - m.text);
        p["body→resolved"].push(end - m.body);
        p.total.push(end - t0);
      }
    }
    for (const name of names) {
      // Means over the calls whose total lies between the 10th and 90th percentile (each
      // mark has the clock's 0.1 ms jittered resolution; a mean resolves below it).
      const p = phases[name];
      const sorted = [...p.total].sort((a, b) => a - b);
      const lo = sorted[Math.floor(sorted.length * 0.1)], hi = sorted[Math.floor(sorted.length * 0.9)];
      const keep = p.total.map((t) => t >= lo && t <= hi);
      const mean = (xs) => { const k = xs.filter((_, i) => keep[i]); return k.reduce((a, b) => a + b, 0) / k.length; };
      out[name] = Object.fromEntries(Object.entries(p).map(([k, xs]) => [k, mean(xs)]));
    }
  } finally {
    globalThis.fetch = realFetch;
    Response.prototype.text = realText;
  }
  return out;
};

// Per-call overhead without the network: `n` calls in a row whose `fetch` resolves at once
// to a Response with a recorded 10-row body; the plain contender does what a page would
// (JSON.stringify, new Request, fetch, text(), JSON.parse). Mean ms per call: the whole call,
// and the part before `fetch` is called.
window.runOverhead = async ({ baseUrl, apiKey, document, perPage, n }) => {
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  const text = await (await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query: document, variables }) })).text();
  let before = 0, t0 = 0;
  const fake = (input, init) => {
    before += performance.now() - t0;
    return Promise.resolve(new Response(text, { status: 200, headers: { "content-type": "application/json" } }));
  };
  const bot = new BotClient({ baseUrl, apiKey, maxRetries: 0, fetch: fake });
  const contenders = {
    fetch: async () => {
      const res = await fake(new Request(endpoint, { method: "POST", headers, body: JSON.stringify({ query: document, variables }) }));
      return JSON.parse(await res.text()).data.orderHistory.data.length;
    },
    "settlement-wasm": async () => (await bot.orderHistory({ page: 1, perPage })).data.length,
  };
  const out = {};
  for (let pass = 0; pass < 2; pass++) {
    for (const [name, fn] of Object.entries(contenders)) {
      before = 0;
      let total = 0;
      for (let i = 0; i < n; i++) {
        t0 = performance.now();
        await fn();
        total += performance.now() - t0;
      }
      if (pass === 1) out[name] = { total: total / n, before: before / n };
    }
  }
  return out;
};

document.getElementById("out").textContent = "ready";
window.benchReady = true;
