// Runs tests/bench/page/micro.js in headless Chromium against the sandbox (see that file).
//   /work/main/scripts/with-sandbox.sh --release --static-root <root> -- node tests/bench/micro.mjs
// MICRO_AB=1: runAB (the package at /pkg/ against a baseline copy served at /base/).
// MICRO_ROUNDS (100), MICRO_GROUP (5), MICRO_REPEAT (3 page runs), MICRO_ONLY (comma list).
import { chromium } from "playwright-core";

const { SANDBOX_URL, AGENT_KEY } = process.env;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args });
try {
  const repeat = Number(process.env.MICRO_REPEAT || 3);
  const runs = [];
  for (let k = 0; k < repeat; k++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    page.on("pageerror", (e) => console.error("page error:", e));
    if (k === 0) page.on("console", (m) => console.log("page:", m.text().replace(/Bearer [^"]*/, "Bearer <redacted>")));
    await page.goto(`${SANDBOX_URL}/index.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
    const r = await page.evaluate(async (cfg) => {
      const { default: init, BotClient } = await import("/pkg/index.js");
      await init();
      let doc;
      const spy = async (req) => { doc = JSON.parse(await req.clone().text()).query; return fetch(req); };
      await new BotClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey, fetch: spy }).orderHistory({ page: 1, perPage: 10 });
      const m = await import("/micro.js");
      return (cfg.ab ? m.runAB : m.runMicro)({ ...cfg, document: doc });
    }, { baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, rounds: Number(process.env.MICRO_ROUNDS || 100),
      group: Number(process.env.MICRO_GROUP || 5), only: process.env.MICRO_ONLY?.split(","), ab: !!process.env.MICRO_AB });
    await ctx.close();
    runs.push(r);
    const base = r[Object.keys(r)[0]].median;
    console.log(`run ${k + 1}:`);
    for (const [n, v] of Object.entries(r)) {
      console.log(`  ${n.padEnd(28)} ${v.median.toFixed(3)} ms (IQR ${v.q25.toFixed(3)}–${v.q75.toFixed(3)})  ${(v.median / base).toFixed(3)} x  ${((v.median - base) * 1000).toFixed(0).padStart(5)} µs`);
    }
  }
  const names = Object.keys(runs[0]);
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  console.log(`median over ${repeat} runs of the ratio to ${names[0]}:`);
  for (const n of names) {
    const ratios = runs.map((r) => r[n].median / r[names[0]].median);
    console.log(`  ${n.padEnd(28)} ${med(ratios).toFixed(3)} x  (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`);
  }
} finally {
  await browser.close();
}
