// watchOrders() in Node: no page, so no pausing; updates from the sandbox (agent 3, no seeded
// orders; its state is reset before and after), and a Node process whose watch was stopped
// (or broken out of) exits at once: the watch leaves no timer behind.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { BotClient, OrderWatch } from "settlement-wasm";
import { SANDBOX_URL, AGENT3_KEY, runModule } from "./helpers.mjs";

const reset = async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=3`, { method: "DELETE" });
  assert.equal(res.status, 204);
};
before(reset);
after(reset);

test("a watch in Node delivers the first page, then an order created later, then stops", async () => {
  const bot = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT3_KEY });
  const watch = bot.watchOrders({ intervalMs: 1000, pauseWhenHidden: true });
  assert.ok(watch instanceof OrderWatch);
  const first = await watch.next();
  assert.equal(first.done, false);
  assert.deepEqual(first.value, { rows: [], added: [], changed: [], removed: [], total: 0 });
  const created = await (await fetch(`${SANDBOX_URL}/__sandbox/orders?agent=3`, { method: "POST" })).json();
  const second = await watch.next();
  assert.deepEqual(second.value.added.map((o) => o.id), [created.id]);
  assert.equal(second.value.rows[0].status, "pending");
  assert.equal(second.value.total, 1);
  assert.equal(watch.status.state, "polling", "never paused in Node");
  const pending = watch.next();
  watch.stop();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.equal(watch.status.state, "stopped");
  bot.free();
});

test("invalid options throw at once, naming the option", () => {
  const bot = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT3_KEY });
  for (const [options, field] of [
    [{ intervalMs: 999 }, "intervalMs"], [{ intervalMs: 5000, maxIntervalMs: 4000 }, "maxIntervalMs"],
    [{ perPage: 0 }, "perPage"], [{ fields: ["a b"] }, "fields"], [{ pauseWhenHidden: "yes" }, "pauseWhenHidden"],
    [{ filter: { dateFrom: "2025-02-30" } }, "filter.dateFrom"], [{ signal: {} }, "signal"],
  ]) {
    assert.throws(() => bot.watchOrders(options), (e) => e.code === "invalid_input" && e.field === field, JSON.stringify(options));
  }
  bot.free();
});

test("a Node process exits as soon as its watch is stopped or broken out of (no timer left)", async () => {
  const r = await runModule(`
    import { BotClient } from "settlement-wasm";
    const bot = new BotClient({ baseUrl: process.env.SANDBOX_URL, apiKey: process.env.AGENT3_KEY });
    for await (const update of bot.watchOrders({ intervalMs: 60000 })) { console.log(typeof update.total); break; }
    const w = bot.watchOrders({ intervalMs: 60000 });
    await w.next();
    w.stop();
    console.log("stopped");
  `);
  assert.equal(r.code, 0, r.out);
  assert.equal(r.out, "number\nstopped");
  assert.ok(r.ms < 20_000, `the process took ${r.ms} ms to exit (the interval is 60 s)`);
});

test("a 500 and a connection failure do not end the watch: it retries, then the first success delivers", async () => {
  // The first two polls fail (a 500, then a dropped connection); the third succeeds.
  const tag = `js-${process.pid}-watch-outage-${Date.now()}`;
  let n = 0;
  const failing = async (input, init) => {
    n += 1;
    if (n === 1) return new Response("{}", { status: 500 });
    if (n === 2) throw new TypeError("fetch failed");
    return fetch(input, init);
  };
  const bot = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT3_KEY, fetch: failing, headers: { "x-sandbox-tag": tag } });
  const watch = bot.watchOrders({ intervalMs: 1000, maxIntervalMs: 2000 });
  const seen = [];
  watch.onStatusChange((s) => seen.push({ state: s.state, code: s.error?.code, status: s.error?.status }));
  try {
    const first = await watch.next();
    assert.equal(first.done, false);
    assert.ok(Array.isArray(first.value.added));
    assert.equal(n, 3, "two failed polls, then the one that delivered");
    assert.ok(seen.some((s) => s.state === "retrying" && s.code === "http" && s.status === 500), JSON.stringify(seen));
    assert.ok(seen.some((s) => s.state === "retrying" && s.code === "network"), JSON.stringify(seen));
    assert.equal(watch.status.state, "polling");
    assert.equal(watch.status.error, undefined);
  } finally {
    watch.stop();
    bot.free();
  }
});
