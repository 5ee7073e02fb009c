// Hosted payments on a server: `initiateHostedPayment` and `cancelHostedPayment` with the
// merchant's secret key, through the package's Node (server) entry imported by name; the read
// back by `reference` after `outcome_unknown`; and their absence from the browser bundle. Every
// test uses its own references: no shared state, no reset.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MerchantClient, SettlementError } from "settlement-wasm";
import {
  SANDBOX_URL, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, uniqueTag, expectCode, settledLog, serializeError,
} from "./helpers.mjs";

const server = (tag, fault, key = MERCHANT_SECRET_KEY) => new MerchantClient({
  baseUrl: SANDBOX_URL,
  apiKey: key,
  headers: fault ? { "x-sandbox-tag": tag, "x-sandbox-fault": fault } : { "x-sandbox-tag": tag },
});

const payment = (reference, extra = {}) => ({
  amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
  reference, firstName: "Ada", lastName: "Obi", ...extra,
});

describe("initiateHostedPayment and cancelHostedPayment (secret key, server entry)", () => {
  test("created, read back by reference, canceled; the variables as sent", async () => {
    const tag = uniqueTag("hosted");
    const m = server(tag);
    const reference = uniqueTag("order");
    const p = await m.initiateHostedPayment(payment(reference, {
      redirectUrl: "https://shop.example/thanks", metadata: { cart: [1, 2], note: "gift" },
    }));
    assert.deepEqual(Object.keys(p).sort(), ["hostedLink", "id", "status"]);
    assert.equal(p.status, "created");
    assert.ok(p.hostedLink.includes("/hosted/ramp?"));
    const read = await m.paymentRequest(reference);
    assert.equal(read.id, p.id);
    assert.equal(read.currency, "NGN", "local_currency: the country's");
    assert.deepEqual(read.metadata ?? null, null, "not in the default selection");
    assert.equal(await m.cancelHostedPayment(p.id), true);
    assert.equal((await m.paymentRequest(reference)).status, "canceled");
    const log = await settledLog(tag, 4, { settleMs: 0 });
    const sent = log.find((e) => e.operationName === "InitiateHostedPayment");
    assert.deepEqual(sent.variables, {
      amount: "25000.00", currency: "local_currency", countryCode: "NG", email: "ada@example.com", paymentType: "deposit",
      reference, firstName: "Ada", lastName: "Obi", redirectUrl: "https://shop.example/thanks",
      metadata: { cart: [1, 2], note: "gift" },
    });
  });

  test("fields select the payment request's other fields", async () => {
    const p = await server(uniqueTag("fields")).initiateHostedPayment({ ...payment(uniqueTag("order")), fields: ["id", "amount", "reference"] });
    assert.deepEqual(Object.keys(p).sort(), ["amount", "id", "reference"]);
    assert.equal(p.amount, "25000.00");
  });

  test("the service's refusals are typed errors: a used reference, an illegal transition, a public key", async () => {
    const m = server(uniqueTag("refusals"));
    const reference = uniqueTag("order");
    const p = await m.initiateHostedPayment(payment(reference));
    const dup = await expectCode(assert, SettlementError, () => m.initiateHostedPayment(payment(reference)), "graphql");
    assert.equal(dup.graphqlErrors[0].extensions.code, "DUPLICATE_REFERENCE");
    await m.cancelHostedPayment(p.id);
    const again = await expectCode(assert, SettlementError, () => m.cancelHostedPayment(p.id), "graphql");
    assert.equal(again.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
    const pub = server(uniqueTag("public"), undefined, MERCHANT_PUBLIC_KEY);
    await expectCode(assert, SettlementError, () => pub.initiateHostedPayment(payment(uniqueTag("order"))), "forbidden");
  });

  test("refused before anything is sent, naming the option", async () => {
    const tag = uniqueTag("hosted-refused");
    const m = server(tag);
    const ok = payment("order-x");
    for (const [options, field] of [
      [{ ...ok, amount: 25000 }, "amount"],
      [{ ...ok, amount: "2.5e4" }, "amount"],
      [{ ...ok, currency: "naira" }, "currency"],
      [{ ...ok, currency: "NGN" }, "currency"],
      [{ ...ok, currency: "USD" }, "currency"],
      [{ ...ok, countryCode: "NGA" }, "countryCode"],
      [{ ...ok, email: "ada" }, "email"],
      [{ ...ok, paymentType: "refund" }, "paymentType"],
      [{ ...ok, reference: "   " }, "reference"],
      [{ ...ok, firstName: "" }, "firstName"],
      [{ ...ok, lastName: undefined }, "lastName"],
      [{ ...ok, redirectUrl: "javascript:alert(1)" }, "redirectUrl"],
      [{ ...ok, metadata: [1, 2] }, "metadata"],
      [{ ...ok, metadata: "{}" }, "metadata"],
      [{ ...ok, metadata: { n: 10n } }, "metadata"],
      [{ ...ok, fields: ["id", "bad name"] }, "fields"],
      [{ ...ok, amout: "1.00" }, "amout"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => m.initiateHostedPayment(options), "invalid_input");
      assert.equal(e.field, field, JSON.stringify(options, (k, v) => typeof v === "bigint" ? `${v}n` : v));
    }
    await expectCode(assert, SettlementError, () => m.initiateHostedPayment(), "invalid_input");
    const blank = await expectCode(assert, SettlementError, () => m.cancelHostedPayment(" "), "invalid_input");
    assert.equal(blank.field, "paymentRequest");
    await expectCode(assert, SettlementError, () => MerchantClient.prototype.initiateHostedPayment.call({}, ok), "invalid_input");
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
  });

  test("a lost answer is outcome_unknown, sent once; the payment is read back by its reference, not created twice", async () => {
    const tag = uniqueTag("hosted-lost");
    const reference = uniqueTag("order");
    const e = await expectCode(assert, SettlementError,
      () => server(tag, "drop-after").initiateHostedPayment(payment(reference)), "outcome_unknown");
    assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY));
    assert.equal((await settledLog(tag, 1)).length, 1, "sent once, never retried");
    const read = await server(uniqueTag("read")).paymentRequest(reference);
    assert.equal(read.status, "created", "it was created: read back, not created again");

    const tag2 = uniqueTag("cancel-lost");
    await expectCode(assert, SettlementError, () => server(tag2, "drop-after").cancelHostedPayment(read.id), "outcome_unknown");
    assert.equal((await settledLog(tag2, 1)).length, 1);
    assert.equal((await server(uniqueTag("read")).paymentRequest(reference)).status, "canceled");
  });

  test("a 503 is not retried (a mutation): one request", async () => {
    const tag = uniqueTag("hosted-503");
    await expectCode(assert, SettlementError, () => server(tag, "status=503").initiateHostedPayment(payment(uniqueTag("order"))), "http");
    assert.equal((await settledLog(tag, 1)).length, 1);
  });
});

describe("the browser bundle has no secret-key operation", () => {
  const pkgDir = new URL("./node_modules/settlement-wasm/", import.meta.url);
  test("neither the methods nor the declarations are in index.js or the browser .wasm", async () => {
    const browser = await import(new URL("index.js", pkgDir).href);
    for (const name of ["initiateHostedPayment", "cancelHostedPayment", "withdrawOnchain"]) {
      assert.equal(typeof browser.MerchantClient.prototype[name], "undefined", `browser MerchantClient.${name}`);
      assert.equal(typeof MerchantClient.prototype[name], "function", `server MerchantClient.${name}`);
      for (const file of ["index.js", "web/settlement_wasm_bg.wasm"]) {
        assert.ok(!readFileSync(new URL(file, pkgDir)).includes(name), `${name} in ${file}`);
      }
      assert.ok(readFileSync(new URL("edge/settlement_wasm_bg.wasm", pkgDir)).includes(name), `${name} in the server .wasm (the edge entry's file; the Node entry embeds the same)`);
    }
    // The public-key confirmation is in both.
    assert.equal(typeof browser.MerchantClient.prototype.confirmTransaction, "function");
  });
});

describe("withdrawOnchain (secret key, server entry)", () => {
  const to = "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D";
  test("a pending withdrawal; the service's refusals are typed", async () => {
    const tag = uniqueTag("withdraw");
    const m = server(tag);
    const w = await m.withdrawOnchain({ address: ` ${to} `, amountUsd: "150.00", network: "CELO", metadata: { payout: 7 } });
    assert.deepEqual(Object.keys(w).sort(), ["id", "status"]);
    assert.equal(w.status, "pending");
    const log = await settledLog(tag, 1, { settleMs: 0 });
    assert.deepEqual(log[0].variables, { address: to, amountUsd: "150.00", network: "CELO", metadata: { payout: 7 } });
    const more = await expectCode(assert, SettlementError, () => m.withdrawOnchain({ address: to, amountUsd: "1520.01" }), "graphql");
    assert.equal(more.graphqlErrors[0].extensions.code, "INSUFFICIENT_FUNDS");
    // The service's minimum is 10 USD: its refusal, typed.
    const small = await expectCode(assert, SettlementError, () => m.withdrawOnchain({ address: to, amountUsd: "9.99" }), "graphql");
    assert.equal(small.graphqlErrors[0].extensions.code, "BAD_USER_INPUT");
    assert.equal((await m.withdrawOnchain({ address: to, amountUsd: "10" })).status, "pending");
    await expectCode(assert, SettlementError,
      () => server(uniqueTag("w-public"), undefined, MERCHANT_PUBLIC_KEY).withdrawOnchain({ address: to, amountUsd: "10.00" }), "forbidden");
  });

  test("refused before anything is sent; a lost answer is outcome_unknown, sent once", async () => {
    const tag = uniqueTag("withdraw-refused");
    const m = server(tag);
    for (const [options, field] of [
      [{ address: " ", amountUsd: "1.00" }, "address"],
      [{ address: to, amountUsd: 1 }, "amountUsd"],
      [{ address: to, amountUsd: "-1" }, "amountUsd"],
      [{ address: to, amountUsd: "1.00", network: "" }, "network"],
      [{ address: to, amountUsd: "1.00", metadata: [] }, "metadata"],
      [{ address: to, amount: "1.00" }, "amount"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => m.withdrawOnchain(options), "invalid_input");
      assert.equal(e.field, field, JSON.stringify(options));
    }
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
    const lost = uniqueTag("withdraw-lost");
    await expectCode(assert, SettlementError,
      () => server(lost, "drop-after").withdrawOnchain({ address: to, amountUsd: "10.00" }), "outcome_unknown");
    assert.equal((await settledLog(lost, 1)).length, 1);
  });
});
