// createWebhookHandler and verifyWebhook through the package's Node (server) entry imported by
// name, served by a real Node `http` server with the README's two-line wrapper (the same as the
// proxy's); merchant.confirmEvent against the sandbox. Every answer, error and console line of
// this file is checked for an 8-character piece of the token.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createWebhookHandler, verifyWebhook, MerchantClient, SettlementError } from "settlement-wasm";
import { SANDBOX_URL, MERCHANT_SECRET_KEY, uniqueTag, serializeError } from "./helpers.mjs";

const TOKEN = "whk_7f3a9c2e41b84d6fa0c95e1b";
const OLD_TOKEN = "whk_old_0b1c2d3e4f5a6b7c8d9e";

/** Every text this file saw: answers, error messages, console lines. */
const seen = [];
const original = { log: console.log, error: console.error, warn: console.warn, info: console.info };
for (const name of Object.keys(original)) {
  console[name] = (...args) => {
    seen.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "));
    original[name](...args);
  };
}

/** The token, or any 8-character piece of either token, in `text`. */
function leak(text) {
  for (const t of [TOKEN, OLD_TOKEN]) {
    for (let i = 0; i + 8 <= t.length; i++) if (text.includes(t.slice(i, i + 8))) return t.slice(i, i + 8);
  }
  return null;
}

const EVENTS = {
  "payment_request.updated": {
    id: "pr_1", reference: "order-9", status: "completed",
    customer: { id: "c1", email: "ada@example.com", wallet_address: "0xab", country: "NG", currency: "NGN" },
    p2p_payment: { id: "p1", exchange_rate: "1500.5", amount: 159000, amount_usd: "106.0", fee: 1 },
    onchain_address: null, onchain_cryptocurrency: null, onchain_txhash: null, created_at: "2026-01-01T00:00:00Z",
    payment_link: "https://pay.example/x", metadata: { cart: [1, 2] },
  },
  "onchain_tx.updated": { id: "tx_1", address: "0x1", status: "completed", quantity: "10.5", fee: 0.1, symbol: "USDT", network: "CELO", txhash: "0xh" },
  "fiat_payout.updated": { id: "fp_1", payment_type: "withdrawal", amount_usd: 100, amount: "159.0", reference: "r1", status: "paid" },
  "chargeback.initiated": { id: "cb_1", status: "open", reason: "fraud", payment_request: { id: "pr_1", reference: "order-9", amount: "5", currency: "USD" } },
};

const body = (eventType, data) => JSON.stringify({ event_type: eventType, data });

/** Serves `handler` with the README's Node `http` wrapper; every answer's text is recorded. */
async function serve(handler) {
  const server = createServer(async (req, res) => {
    const r = await handler(new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : Readable.toWeb(req), duplex: "half" }));
    const text = await r.text();
    seen.push(text);
    res.writeHead(r.status, Object.fromEntries(r.headers)).end(text);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/webhooks`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

/** A receiver that records its events; `fail` makes onEvent throw (or reject). */
function receiver(options = {}) {
  const events = [];
  const handler = createWebhookHandler({
    token: TOKEN,
    onEvent: async (e) => {
      events.push(e);
      if (options.fail === "throw") throw new Error(`boom ${TOKEN}`);
      if (options.fail === "reject") return Promise.reject(new Error(`rejected ${TOKEN}`));
    },
    ...options.handler,
  });
  return { events, handler };
}

const post = (url, text, headers = { "x-cashramp-token": TOKEN }) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: text });

describe("createWebhookHandler (Node http)", () => {
  let srv;
  let r;
  before(async () => {
    r = receiver();
    srv = await serve(r.handler);
  });
  after(() => srv.close());

  test("each observed event type reaches onEvent typed, snake_case kept, amounts as sent", async () => {
    for (const [type, data] of Object.entries(EVENTS)) {
      const text = body(type, data);
      const res = await post(srv.url, text);
      assert.equal(res.status, 200, type);
      const e = r.events.at(-1);
      assert.equal(e.type, type);
      assert.equal(e.eventType, type);
      assert.equal(e.raw, text);
      assert.equal(e.key, JSON.stringify([type, data.id, data.status]));
    }
    const [pr, tx, payout, cb] = r.events.slice(-4);
    assert.equal(pr.data.p2p_payment.amount, 159000);
    assert.equal(pr.data.p2p_payment.amount_usd, "106.0");
    assert.equal(pr.data.customer.wallet_address, "0xab");
    assert.deepEqual(pr.data.metadata, { cart: [1, 2] });
    assert.equal(pr.data.onchain_txhash, undefined, "null: absent");
    assert.equal(tx.data.quantity, "10.5");
    assert.equal(tx.data.fee, 0.1);
    assert.equal(payout.data.amount_usd, 100);
    assert.equal(cb.data.payment_request.reference, "order-9");
  });

  test("a wrong token of the same length, a missing header, the last character changed: 401, onEvent never called", async () => {
    const before = r.events.length;
    const last = TOKEN.slice(0, -1) + (TOKEN.at(-1) === "b" ? "c" : "b");
    const sameLength = "x".repeat(TOKEN.length);
    for (const headers of [{ "x-cashramp-token": sameLength }, {}, { "x-cashramp-token": last },
      { "x-cashramp-token": TOKEN.slice(0, -1) }, { "x-cashramp-token": `${TOKEN} ` + "x" }, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await post(srv.url, body("onchain_tx.updated", EVENTS["onchain_tx.updated"]), headers);
      assert.equal(res.status, 401, JSON.stringify(Object.keys(headers)));
      assert.deepEqual(await res.json(), { error: { code: "unauthorized", message: "Not authorized" } });
    }
    assert.equal(r.events.length, before);
  });

  test("405 for anything but POST; malformed bodies are 400 and never reach onEvent", async () => {
    const before = r.events.length;
    const get = await fetch(srv.url, { headers: { "x-cashramp-token": TOKEN } });
    assert.equal(get.status, 405);
    for (const text of ["not json", "", "[1]", "null", '{"data":{}}', '{"event_type":5,"data":{}}', '{"event_type":"a.b"}',
      '{"event_type":"a.b","data":[]}', '{"event_type":"onchain_tx.updated","data":{"id":5}}']) {
      const res = await post(srv.url, text);
      assert.equal(res.status, 400, text);
      const answer = await res.json();
      assert.equal(answer.error.code, "invalid_input");
      assert.ok(!/at .*\.(js|mjs|cjs):\d+/.test(JSON.stringify(answer)), "no stack");
    }
    assert.equal(r.events.length, before);
  });

  test("an unknown event type arrives as unknown with its raw data", async () => {
    const res = await post(srv.url, body("refund.created", { id: 7, anything: [1, 2] }));
    assert.equal(res.status, 200);
    const e = r.events.at(-1);
    assert.equal(e.type, "unknown");
    assert.equal(e.eventType, "refund.created");
    assert.deepEqual(e.data, { id: 7, anything: [1, 2] });
  });

  test("a replay has the same key; a new status another", async () => {
    const text = body("payment_request.updated", EVENTS["payment_request.updated"]);
    await post(srv.url, text);
    await post(srv.url, text);
    const [a, b] = r.events.slice(-2);
    assert.equal(a.key, b.key);
    await post(srv.url, body("payment_request.updated", { ...EVENTS["payment_request.updated"], status: "failed" }));
    assert.notEqual(r.events.at(-1).key, a.key);
  });

  test("an oversized body is 413", async () => {
    const res = await post(srv.url, body("x.y", { pad: "a".repeat(70_000) }));
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "too_large");
  });
});

describe("createWebhookHandler (the handler itself)", () => {
  const request = (text, headers = { "x-cashramp-token": TOKEN }) =>
    new Request("http://localhost/webhooks", { method: "POST", headers, body: text });

  test("rotation: both tokens of an array pass, and a function's", async () => {
    for (const token of [[OLD_TOKEN, TOKEN], () => [OLD_TOKEN, TOKEN], async () => TOKEN]) {
      const events = [];
      const h = createWebhookHandler({ token, onEvent: (e) => events.push(e) });
      const text = body("x.y", { id: "1" });
      assert.equal((await h(request(text, { "x-cashramp-token": TOKEN }))).status, 200);
      const old = (await h(request(text, { "x-cashramp-token": OLD_TOKEN }))).status;
      assert.equal(old, typeof token === "function" && token.constructor.name === "AsyncFunction" ? 401 : 200);
      assert.equal((await h(request(text, { "x-cashramp-token": "nope" }))).status, 401);
    }
  });

  test("a token function that throws or gives nothing is 500, never onEvent", async () => {
    let called = 0;
    for (const token of [() => { throw new Error(TOKEN); }, () => "", () => 5, async () => []]) {
      const h = createWebhookHandler({ token, onEvent: () => called++ });
      const res = await h(request(body("x.y", {})));
      assert.equal(res.status, 500);
      seen.push(await res.text());
    }
    assert.equal(called, 0);
  });

  test("a custom header name", async () => {
    const h = createWebhookHandler({ token: TOKEN, header: "X-Shop-Token", onEvent: () => {} });
    assert.equal((await h(request(body("x.y", {}), { "x-shop-token": TOKEN }))).status, 200);
    assert.equal((await h(request(body("x.y", {})))).status, 401);
  });

  test("a throwing or rejecting onEvent is 500, nothing of what it threw shown", async () => {
    for (const fail of ["throw", "reject"]) {
      const { handler, events } = receiver({ fail });
      const res = await handler(request(body("onchain_tx.updated", EVENTS["onchain_tx.updated"])));
      assert.equal(res.status, 500);
      const text = await res.text();
      seen.push(text);
      assert.deepEqual(JSON.parse(text), { error: { code: "internal", message: "The event could not be handled" } });
      assert.equal(events.length, 1);
    }
  });

  test("an oversized streamed body is 413 without being read to the end", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(1024).fill(32);
    const endless = new ReadableStream({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() { cancelled = true; },
    }, { highWaterMark: 0 });
    const { handler, events } = receiver({ handler: { maxBodyBytes: 4096 } });
    const res = await handler(new Request("http://localhost/webhooks", {
      method: "POST", headers: { "x-cashramp-token": TOKEN }, body: endless, duplex: "half",
    }));
    assert.equal(res.status, 413);
    assert.ok(pulled <= 4096 + 2 * 1024, `pulled ${pulled} bytes of an endless body`);
    assert.ok(cancelled, "the rest is cancelled");
    assert.equal(events.length, 0);
    // A declared length over the limit is refused before reading anything.
    pulled = 0;
    const declared = await handler(new Request("http://localhost/webhooks", {
      method: "POST", headers: { "x-cashramp-token": TOKEN, "content-length": "999999" }, body: "{}",
    }));
    assert.equal(declared.status, 413);
  });

  test("the body is not read before the token is checked", async () => {
    let pulled = 0;
    const stream = new ReadableStream({ pull(c) { pulled++; c.enqueue(new Uint8Array(10)); } }, { highWaterMark: 0 });
    const { handler } = receiver();
    const res = await handler(new Request("http://localhost/webhooks", {
      method: "POST", headers: { "x-cashramp-token": "wrong" }, body: stream, duplex: "half",
    }));
    assert.equal(res.status, 401);
    assert.equal(pulled, 0);
  });

  test("invalid options throw invalid_input naming the option, never echoing a token", () => {
    for (const [options, field] of [
      [{ onEvent() {} }, "token"],
      [{ token: "", onEvent() {} }, "token"],
      [{ token: [], onEvent() {} }, "token"],
      [{ token: [TOKEN, 5], onEvent() {} }, "token"],
      [{ token: TOKEN.repeat(100), onEvent() {} }, "token"],
      [{ token: TOKEN }, "onEvent"],
      [{ token: TOKEN, onEvent: "x" }, "onEvent"],
      [{ token: TOKEN, onEvent() {}, header: "bad header" }, "header"],
      [{ token: TOKEN, onEvent() {}, maxBodyBytes: 0 }, "maxBodyBytes"],
      [{ token: TOKEN, onEvent() {}, maxBodyBytes: 1.5 }, "maxBodyBytes"],
      // A misspelt option is refused, naming it, not silently skipped.
      [{ token: TOKEN, onEvent() {}, maxBodyByte: 10 }, "maxBodyByte"],
      [{ tokens: [TOKEN], onEvent() {} }, "tokens"],
    ]) {
      assert.throws(() => createWebhookHandler(options), (e) => {
        assert.ok(e instanceof SettlementError, String(e));
        assert.equal(e.code, "invalid_input");
        assert.equal(e.field, field);
        seen.push(JSON.stringify(serializeError(e)));
        return true;
      });
    }
  });
});

describe("verifyWebhook", () => {
  const req = (text, headers = { "x-cashramp-token": TOKEN }, method = "POST") =>
    new Request("http://localhost/w", { method, headers, body: method === "POST" ? text : undefined });

  test("resolves with the typed event", async () => {
    const e = await verifyWebhook(req(body("fiat_payout.updated", EVENTS["fiat_payout.updated"])), { token: [OLD_TOKEN, TOKEN] });
    assert.equal(e.type, "fiat_payout.updated");
    assert.equal(e.data.payment_type, "withdrawal");
  });

  test("a throwing option getter is invalid_input naming the option", async () => {
    for (const name of ["token", "header", "maxBodyBytes"]) {
      const options = { token: TOKEN };
      Object.defineProperty(options, name, { enumerable: true, get() { throw new Error(`getter ${TOKEN}`); } });
      await assert.rejects(verifyWebhook(req(body("x.y", {})), options), (e) => {
        assert.ok(e instanceof SettlementError, String(e));
        assert.equal(e.code, "invalid_input");
        assert.equal(e.field, name);
        seen.push(JSON.stringify(serializeError(e)), e.message);
        return true;
      });
    }
  });

  test("rejects with unauthorized, too_large, invalid_input", async () => {
    for (const [request, options, code] of [
      [req(body("x.y", {}), { "x-cashramp-token": "wrong" }), { token: TOKEN }, "unauthorized"],
      [req(body("x.y", {}), {}), { token: TOKEN }, "unauthorized"],
      [req(body("x.y", { pad: "a".repeat(200) })), { token: TOKEN, maxBodyBytes: 100 }, "too_large"],
      [req("{"), { token: TOKEN }, "invalid_input"],
      [req("", {}, "GET"), { token: TOKEN }, "invalid_input"],
      [req(body("x.y", {})), { token: 5 }, "invalid_input"],
      [req(body("x.y", {})), undefined, "invalid_input"],
      // `onEvent` is the handler's, not verifyWebhook's.
      [req(body("x.y", {})), { token: TOKEN, onEvent() {} }, "invalid_input"],
    ]) {
      await assert.rejects(verifyWebhook(request, options), (e) => {
        assert.ok(e instanceof SettlementError, String(e));
        assert.equal(e.code, code);
        seen.push(JSON.stringify(serializeError(e)), e.message, String(e.stack));
        return true;
      });
    }
  });
});

describe("merchant.confirmEvent (secret key, against the sandbox)", () => {
  const m = () => new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });

  test("a payment request event reads the payment back by reference; an onchain one the withdrawal by id", async () => {
    const merchant = m();
    const reference = uniqueTag("whk");
    const p = await merchant.initiateHostedPayment({
      amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
      reference, firstName: "Ada", lastName: "Obi",
    });
    const event = await verifyWebhook(req(body("payment_request.updated", { id: p.id, reference, status: "completed" })), { token: TOKEN });
    const current = await merchant.confirmEvent(event);
    assert.equal(current.id, p.id);
    assert.equal(current.status, "created", "the API's word, not the webhook's");

    const sent = await merchant.withdrawOnchain({ address: "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D", amountUsd: "25.00" });
    const tx = await verifyWebhook(req(body("onchain_tx.updated", { id: sent.id, status: "completed" })), { token: TOKEN });
    const read = await merchant.confirmEvent(tx);
    assert.equal(read.status, "pending");
    const unknown = await verifyWebhook(req(body("onchain_tx.updated", { id: "ow_unknown", status: "completed" })), { token: TOKEN });
    assert.equal(await merchant.confirmEvent(unknown), null);
  });

  test("the other types, and events without what is needed, reject invalid_input before sending", async () => {
    const merchant = m();
    for (const [event, field] of [
      [{ type: "fiat_payout.updated", data: EVENTS["fiat_payout.updated"] }, "event"],
      [{ type: "chargeback.initiated", data: EVENTS["chargeback.initiated"] }, "event"],
      [{ type: "unknown", eventType: "x", data: {} }, "event"],
      [{ type: "payment_request.updated", data: {} }, "event.data.reference"],
      [{ type: "onchain_tx.updated", data: { id: 5 } }, "event.data.id"],
      [null, "event"],
      [new Proxy({}, { get() { throw new Error("hostile"); } }), "event"],
    ]) {
      await assert.rejects(merchant.confirmEvent(event), (e) => {
        assert.ok(e instanceof SettlementError, String(e));
        assert.equal(e.code, "invalid_input");
        assert.equal(e.field, field);
        return true;
      });
    }
  });

  function req(text) {
    return new Request("http://localhost/w", { method: "POST", headers: { "x-cashramp-token": TOKEN }, body: text });
  }
});

describe("the sandbox delivers webhooks (its lifecycle changes, retries, replay)", () => {
  let srv;
  const events = [];
  let failing = false;
  let calls = 0;
  const control = (path, init) => fetch(`${SANDBOX_URL}/__sandbox/webhooks${path}`, init);
  const json = (body) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  /** Resolves when `events` has an event matching `match`, within 5 s. */
  const arrives = async (match) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const e = events.find(match);
      if (e) return e;
      if (Date.now() > deadline) throw new Error(`no such event; got ${events.map((x) => x.key).join(" ")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  before(async () => {
    srv = await serve(createWebhookHandler({
      token: TOKEN,
      onEvent: (e) => {
        calls++;
        if (failing) throw new Error("the receiver is down");
        events.push(e);
      },
    }));
    assert.equal((await control("/target", json({ url: srv.url, token: TOKEN }))).status, 204);
  });
  after(async () => {
    await control("", { method: "DELETE" });
    await srv.close();
  });

  test("a hosted payment and an onchain withdrawal: each change arrives typed, and is confirmed by read-back", async () => {
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    const reference = uniqueTag("whk-sandbox");
    const p = await merchant.initiateHostedPayment({
      amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
      reference, firstName: "Ada", lastName: "Obi", metadata: { order: 7 },
    });
    const created = await arrives((e) => e.type === "payment_request.updated" && e.data.reference === reference);
    assert.equal(created.data.status, "created");
    assert.deepEqual(created.data.metadata, { order: 7 }, "metadata echoed");
    await merchant.cancelHostedPayment(p.id);
    const canceled = await arrives((e) => e.data.reference === reference && e.data.status === "canceled");
    assert.equal((await merchant.confirmEvent(canceled)).status, "canceled");

    const sent = await merchant.withdrawOnchain({ address: "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D", amountUsd: "12.00" });
    const pending = await arrives((e) => e.type === "onchain_tx.updated" && e.data.id === sent.id);
    assert.equal(pending.data.status, "pending");
    await fetch(`${SANDBOX_URL}/__sandbox/onchain/settle`, json({ withdrawal: sent.id, status: "completed" }));
    const done = await arrives((e) => e.data.id === sent.id && e.data.status === "completed");
    assert.equal(typeof done.data.quantity, "string", "amounts as sent");
    assert.equal((await merchant.confirmEvent(done)).status, "completed");
  });

  test("a throwing onEvent is answered 500 and the sandbox retries (bounded); a replay has the same key", async () => {
    failing = true;
    calls = 0;
    const data = { id: uniqueTag("cb"), status: "open", reason: "fraud", payment_request: { id: "pr_1", reference: "r", amount: "5", currency: "USD" } };
    assert.equal((await control("/send", json({ event_type: "chargeback.initiated", data }))).status, 202);
    const deadline = Date.now() + 10_000;
    let attempts = [];
    while (Date.now() < deadline) {
      const log = await (await control("")).json();
      attempts = log.deliveries.filter((d) => d.id === data.id);
      if (attempts.length >= 4) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(attempts.map((a) => [a.attempt, a.answer]), [[1, 500], [2, 500], [3, 500], [4, 500]]);
    assert.ok(attempts[1].at_ms - attempts[0].at_ms >= 150, "a backoff between attempts");
    assert.equal(calls, 4, "onEvent was called on each attempt");
    seen.push(JSON.stringify(attempts));

    failing = false;
    assert.equal((await control("/replay", { method: "POST" })).status, 202);
    const first = await arrives((e) => e.type === "chargeback.initiated" && e.data.id === data.id);
    assert.equal((await control("/replay", { method: "POST" })).status, 202);
    const deadline2 = Date.now() + 5_000;
    while (events.filter((e) => e.data.id === data.id).length < 2 && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 50));
    const both = events.filter((e) => e.data.id === data.id);
    assert.equal(both.length, 2);
    assert.equal(both[0].key, both[1].key);
    assert.equal(first.data.reason, "fraud");
  });
});

test("no answer, error or console line held an 8-character piece of the token", () => {
  assert.ok(seen.length > 20, `${seen.length} texts seen`);
  for (const text of seen) assert.equal(leak(text), null, text.slice(0, 200));
});
