// Browser (and any ES-module, non-Node) entry of settlement-wasm.
//
//   import init, { BotClient } from "settlement-wasm";   // or "./pkg/index.js" on a plain page
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// No top-level await: nothing is fetched until init() is called.
import wbgInit, { initSync as wbgInitSync, __Client, __fn } from "./web/settlement_wasm.js";
import { compose, SettlementError } from "./compose.js";

// The package's classes and functions, defined around the wasm's two exports: see compose.js.
const api = compose(__Client, __fn);
export const {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount, listenForRampEvents,
} = api;
export { SettlementError };

let ready = null;

function finish() {
  api.register();
}

/**
 * A failure to load the .wasm as a SettlementError (code `wasm_load`), its platform error as
 * `cause`. The diagnosis (which cause, which fix) is in ./wasm-load-error.js, fetched only when
 * loading has failed: it is no part of what every page downloads. If it cannot be loaded
 * either (offline), the error still has code `wasm_load` and the cause.
 */
function loadError(e, blocked) {
  return import("./wasm-load-error.js").then(
    (m) => m.loadError(e, blocked, SettlementError),
    () => new SettlementError(`init(): settlement_wasm_bg.wasm could not be loaded. Cause: ${e?.message ?? e}`,
      { code: "wasm_load", cause: e }),
  );
}

/** `invalid_input` for what neither init nor initSync can load (before any fetch or compile). */
function checkInput(x, field, urls) {
  const g = globalThis;
  let ok;
  // `instanceof` throws on a revoked Proxy (or a throwing getPrototypeOf trap): not loadable.
  try {
    ok = x instanceof ArrayBuffer || ArrayBuffer.isView(x) || (g.WebAssembly && x instanceof WebAssembly.Module) ||
    (urls && (typeof x === "string" || typeof x?.then === "function" ||
      [g.URL, g.Request, g.Response].some((C) => typeof C === "function" && x instanceof C)));
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new SettlementError(`${field}: expected ${urls ? "a URL, Request, Response, " : ""}bytes or a WebAssembly.Module`,
      { code: "invalid_input", field });
  }
}

/**
 * Load and instantiate the WebAssembly module. Idempotent: every call returns the same promise.
 * `input` (optional): a URL/string/Request/Response/BufferSource/WebAssembly.Module for the
 * .wasm file; by default it is fetched from beside this file. Failures reject with a
 * SettlementError with code `wasm_load`.
 */
export default function init(input) {
  if (!ready) {
    if (input !== undefined) {
      try { checkInput(input, "input", true); } catch (e) { return Promise.reject(e); }
    }
    const blocked = [];
    const g = globalThis;
    const onViolation = (ev) => blocked.push(String(ev.effectiveDirective || ev.violatedDirective));
    g.addEventListener?.("securitypolicyviolation", onViolation);
    ready = wbgInit(input === undefined ? undefined : { module_or_path: input })
      .then(() => { finish(); }, async (e) => {
        // The violation event is queued as a task: let it arrive before classifying.
        await new Promise((r) => setTimeout(r, 0));
        ready = null;
        throw await loadError(e, blocked);
      })
      .finally(() => g.removeEventListener?.("securitypolicyviolation", onViolation));
  }
  return ready;
}

/** Instantiate synchronously from bytes or a compiled WebAssembly.Module (e.g. in a worker). */
export function initSync(moduleOrBytes) {
  const g = globalThis;
  checkInput(moduleOrBytes, "moduleOrBytes", false);
  try {
    wbgInitSync({ module: moduleOrBytes });
  } catch (e) {
    // Synchronous, so no diagnosis module here: the caller's bytes are the cause, so say what
    // they start with (a WebAssembly module starts with 00 61 73 6d).
    let h = "";
    try {
      if (!(g.WebAssembly && moduleOrBytes instanceof WebAssembly.Module)) {
        h = [...new Uint8Array(moduleOrBytes.buffer ?? moduleOrBytes, moduleOrBytes.byteOffset ?? 0).slice(0, 4)]
          .map((b) => b.toString(16).padStart(2, "0")).join(" ");
      }
    } catch {
      // A detached buffer, say: no bytes to name; the message says what else it can.
    }
    const why = h && h !== "00 61 73 6d"
      ? `not WebAssembly (starts with ${h}${h.startsWith("3c") ? ": an HTML page" : ""})`
      : "the module could not be instantiated (corrupt, or from another version)";
    throw new SettlementError(`initSync(): ${why}. Cause: ${e?.message ?? e}`,
      { code: "wasm_load", cause: e });
  }
  finish();
  ready = ready || Promise.resolve();
}

export { init };
