// Shared helpers for the demo-page tests: Debian's Chromium driven by playwright-core
// (`npx playwright install` cannot work here), page error capture, and the screenshots.
// Not a test file itself (node --test only picks *.test.mjs).
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";

export const SANDBOX_URL = process.env.SANDBOX_URL;
export const AGENT_KEY = process.env.AGENT_KEY;
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

export function requireSandbox() {
  if (!SANDBOX_URL || !AGENT_KEY) {
    throw new Error("SANDBOX_URL and AGENT_KEY are not set: run through scripts/with-sandbox.sh -- scripts/test-e2e.sh");
  }
}

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * A fresh context + page on the dashboard. Every console error and uncaught exception is
 * recorded; `problems()` returns those not expected through `expectConsoleError(re)` (a test
 * that provokes an HTTP 401/429/5xx on purpose expects Chromium's "Failed to load resource"
 * line for it, and nothing else).
 */
export async function openPage(browser, { viewport = DESKTOP, url = SANDBOX_URL, isMobile = false, waitForData = true } = {}) {
  const context = await browser.newContext({
    viewport, locale: "en-US", timezoneId: "UTC", acceptDownloads: true,
    deviceScaleFactor: isMobile ? 2 : 1, isMobile, hasTouch: isMobile,
  });
  const page = await context.newPage();
  const seen = [];
  const expected = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") seen.push(`console.error: ${msg.text()}${msg.location()?.url ? ` (${msg.location().url})` : ""}`);
  });
  page.on("pageerror", (err) => seen.push(`uncaught: ${err && err.stack ? err.stack : err}`));
  page.on("crash", () => seen.push("page crashed"));
  if (url) {
    await page.goto(url, { waitUntil: "load" });
    if (waitForData) await waitForDashboard(page);
  }
  return {
    context,
    page,
    expectConsoleError(re) { expected.push(re); },
    problems() { return seen.filter((line) => !expected.some((re) => re.test(line))); },
    async close() { await context.close(); },
  };
}

/** Wait until the page has connected and both the profile and the first orders page are shown. */
export async function waitForDashboard(page) {
  await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid="orders-summary"]');
    return t && t.dataset.total !== undefined && document.querySelectorAll('[data-testid="order-row"]').length > 0;
  }, null, { timeout: 20_000 });
}

/** Wait until no orders request is in flight. */
export async function ordersIdle(page) {
  await page.waitForFunction(() => document.querySelector('[data-testid="orders-table-wrap"]')?.getAttribute("aria-busy") === "false",
    null, { timeout: 20_000 });
}

export function screenshotDir() {
  const dir = path.resolve(process.env.SCREENSHOT_DIR || "target/screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The dashboard, loaded and with USDC withdrawal info shown, at desktop width (1280×900,
 * full page) and phone width (390×844 at 2× density: the first screen, plus the full page).
 * Returns { desktop, phone, phoneFull } file paths.
 */
export async function takeScreenshots(browser, { dir = screenshotDir(), prefix = "demo", url = SANDBOX_URL } = {}) {
  const out = {};
  for (const [name, viewport, isMobile] of [["desktop", DESKTOP, false], ["phone", PHONE, true]]) {
    const s = await openPage(browser, { viewport, url, isMobile });
    try {
      await s.page.locator('[data-testid="withdrawal-symbol"]').fill("USDC");
      await s.page.locator('[data-testid="withdrawal-lookup"]').click();
      await s.page.waitForSelector('[data-testid="network-chip"]');
      await s.page.locator('[data-testid="withdrawal-address"]').fill("0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B");
      if (name === "desktop" && (await s.page.locator('[data-testid="ramp-panel"]').getAttribute("data-available")) === "true") {
        // Show the ramp panel at work: a link, the hosted page framed, its event listed.
        await s.page.locator('[data-testid="ramp-reference"]').fill("order-42");
        await s.page.locator('[data-testid="ramp-build"]').click();
        await s.page.locator('[data-testid="ramp-open"]').click();
        await s.page.locator('[data-testid="ramp-event"]').first().waitFor({ timeout: 10_000 });
        await s.page.frameLocator('[data-testid="ramp-frame"]').locator("h1").waitFor({ timeout: 10_000 });
        await s.page.waitForTimeout(300);
      }
      await s.page.evaluate(() => document.fonts && document.fonts.ready);
      await s.page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      const shoot = (file, fullPage) => s.page.screenshot({ path: path.join(dir, file), fullPage, animations: "disabled", caret: "hide" });
      if (name === "desktop") {
        // Grow the viewport to the whole page first: a full-page capture of a resized viewport
        // can leave the cross-origin ramp frame unpainted.
        const height = await s.page.evaluate(() => document.documentElement.scrollHeight);
        await s.page.setViewportSize({ width: viewport.width, height });
        await s.page.waitForTimeout(400);
        await shoot(`${prefix}-desktop.png`, false);
        out.desktop = path.join(dir, `${prefix}-desktop.png`);
      } else {
        await shoot(`${prefix}-phone.png`, false);
        await shoot(`${prefix}-phone-full.png`, true);
        out.phone = path.join(dir, `${prefix}-phone.png`);
        out.phoneFull = path.join(dir, `${prefix}-phone-full.png`);
      }
      const problems = s.problems();
      if (problems.length) throw new Error(`page errors while taking the ${name} screenshot:\n${problems.join("\n")}`);
    } finally {
      await s.close();
    }
  }
  return out;
}

/** Parse RFC 4180 CSV text (quoted fields, "" escapes, CRLF) into arrays of strings. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && s[i + 1] === "\n") i++;
      row.push(field); rows.push(row); row = []; field = "";
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** Text of the element with data-testid `id`. */
export function text(page, id) {
  return page.locator(`[data-testid="${id}"]`).first().innerText();
}

export function byTestId(page, id) {
  return page.locator(`[data-testid="${id}"]`);
}

/** Agent 1's seeded orders straight from the sandbox (`GET /__sandbox/orders?agent=1`): the
 *  tests' oracle for totals, independent of the page and of the package. */
export async function seededOrders(agent = 1) {
  const res = await fetch(new URL(`/__sandbox/orders?agent=${agent}`, SANDBOX_URL));
  if (!res.ok) throw new Error(`/__sandbox/orders: HTTP ${res.status}`);
  return res.json();
}

/** The orderHistory filter semantics (UTC dates, inclusive), for the oracle. */
export function matchesFilter(o, { status, paymentMethod, dateFrom, dateTo, orderId } = {}) {
  const day = String(o.createdAt).slice(0, 10);
  return (!status || o.status === status) && (!paymentMethod || o.paymentMethod === paymentMethod) &&
    (!dateFrom || day >= dateFrom) && (!dateTo || day <= dateTo) && (!orderId || o.orderId === orderId);
}

/**
 * The `afterEach` of the page suites: closes a test's page session (from `openPage`), if
 * any, and fails the test when the page logged errors or threw.
 */
export async function closeSession(s, what = "the page logged errors or threw") {
  if (!s) return;
  const problems = s.problems();
  await s.close();
  assert.deepEqual(problems, [], what);
}

/**
 * Starts the demo server (scripts/demo-server.mjs: the page's origin in front of the sandbox,
 * with the server proxy route POST /api/bot holding AGENT_KEY, and the Payments panel's routes
 * holding MERCHANT_SECRET_KEY, the sandbox's webhooks pointed at it) on a free 127.0.0.1 port,
 * with `env` added to this process's environment (e.g. `WEBHOOK_TOKEN`).
 * Resolves to `{ url, stop, output }`; `stop()` ends the process by its PID; `output()` is
 * everything it printed (stdout and stderr) so far.
 */
export async function startDemoServer(env = {}) {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [path.resolve("scripts/demo-server.mjs"), "0"], {
    env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stderr.on("data", (d) => { out += d; process.stderr.write(d); });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the demo server did not start in 30 s")), 30_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /demo server: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`the demo server exited (${code})`)); });
  });
  return {
    url,
    output: () => out,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      process.kill(child.pid);
    }),
  };
}
