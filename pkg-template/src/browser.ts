// What the browser entries share (index.ts, the root; bot.ts and merchant.ts, one client's
// each): init() and initSync(), which load the entry's .wasm and bind its glue.
//
// No top-level await: nothing is fetched until init() is called. The build bundles each entry
// with the glue of its own wasm build (`--target web`; scripts/build-pkg.sh stages it at
// ./glue/ before bundling that entry), so the same source loads each entry's .wasm.
import { createGlue } from "./glue/factory.js";
import { containment, exposeTestHooks } from "./containment.js";
import { SettlementError, invalid } from "./errors.js";
import { bind } from "./wasm.js";

/** Set by the build (esbuild `--define`): whether this is a test build with the test hook. */
declare const SETTLEMENT_WASM_TEST_HOOKS: boolean;

/** The entry's glue: the first instance's (see `finish` for the next ones). */
const glue = createGlue();

/** The instance type of the platform's global class `K` (DOM lib or @types/node); `never` where it has none. */
type PlatformInstance<K extends string> =
  typeof globalThis extends { readonly [P in K]: abstract new (...args: any) => infer I } ? I : never;
/** `WebAssembly.Module` where the platform's types declare it (the DOM lib does; @types/node 20 does not). */
type WasmModule =
  typeof globalThis extends { readonly WebAssembly: { readonly Module: abstract new (...args: any) => infer M } } ? M : never;

/** Where or what the .wasm is: a URL (string or `URL`), a `Request`/`Response`, its bytes, or a compiled module. */
export type InitSource =
  | string
  | PlatformInstance<"URL">
  | PlatformInstance<"Request">
  | PlatformInstance<"Response">
  | ArrayBuffer
  | ArrayBufferView
  | WasmModule;

/** What `init()` accepts. Omit it to load the file beside the package (bundlers: see the README). */
export type InitInput = InitSource | Promise<InitSource>;

let ready: Promise<void> | null = null;

/** The entry's .wasm, as it is named in the package (`web/<file>`; see `entry`). */
let file = "settlement_wasm_bg.wasm";

/**
 * What the entry module (index.ts, bot.ts, merchant.ts) says of itself when it is loaded: the
 * name of its .wasm (for the messages of a failed load), and its classes, which keep their
 * names in the minified bundle (its minifier renames them). @internal
 */
export function entry(wasmFile: string, classes: { [name: string]: Function }): void {
  file = wasmFile;
  for (const [name, C] of Object.entries(classes)) Object.defineProperty(C, "name", { value: name });
}

/**
 * After instantiation: binds the glue's exports (this entry's build has only its clients'
 * parts: the glue of each entry's build exports exactly them) and registers the error class.
 * After a trap (containment.ts) a fresh copy of the glue is instantiated synchronously from the
 * module compiled by init() or initSync() (nothing is fetched again) and replaces it.
 */
function finish(): void {
  const module = glue.module();
  bind(glue, containment(glue, () => {
    const fresh = createGlue();
    fresh.initSync({ module });
    return fresh;
  }));
  if (typeof SETTLEMENT_WASM_TEST_HOOKS !== "undefined" && SETTLEMENT_WASM_TEST_HOOKS) exposeTestHooks();
}

/**
 * A failure to load the .wasm as a SettlementError (code `wasm_load`), its platform error as
 * `cause`. The diagnosis (which cause, which fix) is in ./wasm-load-error.js, fetched only when
 * loading has failed: it is no part of what every page downloads. If it cannot be loaded
 * either (offline), the error still has code `wasm_load` and the cause.
 */
function loadError(e: unknown, blocked: readonly string[]): Promise<SettlementError> {
  return import("./wasm-load-error.js").then(
    (m) => m.loadError(e, blocked, SettlementError, file),
    () => new SettlementError(
      `init(): ${file} could not be loaded. Cause: ${(e as { message?: unknown } | null | undefined)?.message ?? e}`,
      { code: "wasm_load", cause: e }),
  );
}

/**
 * The class tag of a value (`URL`, `Response`, `WebAssembly.Module`...): how a value is
 * recognised whichever realm made it (an edge runtime's vm context, an iframe), where
 * `instanceof` this realm's class fails. `""` for what cannot be inspected (a revoked Proxy).
 */
function tagOf(x: unknown): string {
  try {
    return Object.prototype.toString.call(x).slice(8, -1);
  } catch {
    return "";
  }
}

/** The kinds of input each loader takes, by tag (bytes are also any ArrayBuffer view). */
const MODULE_TAGS = ["ArrayBuffer", "WebAssembly.Module"];
const URL_TAGS = ["URL", "Request", "Response"];

/** Whether `x` is a promise (of any realm) or another thenable; `false` when `then` throws. */
function thenable(x: unknown): boolean {
  try {
    return typeof (x as { then?: unknown } | null | undefined)?.then === "function";
  } catch {
    return false;
  }
}

/** `invalid_input` for what neither init nor initSync can load (before any fetch or compile). */
function checkInput(x: unknown, field: string, urls: boolean): void {
  const tag = tagOf(x);
  const ok = MODULE_TAGS.includes(tag) || (tag !== "" && ArrayBuffer.isView(x)) ||
    (urls && (typeof x === "string" || URL_TAGS.includes(tag) || thenable(x)));
  if (!ok) throw invalid(field, `${field}: expected ${urls ? "a URL, Request, Response, " : ""}bytes or a WebAssembly.Module`);
}

/**
 * A URL, Request or Response from another realm as what the glue (which tests them with
 * `instanceof`) takes: the URL's text; the Request's URL (fetched here with default options);
 * the Response's bytes (a failed one is reported as the glue reports it). A module or bytes
 * from another realm need nothing: WebAssembly checks their real brand.
 */
async function ownRealm(x: InitSource): Promise<InitSource> {
  const tag = tagOf(x);
  const C = (globalThis as { [name: string]: unknown })[tag];
  if (!URL_TAGS.includes(tag) || (typeof C === "function" && x instanceof C)) return x;
  if (tag === "URL") return String((x as { href?: unknown }).href);
  if (tag === "Request") return String((x as { url?: unknown }).url);
  const r = x as { ok?: unknown; status?: unknown; statusText?: unknown; url?: unknown; arrayBuffer(): Promise<ArrayBuffer> };
  if (!r.ok) throw new Error(`failed to fetch Wasm: ${String(r.status)} ${String(r.statusText)} fetching '${String(r.url)}'`);
  return r.arrayBuffer();
}

/**
 * Load and instantiate the WebAssembly module; idempotent and memoised. Required once in
 * browsers before constructing a client; in Node the module is ready on import and this
 * resolves at once. Rejects with a `SettlementError` with code `wasm_load` (HTTP 404, a
 * Content-Security-Policy block, a file that is not WebAssembly); its message names the fix
 * and `cause` keeps the platform's error. A value of none of the `InitInput` kinds rejects with
 * `invalid_input` (`field: "input"`) before anything is fetched.
 */
export default function init(input?: InitInput): Promise<void> {
  if (!ready) {
    if (input !== undefined) {
      try {
        checkInput(input, "input", true);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const blocked: string[] = [];
    const g = globalThis as { addEventListener?: unknown; removeEventListener?: unknown };
    const onViolation = (ev: Event): void => {
      const v = ev as SecurityPolicyViolationEvent;
      blocked.push(String(v.effectiveDirective || v.violatedDirective));
    };
    const listen = (method: unknown): void => {
      if (typeof method === "function") method.call(globalThis, "securitypolicyviolation", onViolation);
    };
    listen(g.addEventListener);
    const loaded = input === undefined
      ? glue.default()
      : Promise.resolve(input).then(ownRealm).then((source) => glue.default({ module_or_path: source }));
    ready = loaded
      .then(() => { finish(); }, async (e: unknown) => {
        // The violation event is queued as a task: let it arrive before classifying.
        await new Promise((r) => setTimeout(r, 0));
        ready = null;
        throw await loadError(e, blocked);
      })
      .finally(() => listen(g.removeEventListener));
  }
  return ready;
}

export { init };

/**
 * Instantiate synchronously from bytes or a compiled module (workers, tests). No-op in Node.
 * Browser entry: throws `invalid_input` (`field: "moduleOrBytes"`) for anything else, `wasm_load` for bytes
 * that are not this package's WebAssembly.
 */
export function initSync(moduleOrBytes: ArrayBuffer | ArrayBufferView | WasmModule): void {
  checkInput(moduleOrBytes, "moduleOrBytes", false);
  try {
    glue.initSync({ module: moduleOrBytes as BufferSource | WebAssembly.Module });
  } catch (e) {
    // Synchronous, so no diagnosis module here: the caller's bytes are the cause, so say what
    // they start with (a WebAssembly module starts with 00 61 73 6d).
    let h = "";
    try {
      if (tagOf(moduleOrBytes) !== "WebAssembly.Module") {
        const v = moduleOrBytes as ArrayBufferView & { buffer?: ArrayBufferLike };
        h = [...new Uint8Array(v.buffer ?? (moduleOrBytes as ArrayBuffer), v.byteOffset ?? 0).slice(0, 4)]
          .map((b) => b.toString(16).padStart(2, "0")).join(" ");
      }
    } catch {
      // A detached buffer, say: no bytes to name; the message says what else it can.
    }
    const why = h && h !== "00 61 73 6d"
      ? `not WebAssembly (starts with ${h}${h.startsWith("3c") ? ": an HTML page" : ""})`
      : "the module could not be instantiated (corrupt, or from another version)";
    throw new SettlementError(`initSync(): ${why}. Cause: ${(e as { message?: unknown } | null | undefined)?.message ?? e}`,
      { code: "wasm_load", cause: e });
  }
  finish();
  ready = ready || Promise.resolve();
}
