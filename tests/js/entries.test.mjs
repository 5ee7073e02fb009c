// The per-client entries, `settlement-wasm/bot` and `settlement-wasm/merchant`, as npm consumers
// get them: their exports in every condition, a call against the sandbox through each (the
// server entries in Node, and each browser bundle with its own .wasm), and what they leave out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import * as root from "settlement-wasm";
import * as bot from "settlement-wasm/bot";
import * as merchant from "settlement-wasm/merchant";
import { SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const pkgDir = new URL("./node_modules/settlement-wasm/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));
const names = (m) => Object.keys(m).filter((n) => n !== "default").sort();

const BOT = ["BotClient", "OrderIterator", "OrderWatch", "SettlementError", "init", "initSync"];
const MERCHANT = ["MerchantClient", "SettlementError", "init", "initSync", "listenForRampEvents", "onchainRampUrl"];

test("package.json: ./bot and ./merchant serve every condition the root does, each with its own types first", () => {
  const conditions = Object.keys(manifest.exports["."]);
  for (const [entry, browserTypes, serverTypes] of [["bot", "bot", "bot"], ["merchant", "merchant", "merchant-node"]]) {
    const e = manifest.exports[`./${entry}`];
    assert.deepEqual(Object.keys(e), conditions, entry);
    const targets = {
      "workerd": [e.workerd, `./${serverTypes}.d.ts`, `./${entry}/edge.js`],
      "edge-light": [e["edge-light"], `./${serverTypes}.d.ts`, `./${entry}/edge.js`],
      "node.import": [e.node.import, `./${serverTypes}.d.ts`, `./${entry}/node.mjs`],
      "node.require": [e.node.require, `./${serverTypes}.d.cts`, `./${entry}/node.cjs`],
      "require": [e.require, `./${browserTypes}.d.cts`, `./${entry}.js`],
      "default": [e.default, `./${browserTypes}.d.ts`, `./${entry}.js`],
    };
    for (const [name, [target, types, js]] of Object.entries(targets)) {
      assert.deepEqual(Object.keys(target), ["types", "default"], `${entry} ${name}: types must be the first condition`);
      assert.equal(target.types, types, `${entry} ${name} types`);
      assert.equal(target.default, js, `${entry} ${name} code`);
    }
    assert.equal(manifest.exports[`./${entry}_bg.wasm`], `./web/${entry}_bg.wasm`);
  }
  // The root entry is unchanged.
  assert.equal(manifest.exports["."].default.default, "./index.js");
  assert.equal(manifest.exports["./settlement_wasm_bg.wasm"], "./web/settlement_wasm_bg.wasm");
});

test("each entry exports its client's API only, the same in the browser bundle and in Node (import and require)", async () => {
  for (const [entry, m, expected] of [["bot", bot, BOT], ["merchant", merchant, MERCHANT]]) {
    const web = await import(new URL(`${entry}.js`, pkgDir).href);
    const cjs = require(`settlement-wasm/${entry}`);
    for (const [where, x] of [["browser", web], ["node import", m], ["node require", cjs]]) {
      assert.deepEqual(names(x), expected, `${entry} (${where})`);
      assert.equal(typeof x.default, "function", `${entry} (${where}): default export (init)`);
    }
    // One instance in a server process: the entry's classes are the root's.
    for (const n of expected) assert.equal(m[n], root[n], `${entry}: ${n} is the root's`);
    assert.equal(cjs.SettlementError, root.SettlementError);
  }
  // A root-only export is absent from the bot entry (and the other client's class from each).
  for (const n of ["MerchantClient", "classifyKey", "parseAmount", "onchainRampUrl", "listenForRampEvents"]) {
    assert.ok(!(n in bot), `bot entry has no ${n}`);
  }
  for (const n of ["BotClient", "OrderWatch", "classifyKey", "parseAmount"]) assert.ok(!(n in merchant), `merchant entry has no ${n}`);
  // The types say the same.
  const dts = (f) => readFileSync(new URL(f, pkgDir), "utf8");
  for (const f of ["bot.d.ts", "bot.d.cts"]) assert.doesNotMatch(dts(f), /MerchantClient|classifyKey|parseAmount/, f);
  for (const f of ["merchant.d.ts", "merchant.d.cts"]) assert.doesNotMatch(dts(f), /BotClient|classifyKey|parseAmount/, f);
  assert.match(dts("merchant-node.d.ts"), /export \{ MerchantClient \} from "\.\/types\/server\.js"/);
});

test("settlement-wasm/bot in Node: profile() against the sandbox", async () => {
  const p = await new bot.BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile();
  assert.equal(p.id, "agent-1");
});

test("settlement-wasm/merchant in Node: rampLimits() against the sandbox with the public key", async () => {
  const limits = await new merchant.MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY }).rampLimits();
  assert.equal(typeof limits, "object");
  assert.ok(limits !== null);
});

/** The exports of a browser entry's .wasm (web/<file>). */
function wasmExports(file) {
  const module = new WebAssembly.Module(readFileSync(new URL(`web/${file}`, pkgDir)));
  return WebAssembly.Module.exports(module).map((e) => e.name);
}

test("each browser entry's .wasm is compiled with only its client's code", () => {
  const all = wasmExports("settlement_wasm_bg.wasm");
  const botWasm = wasmExports("bot_bg.wasm");
  const merchantWasm = wasmExports("merchant_bg.wasm");
  for (const x of ["core_orders", "core_watchorders", "core_reconcile", "core_confirmation", "onchainrampurl", "classifykey"]) {
    assert.ok(all.some((e) => e.toLowerCase() === x), `root .wasm has ${x}`);
  }
  const lower = (list) => list.map((e) => e.toLowerCase());
  for (const x of ["core_confirmation", "onchainrampurl", "checkramplistener", "classifykey", "parseamount"]) {
    assert.ok(!lower(botWasm).includes(x), `bot .wasm has no ${x}`);
  }
  assert.ok(lower(botWasm).includes("core_orders"));
  for (const x of ["core_orders", "core_watchorders", "core_reconcile", "classifykey", "parseamount"]) {
    assert.ok(!lower(merchantWasm).includes(x), `merchant .wasm has no ${x}`);
  }
  assert.ok(lower(merchantWasm).includes("core_confirmation"));
  // Smaller than the root's.
  const size = (f) => readFileSync(new URL(`web/${f}`, pkgDir)).length;
  assert.ok(size("bot_bg.wasm") < size("settlement_wasm_bg.wasm"));
  assert.ok(size("merchant_bg.wasm") < size("settlement_wasm_bg.wasm"));
});

test("the browser bundles with their own .wasm: a call against the sandbox through each", async () => {
  const webBot = await import(new URL("bot.js", pkgDir).href);
  webBot.initSync(readFileSync(new URL("web/bot_bg.wasm", pkgDir)));
  const p = await new webBot.BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile();
  assert.equal(p.id, "agent-1");

  const webMerchant = await import(new URL("merchant.js", pkgDir).href);
  webMerchant.initSync(readFileSync(new URL("web/merchant_bg.wasm", pkgDir)));
  const m = new webMerchant.MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_PUBLIC_KEY });
  assert.equal(typeof (await m.rampLimits()), "object");
  assert.match(webMerchant.onchainRampUrl({ rampUrl: "https://ramp.example/x", key: "SBX-PUBK_demo1234", paymentType: "deposit", coin: "USDC", network: "CELO", address: "0x1" }), /^https:\/\/ramp\.example\//);
});
