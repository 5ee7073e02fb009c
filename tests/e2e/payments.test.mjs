// The demo's Payments panel, end to end in Chromium: a hosted payment created through the demo
// server (scripts/demo-server.mjs, which holds the merchant's secret key), whose status moves in
// the panel as the agent of the same dashboard accepts it (queue) and marks it paid (order
// history): each step a webhook from the sandbox, received by createWebhookHandler, confirmed by
// confirmEvent's read-back, relayed to the page by Server-Sent Events. No key or token, nor any
// 8-character piece of one, reaches the page, its requests, the demo server's log or the
// sandbox's. Agent 1's state and the sandbox's webhook target are reset afterwards.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { SANDBOX_URL, AGENT_KEY, launch, openPage, requireSandbox, startDemoServer, closeSession } from "./support/browser.mjs";
import { payWithWebhooks, paymentRow } from "./support/payments.mjs";

requireSandbox();
const MERCHANT_SECRET_KEY = process.env.MERCHANT_SECRET_KEY;
const WEBHOOK_TOKEN = `whk-${randomBytes(18).toString("base64url")}`;
let browser;
let demo;

const resetAgent1 = async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=1`, { method: "DELETE" });
  assert.equal(res.status, 204);
};

before(async () => {
  assert.ok(MERCHANT_SECRET_KEY, "MERCHANT_SECRET_KEY is set by scripts/with-sandbox.sh");
  await resetAgent1();
  browser = await launch();
  demo = await startDemoServer({ WEBHOOK_TOKEN });
});
after(async () => {
  await browser?.close();
  await demo?.stop();
  await fetch(`${SANDBOX_URL}/__sandbox/webhooks`, { method: "DELETE" });
  await resetAgent1();
});

/**
 * The first 8-character piece of one of `secrets` found in `text` (with some context), or null.
 * Pieces that are also pieces of `allowed` (keys the page holds on purpose: the sandbox's public
 * key shares its tail with the secret one) are not looked for.
 */
function leak(text, secrets, allowed = []) {
  for (const secret of secrets) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8);
      if (allowed.some((a) => a.includes(piece))) continue;
      const at = text.indexOf(piece);
      if (at >= 0) return `${piece} in …${text.slice(Math.max(0, at - 60), at + 68)}…`;
    }
  }
  return null;
}

test("the Payments panel: a hosted payment moves created → picked up → completed, by webhook, confirmed by read-back", async () => {
  // Through the server proxy: the page holds no agent key either.
  const s = await openPage(browser, { url: `${demo.url}/?connect=proxy` });
  const traffic = [];
  s.page.on("request", (r) => traffic.push(`${r.method()} ${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ""}`));
  s.page.on("response", async (r) => {
    if (new URL(r.url()).pathname === "/api/payments") traffic.push(await r.text().catch(() => ""));
  });
  try {
    await s.page.waitForSelector('[data-testid="payments-panel"][data-available="true"]');
    const { reference, id } = await payWithWebhooks(s.page);

    // Each step arrived by webhook and was confirmed by reading the payment back.
    const steps = await paymentRow(s.page, reference).locator('[data-testid="payment-step"][data-source="webhook"]')
      .evaluateAll((els) => els.map((e) => [e.dataset.status, e.dataset.confirmed]));
    assert.deepEqual(steps, [["created", "true"], ["picked_up", "true"], ["completed", "true"]]);
    assert.equal(await paymentRow(s.page, reference).locator('[data-testid="payment-status"]').innerText(), "Completed");

    // The sandbox delivered them to the demo server, which answered 200 each time.
    const log = await (await fetch(`${SANDBOX_URL}/__sandbox/webhooks`)).json();
    assert.equal(log.target, `${demo.url}/api/webhooks`);
    const mine = log.deliveries.filter((d) => d.id === id);
    assert.deepEqual(mine.map((d) => [d.status, d.answer]), [["created", 200], ["picked_up", 200], ["completed", 200]]);
    // And the API agrees: the payment is completed.
    const { MerchantClient } = await import("../../pkg/node/index.mjs");
    const merchant = new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
    assert.equal((await merchant.paymentRequest(reference)).status, "completed");

    // A wrong token is refused (401) and nothing reaches the page.
    const before = await s.page.locator('[data-testid="payments-delivery"]').count();
    const forged = await fetch(`${demo.url}/api/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-cashramp-token": WEBHOOK_TOKEN.slice(0, -1) + "x" },
      body: JSON.stringify({ event_type: "payment_request.updated", data: { id, reference, status: "canceled" } }),
    });
    assert.equal(forged.status, 401);
    await s.page.waitForTimeout(500);
    assert.equal(await s.page.locator('[data-testid="payments-delivery"]').count(), before);
    assert.equal(await paymentRow(s.page, reference).getAttribute("data-status"), "completed");

    // No key or token, nor a piece of one, in the page, its storage, its traffic or the logs.
    const secrets = [WEBHOOK_TOKEN, MERCHANT_SECRET_KEY, AGENT_KEY];
    const allowed = [process.env.MERCHANT_PUBLIC_KEY];
    assert.ok(MERCHANT_SECRET_KEY.length - 8 + 1 > [...Array(MERCHANT_SECRET_KEY.length - 7).keys()]
      .filter((i) => allowed[0].includes(MERCHANT_SECRET_KEY.slice(i, i + 8))).length, "some pieces of the secret key are looked for");
    const page = (await s.page.content()) + traffic.join("\n") +
      await s.page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    assert.equal(leak(page, secrets, allowed), null, "the page holds no piece of a secret key or the webhook token");
    assert.equal(leak(demo.output(), secrets, allowed), null, "the demo server's log holds no piece of a key or the token");
    assert.match(demo.output(), /webhook payment_request\.updated \S+ completed: read back: completed/);
    const sandboxLog = readFileSync("target/sandbox-logs/stderr.log", "utf8");
    assert.equal(leak(sandboxLog, [WEBHOOK_TOKEN]), null, "the sandbox's log holds no piece of the token");
    await closeSession(s);
  } catch (err) {
    await s.close();
    throw err;
  }
});

test("served by the sandbox alone, the Payments panel is off and says why", async () => {
  const s = await openPage(browser);
  try {
    await s.page.waitForSelector('[data-testid="payments-panel"][data-available="false"]');
    assert.ok(await s.page.locator('[data-testid="payments-unavailable"]').isVisible());
    assert.ok(await s.page.locator('[data-testid="payments-create"]').isDisabled());
  } finally {
    await closeSession(s);
  }
});
