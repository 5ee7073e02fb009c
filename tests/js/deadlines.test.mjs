// Timeouts and backoff sleeps (pkg-template/src/transport.ts: one timer per attempt and per
// sleep, cleared however it ends): each attempt ends at its own deadline, whatever the others'
// and in whatever order they started, none fires after its call is done, and a Node process is
// held open only while a call is pending.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { BotClient } from "settlement-wasm";
import { SANDBOX_URL, AGENT_KEY, fakeFetch, runModule } from "./helpers.mjs";

const never = () => new Promise(() => {});
const client = (timeoutMs, fetch, maxRetries = 0) =>
  new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, timeoutMs, maxRetries, fetch });
// The call's outcome (`"ok"` or the error code) and when it came, in ms from `t0`.
const outcome = (t0, p) => p.then(() => "ok", (e) => e.code).then((code) => [code, performance.now() - t0]);

describe("deadlines", () => {
  test("concurrent attempts each end at their own timeout, in any order of arrival", async () => {
    const t0 = performance.now();
    // The longest starts first: each must still end at its own deadline.
    const long = outcome(t0, client(1500, never).profile());
    const short = outcome(t0, client(100, never).profile());
    const mid = outcome(t0, client(500, never).profile());
    const [[s, ts], [m, tm], [l, tl]] = await Promise.all([short, mid, long]);
    assert.deepEqual([s, m, l], ["timeout", "timeout", "timeout"]);
    assert.ok(ts >= 95 && ts < 1000, `100 ms timeout ended after ${ts} ms`);
    assert.ok(tm >= 495 && tm < 1400, `500 ms timeout ended after ${tm} ms`);
    assert.ok(tl >= 1495 && tl < 5000, `1,500 ms timeout ended after ${tl} ms`);
    assert.ok(ts < tm && tm < tl, "in deadline order");
  });

  test("a short timeout after a finished call with a long one is not held to the long one's timer", async () => {
    const ok = fakeFetch(() => new Response(JSON.stringify({ data: { profile: { id: "agent-1" } } })));
    assert.equal((await client(30_000, ok).profile()).id, "agent-1");
    const t0 = performance.now();
    const [code, t] = await outcome(t0, client(150, never).profile());
    assert.equal(code, "timeout");
    assert.ok(t >= 145 && t < 2000, `150 ms timeout ended after ${t} ms`);
  });

  test("a retry's backoff sleep and its attempts each keep their own deadline", async () => {
    const f = fakeFetch(never);
    const t0 = performance.now();
    const [code, t] = await outcome(t0, client(120, f, 2).profile());
    assert.equal(code, "timeout");
    assert.equal(f.calls.length, 3, "three attempts, each timed out");
    assert.ok(t >= 3 * 115 && t < 15_000, `three 120 ms attempts and two backoffs took ${t} ms`);
  });

  test("an attempt that ends first leaves no deadline behind: a fast call's timeout never fires later", async () => {
    const ok = fakeFetch(() => new Response(JSON.stringify({ data: { profile: { id: "agent-1" } } })));
    const bot = client(60, ok);
    for (let i = 0; i < 20; i++) assert.equal((await bot.profile()).id, "agent-1");
    // Well past every one of those deadlines: nothing fired into a finished call (it would
    // throw or reject unhandled, which node:test reports).
    await new Promise((r) => setTimeout(r, 150));
  });
});

describe("Node processes", () => {
  test("exit as soon as their calls are done: the timer of a 30 s timeout does not hold them open", async () => {
    const r = await runModule(`
      import { BotClient } from "settlement-wasm";
      const bot = new BotClient({ baseUrl: process.env.SANDBOX_URL, apiKey: process.env.AGENT_KEY });
      console.log((await bot.profile()).id);
    `);
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, "agent-1");
    assert.ok(r.ms < 20_000, `the process took ${r.ms} ms to exit (the default timeout is 30 s)`);
  });

  test("are held open by a call in flight until its deadline, even when nothing else is pending", async () => {
    const r = await runModule(`
      import { BotClient } from "settlement-wasm";
      const fetch = () => new Promise(() => {});
      const bot = new BotClient({ baseUrl: process.env.SANDBOX_URL, apiKey: process.env.AGENT_KEY, fetch, timeoutMs: 300, maxRetries: 0 });
      console.log(await bot.profile().then(() => "ok", (e) => e.code));
    `);
    assert.equal(r.out, "timeout", `exit code ${r.code}`);
    assert.equal(r.code, 0);
  });
});
