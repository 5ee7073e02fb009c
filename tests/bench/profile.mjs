// CPU profile of the per-call path: headless Chromium, CDP Profiler sampling every
// PROF_INTERVAL_US (default 50) µs over PROF_N (default 3000) sequential 10-row orderHistory
// calls, for the package and for plain fetch + JSON.parse, against the real sandbox and with
// a `fetch` that resolves at once (no network). Prints self time per function in µs per call.
// Run: tests/bench/profile-build.sh, then
//   /work/main/scripts/with-sandbox.sh --release --static-root target/prof-root -- node tests/bench/profile.mjs
import { chromium } from "playwright-core";
import { writeFileSync } from "node:fs";

const { SANDBOX_URL, AGENT_KEY } = process.env;
const N = Number(process.env.PROF_N || 3000);
const interval = Number(process.env.PROF_INTERVAL_US || 50);
const top = Number(process.env.PROF_TOP || 40);
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args });
try {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.error("page error:", e));
  await page.goto(`${SANDBOX_URL}/index.html`);
  await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
  await page.evaluate(async ({ baseUrl, apiKey }) => {
    const { default: init, BotClient } = await import("/pkg/index.js");
    await init();
    const endpoint = `${baseUrl}/service/bot/graphql`;
    const headers = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
    // The document the package sends, so plain fetch asks for the same selection.
    let doc;
    const spy = (input, init) => { doc = JSON.parse(init?.body ?? "null")?.query; return fetch(input, init); };
    const spyReq = async (req) => { doc = JSON.parse(await req.clone().text()).query; return fetch(req); };
    await new BotClient({ baseUrl, apiKey, fetch: spyReq }).orderHistory({ page: 1, perPage: 10 });
    const variables = { page: 1, perPage: 10 };
    const text = await (await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query: doc, variables }) })).text();
    const fake = () => Promise.resolve(new Response(text, { status: 200, headers: { "content-type": "application/json" } }));
    const bot = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
    const botFake = new BotClient({ baseUrl, apiKey, maxRetries: 0, fetch: fake });
    window.prof = {
      package: async () => (await bot.orderHistory({ page: 1, perPage: 10 })).data.length,
      fetch: async () => {
        const res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify({ query: doc, variables }) });
        return JSON.parse(await res.text()).data.orderHistory.data.length;
      },
      "package (no network)": async () => (await botFake.orderHistory({ page: 1, perPage: 10 })).data.length,
      "fetch (no network)": async () => {
        const res = await fake(new Request(endpoint, { method: "POST", headers, body: JSON.stringify({ query: doc, variables }) }));
        return JSON.parse(await res.text()).data.orderHistory.data.length;
      },
    };
    window.loop = async (name, n) => {
      const fn = window.prof[name];
      const t0 = performance.now();
      for (let i = 0; i < n; i++) if ((await fn()) !== 10) throw new Error("rows");
      return performance.now() - t0;
    };
  }, { baseUrl: SANDBOX_URL, apiKey: AGENT_KEY });

  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval });
  const report = {};
  for (const name of (process.env.PROF_ONLY ? process.env.PROF_ONLY.split(",") : Object.keys(await page.evaluate(() => Object.keys(window.prof)).then((ks) => Object.fromEntries(ks.map((k) => [k, 1])))))) {
    await page.evaluate(([n]) => window.loop(n, 300), [name]);
    await cdp.send("Profiler.start");
    const ms = await page.evaluate(([n, k]) => window.loop(n, k), [name, N]);
    const { profile } = await cdp.send("Profiler.stop");
    // Self time per node = samples hitting it × their time deltas.
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    const dt = profile.timeDeltas;
    for (let i = 0; i < profile.samples.length; i++) {
      const n = byId.get(profile.samples[i]);
      const d = dt[i + 1] ?? 0;
      const cf = n.callFrame;
      const file = cf.url ? cf.url.replace(/^.*\//, "") : "";
      const key = `${cf.functionName || "(anonymous)"}  ${file}${cf.url ? ":" + (cf.lineNumber + 1) : ""}`;
      self.set(key, (self.get(key) || 0) + d);
    }
    // Inclusive time per function: each sample counted once per distinct function on its stack.
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
    const keyOf = (n) => { const cf = n.callFrame; const file = cf.url ? cf.url.replace(/^.*\//, "") : "";
      return `${cf.functionName || "(anonymous)"}  ${file}${cf.url ? ":" + (cf.lineNumber + 1) : ""}`; };
    const incl = new Map();
    for (let i = 0; i < profile.samples.length; i++) {
      const d = dt[i + 1] ?? 0;
      const seen = new Set();
      for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
        const k = keyOf(byId.get(id));
        if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) || 0) + d); }
      }
    }
    const rows = [...self.entries()].sort((a, b) => b[1] - a[1]);
    const busy = rows.filter(([k]) => !/^\((idle|program|garbage collector)\)/.test(k)).reduce((a, [, v]) => a + v, 0);
    console.log(`\n== ${name}: ${(ms / N * 1000).toFixed(1)} µs per call wall; JS+wasm+native self time (not idle/program/GC) ${(busy / N).toFixed(1)} µs per call`);
    for (const [k, v] of rows.slice(0, top)) console.log(`${(v / N).toFixed(2).padStart(9)} µs  ${k}`);
    if (process.env.PROF_INCLUSIVE) {
      console.log(`-- inclusive (µs per call)`);
      for (const [k, v] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROF_INCLUSIVE))) console.log(`${(v / N).toFixed(2).padStart(9)} µs  ${k}`);
    }
    if (process.env.PROF_LINES) {
      // Self samples by source line (positionTicks), by function and file.
      const lines = new Map();
      for (const n of profile.nodes) {
        const at = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\//, "") || "(page)"}:`;
        for (const t of n.positionTicks || []) lines.set(at + t.line, (lines.get(at + t.line) || 0) + t.ticks);
      }
      const total = profile.samples.length;
      console.log(`-- source lines by self samples (share of all ${total} samples)`);
      for (const [l, t] of [...lines.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROF_LINES))) {
        console.log(`${(100 * t / total).toFixed(2).padStart(7)} %  ${l}`);
      }
    }
    report[name] = { wallUsPerCall: ms / N * 1000, busyUsPerCall: busy / N, self: Object.fromEntries(rows.map(([k, v]) => [k, v / N])) };
  }
  writeFileSync("target/profile.json", JSON.stringify(report, null, 2));
} finally {
  await browser.close();
}
