// Browser (and any ES-module, non-Node) entry of settlement-wasm.
//
//   import init, { BotClient } from "settlement-wasm";   // or "./pkg/index.js" on a plain page
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// No top-level await: nothing is fetched until init() is called.
import wbgInit, { initSync as wbgInitSync, __registerErrorClass, OrderIterator } from "./web/settlement_wasm.js";

export * from "./web/settlement_wasm.js";

/** Every failure of this package is a SettlementError (see index.d.ts for its fields). */
export class SettlementError extends Error {
  constructor(message, details) {
    super(message);
    this.name = "SettlementError";
    if (details) Object.assign(this, details);
  }
}

let ready = null;

function finish() {
  __registerErrorClass(SettlementError);
  if (!OrderIterator.prototype[Symbol.asyncIterator]) {
    OrderIterator.prototype[Symbol.asyncIterator] = function () { return this; };
  }
}

/**
 * Load and instantiate the WebAssembly module. Idempotent: every call returns the same promise.
 * `input` (optional): a URL/string/Request/Response/BufferSource/WebAssembly.Module for the
 * .wasm file; by default it is fetched from beside this file.
 */
export default function init(input) {
  if (!ready) {
    ready = wbgInit(input === undefined ? undefined : { module_or_path: input })
      .then(() => { finish(); })
      .catch((e) => { ready = null; throw e; });
  }
  return ready;
}

/** Instantiate synchronously from bytes or a compiled WebAssembly.Module (e.g. in a worker). */
export function initSync(moduleOrBytes) {
  wbgInitSync({ module: moduleOrBytes });
  finish();
  ready = ready || Promise.resolve();
}

export { init };
