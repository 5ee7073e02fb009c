// The Payments panel's flow, shared by its e2e test and the screenshots: a hosted payment made
// through the demo server, then accepted from the incoming-orders queue and marked paid from the
// order history by the agent of the same dashboard, each step awaited in the panel (a webhook
// relayed by the demo server, confirmed by read-back). Not a test file itself.
import assert from "node:assert/strict";

/** The steps a withdrawal goes through, and how long each may take to show. */
const STEP_MS = 20_000;

/** The payment row of `reference` in the panel. */
export function paymentRow(page, reference) {
  return page.locator(`[data-testid="payment"][data-reference="${reference}"]`);
}

/** Waits until the panel shows `reference` as `status`, confirmed by read-back. */
export async function waitForStatus(page, reference, status) {
  const row = paymentRow(page, reference);
  await row.locator(`[data-testid="payment-step"][data-source="webhook"][data-status="${status}"][data-confirmed="true"]`)
    .waitFor({ timeout: STEP_MS });
  await page.waitForFunction(([ref, want]) =>
    document.querySelector(`[data-testid="payment"][data-reference="${ref}"]`)?.dataset.status === want, [reference, status],
  { timeout: STEP_MS });
}

/**
 * Creates a `amount` USD withdrawal in the panel and has the agent accept it (queue) and mark it
 * paid (order history). Resolves with `{ reference, id }` once the panel shows it completed.
 */
export async function payWithWebhooks(page, { amount = "25.00" } = {}) {
  await page.waitForSelector('[data-testid="payments-stream"][data-state="live"]', { timeout: STEP_MS });
  await page.locator('[data-testid="payments-amount"]').fill(amount);
  await page.locator('[data-testid="payments-type"]').selectOption("withdrawal");
  await page.locator('[data-testid="payments-create"]').click();
  const row = page.locator('[data-testid="payment"]').first();
  await row.waitFor({ timeout: STEP_MS });
  const reference = await row.getAttribute("data-reference");
  const id = await row.getAttribute("data-id");
  assert.match(reference, /^demo-/);
  assert.equal(await row.getAttribute("data-status"), "created");
  await waitForStatus(page, reference, "created");

  // The agent accepts its order from the live queue (the order's reference is the payment's).
  const queued = page.locator('[data-testid="queue-row"]', { hasText: reference });
  await queued.waitFor({ timeout: STEP_MS });
  await queued.locator('[data-testid="action-acceptWithdrawal"]').click();
  await page.locator('[data-testid="action-confirm"]').click();
  await page.locator('[data-testid="action-dialog"]').waitFor({ state: "hidden" });
  await waitForStatus(page, reference, "picked_up");

  // Then pays it out, from the order history (newest first: on its first page).
  const order = page.locator('[data-testid="order-row"]', { hasText: reference });
  await order.locator('[data-testid="action-markWithdrawalAsPaid"]').waitFor({ timeout: STEP_MS });
  await order.locator('[data-testid="action-markWithdrawalAsPaid"]').click();
  await page.locator('[data-testid="action-payment-method"]').fill("pm_100001");
  await page.locator('[data-testid="action-confirm"]').click();
  await page.locator('[data-testid="action-dialog"]').waitFor({ state: "hidden" });
  await waitForStatus(page, reference, "completed");
  return { reference, id };
}
