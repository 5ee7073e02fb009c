// BotClient against the sandbox, in Node, through the package imported by name.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { BotClient, MerchantClient, SettlementError, onchainRampUrl, listenForRampEvents } from "settlement-wasm";
import {
  SANDBOX_URL, AGENT_KEY, AGENT3_KEY, MERCHANT_PUBLIC_KEY, uniqueTag, requestsTagged, allOrders, serializeError, expectCode,
  settledLog, fakeFetch, headerOf,
} from "./helpers.mjs";

const bot = (extra = {}) => new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, ...extra });
// A client whose requests carry a sandbox tag (for the request log) and optionally a fault.
const faulty = (fault, tag, extra = {}) =>
  bot({ headers: fault ? { "x-sandbox-fault": fault, "x-sandbox-tag": tag } : { "x-sandbox-tag": tag }, ...extra });

describe("profile", () => {
  test("default selection: the seeded values, every listed field, never apiKey", async () => {
    const p = await bot().profile();
    assert.equal(p.id, "agent-1");
    assert.equal(p.email, "amara.okafor@example.com");
    assert.equal(p.accountBalance, "12500.50");
    assert.equal(p.escrowBalance, "830.00");
    assert.equal(p.bonusEarnings, "42.75");
    assert.equal(p.creditLine, "5000.00");
    assert.equal(p.usedCreditLine, "1250.00");
    assert.equal(p.verificationStatus, "verified");
    for (const f of ["depositAddress", "autoUpdateDepositRate", "depositMargin", "averageWithdrawalRate",
      "depositsCompleted", "withdrawalsCompleted", "totalDepositUsdAmount", "enforceReceiptUpload"]) {
      assert.ok(f in p, `default selection has ${f}`);
    }
    assert.ok(!("apiKey" in p), "apiKey is never selected by default");
  });

  test("fields: only the chosen ones, dotted paths select nested fields", async () => {
    const p = await bot().profile({ fields: ["id", "accountBalance", "totp.enabled"] });
    assert.deepEqual(Object.keys(p).sort(), ["accountBalance", "id", "totp"]);
    assert.equal(typeof p.totp.enabled, "boolean");
  });

  test("fields: an invalid GraphQL name is refused before any request", async () => {
    const tag = uniqueTag("badfield");
    const c = faulty("", tag);
    const e = await expectCode(assert, SettlementError, () => c.profile({ fields: ["id", "x { apiKey }"] }), "invalid_input");
    assert.equal(e.field, "fields");
    assert.equal((await requestsTagged(tag)).length, 0, "nothing was sent");
  });

  test("fields: more than 128 entries, even a 2**32-1 sparse array, is refused before any request; the module keeps working", async () => {
    const tag = uniqueTag("manyfields");
    const c = faulty("", tag);
    const names = Array.from({ length: 129 }, (_, i) => `f${i}`);
    for (let i = 0; i < 200; i++) {
      for (const fields of [new Array(2 ** 32 - 1), names]) {
        const e = await expectCode(assert, SettlementError, () => c.profile({ fields }), "invalid_input");
        assert.equal(e.field, "fields");
        assert.match(e.message, /more than 128 entries/);
      }
    }
    assert.equal((await requestsTagged(tag)).length, 0, "nothing was sent");
    assert.equal((await c.profile({ fields: names.slice(0, 1).concat("id") }).catch((e) => e)).code, "graphql",
      "a 2-field call still reaches the service (f0 is not a profile field)");
    assert.equal((await bot().profile({ fields: ["id"] })).id, "agent-1");
  });

  test("a wrong key is unauthorized (401) and the key appears nowhere in the error", async () => {
    const key = "SBX-SECK_not-a-real-key-9f8e7d";
    const e = await expectCode(assert, SettlementError, () => new BotClient({ baseUrl: SANDBOX_URL, apiKey: key }).profile(), "unauthorized");
    assert.equal(e.status, 401);
    assert.ok(!serializeError(e).includes(key));
  });

  test("no apiKey (proxy mode) sends no Authorization header", async () => {
    const tag = uniqueTag("noauth");
    const c = new BotClient({ baseUrl: SANDBOX_URL, headers: { "x-sandbox-tag": tag } });
    await expectCode(assert, SettlementError, () => c.profile(), "unauthorized");
    const log = await requestsTagged(tag);
    assert.equal(log.length, 1);
    assert.equal(log[0].hasAuthorization, false);
  });

  test("endpoint: a full URL instead of baseUrl", async () => {
    const c = new BotClient({ endpoint: `${SANDBOX_URL}/service/bot/graphql`, apiKey: AGENT_KEY });
    assert.equal((await c.profile({ fields: ["id"] })).id, "agent-1");
  });

  test("baseUrl with trailing slashes", async () => {
    const c = new BotClient({ baseUrl: `${SANDBOX_URL}//`, apiKey: AGENT_KEY });
    assert.equal((await c.profile({ fields: ["id"] })).id, "agent-1");
  });
});

describe("constructor options", () => {
  const bad = [
    [{}, "baseUrl"],
    [{ baseUrl: SANDBOX_URL, endpoint: `${SANDBOX_URL}/x` }, "endpoint"],
    [{ baseUrl: "not a url" }, "baseUrl"],
    [{ baseUrl: SANDBOX_URL, timeoutMs: -1 }, "timeoutMs"],
    [{ baseUrl: SANDBOX_URL, maxRetries: 1.5 }, "maxRetries"],
    [{ baseUrl: SANDBOX_URL, headers: { Authorization: "Bearer x" } }, "headers.Authorization"],
    [{ baseUrl: SANDBOX_URL, headers: { "content-type": "text/plain" } }, "headers.content-type"],
    [{ baseUrl: SANDBOX_URL, fetch: 42 }, "fetch"],
  ];
  for (const [opts, field] of bad) {
    test(`refuses ${JSON.stringify(opts)} naming ${field}`, () => {
      let caught;
      try { new BotClient(opts); } catch (e) { caught = e; }
      assert.ok(caught instanceof SettlementError, `threw ${caught}`);
      assert.equal(caught.code, "invalid_input");
      assert.ok(caught.field === field || (field === "baseUrl" && ["baseUrl", "endpoint"].includes(caught.field)), `field was ${caught.field}`);
    });
  }

  test("a custom fetch is used instead of the global one", async () => {
    let calls = 0;
    const c = bot({ fetch: (request) => { calls += 1; return fetch(request); } });
    await c.profile({ fields: ["id"] });
    assert.equal(calls, 1);
  });
});

describe("orderHistory", () => {
  test("first page: 10 rows by default, exact total, pagination echoed", async () => {
    const all = await allOrders();
    const page = await bot().orderHistory({ page: 1 });
    assert.equal(page.data.length, 10);
    assert.deepEqual(page.pagination, { page: 1, perPage: 10, total: all.length });
    assert.equal(page.pagination.total, 1600);
    assert.ok(Array.isArray(page.data));
    for (const k of ["id", "status", "paymentType", "orderId", "createdAt"]) assert.ok(k in page.data[0], k);
  });

  const filters = {
    status: (o, v) => o.status === v,
    paymentMethod: (o, v) => o.paymentMethod === v,
    orderId: (o, v) => o.orderId === v,
    dateFrom: (o, v) => o.createdAt.slice(0, 10) >= v,
    dateTo: (o, v) => o.createdAt.slice(0, 10) <= v,
  };
  async function check(filter) {
    const all = await allOrders();
    const expected = all.filter((o) => Object.entries(filter).every(([k, v]) => filters[k](o, v)));
    const page = await bot().orderHistory({ page: 1, perPage: 100, filter });
    assert.equal(page.pagination.total, expected.length, `total for ${JSON.stringify(filter)}`);
    assert.deepEqual(page.data.map((o) => o.id), expected.slice(0, 100).map((o) => o.id));
    return expected.length;
  }
  test("each filter alone narrows exactly as the data says", async () => {
    const sample = (await allOrders())[137];
    assert.ok(await check({ status: "canceled" }) > 0);
    assert.ok(await check({ paymentMethod: sample.paymentMethod }) > 0);
    assert.equal(await check({ orderId: sample.orderId }), 1);
    assert.ok(await check({ dateFrom: "2026-10-01" }) > 0);
    assert.ok(await check({ dateTo: "2025-09-30" }) > 0);
  });
  test("all five filters combined", async () => {
    const sample = (await allOrders())[500];
    const day = sample.createdAt.slice(0, 10);
    assert.equal(await check({
      status: sample.status, paymentMethod: sample.paymentMethod, orderId: sample.orderId, dateFrom: day, dateTo: day,
    }), 1);
    assert.ok(await check({ status: "completed", paymentMethod: sample.paymentMethod, dateFrom: "2026-01-01", dateTo: "2026-03-31" }) > 0);
  });
  test("a JS Date is accepted and formatted as its UTC date", async () => {
    const a = await bot().orderHistory({ page: 1, filter: { dateFrom: new Date(Date.UTC(2026, 9, 1, 23, 0)) } });
    const b = await bot().orderHistory({ page: 1, filter: { dateFrom: "2026-10-01" } });
    assert.equal(a.pagination.total, b.pagination.total);
  });
  test("a hostile orderId travels verbatim as a variable and matches nothing", async () => {
    const tag = uniqueTag("hostile");
    const hostile = `") { __schema { types { name } } } # "' \\ {}`;
    const page = await faulty("", tag).orderHistory({ page: 1, filter: { orderId: hostile } });
    assert.equal(page.pagination.total, 0);
    assert.deepEqual(page.data, []);
    const [entry] = await requestsTagged(tag);
    assert.equal(entry.variables.filter.orderId, hostile);
    assert.ok(!entry.query.includes("__schema"), "the document never contains the input");
  });
  test("invalid inputs are refused before sending, naming the argument", async () => {
    const tag = uniqueTag("invalid");
    const c = faulty("", tag);
    const cases = [
      [{ page: 0 }, "page"], [{ page: 1.5 }, "page"], [{ page: "1" }, "page"], [{}, "page"],
      [{ page: 1, perPage: 0 }, "perPage"], [{ page: 1, perPage: 2.5 }, "perPage"],
      [{ page: 1, filter: { dateFrom: "2025-02-29" } }, "filter.dateFrom"],
      [{ page: 1, filter: { dateTo: "2025-13-01" } }, "filter.dateTo"],
      [{ page: 1, filter: { dateFrom: "2026-02-01", dateTo: "2026-01-01" } }, "filter.dateFrom"],
      [{ page: 1, filter: { status: "not valid!" } }, "filter.status"],
      [{ page: 1, filter: { orderId: "" } }, "filter.orderId"],
      [{ page: 1, filter: { paymentMethod: "" } }, "filter.paymentMethod"],
      // A misspelt option is refused, never silently skipped.
      [{ page: 1, perpage: 5 }, "perpage"], [{ page: 1, filters: { status: "pending" } }, "filters"],
    ];
    for (const [args, field] of cases) {
      const e = await expectCode(assert, SettlementError, () => c.orderHistory(args), "invalid_input");
      assert.equal(e.field, field, `field for ${JSON.stringify(args)}`);
    }
    assert.equal((await requestsTagged(tag)).length, 0, "no request was sent for any invalid input");
  });
  test("every options object refuses an unknown key, naming it (one rule for all)", async () => {
    const tag = uniqueTag("unknownkeys");
    const c = faulty("", tag);
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY, headers: { "x-sandbox-tag": tag } });
    const cases = [
      [() => c.profile({ feilds: ["id"] }), "feilds"],
      [() => c.withdrawalInfo("USDC", { field: ["symbol"] }), "field"],
      [() => c.acceptWithdrawal("p2p_1", { singal: undefined }), "singal"],
      [() => c.orders({ perpage: 5 }), "perpage"],
      [() => c.watchOrders({ intervalMS: 5000 }), "intervalMS"],
      [() => c.reconcile({ id: "a", orderId: "b" }, { fileds: ["id"] }), "fileds"],
      [() => c.request("{ profile { id } }", null, { timeout: 1 }), "timeout"],
      [() => merchant.availableCountries({ feilds: ["id"] }), "feilds"],
      [() => merchant.marketRate("NG", { countryCode: "KE" }), "countryCode"],
      [() => merchant.confirmUntilSettled({ paymentRequest: "p", transactionHash: `0x${"a".repeat(64)}`, interval: 1 }), "interval"],
      [() => new BotClient({ baseUrl: SANDBOX_URL, apiKey: "k", timeout: 5 }), "timeout"],
      [() => new BotClient({ baseUrl: SANDBOX_URL, apiKey: "k", dangerouslyAllowBrowser: true }), "dangerouslyAllowBrowser"],
      [() => onchainRampUrl({ rampUrl: "https://ramp.example/x", key: "SBX-PUBK_demo1234", paymentType: "deposit", coin: "USDC", network: "CELO", adress: "0x1" }), "adress"],
      [() => listenForRampEvents({ allowedOrigin: "https://ramp.example", onCryptoRequested() {}, target: { addEventListener() {}, removeEventListener() {} }, orign: "x" }), "orign"],
    ];
    for (const [call, field] of cases) {
      const e = await expectCode(assert, SettlementError, call, "invalid_input");
      assert.equal(e.field, field, e.message);
      assert.match(e.message, /is not an option of this method/);
    }
    assert.equal((await requestsTagged(tag)).length, 0, "nothing was sent");
  });
  test("an unknown status name passes the client and reaches the server", async () => {
    const tag = uniqueTag("unknownstatus");
    const e = await expectCode(assert, SettlementError, () => faulty("", tag).orderHistory({ page: 1, filter: { status: "refunded" } }), "graphql");
    assert.ok(e.graphqlErrors.length >= 1);
    assert.equal((await requestsTagged(tag)).length, 1);
  });
  test("perPage has no invented client cap: the server's own limit answers", async () => {
    const e = await expectCode(assert, SettlementError, () => bot().orderHistory({ page: 1, perPage: 5000 }), "graphql");
    assert.ok(e.graphqlErrors[0].message.length > 0);
  });
  test("an agent with no orders gets an empty page", async () => {
    const c = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT3_KEY });
    const page = await c.orderHistory({ page: 1 });
    assert.deepEqual(page.data, []);
    assert.equal(page.pagination.total, 0);
  });
});

describe("orders() iterator", () => {
  test("yields exactly total records, fetching pages lazily", async () => {
    const tag = uniqueTag("iter");
    const all = await allOrders();
    const filter = { status: "canceled" };
    const expected = all.filter((o) => o.status === "canceled");
    const ids = [];
    for await (const o of faulty("", tag).orders({ perPage: 40, filter })) ids.push(o.id);
    assert.deepEqual(ids, expected.map((o) => o.id));
    assert.equal((await requestsTagged(tag)).length, Math.ceil(expected.length / 40));
  });
  test("breaking out early stops fetching", async () => {
    const tag = uniqueTag("iterbreak");
    let n = 0;
    for await (const _ of faulty("", tag).orders({ perPage: 10 })) { if (++n === 15) break; }
    assert.equal((await requestsTagged(tag)).length, 2);
  });
});

describe("withdrawalInfo", () => {
  for (const sym of ["USDC", "USDT", "CUSD", "ETH"]) {
    test(`${sym}: networks and patterns`, async () => {
      const w = await bot().withdrawalInfo(`  ${sym.toLowerCase()} `);
      assert.equal(w.symbol, sym);
      assert.ok(Array.isArray(w.networks) && w.networks.length > 0);
      assert.ok("addressRegex" in w);
    });
  }
  test("empty symbol refused", async () => {
    const e = await expectCode(assert, SettlementError, () => bot().withdrawalInfo("   "), "invalid_input");
    assert.equal(e.field, "symbol");
  });
});

describe("request()", () => {
  test("any query with variables", async () => {
    const data = await bot().request("query Q($s: String!) { withdrawalInfo(symbol: $s) { symbol networks } }", { s: "USDT" });
    assert.equal(data.withdrawalInfo.symbol, "USDT");
  });
  test("only read-only documents are retried: a mutation, or a query mixed with one, is sent once", async () => {
    for (const doc of ["mutation M { pay }", "query A { profile { id } } mutation B { pay }", "subscription S { updates }"]) {
      const tag = uniqueTag("mutation");
      const e = await expectCode(assert, SettlementError,
        () => faulty("status=503;retry-after=0", tag, { maxRetries: 2 }).request(doc), "http");
      assert.equal(e.status, 503);
      assert.equal((await settledLog(tag, 1)).length, 1, `not retried: ${doc}`);
    }
    // A query whose comment and string mention "mutation" is still a query: retried.
    const tag = uniqueTag("querymention");
    const data = await faulty("status=503;retry-after=0;fail-first=1", tag, { maxRetries: 2 })
      .request('# mutation\nquery Q { withdrawalInfo(symbol: "mutation { x }") { symbol } }');
    assert.deepEqual(data, { withdrawalInfo: null });
    assert.equal((await settledLog(tag, 2)).length, 2);
  });
  test("GraphQL errors keep message, path, locations, extensions", async () => {
    const e = await expectCode(assert, SettlementError, () => bot().request("{ nope }"), "graphql");
    assert.ok(e.graphqlErrors.length >= 1);
    assert.equal(typeof e.graphqlErrors[0].message, "string");
  });
});

describe("errors and resilience", () => {
  const faultCases = [
    ["status=403", "forbidden", 403],
    ["status=404", "http", 404],
    ["status=500;body=html", "http", 500],
    ["status=400;body=empty", "http", 400],
    ["body=truncated", "decode", 200],
    ["status=200;body=html", "decode", 200],
  ];
  for (const [fault, code, status] of faultCases) {
    test(`fault ${fault} → ${code}`, async () => {
      const tag = uniqueTag("fault");
      const e = await expectCode(assert, SettlementError, () => faulty(fault, tag, { maxRetries: 0 }).profile(), code);
      assert.equal(e.status, status);
      assert.ok(!serializeError(e).includes(AGENT_KEY), "no key in the error");
    });
  }
  test("partial data plus errors → graphql with data attached", async () => {
    const e = await expectCode(assert, SettlementError, () => faulty("partial", uniqueTag("partial")).profile(), "graphql");
    assert.equal(e.data.profile.id, "agent-1");
    assert.equal(e.graphqlErrors[0].extensions.code, "PARTIAL");
    assert.deepEqual(e.graphqlErrors[0].path, ["profile"]);
  });
  test("429 with Retry-After, no retries left → rate_limited with retryAfterMs", async () => {
    const e = await expectCode(assert, SettlementError, () => faulty("status=429;retry-after=7", uniqueTag("429"), { maxRetries: 0 }).profile(), "rate_limited");
    assert.equal(e.retryAfterMs, 7000);
    assert.equal(e.status, 429);
  });
  for (const status of [429, 502, 503, 504]) {
    test(`${status} twice then success: retried, 3 attempts in the log`, async () => {
      const tag = uniqueTag(`retry${status}`);
      const p = await faulty(`status=${status};retry-after=0;fail-first=2`, tag).profile({ fields: ["id"] });
      assert.equal(p.id, "agent-1");
      assert.equal((await requestsTagged(tag)).length, 3);
    });
  }
  test("a dropped connection is a network error, retried then reported", async () => {
    const tag = uniqueTag("drop");
    const e = await expectCode(assert, SettlementError, () => faulty("drop", tag, { maxRetries: 1 }).profile(), "network");
    assert.equal((await requestsTagged(tag)).length, 2);
    assert.ok(!serializeError(e).includes(AGENT_KEY));
  });
  test("500 and GraphQL errors are never retried", async () => {
    const tag = uniqueTag("noretry");
    await expectCode(assert, SettlementError, () => faulty("status=500", tag, { maxRetries: 3 }).profile(), "http");
    assert.equal((await settledLog(tag, 1)).length, 1);
  });
  test("a GraphQL error (unknown field, HTTP 200) is never retried", async () => {
    const tag = uniqueTag("noretrygql");
    const e = await expectCode(assert, SettlementError, () => faulty("", tag, { maxRetries: 3 }).request("{ nope }"), "graphql");
    assert.equal(e.status, 200);
    assert.equal(e.graphqlErrors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
    const log = await settledLog(tag, 1);
    assert.equal(log.length, 1, "exactly one request");
    assert.equal(log[0].status, 200);
  });
  test("a partial response (data + errors) is never retried either", async () => {
    const tag = uniqueTag("noretrypartial");
    await expectCode(assert, SettlementError, () => faulty("partial", tag, { maxRetries: 3 }).profile({ fields: ["id"] }), "graphql");
    assert.equal((await settledLog(tag, 1)).length, 1);
  });
  test("timeout per attempt, retried: two attempts of 300 ms, well before the server answers", async () => {
    const tag = uniqueTag("timeoutretry");
    const t0 = Date.now();
    const e = await expectCode(assert, SettlementError,
      () => faulty("delay=3000", tag, { timeoutMs: 300, maxRetries: 1 }).profile(), "timeout");
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 550, `both attempts ran their 300 ms (elapsed ${elapsed} ms)`);
    assert.ok(elapsed < 2500, `gave up before the server answered (elapsed ${elapsed} ms)`);
    assert.ok(!serializeError(e).includes(AGENT_KEY));
    const log = await settledLog(tag, 2, { timeoutMs: 6_000, settleMs: 400 });
    assert.equal(log.length, 2, "one retry after the first timeout, no more");
  });
  test("timeout per attempt", async () => {
    const tag = uniqueTag("timeout");
    const t0 = Date.now();
    await expectCode(assert, SettlementError, () => faulty("delay=3000", tag, { timeoutMs: 200, maxRetries: 0 }).profile(), "timeout");
    assert.ok(Date.now() - t0 < 2500, "gave up before the server answered");
  });
  test("the caller's signal aborts at once and is not retried", async () => {
    const tag = uniqueTag("abort");
    const ac = new AbortController();
    const p = faulty("delay=3000", tag, { maxRetries: 3 }).profile({ signal: ac.signal });
    let abortedAt = 0;
    setTimeout(() => { abortedAt = Date.now(); ac.abort(); }, 100);
    await expectCode(assert, SettlementError, () => p, "aborted");
    assert.ok(abortedAt > 0, "rejected only after the abort");
    const after = Date.now() - abortedAt;
    assert.ok(after < 1000, `rejected ${after} ms after the abort`);
    assert.equal((await settledLog(tag, 1, { timeoutMs: 6_000, settleMs: 400 })).length, 1);
  });
  test("aborting during the backoff sleep rejects at once, with no further attempt", async () => {
    const tag = uniqueTag("abortsleep");
    const ac = new AbortController();
    // 503 asking for a 30 s wait: the client sleeps; the abort must cut the sleep short.
    const p = faulty("status=503;retry-after=30", tag, { maxRetries: 2 }).profile({ signal: ac.signal });
    await settledLog(tag, 1, { settleMs: 0 });
    const abortedAt = Date.now();
    ac.abort();
    await expectCode(assert, SettlementError, () => p, "aborted");
    assert.ok(Date.now() - abortedAt < 1000, "the sleep was cut short");
    assert.equal((await settledLog(tag, 1)).length, 1);
  });
  test("an already-aborted signal sends nothing", async () => {
    const tag = uniqueTag("preabort");
    await expectCode(assert, SettlementError, () => faulty("", tag).profile({ signal: AbortSignal.abort() }), "aborted");
    assert.equal((await requestsTagged(tag)).length, 0);
  });
});

describe("non-2xx GraphQL bodies and Retry-After", () => {
  test("503 with a GraphQL body: graphqlErrors read from the body, message from its first error", async () => {
    const tag = uniqueTag("503json");
    const e = await expectCode(assert, SettlementError, () => faulty("status=503;body=json", tag, { maxRetries: 0 }).profile(), "http");
    assert.equal(e.status, 503);
    assert.ok(Array.isArray(e.graphqlErrors) && e.graphqlErrors.length === 1, "graphqlErrors from the body");
    assert.equal(e.graphqlErrors[0].extensions.code, "SERVICE_UNAVAILABLE");
    assert.match(e.graphqlErrors[0].message, /sandbox injected fault/);
    assert.match(e.message, /sandbox injected fault/);
    assert.equal((await settledLog(tag, 1)).length, 1, "maxRetries 0: one attempt");
  });
  test("429 with a GraphQL body: rate_limited keeps the body's errors", async () => {
    const e = await expectCode(assert, SettlementError,
      () => faulty("status=429;body=json", uniqueTag("429json"), { maxRetries: 0 }).profile(), "rate_limited");
    assert.equal(e.graphqlErrors[0].extensions.code, "RATE_LIMITED");
    assert.equal(e.retryAfterMs, undefined, "no Retry-After, no retryAfterMs");
  });
  test("Retry-After as an HTTP date → retryAfterMs is the time until then", async () => {
    const at = new Date(Date.now() + 20_000).toUTCString();
    const e = await expectCode(assert, SettlementError,
      () => faulty(`status=429;retry-after=${at}`, uniqueTag("429date"), { maxRetries: 0 }).profile(), "rate_limited");
    assert.equal(typeof e.retryAfterMs, "number");
    assert.ok(e.retryAfterMs > 17_000 && e.retryAfterMs <= 20_500, `retryAfterMs ${e.retryAfterMs}`);
  });
  test("Retry-After as a date in the past → 0", async () => {
    const e = await expectCode(assert, SettlementError,
      () => faulty("status=429;retry-after=Wed, 21 Oct 2015 07:28:00 GMT", uniqueTag("429past"), { maxRetries: 0 }).profile(), "rate_limited");
    assert.equal(e.retryAfterMs, 0);
  });
  test("a Retry-After date is waited for before the retry", async () => {
    const tag = uniqueTag("503date");
    const t0 = Date.now();
    const at = new Date(Math.ceil((t0 + 1500) / 1000) * 1000).toUTCString(); // ≥ 1.5 s ahead, whole second
    const p = await faulty(`status=503;retry-after=${at};fail-first=1`, tag, { maxRetries: 1 }).profile({ fields: ["id"] });
    assert.equal(p.id, "agent-1");
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 1300, `waited for the date (elapsed ${elapsed} ms)`);
    assert.ok(elapsed < 5000, `not much longer (elapsed ${elapsed} ms)`);
    assert.equal((await settledLog(tag, 2)).length, 2);
  });
  test("an empty 200 body → decode", async () => {
    const e = await expectCode(assert, SettlementError,
      () => faulty("status=200;body=empty", uniqueTag("200empty"), { maxRetries: 0 }).profile(), "decode");
    assert.equal(e.status, 200);
  });
});

describe("key redaction through the binding (a fetch that echoes the key)", () => {
  const KEY = AGENT_KEY;
  const json = (status, body, headers = {}) =>
    new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  const withFetch = (f, extra = {}) => new BotClient({ baseUrl: SANDBOX_URL, apiKey: KEY, maxRetries: 0, fetch: f, ...extra });
  // The header value the client really sent, so the echo is exactly what a server would see.
  const sentAuth = (init) => headerOf(init.headers, "authorization");

  function assertClean(e, what) {
    const text = serializeError(e);
    assert.ok(text.length > 0);
    assert.ok(!text.includes(KEY), `${what}: the key leaked: ${text.slice(0, 2000)}`);
    // Nor the key's unique part (a partial echo, e.g. of the Bearer header with a split).
    assert.ok(!text.includes(KEY.slice(9)), `${what}: the key's secret part leaked`);
  }

  test("the fake fetch really receives the key (precondition of the checks below)", async () => {
    const f = fakeFetch(() => json(200, { data: { withdrawalInfo: null } }));
    assert.equal(await withFetch(f).withdrawalInfo("USDC"), null);
    assert.equal(f.calls.length, 1);
    assert.equal(sentAuth(f.calls[0].init), `Bearer ${KEY}`);
  });

  test("200 with errors: message, path, locations, extensions and partial data echo the key", async () => {
    const f = fakeFetch((url, init) => json(200, {
      data: { profile: { id: "agent-1", email: KEY, note: `auth was ${sentAuth(init)}`, [KEY]: [KEY, { k: KEY }] } },
      errors: [
        { message: `bad key ${KEY}`, path: ["profile", KEY, 0], locations: [{ line: 1, column: 2 }],
          extensions: { code: "X", auth: sentAuth(init), [KEY]: true, nested: { list: [KEY, `${KEY}${KEY}`] } } },
        { message: `${sentAuth(init)}`, path: ["profile"] },
      ],
    }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "graphql");
    assert.equal(e.graphqlErrors.length, 2);
    assert.equal(e.graphqlErrors[0].extensions.code, "X", "other extension values survive");
    assert.deepEqual(e.graphqlErrors[0].locations, [{ line: 1, column: 2 }]);
    assert.equal(e.data.profile.id, "agent-1", "other data survives");
    assert.ok(e.graphqlErrors[0].message.startsWith("bad key "));
    assertClean(e, "graphql 200");
  });

  test("request(): the same echo is redacted on the generic path", async () => {
    const f = fakeFetch(() => json(200, { data: { x: KEY }, errors: [{ message: KEY, extensions: { KEY } }] }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).request("{ x }"), "graphql");
    assertClean(e, "request()");
  });

  test("200 FORBIDDEN echoing the key → forbidden, redacted", async () => {
    const f = fakeFetch(() => json(200, { data: null, errors: [{ message: `key ${KEY} may not`, path: ["profile"], extensions: { code: "FORBIDDEN", key: KEY } }] }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "forbidden");
    assertClean(e, "forbidden");
  });

  test("401 whose body echoes the key → unauthorized, redacted", async () => {
    const f = fakeFetch((url, init) => json(401, {
      data: null, errors: [{ message: `Invalid key ${KEY} (${sentAuth(init)})`, extensions: { code: "UNAUTHENTICATED", key: KEY } }],
    }, { "www-authenticate": `Bearer realm="${KEY}"` }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "unauthorized");
    assert.equal(e.status, 401);
    assert.equal(e.graphqlErrors[0].extensions.code, "UNAUTHENTICATED");
    assertClean(e, "401");
  });

  test("429 whose body echoes the key → rate_limited, redacted", async () => {
    const f = fakeFetch(() => json(429, { errors: [{ message: `slow down ${KEY}` }] }, { "retry-after": "3" }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "rate_limited");
    assert.equal(e.retryAfterMs, 3000);
    assertClean(e, "429");
  });

  test("500 with a text body echoing the key → http, redacted", async () => {
    const f = fakeFetch((url, init) => new Response(`Internal error; request had Authorization: ${sentAuth(init)}`, { status: 500, headers: { "content-type": "text/plain" } }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "http");
    assert.equal(e.status, 500);
    assertClean(e, "500 text");
  });

  test("200 with a non-JSON / truncated body echoing the key → decode, redacted", async () => {
    for (const body of [`<html>${KEY}</html>`, `{"data":{"profile":{"id":"${KEY}`, `"${KEY}"`, `[${JSON.stringify(KEY)}]`]) {
      const f = fakeFetch(() => new Response(body, { status: 200, headers: { "content-type": "application/json" } }));
      const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "decode");
      assertClean(e, `decode of ${body}`);
    }
  });

  test("200 with the key as the value of data's root field → decode or success, never leaked in an error", async () => {
    const f = fakeFetch(() => json(200, { data: { orderHistory: KEY } }));
    let caught = null;
    try { await withFetch(f).orderHistory({ page: 1 }); } catch (e) { caught = e; }
    assert.ok(caught instanceof SettlementError, "a string is not an OrderHistoryPage");
    assertClean(caught, "wrong shape");
  });

  test("a fetch that throws a TypeError naming the key → network, redacted (also its cause)", async () => {
    const f = fakeFetch((url, init) => {
      throw new TypeError(`failed: ${sentAuth(init)}`, { cause: { code: KEY, message: `cause ${KEY}` } });
    });
    const e = await expectCode(assert, SettlementError, () => withFetch(f).profile(), "network");
    assert.equal(f.calls.length, 1);
    assert.match(e.message, /failed: Bearer/);
    assertClean(e, "network TypeError");
  });

  test("a fetch that rejects with a string or a cause message naming the key → network, redacted", async () => {
    for (const make of [
      () => Promise.reject(`boom Bearer ${KEY}`),
      () => Promise.reject(Object.assign(new Error(""), { cause: { message: `socket ${KEY}` } })),
      () => Promise.reject(new Error(`x ${KEY}`, { cause: new Error(`inner ${KEY}`) })),
    ]) {
      const e = await expectCode(assert, SettlementError, () => withFetch(fakeFetch(make)).profile(), "network");
      assertClean(e, `network ${make}`);
    }
  });

  test("the key typed into inputs: refused or echoed by the real server, always redacted", async () => {
    const c = bot();
    const cases = [
      [() => c.profile({ fields: ["id", KEY] }), "invalid_input"],
      [() => c.orderHistory({ page: 1, filter: { status: `${KEY}!` } }), "invalid_input"],
      [() => c.orderHistory({ page: 1, filter: { dateFrom: KEY } }), "invalid_input"],
      [() => c.request(`{ ${KEY} }`), "graphql"], // the server's parse error quotes the document
      [() => c.request(`query { withdrawalInfo(symbol: "${KEY}`), "graphql"],
      [() => c.request("query Q($p: Int!) { orderHistory(page: $p) { pagination { total } } }", { p: KEY }), "graphql"],
    ];
    for (const [call, code] of cases) {
      const e = await expectCode(assert, SettlementError, call, code);
      assertClean(e, `${call}`);
    }
  });

  test("retried failures echoing the key: the final error is redacted", async () => {
    const f = fakeFetch((url, init, n) => n < 3
      ? json(503, { errors: [{ message: `down for ${KEY}` }] }, { "retry-after": "0" })
      : json(502, { errors: [{ message: `gateway ${sentAuth(init)}`, extensions: { k: KEY } }] }, { "retry-after": "0" }));
    const e = await expectCode(assert, SettlementError, () => withFetch(f, { maxRetries: 2 }).profile(), "http");
    assert.equal(f.calls.length, 3);
    assert.equal(e.status, 502);
    assertClean(e, "after retries");
  });
});
