// The demo dashboard against the sandbox: load, profile, filters, paging, withdrawal info,
// CSV export (download read back), export cancellation, and the screenshots.
import { test, before, after, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  SANDBOX_URL, AGENT_KEY, requireSandbox, launch, openPage, ordersIdle, takeScreenshots,
  parseCsv, text, byTestId, seededOrders, matchesFilter, closeSession } from "./support/browser.mjs";

let browser;
let session;
let seeded;
const count = (filter) => seeded.filter((o) => matchesFilter(o, filter)).length;

before(async () => {
  requireSandbox();
  seeded = await seededOrders(1);
  browser = await launch();
});
after(async () => { await browser?.close(); });
afterEach(async () => {
  const s = session;
  session = null;
  await closeSession(s);
});

async function open(options) {
  session = await openPage(browser, options);
  return session.page;
}

async function applyFilters(page, { status = "", method = "", from = "", to = "", orderId = "" } = {}) {
  await byTestId(page, "filter-order-id").fill(orderId);
  await byTestId(page, "filter-status").selectOption(status);
  await byTestId(page, "filter-payment-method").fill(method);
  await byTestId(page, "filter-date-from").fill(from);
  await byTestId(page, "filter-date-to").fill(to);
  await byTestId(page, "apply-filters").click();
  await ordersIdle(page);
}

/** Look a coin up and wait for that call (not an earlier one) to finish. */
async function lookup(page, symbol) {
  const entries = page.locator('[data-testid="activity-entry"][data-op="withdrawalInfo"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid="activity-entry"][data-op="withdrawalInfo"][data-outcome="running"]'));
  const before = await entries.count();
  await byTestId(page, "withdrawal-symbol").fill(symbol);
  await byTestId(page, "withdrawal-lookup").click();
  await page.waitForFunction((n) => {
    const list = document.querySelectorAll('[data-testid="activity-entry"][data-op="withdrawalInfo"]');
    return list.length > n && list[0].dataset.outcome !== "running";
  }, before);
}

async function total(page) {
  return Number(await byTestId(page, "orders-summary").getAttribute("data-total"));
}

async function pageInfo(page) {
  const label = byTestId(page, "page-label");
  return {
    page: Number(await label.getAttribute("data-page")),
    pages: Number(await label.getAttribute("data-pages")),
    text: await label.innerText(),
    rows: await byTestId(page, "order-row").count(),
  };
}

test("loads from the sandbox in sandbox mode, prefilled, with the key kept out of sight", async () => {
  const page = await open();
  assert.match(await text(page, "pkg-status"), /ready/);
  assert.equal(await byTestId(page, "sandbox-badge").isVisible(), true);
  assert.equal(await byTestId(page, "simulate-bar").isVisible(), true);
  assert.equal(await byTestId(page, "base-url").inputValue(), new URL(SANDBOX_URL).origin);
  const keyInput = byTestId(page, "agent-key");
  assert.equal(await keyInput.getAttribute("type"), "password");
  assert.equal(await keyInput.inputValue(), AGENT_KEY, "the key is prefilled from /__sandbox/info");
  assert.match(await text(page, "connection-status"), /Connected as amara\.okafor@example\.com/);
  assert.equal(await total(page), 1600);
  const leaks = await page.evaluate((key) => ({
    text: document.body.innerText.includes(key),
    url: location.href.includes(key),
    local: JSON.stringify({ ...localStorage }).includes(key),
    session: JSON.stringify({ ...sessionStorage }).includes(key),
  }), AGENT_KEY);
  assert.deepEqual(leaks, { text: false, url: false, local: false, session: false });

  // "Remember in this tab" puts it in sessionStorage (only), and unticking removes it.
  await byTestId(page, "remember").check();
  assert.equal(await page.evaluate((key) => JSON.stringify({ ...sessionStorage }).includes(key), AGENT_KEY), true);
  assert.equal(await page.evaluate((key) => JSON.stringify({ ...localStorage }).includes(key), AGENT_KEY), false);
  await byTestId(page, "remember").uncheck();
  assert.equal(await page.evaluate(() => sessionStorage.length), 0);
});

/** Agent 1's profile straight from the sandbox's bot endpoint (Node's fetch, not the page). */
async function sandboxProfile() {
  const query = `{ profile { id email accountBalance escrowBalance bonusEarnings creditLine usedCreditLine
    depositMargin withdrawalMargin averageDepositRate averageWithdrawalRate autoUpdateDepositRate
    autoUpdateWithdrawalRate depositsCompleted withdrawalsCompleted totalDepositFiatAmount
    totalDepositUsdAmount totalWithdrawalFiatAmount totalWithdrawalUsdAmount verificationStatus
    enforceReceiptUpload depositAddress } }`;
  const res = await fetch(new URL("/service/bot/graphql", SANDBOX_URL), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${AGENT_KEY}` },
    body: JSON.stringify({ query }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.errors, undefined);
  return body.data.profile;
}

/** The sandbox's request log (`GET /__sandbox/requests`). */
async function requestLog() {
  const res = await fetch(new URL("/__sandbox/requests", SANDBOX_URL));
  assert.equal(res.status, 200);
  return res.json();
}

/** What the page should show for each profile field, formatted with Intl as an en-US page does. */
function expectedProfileTexts(p) {
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const dec2 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  const dec22 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
  const label = (v) => { const t = String(v).replace(/_/g, " "); return t[0].toUpperCase() + t.slice(1); };
  const onOff = (v) => (v ? "on" : "off");
  const want = {
    "profile-email": p.email,
    "profile-id": `· ${p.id}`,
    "profile-verification": label(p.verificationStatus),
    "profile-verificationStatus": label(p.verificationStatus),
    "profile-averageDepositRate": dec2.format(p.averageDepositRate),
    "profile-averageWithdrawalRate": dec2.format(p.averageWithdrawalRate),
    "profile-depositMargin": `${dec2.format(p.depositMargin)} %`,
    "profile-withdrawalMargin": `${dec2.format(p.withdrawalMargin)} %`,
    "profile-autoUpdate": `deposit ${onOff(p.autoUpdateDepositRate)} · withdrawal ${onOff(p.autoUpdateWithdrawalRate)}`,
    "profile-depositsCompleted": int.format(p.depositsCompleted),
    "profile-withdrawalsCompleted": int.format(p.withdrawalsCompleted),
    "profile-totalDepositFiatAmount": `${dec22.format(p.totalDepositFiatAmount)} in local currencies`,
    "profile-totalWithdrawalFiatAmount": `${dec22.format(p.totalWithdrawalFiatAmount)} in local currencies`,
    "profile-enforceReceiptUpload": p.enforceReceiptUpload ? "required" : "optional",
    "profile-depositAddress": p.depositAddress,
  };
  for (const k of ["accountBalance", "escrowBalance", "bonusEarnings", "creditLine", "usedCreditLine",
    "totalDepositUsdAmount", "totalWithdrawalUsdAmount"]) want[`profile-${k}`] = usd.format(p[k]);
  return want;
}

test("the profile shows every field the sandbox returns, formatted, and refresh reloads it", async () => {
  const p = await sandboxProfile();
  // The oracle itself is the seeded agent 1 (a formatting slip on both sides cannot hide).
  assert.equal(p.email, "amara.okafor@example.com");
  assert.equal(p.accountBalance, "12500.50");
  const want = expectedProfileTexts(p);
  assert.equal(want["profile-accountBalance"], "$12,500.50");
  assert.equal(want["profile-totalDepositFiatAmount"], "48,211,500.00 in local currencies");
  assert.ok(Object.keys(want).length >= 22, "every displayed field is checked");
  const page = await open();
  const shown = async () => Object.fromEntries(await Promise.all(Object.keys(want).map(async (id) => [id, (await text(page, id)).trim()])));
  assert.deepEqual(await shown(), want);
  assert.equal(await byTestId(page, "profile-error").isVisible(), false);

  // Refresh: blank the fields in the page, click, and the page must fetch the profile again
  // (a new request in the sandbox's log and a new activity entry) and show it all again.
  const logBefore = await requestLog();
  const entries = page.locator('[data-testid="activity-entry"][data-op="profile"]');
  const entriesBefore = await entries.count();
  await page.evaluate((ids) => {
    for (const id of ids) document.querySelector(`[data-testid="${id}"]`).textContent = "stale";
  }, Object.keys(want));
  await byTestId(page, "profile-refresh").click();
  await page.waitForFunction((n) => {
    const list = document.querySelectorAll('[data-testid="activity-entry"][data-op="profile"]');
    return list.length > n && list[0].dataset.outcome === "ok";
  }, entriesBefore);
  await page.waitForFunction(() => document.querySelector('[data-testid="profile-body"]').getAttribute("aria-busy") === "false");
  assert.equal(await entries.count(), entriesBefore + 1);
  const added = (await requestLog()).slice(logBefore.length);
  assert.equal(added.length, 1, `one new request: ${JSON.stringify(added)}`);
  assert.equal(added[0].endpoint, "bot");
  assert.equal(added[0].status, 200);
  assert.match(added[0].query, /\bprofile\b/);
  assert.equal(added[0].hasAuthorization, true);
  assert.deepEqual(await shown(), want);
});

test("a status filter leaves only rows of that status", async () => {
  const page = await open();
  await applyFilters(page, { status: "canceled" });
  const n = await total(page);
  assert.equal(n, count({ status: "canceled" }));
  assert.ok(n > 25 && n < 1600, `canceled total ${n}`);
  const statuses = await byTestId(page, "order-status").evaluateAll((els) => els.map((e) => e.dataset.status));
  assert.equal(statuses.length, Math.min(n, 25));
  assert.deepEqual([...new Set(statuses)], ["canceled"]);
  assert.match(await text(page, "orders-summary"), /canceled/);
  // The chart counts exactly the loaded rows.
  assert.equal(await byTestId(page, "orders-chart").getAttribute("data-total"), String(statuses.length));

  // Combined with a payment method, every row matches both.
  await applyFilters(page, { status: "completed", method: "mpesa" });
  const methods = await byTestId(page, "order-method").evaluateAll((els) => els.map((e) => e.textContent));
  const st = await byTestId(page, "order-status").evaluateAll((els) => els.map((e) => e.dataset.status));
  assert.equal(await total(page), count({ status: "completed", paymentMethod: "mpesa" }));
  assert.ok(methods.length > 0);
  assert.deepEqual([...new Set(methods)], ["mpesa"]);
  assert.deepEqual([...new Set(st)], ["completed"]);

  // A filter matching nothing shows the empty state.
  await applyFilters(page, { orderId: "ORD-NOPE-000000" });
  assert.equal(await total(page), 0);
  assert.match(await text(page, "orders-empty"), /No orders match/);
  assert.equal(await byTestId(page, "order-row").count(), 0);
});

test("an order-id filter finds exactly that order, and a date range matches the oracle", async () => {
  const page = await open();
  // Order id: an exact match on one seeded order (not the newest, so not already on page 1).
  const target = seeded[737];
  await applyFilters(page, { orderId: target.orderId });
  assert.equal(await total(page), 1);
  assert.equal(count({ orderId: target.orderId }), 1);
  const rows = byTestId(page, "order-row");
  assert.equal(await rows.count(), 1);
  assert.equal(await rows.first().getAttribute("data-id"), target.id);
  assert.match(await rows.first().innerText(), new RegExp(target.orderId));
  assert.match(await text(page, "orders-summary"), new RegExp(`^1 order · order “${target.orderId}”$`));

  // A date range across a year boundary: the total and the first page (ids, in API order:
  // newest first) are the oracle's, and every row's createdAt lies in the range (UTC days).
  const range = { dateFrom: "2025-12-28", dateTo: "2026-01-06" };
  await applyFilters(page, { from: range.dateFrom, to: range.dateTo });
  const want = seeded.filter((o) => matchesFilter(o, range));
  assert.ok(want.length > 25, `range holds ${want.length} orders`);
  assert.equal(await total(page), want.length);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.dataset.id));
  assert.deepEqual(ids, want.slice(0, 25).map((o) => o.id));
  const created = await rows.evaluateAll((els) => els.map((e) => e.querySelector("td").title));
  for (const c of created) assert.ok(c.slice(0, 10) >= range.dateFrom && c.slice(0, 10) <= range.dateTo, c);
  // The last page holds the oldest ones.
  await byTestId(page, "page-last").click();
  await ordersIdle(page);
  const lastIds = await rows.evaluateAll((els) => els.map((e) => e.dataset.id));
  const pages = Math.ceil(want.length / 25);
  assert.deepEqual(lastIds, want.slice((pages - 1) * 25).map((o) => o.id));
});

test("an invalid filter is refused before sending, and its input is marked", async () => {
  const page = await open();
  await applyFilters(page, { from: "2026-05-01", to: "2026-01-01" });
  const box = byTestId(page, "orders-error");
  await box.waitFor({ state: "visible" });
  assert.equal(await box.getAttribute("data-code"), "invalid_input");
  assert.match(await box.innerText(), /filter\.date(From|To)/);
  const marked = await page.locator('[aria-invalid="true"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  assert.equal(marked.length, 1);
  assert.match(marked[0], /^filter-date-(from|to)$/);
  const entry = page.locator('[data-testid="activity-entry"][data-op="orderHistory"]').first();
  assert.equal(await entry.getAttribute("data-code"), "invalid_input");
  assert.equal(await entry.getAttribute("data-attempts"), "0", "nothing was sent");
  // The rows already shown stay; fixing the dates clears the error and the mark.
  assert.equal(await byTestId(page, "order-row").count(), 25);
  assert.equal(await total(page), 1600);
  assert.match(await text(page, "orders-summary"), /^1,600 orders$/);
  await applyFilters(page, { from: "2026-01-01", to: "2026-05-01" });
  await box.waitFor({ state: "hidden" });
  assert.equal(await page.locator('[aria-invalid="true"]').count(), 0);
});

test("paging: next/previous and the last page with its remainder rows", async () => {
  const page = await open();
  await byTestId(page, "per-page").selectOption("50");
  await ordersIdle(page);
  assert.deepEqual(await pageInfo(page), { page: 1, pages: 32, text: "Page 1 of 32", rows: 50 });
  assert.equal(seeded.length, 1600);
  assert.equal(await byTestId(page, "page-prev").isDisabled(), true);
  await byTestId(page, "page-next").click();
  await ordersIdle(page);
  assert.equal((await pageInfo(page)).page, 2);

  // A filtered total that does not fill the last page (25 per page).
  await byTestId(page, "per-page").selectOption("25");
  await ordersIdle(page);
  await applyFilters(page, { status: "canceled" });
  const n = await total(page);
  assert.equal(n, count({ status: "canceled" }));
  const pages = Math.ceil(n / 25);
  assert.ok(pages > 2 && n % 25 !== 0, `canceled total ${n} should leave a partial last page`);
  await byTestId(page, "page-last").click();
  await ordersIdle(page);
  assert.deepEqual(await pageInfo(page), { page: pages, pages, text: `Page ${pages} of ${pages}`, rows: n - (pages - 1) * 25 });
  assert.equal(await byTestId(page, "page-next").isDisabled(), true);
  assert.equal(await byTestId(page, "page-last").isDisabled(), true);
  await byTestId(page, "page-prev").click();
  await ordersIdle(page);
  assert.equal((await pageInfo(page)).page, pages - 1);
  await byTestId(page, "page-next").click();
  await ordersIdle(page);
  assert.equal((await pageInfo(page)).page, pages);
  await byTestId(page, "page-first").click();
  await ordersIdle(page);
  assert.equal((await pageInfo(page)).page, 1);
});

test("USDC withdrawal info shows its networks and checks an address live", async () => {
  const page = await open();
  // The dashboard looks up its default coin on connect; look up again, typed in lower case.
  await lookup(page, "usdc");
  assert.equal(await byTestId(page, "withdrawal-symbol").inputValue(), "USDC");
  const chips = await byTestId(page, "network-chip").allInnerTexts();
  assert.deepEqual(chips, ["ETHEREUM", "BASE", "CELO", "OP"]);
  assert.equal(await text(page, "withdrawal-name"), "USD Coin");
  assert.equal(await text(page, "withdrawal-address-regex"), "^0x[a-fA-F0-9]{40}$");
  const result = byTestId(page, "withdrawal-address-result");
  await byTestId(page, "withdrawal-address").fill("0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B");
  assert.equal(await result.getAttribute("data-valid"), "true");
  await byTestId(page, "withdrawal-address").fill("0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8");
  assert.equal(await result.getAttribute("data-valid"), "false");
  assert.match(await result.innerText(), /Does not match/);

  // An unknown coin is "no info", not an error.
  await lookup(page, "NOPE");
  assert.match(await text(page, "withdrawal-empty"), /no withdrawal info for NOPE/);
  assert.equal(await byTestId(page, "withdrawal-result").isVisible(), false);
  assert.equal(await byTestId(page, "withdrawal-error").isVisible(), false);
});

test("CSV export downloads exactly the filtered total, every row matching the filters", async () => {
  const page = await open();
  await applyFilters(page, { status: "completed", from: "2026-01-01", to: "2026-03-31" });
  const n = await total(page);
  assert.equal(n, count({ status: "completed", dateFrom: "2026-01-01", dateTo: "2026-03-31" }));
  assert.ok(n > 100, `filtered total ${n} should span several export pages`);
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 30_000 }),
    byTestId(page, "export-csv").click(),
  ]);
  assert.match(download.suggestedFilename(), /^settlement-orders-completed.*\.csv$/);
  const csv = parseCsv(await readFile(await download.path(), "utf8"));
  const [header, ...rows] = csv;
  assert.equal(rows.length, n);
  const col = (name) => { const i = header.indexOf(name); assert.ok(i >= 0, `column ${name}`); return i; };
  const [iStatus, iCreated, iId] = [col("status"), col("createdAt"), col("id")];
  for (const r of rows) {
    assert.equal(r[iStatus], "completed");
    const day = r[iCreated].slice(0, 10);
    assert.ok(day >= "2026-01-01" && day <= "2026-03-31", `createdAt ${r[iCreated]}`);
  }
  const want = seeded.filter((o) => matchesFilter(o, { status: "completed", dateFrom: "2026-01-01", dateTo: "2026-03-31" }));
  assert.deepEqual(rows.map((r) => r[iId]).sort(), want.map((o) => o.id).sort(), "exactly the matching orders, no duplicates");
  await page.waitForSelector('[data-testid="export-progress"][data-state="done"]');
  assert.match(await text(page, "export-progress-text"), new RegExp(`Exported ${n.toLocaleString("en-US")} orders`));
  // The export's activity entry shows its page requests (more than one).
  const attempts = await page.locator('[data-testid="activity-entry"][data-op="orders (CSV export)"]').first().getAttribute("data-attempts");
  assert.equal(Number(attempts), Math.ceil(n / 100));
});

/** The newest CSV-export activity entry, once it has finished. */
async function exportEntry(page) {
  const sel = '[data-testid="activity-entry"][data-op="orders (CSV export)"]';
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.outcome !== "running", sel);
  return page.locator(sel).first();
}

test("CSV export can be cancelled, and nothing is downloaded", async () => {
  const page = await open();
  let downloads = 0;
  page.on("download", () => { downloads += 1; });
  // Make the export's first page hang (sandbox delay), then cancel while it is in flight.
  await byTestId(page, "simulate").selectOption("timeout");
  await byTestId(page, "export-csv").click();
  await page.waitForSelector('[data-testid="export-progress"][data-state="running"]');
  await byTestId(page, "export-cancel").click();
  await page.waitForSelector('[data-testid="export-progress"][data-state="cancelled"]', { timeout: 5_000 });
  assert.match(await text(page, "export-progress-text"), /cancelled after 0 orders/);
  assert.equal(await byTestId(page, "orders-error").isVisible(), false);
  assert.equal(await byTestId(page, "export-csv").isDisabled(), false);
  let entry = await exportEntry(page);
  assert.equal(await entry.getAttribute("data-outcome"), "aborted", "the activity log says it was cancelled");
  assert.equal(await entry.getAttribute("data-code"), "aborted");

  // Cancelled part-way (Esc), after the first page arrived: the second page's request is held
  // back (Playwright route) so the cancel lands while the export is running.
  let requests = 0;
  await page.route("**/service/bot/graphql", async (route) => {
    requests += 1;
    if (requests >= 2) await new Promise((r) => setTimeout(r, 1500));
    await route.continue().catch(() => {});
  });
  await byTestId(page, "export-csv").click();
  await page.waitForFunction(() => /^Exported [1-9]/.test(document.querySelector('[data-testid="export-progress-text"]').textContent));
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="export-progress"][data-state="cancelled"]', { timeout: 5_000 });
  assert.match(await text(page, "export-progress-text"), /^Export cancelled after [1-9][\d,]* orders; nothing was saved\.$/);
  entry = await exportEntry(page);
  assert.equal(await entry.getAttribute("data-outcome"), "aborted");
  assert.doesNotMatch(await entry.locator('[data-testid="activity-outcome"]').innerText(), /^ok/);
  await page.unroute("**/service/bot/graphql");
  await page.waitForTimeout(300);
  assert.equal(downloads, 0);
});

test("screenshots at desktop and phone width", async () => {
  const shots = await takeScreenshots(browser);
  for (const file of Object.values(shots)) {
    const png = await readFile(file);
    assert.equal(png.subarray(1, 4).toString(), "PNG", file);
  }
  // Readable at phone width: nothing wider than the viewport.
  session = await openPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true });
  const overflow = await session.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than a 375px screen`);
});
