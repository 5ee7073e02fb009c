// The direct ramp on a server: customers, payment methods, quotes (which expire), deposits and
// withdrawals and the mutations that move them, with the merchant's secret key through the
// package's Node (server) entry imported by name. Every call's refusals reach no server; every
// mutation's lost answer is outcome_unknown after one request; the quote reads are retried.
// Each test makes its own customer: no shared state, no reset.
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

/** The sandbox's agent confirms a paid deposit's fiat arrived (paid → completed). */
async function agentConfirms(id) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/ramp/complete`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paymentRequest: id }),
  });
  assert.equal(res.status, 200);
}

/** Makes a quote expired now. */
async function expire(id) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/ramp/expire-quote`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rampQuote: id }),
  });
  assert.equal(res.status, 200);
}

const mpesaFields = [{ identifier: "phone_number", value: "+254712345678" }, { identifier: "account_name", value: "Wanjiru Kamau" }];
const customerOptions = { email: "wanjiru@example.com", firstName: "Wanjiru", lastName: "Kamau", country: "2" };
const quoteOptions = (customer, paymentType) => ({
  customer, amount: "1294.00", currency: "local_currency", paymentType, paymentMethodType: "mpesa", country: "KE",
});
/** The onchain transfer info as the service's documentation writes it. */
const onchain = { address: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e", cryptocurrency: "usd_tether", network: "celo" };

/** A Kenyan customer with an M-Pesa wallet. */
async function customerWithWallet(m) {
  const customer = await m.createCustomer(customerOptions);
  const wallet = await m.addPaymentMethod({ customer: customer.id, paymentMethodType: "mpesa", fieldValues: mpesaFields, ownership: "first_party" });
  return { customer, wallet };
}

describe("the direct ramp (secret key, server entry)", () => {
  test("customer → wallet → quote → deposit (pending) → paid → completed; the variables as sent", async () => {
    const tag = uniqueTag("ramp");
    const m = server(tag);
    const customer = await m.createCustomer({ ...customerOptions, firstName: " Wanjiru ", country: " 2 " });
    assert.deepEqual(Object.keys(customer).sort(), ["country", "email", "firstName", "id", "lastName"]);
    assert.deepEqual(customer.country, { id: "2", name: "Kenya", code: "KE" }, "an object, as the service answers it");
    const wallet = await m.addPaymentMethod({
      customer: customer.id, paymentMethodType: " mpesa ", fieldValues: mpesaFields.map((f) => ({ ...f, identifier: ` ${f.identifier}` })),
      ownership: "third_party",
    });
    assert.deepEqual(wallet, { id: wallet.id, value: "+254712345678", fields: mpesaFields });
    const quote = await m.rampQuote({ ...quoteOptions(customer.id, "deposit"), country: "ke" });
    assert.deepEqual(Object.keys(quote).sort(), ["exchangeRate", "id", "paymentType"]);
    assert.equal(quote.exchangeRate, "129.40");
    const reference = uniqueTag("dep");
    const deposit = await m.initiateRampQuoteDeposit({
      rampQuote: quote.id, reference, phoneNumber: " +254 712 345678 ", onchainTransferInfo: onchain,
    });
    assert.deepEqual(Object.keys(deposit).sort(),
      ["agent", "amountLocal", "amountUsd", "exchangeRate", "expiresAt", "id", "paymentDetails", "status"]);
    assert.equal(deposit.status, "pending");
    assert.equal(deposit.amountUsd, "10.00");
    assert.equal(deposit.paymentDetails.paymentMethodType, "mpesa");
    // "a receipt URL or reference": a plain reference.
    assert.equal(await m.markDepositAsPaid({ paymentRequest: deposit.id, receipt: "MPESA-QK71H2X9" }), true);
    await agentConfirms(deposit.id);
    const log = await settledLog(tag, 5, { settleMs: 0 });
    const sent = (name) => log.find((e) => e.operationName === name).variables;
    assert.deepEqual(sent("CreateCustomer"), { email: "wanjiru@example.com", firstName: "Wanjiru", lastName: "Kamau", country: "2" });
    assert.deepEqual(sent("AddPaymentMethod"), { customer: customer.id, paymentMethodType: "mpesa", fields: mpesaFields, ownership: "third_party" });
    assert.deepEqual(sent("RampQuote"), {
      customer: customer.id, amount: "1294.00", currency: "local_currency", paymentType: "deposit", paymentMethodType: "mpesa", country: "KE",
    });
    assert.deepEqual(sent("InitiateRampQuoteDeposit"), {
      rampQuote: quote.id, reference, phoneNumber: "+254 712 345678", onchainTransferInfo: onchain,
    });
    assert.deepEqual(sent("MarkDepositAsPaid"), { paymentRequest: deposit.id, receipt: "MPESA-QK71H2X9" });
  });

  test("a withdrawal to the wallet is received; an unpaid deposit is canceled", async () => {
    const m = server(uniqueTag("ramp-w"));
    const { customer, wallet } = await customerWithWallet(m);
    // `expiresAt` is the sandbox's own field on a quote: asked for by name.
    const quote = await m.rampQuote({ ...quoteOptions(customer.id, "withdrawal"), currency: "usd", amount: "10", fields: ["id", "exchangeRate", "expiresAt"] });
    assert.equal(quote.exchangeRate, "127.85");
    assert.ok(Date.parse(quote.expiresAt) > Date.now(), quote.expiresAt);
    const w = await m.initiateRampQuoteWithdrawal({ rampQuote: quote.id, paymentMethod: wallet.id, fields: ["id", "status"] });
    assert.deepEqual(w, { id: w.id, status: "picked_up" }, "an agent has a withdrawal at once");
    assert.equal(await m.markWithdrawalAsReceived(w.id), true);
    const d = await m.initiateRampQuoteDeposit({ rampQuote: (await m.rampQuote(quoteOptions(customer.id, "deposit"))).id, phoneNumber: "+254712345678" });
    assert.equal(await m.cancelDeposit(d.id), true);
  });

  test("an expired quote is refused, typed; refreshRampQuote makes it usable again", async () => {
    const m = server(uniqueTag("ramp-expired"));
    const { customer } = await customerWithWallet(m);
    const quote = await m.rampQuote(quoteOptions(customer.id, "deposit"));
    await expire(quote.id);
    const e = await expectCode(assert, SettlementError,
      () => m.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" }), "graphql");
    assert.equal(e.graphqlErrors[0].extensions.code, "QUOTE_EXPIRED");
    const fresh = await m.refreshRampQuote({ rampQuote: quote.id, amount: "2588" });
    assert.deepEqual(Object.keys(fresh).sort(), ["exchangeRate", "id", "paymentType"], "no expiry: no source shows one");
    assert.equal(fresh.id, quote.id);
    const d = await m.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" });
    assert.equal(d.amountUsd, "20.00", "at the refreshed amount");
  });

  test("the service's refusals are typed errors: illegal transitions, a used quote, a public key", async () => {
    const m = server(uniqueTag("ramp-refusals"));
    const { customer, wallet } = await customerWithWallet(m);
    const quote = await m.rampQuote(quoteOptions(customer.id, "deposit"));
    const d = await m.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" });
    const code = async (fn) => (await expectCode(assert, SettlementError, fn, "graphql")).graphqlErrors[0].extensions.code;
    assert.equal(await code(() => m.markWithdrawalAsReceived(d.id)), "INVALID_TRANSITION", "not a withdrawal");
    assert.equal(await code(() => m.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" })), "INVALID_TRANSITION", "used");
    assert.equal(await code(() => m.initiateRampQuoteWithdrawal({ rampQuote: quote.id, paymentMethod: wallet.id })), "BAD_USER_INPUT", "a deposit quote");
    await m.cancelDeposit(d.id);
    assert.equal(await code(() => m.cancelDeposit(d.id)), "INVALID_TRANSITION");
    assert.equal(await code(() => m.cancelDeposit("rpr_9999")), "NOT_FOUND");
    assert.equal(await code(() => m.addPaymentMethod({ customer: customer.id, paymentMethodType: "mpesa", fieldValues: [mpesaFields[0]] })), "BAD_USER_INPUT");
    const pub = server(uniqueTag("ramp-public"), undefined, MERCHANT_PUBLIC_KEY);
    await expectCode(assert, SettlementError, () => pub.createCustomer(customerOptions), "forbidden");
    await expectCode(assert, SettlementError, () => pub.rampQuote(quoteOptions(customer.id, "deposit")), "forbidden");
  });

  test("refused before anything is sent, naming the option", async () => {
    const tag = uniqueTag("ramp-refused");
    const m = server(tag);
    const q = { customer: "cus_1", amount: "1.00", currency: "usd", paymentMethodType: "mpesa" };
    const pm = { customer: "cus_1", paymentMethodType: "mpesa", fieldValues: mpesaFields };
    const cases = [
      ["rampQuote", { ...q, customer: " " }, "customer"],
      ["rampQuote", { ...q, amount: 1 }, "amount"],
      ["rampQuote", { ...q, amount: "1e3" }, "amount"],
      ["rampQuote", { ...q, currency: "shilling" }, "currency"],
      ["rampQuote", { ...q, currency: "KES" }, "currency"],
      ["rampQuote", { ...q, currency: "USD" }, "currency"],
      ["rampQuote", { ...q, currency: undefined }, "currency"],
      ["rampQuote", { ...q, paymentType: "refund" }, "paymentType"],
      ["rampQuote", { ...q, paymentMethodType: "" }, "paymentMethodType"],
      ["rampQuote", { ...q, country: "KEN" }, "country"],
      ["rampQuote", { ...q, fields: ["id", "bad name"] }, "fields"],
      ["rampQuote", { ...q, countr: "KE" }, "countr"],
      ["refreshRampQuote", { rampQuote: "rq_1", amonut: "2.00" }, "amonut"],
      ["refreshRampQuote", { rampQuote: "" }, "rampQuote"],
      ["refreshRampQuote", { rampQuote: "rq_1", amount: "-1" }, "amount"],
      ["createCustomer", { ...customerOptions, email: "wanjiru" }, "email"],
      ["createCustomer", { ...customerOptions, firstName: " " }, "firstName"],
      ["createCustomer", { ...customerOptions, lastName: undefined }, "lastName"],
      ["createCustomer", { ...customerOptions, country: "" }, "country"],
      ["createCustomer", { ...customerOptions, countryCode: "KE" }, "countryCode"],
      ["addPaymentMethod", { ...pm, customer: "" }, "customer"],
      ["addPaymentMethod", { ...pm, fieldValues: [] }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: undefined }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: { phone_number: "1" } }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: ["phone_number"] }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: [{ identifier: "phone_number", value: 254712345678 }] }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: [{ identifier: "phone_number", value: "1", extra: true }] }, "fieldValues"],
      ["addPaymentMethod", { ...pm, fieldValues: [{ identifier: " ", value: "1" }] }, "fieldValues[0].identifier"],
      ["addPaymentMethod", { ...pm, fieldValues: [mpesaFields[0], { identifier: "account_name", value: "" }] }, "fieldValues[1].value"],
      ["addPaymentMethod", { ...pm, fieldValues: [mpesaFields[0], mpesaFields[0]] }, "fieldValues[1].identifier"],
      ["addPaymentMethod", { ...pm, fieldValues: Array(33).fill(mpesaFields[0]) }, "fieldValues"],
      ["addPaymentMethod", { ...pm, ownership: "shared" }, "ownership"],
      ["addPaymentMethod", { ...pm, ownership: "personal" }, "ownership"],
      ["addPaymentMethod", { ...pm, fields: "id" }, "fields"],
      ["initiateRampQuoteDeposit", { rampQuote: " " }, "rampQuote"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", reference: "  " }, "reference"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", phoneNumber: "call me" }, "phoneNumber"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", phoneNumber: "12345" }, "phoneNumber"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", bankAccountNumber: "" }, "bankAccountNumber"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", onchainTransferInfo: ["CELO"] }, "onchainTransferInfo"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", onchainTransferInfo: { network: "celo" } }, "onchainTransferInfo"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", onchainTransferInfo: { ...onchain, chain: "x" } }, "onchainTransferInfo"],
      ["initiateRampQuoteDeposit", { rampQuote: "rq_1", onchainTransferInfo: { ...onchain, network: " " } }, "onchainTransferInfo.network"],
      ["initiateRampQuoteWithdrawal", { rampQuote: "rq_1", paymentMethod: " " }, "paymentMethod"],
      ["initiateRampQuoteWithdrawal", { rampQuote: "rq_1", paymentMethod: "cpm_1", reference: "" }, "reference"],
      ["markDepositAsPaid", { paymentRequest: "" }, "paymentRequest"],
      ["markDepositAsPaid", { paymentRequest: "rpr_1", receipt: "  " }, "receipt"],
      ["markDepositAsPaid", { paymentRequest: "rpr_1", fields: ["id"] }, "fields"],
    ];
    for (const [method, options, field] of cases) {
      const e = await expectCode(assert, SettlementError, () => m[method](options), "invalid_input");
      assert.equal(e.field, field, `${method}(${JSON.stringify(options)})`);
    }
    for (const method of ["markWithdrawalAsReceived", "cancelDeposit"]) {
      const e = await expectCode(assert, SettlementError, () => m[method](" "), "invalid_input");
      assert.equal(e.field, "paymentRequest");
      await expectCode(assert, SettlementError, () => m[method](42), "invalid_input");
    }
    await expectCode(assert, SettlementError, () => m.rampQuote(), "invalid_input");
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
  });

  test("every mutation's lost answer is outcome_unknown after one request; the quote reads are retried", async () => {
    const m = server(uniqueTag("ramp-setup"));
    const { customer, wallet } = await customerWithWallet(m);
    const deposit = async () => m.initiateRampQuoteDeposit({
      rampQuote: (await m.rampQuote(quoteOptions(customer.id, "deposit"))).id, phoneNumber: "+254712345678",
    });
    const picked = await deposit();
    const withdrawal = await m.initiateRampQuoteWithdrawal({ rampQuote: (await m.rampQuote(quoteOptions(customer.id, "withdrawal"))).id, paymentMethod: wallet.id });
    const quote = async (type) => (await m.rampQuote(quoteOptions(customer.id, type))).id;
    const mutations = [
      ["createCustomer", (c) => c.createCustomer(customerOptions)],
      ["addPaymentMethod", (c) => c.addPaymentMethod({ customer: customer.id, paymentMethodType: "mpesa", fieldValues: mpesaFields })],
      ["initiateRampQuoteDeposit", async (c) => c.initiateRampQuoteDeposit({ rampQuote: await quote("deposit"), phoneNumber: "+254712345678" })],
      ["initiateRampQuoteWithdrawal", async (c) => c.initiateRampQuoteWithdrawal({ rampQuote: await quote("withdrawal"), paymentMethod: wallet.id })],
      ["markDepositAsPaid", (c) => c.markDepositAsPaid({ paymentRequest: picked.id })],
      ["markWithdrawalAsReceived", (c) => c.markWithdrawalAsReceived(withdrawal.id)],
      ["cancelDeposit", async (c) => c.cancelDeposit((await deposit()).id)],
    ];
    for (const [name, call] of mutations) {
      const tag = uniqueTag(`ramp-lost-${name}`);
      const e = await expectCode(assert, SettlementError, () => call(server(tag, "drop-after")), "outcome_unknown");
      assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY), name);
      assert.equal((await settledLog(tag, 1)).length, 1, `${name}: sent once, never retried`);
    }
    // The service applied them: the deposit is paid, so it cannot be marked twice.
    const again = await expectCode(assert, SettlementError, () => m.markDepositAsPaid({ paymentRequest: picked.id }), "graphql");
    assert.equal(again.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
    // A read whose first answer is a 503 is asked again, and answered.
    for (const [name, call] of [
      ["rampQuote", (c) => c.rampQuote(quoteOptions(customer.id, "deposit"))],
      ["refreshRampQuote", async (c) => c.refreshRampQuote({ rampQuote: await quote("deposit") })],
    ]) {
      const tag = uniqueTag(`ramp-retry-${name}`);
      const q = await call(server(tag, "status=503;fail-first=1"));
      assert.equal(typeof q.id, "string", name);
      assert.equal((await settledLog(tag, 2)).filter((e) => e.operationName === name[0].toUpperCase() + name.slice(1)).length, 2,
        `${name}: a read, retried`);
    }
  });
});

describe("the browser bundle has none of the direct ramp", () => {
  const pkgDir = new URL("./node_modules/settlement-wasm/", import.meta.url);
  test("neither the methods nor the declarations are in index.js or the browser .wasm", async () => {
    const browser = await import(new URL("index.js", pkgDir).href);
    for (const name of ["rampQuote", "refreshRampQuote", "createCustomer", "addPaymentMethod", "initiateRampQuoteDeposit",
      "initiateRampQuoteWithdrawal", "markDepositAsPaid", "markWithdrawalAsReceived", "cancelDeposit"]) {
      assert.equal(typeof browser.MerchantClient.prototype[name], "undefined", `browser MerchantClient.${name}`);
      assert.equal(typeof MerchantClient.prototype[name], "function", `server MerchantClient.${name}`);
      for (const file of ["index.js", "web/settlement_wasm_bg.wasm"]) {
        assert.ok(!readFileSync(new URL(file, pkgDir)).includes(name), `${name} in ${file}`);
      }
      assert.ok(readFileSync(new URL("edge/settlement_wasm_bg.wasm", pkgDir)).includes(name), `${name} in the server .wasm`);
    }
  });
});
