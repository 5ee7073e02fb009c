// Types of settlement-wasm: the same for the browser, Node ESM and Node require entries.
// The classes, option and result types come from the Rust sources (wasm-bindgen output, one
// file shared with index.d.cts; see scripts/pkg-types.mjs); this file adds the entry points and
// the error class. It needs no `lib` beyond ES2022 and either "dom" or @types/node.
export * from "./node/settlement_wasm.js";
import type {
  SettlementErrorCode, GraphQLErrorInfo, RampListenerOptions, P2PPayment, ReconcileOptions,
} from "./node/settlement_wasm.js";

// `reconcile` is defined by the package entries (composed from `orders()`; see compose.js),
// so its declaration joins the generated class here.
declare module "./node/settlement_wasm.js" {
  interface BotClient {
    /**
     * The order's current record, or `null`: reads `order.orderId` back with `orders()` and
     * returns the row whose `id` is `order.id` (`fields` always gets `id`). The pattern after
     * `outcome_unknown`: reconcile, never resend blindly. Rejects with `invalid_input`
     * (`order.id`, `order.orderId`) before any request.
     */
    reconcile(order: Pick<P2PPayment, "id" | "orderId">, options?: ReconcileOptions): Promise<P2PPayment | null>;
  }
}

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

/**
 * Load and instantiate the WebAssembly module; idempotent and memoised. Required once in
 * browsers before constructing a client; in Node the module is ready on import and this
 * resolves at once. Rejects with a `SettlementError` with code `wasm_load` (HTTP 404, a
 * Content-Security-Policy block, a file that is not WebAssembly); its message names the fix
 * and `cause` keeps the platform's error. A value of none of the `InitInput` kinds rejects with
 * `invalid_input` (`field: "input"`) before anything is fetched.
 */
export default function init(input?: InitInput): Promise<void>;
export { init };
/**
 * Instantiate synchronously from bytes or a compiled module (workers, tests). No-op in Node.
 * Browser entry: throws `invalid_input` (`field: "moduleOrBytes"`) for anything else, `wasm_load` for bytes
 * that are not this package's WebAssembly.
 */
export function initSync(moduleOrBytes: ArrayBuffer | ArrayBufferView | WasmModule): void;

/**
 * Listen for the hosted onchain ramp page's `crypto.requested` messages. Only messages whose
 * `origin` is exactly `allowedOrigin` and whose data has the documented shape reach
 * `onCryptoRequested` (both checks are in the Rust core); everything else is ignored. Throws
 * `SettlementError` (`invalid_input`) for invalid options. Returns a function that stops
 * listening (calling it again does nothing).
 *
 * @example
 * const stop = listenForRampEvents({
 *   allowedOrigin: "https://ramp.example",
 *   onCryptoRequested: ({ amountCents, destinationAddress }) => sendCrypto(amountCents, destinationAddress),
 * });
 */
export function listenForRampEvents(options: RampListenerOptions): () => void;

/** Every failure of this package (thrown or rejected) is a SettlementError. */
export declare class SettlementError extends Error {
  constructor(message: string, details?: Partial<SettlementError>);
  readonly name: "SettlementError";
  /** Stable machine-readable reason. */
  readonly code: SettlementErrorCode;
  /** For `invalid_input`: the argument or option at fault, e.g. `"page"` or `"filter.dateFrom"`. */
  readonly field?: string;
  /** The HTTP status, whenever a response was received. */
  readonly status?: number;
  /** For `rate_limited`: how long the server asked to wait, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Every GraphQL error of the response (message, path, locations, extensions). */
  readonly graphqlErrors?: GraphQLErrorInfo[];
  /** Partial `data` that came with GraphQL errors. */
  readonly data?: unknown;
  /** For `wasm_load`: the platform's original error (TypeError, CompileError, ...). */
  readonly cause?: unknown;
}

// Only the declarations marked `export` are the package's.
export {};
