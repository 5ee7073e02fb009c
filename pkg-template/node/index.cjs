"use strict";
// Node entry (CommonJS) of settlement-wasm. The module is instantiated synchronously on
// require, so init() is optional here (kept for code shared with the browser).

/** Every failure of this package is a SettlementError (see index.d.ts for its fields). */
class SettlementError extends Error {
  constructor(message, details) {
    super(message);
    this.name = "SettlementError";
    if (details) Object.assign(this, details);
  }
}

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

glue.__registerErrorClass(SettlementError);

/** See index.d.ts (same as the browser entry's). */
function listenForRampEvents(options) {
  // Whatever the caller passes (a Proxy, a throwing getter or target, a hostile message)
  // ends in a SettlementError or is ignored; only onCryptoRequested's own errors propagate.
  const no = (field) => new SettlementError(`${field} could not be read (a getter or Proxy trap threw)`,
    { code: "invalid_input", field });
  let allowedOrigin, onCryptoRequested, target;
  try { ({ allowedOrigin, onCryptoRequested, target } = options ?? {}); } catch { throw no("options"); }
  const t = glue.__rampListener(allowedOrigin, onCryptoRequested, target);
  const listener = (e) => {
    let p;
    try {
      if (!glue.__rampAccepts(allowedOrigin, e.origin, e.data)) return;
      p = e.data.payload;
    } catch { return; }
    onCryptoRequested(p, e);
  };
  try { t.addEventListener("message", listener); } catch { throw no("target"); }
  return () => { try { t.removeEventListener("message", listener); } catch { /* ignored */ } };
}

const ready = Promise.resolve();
function init() { return ready; }
function initSync() {}

// The public names only (the glue's `__` functions are this entry's internals).
const { classifyKey, onchainRampUrl, parseAmount } = glue;
// The named methods, orders() and its OrderIterator, reconcile and the receiver guard: see
// compose.js (this is its CommonJS twin).
const [BotClient, MerchantClient, OrderIterator] = require("./compose.cjs")
  .compose(glue.__Client, SettlementError);
module.exports = {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount,
  SettlementError, listenForRampEvents, init, initSync, default: init,
};
// For transpiled `import init from "settlement-wasm"` (TypeScript/Babel interop): `default` is init.
Object.defineProperty(module.exports, "__esModule", { value: true });
