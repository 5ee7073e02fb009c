// MerchantClient, the browser guard, parseAmount, onchainRampUrl and listenForRampEvents,
// in Node, against the sandbox, through the package imported by name.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import {
  MerchantClient, SettlementError, classifyKey, onchainRampUrl, listenForRampEvents, parseAmount,
} from "settlement-wasm";
import {
  SANDBOX_URL, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, uniqueTag, requestsTagged, serializeError, expectCode,
} from "./helpers.mjs";

if (!MERCHANT_PUBLIC_KEY || !MERCHANT_SECRET_KEY) throw new Error("MERCHANT_*_KEY missing: run through scripts/with-sandbox.sh");

const publicClient = (extra = {}) => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY, ...extra });
const tagged = (tag, extra = {}) => publicClient({ headers: { "x-sandbox-tag": tag }, ...extra });

// Hosts simulated by their globals (the browser guard reads them by name when a client is
// constructed): each host's own globals are defined, and Node's `process` is hidden where the
// simulated host has none, for the duration of a synchronous callback only.
const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
function WorkerGlobalScope() {}
function ServiceWorkerGlobalScope() {}
const HOSTS = {
  "browser page": { browser: true, globals: { window: {}, document: {}, navigator: { userAgent: CHROME_UA } }, hide: ["process"] },
  "jsdom page in Node (Vitest, Jest)": { browser: true, globals: { window: {}, document: {} } },
  "a page's document alone": { browser: true, globals: { document: {} }, hide: ["process"] },
  "a window alone": { browser: true, globals: { window: {} }, hide: ["process"] },
  "dedicated worker": { browser: true, globals: { WorkerGlobalScope, navigator: { userAgent: CHROME_UA } }, hide: ["process"] },
  "service worker": {
    browser: true, globals: { WorkerGlobalScope, ServiceWorkerGlobalScope, navigator: { userAgent: CHROME_UA } }, hide: ["process"],
  },
  "Node": { browser: false, globals: {} },
  "Deno 2": { browser: false, globals: { Deno: { version: { deno: "2.9.6" } } }, hide: ["process"] },
  "Deno 1 (defines window)": { browser: false, globals: { Deno: { version: { deno: "1.46.3" } }, window: {} }, hide: ["process"] },
  "Bun": { browser: false, globals: { Bun: { version: "1.4.5" } }, hide: ["process"] },
  "Cloudflare Workers (workerd defines WorkerGlobalScope)": {
    browser: false, globals: { WorkerGlobalScope, navigator: { userAgent: "Cloudflare-Workers" } }, hide: ["process"],
  },
  "Vercel Edge, Next.js edge routes": { browser: false, globals: { EdgeRuntime: "edge-runtime" }, hide: ["process"] },
};
/** `f()` run in the simulated host `name`, its globals restored afterwards. */
function inHost(name, f) {
  const { globals, hide = [] } = HOSTS[name];
  const names = [...Object.keys(globals), ...hide];
  const saved = names.map((n) => [n, Object.getOwnPropertyDescriptor(globalThis, n)]);
  try {
    for (const [n, value] of Object.entries(globals)) Object.defineProperty(globalThis, n, { value, configurable: true, writable: true });
    for (const n of hide) Object.defineProperty(globalThis, n, { value: undefined, configurable: true, writable: true });
    return f();
  } finally {
    for (const [n, d] of saved) {
      if (d) Object.defineProperty(globalThis, n, d);
      else delete globalThis[n];
    }
  }
}
const inPage = (f) => inHost("browser page", f);

describe("the secret-key guard", () => {
  test("classifyKey: public, secret, unknown (after any service prefix)", () => {
    assert.equal(classifyKey(MERCHANT_PUBLIC_KEY), "public");
    assert.equal(classifyKey(MERCHANT_SECRET_KEY), "secret");
    assert.equal(classifyKey("XYZ-PUBK_abc123"), "public");
    assert.equal(classifyKey("XYZ-SECK_abc123"), "secret");
    assert.equal(classifyKey("abc123"), "unknown");
    assert.equal(classifyKey(42), "unknown");
  });

  test("Node: a secret key is normal, and account() works with it", async () => {
    for (const g of ["window", "document", "WorkerGlobalScope"]) assert.equal(globalThis[g], undefined, `Node has no ${g}`);
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    const account = await merchant.account();
    assert.deepEqual(account, {
      id: "merchant-1", accountBalance: "1520.00", depositAddress: "0x9F8e7D6c5B4a39281706F5e4D3c2B1a098765432",
    });
  });

  for (const [host, { browser }] of Object.entries(HOSTS)) {
    if (!browser) {
      test(`${host}: a server, where a secret key is allowed and works`, async () => {
        const merchant = inHost(host, () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY }));
        assert.equal((await merchant.account()).id, "merchant-1");
      });
      continue;
    }
    test(`${host}: browser-like, a secret key throws secret_key_in_browser`, async () => {
      const e = await expectCode(assert, SettlementError,
        () => inHost(host, () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY })), "secret_key_in_browser");
      assert.equal(e.field, "apiKey");
      for (const why of ["browser", "server", "proxy", "public key", "dangerouslyAllowBrowser"]) {
        assert.ok(e.message.includes(why), `the message says "${why}": ${e.message}`);
      }
      assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY), "the key is nowhere in the error");
      assert.ok(!serializeError(e).includes("merchantdemo01"));
    });
  }

  test("browser-like: the guard speaks first, even with other invalid options", async () => {
    await expectCode(assert, SettlementError, () => inPage(() => new MerchantClient({ apiKey: MERCHANT_SECRET_KEY })),
      "secret_key_in_browser");
  });

  test("browser-like: dangerouslyAllowBrowser: true opts out, and the key works", async () => {
    const merchant = inPage(() =>
      new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY, dangerouslyAllowBrowser: true }));
    assert.equal((await merchant.account()).id, "merchant-1");
    await expectCode(assert, SettlementError,
      () => inPage(() => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY, dangerouslyAllowBrowser: false })),
      "secret_key_in_browser");
    const e = await expectCode(assert, SettlementError,
      () => inPage(() => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY, dangerouslyAllowBrowser: "yes" })),
      "invalid_input");
    assert.equal(e.field, "dangerouslyAllowBrowser");
  });

  test("browser-like: the public key, and a proxy endpoint without a key, work", async () => {
    const countries = await inPage(() => publicClient()).availableCountries();
    assert.equal(countries.length, 3);
    const tag = uniqueTag("proxy");
    const proxy = inPage(() => new MerchantClient({ endpoint: `${SANDBOX_URL}/service/api/graphql`, headers: { "x-sandbox-tag": tag } }));
    await expectCode(assert, SettlementError, () => proxy.rampLimits(), "unauthorized");
    assert.equal((await requestsTagged(tag))[0].hasAuthorization, false, "no key was sent");
  });

  test("a public key asking for account() is forbidden, and the key is never echoed", async () => {
    const e = await expectCode(assert, SettlementError, () => publicClient().account(), "forbidden");
    assert.equal(e.status, 200);
    assert.deepEqual(e.graphqlErrors[0].path, ["account"]);
    assert.equal(e.graphqlErrors[0].extensions.code, "FORBIDDEN");
    assert.ok(!serializeError(e).includes(MERCHANT_PUBLIC_KEY));
  });

  test("invalid options are invalid_input naming the option, with the key redacted", async () => {
    for (const [opts, field] of [
      [{}, "baseUrl"],
      [{ baseUrl: "ftp://x.example", apiKey: MERCHANT_PUBLIC_KEY }, "baseUrl"],
      [{ baseUrl: SANDBOX_URL, apiKey: `${MERCHANT_PUBLIC_KEY}\n` }, "apiKey"],
      [{ baseUrl: SANDBOX_URL, timeoutMs: 0 }, "timeoutMs"],
      [{ baseUrl: `${SANDBOX_URL}/${MERCHANT_SECRET_KEY}`, apiKey: MERCHANT_SECRET_KEY }, "baseUrl"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => new MerchantClient(opts), "invalid_input");
      assert.equal(e.field, field);
      assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY));
    }
  });
});

describe("merchant reads (public key)", () => {
  test("availableCountries: the seeded countries and currencies", async () => {
    const countries = await publicClient().availableCountries();
    assert.deepEqual(countries.map((c) => [c.id, c.code, c.name, c.currency.isoCode]), [
      ["1", "NG", "Nigeria", "NGN"], ["2", "KE", "Kenya", "KES"], ["3", "GH", "Ghana", "GHS"],
    ]);
  });

  test("paymentMethodTypes: by country id, with their fields; unknown country is a graphql error", async () => {
    const ng = await publicClient().paymentMethodTypes("1");
    assert.deepEqual(ng.map((m) => m.identifier), ["bank_transfer", "opay"]);
    const bank = ng.find((m) => m.identifier === "bank_transfer");
    assert.deepEqual(bank.fields.filter((f) => f.required).map((f) => f.identifier), ["bank_name", "account_number", "account_name"]);
    const ke = await publicClient().paymentMethodTypes("2", { fields: ["identifier"] });
    assert.deepEqual(ke, [{ identifier: "mpesa" }, { identifier: "airtel_money" }, { identifier: "bank_transfer" }]);
    const e = await expectCode(assert, SettlementError, () => publicClient().paymentMethodTypes("99"), "graphql");
    assert.equal(e.graphqlErrors[0].extensions.code, "NOT_FOUND");
  });

  test("marketRate: ISO 3166-1 alpha-2, any case; unknown → null; invalid → refused before sending", async () => {
    const tag = uniqueTag("rate");
    const c = tagged(tag);
    assert.deepEqual(await c.marketRate("NG"), { depositRate: "1545.50", withdrawalRate: "1512.25" });
    assert.deepEqual(await c.marketRate("ke"), { depositRate: "129.40", withdrawalRate: "127.85" });
    assert.equal(await c.marketRate("ZZ"), null);
    for (const bad of ["NGA", "", "N", "N1", " NG", 12]) {
      const e = await expectCode(assert, SettlementError, () => c.marketRate(bad), "invalid_input");
      assert.equal(e.field, "countryCode", String(bad));
    }
    const log = await requestsTagged(tag);
    assert.equal(log.length, 3, "the invalid codes sent nothing");
    assert.deepEqual(log.map((r) => [r.endpoint, r.operationName, r.variables]), [
      ["merchant", "MarketRate", { countryCode: "NG" }],
      ["merchant", "MarketRate", { countryCode: "KE" }],
      ["merchant", "MarketRate", { countryCode: "ZZ" }],
    ]);
  });

  test("rampLimits: decimal strings", async () => {
    assert.deepEqual(await publicClient().rampLimits(), {
      minimumDepositUsd: "5.00", maximumDepositUsd: "5000.00", minimumWithdrawalUsd: "10.00",
      maximumWithdrawalUsd: "2500.00", dailyLimitUsd: "10000.00",
    });
  });

  test("rampableAssets: USDC, USDT, CUSD with networks", async () => {
    const assets = await publicClient().rampableAssets();
    assert.deepEqual(assets.map((a) => a.symbol), ["USDC", "USDT", "CUSD"]);
    for (const a of assets) {
      assert.ok(Array.isArray(a.networks) && a.networks.length > 0, a.symbol);
      assert.ok("contractAddress" in a);
    }
  });

  test("paymentRequest: exact reference; unknown → null; hostile text travels as a variable", async () => {
    const pr = await publicClient().paymentRequest("REF-1001");
    assert.equal(pr.reference, "REF-1001");
    assert.equal(pr.status, "created");
    assert.equal(pr.paymentType, "deposit");
    assert.equal(pr.amount, "25000.00");
    assert.equal(pr.currency, "NGN");
    assert.ok(pr.hostedLink.startsWith(`${SANDBOX_URL}/hosted/ramp?`));
    assert.equal(await publicClient().paymentRequest("ref-1001"), null, "references are case-sensitive");
    const tag = uniqueTag("hostile");
    const hostile = 'REF") { id } } mutation { x(a: "';
    assert.equal(await tagged(tag).paymentRequest(hostile), null);
    const [entry] = await requestsTagged(tag);
    assert.deepEqual(entry.variables, { reference: hostile });
    assert.ok(!entry.query.includes("mutation"));
    for (const bad of ["", "   ", null, 7]) {
      const e = await expectCode(assert, SettlementError, () => publicClient().paymentRequest(bad), "invalid_input");
      assert.equal(e.field, "reference");
    }
  });

  test("reads are retried like the bot queries (503 twice, then success)", async () => {
    const tag = uniqueTag("retry");
    const c = publicClient({ headers: { "x-sandbox-tag": tag, "x-sandbox-fault": "status=503;retry-after=0;fail-first=2" } });
    assert.equal((await c.rampLimits()).dailyLimitUsd, "10000.00");
    assert.deepEqual((await requestsTagged(tag)).map((r) => r.status), [503, 503, 200]);
  });

  test("fields and signal options are checked like the bot's", async () => {
    const e = await expectCode(assert, SettlementError, () => publicClient().availableCountries({ fields: ["id } x"] }), "invalid_input");
    assert.equal(e.field, "fields");
    const ac = new AbortController();
    ac.abort();
    await expectCode(assert, SettlementError, () => publicClient().rampableAssets({ signal: ac.signal }), "aborted");
  });
});

describe("parseAmount", () => {
  test("decimal text → exact minor units and scale", () => {
    assert.deepEqual(parseAmount("1520.00"), { minorUnits: 152000n, scale: 2 });
    assert.deepEqual(parseAmount("0"), { minorUnits: 0n, scale: 0 });
    assert.deepEqual(parseAmount("-12.5"), { minorUnits: -125n, scale: 1 });
    const big = "12345678901234567890123456.789012345678";
    assert.deepEqual(parseAmount(big), { minorUnits: 12345678901234567890123456789012345678n, scale: 12 });
    assert.equal(typeof parseAmount("1").minorUnits, "bigint");
  });

  test("exact arithmetic on a balance from the service", async () => {
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    const { accountBalance } = await merchant.account();
    assert.equal(typeof accountBalance, "string", "money is text, never a float");
    const { minorUnits, scale } = parseAmount(accountBalance);
    assert.equal(minorUnits * 3n, 456000n);
    assert.equal(scale, 2);
  });

  test("malformed text is refused (invalid_input, field amount)", async () => {
    for (const bad of ["", " 1", "1 ", ".5", "5.", "+5", "1e3", "1,000.00", "0x10", "NaN", "Infinity", "١٢", "1.2.3", 1.5, null, undefined]) {
      const e = await expectCode(assert, SettlementError, () => parseAmount(bad), "invalid_input");
      assert.equal(e.field, "amount", String(bad));
    }
    await expectCode(assert, SettlementError, () => parseAmount("9".repeat(39)), "invalid_input");
  });
});

describe("onchainRampUrl", () => {
  const RAMP = "https://ramp.example/onramp";
  const base = { rampUrl: RAMP, key: MERCHANT_PUBLIC_KEY, paymentType: "deposit", coin: "USDC", network: "CELO" };

  test("a minimal link: required parameters in order, nothing else", () => {
    assert.equal(onchainRampUrl(base), `${RAMP}?key=${MERCHANT_PUBLIC_KEY}&paymentType=deposit&coin=USDC&network=CELO`);
  });

  test("hostile values round-trip through new URL() intact; booleans as true/false; order kept", () => {
    const hostile = ["a b", "a&b=c", "#frag", "x=y&z", "100%", "+plus", "é ü 中文 🚀", "a/b?c#d", "\"q\" 'q'", "line\nbreak", "&&==##"];
    for (const v of hostile) {
      const link = onchainRampUrl({
        ...base, coin: v, network: v, address: v, reference: v, phone: v, amount: "25.00", currency: "NGN",
        redirectUrl: `https://shop.example/done?ref=${encodeURIComponent(v)}#top`, hideAddress: true, isWalletContext: false,
      });
      const url = new URL(link);
      assert.equal(url.origin + url.pathname, RAMP);
      assert.equal(url.hash, "", `no fragment leaked from ${JSON.stringify(v)}`);
      assert.deepEqual([...url.searchParams.keys()], [
        "key", "paymentType", "coin", "network", "address", "amount", "reference", "redirectUrl", "currency", "phone",
        "hideAddress", "isWalletContext",
      ]);
      const q = Object.fromEntries(url.searchParams);
      for (const k of ["coin", "network", "address", "reference", "phone"]) assert.equal(q[k], v, `${k} of ${JSON.stringify(v)}`);
      assert.equal(q.key, MERCHANT_PUBLIC_KEY);
      assert.equal(q.amount, "25.00");
      assert.equal(q.redirectUrl, `https://shop.example/done?ref=${encodeURIComponent(v)}#top`);
      assert.equal(q.hideAddress, "true");
      assert.equal(q.isWalletContext, "false");
    }
  });

  test("optional values that are absent, null or empty are left out", () => {
    const link = onchainRampUrl({ ...base, address: "", amount: undefined, reference: null, currency: "", hideAddress: undefined });
    assert.deepEqual([...new URL(link).searchParams.keys()], ["key", "paymentType", "coin", "network"]);
  });

  test("http only for localhost and 127.0.0.1 (the sandbox ramp page works)", () => {
    const ramp = `${process.env.SANDBOX_RAMP_URL || SANDBOX_URL}/hosted/ramp`;
    assert.ok(new URL(onchainRampUrl({ ...base, rampUrl: ramp })).href.startsWith(`${ramp}?key=`));
    assert.ok(onchainRampUrl({ ...base, rampUrl: "http://localhost:9/r" }).startsWith("http://localhost:9/r?"));
  });

  test("every refusal is invalid_input naming the option; a secret key is never echoed", async () => {
    const cases = [
      [{ rampUrl: "http://ramp.example/onramp" }, "rampUrl"],
      [{ rampUrl: "ramp.example/onramp" }, "rampUrl"],
      [{ rampUrl: `${RAMP}?x=1` }, "rampUrl"],
      [{ rampUrl: `${RAMP}#x` }, "rampUrl"],
      [{ rampUrl: undefined }, "rampUrl"],
      [{ key: MERCHANT_SECRET_KEY }, "key"],
      [{ key: "not-a-key" }, "key"],
      [{ key: undefined }, "key"],
      [{ paymentType: "refund" }, "paymentType"],
      [{ paymentType: "Deposit" }, "paymentType"],
      [{ coin: "" }, "coin"],
      [{ coin: "  " }, "coin"],
      [{ network: undefined }, "network"],
      [{ amount: "0" }, "amount"],
      [{ amount: "-5" }, "amount"],
      [{ amount: "1e3" }, "amount"],
      [{ amount: 25 }, "amount"],
      [{ currency: "NG" }, "currency"],
      [{ currency: "NGN1" }, "currency"],
      [{ redirectUrl: "/done" }, "redirectUrl"],
      [{ redirectUrl: "javascript:alert(1)" }, "redirectUrl"],
      [{ hideAddress: "true" }, "hideAddress"],
    ];
    for (const [change, field] of cases) {
      const e = await expectCode(assert, SettlementError, () => onchainRampUrl({ ...base, ...change }), "invalid_input");
      assert.equal(e.field, field, JSON.stringify(change));
      assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY));
    }
    const e = await expectCode(assert, SettlementError, () => onchainRampUrl({ ...base, key: MERCHANT_SECRET_KEY }), "invalid_input");
    assert.match(e.message, /public key/);
  });
});

describe("listenForRampEvents (Node, with an EventTarget)", () => {
  const ORIGIN = "https://ramp.example";
  const good = () => ({
    event: "crypto.requested",
    payload: { amountCents: 2500, destinationAddress: "0x5A4D", paymentRequest: { id: "pr_1", reference: "REF-1" } },
  });
  const post = (target, data, origin = ORIGIN) => target.dispatchEvent(new MessageEvent("message", { data, origin }));

  test("fires once for the right origin and shape; ignores the rest; unsubscribe stops it", () => {
    const target = new EventTarget();
    const calls = [];
    const stop = listenForRampEvents({ allowedOrigin: ORIGIN, target, onCryptoRequested: (p, e) => calls.push([p, e]) });
    assert.equal(typeof stop, "function");
    post(target, good(), "https://evil.example");
    post(target, good(), `${ORIGIN}/`);
    post(target, good(), "null");
    post(target, { ...good(), event: "crypto.sent" });
    post(target, { event: "crypto.requested" });
    post(target, { event: "crypto.requested", payload: { ...good().payload, amountCents: "2500" } });
    post(target, { event: "crypto.requested", payload: { ...good().payload, amountCents: Infinity } });
    post(target, { event: "crypto.requested", payload: { ...good().payload, destinationAddress: "" } });
    post(target, "crypto.requested");
    post(target, null);
    assert.equal(calls.length, 0, "nothing but the right message reaches the callback");
    post(target, good());
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0][0], good().payload);
    assert.equal(calls[0][1].origin, ORIGIN);
    stop();
    stop();
    post(target, good());
    assert.equal(calls.length, 1, "nothing after unsubscribe");
  });

  test("two listeners are independent", () => {
    const target = new EventTarget();
    let a = 0, b = 0;
    const stopA = listenForRampEvents({ allowedOrigin: ORIGIN, target, onCryptoRequested: () => { a += 1; } });
    const stopB = listenForRampEvents({ allowedOrigin: "https://other.example", target, onCryptoRequested: () => { b += 1; } });
    post(target, good());
    post(target, good(), "https://other.example");
    stopA();
    post(target, good());
    stopB();
    assert.deepEqual([a, b], [1, 1]);
  });

  test("invalid options throw invalid_input naming the option", async () => {
    const target = new EventTarget();
    const cb = () => {};
    for (const [opts, field] of [
      [{ allowedOrigin: `${ORIGIN}/`, onCryptoRequested: cb, target }, "allowedOrigin"],
      [{ allowedOrigin: "*", onCryptoRequested: cb, target }, "allowedOrigin"],
      // Never what MessageEvent.origin reports: the listener would stay silent forever.
      [{ allowedOrigin: "HTTPS://ramp.example", onCryptoRequested: cb, target }, "allowedOrigin"],
      [{ allowedOrigin: "https://ramp.example:443", onCryptoRequested: cb, target }, "allowedOrigin"],
      [{ onCryptoRequested: cb, target }, "allowedOrigin"],
      [{ allowedOrigin: ORIGIN, target }, "onCryptoRequested"],
      [{ allowedOrigin: ORIGIN, onCryptoRequested: "cb", target }, "onCryptoRequested"],
      [{ allowedOrigin: ORIGIN, onCryptoRequested: cb, target: {} }, "target"],
      [{ allowedOrigin: ORIGIN, onCryptoRequested: cb }, "target"], // Node's globalThis has no addEventListener
      [undefined, "allowedOrigin"],
    ]) {
      const e = await expectCode(assert, SettlementError, () => listenForRampEvents(opts), "invalid_input");
      assert.equal(e.field, field);
    }
  });
});

describe("client options", () => {
  test("headers must be a plain object: a Headers, Map or array is refused, not dropped", async () => {
    const seen = [];
    const fetch = async (request) => { seen.push(request); throw new Error("must not be called"); };
    for (const headers of [new Headers({ "x-a": "1" }), new Map([["x-a", "1"]]), [["x-a", "1"]], "x-a: 1"]) {
      const e = await expectCode(assert, SettlementError,
        () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY, headers, fetch }), "invalid_input");
      assert.equal(e.field, "headers");
    }
    // A plain object, also one without a prototype, is taken.
    const bare = Object.assign(Object.create(null), { "x-sandbox-tag": uniqueTag("bare-headers") });
    const rates = await publicClient({ headers: bare }).rampLimits();
    assert.ok(rates, "rampLimits answered");
    assert.equal((await requestsTagged(bare["x-sandbox-tag"])).length, 1);
    assert.equal(seen.length, 0);
  });

  test("header values beyond Latin-1 and non-ASCII keys are refused before any request", async () => {
    const fetch = async () => { throw new Error("must not be called"); };
    let e = await expectCode(assert, SettlementError,
      () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY, headers: { "x-a": "\u20ac" }, fetch }), "invalid_input");
    assert.equal(e.field, "headers.x-a");
    assert.ok(!e.message.includes("\u20ac"), "the value is not echoed");
    e = await expectCode(assert, SettlementError,
      () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: "SBX-PUBK_caf\u00e9", fetch }), "invalid_input");
    assert.equal(e.field, "apiKey");
    assert.ok(!serializeError(e).includes("caf\u00e9"), "the key is not echoed");
  });
});
