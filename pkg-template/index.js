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

const WASM = "settlement_wasm_bg.wasm";
const CSP_SCRIPT = "add 'wasm-unsafe-eval' to the page's Content-Security-Policy script-src ('unsafe-eval' is not needed)";

/**
 * A failure to load the .wasm as a SettlementError (code `wasm_load`): the cause and the fix in
 * the message, the platform's error as `cause`. `blocked`: the CSP directives the browser
 * reported as violated while loading (securitypolicyviolation events).
 */
function loadError(e, blocked) {
  const msg = String((e && e.message) || e);
  const status = /failed to fetch Wasm: (\d+)/.exec(msg);
  const magic = /found ((?:[0-9a-f]{2} ?){1,4})/i.exec(msg);
  const why = status
    ? `the server answered HTTP ${status[1]} for ${WASM} (a bundler that did not copy it?): import the "settlement-wasm/${WASM}" subpath as a URL and pass init(url) (see the README, Bundlers)`
    : blocked.some((d) => d.startsWith("script-src")) || /Content.Security.Policy|unsafe-eval|\bCSP\b/i.test(msg)
      ? `the page's Content-Security-Policy forbids compiling WebAssembly: ${CSP_SCRIPT}`
      : blocked.some((d) => d.startsWith("connect-src"))
        ? `the page's Content-Security-Policy blocked fetching ${WASM}: add its origin to connect-src ('self' when it is served with the page), e.g. connect-src 'self' <service origin>`
        : /MIME/i.test(msg)
          ? `the server sent ${WASM} with a MIME type other than application/wasm: serve .wasm files as application/wasm`
          : magic
            ? `the bytes are not WebAssembly (they start with ${magic[1].trim()}${/^3c/i.test(magic[1]) ? ", an HTML page: the server answered with another page" : ""}): serve ${WASM} itself, or pass init(url) with its URL`
            : e instanceof TypeError
              ? `${WASM} could not be fetched (network, or the page's Content-Security-Policy connect-src must allow its origin): check the URL, or pass init(url)`
              : `${WASM} could not be compiled or instantiated (a corrupt file, or one from another version of the package)`;
  return new SettlementError(`init(): ${why}. Cause: ${msg}`, { code: "wasm_load", cause: e });
}

/**
 * Load and instantiate the WebAssembly module. Idempotent: every call returns the same promise.
 * `input` (optional): a URL/string/Request/Response/BufferSource/WebAssembly.Module for the
 * .wasm file; by default it is fetched from beside this file. Failures reject with a
 * SettlementError with code `wasm_load`.
 */
export default function init(input) {
  if (!ready) {
    const blocked = [];
    const g = globalThis;
    const onViolation = (ev) => blocked.push(String(ev.effectiveDirective || ev.violatedDirective));
    g.addEventListener?.("securitypolicyviolation", onViolation);
    ready = wbgInit(input === undefined ? undefined : { module_or_path: input })
      .then(() => { finish(); }, async (e) => {
        // The violation event is queued as a task: let it arrive before classifying.
        await new Promise((r) => setTimeout(r, 0));
        ready = null;
        throw loadError(e, blocked);
      })
      .finally(() => g.removeEventListener?.("securitypolicyviolation", onViolation));
  }
  return ready;
}

/** Instantiate synchronously from bytes or a compiled WebAssembly.Module (e.g. in a worker). */
export function initSync(moduleOrBytes) {
  try {
    wbgInitSync({ module: moduleOrBytes });
  } catch (e) {
    throw loadError(e, []);
  }
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
