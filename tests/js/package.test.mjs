// The package as npm consumers get it: entry points, exports, init, error class.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import * as esm from "settlement-wasm";
import init, { BotClient, SettlementError, initSync } from "settlement-wasm";

const require = createRequire(import.meta.url);
const pkgDir = new URL("./node_modules/settlement-wasm/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));

test("package.json: exports map serves browser, import and require, each with its own types first", () => {
  assert.equal(manifest.name, "settlement-wasm");
  assert.match(manifest.version, /^\d+\.\d+\.\d+/);
  const root = manifest.exports["."];
  // The edge runtimes' conditions come first (a bundler for workerd or edge-light may also set
  // `node`, `worker` or `browser`): the first matching key of the package's object wins.
  assert.deepEqual(Object.keys(root), ["workerd", "edge-light", "node", "require", "default"]);
  const targets = {
    // The server entries' types add the secret-key methods of their MerchantClient, and createProxyHandler.
    "workerd": [root.workerd, "./node.d.ts", "./edge/index.js"],
    "edge-light": [root["edge-light"], "./node.d.ts", "./edge/index.js"],
    "node.import": [root.node.import, "./node.d.ts", "./node/index.mjs"],
    "node.require": [root.node.require, "./node.d.cts", "./node/index.cjs"],
    "require": [root.require, "./index.d.cts", "./index.js"],
    "default": [root.default, "./index.d.ts", "./index.js"],
  };
  for (const [name, [target, types, js]] of Object.entries(targets)) {
    assert.deepEqual(Object.keys(target), ["types", "default"], `${name}: types must be the first condition`);
    assert.equal(target.types, types, `${name} types`);
    assert.equal(target.default, js, `${name} code`);
  }
  assert.equal(manifest.exports["./settlement_wasm_bg.wasm"], "./web/settlement_wasm_bg.wasm");
  assert.equal(manifest.sideEffects, false);
  for (const f of manifest.files) {
    assert.doesNotThrow(() => readFileSync(new URL(f, pkgDir)), `packed file ${f} is missing`);
  }
});

test("Node ESM import and require give the same classes (one instance, no dual-package hazard)", () => {
  const cjs = require("settlement-wasm");
  assert.equal(cjs.BotClient, BotClient);
  assert.equal(cjs.SettlementError, SettlementError);
  const esmNames = Object.keys(esm).filter((n) => n !== "default").sort();
  const cjsNames = Object.keys(cjs).filter((n) => n !== "default").sort();
  assert.deepEqual(esmNames, cjsNames);
});

test("every entry exports exactly the public API (no internals), and the types declare each name", async () => {
  const expected = [
    "BotClient", "MerchantClient", "OrderIterator", "OrderWatch", "SettlementError", "classifyKey", "init",
    "initSync", "listenForRampEvents", "onchainRampUrl", "parseAmount",
  ];
  // The server entries (Node) add the server-only API; the browser entry never has it.
  const server = [...expected, "createProxyHandler", "createWebhookHandler", "verifyWebhook"].sort();
  const web = await import(new URL("index.js", pkgDir).href);
  const cjs = require("settlement-wasm");
  for (const [entry, m, names] of [["browser", web, expected], ["node import", esm, server], ["node require", cjs, server]]) {
    assert.deepEqual(Object.keys(m).filter((n) => n !== "default").sort(), names, entry);
    assert.equal(typeof m.default, "function", `${entry}: default export (init)`);
  }
  const derived = readFileSync(new URL("node/settlement_wasm.d.ts", pkgDir), "utf8");
  const declares = (types, names) => {
    const dts = readFileSync(new URL(types, pkgDir), "utf8") + derived;
    for (const n of names) assert.match(dts, new RegExp(`export (declare )?(class|function|const) ${n}\\b|export \\{[^}]*\\b${n}\\b`), `${types}: ${n}`);
    assert.doesNotMatch(dts, /export function __/);
  };
  declares("index.d.ts", expected);
  // The server entries' types: index.d.ts's (re-exported whole) and the server-only names.
  for (const [types, index] of [["node.d.ts", "./index.js"], ["node.d.cts", "./index.cjs"]]) {
    assert.match(readFileSync(new URL(types, pkgDir), "utf8"), new RegExp(`export \\* from "${index.replace(".", "\\.")}"`), types);
    declares(types, ["MerchantClient", "createProxyHandler", "createWebhookHandler", "verifyWebhook"]);
  }
  assert.doesNotMatch(readFileSync(new URL("index.d.ts", pkgDir), "utf8"), /createProxyHandler|createWebhookHandler|verifyWebhook/, "browser types");
  // Nor the browser build's code or wasm: the proxy's checks are compiled into the server build only.
  assert.doesNotMatch(readFileSync(new URL("index.js", pkgDir), "utf8"), /ProxyPolicy|createProxyHandler|WebhookPolicy|createWebhookHandler|verifyWebhook|webhookReadBack/);
  assert.ok(!readFileSync(new URL("web/settlement_wasm_bg.wasm", pkgDir)).includes("webhookpolicy_"), "browser wasm has no webhook export");
  assert.ok(readFileSync(new URL("edge/settlement_wasm_bg.wasm", pkgDir)).includes("webhookpolicy_"), "server wasm has the webhook export");
  assert.ok(!readFileSync(new URL("web/settlement_wasm_bg.wasm", pkgDir)).includes("proxypolicy_"), "browser wasm has no proxy export");
  assert.ok(readFileSync(new URL("edge/settlement_wasm_bg.wasm", pkgDir)).includes("proxypolicy_"), "server wasm (edge/, embedded in node/) has the proxy export");
});

test("init() is idempotent in Node and resolves at once", async () => {
  const a = init();
  const b = init();
  assert.equal(a, b);
  await a;
  assert.doesNotThrow(() => initSync());
});

test("SettlementError is an exported Error subclass", () => {
  const e = new SettlementError("boom", { code: "http", status: 500 });
  assert.ok(e instanceof Error);
  assert.ok(e instanceof SettlementError);
  assert.equal(e.name, "SettlementError");
  assert.equal(e.code, "http");
  assert.equal(e.status, 500);
});

test("the browser entry loads in Node through initSync with the wasm bytes", async () => {
  const web = await import(new URL("index.js", pkgDir).href);
  const bytes = readFileSync(new URL("web/settlement_wasm_bg.wasm", pkgDir));
  web.initSync(bytes);
  await web.default(); // memoised: resolves without fetching
  let caught;
  try {
    new web.BotClient({});
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof web.SettlementError, "errors from the web build are its SettlementError");
  assert.equal(caught.code, "invalid_input");
});
