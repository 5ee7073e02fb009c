// Hostile values in Node: every hostile value ends in a result or a SettlementError with a documented
// code (no foreign error, trap, hang or uncaught error); the module survives repeated failures;
// partial keys are redacted; sizes are capped before allocating.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { SANDBOX_URL, AGENT_KEY, serializeError } from "./helpers.mjs";
import { hostileCases, repeatCases, settle, badOutcome, proxyBase, proxyRequest } from "./hostile.mjs";

// The module's memory and externref table, captured as the Node entry instantiates it; and its
// Core releases, counted: the glue's Core.free() calls the export `__wbg_core_free(ptr, 0)`
// (its finalizer passes 1), so the glue is given a copy of the exports with that one wrapped.
let wasmExports;
let coreReleases = 0;
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  wasmExports = Object.values(instance.exports);
  const release = instance.exports.__wbg_core_free;
  const counted = (ptr, byFinalizer) => {
    if (!byFinalizer) coreReleases++;
    return release(ptr, byFinalizer);
  };
  return { exports: { ...instance.exports, __wbg_core_free: counted } };
};
const api = await import("settlement-wasm");
WebAssembly.Instance = Instance;
const usage = () => ({
  memory: wasmExports.find((v) => v instanceof WebAssembly.Memory).buffer.byteLength,
  table: wasmExports.find((v) => v instanceof WebAssembly.Table).length,
});
const { BotClient, MerchantClient, SettlementError } = api;
const dts = readFileSync(new URL("./node_modules/settlement-wasm/node/settlement_wasm.d.ts", import.meta.url), "utf8");
/** The documented codes: the `SettlementErrorCode` union of the published declarations. */
const CODES = [...(/SettlementErrorCode = ([^;]+);/.exec(dts)[1]).matchAll(/"(\w+)"/g)].map((m) => m[1]);
const REPEAT = Number(process.env.HOSTILE_REPEAT || 3000);

const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(String(e && e.stack ? e.stack : e)));
process.on("unhandledRejection", (e) => uncaught.push(`unhandled rejection: ${String(e && e.stack ? e.stack : e)}`));

const works = async () => {
  const p = await new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ fields: ["id"] });
  assert.equal(p.id, "agent-1");
};

test("the documented codes are read from the declarations", () => {
  assert.ok(CODES.includes("invalid_input") && CODES.length >= 10, CODES.join());
});

test("the corpus's proxy request is forwarded, so its hostile answers reach the handler", async () => {
  // The proxy cases send this request with one hostile part; unchanged, it goes upstream once.
  let sent = 0;
  const base = proxyBase();
  const handler = api.createProxyHandler({ ...base, fetch: (url, init) => { sent++; return base.fetch(url, init); } });
  const r = await handler(proxyRequest());
  assert.equal(r.status, 200, await r.clone().text());
  assert.deepEqual(await r.json(), { data: { profile: { id: "agent-1" } } });
  assert.equal(sent, 1);
  assert.equal((await handler(proxyRequest({ fields: "x" }))).status, 403, "profile takes no variables");
});

test("hostile corpus: every argument set ends in a result or a documented SettlementError", async () => {
  const cases = hostileCases(api);
  const bad = [];
  for (const [name, run] of cases) {
    const why = badOutcome(await settle(run), SettlementError, CODES);
    if (why) bad.push(`${name}: ${why}`);
  }
  await new Promise((r) => setTimeout(r, 50));
  console.log(`hostile corpus: ${cases.length} cases, ${bad.length} bad, ${uncaught.length} uncaught`);
  assert.deepEqual(bad, []);
  assert.deepEqual(uncaught, []);
  await works();
});

test("revoked proxies, oversized arrays, fake signals and wrong receivers give invalid_input naming the argument", async () => {
  const bot = new BotClient({ endpoint: "https://settlement.invalid/graphql", fetch: () => assert.fail("no request") });
  const r = Proxy.revocable({}, {});
  r.revoke();
  const expectField = async (p, field) => {
    const o = await settle(() => p());
    assert.equal(o.kind, "error");
    assert.ok(o.e instanceof SettlementError, String(o.e));
    assert.equal(o.e.code, "invalid_input");
    assert.equal(o.e.field, field, o.e.message);
    return o.e;
  };
  await expectField(() => bot.profile(r.proxy), "options");
  await expectField(() => bot.orderHistory({ page: 1, filter: r.proxy }), "filter");
  await expectField(() => new BotClient({ endpoint: "/x", headers: r.proxy }), "headers");
  await expectField(() => new BotClient(r.proxy), "options");
  let e = await expectField(() => bot.profile({ fields: new Array(2 ** 32 - 1) }), "fields");
  assert.match(e.message, /more than 128 entries/);
  await expectField(() => bot.profile({ signal: Object.create(AbortSignal.prototype) }), "signal");
  await expectField(() => bot.profile({ signal: { aborted: false, addEventListener() { throw new Error("x"); }, removeEventListener() {} } }), "signal");
  await expectField(() => BotClient.prototype.profile.call({}), "this");
  await expectField(() => api.OrderIterator.prototype.next.call(bot), "this");
  const freed = new BotClient({ endpoint: "/x" });
  freed.free();
  await expectField(() => freed.profile(), "this");
  await expectField(() => freed.free(), "this");
  // A real AbortSignal still works, and aborts.
  const c = new AbortController();
  c.abort();
  const o = await settle(() => new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ signal: c.signal }));
  assert.equal(o.e.code, "aborted");
});

test("sizes are capped before allocating, each refusal naming the limit", async () => {
  const bot = new BotClient({ endpoint: "https://settlement.invalid/graphql", fetch: () => assert.fail("no request") });
  const refused = async (run, field, re) => {
    const o = await settle(run);
    assert.ok(o.e instanceof SettlementError, String(o.e));
    assert.equal(o.e.code, "invalid_input");
    assert.equal(o.e.field, field);
    assert.match(o.e.message, re);
  };
  await refused(() => bot.profile({ fields: ["a".repeat(10 * 1024 * 1024)] }), "fields", /longer than 256 characters/);
  await refused(() => bot.profile({ fields: ["a".repeat(65)] }), "fields", /name longer than 64 characters/);
  await refused(() => bot.profile({ fields: Array(129).fill("id") }), "fields", /more than 128 entries/);
  const headers = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`x-h${i}`, "v"]));
  await refused(() => new BotClient({ endpoint: "/x", headers }), "headers", /more than 32 entries/);
  await refused(() => new BotClient({ endpoint: "/x", headers: { "x-a": "v".repeat(4097) } }), "headers", /longer than 4096/);
  await refused(() => bot.orderHistory({ page: 1, filter: { orderId: "o".repeat(257) } }), "filter.orderId", /longer than 256/);
  await refused(() => bot.orderHistory({ page: 1, filter: { dateFrom: "2".repeat(257) } }), "filter.dateFrom", /longer than 256/);
  await refused(() => bot.request("{".repeat(100_001)), "document", /longer than 100000 characters/);
  await refused(() => bot.request("{ a }", { v: "v".repeat(1_000_001) }), "variables", /longer than 1000000 characters/);
  await refused(() => new BotClient({ baseUrl: `https://x.example/${"a".repeat(5000)}` }), "baseUrl", /longer than 4096/);
  // At the limits, accepted (up to the request).
  const ok = new BotClient({ endpoint: "https://settlement.invalid/graphql", fetch: async () => new Response("{\"data\":{\"profile\":{\"id\":\"x\"}}}") });
  assert.ok(await ok.profile({ fields: ["id"] }));
});

test(`repetition: ${REPEAT} of each failing case, then a normal call succeeds; nothing grows`, async () => {
  const before = usage();
  for (const [name, run] of repeatCases(api)) {
    for (let i = 0; i < REPEAT; i++) {
      const why = badOutcome(await settle(run), SettlementError, CODES);
      if (why) assert.fail(`${name}, repetition ${i}: ${why}`);
    }
  }
  const after = usage();
  // No leak per failure: neither wasm memory nor the externref table grows (one leaked slot
  // per failure would add thousands).
  assert.ok(after.memory - before.memory <= 65536, `wasm memory ${before.memory} -> ${after.memory}`);
  assert.ok(after.table - before.table <= 128, `externref table ${before.table} -> ${after.table}`);
  await works();
  assert.deepEqual(uncaught, []);
});

test("partial keys are redacted from every error text (custom fetch error, server message)", async () => {
  const key = "LEAK-SECK_q7Zr9Vx2Kp4Wm8Tn3Hj6";
  const pieces = ["q7Zr9Vx2Kp4Wm8Tn3Hj6", "LEAK-SECK_q7Zr9Vx2…", "Kp4Wm8Tn", "xx Tn3Hj6q7Zr9Vx2 yy"];
  const leaks = (text) => {
    for (let i = 0; i + 8 <= 20; i++) {
      const piece = "q7Zr9Vx2Kp4Wm8Tn3Hj6".slice(i, i + 8);
      if (text.includes(piece)) return piece;
    }
    return null;
  };
  for (const piece of pieces) {
    const thrower = new BotClient({ endpoint: "https://settlement.invalid/graphql", apiKey: key, maxRetries: 0,
      fetch: async () => { throw new Error(`proxy refused ${piece}`, { cause: { code: piece, message: piece } }); } });
    const server = new BotClient({ endpoint: "https://settlement.invalid/graphql", apiKey: key, maxRetries: 0,
      fetch: async () => new Response(JSON.stringify({
        errors: [{ message: `bad key ${piece}`, path: [piece], extensions: { hint: piece } }],
        data: { profile: { note: piece } },
      }), { status: 200 }) });
    for (const client of [thrower, server]) {
      const o = await settle(() => client.profile());
      assert.ok(o.e instanceof SettlementError);
      const text = serializeError(o.e) + String(o.e) + o.e.stack;
      assert.equal(leaks(text), null, text);
    }
  }
  // A key-shaped token in baseUrl, endpoint or a header value is refused without echoing it.
  for (const [opts, field] of [
    [{ baseUrl: "https://x.example/LEAK-SECK_q7Zr9Vx2" }, "baseUrl"],
    [{ endpoint: "/proxy/LEAK-SECK_q7Zr9Vx2/bot" }, "endpoint"],
    [{ endpoint: "/x", headers: { "x-key": "SBX-PUBK_q7Zr9Vx2" } }, "headers"],
  ]) {
    for (const C of [BotClient, MerchantClient]) {
      const o = await settle(() => new C(opts));
      assert.equal(o.e.code, "invalid_input");
      assert.equal(o.e.field, field);
      assert.equal(leaks(serializeError(o.e)), null, o.e.message);
    }
  }
});

test("free() while calls are in flight: they finish, a retry included; the client refuses new calls; its Core is released once", async () => {
  const before = coreReleases;
  const released = () => coreReleases - before;
  {
    const answers = [];
    const fetch = () => new Promise((resolve) => answers.push(resolve));
    const until = async (ok) => { for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10)); assert.ok(ok()); };
    const bot = new BotClient({ endpoint: "https://settlement.invalid/graphql", fetch, maxRetries: 2 });
    const a = bot.request("query A { a }");
    const b = bot.request("query B { b }");
    await until(() => answers.length === 2);
    bot.free();
    // The calls in flight do not need the Core: it may be released at once.
    assert.ok(released() <= 1, `released ${released()} times`);
    const refused = await settle(() => bot.request("query C { c }"));
    assert.equal(refused.e?.code, "invalid_input");
    assert.equal(refused.e?.field, "this");
    const again = await settle(() => bot.free());
    assert.equal(again.e?.field, "this", "a second free() is refused");
    answers[0](new Response('{"data":{"a":1}}'));
    assert.deepEqual(await a, { a: 1 });
    // b's first attempt fails with a 503: its retry is sent after free(), and succeeds.
    answers[1](new Response("", { status: 503 }));
    await until(() => answers.length === 3);
    answers[2](new Response('{"data":{"b":2}}'));
    assert.deepEqual(await b, { b: 2 });
    assert.equal(answers.length, 3, "no other request");
    assert.equal(released(), 1, "the Core is released once");
    // Freed at once when nothing is in flight.
    const idle = new BotClient({ endpoint: "https://settlement.invalid/graphql", fetch });
    idle.free();
    assert.equal(released(), 2);
  }
});
