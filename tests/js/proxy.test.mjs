// createProxyHandler in front of the sandbox, served by a real Node `http` server with the
// README's two-line wrapper; the sandbox's request log (tagged by the upstream `fetch`
// option) shows exactly what reached the service. Clients on the page side have no key.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BotClient, MerchantClient, SettlementError, createProxyHandler } from "settlement-wasm";
import {
  SANDBOX_URL, AGENT_KEY, AGENT3_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, uniqueTag, requestsTagged, settledLog,
} from "./helpers.mjs";

const AGENT2_KEY = process.env.AGENT2_KEY;
const KEYS = [AGENT_KEY, AGENT2_KEY, AGENT3_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY];
const CORPUS = JSON.parse(readFileSync(new URL("../proxy/bypass.json", import.meta.url), "utf8"));

/** Every text a proxy answered in this file: none may hold a key or an 8-character piece of one. */
const answered = [];

/**
 * Whether `text` (an answer) holds a key or its secret part anywhere, or, outside a JSON
 * answer's `data` (the service's answer itself, which may hold real words of the sandbox's
 * low-entropy demo keys, such as "merchant"), any run of 8 characters of a secret part.
 */
function leaksKey(text) {
  let outsideData = text;
  try {
    const { data: _, ...rest } = JSON.parse(text);
    outsideData = JSON.stringify(rest);
  } catch { /* not JSON: all of it */ }
  for (const key of KEYS) {
    const secret = key.replace(/^.*?(PUBK_|SECK_)/, "");
    if (text.includes(key) || text.includes(secret)) return key;
    for (let i = 0; i + 8 <= secret.length; i++) if (outsideData.includes(secret.slice(i, i + 8))) return key;
  }
  return null;
}

/** The upstream `fetch` option: the global fetch, with the sandbox's log tag (and a fault). */
function taggedFetch(tag, fault) {
  return (url, init) => {
    const headers = { ...init.headers, "x-sandbox-tag": tag };
    if (fault) headers["x-sandbox-fault"] = fault;
    return fetch(url, { ...init, headers });
  };
}

/**
 * Serves `handler` on 127.0.0.1 with the README's Node `http` wrapper; resolves to the
 * server's origin and a close function. Every answer's text is recorded for the leak check.
 */
async function serve(handler, { record = true } = {}) {
  const server = createServer(async (req, res) => {
    // The README's two lines:
    const r = await handler(new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : Readable.toWeb(req), duplex: "half" }));
    const text = await r.text();
    if (record) answered.push(text);
    res.writeHead(r.status, Object.fromEntries(r.headers)).end(text);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** POSTs `body` (text) to `url`; resolves to `{ status, headers, text, json }`. */
async function post(url, body, headers = {}) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

const BOT_METHODS = ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal", "cancelWithdrawal",
  "markDepositAsReceived", "markWithdrawalAsPaid", "updateRates", "updatePaymentMethodLiquidity"];
const MERCHANT_METHODS = ["account", "availableCountries", "paymentMethodTypes", "marketRate", "rampLimits",
  "rampableAssets", "paymentRequest"];

/** Each bot method with arguments the sandbox answers (agent 2's state is reset around this file). */
const BOT_CALLS = [
  ["profile", (c) => c.profile()],
  ["profile (fields)", (c) => c.profile({ fields: ["id", "email"] })],
  ["orderHistory", (c) => c.orderHistory({ page: 1, perPage: 5, filter: { status: "completed", dateFrom: "2026-01-01" } })],
  ["orderHistory (fields)", (c) => c.orderHistory({ page: 1, fields: ["id", "status"] })],
  ["withdrawalInfo", (c) => c.withdrawalInfo("usdc")],
  ["acceptWithdrawal", (c) => c.acceptWithdrawal("p2p_999999")],
  ["cancelWithdrawal", (c) => c.cancelWithdrawal("p2p_999999")],
  ["markDepositAsReceived", (c) => c.markDepositAsReceived("p2p_999999")],
  ["markWithdrawalAsPaid", (c) => c.markWithdrawalAsPaid({ p2pPayment: "p2p_999999", paymentMethod: "pm_200002" })],
  ["updateRates", (c) => c.updateRates({ depositRate: "15.55" })],
  ["updatePaymentMethodLiquidity", (c) => c.updatePaymentMethodLiquidity({ paymentMethodType: "mtn_momo", amountLocal: "4200.00" })],
];
const MERCHANT_CALLS = [
  ["account", (c) => c.account()],
  ["availableCountries", (c) => c.availableCountries()],
  ["paymentMethodTypes", (c) => c.paymentMethodTypes("1")],
  ["paymentMethodTypes (unknown country)", (c) => c.paymentMethodTypes("99")],
  ["marketRate", (c) => c.marketRate("ng")],
  ["rampLimits", (c) => c.rampLimits()],
  ["rampableAssets", (c) => c.rampableAssets()],
  ["paymentRequest", (c) => c.paymentRequest("no-such-reference")],
];

/** The value or the error (its code and message) a call settles with: what must match. */
async function settle(promise) {
  try {
    return { value: await promise };
  } catch (e) {
    assert.ok(e instanceof SettlementError, `a SettlementError: ${e}`);
    return { code: e.code, message: e.message, status: e.status };
  }
}

const resetAgent2 = async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=2`, { method: "DELETE" });
  assert.equal(res.status, 204);
};
before(resetAgent2);
after(resetAgent2);
after(() => {
  assert.ok(answered.length > 80, `${answered.length} answers checked`);
  for (const text of answered) assert.equal(leaksKey(text), null, `an answer holds a key: ${text.slice(0, 200)}`);
});

describe("every allowed method works through the proxy, as it does directly", () => {
  test("BotClient({ endpoint }) with no apiKey: each method, the same result or error as direct", async (t) => {
    const tag = uniqueTag("proxy-bot");
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT2_KEY, allow: BOT_METHODS, fetch: taggedFetch(tag),
    }));
    t.after(proxy.close);
    const viaProxy = new BotClient({ endpoint: `${proxy.origin}/api/bot` });
    const direct = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT2_KEY });
    for (const [name, call] of BOT_CALLS) {
      await resetAgent2();
      const expected = await settle(call(direct));
      await resetAgent2();
      const got = await settle(call(viaProxy));
      assert.deepEqual(got, expected, name);
    }
    const log = await settledLog(tag, BOT_CALLS.length);
    assert.equal(log.length, BOT_CALLS.length, "one upstream request per call");
    assert.ok(log.every((e) => e.hasAuthorization && e.status === 200));
    // At least one success and one GraphQL error among them (not every call refused alike).
    const outcomes = await Promise.all(BOT_CALLS.map(([, call]) => settle(call(viaProxy))));
    assert.ok(outcomes.some((o) => "value" in o) && outcomes.some((o) => o.code === "graphql"));
  });

  test("orders() (the pager over orderHistory) through the proxy", async (t) => {
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["orderHistory"],
    }));
    t.after(proxy.close);
    const viaProxy = new BotClient({ endpoint: `${proxy.origin}/api/bot` });
    const direct = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY });
    const all = async (c) => { const rows = []; for await (const o of c.orders({ perPage: 25 })) rows.push(o.id); return rows; };
    const rows = await all(viaProxy);
    assert.ok(rows.length > 25);
    assert.deepEqual(rows, await all(direct));
  });

  test("MerchantClient({ endpoint }) with no apiKey: each method, with the secret key on the server", async (t) => {
    const tag = uniqueTag("proxy-merchant");
    const proxy = await serve(createProxyHandler({
      endpoint: "merchant", baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY, allow: MERCHANT_METHODS, fetch: taggedFetch(tag),
    }));
    t.after(proxy.close);
    const viaProxy = new MerchantClient({ endpoint: `${proxy.origin}/api/merchant` });
    const direct = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    for (const [name, call] of MERCHANT_CALLS) {
      assert.deepEqual(await settle(call(viaProxy)), await settle(call(direct)), name);
    }
    const account = await viaProxy.account();
    assert.ok(account.id, "account() (a secret-key call) answered through the proxy");
    assert.equal((await settledLog(tag, MERCHANT_CALLS.length + 1)).length, MERCHANT_CALLS.length + 1);
  });

  test("apiKey as a function: each request's own key (a multi-user dashboard)", async (t) => {
    const keys = { one: AGENT_KEY, three: AGENT3_KEY };
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, allow: ["profile"],
      apiKey: async (request) => keys[request.headers.get("x-user")],
    }));
    t.after(proxy.close);
    const as = (user) => new BotClient({ endpoint: `${proxy.origin}/api/bot`, headers: { "x-user": user } });
    const one = await as("one").profile({ fields: ["id"] });
    const three = await as("three").profile({ fields: ["id"] });
    assert.deepEqual(one, await new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ fields: ["id"] }));
    assert.deepEqual(three, await new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT3_KEY }).profile({ fields: ["id"] }));
    assert.notEqual(one.id, three.id);
    // No key for this user: 500, nothing upstream.
    const none = await post(`${proxy.origin}/api/bot`, JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" }), { "x-user": "nobody" });
    assert.equal(none.status, 500);
    assert.equal(none.json.errors[0].extensions.code, "PROXY_MISCONFIGURED");
  });
});

describe("the bypass corpus: 403 FORBIDDEN_OPERATION (or its 400), nothing upstream", () => {
  test(`${CORPUS.attempts.length} attempts (at least 40)`, async (t) => {
    assert.ok(CORPUS.attempts.length >= 40);
    const tag = uniqueTag("proxy-bypass");
    const proxies = {};
    for (const endpoint of ["bot", "merchant"]) {
      proxies[endpoint] = await serve(createProxyHandler({
        endpoint, baseUrl: SANDBOX_URL, allow: CORPUS.allow[endpoint], fetch: taggedFetch(tag),
        apiKey: endpoint === "bot" ? AGENT_KEY : MERCHANT_SECRET_KEY,
      }));
      t.after(proxies[endpoint].close);
    }
    for (const { name, endpoint, body, status = 403 } of CORPUS.attempts) {
      const r = await post(`${proxies[endpoint].origin}/api/${endpoint}`, body);
      assert.equal(r.status, status, `${name}: ${r.text}`);
      assert.equal(r.json?.errors?.[0]?.extensions?.code, status === 403 ? "FORBIDDEN_OPERATION" : "BAD_REQUEST", name);
      assert.equal(typeof r.json.errors[0].message, "string");
    }
    assert.deepEqual(await settledLog(tag, 0, { settleMs: 500 }), [], "nothing reached the service");
    // The same proxies do forward what the client sends (the refusals are the attempts' own).
    const ok = await post(`${proxies.bot.origin}/api/bot`,
      JSON.stringify({ query: "query Profile { profile { id email } }", operationName: "Profile" }));
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await settledLog(tag, 1)).length, 1);
  });

  test("a method that is not in allow is refused, even as the client sends it", async (t) => {
    const tag = uniqueTag("proxy-notallowed");
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT2_KEY, allow: ["profile"], fetch: taggedFetch(tag),
    }));
    t.after(proxy.close);
    const c = new BotClient({ endpoint: `${proxy.origin}/api/bot` });
    const e = await c.acceptWithdrawal("p2p_999999").then(() => null, (e) => e);
    assert.ok(e instanceof SettlementError);
    assert.equal(e.status, 403);
    assert.match(e.message, /not allowed/);
    assert.deepEqual(await settledLog(tag, 0, { settleMs: 300 }), []);
  });
});

describe("refusals", () => {
  let proxy;
  let tag;
  before(async () => {
    tag = uniqueTag("proxy-refusals");
    proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"], maxBodyBytes: 1024,
      fetch: taggedFetch(tag),
      authorize: (request) => {
        const who = request.headers.get("x-session");
        if (who === "throw") throw new Error("db password hunter2 at session.js:12");
        return who === "ok";
      },
    }));
  });
  after(() => proxy.close());
  const url = () => `${proxy.origin}/api/bot`;
  const PROFILE = JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" });
  const code = (r) => r.json?.errors?.[0]?.extensions?.code;

  test("not POST: 405", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await fetch(url(), { method, headers: { "x-session": "ok" }, body: method === "GET" ? undefined : PROFILE });
      const text = await res.text();
      answered.push(text);
      assert.equal(res.status, 405, method);
      assert.equal(JSON.parse(text).errors[0].extensions.code, "METHOD_NOT_ALLOWED");
    }
  });

  test("authorize false or throwing: 401, with nothing of what it threw", async () => {
    for (const session of [undefined, "no", "throw"]) {
      const r = await post(url(), PROFILE, session ? { "x-session": session } : {});
      assert.equal(r.status, 401, String(session));
      assert.equal(code(r), "UNAUTHENTICATED");
      assert.doesNotMatch(r.text, /hunter2|session\.js|\bat\b.*:\d+/);
    }
  });

  test("not JSON: 400", async () => {
    for (const body of ["query Profile { profile { id } }", "{", "", "\u00ff\u00fe"]) {
      const r = await post(url(), body, { "x-session": "ok" });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(code(r), "BAD_REQUEST");
    }
  });

  test("a body over maxBodyBytes: 413 while the caller is still sending (the rest is never read)", async () => {
    const { origin } = new URL(url());
    const { hostname, port } = new URL(origin);
    const answer = await new Promise((resolve, reject) => {
      const req = httpRequest({ hostname, port, path: "/api/bot", method: "POST",
        headers: { "content-type": "application/json", "x-session": "ok", "transfer-encoding": "chunked" } }, (res) => {
        let text = "";
        res.on("data", (d) => { text += d; });
        res.on("end", () => { answered.push(text); resolve({ status: res.statusCode, text }); req.destroy(); });
      });
      req.on("error", reject);
      // A handler that waits for the whole body never answers: fail after a generous 30 s.
      setTimeout(() => { req.destroy(); reject(new Error("no answer while the body was still open")); }, 30_000).unref();
      // 2 KB, then nothing more: the body never ends. Only a handler that stops at the limit answers.
      req.write(`{"query":"${" ".repeat(2048)}`);
    });
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.text).errors[0].extensions.code, "PAYLOAD_TOO_LARGE");
    // A declared Content-Length over the limit: refused before reading.
    const big = await post(url(), JSON.stringify({ query: " ".repeat(5000) }), { "x-session": "ok" });
    assert.equal(big.status, 413);
  });

  test("nothing of the refused requests reached the service", async () => {
    assert.deepEqual(await settledLog(tag, 0, { settleMs: 300 }), []);
  });

  test("the service unreachable: 502", async (t) => {
    const closed = await serve(() => new Response(""), { record: false });
    const deadOrigin = closed.origin;
    await closed.close();
    const p = await serve(createProxyHandler({ endpoint: "bot", baseUrl: deadOrigin, apiKey: AGENT_KEY, allow: ["profile"] }));
    t.after(p.close);
    const r = await post(`${p.origin}/api/bot`, PROFILE);
    assert.equal(r.status, 502);
    assert.equal(code(r), "BAD_GATEWAY");
    const e = await new BotClient({ endpoint: `${p.origin}/api/bot`, maxRetries: 0 }).profile().then(() => null, (e) => e);
    assert.ok(e instanceof SettlementError && e.status === 502, String(e));
  });

  test("invalid options throw SettlementError naming the option", () => {
    const base = { endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"] };
    for (const [change, field] of [
      [{ endpoint: "admin" }, "endpoint"], [{ baseUrl: "ftp://x" }, "baseUrl"], [{ allow: [] }, "allow"],
      [{ allow: ["account"] }, "allow"], [{ allow: "profile" }, "allow"], [{ maxBodyBytes: 0 }, "maxBodyBytes"],
      [{ apiKey: 42 }, "apiKey"], [{ apiKey: " " }, "apiKey"], [{ authorize: "yes" }, "authorize"], [{ fetch: {} }, "fetch"],
    ]) {
      assert.throws(() => createProxyHandler({ ...base, ...change }), (e) => e instanceof SettlementError &&
        e.code === "invalid_input" && e.field === field, JSON.stringify(change));
    }
    const throwing = Object.defineProperty({ ...base }, "allow", { get() { throw new Error("the caller's own"); } });
    assert.throws(() => createProxyHandler(throwing), (e) => e instanceof SettlementError && e.field === "allow");
    assert.throws(() => createProxyHandler(undefined), (e) => e instanceof SettlementError && e.code === "invalid_input");
  });

  test("a request whose values cannot be read: 500 PROXY_ERROR, never a foreign exception", async () => {
    const handler = createProxyHandler({ endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"] });
    const hostile = new Proxy(new Request("http://localhost/api/bot", { method: "POST", body: "{}" }), {
      get(target, name) { if (name === "method" || name === "body") throw new Error("hostile"); return Reflect.get(target, name); },
    });
    for (const [request, status, code] of [[hostile, 500, "PROXY_ERROR"], [null, 500, "PROXY_ERROR"], [{}, 405, "METHOD_NOT_ALLOWED"]]) {
      const r = await handler(request);
      const text = await r.text();
      answered.push(text);
      assert.equal(r.status, status, text);
      assert.equal(JSON.parse(text).errors[0].extensions.code, code);
    }
  });
});

describe("headers, keys and mutations", () => {
  test("upstream gets only Authorization (the server's key) and Content-Type: never the caller's headers", async (t) => {
    const tag = uniqueTag("proxy-headers");
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"], fetch: taggedFetch(tag),
    }));
    t.after(proxy.close);
    const c = new BotClient({ endpoint: `${proxy.origin}/api/bot`, headers: {
      "x-evil": "1", "x-sandbox-fault": "status=500", "x-forwarded-for": "10.0.0.1", cookie: "session=abc",
    } });
    const r = await post(`${proxy.origin}/api/bot`, JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" }),
      { authorization: `Bearer ${AGENT3_KEY}`, cookie: "session=abc", "x-evil": "1", "x-sandbox-fault": "status=500" });
    assert.equal(r.status, 200, r.text);
    const agent1 = await new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ fields: ["id"] });
    assert.deepEqual(r.json.data.profile, agent1, "the server's key answered, not the caller's Authorization");
    assert.deepEqual(await c.profile({ fields: ["id"] }), agent1);
    const log = await settledLog(tag, 2);
    assert.equal(log.length, 2);
    for (const entry of log) {
      assert.ok(entry.headerNames.includes("authorization") && entry.headerNames.includes("content-type"));
      for (const h of ["cookie", "x-evil", "x-sandbox-fault", "x-forwarded-for", "origin", "referer"]) {
        assert.ok(!entry.headerNames.includes(h), `${h} was forwarded`);
      }
      assert.equal(entry.fault, null);
    }
  });

  test("the service's answers are redacted as the clients redact them (a misbehaving upstream echoing the key)", async (t) => {
    const echo = await serve(async (request) => new Response(JSON.stringify({
      errors: [{ message: `bad key ${request.headers.get("authorization")}`, extensions: { hint: AGENT_KEY.slice(-12) } }],
    }), { status: 401, headers: { "content-type": "application/json" } }), { record: false });
    t.after(echo.close);
    const proxy = await serve(createProxyHandler({ endpoint: "bot", baseUrl: echo.origin, apiKey: AGENT_KEY, allow: ["profile"] }));
    t.after(proxy.close);
    const r = await post(`${proxy.origin}/api/bot`, JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" }));
    assert.equal(r.status, 401);
    assert.equal(leaksKey(r.text), null, r.text);
    assert.match(r.json.errors[0].message, /^bad key Bearer \[redacted\]/);
    const e = await new BotClient({ endpoint: `${proxy.origin}/api/bot` }).profile().then(() => null, (e) => e);
    assert.equal(e.code, "unauthorized");
  });

  test("a mutation is sent once on a 503 (neither the proxy nor the client retries it); a query is retried by the client", async (t) => {
    const tag = uniqueTag("proxy-503");
    const proxy = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT2_KEY, allow: ["acceptWithdrawal", "profile"],
      fetch: taggedFetch(tag, "status=503; retry-after=0"),
    }));
    t.after(proxy.close);
    const c = new BotClient({ endpoint: `${proxy.origin}/api/bot`, maxRetries: 3 });
    const e = await c.acceptWithdrawal("p2p_999999").then(() => null, (e) => e);
    assert.ok(e instanceof SettlementError);
    assert.equal(e.status, 503);
    const log = await settledLog(tag, 1, { settleMs: 500 });
    assert.equal(log.length, 1, "the mutation reached the service once");
    assert.equal(log[0].operationName, "AcceptWithdrawal");

    const qtag = uniqueTag("proxy-503q");
    const q = await serve(createProxyHandler({
      endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, allow: ["profile"],
      fetch: taggedFetch(qtag, "status=503; retry-after=0; fail-first=1"),
    }));
    t.after(q.close);
    const profile = await new BotClient({ endpoint: `${q.origin}/api/bot`, maxRetries: 3 }).profile({ fields: ["id"] });
    assert.ok(profile.id);
    assert.equal((await settledLog(qtag, 2)).length, 2, "the query: a 503, then its retry");
  });
});

describe("the README's proxy routes run as written (Node http, Express, Hono)", () => {
  const readme = readFileSync(new URL("./node_modules/settlement-wasm/README.md", import.meta.url), "utf8");
  const examples = Object.fromEntries([...readme.matchAll(/```js proxy-example ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
  // Beside the installed package, so that `import "settlement-wasm"` (and express, hono from the
  // repository's dev dependencies) resolve as in an app.
  const dir = new URL("./node_modules/.readme-proxy/", import.meta.url);
  const write = (name) => {
    mkdirSync(dir, { recursive: true });
    const file = new URL(`${name}.mjs`, dir);
    writeFileSync(file, examples[name]);
    return file;
  };
  const env = { SETTLEMENT_URL: SANDBOX_URL, AGENT_KEY, MERCHANT_SECRET_KEY };
  const freePort = async () => {
    const s = createServer();
    await new Promise((resolve) => s.listen(0, "127.0.0.1", resolve));
    const { port } = s.address();
    await new Promise((resolve) => s.close(resolve));
    return port;
  };
  /** Runs the example `name` as its own Node process on a free port; resolves once it answers. */
  const start = async (t, name) => {
    const port = await freePort();
    const child = spawn(process.execPath, [fileURLToPath(write(name))], {
      env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "inherit", "inherit"],
    });
    t.after(() => { if (child.exitCode === null) process.kill(child.pid); });
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await fetch(origin, { method: "POST", body: "{}" });
        return origin;
      } catch (e) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${name} did not start: ${e}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  test("the README has the five runnable routes", () => {
    // Node http, Express and Hono run here; the Next.js route and the Workers script need
    // their own tools, and run in the consumers layer (tests/consumers/runtimes.test.mjs).
    assert.deepEqual(Object.keys(examples).sort(), ["express", "hono", "nextjs", "node-http", "workers"]);
  });

  test("Node http: BotClient({ endpoint }) with no key; a refused document is 403", async (t) => {
    const origin = await start(t, "node-http");
    const c = new BotClient({ endpoint: `${origin}/api/bot` });
    const direct = new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY });
    assert.deepEqual(await c.profile(), await direct.profile());
    assert.deepEqual(await c.orderHistory({ page: 2, perPage: 3 }), await direct.orderHistory({ page: 2, perPage: 3 }));
    const r = await post(`${origin}/api/bot`, JSON.stringify({ query: "query Profile { profile { apiKey } }", operationName: "Profile" }));
    assert.equal(r.status, 403);
    answered.push(r.text);
    assert.equal((await fetch(`${origin}/api/bot`)).status, 405);
  });

  test("Express: MerchantClient({ endpoint }) with no key, account() with the server's secret key", async (t) => {
    const origin = await start(t, "express");
    const c = new MerchantClient({ endpoint: `${origin}/api/merchant` });
    const direct = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    assert.deepEqual(await c.account(), await direct.account());
    assert.deepEqual(await c.marketRate("NG"), await direct.marketRate("NG"));
    const e = await c.rampLimits().then(() => null, (e) => e);
    assert.ok(e instanceof SettlementError && e.status === 403, "rampLimits is not in the example's allow list");
  });

  test("Hono: app.request through the route", async () => {
    // The module reads its settings from process.env when it loads, as in an app.
    Object.assign(process.env, env);
    const { default: app } = await import(write("hono").href);
    const body = JSON.stringify({ query: "query Profile { profile { id } }", operationName: "Profile" });
    const ok = await app.request("/api/bot", { method: "POST", headers: { "content-type": "application/json" }, body });
    const text = await ok.text();
    answered.push(text);
    assert.equal(ok.status, 200, text);
    assert.deepEqual(JSON.parse(text).data.profile, await new BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ fields: ["id"] }));
    const refused = await app.request("/api/bot", { method: "POST", body: JSON.stringify({ query: "{ __schema { types { name } } }" }) });
    assert.equal(refused.status, 403);
  });
});
