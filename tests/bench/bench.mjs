// `make bench`: headless Chromium (Debian's, via playwright-core) against the sandbox
// started by scripts/with-sandbox.sh (release build, --max-per-page 1000). Prints medians
// and ratios against the targets; writes target/bench.json. Timings on shared machines are
// noisy: this reports, it does not fail on a miss.
import { chromium } from "playwright-core";
import { writeFileSync } from "node:fs";

const { SANDBOX_URL, AGENT_KEY } = process.env;
const rounds = Number(process.env.BENCH_ROUNDS || 60);
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args });
try {
  const results = { rounds };

  // Initialisation: fresh page each time (new context: no shared compiled-module cache).
  // initMs: init() with the .wasm download; instantiateMs: init(bytes), bytes already fetched.
  for (const [key, fn] of [["initMs", "measureInit"], ["instantiateMs", "measureInstantiate"]]) {
    const times = [];
    for (let i = 0; i < 15; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(`${SANDBOX_URL}/index.html`);
      await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
      times.push(await page.evaluate((name) => window[name](), fn));
      await ctx.close();
    }
    times.sort((a, b) => a - b);
    results[key] = { median: times[times.length >> 1], min: times[0], max: times[times.length - 1] };
  }

  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on("pageerror", (e) => { console.error("page error:", e); process.exitCode = 1; });
  await page.goto(`${SANDBOX_URL}/index.html`);
  await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });

  // The exact document the package sends (from the sandbox's request log), so every
  // contender asks for the same selection.
  await fetch(`${SANDBOX_URL}/__sandbox/requests`, { method: "DELETE" });
  await page.evaluate(async ({ u, k }) => {
    const { default: init, BotClient } = await import("/pkg/index.js");
    await init();
    await new BotClient({ baseUrl: u, apiKey: k }).orderHistory({ page: 1, perPage: 1 });
  }, { u: SANDBOX_URL, k: AGENT_KEY });
  const log = await (await fetch(`${SANDBOX_URL}/__sandbox/requests`)).json();
  const document = log[log.length - 1].query;

  for (const perPage of [10, 1000]) {
    results[`rows${perPage}`] = await page.evaluate((cfg) => window.runBench(cfg), {
      baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, document, perPage, rounds: perPage === 10 ? rounds * 3 : rounds, warmup: 10,
    });
  }
  await ctx.close();

  const r10 = results.rows10, r1k = results.rows1000;
  const ratio = (r, k) => r[k].median / r.fetch.median;
  const line = (label, value, target, ok) => console.log(`${label.padEnd(44)} ${value.padStart(12)}   target ${target.padEnd(10)} ${ok ? "ok" : "MISS"}`);
  console.log("\n== benchmark (medians; headless Chromium; local sandbox)");
  for (const [name, r] of [["10 rows", r10], ["1,000 rows", r1k]]) {
    for (const k of Object.keys(r)) console.log(`${name.padEnd(11)} ${k.padEnd(16)} ${r[k].median.toFixed(2).padStart(8)} ms  (min ${r[k].min.toFixed(2)}, n ${r[k].n})`);
  }
  line("10-row orderHistory vs plain fetch", `${((ratio(r10, "settlement-wasm") - 1) * 100).toFixed(1)} %`, "<= +5 %", ratio(r10, "settlement-wasm") <= 1.05);
  line("1,000-row page vs fetch + JSON.parse", `${ratio(r1k, "settlement-wasm").toFixed(2)} x`, "<= 1.5 x", ratio(r1k, "settlement-wasm") <= 1.5);
  line("wasm instantiation (init(bytes)), median", `${results.instantiateMs.median.toFixed(2)} ms`, "<= 10 ms", results.instantiateMs.median <= 10);
  line("init() with the .wasm download, median", `${results.initMs.median.toFixed(2)} ms`, "<= 10 ms", results.initMs.median <= 10);
  console.log(`(graphql-request for reference: 10 rows ${ratio(r10, "graphql-request").toFixed(2)} x, 1,000 rows ${ratio(r1k, "graphql-request").toFixed(2)} x of plain fetch)`);
  writeFileSync("target/bench.json", JSON.stringify(results, null, 2));
  console.log("wrote target/bench.json");
} finally {
  await browser.close();
}
