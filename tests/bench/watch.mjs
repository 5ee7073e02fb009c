// `make bench`, the order watch (watchOrders) in headless Chromium against the sandbox:
// 1. main-thread time per poll of a 25-row page: 50 watches (intervalMs 1000, each with a
//    consumer taking every update) over 10 s, with a `fetch` that answers at once with one of two
//    25-row pages (5 rows differ), so every poll decodes a page, diffs it and delivers an update.
//    Chromium's own counters (CDP Performance.getMetrics: ScriptDuration, TaskDuration) before
//    and after, divided by the polls made: the package's share and the timers', no network.
// 2. requests sent over 60 s while the page is hidden (real time, real sandbox): 0 expected;
//    with the polls of 10 s visible before, for contrast.
// Writes target/bench-watch.json. Reports; does not fail on a figure.
import { chromium } from "playwright-core";
import { writeFileSync } from "node:fs";

const { SANDBOX_URL, AGENT_KEY } = process.env;
if (!SANDBOX_URL || !AGENT_KEY) throw new Error("run through scripts/with-sandbox.sh (scripts/bench.sh does)");
const HIDDEN_MS = Number(process.env.BENCH_HIDDEN_MS || 60_000);
const WATCHES = 50;
const RUN_MS = 10_000;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${SANDBOX_URL}/__sandbox/info`);
  await page.setContent("<!doctype html><html lang=en><head><meta charset=utf-8><title>bench</title></head><body></body></html>");
  await page.evaluate(async ({ key }) => {
    window.pkg = await import("/pkg/index.js");
    await window.pkg.default();
    // Two 25-row pages of agent 1 (the default selection): the second with 5 statuses changed.
    const bot = new window.pkg.BotClient({ baseUrl: location.origin, apiKey: key });
    const a = await bot.orderHistory({ page: 1, perPage: 25 });
    const b = structuredClone(a);
    for (const row of b.data.slice(0, 5)) row.status = row.status === "paid" ? "completed" : "paid";
    window.pages = [a, b].map((p) => JSON.stringify({ data: { orderHistory: p } }));
    bot.free();
    let hidden = false;
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    window.setHidden = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
  }, { key: AGENT_KEY });

  // 1. Main-thread time per poll.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  await page.evaluate(({ watches }) => {
    window.polls = 0;
    window.updates = 0;
    const fetch = async () => {
      const text = window.pages[window.polls++ % 2];
      return new Response(text, { status: 200, headers: { "content-type": "application/json" } });
    };
    const bot = new window.pkg.BotClient({ baseUrl: location.origin, apiKey: "SBX-SECK_benchonly0000", fetch });
    window.watches = [];
    for (let i = 0; i < watches; i++) {
      const w = bot.watchOrders({ intervalMs: 1000 });
      window.watches.push(w);
      (async () => { for await (const u of w) window.updates += u.rows.length === 25 ? 1 : 0; })();
    }
  }, { watches: WATCHES });
  // Let the first polls (and the code's first runs) pass before measuring.
  await page.waitForTimeout(2_500);
  const m0 = await metrics();
  const p0 = await page.evaluate(() => window.polls);
  await page.waitForTimeout(RUN_MS);
  const m1 = await metrics();
  const p1 = await page.evaluate(() => window.polls);
  const updates = await page.evaluate(() => { for (const w of window.watches) w.stop(); return window.updates; });
  const polls = p1 - p0;
  const perPoll = {
    polls,
    updates,
    scriptMsPerPoll: ((m1.ScriptDuration - m0.ScriptDuration) * 1000) / polls,
    taskMsPerPoll: ((m1.TaskDuration - m0.TaskDuration) * 1000) / polls,
  };
  console.log(`watch: main-thread time per poll of a 25-row page (${polls} polls of ${WATCHES} watches over ${RUN_MS / 1000} s, ` +
    `each a changed page diffed and delivered): script ${perPoll.scriptMsPerPoll.toFixed(3)} ms, ` +
    `all tasks ${perPoll.taskMsPerPoll.toFixed(3)} ms`);

  // 2. Requests while hidden (the real sandbox).
  const hiddenRun = await page.evaluate(async ({ key, hiddenMs }) => {
    let sent = 0;
    const counting = (request) => { sent++; return fetch(request); };
    const bot = new window.pkg.BotClient({ baseUrl: location.origin, apiKey: key, fetch: counting });
    const w = bot.watchOrders({ intervalMs: 1000 });
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    await sleep(10_000);
    const visible = sent;
    window.setHidden(true);
    await sleep(hiddenMs);
    const whileHidden = sent - visible;
    const state = w.status.state;
    w.stop();
    bot.free();
    return { visible, whileHidden, state };
  }, { key: AGENT_KEY, hiddenMs: HIDDEN_MS });
  console.log(`watch: requests over ${HIDDEN_MS / 1000} s hidden: ${hiddenRun.whileHidden} (status ${hiddenRun.state}); ` +
    `over the 10 s visible before: ${hiddenRun.visible}`);
  writeFileSync("target/bench-watch.json", JSON.stringify({ perPoll, hidden: { ms: HIDDEN_MS, ...hiddenRun } }, null, 2));
} finally {
  await browser.close();
}
