// The dashboard "through the server proxy (no key in the page)", and every bot method through
// createProxyHandler from Chromium: the demo server (scripts/demo-server.mjs) serves the page
// and the proxy route POST /api/bot, which holds the agent key; the page has none.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { AGENT_KEY, SANDBOX_URL, launch, openPage, requireSandbox, startDemoServer } from "./support/browser.mjs";

requireSandbox();
let browser;
let demo;
const resetAgent1 = async () => {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/state?agent=1`, { method: "DELETE" });
  assert.equal(res.status, 204);
};
before(async () => {
  browser = await launch();
  demo = await startDemoServer();
});
after(async () => {
  await browser?.close();
  await demo?.stop();
  await resetAgent1();
});

/** Whether `text` holds the agent key or a run of 8 characters of its secret part. */
function holdsKey(text) {
  const secret = AGENT_KEY.replace(/^.*?(PUBK_|SECK_)/, "");
  if (text.includes(AGENT_KEY)) return true;
  for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) return true;
  return false;
}

test("the dashboard connects through the server proxy: its data shown, no key in the page or its requests", async () => {
  const requests = [];
  const s = await openPage(browser, { url: null });
  try {
    s.page.on("request", (r) => requests.push({ url: r.url(), headers: r.headers(), body: r.postData() ?? "" }));
    await s.page.goto(`${demo.url}/?connect=proxy`, { waitUntil: "load" });
    const { waitForDashboard } = await import("./support/browser.mjs");
    await waitForDashboard(s.page);
    assert.equal(await s.page.locator('[data-testid="connection-mode"]').inputValue(), "proxy");
    assert.equal(await s.page.locator('[data-testid="base-url"]').inputValue(), `${demo.url}/api/bot`);
    assert.ok(await s.page.locator('[data-testid="agent-key"]').isHidden(), "no key field in proxy mode");
    assert.match(await s.page.locator('[data-testid="connection-status"]').innerText(), /Connected as/);
    const graphql = requests.filter((r) => r.body.includes("query") || r.url.includes("graphql"));
    assert.ok(graphql.length >= 2, "profile and orders were fetched");
    for (const r of graphql) {
      assert.equal(new URL(r.url).pathname, "/api/bot", `every GraphQL request goes to the proxy: ${r.url}`);
      assert.ok(!("authorization" in r.headers), "the page sends no Authorization");
    }
    const everything = (await s.page.content()) + JSON.stringify(requests) +
      await s.page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    assert.ok(!holdsKey(everything), "no piece of the key in the page, its storage or its requests");
    assert.deepEqual(s.problems(), []);
  } finally {
    await s.close();
  }
});

test("every bot method through new BotClient({ endpoint: \"/api/bot\" }) in Chromium: the same as direct", async () => {
  const s = await openPage(browser, { url: `${demo.url}/`, waitForData: false });
  try {
    await resetAgent1();
    const results = await s.page.evaluate(async ({ base, key }) => {
      const m = await import("/pkg/index.js");
      await m.default();
      const calls = [
        ["profile", (c) => c.profile()],
        ["orderHistory", (c) => c.orderHistory({ page: 1, perPage: 5, filter: { status: "completed" } })],
        ["withdrawalInfo", (c) => c.withdrawalInfo("USDC")],
        ["acceptWithdrawal", (c) => c.acceptWithdrawal("p2p_999999")],
        ["cancelWithdrawal", (c) => c.cancelWithdrawal("p2p_999999")],
        ["markDepositAsReceived", (c) => c.markDepositAsReceived("p2p_999999")],
        ["markWithdrawalAsPaid", (c) => c.markWithdrawalAsPaid({ p2pPayment: "p2p_999999", paymentMethod: "pm_200002" })],
        ["updateRates", (c) => c.updateRates({ depositRate: "15.55" })],
        ["updatePaymentMethodLiquidity", (c) => c.updatePaymentMethodLiquidity({ paymentMethodType: "mtn_momo", amountLocal: "4200.00" })],
      ];
      const settle = async (p) => { try { return { value: await p }; } catch (e) { return { code: e.code, message: e.message, status: e.status }; } };
      const proxied = new m.BotClient({ endpoint: "/api/bot" });
      const direct = new m.BotClient({ baseUrl: base, apiKey: key });
      const out = [];
      for (const [name, call] of calls) out.push([name, await settle(call(proxied)), await settle(call(direct))]);
      return out;
    }, { base: SANDBOX_URL, key: AGENT_KEY });
    assert.equal(results.length, 9);
    for (const [name, proxied, direct] of results) assert.deepEqual(proxied, direct, name);
    assert.ok(results.some(([, p]) => "value" in p) && results.some(([, p]) => p.code === "graphql"));
  } finally {
    await s.close();
    await resetAgent1();
  }
});
