// Events, the logger and withResponse, against the sandbox, through the package imported by name.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { BotClient, MerchantClient, SettlementError, createProxyHandler } from "settlement-wasm";
import { SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY, uniqueTag, serializeError } from "./helpers.mjs";

const TYPES = ["request", "response", "retry", "error", "done"];
const bot = (extra = {}) => new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, ...extra });
const faulty = (fault, extra = {}) =>
  bot({ headers: { "x-sandbox-fault": fault, "x-sandbox-tag": uniqueTag("events") }, ...extra });

/** Records every event of `client`, in order. */
function record(client) {
  const events = [];
  for (const t of TYPES) client.on(t, (e) => events.push(e));
  return events;
}

/** Every 8-character piece of `key`'s secret part (after its `XXX-KIND_` prefix). */
function pieces(key) {
  const secret = key.slice(key.indexOf("_") + 1);
  const out = [];
  for (let i = 0; i + 8 <= secret.length; i++) out.push(secret.slice(i, i + 8));
  return out;
}

function assertNoKey(text, key = AGENT_KEY) {
  for (const p of pieces(key)) assert.ok(!text.includes(p), `a piece of the key (${p}) leaked: ${text.slice(0, 300)}`);
}

/** A fetch that answers through the real one, adding headers that echo the key and carry a request id. */
const echoingFetch = (key) => async (request) => {
  const r = await fetch(request);
  const headers = new Headers(r.headers);
  headers.set("x-echo-key", `Bearer ${key}`);
  headers.set("x-echo-piece", key.slice(-10));
  headers.set("x-request-id", "req-echo-1");
  headers.append("set-cookie", "session=1");
  return new Response(await r.text(), { status: r.status, headers });
};

describe("events", () => {
  test("503 then 200: request, response 503, retry, request, response 200, done, one call id", async () => {
    const client = faulty("status=503;fail-first=1");
    const events = record(client);
    const p = await client.profile({ fields: ["id"] });
    assert.equal(p.id, "agent-1");
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "retry", "request", "response", "done"]);
    const id = events[0].callId;
    assert.match(id, /^call-\d+$/);
    assert.ok(events.every((e) => e.callId === id && e.operation === "profile" && e.kind === "query" && e.source === "call"));
    assert.deepEqual(events.filter((e) => e.type === "request").map((e) => e.attempt), [1, 2]);
    assert.deepEqual(events.filter((e) => e.type === "response").map((e) => e.status), [503, 200]);
    const retry = events[2];
    assert.equal(retry.reason, "status");
    assert.equal(retry.status, 503);
    assert.ok(Number.isFinite(retry.delayMs) && retry.delayMs >= 0);
    assert.equal(events[0].url, `${SANDBOX_URL}/service/bot/graphql`);
    const done = events[5];
    assert.equal(done.attempts, 2);
    assert.ok(done.durationMs >= 0 && events[1].durationMs >= 0);
  });

  test("Retry-After is the reason when the service sends it", async () => {
    const client = faulty("status=503;retry-after=0;fail-first=1");
    const events = record(client);
    await client.profile({ fields: ["id"] });
    assert.equal(events.find((e) => e.type === "retry").reason, "retry-after");
    assert.equal(events.find((e) => e.type === "retry").delayMs, 0);
  });

  test("a 401: error with code unauthorized, then done", async () => {
    const client = bot({ apiKey: "SBX-AGNT_notAValidKey123" });
    const events = record(client);
    await assert.rejects(client.profile(), (e) => e instanceof SettlementError && e.code === "unauthorized");
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "error", "done"]);
    assert.equal(events[2].error.code, "unauthorized");
    assert.ok(events[2].error instanceof SettlementError);
  });

  test("a throwing listener leaves the result unchanged and is reported once", async () => {
    const client = bot();
    const reported = [];
    const original = console.error;
    console.error = (...args) => reported.push(args);
    try {
      for (const t of TYPES) client.on(t, () => { throw new Error("listener bug"); });
      const p = await client.profile({ fields: ["id"] });
      assert.equal(p.id, "agent-1");
      await client.profile({ fields: ["id"] });
    } finally {
      console.error = original;
    }
    assert.equal(reported.length, 1);
  });

  test("off stops delivery; on is idempotent", async () => {
    const client = bot();
    const seen = [];
    const listener = (e) => seen.push(e.type);
    assert.equal(client.on("done", listener), client);
    client.on("done", listener);
    await client.profile({ fields: ["id"] });
    assert.deepEqual(seen, ["done"]);
    assert.equal(client.off("done", listener), client);
    await client.profile({ fields: ["id"] });
    assert.deepEqual(seen, ["done"]);
  });

  test("on/off refuse an unknown type or a non-function listener, naming the argument", () => {
    const client = bot();
    for (const [type, listener, field] of [["nope", () => {}, "type"], [undefined, () => {}, "type"], [1, () => {}, "type"],
      ["request", null, "listener"], ["request", {}, "listener"], ["REQUEST", () => {}, "type"]]) {
      for (const m of ["on", "off"]) {
        assert.throws(() => client[m](type, listener), (e) => e instanceof SettlementError && e.code === "invalid_input" && e.field === field);
      }
    }
    assert.throws(() => BotClient.prototype.on.call({}, "request", () => {}), (e) => e.code === "invalid_input" && e.field === "this");
  });

  test("the key echoed in a header reaches no event, log line or error; set-cookie is left out", async () => {
    const lines = [];
    const logger = { debug: (l) => lines.push(l), info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) };
    const client = bot({ fetch: echoingFetch(AGENT_KEY), logger, headers: { "x-sandbox-fault": "status=503;fail-first=1", "x-sandbox-tag": uniqueTag("echo") } });
    const events = record(client);
    const { data, response } = await client.withResponse((c) => c.profile({ fields: ["id"] }));
    assert.equal(data.id, "agent-1");
    assert.equal(response.status, 200);
    assert.equal(response.requestId, "req-echo-1");
    assert.equal(response.headers["set-cookie"], undefined);
    assert.equal(events.find((e) => e.type === "response").requestId, "req-echo-1");
    const bad = bot({ apiKey: "SBX-AGNT_notAValidKey123", fetch: echoingFetch("SBX-AGNT_notAValidKey123") });
    const badEvents = record(bad);
    const e = await bad.profile().catch((x) => x);
    assert.equal(e.code, "unauthorized");
    assert.equal(e.requestId, "req-echo-1");
    assert.equal(e.headers["set-cookie"], undefined);
    assertNoKey(serializeError(e) + JSON.stringify(badEvents, (k, v) => (v instanceof Error ? serializeError(v) : v)), "SBX-AGNT_notAValidKey123");
    assertNoKey(JSON.stringify(events) + JSON.stringify(response) + lines.join("\n"));
    assert.ok(!JSON.stringify(events).includes("session=1"));
    // One line per attempt (the debug line of each answer) and per retry.
    assert.equal(lines.length, 3, lines.join("\n"));
  });

  test("logger: a bad value is refused at construction", () => {
    for (const logger of [1, "console", {}, { debug() {}, info() {}, warn() {} }, () => {}]) {
      assert.throws(() => bot({ logger }), (e) => e instanceof SettlementError && e.code === "invalid_input" && e.field === "logger");
    }
    bot({ logger: console });
  });

  test("logger: the option read once; lines written by the core, whole milliseconds, the logger as this", async () => {
    const lines = [];
    let reads = 0;
    let methodReads = 0;
    const logger = {};
    for (const level of ["debug", "info", "warn", "error"]) {
      Object.defineProperty(logger, level, {
        get() {
          methodReads++;
          return function (line) { assert.equal(this, logger); lines.push([level, line]); };
        },
      });
    }
    let keyReads = 0;
    const options = { baseUrl: SANDBOX_URL, headers: { "x-sandbox-fault": "status=503;fail-first=1", "x-sandbox-tag": uniqueTag("log") } };
    Object.defineProperty(options, "apiKey", { get() { keyReads++; return AGENT_KEY; }, enumerable: true });
    Object.defineProperty(options, "logger", { get() { reads++; return logger; }, enumerable: true });
    const client = new BotClient(options);
    // Read as every option is (the core's one read of the options object); never again.
    assert.ok(reads > 0 && reads === keyReads, `logger read ${reads} times, apiKey ${keyReads}`);
    const [optionReads, methodsRead] = [reads, methodReads];
    await client.profile({ fields: ["id"] });
    await new BotClient({ baseUrl: SANDBOX_URL, apiKey: "SBX-AGNT_notAValidKey123", logger }).profile().catch(() => {});
    assert.equal(reads, optionReads, "the calls read no option again");
    assert.equal(methodReads, 2 * methodsRead, "the logger's methods are read when a client is made, never by its calls");
    assert.deepEqual(lines.map(([level]) => level), ["debug", "warn", "debug", "debug", "error"]);
    const head = /^settlement-wasm call-\d+ query profile \(call\): /;
    assert.match(lines[0][1], new RegExp(head.source + "attempt 1: 503 in \\d+ ms$"));
    assert.match(lines[1][1], new RegExp(head.source + "attempt 1 failed \\(status 503\\), retry in \\d+ ms$"));
    assert.match(lines[2][1], new RegExp(head.source + "attempt 2: 200 in \\d+ ms$"));
    assert.match(lines[4][1], new RegExp(head.source + "failed: unauthorized "));
  });

  test("a watch poll answered 503 then 200: the watch's backoff is the poll's retry", async () => {
    const client = faulty("status=503;fail-first=1");
    const events = record(client);
    const watch = client.watchOrders({ intervalMs: 1_000 });
    await watch.next();
    watch.stop();
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "retry", "done", "request", "response", "done"]);
    assert.ok(events.every((e) => e.source === "watchOrders" && e.operation === "orderHistory"));
    assert.notEqual(events[0].callId, events[4].callId, "one call per poll");
    const retry = events[2];
    assert.equal(retry.reason, "status");
    assert.equal(retry.status, 503);
    assert.ok(Number.isInteger(retry.delayMs) && retry.delayMs >= 1_000, String(retry.delayMs));
    assert.ok(Number.isInteger(events[3].durationMs) && Number.isInteger(events[5].durationMs));
  });

  test("a watch poll answered 401: the error the watch ends with is the poll's error", async () => {
    const client = bot({ apiKey: "SBX-AGNT_notAValidKey123" });
    const events = record(client);
    const watch = client.watchOrders({ intervalMs: 1_000 });
    await assert.rejects(watch.next(), (e) => e.code === "unauthorized");
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "error", "done"]);
    assert.ok(events[2].error instanceof SettlementError);
    assert.equal(events[2].error.code, "unauthorized");
  });

  test("withResponse: status and headers of the same request; refuses anything but one call", async () => {
    const tag = uniqueTag("withresponse");
    const client = bot({ headers: { "x-sandbox-tag": tag } });
    const { data, response } = await client.withResponse((c) => c.profile({ fields: ["id"] }));
    assert.equal(data.id, "agent-1");
    assert.equal(response.status, 200);
    assert.equal(typeof response.headers["content-type"], "string");
    for (const bad of [undefined, 1, () => 1, () => Promise.resolve(1), () => bot().profile()]) {
      await assert.rejects(client.withResponse(bad), (e) => e.code === "invalid_input" && e.field === "call");
    }
    // A call refused before it was sent rejects with its own error.
    await assert.rejects(client.withResponse((c) => c.withdrawalInfo(" ")), (e) => e.code === "invalid_input" && e.field === "symbol");
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY });
    const r = await merchant.withResponse((m) => m.rampLimits());
    assert.equal(r.response.status, 200);
  });

  test("orders(), reconcile and watchOrders tag their calls", async () => {
    const client = bot();
    const events = record(client);
    const it = client.orders({ perPage: 2 });
    await it.next();
    it.free();
    assert.ok(events.some((e) => e.type === "done" && e.source === "orders"));
    await client.reconcile({ id: "no-such", orderId: "no-such" });
    assert.ok(events.some((e) => e.type === "done" && e.source === "reconcile"));
    const watch = client.watchOrders({ intervalMs: 60_000 });
    await watch.next();
    watch.stop();
    assert.ok(events.some((e) => e.type === "request" && e.source === "watchOrders"));
  });
});

describe("the proxy's upstream calls", () => {
  /** The proxy's `fetch` option: the real one, adding headers that echo the key and carry a request id. */
  const echoing = (key) => async (url, init) => {
    const r = await fetch(url, init);
    const headers = new Headers(r.headers);
    headers.set("x-echo-key", `Bearer ${key}`);
    headers.set("x-request-id", "req-proxy-1");
    headers.append("set-cookie", "session=1");
    return new Response(await r.text(), { status: r.status, headers });
  };
  /** A handler of `options` and a page's BotClient behind it, with every upstream event recorded. */
  function behind(options) {
    const events = [];
    const on = Object.fromEntries(TYPES.map((t) => [t, (e) => events.push(e)]));
    const handler = createProxyHandler({ endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"], on, ...options });
    const page = new BotClient({ endpoint: "http://proxy.invalid/api/bot", fetch: (r) => handler(r), maxRetries: 0 });
    return { events, page };
  }

  test("request, response and done, tagged proxy, with the request id and no piece of the key", async () => {
    const { events, page } = behind({ fetch: echoing(AGENT_KEY) });
    assert.equal((await page.profile({ fields: ["id"] })).id, "agent-1");
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "done"]);
    const id = events[0].callId;
    assert.ok(events.every((e) => e.callId === id && e.source === "proxy" && e.operation === "profile" && e.kind === "query"));
    assert.equal(events[0].url, `${SANDBOX_URL}/service/bot/graphql`);
    assert.equal(events[1].status, 200);
    assert.equal(events[1].requestId, "req-proxy-1");
    assert.equal(events[1].headers["set-cookie"], undefined);
    assert.ok(Number.isInteger(events[1].durationMs) && Number.isInteger(events[2].durationMs));
    assert.equal(events[2].attempts, 1);
    assertNoKey(JSON.stringify(events));
  });

  test("a key the service refuses: error unauthorized (what the page gets), then done", async () => {
    const { events, page } = behind({ apiKey: "SBX-AGNT_notAValidKey123", fetch: echoing("SBX-AGNT_notAValidKey123") });
    await assert.rejects(page.profile(), (e) => e.code === "unauthorized");
    assert.deepEqual(events.map((e) => e.type), ["request", "response", "error", "done"]);
    assert.equal(events[1].status, 401);
    assert.ok(events[2].error instanceof SettlementError);
    assert.equal(events[2].error.code, "unauthorized");
    assert.equal(events[2].error.requestId, "req-proxy-1");
    assert.equal(events[2].error.headers["set-cookie"], undefined);
    assertNoKey(JSON.stringify(events) + serializeError(events[2].error), "SBX-AGNT_notAValidKey123");
  });

  test("the service not reached: error network, then done; a throwing listener changes nothing", async () => {
    const events = [];
    const errors = [];
    const original = console.error;
    console.error = (...args) => errors.push(args);
    try {
      const handler = createProxyHandler({
        endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"],
        fetch: () => Promise.reject(new TypeError("fetch failed")),
        on: { request() { throw new Error("listener"); }, error: (e) => events.push(e), done: (e) => events.push(e) },
      });
      const request = () => new Request("http://proxy.invalid/api/bot", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" }),
      });
      const first = await handler(request());
      assert.equal(first.status, 502);
      assert.equal((await handler(request())).status, 502);
    } finally {
      console.error = original;
    }
    assert.deepEqual(events.map((e) => e.type), ["error", "done", "error", "done"]);
    assert.equal(events[0].error.code, "network");
    assert.equal(errors.length, 1, "the throwing listener is reported once");
  });

  test("the on and logger options are read by the core's option rule", () => {
    const base = { endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"] };
    const refused = (options, field) =>
      assert.throws(() => createProxyHandler({ ...base, ...options }), (e) => e instanceof SettlementError && e.code === "invalid_input" && e.field === field);
    refused({ on: { requset: () => {} } }, "on");
    refused({ on: { request: 1 } }, "on");
    refused({ on: [() => {}] }, "on");
    refused({ onn: {} }, "onn");
    refused({ logger: {} }, "logger");
    assert.equal(typeof createProxyHandler({ ...base, on: {}, logger: console }), "function");
  });

  test("the logger option: one debug line per upstream answer, redacted", async () => {
    const lines = [];
    const logger = { debug: (l) => lines.push(["debug", l]), info() {}, warn: (l) => lines.push(["warn", l]), error: (l) => lines.push(["error", l]) };
    const handler = createProxyHandler({ endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"], logger, fetch: echoing(AGENT_KEY) });
    const page = new BotClient({ endpoint: "http://proxy.invalid/api/bot", fetch: (r) => handler(r) });
    await page.profile({ fields: ["id"] });
    assert.equal(lines.length, 1);
    assert.match(lines[0][1], /^settlement-wasm call-\d+ query profile \(proxy\): attempt 1: 200 in \d+ ms, request id req-proxy-1$/);
    assertNoKey(JSON.stringify(lines));
  });
});
