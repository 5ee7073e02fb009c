// Browser (and any ES-module, non-Node) entry of settlement-wasm.
//
//   import init, { BotClient } from "settlement-wasm";   // or "./pkg/index.js" on a plain page
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// No top-level await: nothing is fetched until init() is called.
import wbgInit, {
  initSync as wbgInitSync, __registerErrorClass, __rampListener, __rampAccepts, OrderIterator,
} from "./web/settlement_wasm.js";

// The public names only (the glue's `__` functions are the entries' internals).
export {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount,
} from "./web/settlement_wasm.js";

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

/**
 * Calls `onCryptoRequested(payload, event)` for each `crypto.requested` message the hosted
 * ramp page posts from exactly `allowedOrigin` (the origin and shape checks are in Rust);
 * returns a function that stops listening (safe to call twice). See index.d.ts.
 */
export function listenForRampEvents(options) {
  const { allowedOrigin, onCryptoRequested, target } = options ?? {};
  const t = __rampListener(allowedOrigin, onCryptoRequested, target);
  const listener = (e) => {
    if (__rampAccepts(allowedOrigin, e.origin, e.data)) onCryptoRequested(e.data.payload, e);
  };
  t.addEventListener("message", listener);
  return () => t.removeEventListener("message", listener);
}
