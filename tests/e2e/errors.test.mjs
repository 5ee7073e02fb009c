// Failures as the dashboard shows them: a wrong key, and the sandbox "simulate" menu
// (429 then success, server error, auth failure, timeout), with the retries visible in the
// activity log and the sandbox's own request log.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { AGENT_KEY, requireSandbox, launch, openPage, text, byTestId, closeSession } from "./support/browser.mjs";

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
  await closeSession(s, "the page logged unexpected errors or threw");
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
async function sandboxNote(entry, timeout = 5_000) {
  const note = entry.locator('[data-testid="activity-note"]');
  await note.waitFor({ timeout });
  return note.innerText();
}

/** Every place a string could show up in the page: text, markup (attributes included),
 *  the URL, the title and both storages. */
async function pageMentions(page, needle) {
  return page.evaluate((n) => {
    const where = {
      text: document.body.innerText,
      html: document.documentElement.outerHTML,
      url: location.href,
      title: document.title,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
    };
    return Object.entries(where).filter(([, v]) => v.includes(n)).map(([k]) => k);
  }, needle);
}

test("a wrong key shows the sandbox's unauthorized error, without echoing the key", async () => {
  const page = await open();
  session.expectConsoleError(/Failed to load resource: the server responded with a status of 401/);
  // Not shaped like a key, so only the page's handling of the key in use can keep it hidden.
  const wrong = "not-a-real-key-123";
  await byTestId(page, "agent-key").fill(wrong);
  await byTestId(page, "connect").click();
  const box = byTestId(page, "profile-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "unauthorized");
  assert.equal(await box.locator('[data-testid="error-code"]').innerText(), "unauthorized");
  // The sandbox's own message for an unknown key (tests/sandbox/README.md), not a generic one.
  assert.match(await box.locator('[data-testid="error-message"]').innerText(), /Invalid API key/);
  assert.match(await text(page, "connection-status"), /Not connected: unauthorized: .*Invalid API key/);
  const orders = byTestId(page, "orders-error");
  await orders.waitFor({ state: "visible" });
  assert.equal(await orders.getAttribute("data-code"), "unauthorized");
  assert.match(await orders.innerText(), /Invalid API key/);
  const entry = await finishedEntry(page, "profile");
  assert.equal(await entry.getAttribute("data-code"), "unauthorized");
  assert.equal(await entry.getAttribute("data-attempts"), "1", "a 401 is not retried");
  assert.deepEqual(await entry.locator('[data-testid="activity-attempt"]').evaluateAll((els) => els.map((e) => e.dataset.status)), ["401"]);
  assert.deepEqual(await pageMentions(page, wrong), [], "the wrong key is shown somewhere");
  assert.deepEqual(await pageMentions(page, AGENT_KEY), [], "the sandbox key is shown somewhere");

  // The right key again: errors go away.
  await byTestId(page, "agent-key").fill(AGENT_KEY);
  await byTestId(page, "connect").click();
  await page.waitForFunction(() => /Connected as/.test(document.querySelector('[data-testid="connection-status"]').textContent));
  await box.waitFor({ state: "hidden" });
  assert.deepEqual(await pageMentions(page, wrong), []);
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
  // The retry's delay and reason, from the client's `retry` event.
  assert.match(await entry.locator('[data-testid="activity-retry"]').innerText(), /retry in .+ \((retry-after|status) 429\)/);
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

test("simulate an auth failure: a 401 with a valid key, not retried, shown as unauthorized", async () => {
  const page = await open();
  session.expectConsoleError(/Failed to load resource: the server responded with a status of 401/);
  await byTestId(page, "simulate").selectOption("auth");
  assert.match(await text(page, "simulate-hint"), /Armed: .*auth failure/);
  await byTestId(page, "profile-refresh").click();
  const entry = await finishedEntry(page, "profile");
  assert.equal(await entry.getAttribute("data-outcome"), "error");
  assert.equal(await entry.getAttribute("data-code"), "unauthorized");
  assert.equal(await entry.getAttribute("data-attempts"), "1", "a 401 is not retried");
  assert.deepEqual(await entry.locator('[data-testid="activity-attempt"]').evaluateAll((els) => els.map((e) => e.dataset.status)), ["401"]);
  assert.match(await entry.locator('[data-testid="activity-simulated"]').innerText(), /auth failure/);
  assert.match(await sandboxNote(entry), /: 1 request → 401\.$/);
  const box = byTestId(page, "profile-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "unauthorized");
  // The sandbox's injected-fault message (the key itself is valid).
  assert.match(await box.locator('[data-testid="error-message"]').innerText(), /sandbox injected fault: HTTP 401/);
  assert.match(await text(page, "connection-status"), /Not connected: unauthorized/);
  // One-shot: the next call is normal again and succeeds.
  assert.equal(await byTestId(page, "simulate").inputValue(), "");
  await byTestId(page, "profile-refresh").click();
  await box.waitFor({ state: "hidden" });
  assert.match(await text(page, "connection-status"), /Connected as/);
});

test("simulate a timeout: the client gives up, retries once, and says so", async () => {
  const page = await open();
  // The sandbox logs an abandoned attempt only once it notices the client left, which can be
  // after the page first reads the log: the first two reads answer an empty log, as a
  // lagging sandbox would, and the page must keep polling until it sees both attempts.
  let logReads = 0;
  await page.route("**/__sandbox/requests?*", async (route) => {
    logReads += 1;
    if (logReads <= 2) await route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
    else await route.continue();
  });
  await byTestId(page, "simulate").selectOption("timeout");
  await byTestId(page, "page-next").click();
  const entry = await finishedEntry(page, "orderHistory", 30_000);
  assert.equal(await entry.getAttribute("data-outcome"), "error");
  assert.equal(await entry.getAttribute("data-code"), "timeout");
  // maxRetries 1: two attempts, each given up on by the client (no HTTP status).
  assert.equal(await entry.getAttribute("data-attempts"), "2");
  const attempts = entry.locator('[data-testid="activity-attempt"]');
  assert.deepEqual(await attempts.evaluateAll((els) => els.map((e) => e.dataset.status)), ["aborted / timed out", "aborted / timed out"]);
  const lines = await attempts.allInnerTexts();
  assert.match(lines[0], /^#1 aborted \/ timed out · /);
  assert.match(lines[1], /^#2 aborted \/ timed out · /);
  assert.match(await entry.locator('[data-testid="activity-simulated"]').innerText(), /timeout/);
  const box = byTestId(page, "orders-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "timeout");
  // The sandbox saw both attempts, and the client left before either was answered (499).
  assert.match(await sandboxNote(entry, 15_000), /: 2 requests → 499, 499\.$/);
  assert.ok(logReads >= 3, `the page read the log ${logReads} times`);
  // The table keeps the rows it had.
  assert.ok(await byTestId(page, "order-row").count() > 0);
});
