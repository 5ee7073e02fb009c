// The onchain ramp finished in the page: `confirmTransaction` (public key) and
// `confirmUntilSettled` against the sandbox, through the package imported by name. Every test
// opens its own payment request (a unique reference), as the hosted ramp page does, and pays
// it with the sandbox's simulated transfer: no shared state, no reset.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { MerchantClient, SettlementError } from "settlement-wasm";
import {
  SANDBOX_URL, MERCHANT_PUBLIC_KEY, uniqueTag, expectCode, settledLog, serializeError,
} from "./helpers.mjs";

const merchant = (tag, fault) => new MerchantClient({
  baseUrl: SANDBOX_URL,
  apiKey: MERCHANT_PUBLIC_KEY,
  headers: fault ? { "x-sandbox-tag": tag, "x-sandbox-fault": fault } : { "x-sandbox-tag": tag },
});

/** A new payment request, opened as the hosted ramp page opens it: `{ id, reference, status }`. */
async function openRequest(name) {
  const res = await fetch(`${SANDBOX_URL}/hosted/ramp/payment-request`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentType: "deposit", coin: "USDC", network: "CELO", amount: "25.00", reference: uniqueTag(name) }),
  });
  assert.equal(res.status, 200);
  return res.json();
}

/** The sandbox's simulated onchain transfer paying request `id`: its transaction hash. */
async function transfer(id) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/transfer`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentRequest: id }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).transactionHash;
}

const statusOf = async (reference) => (await merchant(uniqueTag("read")).paymentRequest(reference)).status;
const EVM_HASH = `0x${"ab".repeat(32)}`;

describe("confirmTransaction", () => {
  test("the transfer is confirmed: not yet, then settled; the request moves created → picked_up → completed", async () => {
    const request = await openRequest("confirm");
    assert.equal(request.status, "created");
    const hash = await transfer(request.id);
    assert.match(hash, /^0x[0-9a-f]{64}$/);
    const tag = uniqueTag("confirm");
    const m = merchant(tag);
    assert.equal(await m.confirmTransaction({ paymentRequest: request.id, transactionHash: hash }), false);
    assert.equal(await statusOf(request.reference), "picked_up");
    assert.equal(await m.confirmTransaction({ paymentRequest: request.id, transactionHash: hash }), true);
    assert.equal(await statusOf(request.reference), "completed");
    const log = await settledLog(tag, 2, { settleMs: 0 });
    assert.deepEqual(log.map((e) => e.operationName), ["ConfirmTransaction", "ConfirmTransaction"]);
  });

  test("refused before anything is sent: a hash of no accepted shape, a blank id, an unknown option", async () => {
    const tag = uniqueTag("confirm-refused");
    const m = merchant(tag);
    for (const [options, field] of [
      [{ paymentRequest: "mpr_1001", transactionHash: "0x1234" }, "transactionHash"],
      // An address, not a transaction.
      [{ paymentRequest: "mpr_1001", transactionHash: "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D" }, "transactionHash"],
      [{ paymentRequest: "mpr_1001", transactionHash: ` ${EVM_HASH}` }, "transactionHash"],
      [{ paymentRequest: "mpr_1001", transactionHash: 42 }, "transactionHash"],
      [{ paymentRequest: "mpr_1001" }, "transactionHash"],
      [{ paymentRequest: "  ", transactionHash: EVM_HASH }, "paymentRequest"],
      [{ paymentRequest: "mpr_1001", transactionHash: EVM_HASH, txHash: EVM_HASH }, "txHash"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => m.confirmTransaction(options), "invalid_input");
      assert.equal(e.field, field, JSON.stringify(options));
    }
    await expectCode(assert, SettlementError, () => m.confirmTransaction(), "invalid_input");
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
  });

  test("an illegal transition is the service's typed error (a canceled request)", async () => {
    const e = await expectCode(assert, SettlementError,
      () => merchant(uniqueTag("canceled")).confirmTransaction({ paymentRequest: "mpr_1004", transactionHash: EVM_HASH }), "graphql");
    assert.equal(e.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
  });

  test("a lost answer is outcome_unknown, sent once; reading the request back by reference shows it applied", async () => {
    const request = await openRequest("confirm-lost");
    const hash = await transfer(request.id);
    const tag = uniqueTag("confirm-lost");
    const e = await expectCode(assert, SettlementError,
      () => merchant(tag, "drop-after").confirmTransaction({ paymentRequest: request.id, transactionHash: hash }), "outcome_unknown");
    assert.ok(!serializeError(e).includes(MERCHANT_PUBLIC_KEY));
    const log = await settledLog(tag, 1);
    assert.equal(log.length, 1, "sent once, never retried");
    assert.equal(await statusOf(request.reference), "picked_up", "the confirmation took effect");
  });
});

describe("confirmUntilSettled", () => {
  test("confirms until the service reports the request settled", async () => {
    const request = await openRequest("until");
    const hash = await transfer(request.id);
    const tag = uniqueTag("until");
    const outcome = await merchant(tag).confirmUntilSettled({ paymentRequest: request.id, transactionHash: hash, intervalMs: 50 });
    assert.deepEqual(outcome, { settled: true, tries: 2 });
    assert.equal(await statusOf(request.reference), "completed");
    assert.equal((await settledLog(tag, 2)).length, 2);
  });

  test("stops at its cap, unsettled, when the transfer never shows up", async () => {
    const request = await openRequest("cap");
    const tag = uniqueTag("cap");
    const outcome = await merchant(tag).confirmUntilSettled({
      paymentRequest: request.id, transactionHash: EVM_HASH, intervalMs: 10, maxTries: 3,
    });
    assert.deepEqual(outcome, { settled: false, tries: 3 });
    assert.equal((await settledLog(tag, 3)).length, 3, "exactly maxTries confirmations");
    assert.equal(await statusOf(request.reference), "created");
  });

  test("a lost answer is transient: it backs off and confirms again; out of tries, it rejects with outcome_unknown", async () => {
    const request = await openRequest("until-lost");
    const hash = await transfer(request.id);
    const tag = uniqueTag("until-lost");
    const started = Date.now();
    await expectCode(assert, SettlementError,
      () => merchant(tag, "drop-after").confirmUntilSettled({ paymentRequest: request.id, transactionHash: hash, intervalMs: 10, maxTries: 2 }),
      "outcome_unknown");
    assert.equal((await settledLog(tag, 2)).length, 2, "each try sent once, maxTries in all");
    assert.ok(Date.now() - started >= 1000, "the backoff waited at least 1 s");
  });

  test("a 503 backs off and the loop goes on to settle", async () => {
    const request = await openRequest("until-503");
    const hash = await transfer(request.id);
    const tag = uniqueTag("until-503");
    const outcome = await merchant(tag, "status=503;retry-after=1;fail-first=1")
      .confirmUntilSettled({ paymentRequest: request.id, transactionHash: hash, intervalMs: 10 });
    // The 503, then "not yet" (the service sees the transfer on the next one), then settled.
    assert.deepEqual(outcome, { settled: true, tries: 3 });
    assert.equal((await settledLog(tag, 3)).length, 3);
  });

  test("the signal stops it between confirmations (aborted)", async () => {
    const request = await openRequest("until-abort");
    const tag = uniqueTag("until-abort");
    const controller = new AbortController();
    const m = merchant(tag);
    const running = m.confirmUntilSettled({
      paymentRequest: request.id, transactionHash: EVM_HASH, intervalMs: 60_000, signal: controller.signal,
    });
    // Once the first confirmation is answered, the loop waits a minute: abort it then.
    await settledLog(tag, 1, { timeoutMs: 30_000, settleMs: 0 });
    controller.abort();
    await expectCode(assert, SettlementError, () => running, "aborted");
    assert.equal((await settledLog(tag, 1)).length, 1, "nothing sent after the abort");
  });

  test("every option is checked before anything is sent", async () => {
    const tag = uniqueTag("until-refused");
    const m = merchant(tag);
    const base = { paymentRequest: "mpr_1001", transactionHash: EVM_HASH };
    for (const [options, field] of [
      [{ ...base, intervalMs: -1 }, "intervalMs"],
      [{ ...base, intervalMs: 1.5 }, "intervalMs"],
      [{ ...base, maxTries: 0 }, "maxTries"],
      [{ ...base, maxTries: 101 }, "maxTries"],
      [{ ...base, maxTries: "3" }, "maxTries"],
      [{ ...base, transactionHash: "nope" }, "transactionHash"],
      [{ ...base, paymentRequest: "" }, "paymentRequest"],
      [{ transactionHash: EVM_HASH }, "paymentRequest"],
      [{ ...base, interval: 5 }, "interval"],
      [{ ...base, signal: {} }, "signal"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => m.confirmUntilSettled(options), "invalid_input");
      assert.equal(e.field, field, JSON.stringify(options));
    }
    await expectCode(assert, SettlementError, () => m.confirmUntilSettled(), "invalid_input");
    await expectCode(assert, SettlementError, () => MerchantClient.prototype.confirmUntilSettled.call({}, base), "invalid_input");
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
  });
});
