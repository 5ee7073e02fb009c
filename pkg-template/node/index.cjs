"use strict";
// Node entry (CommonJS) of settlement-wasm. The module is instantiated synchronously on
// require, so init() is optional here (kept for code shared with the browser). The classes
// and functions are compose.cjs's (the CommonJS twin of compose.js, which the browser entry
// bundles): the same code in both.
const { compose, SettlementError } = require("./compose.cjs");

// The glue reads and compiles node/settlement_wasm_bg.wasm as it loads: a missing or damaged
// file is a SettlementError (`wasm_load`) thrown by require/import, not a bare ENOENT.
let glue;
try {
  glue = require("./settlement_wasm.js");
} catch (e) {
  const why = e && e.code === "ENOENT"
    ? "node/settlement_wasm_bg.wasm is missing from the installed package"
    : "node/settlement_wasm_bg.wasm is not a WebAssembly module this version can load";
  throw new SettlementError(`settlement-wasm: ${why}; reinstall the package. Cause: ${e && e.message}`,
    { code: "wasm_load", cause: e });
}

const api = compose(glue.__Client, glue.__fn);
api.register();

const ready = Promise.resolve();
function init() { return ready; }
function initSync() {}

// The public names only (the glue's `__` exports are this entry's internals).
const {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount, listenForRampEvents,
} = api;
module.exports = {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount,
  SettlementError, listenForRampEvents, init, initSync, default: init,
};
// For transpiled `import init from "settlement-wasm"` (TypeScript/Babel interop): `default` is init.
Object.defineProperty(module.exports, "__esModule", { value: true });
