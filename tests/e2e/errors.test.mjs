// Failures as the dashboard shows them: a wrong key, and the sandbox "simulate" menu
// (429 then success, server error, timeout), with the retries visible in the activity log.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { AGENT_KEY, requireSandbox, launch, openPage, text, byTestId } from "./support/browser.mjs";

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
  if (!s) return;
  const problems = s.problems();
  await s.close();
  assert.deepEqual(problems, [], "the page logged unexpected errors or threw");
});

async function open() {
  session = await openPage(browser);
  return session.page;
}

/** The newest activity entry for `op` once it has finished. */
async function finishedEntry(page, op, timeout = 20_000) {
  const sel = `[data-testid="activity-entry"][data-op="${op}"]`;
  await page.waitForFunction((s) => {
    const e = document.querySelector(s);
    return e && e.dataset.outcome !== "running";
  }, sel, { timeout });
  return page.locator(sel).first();
}

/** The sandbox's request log note of a simulated call (appears shortly after it ends). */
async function sandboxNote(entry) {
  const note = entry.locator('[data-testid="activity-note"]');
  await note.waitFor({ timeout: 5_000 });
  return note.innerText();
}

test("a wrong key shows the unauthorized error, without echoing the key", async () => {
  const page = await open();
  session.expectConsoleError(/Failed to load resource: the server responded with a status of 401/);
  const wrong = "SBX-SECK_wrongkey00000000";
  await byTestId(page, "agent-key").fill(wrong);
  await byTestId(page, "connect").click();
  const box = byTestId(page, "profile-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "unauthorized");
  assert.equal(await box.locator('[data-testid="error-code"]').innerText(), "unauthorized");
  assert.ok((await box.locator('[data-testid="error-message"]').innerText()).length > 0);
  assert.match(await text(page, "connection-status"), /Not connected: unauthorized/);
  const orders = byTestId(page, "orders-error");
  await orders.waitFor({ state: "visible" });
  assert.equal(await orders.getAttribute("data-code"), "unauthorized");
  const body = await page.evaluate(() => document.body.innerText);
  assert.equal(body.includes(wrong), false, "the wrong key is shown somewhere");
  assert.equal(body.includes(AGENT_KEY), false, "the sandbox key is shown somewhere");

  // The right key again: errors go away.
  await byTestId(page, "agent-key").fill(AGENT_KEY);
  await byTestId(page, "connect").click();
  await page.waitForFunction(() => /Connected as/.test(document.querySelector('[data-testid="connection-status"]').textContent));
  await box.waitFor({ state: "hidden" });
});

test("simulate “429 then success”: the call succeeds and shows the retry", async () => {
  const page = await open();
  session.expectConsoleError(/Failed to load resource: the server responded with a status of 429/);
  await byTestId(page, "simulate").selectOption("rate-limit");
  assert.match(await text(page, "simulate-hint"), /Armed/);
  await byTestId(page, "profile-refresh").click();
  const entry = await finishedEntry(page, "profile");
  assert.equal(await entry.getAttribute("data-outcome"), "ok");
  assert.equal(await entry.getAttribute("data-attempts"), "2");
  const attempts = await entry.locator('[data-testid="activity-attempt"]').evaluateAll((els) => els.map((e) => e.dataset.status));
  assert.deepEqual(attempts, ["429", "200"]);
  assert.match(await entry.locator('[data-testid="activity-simulated"]').innerText(), /429 then success/);
  assert.match(await sandboxNote(entry), /2 requests → 429, 200/);
  assert.equal(await byTestId(page, "profile-error").isVisible(), false);
  assert.equal(await text(page, "profile-accountBalance"), "$12,500.50");
  // One-shot: the menu is back to normal.
  assert.equal(await byTestId(page, "simulate").inputValue(), "");
});

test("simulate a server error: retried, then shown with its code and status", async () => {
  const page = await open();
  session.expectConsoleError(/Failed to load resource: the server responded with a status of 503/);
  await byTestId(page, "simulate").selectOption("server-error");
  await byTestId(page, "withdrawal-lookup").click();
  const entry = await finishedEntry(page, "withdrawalInfo");
  assert.equal(await entry.getAttribute("data-outcome"), "error");
  assert.equal(await entry.getAttribute("data-code"), "http");
  assert.equal(await entry.getAttribute("data-attempts"), "3", "maxRetries 2: three attempts");
  const box = byTestId(page, "withdrawal-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "http");
  assert.match(await box.innerText(), /HTTP 503/);
  assert.match(await sandboxNote(entry), /3 requests → 503, 503, 503/);
});

test("simulate a timeout: the client gives up and says so", async () => {
  const page = await open();
  await byTestId(page, "simulate").selectOption("timeout");
  await byTestId(page, "page-next").click();
  const entry = await finishedEntry(page, "orderHistory", 30_000);
  assert.equal(await entry.getAttribute("data-code"), "timeout");
  const box = byTestId(page, "orders-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "timeout");
  // The table keeps the rows it had.
  assert.ok(await byTestId(page, "order-row").count() > 0);
});
