// A client's events in real headless Chromium (no demo page): a blank document on the
// sandbox's origin imports /pkg/index.js, awaits init(), and records a BotClient's events for a
// call answered 503 then 200, a 401, and a listener that throws.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { SANDBOX_URL, AGENT_KEY, requireSandbox, launch } from "./support/browser.mjs";

const BAD_KEY = "SBX-AGNT_notAValidKey123";
let browser;
let page;
const uncaught = [];
const consoleErrors = [];
let tagCounter = 0;
const uniqueTag = (name) => `e2e-events-${process.pid}-${name}-${++tagCounter}-${Date.now()}`;

before(async () => {
  requireSandbox();
  browser = await launch();
  const context = await browser.newContext();
  page = await context.newPage();
  page.on("pageerror", (err) => uncaught.push(String(err && err.stack ? err.stack : err)));
  page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  await page.goto(`${SANDBOX_URL}/__sandbox/info`, { waitUntil: "load" });
  await page.evaluate(async () => {
    const m = await import("/pkg/index.js");
    await m.default();
    window.__m = m;
    // Every event of `client`, in order, as plain data (an error event's error by its code).
    window.__record = (client) => {
      const events = [];
      for (const t of ["request", "response", "retry", "error", "done"]) {
        client.on(t, (e) => events.push(t === "error"
          ? { ...e, error: { code: e.error.code, isSettlementError: e.error instanceof m.SettlementError } }
          : { ...e }));
      }
      return events;
    };
  });
});
after(async () => { await browser?.close(); });
afterEach(() => {
  assert.deepEqual(uncaught.splice(0), [], "the page threw");
});

test("503 then 200: two requests, one retry with its delay and reason, two responses, one done, one call id", async () => {
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const bot = new window.__m.BotClient({
      baseUrl: url, apiKey: key, headers: { "x-sandbox-fault": "status=503;fail-first=1", "x-sandbox-tag": tag },
    });
    const events = window.__record(bot);
    const profile = await bot.profile({ fields: ["id"] });
    return { id: profile.id, events };
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag: uniqueTag("retry") });
  assert.equal(r.id, "agent-1");
  assert.deepEqual(r.events.map((e) => e.type), ["request", "response", "retry", "request", "response", "done"]);
  const id = r.events[0].callId;
  assert.ok(r.events.every((e) => e.callId === id && e.operation === "profile" && e.source === "call"));
  assert.deepEqual(r.events.filter((e) => e.type === "response").map((e) => e.status), [503, 200]);
  const retry = r.events[2];
  assert.equal(retry.reason, "status");
  assert.equal(retry.status, 503);
  assert.ok(Number.isInteger(retry.delayMs) && retry.delayMs >= 0);
  assert.equal(r.events[5].attempts, 2);
  assert.ok(Number.isInteger(r.events[5].durationMs));
  assert.ok(!JSON.stringify(r.events).includes(AGENT_KEY.slice(-8)));
});

test("a 401: an error event with code unauthorized, then done", async () => {
  const r = await page.evaluate(async ({ url, key }) => {
    const bot = new window.__m.BotClient({ baseUrl: url, apiKey: key });
    const events = window.__record(bot);
    const code = await bot.profile().then(() => "resolved", (e) => e.code);
    return { code, events };
  }, { url: SANDBOX_URL, key: BAD_KEY });
  assert.equal(r.code, "unauthorized");
  assert.deepEqual(r.events.map((e) => e.type), ["request", "response", "error", "done"]);
  assert.deepEqual(r.events[2].error, { code: "unauthorized", isSettlementError: true });
  assert.ok(!JSON.stringify(r.events).includes(BAD_KEY.slice(-8)));
});

test("a throwing listener leaves the result unchanged and is reported once; off stops delivery", async () => {
  consoleErrors.splice(0);
  const r = await page.evaluate(async ({ url, key }) => {
    const bot = new window.__m.BotClient({ baseUrl: url, apiKey: key });
    let calls = 0;
    const thrower = () => { calls++; throw new Error("listener failure"); };
    bot.on("response", thrower).on("done", thrower);
    const first = await bot.profile({ fields: ["id"] });
    const second = await bot.profile({ fields: ["id"] });
    const before = calls;
    bot.off("response", thrower).off("done", thrower);
    await bot.profile({ fields: ["id"] });
    return { ids: [first.id, second.id], before, after: calls };
  }, { url: SANDBOX_URL, key: AGENT_KEY });
  assert.deepEqual(r.ids, ["agent-1", "agent-1"]);
  assert.equal(r.before, 4);
  assert.equal(r.after, 4, "off stops delivery");
  assert.equal(consoleErrors.filter((t) => t.includes("a listener threw")).length, 1, consoleErrors.join("\n"));
});
