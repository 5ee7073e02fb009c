// The demo's live "incoming orders" queue (watchOrders) in Chromium: an order created through
// the sandbox (POST /__sandbox/orders) appears highlighted without a reload, with its time
// left, the tab title counts the pending orders, each poll is in the activity log, an order is
// accepted from the queue, and a hidden tab sends no poll (the badge says paused) until it is
// visible again. Agent 1's state is reset before and after (the other suites' oracle).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { SANDBOX_URL, requireSandbox, launch, openPage, byTestId, seededOrders, closeSession } from "./support/browser.mjs";

let browser;

const reset = async () => {
  const res = await fetch(new URL("/__sandbox/state?agent=1", SANDBOX_URL), { method: "DELETE" });
  assert.equal(res.status, 204);
};

before(async () => {
  requireSandbox();
  await reset();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await reset();
});

/** The number of GraphQL requests the page sends from now on (`count()`). */
function countPolls(page) {
  let n = 0;
  const on = (request) => {
    if (request.method() === "POST" && request.url().endsWith("/service/bot/graphql")) n++;
  };
  page.on("request", on);
  return { count: () => n, stop: () => page.off("request", on) };
}

test("a new order appears in the queue without a reload, highlighted, and is accepted from there", async () => {
  const session = await openPage(browser);
  const { page } = session;
  try {
    let navigations = 0;
    page.on("framenavigated", (frame) => { if (frame === page.mainFrame()) navigations++; });
    const pending = (await seededOrders(1)).filter((o) => o.status === "pending").length;
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="queue-row"]').length === Math.min(n, 10), pending);
    await page.waitForFunction((n) => document.title.startsWith(`(${n}) `), pending);
    assert.equal(await byTestId(page, "queue-count").textContent(), `${pending} pending`);
    assert.equal(await byTestId(page, "queue-status").getAttribute("data-state"), "polling");
    assert.equal(await page.locator('[data-testid="queue-row"][data-new="true"]').count(), 0, "nothing new at first");

    const res = await fetch(new URL("/__sandbox/orders?agent=1&type=withdrawal", SANDBOX_URL), { method: "POST" });
    assert.equal(res.status, 201);
    const order = await res.json();
    const row = page.locator(`[data-testid="queue-row"][data-id="${order.id}"]`);
    await row.waitFor({ timeout: 20_000 });
    assert.equal(await row.getAttribute("data-new"), "true");
    assert.match(await row.locator('[data-testid="queue-left"]').textContent(), /^(59|60):\d\d left$/);
    assert.equal(await page.locator('[data-testid="queue-row"]').first().getAttribute("data-id"), order.id, "newest first");
    await page.waitForFunction((n) => document.title.startsWith(`(${n}) `), pending + 1);
    assert.equal(navigations, 0, "no reload");
    const polls = await page.locator('[data-testid="activity-entry"][data-op="watchOrders · poll"]').count();
    assert.ok(polls >= 2, `${polls} polls in the activity log`);

    await row.locator('[data-testid="action-acceptWithdrawal"]').click();
    assert.match(await byTestId(page, "action-dialog-text").textContent(), new RegExp(order.orderId));
    await byTestId(page, "action-confirm").click();
    // Accepted: picked up, so no longer pending; the queue polls at once after an action.
    await row.waitFor({ state: "detached", timeout: 20_000 });
    const now = (await seededOrders(1)).find((o) => o.id === order.id);
    assert.equal(now.status, "picked_up");
    await page.waitForFunction((n) => document.title.startsWith(`(${n}) `), pending);
  } finally {
    await closeSession(session);
  }
});

test("a hidden tab sends no poll; visible again, the queue polls at once", async () => {
  const session = await openPage(browser);
  const { page } = session;
  try {
    await page.waitForFunction(() => document.querySelector('[data-testid="queue-status"]')?.dataset.state === "polling");
    await page.evaluate(() => {
      let hidden = false;
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
      window.setHidden = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
      window.setHidden(true);
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="queue-status"]')?.dataset.state === "paused");
    const requests = countPolls(page);
    // More than two of the demo's 5 s intervals.
    await page.waitForTimeout(11_000);
    assert.equal(requests.count(), 0, "no poll while hidden");
    assert.match(await byTestId(page, "queue-status").textContent(), /Paused/);
    await page.evaluate(() => window.setHidden(false));
    await page.waitForFunction(() => document.querySelector('[data-testid="queue-status"]')?.dataset.state === "polling");
    const shown = Date.now();
    while (requests.count() === 0 && Date.now() - shown < 3000) await page.waitForTimeout(50);
    assert.equal(requests.count(), 1, "one poll at once");
    requests.stop();
  } finally {
    await closeSession(session);
  }
});
