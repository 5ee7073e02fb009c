// The merchant side of the package in a real browser (Chromium via playwright-core): the
// secret-key guard, a ramp link to the sandbox's hosted ramp page on a second origin
// (SANDBOX_RAMP_URL), framed, and listenForRampEvents accepting exactly the right messages.
// The page is a blank document on SANDBOX_URL's origin that imports /pkg/index.js: a real
// navigation to the sandbox (so Chromium's local-network checks see a loopback page, which may
// frame the loopback ramp page), then page.setContent.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const { SANDBOX_URL, SANDBOX_RAMP_URL, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY } = process.env;

let browser;
let context;
let page;
const problems = [];

before(async () => {
  if (!SANDBOX_URL || !SANDBOX_RAMP_URL || !MERCHANT_PUBLIC_KEY || !MERCHANT_SECRET_KEY) {
    throw new Error("SANDBOX_URL, SANDBOX_RAMP_URL and MERCHANT_*_KEY are not set: run through scripts/with-sandbox.sh");
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext();
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.stack || e}`));
  page.on("console", (m) => {
    const where = m.location()?.url || "";
    // Chromium asks for /favicon.ico on its own; the sandbox has none. Nothing else may fail.
    if (m.type() === "error" && !where.endsWith("/favicon.ico")) problems.push(`console.error: ${m.text()} (${where})`);
  });
  await page.goto(`${SANDBOX_URL}/__sandbox/info`);
  await page.setContent("<!doctype html><html lang=en><head><meta charset=utf-8><title>listener</title></head><body></body></html>");
  await page.evaluate(async () => {
    window.pkg = await import("/pkg/index.js");
    await window.pkg.default();
  });
});

after(async () => {
  await context?.close();
  await browser?.close();
});

test("in a real browser, a secret key is refused; the opt-out and the public key work", async () => {
  const r = await page.evaluate(async ({ base, secret, pub }) => {
    const { MerchantClient, SettlementError } = window.pkg;
    let refused = null;
    try {
      new MerchantClient({ baseUrl: base, apiKey: secret });
    } catch (e) {
      refused = { isSettlement: e instanceof SettlementError, code: e.code, field: e.field, message: e.message,
        everything: JSON.stringify(Object.getOwnPropertyNames(e).map((k) => String(e[k]))) };
    }
    const account = await new MerchantClient({ baseUrl: base, apiKey: secret, dangerouslyAllowBrowser: true }).account();
    const countries = await new MerchantClient({ baseUrl: base, apiKey: pub }).availableCountries();
    let forbidden = null;
    try { await new MerchantClient({ baseUrl: base, apiKey: pub }).account(); } catch (e) { forbidden = e.code; }
    return { refused, account, countries: countries.length, forbidden };
  }, { base: SANDBOX_URL, secret: MERCHANT_SECRET_KEY, pub: MERCHANT_PUBLIC_KEY });
  assert.ok(r.refused, "the constructor threw");
  assert.equal(r.refused.isSettlement, true);
  assert.equal(r.refused.code, "secret_key_in_browser");
  assert.equal(r.refused.field, "apiKey");
  assert.match(r.refused.message, /server/);
  assert.match(r.refused.message, /proxy/);
  assert.match(r.refused.message, /public key/);
  assert.ok(!r.refused.everything.includes(MERCHANT_SECRET_KEY), "the key is nowhere in the error");
  assert.equal(r.account.accountBalance, "1520.00");
  assert.equal(r.countries, 3);
  assert.equal(r.forbidden, "forbidden");
});

test("the ramp link opens the hosted page on the second origin; the listener fires once, for that origin only", async () => {
  const rampOrigin = new URL(SANDBOX_RAMP_URL).origin;
  const pageOrigin = new URL(SANDBOX_URL).origin;
  assert.notEqual(rampOrigin, pageOrigin, "the ramp page is another origin");
  const reference = "e2e ref & #1 = ü";

  const link = await page.evaluate(({ rampOrigin, pageOrigin, rampUrl, key, reference }) => {
    const { onchainRampUrl, listenForRampEvents } = window.pkg;
    window.got = [];        // the listener for the ramp page's origin
    window.gotOther = [];   // a listener for another origin (this page's own)
    window.raw = [];        // every message delivered, for sequencing
    window.addEventListener("message", (e) => window.raw.push(e.origin));
    window.stop = listenForRampEvents({
      allowedOrigin: rampOrigin,
      onCryptoRequested: (payload, event) => window.got.push({ payload, origin: event.origin }),
    });
    window.stopOther = listenForRampEvents({
      allowedOrigin: pageOrigin,
      onCryptoRequested: (payload) => window.gotOther.push(payload),
    });
    const link = onchainRampUrl({ rampUrl, key, paymentType: "deposit", coin: "USDC", network: "CELO", amount: "25.00", reference });
    const frame = document.createElement("iframe");
    frame.src = link;
    document.body.append(frame);
    return link;
  }, { rampOrigin, pageOrigin, rampUrl: `${SANDBOX_RAMP_URL}/hosted/ramp`, key: MERCHANT_PUBLIC_KEY, reference });

  const url = new URL(link);
  assert.equal(url.origin, rampOrigin);
  assert.equal(url.searchParams.get("reference"), reference);
  assert.equal(url.searchParams.get("key"), MERCHANT_PUBLIC_KEY);

  // The hosted page posts crypto.requested to its parent on load.
  await page.waitForFunction(() => window.got.length === 1, null, { timeout: 15_000 });
  const first = await page.evaluate(() => window.got[0]);
  assert.equal(first.origin, rampOrigin);
  assert.equal(first.payload.amountCents, 2500);
  assert.equal(first.payload.destinationAddress, "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D");
  assert.equal(first.payload.paymentRequest.reference, reference, "the reference survived the link and the page");

  // From the ramp frame (the right origin): a malformed message and another event, then the
  // real one as a sentinel (messages from one source arrive in order).
  const frame = page.frames().find((f) => f.url().startsWith(rampOrigin));
  assert.ok(frame, "the ramp frame is loaded");
  await frame.evaluate(() => {
    const good = window.sandboxRampMessage();
    parent.postMessage({ event: "crypto.requested", payload: { ...good.payload, amountCents: "2500" } }, "*");
    parent.postMessage({ event: "crypto.requested" }, "*");
    parent.postMessage("crypto.requested", "*");
    parent.postMessage({ ...good, event: "crypto.cancelled" }, "*");
    document.getElementById("send").click(); // the real message again
  });
  await page.waitForFunction(() => window.got.length >= 2, null, { timeout: 10_000 });
  // From this page itself (a wrong origin for the ramp listener): ignored there, but the
  // listener whose allowedOrigin is this page's origin takes it.
  await page.evaluate(() => {
    const msg = { event: "crypto.requested", payload: { amountCents: 1, destinationAddress: "0xevil", paymentRequest: "pr_evil" } };
    window.postMessage(msg, "*");
  });
  await page.waitForFunction(() => window.gotOther.length === 1, null, { timeout: 10_000 });
  let state = await page.evaluate(() => ({ got: window.got, gotOther: window.gotOther, raw: window.raw.length }));
  assert.equal(state.got.length, 2, "exactly the two real messages reached the ramp listener");
  assert.ok(state.got.every((g) => g.origin === rampOrigin && g.payload.amountCents === 2500));
  assert.equal(state.gotOther.length, 1, "the other-origin listener never saw the ramp page's messages");
  assert.equal(state.gotOther[0].destinationAddress, "0xevil");
  assert.equal(state.raw, 7, "every message was delivered: the load post, 4 bad + 1 real from the frame, 1 from the page");

  // Unsubscribed: a real message from the frame is delivered but reaches no callback.
  await page.evaluate(() => { window.stop(); window.stop(); window.stopOther(); });
  const before = state.raw;
  await frame.evaluate(() => document.getElementById("send").click());
  await page.waitForFunction((n) => window.raw.length === n + 1, before, { timeout: 10_000 });
  state = await page.evaluate(() => ({ got: window.got.length, gotOther: window.gotOther.length }));
  assert.deepEqual(state, { got: 2, gotOther: 1 });
  assert.deepEqual(problems, [], "the page logged no errors");
});
