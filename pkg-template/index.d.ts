// Types of settlement-wasm: the same for the browser, Node ESM and Node require entries.
// The classes, option and result types come from the Rust sources (wasm-bindgen output);
// this file adds the entry points and the error class.
export * from "./web/settlement_wasm.js";
import type { SettlementErrorCode, GraphQLErrorInfo, RampListenerOptions } from "./web/settlement_wasm.js";

/** What `init()` accepts: where or what the .wasm is. Omit it to load the file beside the package. */
export type InitInput =
  | RequestInfo
  | URL
  | Response
  | BufferSource
  | WebAssembly.Module
  | Promise<RequestInfo | URL | Response | BufferSource | WebAssembly.Module>;

/**
 * Load and instantiate the WebAssembly module; idempotent and memoised. Required once in
 * browsers before constructing a client; in Node the module is ready on import and this
 * resolves at once.
 */
export default function init(input?: InitInput): Promise<void>;
export { init };
/** Instantiate synchronously from bytes or a compiled module (workers, tests). No-op in Node. */
export function initSync(moduleOrBytes: BufferSource | WebAssembly.Module): void;

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
}
