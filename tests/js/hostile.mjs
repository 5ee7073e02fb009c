// The hostile-value corpus, shared by the Node suite (tests/js/hostile.test.mjs),
// the Chromium suite (tests/e2e/hostile.test.mjs) and the soak (scripts/stress.sh). Every
// function here is self-contained (no imports, no module state): the browser suites install
// them in a page from their source text. (The exception: `proxyBase` and `proxyRequest`, used
// only when the package has `createProxyHandler`, i.e. in its server entries, never in a page.)
// Not a test file itself (node --test only picks *.test.mjs).

/**
 * Every hostile argument set: `[name, run]` pairs, where `run()` calls one constructor,
 * method or function of `api` (the package's exports) with one hostile value in one slot.
 * Calls that pass validation go to a `fetch` that answers a GraphQL error at once, so the
 * corpus needs no server.
 */
export function hostileCases(api) {
  const { BotClient, MerchantClient, OrderIterator, OrderWatch, classifyKey, onchainRampUrl, parseAmount,
    listenForRampEvents } = api;
  const boom = () => { throw new Error("hostile: the caller's own error"); };
  const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
  const trap = (name, target = {}) => new Proxy(target, { [name]: boom });
  const OPTION_KEYS = ["fields", "filter", "headers", "signal", "page", "perPage", "baseUrl", "endpoint",
    "apiKey", "fetch", "timeoutMs", "maxRetries", "dangerouslyAllowBrowser", "allowedOrigin",
    "onCryptoRequested", "target", "id", "orderId", "rampUrl", "key", "p2pPayment", "event", "payload",
    "origin", "data", "amountCents", "destinationAddress", "paymentRequest", "length", "then", "toJSON",
    "logger", "debug", "info", "warn", "error"];
  const getters = (keys) => {
    const o = {};
    for (const k of keys) Object.defineProperty(o, k, { get: boom, enumerable: true });
    return o;
  };
  const big = "a".repeat(10 * 1024 * 1024);
  const sparse = [];
  sparse[999_999] = "id";
  const cyclic = {};
  cyclic.self = cyclic;
  const fakeSignals = [
    ["Object.create(AbortSignal.prototype)", () => typeof AbortSignal === "function" ? Object.create(AbortSignal.prototype) : revoked()],
    ["signal: aborted getter throws", () => ({ get aborted() { return boom(); }, addEventListener() {}, removeEventListener() {} })],
    ["signal: addEventListener throws", () => ({ aborted: false, addEventListener: boom, removeEventListener() {} })],
    ["signal: removeEventListener throws", () => ({ aborted: false, addEventListener() {}, removeEventListener: boom })],
    ["signal: aborted not boolean", () => ({ aborted: "no", addEventListener() {}, removeEventListener() {} })],
    ["Proxy of a real AbortSignal", () => new Proxy(new AbortController().signal, {})],
  ];
  // Fresh values for every slot (a revoked Proxy, a cyclic object... may be kept by a call).
  const values = () => [
    ["revoked Proxy", revoked()],
    ...["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "apply"].map((t) =>
      [`Proxy (${t} throws)`, trap(t, t === "apply" ? function f() {} : {})]),
    ["array Proxy (get throws)", trap("get", [])],
    ["array Proxy (length getter throws)", new Proxy(["id"], { get: (t, k) => (k === "length" ? boom() : t[k]) })],
    ["array with a throwing element getter", Object.defineProperty(["id", "x"], 1, { get: boom })],
    ["throwing getters", getters(OPTION_KEYS)],
    ["Symbol", Symbol("hostile")],
    ["BigInt", 10n],
    ["cyclic object", cyclic],
    ["new Array(2 ** 32 - 1)", new Array(2 ** 32 - 1)],
    ["sparse array (length 1e6)", sparse],
    ["function", () => {}],
    ["NaN", NaN], ["-0", -0], ["Infinity", Infinity], ["1e308", 1e308],
    ["10 MiB string", big],
    ["10 MiB string in an array", [big]],
    ["key-shaped string", "LEAK-SECK_q7Zr9Vx2Kp4Wm8Tn3Hj6"],
    ["empty string", ""], ["null", null], ["undefined", undefined], ["true", true],
    ["Date(NaN)", new Date(NaN)],
    ["throwing toString/valueOf/toPrimitive", { toString: boom, valueOf: boom, [Symbol.toPrimitive]: boom }],
    ["Object.create(null)", Object.create(null)],
    ["Map", new Map([["a", "b"]])],
    ...fakeSignals.map(([n, f]) => [n, f()]),
  ];

  const fetch = async () => new Response(JSON.stringify({ errors: [{ message: "hostile corpus" }] }),
    { status: 200, headers: { "content-type": "application/json" } });
  const base = { endpoint: "https://settlement.invalid/graphql", fetch };
  const bot = new BotClient(base);
  const merchant = new MerchantClient(base);
  const iterator = bot.orders();
  const watch = bot.watchOrders();
  watch.stop();
  const listen = (extra) => listenForRampEvents({ allowedOrigin: "https://ramp.example", onCryptoRequested() {}, ...extra });

  // Each slot takes the hostile value `h`.
  const slots = [];
  const slot = (name, run) => slots.push([name, run]);
  for (const [C, n] of [[BotClient, "BotClient"], [MerchantClient, "MerchantClient"]]) {
    slot(`new ${n}(h)`, (h) => new C(h));
    for (const k of ["baseUrl", "endpoint", "apiKey", "headers", "fetch", "timeoutMs", "maxRetries", "dangerouslyAllowBrowser", "logger"]) {
      slot(`new ${n}({${k}: h})`, (h) => new C({ ...base, [k]: h }));
    }
    slot(`new ${n}({headers: {"x-a": h}})`, (h) => new C({ ...base, headers: { "x-a": h } }));
    slot(`new ${n}({logger: {...console-like, debug: h}})`, (h) => new C({ ...base, logger: { info() {}, warn() {}, error() {}, debug: h } }));
  }
  // Events: the type and the listener of on/off; withResponse's function and the call it starts.
  for (const m of ["on", "off"]) {
    slot(`bot.${m}(h, listener)`, (h) => bot[m](h, () => {}));
    slot(`bot.${m}("response", h)`, (h) => bot[m]("response", h));
    slot(`merchant.${m}(h, listener)`, (h) => merchant[m](h, () => {}));
  }
  slot("bot.withResponse(h)", (h) => bot.withResponse(h));
  slot("bot.withResponse(() => h)", (h) => bot.withResponse(() => h));
  slot("bot.withResponse((c) => c.profile(h))", (h) => bot.withResponse((c) => c.profile(h)));
  slot("merchant.withResponse(h)", (h) => merchant.withResponse(h));
  const withOptions = (name, call) => {
    slot(`${name}(h)`, (h) => call(h));
    for (const k of ["fields", "signal", "filter", "perPage", "page"]) slot(`${name}({${k}: h})`, (h) => call({ page: 1, [k]: h }));
    slot(`${name}({fields: [h]})`, (h) => call({ page: 1, fields: [h] }));
  };
  withOptions("bot.profile", (o) => bot.profile(o));
  withOptions("bot.orderHistory", (o) => bot.orderHistory(o));
  withOptions("bot.orders", (o) => bot.orders(o));
  for (const k of ["orderId", "status", "dateFrom", "dateTo", "paymentMethod"]) {
    slot(`bot.orderHistory({filter: {${k}: h}})`, (h) => bot.orderHistory({ page: 1, filter: { [k]: h } }));
  }
  // A watch is stopped at once (its first poll, if it started one, is aborted).
  const watchWith = (o) => bot.watchOrders(o).stop();
  slot("bot.watchOrders(h)", (h) => watchWith(h));
  for (const k of ["fields", "signal", "filter", "perPage", "intervalMs", "maxIntervalMs", "pauseWhenHidden"]) {
    slot(`bot.watchOrders({${k}: h})`, (h) => watchWith({ [k]: h }));
  }
  slot("bot.watchOrders({fields: [h]})", (h) => watchWith({ fields: [h] }));
  slot("bot.withdrawalInfo(h)", (h) => bot.withdrawalInfo(h));
  withOptions("bot.withdrawalInfo(\"USDC\", …)", (o) => bot.withdrawalInfo("USDC", o));
  for (const m of ["acceptWithdrawal", "cancelWithdrawal", "markDepositAsReceived"]) {
    slot(`bot.${m}(h)`, (h) => bot[m](h));
    slot(`bot.${m}("p", h)`, (h) => bot[m]("p", h));
    slot(`bot.${m}("p", {signal: h})`, (h) => bot[m]("p", { signal: h }));
  }
  for (const m of ["markWithdrawalAsPaid", "updateRates", "updatePaymentMethodLiquidity"]) {
    withOptions(`bot.${m}`, (o) => bot[m](o));
  }
  slot("bot.reconcile(h)", (h) => bot.reconcile(h));
  slot("bot.reconcile({id: h})", (h) => bot.reconcile({ id: h, orderId: "o" }));
  slot("bot.reconcile({orderId: h})", (h) => bot.reconcile({ id: "i", orderId: h }));
  withOptions("bot.reconcile(order, …)", (o) => bot.reconcile({ id: "i", orderId: "o" }, o));
  slot("bot.request(h)", (h) => bot.request(h));
  slot("bot.request(doc, h)", (h) => bot.request("{ a }", h));
  slot("bot.request(doc, {toJSON: h})", (h) => bot.request("{ a }", { toJSON: h }));
  slot("bot.request(doc, {toJSON: () => h})", (h) => bot.request("{ a }", { toJSON: () => h }));
  slot("bot.request(doc, {v: h})", (h) => bot.request("query($v: String) { a(v: $v) }", { v: h }));
  withOptions("bot.request(doc, null, …)", (o) => bot.request("{ a }", null, o));
  for (const m of ["account", "availableCountries", "rampLimits", "rampableAssets"]) withOptions(`merchant.${m}`, (o) => merchant[m](o));
  for (const m of ["paymentMethodTypes", "marketRate", "paymentRequest"]) {
    slot(`merchant.${m}(h)`, (h) => merchant[m](h));
    withOptions(`merchant.${m}("KE", …)`, (o) => merchant[m]("KE", o));
  }
  // The onchain ramp's confirmation, and (in the server entry) the secret-key operations.
  const hash = `0x${"ab".repeat(32)}`;
  for (const m of ["confirmTransaction", "confirmUntilSettled", "initiateHostedPayment", "withdrawOnchain"]) {
    if (typeof merchant[m] === "function") withOptions(`merchant.${m}`, (o) => merchant[m](o));
  }
  for (const k of ["paymentRequest", "transactionHash", "intervalMs", "maxTries"]) {
    slot(`merchant.confirmUntilSettled({${k}: h})`, (h) =>
      merchant.confirmUntilSettled({ paymentRequest: "mpr_1", transactionHash: hash, maxTries: 1, [k]: h }));
  }
  if (typeof merchant.initiateHostedPayment === "function") {
    slot("merchant.initiateHostedPayment({metadata: h})", (h) => merchant.initiateHostedPayment({
      amount: "1.00", countryCode: "NG", email: "a@b.co", paymentType: "deposit", reference: "r",
      firstName: "A", lastName: "B", metadata: h,
    }));
    slot("merchant.cancelHostedPayment(h)", (h) => merchant.cancelHostedPayment(h));
  }
  // The direct ramp (server entry): each options object, each member of it, the list of field
  // values and each of its pairs, and the single-id mutations.
  if (typeof merchant.rampQuote === "function") {
    const ramp = {
      rampQuote: { customer: "c", amount: "1", currency: "usd", paymentMethodType: "mpesa" },
      refreshRampQuote: { rampQuote: "q" },
      createCustomer: { email: "a@b.co", firstName: "A", lastName: "B", country: "2" },
      addPaymentMethod: { customer: "c", paymentMethodType: "mpesa", fieldValues: [{ identifier: "phone_number", value: "1" }] },
      initiateRampQuoteDeposit: {
        rampQuote: "q", phoneNumber: "+254712345678", onchainTransferInfo: { address: "0x1", cryptocurrency: "usd_tether", network: "celo" },
      },
      initiateRampQuoteWithdrawal: { rampQuote: "q", paymentMethod: "m" },
      markDepositAsPaid: { paymentRequest: "p" },
    };
    for (const [m, good] of Object.entries(ramp)) {
      withOptions(`merchant.${m}`, (o) => merchant[m](o));
      for (const k of [...Object.keys(good), "reference", "ownership", "receipt", "amount", "fields", "signal"]) {
        slot(`merchant.${m}({${k}: h})`, (h) => merchant[m]({ ...good, [k]: h }));
      }
    }
    const fieldValues = (list) => merchant.addPaymentMethod({ ...ramp.addPaymentMethod, fieldValues: list });
    slot("merchant.addPaymentMethod({fieldValues: [h]})", (h) => fieldValues([h]));
    slot("merchant.addPaymentMethod({fieldValues: [{identifier: h}]})", (h) => fieldValues([{ identifier: h, value: "1" }]));
    slot("merchant.addPaymentMethod({fieldValues: [{value: h}]})", (h) => fieldValues([{ identifier: "phone_number", value: h }]));
    const onchain = (info) => merchant.initiateRampQuoteDeposit({ ...ramp.initiateRampQuoteDeposit, onchainTransferInfo: info });
    for (const k of ["address", "cryptocurrency", "network"]) {
      slot(`merchant.initiateRampQuoteDeposit({onchainTransferInfo: {${k}: h}})`,
        (h) => onchain({ ...ramp.initiateRampQuoteDeposit.onchainTransferInfo, [k]: h }));
    }
    for (const m of ["markWithdrawalAsReceived", "cancelDeposit"]) {
      slot(`merchant.${m}(h)`, (h) => merchant[m](h));
      slot(`merchant.${m}("p", h)`, (h) => merchant[m]("p", h));
    }
  }
  // The customers, an onchain withdrawal read back, virtual bank accounts (server entry): the
  // single-id methods and their options, merchantCustomers' and customers()' options.
  if (typeof merchant.merchantCustomers === "function") {
    for (const m of ["onchainWithdrawal", "merchantCustomer", "requestVirtualBankAccount", "virtualBankAccount"]) {
      slot(`merchant.${m}(h)`, (h) => merchant[m](h));
      withOptions(`merchant.${m}("a@b.co", …)`, (o) => merchant[m]("a@b.co", o));
    }
    withOptions("merchant.merchantCustomers", (o) => merchant.merchantCustomers(o));
    slot("merchant.merchantCustomers({after: h})", (h) => merchant.merchantCustomers({ after: h }));
    // An iteration is made and closed at once (its first page, if asked for, is not awaited).
    const customersWith = (o) => merchant.customers(o).return();
    slot("merchant.customers(h)", (h) => customersWith(h));
    for (const k of ["fields", "signal"]) slot(`merchant.customers({${k}: h})`, (h) => customersWith({ [k]: h }));
    slot("merchant.customers({fields: [h]})", (h) => customersWith({ fields: [h] }));
  }
  slot("iterator.next.call(h)", (h) => OrderIterator.prototype.next.call(h));
  slot("classifyKey(h)", (h) => classifyKey(h));
  slot("init(h)", (h) => api.init(h));
  slot("initSync(h)", (h) => api.initSync(h));
  slot("onchainRampUrl(h)", (h) => onchainRampUrl(h));
  for (const k of ["rampUrl", "key", "coin"]) slot(`onchainRampUrl({${k}: h})`, (h) => onchainRampUrl({ rampUrl: "https://ramp.example/x", key: "SBX-PUBK_demo1234", [k]: h }));
  slot("parseAmount(h)", (h) => parseAmount(h));
  slot("listenForRampEvents(h)", (h) => listenForRampEvents(h)());
  for (const k of ["allowedOrigin", "onCryptoRequested", "target"]) slot(`listenForRampEvents({${k}: h})`, (h) => listen({ [k]: h })());
  // Ramp messages: the listener must never throw, whatever the event.
  const deliver = (event) => {
    let listener;
    const target = { addEventListener(_t, l) { listener = l; }, removeEventListener() {} };
    const stop = listen({ target });
    try { listener(event); } finally { stop(); }
  };
  slot("ramp message: event h", (h) => deliver(h));
  slot("ramp message: origin h", (h) => deliver({ origin: h, data: {} }));
  slot("ramp message: data h", (h) => deliver({ origin: "https://ramp.example", data: h }));
  slot("ramp message: payload h", (h) => deliver({ origin: "https://ramp.example", data: { event: "crypto.requested", payload: h } }));
  // The proxy handler (server entries only): hostile options, requests, and what the caller's
  // functions (authorize, apiKey, the upstream fetch) return. Every answer is a Response.
  if (typeof api.createProxyHandler === "function") {
    const proxy = (extra) => api.createProxyHandler({ ...proxyBase(), ...extra });
    slot("createProxyHandler(h)", (h) => api.createProxyHandler(h));
    for (const k of ["endpoint", "baseUrl", "apiKey", "allow", "authorize", "maxBodyBytes", "fetch", "on", "logger"]) {
      slot(`createProxyHandler({${k}: h})`, (h) => proxy({ [k]: h })(proxyRequest()));
    }
    slot("createProxyHandler({allow: [h]})", (h) => proxy({ allow: [h] })(proxyRequest()));
    slot("createProxyHandler({on: {response: h}})", (h) => proxy({ on: { response: h } })(proxyRequest()));
    slot("proxy handler(h)", (h) => proxy({})(h));
    slot("proxy: authorize returns h", (h) => proxy({ authorize: () => h })(proxyRequest()));
    slot("proxy: apiKey returns h", (h) => proxy({ apiKey: () => h })(proxyRequest()));
    slot("proxy: apiKey resolves to h", (h) => proxy({ apiKey: async () => h })(proxyRequest()));
    slot("proxy: upstream fetch resolves to h", (h) => proxy({ fetch: async () => h })(proxyRequest()));
    slot("proxy: upstream answer with status h", (h) => proxy({ fetch: async () => ({ status: h, headers: new Headers(), text: async () => "{}" }) })(proxyRequest()));
    slot("proxy: upstream answer whose text() gives h", (h) => proxy({ fetch: async () => ({ status: 200, headers: new Headers(), text: async () => h }) })(proxyRequest()));
    // A request carries text: `h` as JSON text where JSON can hold it, else a body that is not JSON.
    const text = (v) => { try { return JSON.stringify(v) ?? "undefined"; } catch { return "{"; } };
    const post = (body) => new Request("https://app.example/api/bot", { method: "POST", body });
    slot("proxy: request with query h", (h) => proxy({})(post(`{"query":${text(h)},"operationName":"Profile"}`)));
    slot("proxy: request with variables h", (h) => proxy({})(post(`{"query":"query Profile { profile { id } }","variables":${text(h)}}`)));
    slot("proxy: request with body h", (h) => proxy({})(post(text(h))));
  }
  // The webhook receiver (server entries only): hostile options, requests, what the token
  // function and onEvent give, and hostile events for confirmEvent. Every answer is a Response,
  // every verifyWebhook outcome an event or a SettlementError.
  if (typeof api.createWebhookHandler === "function") {
    const token = "hostile-corpus-webhook-token";
    const delivery = (body = '{"event_type":"onchain_tx.updated","data":{"id":"tx1","status":"pending"}}') =>
      new Request("https://app.example/webhooks", { method: "POST", headers: { "x-cashramp-token": token }, body });
    const webhook = (extra) => api.createWebhookHandler({ token, onEvent: () => {}, ...extra });
    slot("createWebhookHandler(h)", (h) => api.createWebhookHandler(h));
    for (const k of ["token", "onEvent", "header", "maxBodyBytes"]) {
      slot(`createWebhookHandler({${k}: h})`, (h) => webhook({ [k]: h })(delivery()));
    }
    slot("createWebhookHandler({token: [h]})", (h) => webhook({ token: [token, h] })(delivery()));
    slot("webhook handler(h)", (h) => webhook({})(h));
    slot("webhook: token function returns h", (h) => webhook({ token: () => h })(delivery()));
    slot("webhook: token function resolves to h", (h) => webhook({ token: async () => h })(delivery()));
    slot("webhook: onEvent returns h", (h) => webhook({ onEvent: () => h })(delivery()));
    slot("webhook: onEvent throws h", (h) => webhook({ onEvent: () => { throw h; } })(delivery()));
    const text = (v) => { try { return JSON.stringify(v) ?? "undefined"; } catch { return "{"; } };
    slot("webhook: delivery with data h", (h) => webhook({})(delivery(`{"event_type":"payment_request.updated","data":${text(h)}}`)));
    slot("webhook: delivery with event_type h", (h) => webhook({})(delivery(`{"event_type":${text(h)},"data":{}}`)));
    slot("webhook: delivery with body h", (h) => webhook({})(delivery(text(h))));
    slot("verifyWebhook(h)", (h) => api.verifyWebhook(h, { token }));
    slot("verifyWebhook(request, h)", (h) => api.verifyWebhook(delivery(), h));
    slot("verifyWebhook(request, {token: h})", (h) => api.verifyWebhook(delivery(), { token: h }));
    if (typeof merchant.confirmEvent === "function") {
      slot("merchant.confirmEvent(h)", (h) => merchant.confirmEvent(h));
      slot("merchant.confirmEvent({type: h})", (h) => merchant.confirmEvent({ type: h, data: { id: "tx1", reference: "r" } }));
      slot("merchant.confirmEvent(payment event with data h)", (h) => merchant.confirmEvent({ type: "payment_request.updated", data: h }));
      slot("merchant.confirmEvent(onchain event with id h)", (h) => merchant.confirmEvent({ type: "onchain_tx.updated", data: { id: h } }));
      slot("merchant.confirmEvent(event, h)", (h) => merchant.confirmEvent({ type: "onchain_tx.updated", data: { id: "tx1" } }, h));
    }
  }
  // The method names of class `C`'s prototype chain (its own and its parents'), once each.
  // (Local: the browser suites evaluate this function's own source in the page.)
  const methodNames = (C) => {
    const names = new Set();
    for (let p = C.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
      for (const m of Object.getOwnPropertyNames(p)) {
        if (m !== "constructor" && !m.startsWith("__")) names.add(m);
      }
    }
    return names;
  };
  // Wrong receivers: every method of every class (its own and its parent's: the server
  // entry's MerchantClient extends the browser's), called on the hostile value.
  for (const C of [BotClient, MerchantClient, OrderIterator, OrderWatch]) {
    for (const m of methodNames(C)) {
      slot(`${C.name}.prototype.${m}.call(h)`, (h) => C.prototype[m].call(h));
    }
  }

  const cases = [];
  for (const [slotName, run] of slots) {
    for (const [valueName, h] of values()) cases.push([`${slotName} with ${valueName}`, () => run(h)]);
  }
  // Receivers of the wrong class, freed instances, double free.
  const others = { bot, merchant, iterator, watch };
  for (const C of [BotClient, MerchantClient, OrderIterator, OrderWatch]) {
    for (const m of methodNames(C)) {
      for (const [n, o] of Object.entries(others)) {
        if (o instanceof C) continue;
        cases.push([`${C.name}.prototype.${m}.call(${n})`, () => C.prototype[m].call(o)]);
      }
    }
  }
  const freedBot = () => { const b = new BotClient(base); b.free(); return b; };
  cases.push(["call on a freed BotClient", () => freedBot().profile()]);
  cases.push(["a logger whose methods throw", () => new BotClient({ ...base, logger: { debug: boom, info: boom, warn: boom, error: boom } }).profile()]);
  cases.push(["listeners that throw, on every event", () => {
    const b = new BotClient(base);
    for (const t of ["request", "response", "retry", "error", "done"]) b.on(t, boom);
    return b.profile();
  }]);
  cases.push(["a response whose headers throw, with a listener", () => {
    const headers = new Proxy(new Headers(), { get: boom });
    const f = async () => ({ status: 503, headers, text: async () => "" });
    const b = new BotClient({ ...base, fetch: f, maxRetries: 1 });
    b.on("response", () => {});
    return b.withResponse((c) => c.profile());
  }]);
  cases.push(["orders() on a freed BotClient", () => freedBot().orders()]);
  cases.push(["double free()", () => freedBot().free()]);
  cases.push(["next() on a freed iterator", () => { const it = bot.orders(); it.free(); return it.next(); }]);
  cases.push(["free() from inside an option getter", () => {
    const b = new BotClient(base);
    return b.profile({ get fields() { b.free(); return undefined; } });
  }]);
  cases.push(["new OrderIterator()", () => new OrderIterator().next()]);
  cases.push(["new OrderWatch()", () => new OrderWatch().next()]);
  cases.push(["watchOrders() on a freed BotClient", () => freedBot().watchOrders()]);
  cases.push(["a live client whose __wbg_ptr was overwritten", () => {
    const b = new BotClient(base);
    b.__wbg_ptr = iterator.__wbg_ptr;
    return b.profile();
  }]);
  cases.push(["Object.setPrototypeOf(bot, OrderIterator.prototype).next()", () => {
    const b = new BotClient(base);
    Object.setPrototypeOf(b, OrderIterator.prototype);
    return b.next();
  }]);
  return cases;
}

/**
 * The proxy handler's options in the corpus: the bot endpoint, `profile` allowed, and an
 * upstream `fetch` that answers at once (nothing leaves the process).
 */
export function proxyBase() {
  return {
    endpoint: "bot", baseUrl: "https://settlement.invalid", apiKey: "SBX-hostile-corpus-key", allow: ["profile"],
    fetch: async () => new Response("{\"data\":{\"profile\":{\"id\":\"agent-1\"}}}", { status: 200, headers: { "content-type": "application/json" } }),
  };
}

/**
 * A request the proxy forwards (what the client sends for `profile({ fields: ["id"] })`), or
 * with `variables` when given (profile takes none: refused).
 */
export function proxyRequest(variables) {
  const body = { query: "query Profile { profile { id } }", operationName: "Profile" };
  if (variables !== undefined) body.variables = variables;
  return new Request("https://app.example/api/bot", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/**
 * The failing cases of the corpus, for repetition: each must end in a SettlementError every
 * time, and the module must still work afterwards.
 */
export function repeatCases(api) {
  const { BotClient, OrderIterator, listenForRampEvents } = api;
  const boom = () => { throw new Error("hostile"); };
  const revoked = () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; };
  const fetch = async () => new Response("{\"errors\":[{\"message\":\"x\"}]}", { status: 200 });
  const base = { endpoint: "https://settlement.invalid/graphql", fetch };
  const bot = new BotClient(base);
  const freed = new BotClient(base);
  freed.free();
  // A caller's fetch that throws synchronously (no retries: each call fails at once).
  const thrower = new BotClient({ ...base, maxRetries: 0, fetch: boom });
  const badDate = () => { const d = new Date(); d.toISOString = boom; return d; };
  return [
    ["new BotClient(revoked Proxy)", () => new BotClient(revoked())],
    ["profile({fields: new Array(2 ** 32 - 1)})", () => bot.profile({ fields: new Array(2 ** 32 - 1) })],
    ["profile({fields: Proxy (get throws)})", () => bot.profile({ fields: new Proxy([], { get: boom }) })],
    ["orderHistory({filter: Proxy (ownKeys throws)})", () => bot.orderHistory({ page: 1, filter: new Proxy({}, { ownKeys: boom }) })],
    ["profile({signal: Object.create(AbortSignal.prototype)})", () => bot.profile({ signal: Object.create(AbortSignal.prototype) })],
    ["call on a freed client", () => freed.profile()],
    ["double free()", () => freed.free()],
    ["BotClient.prototype.profile.call({})", () => BotClient.prototype.profile.call({})],
    ["OrderIterator.prototype.next.call(bot)", () => OrderIterator.prototype.next.call(bot)],
    ["listenForRampEvents(Proxy (get throws))", () => listenForRampEvents(new Proxy({}, { get: boom }))],
    ["a fetch that throws synchronously", () => thrower.profile()],
    ["filter.dateFrom: a Date whose toISOString throws", () => bot.orderHistory({ page: 1, filter: { dateFrom: badDate() } })],
    // JSON.stringify throwing (a BigInt; a cycle throws the same way but costs Chromium ~14 ms
    // to describe, too slow for 100,000 repetitions; cycles are in the corpus).
    ["request() with variables JSON cannot represent", () => bot.request("query { profile { id } }", { n: 10n })],
  ];
}

/**
 * Runs one case: `{kind: "ok"}`, `{kind: "error", e}` (thrown or rejected), or
 * `{kind: "hang"}` when a returned promise does not settle within `ms`.
 */
export async function settle(run, ms = 5000) {
  let v;
  try { v = run(); } catch (e) { return { kind: "error", e }; }
  if (v instanceof Promise) {
    let timer;
    const hang = new Promise((resolve) => { timer = setTimeout(() => resolve({ kind: "hang" }), ms); });
    const r = await Promise.race([v.then(() => ({ kind: "ok" }), (e) => ({ kind: "error", e })), hang]);
    clearTimeout(timer);
    return r;
  }
  return { kind: "ok" };
}

/** `null` when an outcome is acceptable, else why not. */
export function badOutcome(outcome, SettlementError, codes) {
  if (outcome.kind === "hang") return "never settled";
  if (outcome.kind === "ok") return null;
  const e = outcome.e;
  if (!(e instanceof SettlementError)) {
    let text;
    try { text = String(e && e.stack ? e.stack : e); } catch { text = "(unprintable)"; }
    return `foreign error: ${text.split("\n").slice(0, 2).join(" | ")}`;
  }
  if (!codes.includes(e.code)) return `undocumented code ${e.code}`;
  return null;
}
