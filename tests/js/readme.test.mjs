// Runs every ```js example block of the npm README against the sandbox, with BASE_URL,
// AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY and RAMP_URL bound to its URL, demo keys and hosted ramp page,
// and cryptoRequested / sendCrypto / agentConfirms to stand-ins for a ramp event, a wallet and an agent, so the documented examples stay true.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as pkg from "settlement-wasm";
import { SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY } from "./helpers.mjs";

const RAMP_URL = `${process.env.SANDBOX_RAMP_URL || SANDBOX_URL}/hosted/ramp`;

const readme = readFileSync(new URL("./node_modules/settlement-wasm/README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```js example\n([\s\S]*?)```/g)].map((m) => m[1]);

test("the README has runnable examples", () => assert.ok(blocks.length >= 6, `found ${blocks.length}`));

// The "Agent actions" example moves one of agent 1's orders and sets its rates and
// liquidity: put agent 1 back to the seed afterwards (the other suites' oracle).
after(async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=1`, { method: "DELETE" });
  assert.equal(res.status, 204);
});

// Stand-ins for what the onchain-ramp example leaves to the app: the payload of a
// `crypto.requested` event (a payment request opened as the hosted ramp page opens it) and the
// wallet's transfer (the sandbox's simulated one).
let opened = 0;
async function cryptoRequested() {
  opened += 1;
  const res = await fetch(`${SANDBOX_URL}/hosted/ramp/payment-request`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ coin: "USDC", network: "CELO", amount: "25.00", reference: `readme-${process.pid}-${opened}` }),
  });
  assert.equal(res.status, 200);
  const { id, reference } = await res.json();
  return { amountCents: 2500, destinationAddress: "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D", paymentRequest: { id, reference } };
}
async function sendCrypto(payload) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/transfer`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentRequest: payload.paymentRequest.id }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).transactionHash;
}

// The agent's side of the direct-ramp example: the sandbox's agent confirms a paid deposit.
async function agentConfirms(request) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/ramp/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentRequest: request.id }),
  });
  assert.equal(res.status, 200);
}

// A stand-in for an OpenTelemetry tracer (the README's spans example): records every span.
const spans = [];
const tracer = {
  startSpan(name, options) {
    const span = { name, attributes: { ...options?.attributes }, events: [], status: undefined, ended: false, exceptions: [] };
    spans.push(span);
    return {
      setAttribute: (k, v) => { span.attributes[k] = v; },
      addEvent: (n, a) => { span.events.push([n, a]); },
      recordException: (e) => { span.exceptions.push(e); },
      setStatus: (s) => { span.status = s; },
      end: () => { span.ended = true; },
    };
  },
};

const AsyncFunction = (async () => {}).constructor;
blocks.forEach((code, i) => {
  test(`README example ${i + 1} runs`, async () => {
    const logs = [];
    const console = { log: (...a) => logs.push(a) };
    const names = Object.keys(pkg).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== "default");
    const fn = new AsyncFunction(
      "BASE_URL", "AGENT_KEY", "MERCHANT_PUBLIC_KEY", "MERCHANT_SECRET_KEY", "RAMP_URL", "console",
      "cryptoRequested", "sendCrypto", "agentConfirms", "tracer", ...names, code);
    const before = spans.length;
    await fn(SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, RAMP_URL, console,
      cryptoRequested, sendCrypto, agentConfirms, tracer, ...names.map((n) => pkg[n]));
    if (code.includes("tracer.startSpan")) {
      const made = spans.slice(before);
      assert.deepEqual(made.map((s) => [s.name, s.ended, s.attributes["http.response.status_code"], s.attributes["settlement.attempts"]]),
        [["settlement profile", true, 200, 1]]);
    }
    assert.ok(logs.length > 0, "the example printed something");
    for (const line of logs) for (const v of line) assert.notEqual(v, undefined, `example ${i + 1} logged undefined`);
  });
});

// The README's Express webhook route (```js webhook-example express```), run as written as its
// own Node process against the sandbox: deliveries posted to it as the service sends them; its
// confirmEvent reads the hosted payment back from the sandbox with the secret key.
test("the README's Express webhook route runs as written", async (t) => {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const { spawn } = await import("node:child_process");
  const { createServer } = await import("node:http");
  const { fileURLToPath } = await import("node:url");
  const examples = Object.fromEntries([...readme.matchAll(/```js webhook-example ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(Object.keys(examples).sort(), ["express", "nextjs", "workers"]);
  const dir = new URL("./node_modules/.readme-webhook/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL("express.mjs", dir);
  writeFileSync(file, examples.express);
  const s = createServer();
  await new Promise((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  const TOKEN = "tk_9Qz7Lm2Xw4Rv8Np3";
  let out = "";
  const child = spawn(process.execPath, [fileURLToPath(file)], {
    env: { ...process.env, SETTLEMENT_URL: SANDBOX_URL, MERCHANT_SECRET_KEY, WEBHOOK_TOKEN: TOKEN, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.on("data", (d) => { out += d; });
  t.after(() => { if (child.exitCode === null) process.kill(child.pid); });
  const url = `http://127.0.0.1:${port}/webhooks/settlement`;
  const deliver = (event, token = TOKEN) => fetch(url, {
    method: "POST", headers: { "content-type": "application/json", "x-cashramp-token": token }, body: JSON.stringify(event),
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url);
      break;
    } catch (e) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the example did not start: ${e}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const merchant = new pkg.MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
  const reference = `readme-webhook-${process.pid}`;
  const p = await merchant.initiateHostedPayment({
    amount: "25000.00", currency: "local_currency", countryCode: "ng", email: "ada@example.com", paymentType: "deposit",
    reference, firstName: "Ada", lastName: "Obi",
  });
  const event = { event_type: "payment_request.updated", data: { id: p.id, reference, status: "completed" } };
  assert.equal((await deliver(event, "wrong-token")).status, 401);
  assert.equal((await deliver(event)).status, 200);
  assert.equal((await deliver(event)).status, 200, "a replay: 200, not handled twice");
  assert.equal((await deliver({ event_type: "chargeback.initiated", data: { id: "cb1", status: "open" } })).status, 200);
  assert.equal((await fetch(url, { method: "POST", headers: { "x-cashramp-token": TOKEN }, body: "{" })).status, 400);
  await new Promise((r) => setTimeout(r, 200));
  // The webhook said "completed"; the API's word (read back) is "created".
  assert.deepEqual(out.trim().split("\n"), [`payment ${reference} is created`, "event chargeback.initiated"]);
  for (let i = 0; i + 8 <= TOKEN.length; i++) assert.ok(!out.includes(TOKEN.slice(i, i + 8)), "no piece of the token logged");
});
