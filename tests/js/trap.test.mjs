// Containment in one Node process: the package's test hook (only with
// SETTLEMENT_WASM_TEST_HOOKS=1, set here before the package is loaded) breaks the one wasm
// instance the way an unbounded recursion would (its stack overflows and its stack pointer is
// left at the bottom). The next call into it traps: that call ends in `internal`, the entry
// replaces the instance, and every later call works, through the proxy and the clients alike,
// the clients made before the trap included. Then the hostile bodies of the corpus and the
// deepest and longest generated ones go through the proxy, and 1,000 ordinary calls after them
// (proxy and server MerchantClient) must all succeed.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { readFileSync } from "node:fs";
import { SANDBOX_URL, AGENT_KEY, MERCHANT_SECRET_KEY } from "./helpers.mjs";

process.env.SETTLEMENT_WASM_TEST_HOOKS = "1";
const { BotClient, MerchantClient, SettlementError, createProxyHandler } = await import("settlement-wasm");
const hooks = globalThis[Symbol.for("settlement-wasm.test")];
const CORPUS = JSON.parse(readFileSync(new URL("../proxy/bypass.json", import.meta.url), "utf8"));
const KEYS = [AGENT_KEY, MERCHANT_SECRET_KEY];

async function serve(handler) {
  const server = createServer(async (req, res) => {
    const r = await handler(new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : Readable.toWeb(req), duplex: "half" }));
    const text = await r.text();
    res.writeHead(r.status, Object.fromEntries(r.headers)).end(text);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, text, json };
}

const PROFILE = JSON.stringify({ query: "query Profile { profile { id email } }", operationName: "Profile" });

/** The internal error of a trapped call: typed, and nothing of a stack or a key in its message. */
function assertInternal(e) {
  assert.ok(e instanceof SettlementError, `a SettlementError: ${e}`);
  assert.equal(e.code, "internal");
  assert.doesNotMatch(e.message, /RuntimeError|RangeError|wasm-function|\.wasm|at /);
  for (const key of KEYS) assert.ok(!e.message.includes(key.slice(-8)));
}

describe("a trap is contained: the instance is replaced before the next call", () => {
  let proxy;
  before(async () => {
    assert.ok(hooks, "the test hooks are exposed with SETTLEMENT_WASM_TEST_HOOKS=1");
    proxy = await serve(createProxyHandler({ endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile", "withdrawalInfo"] }));
  });
  after(() => proxy.close());

  test("BotClient: the call that traps ends in internal; the same client works after", async () => {
    const bot = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY });
    await bot.profile();
    const before = hooks.generation();
    assert.equal(hooks.breakInstance(), "RuntimeError");
    const e = await bot.profile().then(() => null, (e) => e);
    assertInternal(e);
    assert.equal(hooks.generation(), before + 1, "replaced once");
    const p = await bot.profile();
    assert.equal(typeof p.id, "string");
    // Again, from the fresh instance.
    hooks.breakInstance();
    assertInternal(await bot.profile().then(() => null, (e) => e));
    assert.equal((await bot.profile()).id, p.id);
    assert.equal(hooks.generation(), before + 2);
  });

  test("events: a call that traps after its request still ends with error (internal) and done, one call id", async () => {
    const TYPES = ["request", "response", "retry", "error", "done"];
    let breakNext = true;
    // The instance breaks while the call is in flight: its next use (the response event) traps.
    const bot = new BotClient({
      baseUrl: SANDBOX_URL, apiKey: AGENT_KEY,
      fetch: async (request) => {
        if (breakNext) {
          breakNext = false;
          hooks.breakInstance();
        }
        return fetch(request);
      },
    });
    const events = [];
    for (const t of TYPES) bot.on(t, (e) => events.push(e));
    const before = hooks.generation();
    const e = await bot.profile().then(() => null, (e) => e);
    assertInternal(e);
    assert.equal(hooks.generation(), before + 1, "replaced once");
    assert.deepEqual(events.map((x) => x.type), ["request", "error", "done"]);
    const id = events[0].callId;
    assert.ok(events.every((x) => x.callId === id && x.operation === "profile" && x.kind === "query" && x.source === "call"));
    assert.equal(events[1].error, e);
    assert.equal(events[2].attempts, 1);
    assert.ok(Number.isInteger(events[2].durationMs));
    // The next call runs on the fresh instance, observed as usual.
    events.length = 0;
    await bot.profile();
    assert.deepEqual(events.map((x) => x.type), ["request", "response", "done"]);
  });

  test("server MerchantClient: made before the trap, works after it", async () => {
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    await merchant.account();
    hooks.breakInstance();
    assertInternal(await merchant.account().then(() => null, (e) => e));
    const account = await merchant.account();
    assert.ok(account);
  });

  test("the proxy: 500 PROXY_ERROR for the request that traps, then every request works", async () => {
    const url = `${proxy.origin}/api/bot`;
    assert.equal((await post(url, PROFILE)).status, 200);
    hooks.breakInstance();
    const trapped = await post(url, PROFILE);
    assert.equal(trapped.status, 500, trapped.text);
    assert.equal(trapped.json.errors[0].extensions.code, "PROXY_ERROR");
    assert.doesNotMatch(trapped.text, /RuntimeError|wasm-function|at /);
    for (let i = 0; i < 5; i++) assert.equal((await post(url, PROFILE)).status, 200);
    const refused = await post(url, JSON.stringify({ query: "{".repeat(5000), operationName: "Profile" }));
    assert.equal(refused.status, 403);
    const res = await fetch(url, { method: "GET" });
    assert.equal(res.status, 405);
  });

  test("functions: a trap in one is internal, and the next works", async () => {
    const { parseAmount } = await import("settlement-wasm");
    hooks.breakInstance();
    let e = null;
    try { parseAmount("1.50"); } catch (err) { e = err; }
    assertInternal(e);
    assert.deepEqual(parseAmount("1.50"), { minorUnits: 150n, scale: 2 });
  });
});

describe("after hostile bodies, 1,000 ordinary calls in the same process all succeed", () => {
  test("the 5,000-brace body, the corpus, the deepest and longest bodies, then 1,000 calls", async (t) => {
    const bot = await serve(createProxyHandler({ endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: CORPUS.allow.bot }));
    t.after(bot.close);
    const merchantProxy = await serve(createProxyHandler({ endpoint: "merchant", baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY, allow: CORPUS.allow.merchant }));
    t.after(merchantProxy.close);
    const generation = hooks.generation();
    const hostile = [
      JSON.stringify({ query: "{".repeat(5000), operationName: "Profile" }),
      JSON.stringify({ query: `query Profile { profile ${"{ a ".repeat(5000)}${"}".repeat(5001)}`, operationName: "Profile" }),
      JSON.stringify({ query: `query Profile { profile(x: ${"[".repeat(20000)}) { id } }`, operationName: "Profile" }),
      `{"query":"query Profile { profile { id } }","operationName":"Profile","variables":{"a":${"[".repeat(30000)}${"]".repeat(30000)}}}`,
      JSON.stringify({ query: `query Profile { profile { id } } ${"!".repeat(60000)}`, operationName: "Profile" }),
      JSON.stringify({ query: `query Profile { profile { ${"x".repeat(60000)} } }`, operationName: "Profile" }),
      JSON.stringify({ query: "query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { address } }", variables: { symbol: "U".repeat(5000) }, operationName: "WithdrawalInfo" }),
      ...CORPUS.attempts.filter((a) => a.endpoint === "bot").map((a) => a.body),
    ];
    for (const body of hostile) {
      const r = await post(`${bot.origin}/api/bot`, body);
      assert.ok([400, 403, 413].includes(r.status), `${r.status}: ${r.text.slice(0, 200)}`);
    }
    assert.equal(hooks.generation(), generation, "no hostile body trapped the instance");
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    let ok = 0;
    for (let i = 0; i < 1000; i++) {
      if (i % 2 === 0) {
        const r = await post(`${bot.origin}/api/bot`, PROFILE);
        assert.equal(r.status, 200, r.text);
      } else if (i % 4 === 1) {
        const r = await post(`${merchantProxy.origin}/api/merchant`,
          JSON.stringify({ query: "query MarketRate($countryCode: String!) { marketRate(countryCode: $countryCode) { depositRate } }", variables: { countryCode: "NG" }, operationName: "MarketRate" }));
        assert.equal(r.status, 200, r.text);
      } else {
        await merchant.account();
      }
      ok++;
    }
    assert.equal(ok, 1000);
  });
});

describe("generated hostile bodies through the Node handler", () => {
  test("300 seeded bodies: no trap, no 500, nothing forwarded the client would not send; then a normal call", async () => {
    const { runGenerated } = await import("./generated.mjs");
    const forwarded = [];
    const handler = createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY,
      allow: ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal"],
      // Queries reach the sandbox; a mutation is answered here (the sandbox's orders stay put).
      fetch: (url, init) => {
        forwarded.push(init.body);
        return /^\{"query":"mutation/.test(init.body)
          ? Promise.resolve(new Response('{"data":null}', { status: 200, headers: { "content-type": "application/json" } }))
          : fetch(url, init);
      },
    });
    const generation = hooks.generation();
    const figures = await runGenerated(handler, forwarded, { seed: Number(process.env.GENERATED_SEED ?? 28), count: 300 });
    assert.equal(hooks.generation(), generation, "no generated body trapped the instance");
    const ok = await handler(new Request("http://localhost/api/bot", { method: "POST", body: PROFILE }));
    assert.equal(ok.status, 200);
    console.log(`generated bodies: ${JSON.stringify(figures)}`);
  });
});
