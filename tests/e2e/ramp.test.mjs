// The public-key panel: build an onchain-ramp link with the package's onchainRampUrl, open
// the sandbox's hosted ramp page in the frame, and list the crypto.requested event it posts.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { requireSandbox, launch, openPage, text, byTestId, closeSession } from "./support/browser.mjs";

let browser;
let session;

before(async () => {
  requireSandbox();
  browser = await launch();
});
after(async () => { await browser?.close(); });
afterEach(async () => {
  const s = session;
  session = null;
  await closeSession(s);
});

test("the public-key field warns about a secret key (classifyKey)", async (t) => {
  session = await openPage(browser);
  const page = session.page;
  assert.equal(await byTestId(page, "ramp-panel").getAttribute("data-available"), "true");
  const hint = page.locator("#r-key-hint");
  assert.equal(await hint.getAttribute("data-kind"), "public");
  await byTestId(page, "ramp-public-key").fill("SBX-SECK_merchantdemo01");
  assert.equal(await hint.getAttribute("data-kind"), "secret");
  assert.match(await hint.innerText(), /secret/);
  assert.equal(await byTestId(page, "ramp-public-key").getAttribute("aria-invalid"), "true");
  // The package refuses to put it in a link; the error names the option and masks the key.
  await byTestId(page, "ramp-build").click();
  const box = byTestId(page, "ramp-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "invalid_input");
  assert.match(await box.innerText(), /key/);
  assert.equal((await page.evaluate(() => document.body.innerText)).includes("SBX-SECK_merchantdemo01"), false);
  assert.equal(await byTestId(page, "ramp-link-field").isVisible(), false);
  await byTestId(page, "ramp-public-key").fill("SBX-PUBK_merchantdemo01");
  assert.equal(await hint.getAttribute("data-kind"), "public");
  assert.equal(await byTestId(page, "ramp-public-key").getAttribute("aria-invalid"), null);
});

test("a ramp link is built, opened in the frame, and its crypto.requested event listed", async (t) => {
  session = await openPage(browser);
  const page = session.page;
  const panel = byTestId(page, "ramp-panel");
  assert.equal(await panel.getAttribute("data-available"), "true");
  const info = await page.evaluate(async () => (await fetch("/__sandbox/info")).json());
  assert.equal(await byTestId(page, "ramp-public-key").inputValue(), info.keys.MERCHANT_PUBLIC_KEY);
  assert.ok((await byTestId(page, "ramp-page-url").inputValue()).startsWith(info.rampUrl));

  await byTestId(page, "ramp-payment-type").selectOption("deposit");
  await byTestId(page, "ramp-coin").fill("USDC");
  await byTestId(page, "ramp-network").fill("CELO");
  await byTestId(page, "ramp-amount").fill("25.00");
  await byTestId(page, "ramp-reference").fill("demo-ref-42");
  await byTestId(page, "ramp-build").click();
  const link = new URL(await byTestId(page, "ramp-link").inputValue());
  assert.equal(link.origin, new URL(info.rampUrl).origin);
  const q = Object.fromEntries(link.searchParams);
  assert.equal(q.key, info.keys.MERCHANT_PUBLIC_KEY);
  assert.equal(q.paymentType, "deposit");
  assert.equal(q.coin, "USDC");
  assert.equal(q.network, "CELO");
  assert.equal(q.amount, "25.00");
  assert.equal(q.reference, "demo-ref-42");

  await byTestId(page, "ramp-open").click();
  const event = byTestId(page, "ramp-event").first();
  await event.waitFor({ timeout: 10_000 });
  assert.equal(await event.locator('[data-testid="ramp-event-amount"]').innerText(), "$25.00");
  assert.equal(await event.locator('[data-testid="ramp-event-address"]').innerText(), "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D");
  assert.match(await event.locator('[data-testid="ramp-event-request"]').innerText(), /demo-ref-42/);
  assert.equal(await byTestId(page, "ramp-events-empty").isVisible(), false);

  // A well-formed message from any other origin (here: the dashboard's own) is ignored: only
  // the origin check can reject it. The ramp page's next event is the sentinel: once it is
  // listed, the earlier forged message has been handled too.
  const before = await byTestId(page, "ramp-event").count();
  await page.evaluate(() => window.postMessage({
    event: "crypto.requested",
    payload: { amountCents: 999, destinationAddress: "0xevil", paymentRequest: { reference: "forged" } },
  }, "*"));
  await byTestId(page, "ramp-open").click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="ramp-event"]').length > n, before, { timeout: 10_000 });
  assert.equal(await byTestId(page, "ramp-event").count(), before + 1);
  const addresses = await page.locator('[data-testid="ramp-event-address"]').allInnerTexts();
  assert.ok(!addresses.includes("0xevil"), `forged event listed: ${addresses}`);
});

test("the whole onchain flow: link, crypto.requested, simulated transfer, confirm, settled", async (t) => {
  session = await openPage(browser);
  const page = session.page;
  assert.equal(await byTestId(page, "ramp-panel").getAttribute("data-available"), "true");
  const reference = `e2e-flow-${Date.now()}`;
  await byTestId(page, "ramp-payment-type").selectOption("deposit");
  await byTestId(page, "ramp-coin").fill("USDC");
  await byTestId(page, "ramp-network").fill("CELO");
  await byTestId(page, "ramp-amount").fill("25.00");
  await byTestId(page, "ramp-reference").fill(reference);
  await byTestId(page, "ramp-build").click();
  await byTestId(page, "ramp-open").click();

  // The hosted page opened a payment request for the reference and asked for the crypto.
  const event = byTestId(page, "ramp-event").first();
  await event.waitFor({ timeout: 15_000 });
  assert.match(await event.locator('[data-testid="ramp-event-request"]').innerText(), new RegExp(reference));
  const read = (ref) => page.evaluate(async (r) => {
    const info = await (await fetch("/__sandbox/info")).json();
    const res = await fetch("/service/api/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${info.keys.MERCHANT_PUBLIC_KEY}` },
      body: JSON.stringify({ query: "query P($r: String!) { merchantPaymentRequest(reference: $r) { status } }", variables: { r } }),
    });
    return (await res.json()).data.merchantPaymentRequest.status;
  }, ref);
  assert.equal(await read(reference), "created");

  // The simulated transfer, then the confirmations (public key) until settled.
  const status = event.locator('[data-testid="ramp-event-status"]');
  await event.locator('[data-testid="ramp-event-transfer"]').click();
  await page.waitForFunction((el) => el.dataset.state === "sent", await status.elementHandle(), { timeout: 10_000 });
  assert.match(await event.locator('[data-testid="ramp-event-hash"]').innerText(), /^0x[0-9a-f]{64}$/);
  await event.locator('[data-testid="ramp-event-confirm"]').click();
  await page.waitForFunction((el) => ["settled", "unsettled", "failed"].includes(el.dataset.state),
    await status.elementHandle(), { timeout: 60_000 });
  assert.equal(await status.getAttribute("data-state"), "settled", await event.innerText());
  assert.match(await status.innerText(), /^settled \(2 confirmations\)$/);
  assert.equal(await event.locator('[data-testid="ramp-event-error"]').isVisible(), false);
  assert.equal(await read(reference), "completed");
  // The merchant's secret key is nowhere on the page.
  assert.equal((await page.evaluate(() => document.body.innerText)).includes("SBX-SECK_merchantdemo01"), false);
});
