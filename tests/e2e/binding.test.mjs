// The JS binding itself in real headless Chromium (no demo page): a blank document on the
// sandbox's origin imports /pkg/index.js, awaits init(), and drives BotClient directly.
// Every check is made against the sandbox's request log or its order oracle, not the package.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { SANDBOX_URL, AGENT_KEY, requireSandbox, launch, seededOrders, matchesFilter } from "./support/browser.mjs";
import { settledLog } from "../js/helpers.mjs";
import { serializeErrorText } from "../js/serialize.mjs";

const RAMP_URL = process.env.SANDBOX_RAMP_URL;
let browser;
let context;
let page;
const uncaught = [];
let tagCounter = 0;
const uniqueTag = (name) => `e2e-binding-${process.pid}-${name}-${++tagCounter}-${Date.now()}`;

/**
 * Opens a document on `origin` (the JSON of /__sandbox/info: same origin as /pkg/, and not a
 * logged GraphQL request), imports the package there and installs two page helpers:
 * `__run(fn)` → `{ok, value}` | `{ok: false, error}` with the error described as plain data,
 * and `__serialize(e)` (own props recursively, cause, String(e), stack) for leak checks.
 */
async function openBindingPage(ctx, origin) {
  const p = await ctx.newPage();
  p.on("pageerror", (err) => uncaught.push(`${origin}: ${err && err.stack ? err.stack : err}`));
  await p.goto(`${origin}/__sandbox/info`, { waitUntil: "load" });
  // The shared leak-check serializer, installed from its source text (CDP evaluation).
  await p.evaluate(`window.__serialize = ${serializeErrorText}`);
  await p.evaluate(async () => {
    const m = await import("/pkg/index.js");
    await m.default();
    window.__m = m;
    window.__describe = (e) => ({
      isSettlementError: e instanceof m.SettlementError,
      isError: e instanceof Error,
      name: e && e.name, code: e && e.code, field: e && e.field, status: e && e.status,
      retryAfterMs: e && e.retryAfterMs, message: e && e.message,
      graphqlErrors: (e && e.graphqlErrors) ?? null, data: (e && e.data) ?? null,
      serialized: window.__serialize(e),
    });
    window.__run = async (fn) => {
      try { return { ok: true, value: await fn() }; } catch (e) { return { ok: false, error: window.__describe(e) }; }
    };
  });
  return p;
}

/** Asserts a `__run` result failed with a SettlementError of `code`; returns the error record. */
function expectError(result, code) {
  assert.equal(result.ok, false, `expected a ${code} error, got success: ${JSON.stringify(result.value)?.slice(0, 300)}`);
  const e = result.error;
  assert.equal(e.isSettlementError, true, `instanceof SettlementError (${e.name}: ${e.message})`);
  assert.equal(e.isError, true, "instanceof Error");
  assert.equal(e.name, "SettlementError");
  assert.equal(e.code, code, `code (message: ${e.message})`);
  assert.ok(typeof e.message === "string" && e.message.length > 0);
  assert.ok(!e.serialized.includes(AGENT_KEY), `the key leaked into the error: ${e.serialized.slice(0, 1500)}`);
  return e;
}

before(async () => {
  requireSandbox();
  browser = await launch();
  // A time zone far from UTC, so a JS Date filter only matches when the client uses its UTC date.
  context = await browser.newContext({ timezoneId: "Pacific/Kiritimati", locale: "en-US" });
  page = await openBindingPage(context, SANDBOX_URL);
});
after(async () => { await browser?.close(); });
afterEach(() => {
  const seen = uncaught.splice(0);
  assert.deepEqual(seen, [], "the page threw");
});

test("invalid input: a SettlementError naming the field, thrown before any request", async () => {
  const tag = uniqueTag("invalid");
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, headers: { "x-sandbox-tag": tag } });
    return {
      ctor: await window.__run(() => new BotClient({ baseUrl: "not a url", apiKey: key })),
      page: await window.__run(() => bot.orderHistory({ page: 0 })),
      date: await window.__run(() => bot.orderHistory({ page: 1, filter: { dateFrom: "2025-02-29" } })),
      dateObj: await window.__run(() => bot.orderHistory({ page: 1, filter: { dateTo: new Date(NaN) } })),
      symbol: await window.__run(() => bot.withdrawalInfo("   ")),
      fields: await window.__run(() => bot.profile({ fields: ["id", "x { apiKey }"] })),
    };
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  assert.ok(["baseUrl", "endpoint"].includes(expectError(r.ctor, "invalid_input").field));
  assert.equal(expectError(r.page, "invalid_input").field, "page");
  assert.equal(expectError(r.date, "invalid_input").field, "filter.dateFrom");
  assert.equal(expectError(r.dateObj, "invalid_input").field, "filter.dateTo");
  assert.equal(expectError(r.symbol, "invalid_input").field, "symbol");
  assert.equal(expectError(r.fields, "invalid_input").field, "fields");
  assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
});

test("orderHistory with JS Date filters uses their UTC calendar date (page in UTC+14)", async () => {
  const tag = uniqueTag("date");
  // 2026-10-01T23:00Z is already 2026-10-02 in Kiritimati; 2026-10-03T09:00Z is 10-03 in both.
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, headers: { "x-sandbox-tag": tag } });
    const from = new Date(Date.UTC(2026, 9, 1, 23, 0));
    const to = new Date(Date.UTC(2026, 9, 3, 9, 0));
    return {
      localDay: from.getDate(),
      result: await window.__run(() => bot.orderHistory({ page: 1, perPage: 100, filter: { dateFrom: from, dateTo: to } })),
    };
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  assert.equal(r.localDay, 2, "precondition: the page's local date differs from the UTC date");
  assert.equal(r.result.ok, true, JSON.stringify(r.result.error));
  const expected = (await seededOrders()).filter((o) => matchesFilter(o, { dateFrom: "2026-10-01", dateTo: "2026-10-03" }));
  assert.ok(expected.length > 0);
  assert.equal(r.result.value.pagination.total, expected.length);
  assert.deepEqual(r.result.value.data.map((o) => o.id), expected.map((o) => o.id));
  const [entry] = await settledLog(tag, 1);
  assert.equal(entry.variables.filter.dateFrom, "2026-10-01");
  assert.equal(entry.variables.filter.dateTo, "2026-10-03");
});

test("for await over orders() yields exactly total records, equal to the oracle, page by page", async () => {
  const tag = uniqueTag("iter");
  const filter = { paymentMethod: "mpesa", dateFrom: "2026-01-01" };
  const expected = (await seededOrders()).filter((o) => matchesFilter(o, filter));
  assert.ok(expected.length > 100, `precondition: more than one page (${expected.length})`);
  const r = await page.evaluate(async ({ url, key, tag, filter }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, headers: { "x-sandbox-tag": tag } });
    return window.__run(async () => {
      const ids = [];
      let plain = true;
      // `paymentMethod` is the sandbox's own field: asked for by name.
      for await (const o of bot.orders({ perPage: 100, filter, fields: ["id", "paymentMethod"] })) {
        ids.push(o.id);
        plain = plain && Object.getPrototypeOf(o) === Object.prototype && o.paymentMethod === "mpesa";
      }
      const first = await bot.orderHistory({ page: 1, perPage: 1, filter });
      return { ids, plain, total: first.pagination.total };
    });
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag, filter });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.value.total, expected.length);
  assert.equal(r.value.ids.length, r.value.total, "yielded exactly total records");
  assert.deepEqual(r.value.ids, expected.map((o) => o.id));
  assert.equal(new Set(r.value.ids).size, r.value.ids.length, "no duplicates");
  assert.equal(r.value.plain, true, "each record is a plain object of the filtered method");
  const log = await settledLog(tag, Math.ceil(expected.length / 100) + 1);
  assert.equal(log.length, Math.ceil(expected.length / 100) + 1, "one request per page, plus the total check");
  assert.deepEqual(log.slice(0, -1).map((e) => e.variables.page), Array.from({ length: log.length - 1 }, (_, i) => i + 1));
});

test("a hostile orderId (quotes, braces, unicode, line breaks) arrives verbatim as a variable", async () => {
  const tag = uniqueTag("hostile");
  const hostile = `") { __schema { types { name } } } # "' \\ {}\n\u2028 ORD-💥-é\u0000`;
  const r = await page.evaluate(async ({ url, key, tag, hostile }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, headers: { "x-sandbox-tag": tag } });
    return window.__run(() => bot.orderHistory({ page: 1, filter: { orderId: hostile } }));
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag, hostile });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.value.data, []);
  assert.equal(r.value.pagination.total, 0);
  const log = await settledLog(tag, 1);
  assert.equal(log.length, 1);
  assert.equal(log[0].variables.filter.orderId, hostile);
  assert.ok(!log[0].query.includes("__schema"), "the document never contains the input");
});

test("429 with maxRetries 0 → rate_limited, Retry-After read (also cross-origin, through CORS)", async () => {
  const run = async (p, tag) => p.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, maxRetries: 0,
      headers: { "x-sandbox-tag": tag, "x-sandbox-fault": "status=429;retry-after=7" } });
    return window.__run(() => bot.profile());
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  const origins = [[page, uniqueTag("429")]];
  let other = null;
  if (RAMP_URL) {
    other = await openBindingPage(context, RAMP_URL);
    origins.push([other, uniqueTag("429cors")]);
  }
  try {
    for (const [p, tag] of origins) {
      const e = expectError(await run(p, tag), "rate_limited");
      assert.equal(e.status, 429);
      assert.equal(e.retryAfterMs, 7000, "Retry-After was readable");
      assert.equal(e.graphqlErrors?.[0]?.extensions?.code, "RATE_LIMITED");
      assert.equal((await settledLog(tag, 1)).length, 1, "not retried");
    }
  } finally {
    await other?.close();
  }
  assert.ok(RAMP_URL, "SANDBOX_RAMP_URL is set, so the cross-origin case ran");
});

test("503 twice then success: retried, every attempt in the log", async () => {
  const tag = uniqueTag("503");
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, maxRetries: 2,
      headers: { "x-sandbox-tag": tag, "x-sandbox-fault": "status=503;retry-after=0;fail-first=2" } });
    return window.__run(() => bot.profile({ fields: ["id"] }));
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.value, { id: "agent-1" });
  const log = await settledLog(tag, 3);
  assert.deepEqual(log.map((e) => e.status), [503, 503, 200]);
  assert.ok(log.every((e) => e.hasAuthorization));

  // One retry fewer than needed: the 503 is reported, after exactly 2 attempts.
  const tag2 = uniqueTag("503short");
  const r2 = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, maxRetries: 1,
      headers: { "x-sandbox-tag": tag, "x-sandbox-fault": "status=503;retry-after=0;fail-first=2" } });
    return window.__run(() => bot.profile({ fields: ["id"] }));
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag: tag2 });
  assert.equal(expectError(r2, "http").status, 503);
  assert.equal((await settledLog(tag2, 2)).length, 2);
});

test("AbortController: aborted promptly during a slow request, never retried", async () => {
  const tag = uniqueTag("abort");
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, maxRetries: 3,
      headers: { "x-sandbox-tag": tag, "x-sandbox-fault": "delay=3000" } });
    const ac = new AbortController();
    let abortedAt = 0;
    setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 150);
    const result = await window.__run(() => bot.profile({ signal: ac.signal }));
    const pre = await window.__run(() => bot.profile({ signal: AbortSignal.abort() }));
    return { result, pre, afterAbortMs: abortedAt ? performance.now() - abortedAt : -1 };
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  expectError(r.result, "aborted");
  expectError(r.pre, "aborted");
  assert.ok(r.afterAbortMs >= 0, "rejected only after the abort");
  assert.ok(r.afterAbortMs < 1000, `rejected ${r.afterAbortMs} ms after the abort`);
  assert.equal((await settledLog(tag, 1, { timeoutMs: 6_000, settleMs: 400 })).length, 1,
    "one request for the slow call, none for the pre-aborted one");
});

test("results are plain JS objects and arrays (no Map), JSON round-trippable", async () => {
  const r = await page.evaluate(async ({ url, key }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key });
    return window.__run(async () => {
      const p = await bot.profile({ fields: ["id", "accountBalance", "depositsCompleted", "totp.enabled", "totp.confirmedAt"] });
      const h = await bot.orderHistory({ page: 1, perPage: 3 });
      const isPlain = (v) => v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;
      return {
        profilePlain: isPlain(p), profileMap: p instanceof Map, totpPlain: isPlain(p.totp),
        dataIsArray: Array.isArray(h.data), pagePlain: isPlain(h) && isPlain(h.pagination) && h.data.every(isPlain),
        roundTrip: JSON.stringify(JSON.parse(JSON.stringify(p))) === JSON.stringify(p),
        keys: Object.keys(p).sort(), types: [typeof p.accountBalance, typeof p.depositsCompleted, typeof p.totp.enabled],
        profile: p,
      };
    });
  }, { url: SANDBOX_URL, key: AGENT_KEY });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  const v = r.value;
  assert.equal(v.profilePlain, true, "profile() is a plain object");
  assert.equal(v.profileMap, false);
  assert.equal(v.totpPlain, true, "nested objects are plain too");
  assert.equal(v.dataIsArray, true);
  assert.equal(v.pagePlain, true);
  assert.equal(v.roundTrip, true);
  assert.deepEqual(v.keys, ["accountBalance", "depositsCompleted", "id", "totp"]);
  assert.deepEqual(v.types, ["string", "number", "boolean"]);
  assert.deepEqual(v.profile, { id: "agent-1", accountBalance: "12500.50", depositsCompleted: 1024,
    totp: { enabled: true, confirmedAt: "2025-08-14T09:30:00Z" } });
});

test("withdrawalInfo trims the symbol before sending; unknown → null", async () => {
  const tag = uniqueTag("symbol");
  const r = await page.evaluate(async ({ url, key, tag }) => {
    const { BotClient } = window.__m;
    const bot = new BotClient({ baseUrl: url, apiKey: key, headers: { "x-sandbox-tag": tag } });
    return {
      usdc: await window.__run(() => bot.withdrawalInfo("  usdc \t")),
      unknown: await window.__run(() => bot.withdrawalInfo("NOPE")),
    };
  }, { url: SANDBOX_URL, key: AGENT_KEY, tag });
  assert.equal(r.usdc.ok, true, JSON.stringify(r.usdc.error));
  assert.equal(r.usdc.value.symbol, "USDC");
  assert.deepEqual(r.usdc.value.networks, ["ETHEREUM", "BASE", "CELO", "OP"]);
  assert.deepEqual(r.unknown, { ok: true, value: null });
  const log = await settledLog(tag, 2);
  assert.equal(log.length, 2);
  assert.equal(log[0].variables.symbol, "usdc", "sent trimmed (case left to the server)");
  assert.equal(log[1].variables.symbol, "NOPE");
});

test("no key in any serialized error: sandbox faults, and a fetch that echoes the key", async () => {
  const r = await page.evaluate(async ({ url, key }) => {
    const { BotClient } = window.__m;
    const faulty = (fault, extra = {}) => new BotClient({ baseUrl: url, apiKey: key, maxRetries: 0, timeoutMs: 400,
      headers: { "x-sandbox-fault": fault }, ...extra });
    const auth = (request) => request.headers.get("authorization") ?? undefined;
    const echo = (status, body, headers = {}) => new BotClient({ baseUrl: url, apiKey: key, maxRetries: 0,
      fetch: async (request) => new Response(typeof body === "function" ? body(request) : body,
        { status, headers: { "content-type": "application/json", ...headers } }) });
    const gqlEcho = (request) => JSON.stringify({
      data: { profile: { id: "agent-1", email: key, [key]: auth(request) } },
      errors: [{ message: `bad ${auth(request)}`, path: ["profile", key], extensions: { code: "X", key, [key]: [key] } }],
    });
    const out = {};
    out.unauth = await window.__run(() => faulty("status=401").profile());
    out.html = await window.__run(() => faulty("status=500;body=html").profile());
    out.drop = await window.__run(() => faulty("drop").profile());
    out.timeout = await window.__run(() => faulty("delay=3000").profile());
    out.partial = await window.__run(() => faulty("partial").profile());
    out.validation = await window.__run(() => faulty("").request("{ nope }"));
    out.echo200 = await window.__run(() => echo(200, gqlEcho).profile());
    out.echo401 = await window.__run(() => echo(401, gqlEcho).profile());
    out.echo429 = await window.__run(() => echo(429, gqlEcho, { "retry-after": "2" }).profile());
    out.echo500 = await window.__run(() => echo(500, (request) => `oops ${auth(request)}`, { "content-type": "text/plain" }).profile());
    out.echoDecode = await window.__run(() => echo(200, `{"data":{"profile":"${key}`).profile());
    out.echoThrow = await window.__run(() => new BotClient({ baseUrl: url, apiKey: key, maxRetries: 0,
      fetch: async (request) => { throw new TypeError(`failed: ${auth(request)}`, { cause: new Error(key) }); } }).profile());
    out.sentKey = await new Promise((resolve) => {
      new BotClient({ baseUrl: url, apiKey: key, fetch: async (request) => { resolve(auth(request)); return new Response('{"data":{"profile":{"id":"x"}}}'); } })
        .profile({ fields: ["id"] });
    });
    return out;
  }, { url: SANDBOX_URL, key: AGENT_KEY });
  assert.equal(r.sentKey, `Bearer ${AGENT_KEY}`, "precondition: the echoing fetch saw the real key");
  const codes = {
    unauth: "unauthorized", html: "http", drop: "network", timeout: "timeout", partial: "graphql", validation: "graphql",
    echo200: "graphql", echo401: "unauthorized", echo429: "rate_limited", echo500: "http", echoDecode: "decode", echoThrow: "network",
  };
  for (const [name, code] of Object.entries(codes)) {
    const e = expectError(r[name], code); // includes the no-key check on the full serialization
    assert.ok(!e.serialized.includes(AGENT_KEY.slice(9)), `${name}: the key's secret part leaked`);
  }
  assert.equal(r.echo200.error.graphqlErrors[0].extensions.code, "X", "the rest of the echo survives");
  assert.equal(r.echo200.error.data.profile.id, "agent-1");
  assert.equal(r.echo429.error.retryAfterMs, 2000);
});
