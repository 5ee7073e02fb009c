// The six bot mutations, `outcome_unknown` and `reconcile` against the sandbox,
// through the package imported by name. Agent 2 owns the orders these tests move (agent 1's
// data is the other suites' oracle); its state is reset before and after.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { BotClient, SettlementError } from "settlement-wasm";
import { SANDBOX_URL, uniqueTag, serializeError, expectCode, settledLog, fakeFetch } from "./helpers.mjs";

const AGENT2_KEY = process.env.AGENT2_KEY;
assert.ok(AGENT2_KEY, "AGENT2_KEY missing: run through scripts/with-sandbox.sh");

const bot = (extra = {}) => new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT2_KEY, ...extra });
const faulty = (fault, tag, extra = {}) =>
  bot({ headers: fault ? { "x-sandbox-fault": fault, "x-sandbox-tag": tag } : { "x-sandbox-tag": tag }, ...extra });

const reset = async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=2`, { method: "DELETE" });
  assert.equal(res.status, 204);
};
const orders = async () => (await fetch(`${SANDBOX_URL}/__sandbox/orders?agent=2`)).json();
const state = async () => (await fetch(`${SANDBOX_URL}/__sandbox/state?agent=2`)).json();
const pick = async (status, paymentType, skip = 0) => {
  const found = (await orders()).filter((o) => o.status === status && o.paymentType === paymentType);
  assert.ok(found.length > skip, `agent 2 has a ${status} ${paymentType}`);
  return found[skip];
};

before(reset);
after(reset);

// Harmless arguments: an unknown order, the seeded rate, the seeded liquidity.
const SIX = [
  ["acceptWithdrawal", (c) => c.acceptWithdrawal("p2p_999999")],
  ["cancelWithdrawal", (c) => c.cancelWithdrawal("p2p_999999")],
  ["markDepositAsReceived", (c) => c.markDepositAsReceived("p2p_999999")],
  ["markWithdrawalAsPaid", (c) => c.markWithdrawalAsPaid({ p2pPayment: "p2p_999999", paymentMethod: "pm_200002" })],
  ["updateRates", (c) => c.updateRates({ depositRate: "15.55" })],
  ["updatePaymentMethodLiquidity", (c) => c.updatePaymentMethodLiquidity({ paymentMethodType: "mtn_momo", amountLocal: "4200.00" })],
];

describe("never retried: exactly one request in the sandbox log", () => {
  for (const [name, call] of SIX) {
    for (const [fault, extra, code] of [
      ["status=503", {}, "http"],
      ["status=429;retry-after=0", {}, "rate_limited"],
      ["delay=1500", { timeoutMs: 250 }, "outcome_unknown"],
    ]) {
      test(`${name} on ${fault}: ${code}, one request`, async () => {
        const tag = uniqueTag(`${name}-${fault}`);
        const e = await expectCode(assert, SettlementError, () => call(faulty(fault, tag, { maxRetries: 3, ...extra })), code);
        const log = await settledLog(tag, 1, { timeoutMs: 4_000, settleMs: fault.startsWith("delay") ? 1_600 : 300 });
        assert.equal(log.length, 1, `${name} sent once: ${JSON.stringify(log)}`);
        assert.equal(log[0].operationName, name[0].toUpperCase() + name.slice(1));
        assert.ok(!serializeError(e).includes(AGENT2_KEY));
      });
    }
  }
});

describe("actions against the sandbox's lifecycle", () => {
  test("accept → mark paid: true, and the order moves", async () => {
    const order = await pick("pending", "withdrawal");
    const c = bot();
    assert.equal(await c.acceptWithdrawal(order.id), true);
    assert.equal((await c.reconcile(order)).status, "picked_up");
    const paid = await c.markWithdrawalAsPaid({
      p2pPayment: order.id, paymentMethod: "pm_200002", receipt: "TXN-884213", // "a receipt URL or reference"
    });
    assert.equal(paid, true);
    assert.equal((await c.reconcile(order)).status, "paid");
    const tag = uniqueTag("vars");
    await expectCode(assert, SettlementError, () => faulty(null, tag).markWithdrawalAsPaid({ p2pPayment: order.id, paymentMethod: "pm_200002" }), "graphql");
    const [entry] = await settledLog(tag, 1, { settleMs: 0 });
    assert.deepEqual(entry.variables, { p2pPayment: order.id, paymentMethod: "pm_200002" });
  });

  test("cancel and mark deposit received", async () => {
    const c = bot();
    const w = await pick("pending", "withdrawal");
    assert.equal(await c.cancelWithdrawal(w.id), true);
    assert.equal((await c.reconcile(w)).status, "canceled");
    const d = await pick("pending", "deposit");
    assert.equal(await c.markDepositAsReceived(d.id), true);
    assert.equal((await c.reconcile(d)).status, "completed");

    // Marking it received twice: an illegal transition, surfaced with its code.
    const e = await expectCode(assert, SettlementError, () => c.markDepositAsReceived(d.id), "graphql");
    assert.equal(e.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
    assert.equal(e.graphqlErrors[0].extensions.status, "completed");
    assert.deepEqual(e.graphqlErrors[0].path, ["markDepositAsReceived"]);
  });

  test("accepting a completed order: graphql, INVALID_TRANSITION; another agent's order: NOT_FOUND", async () => {
    const c = bot();
    const done = await pick("completed", "withdrawal");
    const e = await expectCode(assert, SettlementError, () => c.acceptWithdrawal(done.id), "graphql");
    assert.equal(e.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
    assert.equal(e.graphqlErrors[0].extensions.paymentType, "withdrawal");
    const n = await expectCode(assert, SettlementError, () => c.acceptWithdrawal("p2p_001473"), "graphql");
    assert.equal(n.graphqlErrors[0].extensions.code, "NOT_FOUND");
    assert.ok(!serializeError(e).includes(AGENT2_KEY) && !serializeError(n).includes(AGENT2_KEY));
  });

  test("updateRates and updatePaymentMethodLiquidity persist", async () => {
    const c = bot();
    assert.equal(await c.updateRates({ depositRate: "15.60", withdrawalMargin: "2" }), true);
    const s = await state();
    assert.deepEqual(s.rates, { depositRate: "15.60", depositMargin: "2.00", withdrawalRate: "15.20", withdrawalMargin: "2" });
    const m = await c.updatePaymentMethodLiquidity({ paymentMethodType: "mtn_momo", amountLocal: "5000.50" });
    assert.equal(m.id, "pm_200001");
    assert.equal(m.localCurrencyAvailable, "5000.50");
    assert.equal(typeof m.instant, "boolean");
    const byId = await c.updatePaymentMethodLiquidity({ paymentMethod: "pm_200002", amountLocal: "1.00", fields: ["localCurrencyAvailable"] });
    assert.deepEqual(byId, { localCurrencyAvailable: "1.00" });
    const after = (await state()).paymentMethods.find((p) => p.id === "pm_200002");
    assert.equal(after.localCurrencyAvailable, "1.00");
  });
});

describe("outcome_unknown and reconcile", () => {
  test("drop-after: applied, answer lost → outcome_unknown; reconcile returns the applied status", async () => {
    const order = await pick("pending", "withdrawal");
    const tag = uniqueTag("drop-after");
    const e = await expectCode(assert, SettlementError, () => faulty("drop-after", tag).acceptWithdrawal(order.id), "outcome_unknown");
    assert.ok(!serializeError(e).includes(AGENT2_KEY));
    const log = await settledLog(tag, 1);
    assert.equal(log.length, 1, "sent once");
    assert.equal(log[0].status, 0, "the connection was dropped");
    const now = await bot().reconcile(order);
    assert.equal(now.id, order.id);
    assert.equal(now.status, "picked_up");

    const tag2 = uniqueTag("drop-after-paid");
    await expectCode(assert, SettlementError,
      () => faulty("drop-after", tag2).markWithdrawalAsPaid({ p2pPayment: order.id, paymentMethod: "pm_200001" }), "outcome_unknown");
    assert.equal((await bot().reconcile(order)).status, "paid");
    assert.equal((await settledLog(tag2, 1)).length, 1);
  });

  test("drop-after on updateRates: outcome_unknown, and the state shows it applied", async () => {
    await expectCode(assert, SettlementError,
      () => faulty("drop-after", uniqueTag("rates")).updateRates({ depositMargin: "2.25" }), "outcome_unknown");
    assert.equal((await state()).rates.depositMargin, "2.25");
  });

  test("abort before sending stays aborted (nothing sent); after sending it is outcome_unknown", async () => {
    const tag = uniqueTag("abort-before");
    const ctl = new AbortController();
    ctl.abort();
    await expectCode(assert, SettlementError, () => faulty(null, tag).acceptWithdrawal("p2p_999999", { signal: ctl.signal }), "aborted");
    await expectCode(assert, SettlementError,
      () => faulty(null, tag).updateRates({ depositRate: "15.55", signal: ctl.signal }), "aborted");
    assert.equal((await settledLog(tag, 0, { settleMs: 300 })).length, 0);

    const tag2 = uniqueTag("abort-after");
    const late = new AbortController();
    setTimeout(() => late.abort(), 200);
    await expectCode(assert, SettlementError,
      () => faulty("delay=1000", tag2).cancelWithdrawal("p2p_999999", { signal: late.signal }), "outcome_unknown");
    assert.equal((await settledLog(tag2, 1, { settleMs: 1_000 })).length, 1);
  });

  test("reconcile: null for an id the orderId does not hold; the order needs id and orderId", async () => {
    const order = await pick("pending", "deposit");
    assert.equal(await bot().reconcile({ id: "p2p_999999", orderId: order.orderId }), null);
    const same = await bot().reconcile({ id: order.id, orderId: order.orderId }, { fields: ["status"] });
    assert.deepEqual(same, { status: order.status, id: order.id });
    const calls = fakeFetch(() => new Response("{}"));
    for (const [bad, field] of [[{ orderId: order.orderId }, "order.id"], [{ id: order.id }, "order.orderId"],
      [{ id: order.id, orderId: "" }, "order.orderId"], [null, "order.id"], ["p2p_1", "order.id"]]) {
      const e = await expectCode(assert, SettlementError, () => bot({ fetch: calls }).reconcile(bad), "invalid_input");
      assert.equal(e.field, field);
    }
    assert.equal(calls.calls.length, 0);
  });

  test("reconcile: hostile orders, options and receivers are SettlementErrors, with no request", async () => {
    const calls = fakeFetch(() => new Response("{}"));
    const c = bot({ fetch: calls });
    const order = { id: "p2p_1", orderId: "ORD-1" };
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwing = { get id() { throw new Error("getter"); }, orderId: "ORD-1" };
    for (const [call, field] of [
      [() => c.reconcile(revoked.proxy), "order"],
      [() => c.reconcile(throwing), "order"],
      [() => c.reconcile(order, 42), "options"],
      [() => c.reconcile(order, { get fields() { throw new Error("getter"); } }), "options"],
      [() => c.reconcile(order, { fields: "id" }), "fields"],
      [() => c.reconcile(order, { signal: {} }), "signal"],
      [() => BotClient.prototype.reconcile.call({}, order), "this"],
    ]) {
      const e = await expectCode(assert, SettlementError, call, "invalid_input");
      assert.equal(e.field, field);
    }
    assert.equal(calls.calls.length, 0);
  });
});

describe("refusals before any request", () => {
  const never = fakeFetch(() => { throw new Error("no request expected"); });
  const c = () => bot({ fetch: never });
  const cases = [
    [() => c().acceptWithdrawal(""), "p2pPayment"],
    [() => c().cancelWithdrawal("  "), "p2pPayment"],
    [() => c().markDepositAsReceived(42), "p2pPayment"],
    [() => c().acceptWithdrawal("p2p_1", { signal: "no" }), "signal"],
    [() => c().markWithdrawalAsPaid(), "options"],
    [() => c().markWithdrawalAsPaid({ p2pPayment: "p2p_1" }), "paymentMethod"],
    [() => c().markWithdrawalAsPaid({ p2pPayment: "p2p_1", paymentMethod: "pm_1", receipt: "" }), "receipt"],
    [() => c().markWithdrawalAsPaid({ p2pPayment: "p2p_1", paymentMethod: "pm_1", receipt: "   " }), "receipt"],
    [() => c().markWithdrawalAsPaid({ p2pPayment: "p2p_1", paymentMethod: "pm_1", receipt: 42 }), "receipt"],
    [() => c().markWithdrawalAsPaid({ p2pPayment: "p2p_1", paymentMethod: "pm_1", reciept: "https://r.example" }), "reciept"],
    [() => c().updateRates({}), "rates"],
    [() => c().updateRates({ depositRate: 1540 }), "depositRate"],
    [() => c().updateRates({ depositMargin: "1e2" }), "depositMargin"],
    [() => c().updateRates({ withdrawalRate: "-1.00" }), "withdrawalRate"],
    [() => c().updateRates({ withdrawalMargin: "1,5" }), "withdrawalMargin"],
    [() => c().updateRates({ depositRates: "1.00" }), "depositRates"],
    [() => c().updateRates({ depositRate: "1.00", fields: ["id"] }), "fields"],
    [() => c().updatePaymentMethodLiquidity({ amountLocal: "1.00" }), "paymentMethod"],
    [() => c().updatePaymentMethodLiquidity({ paymentMethod: "pm_1", paymentMethodType: "mpesa", amountLocal: "1.00" }), "paymentMethod"],
    [() => c().updatePaymentMethodLiquidity({ paymentMethodType: "mpesa" }), "amountLocal"],
    [() => c().updatePaymentMethodLiquidity({ paymentMethodType: "mpesa", amountLocal: 1.5 }), "amountLocal"],
    [() => c().updatePaymentMethodLiquidity({ paymentMethodType: "mpesa", amountLocal: "1.5", fields: ["a b"] }), "fields"],
  ];
  for (const [call, field] of cases) {
    test(`${call.toString().slice(12, 110)} → invalid_input ${field}`, async () => {
      const e = await expectCode(assert, SettlementError, call, "invalid_input");
      assert.equal(e.field, field, e.message);
      assert.ok(!serializeError(e).includes(AGENT2_KEY));
    });
  }
  test("nothing was sent", () => assert.equal(never.calls.length, 0));
});
