// Browser (and any ES-module, non-Node) entry of settlement-wasm.
//
//   import init, { BotClient } from "settlement-wasm";   // or "./pkg/index.js" on a plain page
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// No top-level await: nothing is fetched until init() is called.
import wbgInit, {
  initSync as wbgInitSync, __registerErrorClass, __rampListener, __rampAccepts, OrderIterator,
  BotClient as Bot, MerchantClient as Merchant,
} from "./web/settlement_wasm.js";

// The public names only (the glue's `__` functions are the entries' internals).
export { OrderIterator, classifyKey, onchainRampUrl, parseAmount } from "./web/settlement_wasm.js";

/** Every failure of this package is a SettlementError (see index.d.ts for its fields). */
export class SettlementError extends Error {
  constructor(message, details) {
    super(message);
    this.name = "SettlementError";
    if (details) Object.assign(this, details);
  }
}

// Receiver guard: the glue passes `this.__wbg_ptr` to Rust unchecked; only live instances made
// here, with their own pointer (and free() not while one of their methods runs) reach it.
function guard(classes) {
  const live = new WeakMap(), busy = new WeakMap();
  for (const C of classes) {
    const P = C.prototype;
    for (const k of Object.getOwnPropertyNames(P)) {
      const f = P[k], sync = k == "free" || k == "orders";
      if (k == "constructor" || k.startsWith("__")) continue;
      P[k] = function (...a) {
        const l = live.get(this);
        if (!l || l[0] !== C || l[1] !== this.__wbg_ptr || (k == "free" && busy.get(this))) {
          const e = new SettlementError("this: not a live instance of this class (freed, or another object)",
            { code: "invalid_input", field: "this" });
          if (sync) throw e;
          return Promise.reject(e);
        }
        busy.set(this, (busy.get(this) | 0) + 1);
        try {
          const r = f.apply(this, a);
          if (k == "free") live.delete(this);
          if (k == "orders") live.set(r, [classes[2], r.__wbg_ptr]);
          return r;
        } finally {
          busy.set(this, busy.get(this) - 1);
        }
      };
    }
    if (Symbol.dispose) P[Symbol.dispose] = P.free;
  }
  return classes.slice(0, 2).map((C) => new Proxy(C, {
    construct(t, a, n) { const o = Reflect.construct(t, a, n); live.set(o, [t, o.__wbg_ptr]); return o; },
  }));
}

export const [BotClient, MerchantClient] = guard([Bot, Merchant, OrderIterator]);

let ready = null;

function finish() {
  __registerErrorClass(SettlementError);
  if (!OrderIterator.prototype[Symbol.asyncIterator]) {
    OrderIterator.prototype[Symbol.asyncIterator] = function () { return this; };
  }
}

const W = "settlement_wasm_bg.wasm";

/**
 * A failure to load the .wasm as a SettlementError (code `wasm_load`): the cause and the fix in
 * the message, the platform's error as `cause`. `blocked`: the CSP directives the browser
 * reported as violated meanwhile (securitypolicyviolation events).
 */
function loadError(e, blocked) {
  const m = String(e?.message ?? e);
  const csp = (d) => blocked.some((v) => v.startsWith(d));
  const s = /Wasm: (\d+)/.exec(m);
  const b = /found ((?:\w\w ?){1,4})/.exec(m);
  const why = s
    ? `HTTP ${s[1]} for ${W} (did your bundler not copy it?): import "settlement-wasm/${W}" as a URL and pass init(url)`
    : csp("script-src") || /Content.Security|unsafe-eval/i.test(m)
      ? "the Content-Security-Policy forbids WebAssembly: add 'wasm-unsafe-eval' to script-src"
      : csp("connect-src")
        ? `the Content-Security-Policy blocked fetching ${W}: add its origin ('self' if served with the page) to connect-src`
        : /MIME/.test(m)
          ? `${W} was not served as application/wasm: fix the server's MIME type`
          : b
            ? `not WebAssembly (starts with ${b[1].trim()}${/^3c/.test(b[1]) ? ": an HTML page" : ""}): serve ${W} itself, or pass init(url)`
            : e instanceof TypeError
              ? `${W} could not be fetched (network, or CSP connect-src): check its URL, or pass init(url)`
              : `${W} could not be compiled (corrupt, or from another version)`;
  return new SettlementError(`init(): ${why}. Cause: ${m}`, { code: "wasm_load", cause: e });
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
        throw loadError(e, blocked);
      })
      .finally(() => g.removeEventListener?.("securitypolicyviolation", onViolation));
  }
  return ready;
}

/** Instantiate synchronously from bytes or a compiled WebAssembly.Module (e.g. in a worker). */
export function initSync(moduleOrBytes) {
  checkInput(moduleOrBytes, "moduleOrBytes", false);
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
  // Hostile options end in a SettlementError, hostile messages are ignored.
  const no = (field) => new SettlementError(`${field} could not be read (a getter or Proxy trap threw)`,
    { code: "invalid_input", field });
  let allowedOrigin, onCryptoRequested, target;
  try { ({ allowedOrigin, onCryptoRequested, target } = options ?? {}); } catch { throw no("options"); }
  const t = __rampListener(allowedOrigin, onCryptoRequested, target);
  const listener = (e) => {
    let p;
    try {
      if (!__rampAccepts(allowedOrigin, e.origin, e.data)) return;
      p = e.data.payload;
    } catch { return; }
    onCryptoRequested(p, e);
  };
  try { t.addEventListener("message", listener); } catch { throw no("target"); }
  return () => { try { t.removeEventListener("message", listener); } catch { /* ignored */ } };
}
