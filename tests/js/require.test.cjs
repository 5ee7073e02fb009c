// CommonJS consumers: require("settlement-wasm") works synchronously and talks to the sandbox.
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { BotClient, SettlementError } = require("settlement-wasm");

test("require(): profile() through the real wasm + fetch path", async () => {
  const bot = new BotClient({ baseUrl: process.env.SANDBOX_URL, apiKey: process.env.AGENT_KEY });
  const p = await bot.profile();
  assert.equal(p.id, "agent-1");
  assert.equal(p.email, "amara.okafor@example.com");
  assert.equal(Object.getPrototypeOf(p), Object.prototype, "a plain object, not a Map");
});

test("require(): errors are SettlementError instances", async () => {
  const bot = new BotClient({ baseUrl: process.env.SANDBOX_URL, apiKey: "SBX-SECK_wrong" });
  await assert.rejects(bot.profile(), (e) => e instanceof SettlementError && e.code === "unauthorized");
});
