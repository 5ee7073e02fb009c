// The package's error class, and the few errors the shell itself makes (every other error is
// made by the Rust core, with this class: see `useErrorClass` in wasm.ts).
import type { GraphQLErrorInfo, SettlementErrorCode } from "./glue/settlement_wasm.js";
import { internalError } from "./wasm.js";

/** Every failure of this package (thrown or rejected) is a SettlementError. */
export class SettlementError extends Error {
  declare readonly name: "SettlementError";
  /** Stable machine-readable reason. */
  declare readonly code: SettlementErrorCode;
  /** For `invalid_input`: the argument or option at fault, e.g. `"page"` or `"filter.dateFrom"`. */
  declare readonly field?: string;
  /** The HTTP status, whenever a response was received. */
  declare readonly status?: number;
  /** For `rate_limited`: how long the server asked to wait, in milliseconds. */
  declare readonly retryAfterMs?: number;
  /** Every GraphQL error of the response (message, path, locations, extensions). */
  declare readonly graphqlErrors?: GraphQLErrorInfo[];
  /** Partial `data` that came with GraphQL errors. */
  declare readonly data?: unknown;
  /** The headers of the response the error came from (`set-cookie` left out, the key redacted). */
  declare readonly headers?: Record<string, string>;
  /** The service's request id, when a header of that response carried one. */
  declare readonly requestId?: string;
  /** For `wasm_load`: the platform's original error (TypeError, CompileError, ...). */
  declare readonly cause?: unknown;

  /** An error with `message` and the given fields (`code` among them). */
  constructor(message: string, details?: Partial<SettlementError>) {
    super(message);
    (this as { name: string }).name = "SettlementError";
    if (details) Object.assign(this, details);
  }
}

/** `invalid_input` naming `field`. @internal */
export function invalid(field: string, message: string, cause?: unknown): SettlementError {
  const details: Partial<SettlementError> = { code: "invalid_input", field };
  if (cause !== undefined) (details as { cause?: unknown }).cause = cause;
  return new SettlementError(message, details);
}

/** `invalid_input` for `this`: a method called on another object, or on a freed one. @internal */
export function notLive(what: string, cause?: unknown): SettlementError {
  return invalid("this", `this: not a live ${what} (freed, or another object)`, cause);
}

/**
 * `e` when it is a SettlementError. A trap of the instance is `internal` (a server entry
 * replaces the instance before the next call: wasm.ts), as is an object of a replaced
 * instance. Anything else thrown by the wasm glue means its object is not usable (wasm-bindgen's
 * "null pointer passed to rust" for a freed one): `invalid_input` for `this`, with `e` as the
 * cause, so no foreign error reaches the caller.
 * @internal
 */
export function fromGlue(e: unknown, what: string): SettlementError {
  return e instanceof SettlementError ? e : internalError(e) ?? notLive(what, e);
}
