// `bot.watchOrders()` in Chromium (playwright-core): one request at a time, the pause while the
// page is hidden, the backoff after failures (and Retry-After), stop / break / abort during a
// request, coalescing for a slow consumer, and 200 watches created and stopped leaving no timer
// and a flat heap. The page is a blank document on the sandbox's origin importing /pkg/index.js.
// Each watch gets a `fetch` that records when each request started and ended (and whether its
// signal was aborted) around the real fetch; the sandbox's fault header slows or fails requests.
// Agent 3 (no seeded orders) receives the orders created here; its state is reset around the
// tests that create some. Timing bounds are one-sided or generous (a loaded 2-core machine).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, requireSandbox, SANDBOX_URL } from "./support/browser.mjs";

const AGENT3_KEY = process.env.AGENT3_KEY;

let browser;
let context;
let page;
const problems = [];

before(async () => {
  requireSandbox();
  assert.ok(AGENT3_KEY, "AGENT3_KEY is not set: run through scripts/with-sandbox.sh");
  browser = await launch();
  context = await browser.newContext();
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.stack || e}`));
  page.on("console", (m) => {
    // Failed requests on purpose (503, 429) are logged by Chromium as "Failed to load resource".
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) problems.push(`console.error: ${m.text()}`);
  });
  await page.goto(`${SANDBOX_URL}/__sandbox/info`);
  await page.setContent("<!doctype html><html lang=en><head><meta charset=utf-8><title>watch</title></head><body></body></html>");
  await page.evaluate(async ({ base, key }) => {
    window.pkg = await import("/pkg/index.js");
    await window.pkg.default();
    window.rejections = [];
    window.addEventListener("unhandledrejection", (e) => window.rejections.push(String(e.reason)));
    // The page's visibility, as the watch reads it (`document.visibilityState` and its event).
    let hidden = false;
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    window.setHidden = (h) => {
      hidden = h;
      document.dispatchEvent(new Event("visibilitychange"));
    };
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    window.sleep = sleep;
    /** A client whose fetch records each request: start, end, whether its signal aborted. */
    window.recorded = (headers = {}) => {
      const log = { requests: [], inFlight: 0, maxInFlight: 0 };
      const fetchImpl = async (request) => {
        const r = { start: performance.now(), end: null, aborted: false };
        log.requests.push(r);
        log.inFlight++;
        log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
        request.signal.addEventListener("abort", () => { r.aborted = true; });
        try {
          return await fetch(request);
        } finally {
          r.end = performance.now();
          log.inFlight--;
        }
      };
      const bot = new window.pkg.BotClient({ baseUrl: base, apiKey: key, headers, fetch: fetchImpl });
      return { bot, log };
    };
    window.until = async (what, f, ms = 20_000) => {
      const end = performance.now() + ms;
      while (!f()) {
        if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
        await sleep(20);
      }
    };
    window.control = (method, path) => fetch(base + path, { method }).then((r) => r.status);
  }, { base: SANDBOX_URL, key: AGENT3_KEY });
});

after(async () => {
  await page?.evaluate(() => window.control("DELETE", "/__sandbox/state?agent=3")).catch(() => {});
  await context?.close();
  await browser?.close();
  assert.deepEqual(problems, []);
});

const tag = (name) => `watch-${name}-${Math.random().toString(36).slice(2)}`;

test("one request at a time: a slow poll is never overlapped, the next starts an interval after it settled", async () => {
  const r = await page.evaluate(async (t) => {
    const { bot, log } = window.recorded({ "x-sandbox-tag": t, "x-sandbox-fault": "delay=1500" });
    const watch = bot.watchOrders({ intervalMs: 1000 });
    await window.until("three polls", () => log.requests.length >= 3 && log.requests[2].end !== null, 30_000);
    watch.stop();
    return { log, gaps: log.requests.slice(1).map((q, i) => q.start - log.requests[i].end) };
  }, tag("overlap"));
  assert.equal(r.log.maxInFlight, 1, "never two requests at once");
  for (const gap of r.gaps) assert.ok(gap >= 950, `next poll ${gap} ms after the previous settled`);
});

test("a hidden page sends no poll; visible again polls at once, then on the interval", async () => {
  const r = await page.evaluate(async () => {
    const { bot, log } = window.recorded();
    const watch = bot.watchOrders({ intervalMs: 1000 });
    const it = watch[Symbol.asyncIterator]();
    await it.next();
    window.setHidden(true);
    const status = watch.status.state;
    const before = log.requests.length;
    await window.sleep(3500);
    const whileHidden = log.requests.length - before;
    const shown = performance.now();
    window.setHidden(false);
    await window.until("the poll on visible", () => log.requests.length > before + whileHidden);
    const delay = log.requests.at(-1).start - shown;
    const after = watch.status.state;
    watch.stop();
    return { status, whileHidden, delay, after };
  });
  assert.equal(r.status, "paused");
  assert.equal(r.whileHidden, 0, "no poll while hidden");
  assert.ok(r.delay < 500, `polled ${r.delay} ms after the page became visible`);
  assert.equal(r.after, "polling");
});

test("retryable failures back off (doubling, with jitter, capped) and Retry-After is honoured; a success resets", async () => {
  const r = await page.evaluate(async (t) => {
    const { bot, log } = window.recorded({ "x-sandbox-tag": t, "x-sandbox-fault": "status=503; fail-first=3" });
    const watch = bot.watchOrders({ intervalMs: 1000, maxIntervalMs: 3000 });
    const states = [];
    watch.onStatusChange((s) => states.push({ state: s.state, code: s.error?.code, status: s.error?.status, next: s.nextPollInMs }));
    const first = await watch.next();
    await window.until("the poll after the success", () => log.requests.length >= 5, 30_000);
    watch.stop();
    const gaps = log.requests.slice(1).map((q, i) => q.start - log.requests[i].end);
    return { first: first.done, gaps, states, updates: log.requests.length };
  }, tag("backoff"));
  assert.equal(r.first, false, "an update after the failures");
  const [g1, g2, g3, g4] = r.gaps;
  // 1st failure: 1-2 s; 2nd: 2-4 s capped at 3 s (1.5-3 s); 3rd: the cap's upper half again; then the interval.
  assert.ok(g1 >= 950 && g1 <= 2000 + 1500, `after the 1st failure ${g1}`);
  assert.ok(g2 >= 1450 && g2 <= 3000 + 1500, `after the 2nd failure ${g2}`);
  assert.ok(g3 >= 1450 && g3 <= 3000 + 1500, `after the 3rd failure ${g3}`);
  assert.ok(g4 >= 950 && g4 <= 1000 + 1500, `after the success ${g4}`);
  // Retrying: a countdown while waiting (none while the retry is in flight), and the failure.
  const waiting = r.states.filter((s) => s.state === "retrying" && s.next !== undefined);
  assert.equal(waiting.length, 3, JSON.stringify(r.states));
  assert.ok(waiting.every((s) => s.next > 900 && s.code === "http" && s.status === 503), JSON.stringify(waiting));
  assert.equal(r.states.at(-1).state, "stopped");

  const ra = await page.evaluate(async (t) => {
    const { bot, log } = window.recorded({ "x-sandbox-tag": t, "x-sandbox-fault": "status=429; retry-after=3; fail-first=1" });
    const watch = bot.watchOrders({ intervalMs: 1000 });
    await watch.next();
    watch.stop();
    return { gap: log.requests[1].start - log.requests[0].end };
  }, tag("retry-after"));
  assert.ok(ra.gap >= 2950, `waited ${ra.gap} ms after Retry-After: 3`);
});

test("a failure that is not retryable rejects the iteration with its SettlementError, once", async () => {
  const r = await page.evaluate(async () => {
    const bot = new window.pkg.BotClient({ baseUrl: location.origin, apiKey: "SBX-SECK_notanagent0009" });
    const watch = bot.watchOrders({ intervalMs: 1000 });
    let error = null;
    try {
      for await (const _ of watch) { /* never */ }
    } catch (e) {
      error = { isSettlement: e instanceof window.pkg.SettlementError, code: e.code, text: JSON.stringify(e) + e.message };
    }
    const after = await watch.next();
    return { error, after: after.done, status: watch.status.state, statusCode: watch.status.error?.code };
  });
  assert.equal(r.error.isSettlement, true);
  assert.equal(r.error.code, "unauthorized");
  assert.ok(!r.error.text.includes("notanagent"), "no key in the error");
  assert.equal(r.after, true);
  assert.equal(r.status, "stopped");
  assert.equal(r.statusCode, "unauthorized");
});

for (const how of ["stop()", "break", "signal"]) {
  test(`${how} during a request aborts it, sends nothing more and ends the iteration`, async () => {
    const r = await page.evaluate(async (how) => {
      const { bot, log } = window.recorded({ "x-sandbox-fault": "delay=4000" });
      const controller = new AbortController();
      const watch = bot.watchOrders({ intervalMs: 1000, signal: controller.signal });
      let asked;
      const consumer = (async () => {
        for await (const _ of watch) {
          if (how === "break") {
            // The first (slow) poll was delivered; while the consumer works on it, the watch
            // sends the next one on its own schedule: break while that one is in flight.
            await window.until("the second request", () => log.requests.length >= 2, 30_000);
            await window.sleep(300);
            asked = performance.now();
            break;
          }
        }
      })();
      if (how !== "break") {
        await window.until("the first request", () => log.requests.length >= 1);
        await window.sleep(300);
        asked = performance.now();
        if (how === "stop()") watch.stop();
        else controller.abort();
      }
      await consumer;
      const settled = performance.now() - asked;
      const sent = log.requests.length;
      await window.sleep(2500);
      return {
        aborted: log.requests.at(-1).aborted, sent, later: log.requests.length, settled,
        state: watch.status.state, rejections: window.rejections.slice(),
      };
    }, how);
    assert.equal(r.aborted, true, "the request in flight was aborted");
    assert.ok(r.settled < 1000, `the iteration ended ${r.settled} ms after the ${how}`);
    assert.equal(r.later, r.sent, "nothing sent afterwards");
    assert.equal(r.state, "stopped");
    assert.deepEqual(r.rejections, []);
  });
}

test("a slow consumer gets the polls it missed coalesced into one update against the last delivered", async () => {
  assert.equal(await page.evaluate(() => window.control("DELETE", "/__sandbox/state?agent=3")), 204);
  const r = await page.evaluate(async () => {
    const { bot, log } = window.recorded();
    const watch = bot.watchOrders({ intervalMs: 1000, fields: ["paymentType"] });
    const first = await watch.next();
    const polled = () => log.requests.filter((q) => q.end !== null).length;
    const created = [];
    for (let i = 0; i < 2; i++) {
      const at = polled();
      created.push(await fetch("/__sandbox/orders?agent=3", { method: "POST" }).then((x) => x.json()));
      // Polls go on while nobody awaits the watch.
      await window.until("two more polls", () => polled() >= at + 2);
    }
    const update = await watch.next();
    // Nothing changed since: the next update waits.
    const pending = await Promise.race([watch.next().then(() => "update"), window.sleep(2500).then(() => "pending")]);
    watch.stop();
    return {
      first: first.value.rows.length, polls: polled(), created: created.map((o) => o.id),
      added: update.value.added.map((o) => o.id), rows: update.value.rows.map((o) => o.id),
      changed: update.value.changed.length, removed: update.value.removed.length, total: update.value.total, pending,
    };
  });
  assert.equal(r.first, 0);
  assert.ok(r.polls >= 5, `${r.polls} polls`);
  assert.deepEqual(new Set(r.added), new Set(r.created), "both new orders in one update");
  assert.deepEqual(r.rows, [...r.created].reverse(), "newest first");
  assert.equal(r.changed, 0);
  assert.equal(r.removed, 0);
  assert.equal(r.total, 2);
  assert.equal(r.pending, "pending");
  assert.equal(await page.evaluate(() => window.control("DELETE", "/__sandbox/state?agent=3")), 204);
});

test("200 watches created and stopped leave no timer running and the JS heap flat", async () => {
  const cdp = await context.newCDPSession(page);
  await page.evaluate(() => {
    // Every timer the page starts, until it fires or is cleared.
    const live = new Set();
    const set = window.setTimeout;
    const clear = window.clearTimeout;
    window.setTimeout = (f, ms, ...a) => {
      const id = set(() => { live.delete(id); f(...a); }, ms);
      live.add(id);
      return id;
    };
    window.clearTimeout = (id) => { live.delete(id); clear(id); };
    window.liveTimers = () => live.size;
    window.round = async () => {
      const { bot } = window.recorded();
      for (let i = 0; i < 200; i++) {
        const w = bot.watchOrders({ intervalMs: 1000 });
        if (i % 2) w.stop();
        else await w.return();
      }
      bot.free();
      // Let the aborted requests settle.
      await new Promise((r) => setTimeout(r, 300));
    };
  });
  const heap = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize;
  };
  await page.evaluate(() => window.round()); // warm-up (code, caches)
  const before = await heap();
  for (let i = 0; i < 5; i++) await page.evaluate(() => window.round());
  const afterRounds = await heap();
  const timers = await page.evaluate(() => window.liveTimers());
  assert.equal(timers, 0, "no timer left running");
  const growth = afterRounds - before;
  assert.ok(growth < 512 * 1024, `heap grew ${growth} B over 1,000 more watches (${before} -> ${afterRounds})`);
  await cdp.detach();
});
