// Every operation of both clients of settlement-wasm, in one list, and the comparison of two
// runs of it: shared by tests/js/testing.test.mjs (the fake in Node) and
// tests/consumers/testing.test.mjs (the fake in a Chromium page, this file bundled into it),
// each comparing the fake's results with the HTTP sandbox's. It imports nothing, so it runs
// in Node and in a browser bundle alike. Not a test file itself.

/** Replaces what depends on the moment a call was made (a creation date, an expiry), in a value or a message. */
export function normalise(value) {
  const near = (t) => Math.abs(Date.parse(t) - Date.now()) < 86_400_000 * 2;
  return JSON.parse(JSON.stringify(value ?? null), (_k, v) =>
    typeof v === "string" ? v.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g, (t) => (near(t) ? "<now>" : t)) : v);
}

/**
 * Every operation of both clients, in an order that moves the data through its lifecycles,
 * against one service: its results (or error codes) in order. `clients`: the package's
 * `BotClient` and `MerchantClient` (Node's entry, or a page's bundle of the browser entry), and
 * `SecretMerchantClient` for the secret key (default `MerchantClient`; in a page, the server
 * build's, since the browser entry has no secret-key operations). `service`: its origin, the
 * `fetch` to use (none: the global one), its keys, and its control actions (`payDeposit`,
 * `completeRamp`, `expireQuote`, `settleWithdrawal`). `merchantOptions`: more options for the
 * merchant clients (in a page, a test's `dangerouslyAllowBrowser`).
 */
export async function everyOperation({ BotClient, MerchantClient, SecretMerchantClient = MerchantClient },
  { baseUrl, fetchFn, keys, control }, merchantOptions = {}) {
  const opts = (apiKey) => ({ baseUrl, apiKey, ...(fetchFn ? { fetch: fetchFn } : {}), maxRetries: 0 });
  const bot = new BotClient(opts(keys.agent));
  const pub = new MerchantClient({ ...opts(keys.merchantPublic), ...merchantOptions });
  const sec = new SecretMerchantClient({ ...opts(keys.merchantSecret), ...merchantOptions });
  const out = [];
  const run = async (name, call) => {
    try {
      out.push([name, await call()]);
    } catch (e) {
      out.push([name, { error: e.code, messages: (e.graphqlErrors ?? []).map((g) => g.message) }]);
    }
  };
  // The bot endpoint.
  await run("profile", () => bot.profile());
  await run("orderHistory", () => bot.orderHistory({ page: 2, perPage: 7, filter: { status: "pending" } }));
  await run("orders", async () => { const all = []; for await (const o of bot.orders({ perPage: 100, filter: { status: "completed", dateFrom: "2026-10-01" } })) all.push(o.id); return all; });
  await run("withdrawalInfo", () => bot.withdrawalInfo("USDC"));
  await run("request", () => bot.request("query { profile { id email } }"));
  const pending = (await bot.orderHistory({ page: 1, perPage: 100, filter: { status: "pending" } })).data;
  const withdrawal = pending.find((o) => o.paymentType === "withdrawal" || o.type === "withdrawal") ?? pending[0];
  const deposit = pending.find((o) => o !== withdrawal) ?? pending[1];
  await run("acceptWithdrawal", () => bot.acceptWithdrawal(withdrawal.id));
  await run("markWithdrawalAsPaid", () => bot.markWithdrawalAsPaid({ p2pPayment: withdrawal.id, paymentMethod: "pm_200002", receipt: "TXN-1" }));
  await run("reconcile", () => bot.reconcile(withdrawal));
  await run("cancelWithdrawal", () => bot.cancelWithdrawal(withdrawal.id));
  await run("markDepositAsReceived", () => bot.markDepositAsReceived(deposit.id));
  await run("updateRates", () => bot.updateRates({ depositRate: "1530.5", withdrawalMargin: "0.02" }));
  await run("updatePaymentMethodLiquidity", () => bot.updatePaymentMethodLiquidity({ paymentMethodType: "mtn_momo", amountLocal: "4200.00" }));
  // The merchant endpoint, public key.
  await run("account (public: forbidden)", () => pub.account());
  await run("availableCountries", () => pub.availableCountries());
  await run("paymentMethodTypes", () => pub.paymentMethodTypes("2"));
  await run("marketRate", () => pub.marketRate("KE"));
  await run("rampLimits", () => pub.rampLimits());
  await run("rampableAssets", () => pub.rampableAssets());
  // The secret key.
  await run("account", () => sec.account());
  const hosted = await sec.initiateHostedPayment({
    amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
    reference: "compare-hosted-1", firstName: "Ada", lastName: "Obi",
  });
  out.push(["initiateHostedPayment", hosted]);
  await run("paymentRequest", () => pub.paymentRequest("compare-hosted-1"));
  const hash = await control.payDeposit(hosted.id);
  await run("confirmTransaction", () => pub.confirmTransaction({ paymentRequest: hosted.id, transactionHash: hash }));
  await run("confirmUntilSettled", () => pub.confirmUntilSettled({ paymentRequest: hosted.id, transactionHash: hash, intervalMs: 1, maxTries: 2 }));
  const second = await sec.initiateHostedPayment({
    amount: "100.00", currency: "usd", countryCode: "ke", email: "b@example.com", paymentType: "withdrawal",
    reference: "compare-hosted-2", firstName: "B", lastName: "C",
  });
  await run("cancelHostedPayment", () => sec.cancelHostedPayment(second.id));
  const w = await sec.withdrawOnchain({ address: "0x" + "ab".repeat(20), amountUsd: "25.00", network: "CELO" });
  out.push(["withdrawOnchain", w]);
  await control.settleWithdrawal(w.id);
  await run("onchainWithdrawal", () => sec.onchainWithdrawal(w.id));
  const customer = await sec.createCustomer({ email: "wanjiru@example.com", firstName: "Wanjiru", lastName: "Kamau", country: "2" });
  out.push(["createCustomer", customer]);
  const wallet = await sec.addPaymentMethod({
    customer: customer.id, paymentMethodType: "mpesa", ownership: "first_party",
    fieldValues: [{ identifier: "phone_number", value: "+254712345678" }, { identifier: "account_name", value: "Wanjiru Kamau" }],
  });
  out.push(["addPaymentMethod", wallet]);
  const quoteOptions = (paymentType) => ({ customer: customer.id, amount: "1294.00", currency: "local_currency", paymentType, paymentMethodType: "mpesa", country: "KE" });
  const quote = await sec.rampQuote(quoteOptions("deposit"));
  out.push(["rampQuote", quote]);
  await run("refreshRampQuote", () => sec.refreshRampQuote({ rampQuote: quote.id, amount: "2588" }));
  const dep = await sec.initiateRampQuoteDeposit({ rampQuote: quote.id, phoneNumber: "+254712345678" });
  out.push(["initiateRampQuoteDeposit", dep]);
  await run("markDepositAsPaid", () => sec.markDepositAsPaid({ paymentRequest: dep.id, receipt: "R-1" }));
  await control.completeRamp(dep.id);
  const dep2 = await sec.initiateRampQuoteDeposit({ rampQuote: (await sec.rampQuote(quoteOptions("deposit"))).id, phoneNumber: "+254712345678" });
  await run("cancelDeposit", () => sec.cancelDeposit(dep2.id));
  const wq = await sec.rampQuote({ ...quoteOptions("withdrawal"), currency: "usd", amount: "10" });
  const wd = await sec.initiateRampQuoteWithdrawal({ rampQuote: wq.id, paymentMethod: wallet.id });
  out.push(["initiateRampQuoteWithdrawal", wd]);
  await run("markWithdrawalAsReceived", () => sec.markWithdrawalAsReceived(wd.id));
  const expiring = await sec.rampQuote(quoteOptions("deposit"));
  await control.expireQuote(expiring.id);
  await run("initiateRampQuoteDeposit (expired quote)", () => sec.initiateRampQuoteDeposit({ rampQuote: expiring.id, phoneNumber: "+254712345678" }));
  await run("merchantCustomers", () => sec.merchantCustomers());
  await run("merchantCustomer", () => sec.merchantCustomer("wanjiru@example.com"));
  const account = await sec.requestVirtualBankAccount(customer.id);
  out.push(["requestVirtualBankAccount", account]);
  await run("virtualBankAccount", () => sec.virtualBankAccount(account.id));
  return normalise(out);
}

/** The HTTP sandbox's control routes at `sandboxUrl`, as `control` of the fake names them. */
export function httpControl(sandboxUrl) {
  async function call(path, body) {
    const res = await fetch(`${sandboxUrl}/__sandbox/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }
  return {
    async payDeposit(id) { return (await call("transfer", { paymentRequest: id })).transactionHash; },
    completeRamp(id) { return call("ramp/complete", { paymentRequest: id }); },
    expireQuote(id) { return call("ramp/expire-quote", { rampQuote: id }); },
    settleWithdrawal(id) { return call("onchain/settle", { withdrawal: id }); },
  };
}

/**
 * Every operation against the HTTP sandbox at `sandboxUrl` (its state reset first, and again
 * after), with the sandbox's keys: the results a fake's run must equal.
 */
export async function everyOperationOverHttp(clients, { sandboxUrl, keys }) {
  const reset = () => fetch(`${sandboxUrl}/__sandbox/state`, { method: "DELETE" }).then((r) => {
    if (r.status !== 204) throw new Error(`state reset: HTTP ${r.status}`);
  });
  await reset();
  try {
    return await everyOperation(clients, { baseUrl: sandboxUrl, keys, control: httpControl(sandboxUrl) });
  } finally {
    await reset();
  }
}

/**
 * The comparison: `actual` (a fake's run) has the same operations, in the same order, as
 * `expected` (the HTTP sandbox's run), each with a deep-equal result. `assert`: node:assert/strict.
 */
export function assertSameResults(assert, actual, expected, label) {
  assert.ok(expected.length >= 40, `${expected.length} results`);
  assert.deepEqual(actual.map(([n]) => n), expected.map(([n]) => n), `${label}: the operations`);
  for (let i = 0; i < expected.length; i++) assert.deepEqual(actual[i], expected[i], `${label}: ${expected[i][0]}`);
}
