// `make bench`: headless Chromium (Debian's, via playwright-core) against the sandbox
// started by scripts/with-sandbox.sh (release build, --max-per-page 1000). In ONE run, for
// BENCH_BATCHES batches (default 3): per-call times (10 and 1,000 rows) of the package, plain
// fetch + JSON.parse and graphql-request; instantiation (init(bytes)); and cold start (from
// `import()` to the first `profile()` result, in a fresh browser context) locally and under
// network emulation, with and without the preload hints, for the root entry and for
// settlement-wasm/bot (with its hints), and the byte floor of each (computed, and measured: the
// same files through the same chain with no work). Prints the median of the
// batch medians and their spread (min–max), a per-phase breakdown of one call, and the targets;
// writes target/bench.json. Timings on shared machines are noisy: this reports, it does not
// fail on a miss.
//
// Cold start is served by a small static server here (as a real server would: gzip-encoded,
// `Cache-Control: no-cache`, `application/wasm`), which forwards /service/ and /__sandbox/ to
// the sandbox, so the page, the package and the GraphQL calls share one origin (no CORS
// preflight for either contender).
import { chromium } from "playwright-core";
import { readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { join, extname, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const { SANDBOX_URL, AGENT_KEY } = process.env;
// Rounds per batch (the 10-row loop runs 2 x rounds samples of 5 calls per contender). A
// 10-row call's time spreads widely on the local network (deciles 2.1-3.9 ms around a 2.8 ms
// median, measured), so a batch's median of 120 samples moved the 10-row ratio by ~1.4 %
// (batches of one run spread 1.000-1.083); 600 samples bring that to ~0.6 %.
const rounds = Number(process.env.BENCH_ROUNDS || 300);
const batches = Number(process.env.BENCH_BATCHES || 3);
const coldRuns = Number(process.env.BENCH_COLD_RUNS || 5);
const root = process.env.BENCH_ROOT || "target/bench-root";
// Chromium's network emulation: 1.6 Mbit/s down and up, 150 ms latency, no cache.
const EMULATION = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 1.6e6 / 8 };

const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// ---- the static server for the cold-start pages ------------------------------------------
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".json": "application/json" };

// The browser files of an entry of the package (`.` the root, `./bot`), found from its
// package.json (so they follow the layout): the entry's JavaScript, every module it imports,
// and its .wasm (the `<file>_bg.wasm` subpath beside it).
const WASM_SUBPATH = { ".": "./settlement_wasm_bg.wasm", "./bot": "./bot_bg.wasm" };
function entryFiles(subpath) {
  const pkg = JSON.parse(readFileSync(join(root, "pkg/package.json"), "utf8"));
  const entry = pkg.exports[subpath].default.default.replace(/^\.\//, "");
  const wasm = pkg.exports[WASM_SUBPATH[subpath]].replace(/^\.\//, "");
  const modules = [entry];
  for (let i = 0; i < modules.length; i++) {
    const src = readFileSync(join(root, "pkg", modules[i]), "utf8");
    const dir = modules[i].includes("/") ? modules[i].replace(/\/[^/]*$/, "/") : "";
    for (const [, rel] of src.matchAll(/(?:from|import)\s*["'](\.\.?\/[^"']+\.js)["']/g)) {
      const p = normalize(dir + rel);
      if (!modules.includes(p)) modules.push(p);
    }
  }
  return { modules, wasm };
}

// Preload hints for an entry's files: modulepreload for the entry and every module it
// imports, preload as=fetch for the .wasm (the pair the npm README documents).
function hints(subpath) {
  const { modules, wasm } = entryFiles(subpath);
  return [...modules.map((m) => `<link rel="modulepreload" href="/pkg/${m}">`),
    `<link rel="preload" href="/pkg/${wasm}" as="fetch" crossorigin>`].join("");
}

/**
 * The same files as `hints(subpath)`, requested the same way (at once, beside the page's
 * script) but as plain fetches: nothing is parsed, compiled or run. The page that uses them
 * (cold.js, `c=floor-…`) reads each file whole and sends the first call: the byte floor,
 * measured under the same emulation as the real page.
 */
function floorHints(subpath) {
  return floorFiles(subpath).map((f) => `<link rel="preload" href="${f}" as="fetch" crossorigin>`).join("");
}

/** The URLs of an entry's browser files (its modules and its .wasm). */
function floorFiles(subpath) {
  const { modules, wasm } = entryFiles(subpath);
  return [...modules, wasm].map((f) => `/pkg/${f}`);
}

/**
 * The byte floor of a cold start under the emulation: the time to receive the page and the
 * files it needs at that rate and latency, with nothing else (no compile, no work): one
 * emulated latency per round trip of its chain, and every gzip byte at the emulated rate. A
 * page with the hints has three round trips (the page; its script, the entry and the .wasm
 * requested together; the first call); graphql-request's page four (the page, its script, the
 * bundle it imports, the call).
 */
function floorMs(files, roundTrips) {
  const bytes = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  return { bytes, roundTrips, ms: roundTrips * EMULATION.latency + (bytes / EMULATION.downloadThroughput) * 1000 };
}

function startServer() {
  const sandbox = new URL(SANDBOX_URL);
  const page = (links) => () => readFileSync(join(root, "www/cold.html"), "utf8").replace("<!--HINTS-->", links);
  const pages = {
    "/cold-hints.html": page(hints(".")), "/cold-bot-hints.html": page(hints("./bot")),
    "/cold-floor.html": page(floorHints(".")), "/cold-bot-floor.html": page(floorHints("./bot")),
  };
  const gz = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname.startsWith("/service/") || url.pathname.startsWith("/__sandbox/")) {
      const fwd = httpRequest({ host: sandbox.hostname, port: sandbox.port, path: req.url, method: req.method,
        headers: { ...req.headers, host: sandbox.host } }, (up) => { res.writeHead(up.statusCode, up.headers); up.pipe(res); });
      fwd.on("error", () => { res.writeHead(502); res.end(); });
      req.pipe(fwd);
      return;
    }
    let body;
    if (pages[url.pathname]) body = Buffer.from(pages[url.pathname]());
    else {
      const file = url.pathname.startsWith("/pkg/") ? join(root, url.pathname) : join(root, "www", url.pathname);
      if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
      body = readFileSync(file);
    }
    const headers = { "content-type": TYPES[extname(url.pathname)] || "application/octet-stream", "cache-control": "no-cache" };
    if (/\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
      const k = body.toString("base64");
      if (!gz.has(k)) gz.set(k, gzipSync(body, { level: 9 }));
      body = gz.get(k);
      headers["content-encoding"] = "gzip";
      headers.vary = "accept-encoding";
    }
    headers["content-length"] = body.length;
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// ---- statistics --------------------------------------------------------------------------
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const summary = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), batches: xs });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args });
const server = await startServer();
const origin = `http://127.0.0.1:${server.address().port}`;
// What each measured floor reads: an entry's files (requested by the page's preload links),
// or graphql-request's bundle (requested by the page's script, as its `import()` does).
const FLOOR_FILES = { bot: floorFiles("./bot"), pkg: floorFiles("."), gql: ["/vendor/graphql-request.js"] };
try {
  // The exact documents the package sends (from the sandbox's request log), so every
  // contender asks for the same selection.
  const ctx0 = await browser.newContext();
  const page0 = await ctx0.newPage();
  await page0.goto(`${SANDBOX_URL}/index.html`);
  await page0.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
  await fetch(`${SANDBOX_URL}/__sandbox/requests`, { method: "DELETE" });
  await page0.evaluate(async ({ u, k }) => {
    const { default: init, BotClient } = await import("/pkg/index.js");
    await init();
    const bot = new BotClient({ baseUrl: u, apiKey: k });
    await bot.orderHistory({ page: 1, perPage: 1 });
    await bot.profile();
  }, { u: SANDBOX_URL, k: AGENT_KEY });
  await ctx0.close();
  const log = await (await fetch(`${SANDBOX_URL}/__sandbox/requests`)).json();
  const document = log[log.length - 2].query;
  const profileDocument = log[log.length - 1].query;

  // One fresh context per measurement: no shared HTTP or compiled-module cache.
  async function fresh(url, fn, { emulate = false, init } = {}) {
    const ctx = await browser.newContext();
    if (init) await ctx.addInitScript(init.script, init.arg);
    const page = await ctx.newPage();
    page.on("pageerror", (e) => { console.error("page error:", e); process.exitCode = 1; });
    if (emulate) {
      const cdp = await ctx.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await cdp.send("Network.emulateNetworkConditions", EMULATION);
    }
    await page.goto(url);
    try { return await fn(page); } finally { await ctx.close(); }
  }

  const timelines = {};
  async function cold(contender, emulate, withHints) {
    const times = { importToProfile: [], navToProfile: [] };
    const runs = [];
    const hinted = { bot: "cold-bot-hints", pkg: "cold-hints", "floor-bot": "cold-bot-floor", "floor-pkg": "cold-floor" }[contender];
    for (let i = 0; i < coldRuns; i++) {
      const r = await fresh(`${origin}/${withHints ? hinted : "cold"}.html?c=${contender}`, async (page) => {
        await page.waitForFunction(() => window.coldResult, null, { polling: 10, timeout: 30000 });
        return page.evaluate(() => window.coldResult);
      }, { emulate, init: { script: (b) => { window.__bench = b; }, arg: { key: AGENT_KEY, profileDocument, floorFiles: FLOOR_FILES } } });
      times.importToProfile.push(r.importToProfile);
      times.navToProfile.push(r.navToProfile);
      runs.push(r);
    }
    // The run with the median time, for the waterfall printed at the end.
    const mid = [...runs].sort((a, b) => a.importToProfile - b.importToProfile)[runs.length >> 1];
    timelines[`${emulate ? "emulated" : "local"} ${contender}${withHints ? " + hints" : ""}`] = mid;
    return { importToProfile: median(times.importToProfile), navToProfile: median(times.navToProfile) };
  }

  const perBatch = [];
  for (let b = 0; b < batches; b++) {
    const out = {};
    for (const [key, fn] of [["initMs", "measureInit"], ["instantiateMs", "measureInstantiate"]]) {
      const times = [];
      for (let i = 0; i < 7; i++) {
        times.push(await fresh(`${SANDBOX_URL}/index.html`, async (page) => {
          await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
          return page.evaluate((name) => window[name](), fn);
        }));
      }
      out[key] = median(times);
    }
    await fresh(`${SANDBOX_URL}/index.html`, async (page) => {
      await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
      for (const perPage of [10, 1000]) {
        const r = await page.evaluate((cfg) => window.runBench(cfg), {
          baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, document, perPage, rounds: perPage === 10 ? rounds * 2 : rounds / 2,
          warmup: 10, group: perPage === 10 ? 5 : 2,
        });
        for (const [k, v] of Object.entries(r)) out[`rows${perPage} ${k}`] = v.median;
      }
    });
    for (const [label, emulate] of coldRuns > 0 ? [["local", false], ["emulated", true]] : []) {
      for (const [name, c, h] of [["settlement-wasm", "pkg", false], ["settlement-wasm + hints", "pkg", true],
        ["settlement-wasm/bot + hints", "bot", true], ["graphql-request", "gql", false],
        ["floor settlement-wasm + hints", "floor-pkg", true], ["floor settlement-wasm/bot + hints", "floor-bot", true],
        ["floor graphql-request", "floor-gql", false]]) {
        if ((h || c.startsWith("floor")) && !emulate) continue;
        const r = await cold(c, emulate, h);
        out[`cold ${label} ${name}`] = r.importToProfile;
        out[`cold ${label} ${name} (from navigation)`] = r.navToProfile;
      }
    }
    perBatch.push(out);
    console.log(`batch ${b + 1}/${batches}: 10 rows ${(out["rows10 settlement-wasm"] / out["rows10 fetch"]).toFixed(3)} x fetch, ` +
      `1,000 rows ${(out["rows1000 settlement-wasm"] / out["rows1000 fetch"]).toFixed(3)} x, instantiate ${out.instantiateMs.toFixed(2)} ms, ` +
      `cold emulated ${out["cold emulated settlement-wasm"]?.toFixed(0)} vs ${out["cold emulated graphql-request"]?.toFixed(0)} ms`);
  }

  // Ratios per batch, then the median and spread across batches.
  for (const out of perBatch) {
    for (const n of [10, 1000]) {
      out[`rows${n} ratio package/fetch`] = out[`rows${n} settlement-wasm`] / out[`rows${n} fetch`];
      out[`rows${n} ratio package/graphql-request`] = out[`rows${n} settlement-wasm`] / out[`rows${n} graphql-request`];
      out[`rows${n} ratio graphql-request/fetch`] = out[`rows${n} graphql-request`] / out[`rows${n} fetch`];
    }
    if (coldRuns === 0) continue;
    for (const l of ["local", "emulated"]) out[`cold ${l} ratio package/graphql-request`] = out[`cold ${l} settlement-wasm`] / out[`cold ${l} graphql-request`];
    out["cold emulated ratio package+hints/graphql-request"] = out["cold emulated settlement-wasm + hints"] / out["cold emulated graphql-request"];
    out["cold emulated ratio package+hints/graphql-request (from navigation)"] =
      out["cold emulated settlement-wasm + hints (from navigation)"] / out["cold emulated graphql-request (from navigation)"];
    out["cold emulated ratio bot+hints/graphql-request (from navigation)"] =
      out["cold emulated settlement-wasm/bot + hints (from navigation)"] / out["cold emulated graphql-request (from navigation)"];
    for (const name of ["settlement-wasm + hints", "settlement-wasm/bot + hints", "graphql-request"]) {
      out[`cold emulated ratio ${name}/its measured floor (from navigation)`] =
        out[`cold emulated ${name} (from navigation)`] / out[`cold emulated floor ${name} (from navigation)`];
    }
  }
  const results = { rounds, batches, coldRuns, emulation: EMULATION };
  for (const k of Object.keys(perBatch[0])) results[k] = summary(perBatch.map((o) => o[k]));

  // Where the time of a 10-row call goes (one extra run, instrumented).
  results.breakdown = await fresh(`${SANDBOX_URL}/index.html`, async (page) => {
    await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
    return page.evaluate((cfg) => window.runBreakdown(cfg), {
      baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, document, perPage: 10, rounds: rounds * 3, warmup: 10,
    });
  });

  // The same call without the network (fetch resolves at once to a recorded body).
  results.overhead = await fresh(`${SANDBOX_URL}/index.html`, async (page) => {
    await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
    return page.evaluate((cfg) => window.runOverhead(cfg), { baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, document, perPage: 10, n: 2000 });
  });

  const fmt = (s, d = 2, unit = " ms") => `${s.median.toFixed(d)}${unit}  (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
  console.log(`\n== benchmark: medians of ${batches} batch medians (spread min–max); headless Chromium; local release sandbox`);
  for (const k of Object.keys(results)) {
    if (!results[k] || results[k].median === undefined) continue;
    const ratio = k.includes("ratio");
    console.log(`${k.padEnd(66)} ${fmt(results[k], ratio ? 3 : 2, ratio ? " x" : " ms")}`);
  }
  console.log("\n== breakdown of one 10-row call (means of the middle 80 %, ms; fetch and Response.prototype.text wrapped to mark the phases)");
  const phases = Object.keys(results.breakdown.fetch);
  console.log(`${"phase".padEnd(18)} ${"fetch".padStart(9)} ${"package".padStart(9)} ${"diff".padStart(9)}`);
  for (const p of phases) {
    const a = results.breakdown.fetch[p], b = results.breakdown["settlement-wasm"][p];
    console.log(`${p.padEnd(18)} ${a.toFixed(3).padStart(9)} ${b.toFixed(3).padStart(9)} ${(b - a >= 0 ? "+" : "") + (b - a).toFixed(3).padStart(8)}`);
  }

  const o = results.overhead;
  console.log(`\n== per-call cost without the network (10-row body, fetch resolves at once; means of 2,000 calls, ms)`);
  console.log(`plain fetch: ${o.fetch.total.toFixed(4)} a call (${o.fetch.before.toFixed(4)} before fetch); ` +
    `package: ${o["settlement-wasm"].total.toFixed(4)} (${o["settlement-wasm"].before.toFixed(4)} before fetch); ` +
    `difference ${(o["settlement-wasm"].total - o.fetch.total).toFixed(4)}`);

  if (coldRuns > 0) {
    console.log("\n== cold start waterfall (the median run of the last batch; ms from navigation: request start → response end)");
    for (const [name, run] of Object.entries(timelines)) {
      console.log(`${name}: import() at ${run.start.toFixed(0)}, profile() at ${run.navToProfile.toFixed(0)}`);
      for (const e of run.timeline) {
        console.log(`   ${e.name.padEnd(28)} ${e.start.toFixed(0).padStart(6)} → ${e.end.toFixed(0).padStart(6)}`);
      }
    }
    results.timelines = timelines;
  }

  const r = (k) => results[k].median;
  const line = (label, value, target, ok) => console.log(`${label.padEnd(72)} ${value.padStart(12)}   target ${target.padEnd(22)} ${ok ? "ok" : "MISS"}`);
  console.log("\n== targets (medians across batches)");
  line("10-row orderHistory / graphql-request", `${r("rows10 ratio package/graphql-request").toFixed(3)} x`, "<= 1 x (no slower)", r("rows10 ratio package/graphql-request") <= 1);
  line("10-row orderHistory / plain fetch", `${r("rows10 ratio package/fetch").toFixed(3)} x`, "(reported)", true);
  line("1,000-row page / fetch + JSON.parse", `${r("rows1000 ratio package/fetch").toFixed(3)} x`, "<= 1.05 x", r("rows1000 ratio package/fetch") <= 1.05);
  line("instantiation, init(bytes)", `${r("instantiateMs").toFixed(2)} ms`, "<= 5 ms", r("instantiateMs") <= 5);
  if (coldRuns > 0) {
    const hinted = r("cold emulated ratio package+hints/graphql-request (from navigation)");
    line("cold start emulated, preload hints, from navigation / graphql-request", `${hinted.toFixed(3)} x`, "<= 1.05 x", hinted <= 1.05);
    const bot = r("cold emulated ratio bot+hints/graphql-request (from navigation)");
    line("cold start emulated, bot entry + hints, from navigation / graphql-request", `${bot.toFixed(3)} x`, "<= 1.00 x", bot <= 1);
    line("cold start emulated, no hints, import() -> profile() / graphql-request", `${r("cold emulated ratio package/graphql-request").toFixed(3)} x`, "(reported)", true);
    const botFloor = r("cold emulated ratio settlement-wasm/bot + hints/its measured floor (from navigation)");
    line("cold start emulated, bot entry + hints / its measured byte floor", `${botFloor.toFixed(3)} x`, "<= 1.05 x", botFloor <= 1.05);
    // The byte floor of each: what receiving its files alone takes at the emulated rate and
    // latency; the rest of its cold start is work (compile, instantiate, the first call).
    const html = join(root, "www/cold.html");
    const files = (subpath) => { const { modules, wasm } = entryFiles(subpath); return [html, join(root, "www/cold.js"), ...[...modules, wasm].map((f) => join(root, "pkg", f))]; };
    console.log("\n== byte floor (round trips x latency + the gzip bytes at the emulated rate) and the distance from it (medians, from navigation)");
    for (const [label, key, list, trips] of [
      ["settlement-wasm + hints", "cold emulated settlement-wasm + hints (from navigation)", files("."), 3],
      ["settlement-wasm/bot + hints", "cold emulated settlement-wasm/bot + hints (from navigation)", files("./bot"), 3],
      ["graphql-request", "cold emulated graphql-request (from navigation)", [html, join(root, "www/cold.js"), join(root, "www/vendor/graphql-request.js")], 4],
    ]) {
      const f = floorMs(list, trips);
      const t = r(key);
      results[`floor ${label}`] = f;
      console.log(`${label.padEnd(30)} ${String(f.bytes).padStart(7)} B gzip, ${trips} round trips  floor ${f.ms.toFixed(0).padStart(5)} ms  ` +
        `measured ${t.toFixed(0).padStart(5)} ms  ${(t / f.ms).toFixed(3)} x the floor (+${(t - f.ms).toFixed(0)} ms of work and waits)`);
    }
    // The floor measured: a page that receives the same files through the same chain under the
    // same emulation and sends the same first call, with no work (nothing parsed, compiled or
    // run: cold.js `c=floor-…`). What the computed floor leaves out (the emulation's own cost
    // per request, the call's server time) is in both, so the distance from it is the work.
    console.log("\n== byte floor, measured (the same files and chain, read whole, no work; then the same call) and the distance from it (medians, from navigation)");
    for (const label of ["settlement-wasm + hints", "settlement-wasm/bot + hints", "graphql-request"]) {
      const t = r(`cold emulated ${label} (from navigation)`);
      const f = r(`cold emulated floor ${label} (from navigation)`);
      console.log(`${label.padEnd(30)} floor ${f.toFixed(0).padStart(5)} ms  measured ${t.toFixed(0).padStart(5)} ms  ` +
        `${(t / f).toFixed(3)} x the floor (+${(t - f).toFixed(0)} ms of work: parse, compile, instantiate, the call's own code)`);
    }
  }
  writeFileSync("target/bench.json", JSON.stringify(results, null, 2));
  console.log("wrote target/bench.json");
} finally {
  server.close();
  await browser.close();
}
