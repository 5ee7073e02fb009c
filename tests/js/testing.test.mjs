// settlement-wasm-testing, the in-process fake (the sandbox's core compiled to WebAssembly),
// through the packages imported by name: observed-only refusals (and the same requests
// accepted by the sandbox over HTTP, which serves its own additions), every operation of both
// clients giving the same results through the fake as through the HTTP sandbox, the faults,
// the clock, the request log and the webhook deliveries. Run through scripts/with-sandbox.sh
// (the comparison needs the HTTP sandbox; the fake needs none). For a data seed, this file
// starts a second sandbox (the same binary, `--seed N`) and stops it by its PID.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BotClient, MerchantClient, SettlementError, createWebhookHandler } from "settlement-wasm";
import { createFakeService } from "settlement-wasm-testing";
import { SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY } from "./helpers.mjs";
import { everyOperation, everyOperationOverHttp, assertSameResults } from "./every-operation.mjs";

/** A raw GraphQL POST through `fetchFn`: `{ status, body }`. */
async function post(fetchFn, base, path, key, query, variables) {
  const res = await fetchFn(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() };
}
const BOT = "/service/bot/graphql";
const MERCHANT = "/service/api/graphql";

describe("observed schema only, by default", () => {
  const UNOBSERVED_FIELD = "query { profile { id totp { enabled } } }";
  const WRONG_ENUM = "query H($f: OrderHistoryFilter) { orderHistory(page: 1, filter: $f) { data { id status } } }";
  const WRONG_ENUM_LITERAL = "query { orderHistory(page: 1, filter: { status: canceled }) { data { id } } }";

  test("an unobserved field is a GraphQL validation error; extras (and the HTTP sandbox) serve it", async () => {
    const fake = createFakeService();
    const r = await post(fake.fetch, fake.baseUrl, BOT, fake.keys.agent, UNOBSERVED_FIELD);
    assert.equal(r.status, 200);
    assert.equal(r.body.data, null);
    assert.equal(r.body.errors.length, 1);
    assert.equal(r.body.errors[0].message, 'Unknown field "totp" on type "AgentProfile".');
    assert.equal(r.body.errors[0].extensions.code, "GRAPHQL_VALIDATION_FAILED");
    assert.ok(Array.isArray(r.body.errors[0].locations));

    const demo = createFakeService({ extras: true });
    const ok = await post(demo.fetch, demo.baseUrl, BOT, demo.keys.agent, UNOBSERVED_FIELD);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.errors, undefined);
    assert.equal(typeof ok.body.data.profile.totp.enabled, "boolean");

    const http = await post(fetch, SANDBOX_URL, BOT, AGENT_KEY, UNOBSERVED_FIELD);
    assert.deepEqual(http.body, ok.body, "the fake with extras answers as the HTTP sandbox");
  });

  test("a wrong enum value (variable or literal) is refused; extras and the HTTP sandbox accept it", async () => {
    const fake = createFakeService();
    const r = await post(fake.fetch, fake.baseUrl, BOT, fake.keys.agent, WRONG_ENUM, { f: { status: "canceled" } });
    assert.equal(r.body.data, null);
    assert.match(r.body.errors[0].message, /enumeration type "P2PPaymentStatus" does not contain the value "canceled"/);
    assert.equal(r.body.errors[0].extensions.code, "BAD_USER_INPUT");
    const lit = await post(fake.fetch, fake.baseUrl, BOT, fake.keys.agent, WRONG_ENUM_LITERAL);
    assert.equal(lit.body.data, null);
    assert.match(lit.body.errors[0].message, /does not contain the value "canceled"/);

    const demo = createFakeService({ extras: true });
    const ok = await post(demo.fetch, demo.baseUrl, BOT, demo.keys.agent, WRONG_ENUM, { f: { status: "canceled" } });
    assert.equal(ok.body.errors, undefined);
    assert.ok(ok.body.data.orderHistory.data.length > 0);
    assert.ok(ok.body.data.orderHistory.data.every((o) => o.status === "canceled"));
    const http = await post(fetch, SANDBOX_URL, BOT, AGENT_KEY, WRONG_ENUM, { f: { status: "canceled" } });
    assert.deepEqual(http.body, ok.body);
  });

  test("a client's own `fields` mistake fails in the test, as it would against the service", async () => {
    const fake = createFakeService();
    const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch });
    const e = await bot.orderHistory({ page: 1, fields: ["id", "amountUsd"] }).then(() => null, (err) => err);
    assert.ok(e instanceof SettlementError, String(e));
    assert.equal(e.code, "graphql");
    assert.equal(e.graphqlErrors[0].message, 'Unknown field "amountUsd" on type "P2PPayment".');
    const demo = createFakeService({ extras: true });
    const page = await new BotClient({ baseUrl: demo.baseUrl, apiKey: demo.keys.agent, fetch: demo.fetch })
      .orderHistory({ page: 1, fields: ["id", "amountUsd"] });
    assert.equal(typeof page.data[0].amountUsd, "string");
  });
});

describe("every operation, through the fake and through the HTTP sandbox", () => {
  test("the same results for the same seed", async () => {
    const clients = { BotClient, MerchantClient };
    const viaHttp = await everyOperationOverHttp(clients, {
      sandboxUrl: SANDBOX_URL, keys: { agent: AGENT_KEY, merchantPublic: MERCHANT_PUBLIC_KEY, merchantSecret: MERCHANT_SECRET_KEY },
    });
    // The sandbox's links name its origin: the fake answers as the same one.
    const fake = createFakeService({ baseUrl: SANDBOX_URL, extras: true });
    const viaFake = await everyOperation(clients, { baseUrl: fake.baseUrl, fetchFn: fake.fetch, keys: fake.keys, control: fake.control });
    assertSameResults(assert, viaFake, viaHttp, "extras");
    // Default (observed only): every operation's default selection keeps to the contract.
    const strict = createFakeService({ baseUrl: SANDBOX_URL });
    const viaStrict = await everyOperation(clients, { baseUrl: strict.baseUrl, fetchFn: strict.fetch, keys: strict.keys, control: strict.control });
    assertSameResults(assert, viaStrict, viaHttp, "observed only");
  });
});

/**
 * A second HTTP sandbox, the binary with-sandbox.sh runs, started with `--seed seed` on a free
 * port: `{ url, keys, stop }` (stop: SIGTERM to its PID, the one this file started).
 */
async function seededSandbox(seed) {
  const running = process.env.SANDBOX_PID && `/proc/${process.env.SANDBOX_PID}/exe`;
  const bin = running && existsSync(running) ? readlinkSync(running)
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../target/debug/settlement-sandbox");
  const child = spawn(bin, ["--port", "0", "--quiet", "--seed", String(seed)], { stdio: ["ignore", "pipe", "inherit"] });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  try {
    const env = await new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`the seeded sandbox did not start: ${out}`)), 30_000);
      child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`the seeded sandbox exited (${code}): ${out}`)); });
      child.stdout.on("data", (chunk) => {
        out += chunk;
        if (/^SANDBOX_READY/m.test(out)) {
          clearTimeout(timer);
          resolve(Object.fromEntries(out.split("\n").filter((l) => l.includes("=")).map((l) => l.split(/=(.*)/s).slice(0, 2))));
        }
      });
    });
    return {
      url: env.SANDBOX_URL,
      keys: { agent: env.AGENT_KEY, merchantPublic: env.MERCHANT_PUBLIC_KEY, merchantSecret: env.MERCHANT_SECRET_KEY },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

describe("data seeds: the fake and the sandbox take the same seed, once, in the core", () => {
  const SEED = 4242;

  test("every operation through createFakeService({ seed }) equals the HTTP sandbox started with --seed", async () => {
    const clients = { BotClient, MerchantClient };
    const sandbox = await seededSandbox(SEED);
    try {
      const viaHttp = await everyOperationOverHttp(clients, { sandboxUrl: sandbox.url, keys: sandbox.keys });
      for (const extras of [true, false]) {
        const fake = createFakeService({ baseUrl: sandbox.url, extras, seed: SEED });
        const viaFake = await everyOperation(clients, { baseUrl: fake.baseUrl, fetchFn: fake.fetch, keys: fake.keys, control: fake.control });
        assertSameResults(assert, viaFake, viaHttp, `seed ${SEED}, ${extras ? "extras" : "observed only"}`);
      }
      // And it is not the default data: the same list against the default sandbox differs.
      const viaDefault = await everyOperationOverHttp(clients, {
        sandboxUrl: SANDBOX_URL, keys: { agent: AGENT_KEY, merchantPublic: MERCHANT_PUBLIC_KEY, merchantSecret: MERCHANT_SECRET_KEY },
      });
      const result = (run, name) => JSON.stringify(run.find(([n]) => n === name)[1]).replaceAll(SANDBOX_URL, "").replaceAll(sandbox.url, "");
      for (const name of ["profile", "orderHistory", "orders"]) {
        assert.notEqual(result(viaHttp, name), result(viaDefault, name), `${name}: seed ${SEED} vs the default data`);
      }
    } finally {
      await sandbox.stop();
    }
  });

  test("two seeds give different data; the same seed the same; no seed (or 0) the usual data", async () => {
    const orders = async (options) => {
      const fake = createFakeService({ now: Date.UTC(2026, 10, 1), ...options });
      const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch });
      const page = await bot.orderHistory({ page: 1, perPage: 50 });
      const created = fake.control.createOrder();
      return { profile: await bot.profile(), page, created: created.id };
    };
    const [a, a2, b, none, zero] = await Promise.all([orders({ seed: 1 }), orders({ seed: 1 }), orders({ seed: 2 }), orders({}), orders({ seed: 0 })]);
    assert.deepEqual(a, a2, "the same seed, the same data");
    assert.deepEqual(none, zero, "seed 0 is the default");
    for (const [x, y, label] of [[a, b, "seeds 1 and 2"], [a, none, "seed 1 and the default"]]) {
      const ids = (r) => r.page.data.map((o) => o.id);
      assert.equal(ids(x).filter((id) => ids(y).includes(id)).length, 0, `${label}: no order id in common`);
      assert.notDeepEqual(x.page.data.map((o) => o.exchangeRate), y.page.data.map((o) => o.exchangeRate), label);
      assert.notEqual(x.profile.email, y.profile.email, label);
      assert.notEqual(x.created, y.created, label);
      // What a seed keeps: the totals, the counts, the agent.
      assert.equal(x.page.total, y.page.total, label);
      assert.equal(x.profile.id, y.profile.id);
      assert.equal(x.profile.depositsCompleted, y.profile.depositsCompleted);
    }
    assert.equal(none.profile.email, "amara.okafor@example.com");
    for (const seed of [-1, 1.5, 2 ** 53, Number.NaN]) {
      assert.throws(() => createFakeService({ seed }), RangeError, String(seed));
    }
  });
});

describe("faults, clock, request log, webhooks", () => {
  test("failNext: a status with Retry-After is retried and honoured; the log never holds a key", async () => {
    const fake = createFakeService();
    fake.control.failNext({ status: 503, retryAfter: 0 }, 1);
    const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch });
    const p = await bot.profile();
    assert.equal(typeof p.id, "string");
    const log = fake.requests();
    assert.deepEqual(log.map((r) => r.status), [503, 200]);
    assert.deepEqual(log.map((r) => r.keyClass), ["agent", "agent"]);
    assert.equal(log[0].operationName, "Profile");
    assert.ok(!JSON.stringify(log).includes(fake.keys.agent.slice(-8)));
  });

  test("dropAfter: the action took effect, the client says outcome_unknown, reconcile sees it", async () => {
    const fake = createFakeService();
    const order = fake.control.createOrder({ type: "withdrawal" });
    const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch });
    fake.control.failNext({ dropAfter: true });
    const e = await bot.acceptWithdrawal(order.id).then(() => null, (err) => err);
    assert.equal(e?.code, "outcome_unknown");
    assert.equal((await bot.reconcile(order)).status, "picked_up");
    assert.equal(fake.requests()[0].status, 0);
  });

  test("hang: only the caller's signal ends it (logged 499)", async () => {
    const fake = createFakeService();
    fake.control.failNext({ hang: true });
    const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch, maxRetries: 0, timeoutMs: 50 });
    const e = await bot.profile().then(() => null, (err) => err);
    assert.equal(e?.code, "timeout");
    assert.equal(fake.requests()[0].status, 499);
  });

  test("advance(ms) moves the clock: a quote expires", async () => {
    // extras: `expiresAt` of a quote is the sandbox's own field (no source shows it).
    const fake = createFakeService({ now: Date.parse("2026-11-01T10:00:00Z"), extras: true });
    const m = new MerchantClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.merchantSecret, fetch: fake.fetch });
    const c = await m.createCustomer({ email: "x@example.com", firstName: "X", lastName: "Y", country: "2" });
    const quote = await m.rampQuote({ customer: c.id, amount: "1294.00", currency: "local_currency", paymentType: "deposit", paymentMethodType: "mpesa", country: "KE", fields: ["id", "expiresAt"] });
    assert.equal(Date.parse(quote.expiresAt), Date.parse("2026-11-01T10:03:00Z"));
    fake.control.advance(181_000);
    const e = await m.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" }).then(() => null, (err) => err);
    assert.equal(e?.code, "graphql");
    assert.match(e.graphqlErrors[0].message, /expired/i);
  });

  test("webhooks: the deliveries as Requests a createWebhookHandler accepts", async () => {
    const fake = createFakeService();
    const m = new MerchantClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.merchantSecret, fetch: fake.fetch });
    assert.deepEqual(fake.webhooks(), []);
    const p = await m.initiateHostedPayment({
      amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
      reference: "hook-1", firstName: "Ada", lastName: "Obi",
    });
    fake.control.payDeposit(p.id);
    const deliveries = fake.webhooks();
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].headers.get("x-cashramp-token"), fake.webhookToken);
    const seen = [];
    const handler = createWebhookHandler({ token: fake.webhookToken, onEvent: (event) => { seen.push(event); } });
    const res = await handler(deliveries[0]);
    assert.equal(res.status, 200);
    assert.equal(seen[0].type, "payment_request.updated");
    assert.equal(seen[0].data.id, p.id);
    assert.deepEqual(fake.webhooks(), []);
  });
});
