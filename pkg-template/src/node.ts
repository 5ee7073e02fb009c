// Node entry of settlement-wasm, built as CommonJS (node/index.cjs; node/index.mjs re-exports
// it for `import`, so both share one instance). The wasm-bindgen glue (`--target nodejs`,
// node/settlement_wasm.js beside it) reads and instantiates the .wasm synchronously on
// require, so init() is optional here (kept for code shared with the browser).
import { SettlementError } from "./errors.js";
import { bind, type Wasm } from "./wasm.js";

export { BotClient } from "./clients.js";
// The server entries' MerchantClient, with the secret-key operations.
export { MerchantClient } from "./server.js";
export { OrderIterator } from "./orders.js";
export { OrderWatch, type OrderWatchChange, type OrderWatchStatus, type OrderWatchUpdate } from "./watch.js";
export { classifyKey, listenForRampEvents, onchainRampUrl, parseAmount } from "./functions.js";
export { SettlementError };
export { createProxyHandler, type ProxyHandler, type ProxyOptions } from "./proxy.js";

/** CommonJS `require`, as Node gives it to this module. */
declare const require: (id: string) => unknown;

// A missing or damaged .wasm is a SettlementError (`wasm_load`) thrown by require/import, not
// a bare ENOENT.
let glue: Wasm;
try {
  glue = require("./settlement_wasm.js") as Wasm;
} catch (e) {
  const why = (e as { code?: unknown } | null | undefined)?.code === "ENOENT"
    ? "node/settlement_wasm_bg.wasm is missing from the installed package"
    : "node/settlement_wasm_bg.wasm is not a WebAssembly module this version can load";
  throw new SettlementError(
    `settlement-wasm: ${why}; reinstall the package. Cause: ${(e as { message?: unknown } | null | undefined)?.message}`,
    { code: "wasm_load", cause: e });
}
bind(glue);

const ready = Promise.resolve();

/** Resolves at once: in Node the module is ready on require (idempotent: always the same promise). */
export function init(): Promise<void> {
  return ready;
}

/** Does nothing: in Node the module is ready on require. */
export function initSync(): void {}

export default init;
