// The package's functions. Each is the Rust core's (checks, link, parsing, the ramp message
// filter); `listenForRampEvents` adds the listening itself.
import type {
  OnchainRampOptions, ParsedAmount, RampEvent, RampEventPayload, RampListenerOptions,
} from "./glue/settlement_wasm.js";
import { fromGlue, invalid } from "./errors.js";
import { exported } from "./wasm.js";

/** `f()`, its foreign errors (a trap: `internal`, the instance replaced) as SettlementErrors. */
function guard<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw fromGlue(e, "function");
  }
}

/** A key's class by its `PUBK_` / `SECK_` marker; the key is not kept. */
export function classifyKey(key: string): "public" | "secret" | "unknown" {
  return guard(() => exported("classifyKey")(key));
}

/** The hosted onchain ramp link; throws `SettlementError` (`invalid_input`); see `OnchainRampOptions`. */
export function onchainRampUrl(options: OnchainRampOptions): string {
  return guard(() => exported("onchainRampUrl")(options));
}

/** Decimal text as `{ minorUnits, scale }`; throws `SettlementError` (`invalid_input`) when malformed. */
export function parseAmount(text: string): ParsedAmount {
  return guard(() => exported("parseAmount")(text));
}

/** What listenForRampEvents needs of its target (`window` by default). */
interface Listening {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  removeEventListener(type: string, listener: (event: MessageEvent) => void): void;
}

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
export function listenForRampEvents(options: RampListenerOptions): () => void {
  // Hostile options end in a SettlementError, hostile messages are ignored.
  const unreadable = (field: string) => invalid(field, `${field} could not be read (a getter or Proxy trap threw)`);
  let allowedOrigin: unknown, onCryptoRequested: unknown, target: unknown;
  try {
    ({ allowedOrigin, onCryptoRequested, target } = (options ?? {}) as Partial<RampListenerOptions>);
  } catch {
    throw unreadable("options");
  }
  guard(() => exported("checkRampListener")(options, allowedOrigin, onCryptoRequested, target));
  // Checked by the core: a function, and an object with addEventListener (globalThis when absent).
  const callback = onCryptoRequested as RampListenerOptions["onCryptoRequested"];
  const t = (target ?? globalThis) as Listening;
  const listener = (event: MessageEvent): void => {
    let payload: RampEventPayload;
    try {
      const data: unknown = event.data;
      // The current instance's check (a replaced one's objects are retired).
      if (!exported("isCryptoRequested")(allowedOrigin, event.origin, data)) return;
      payload = (data as RampEvent).payload;
    } catch (e) {
      fromGlue(e, "function"); // a trap replaces the instance; the message is ignored
      return;
    }
    callback(payload, event as MessageEvent<RampEvent>);
  };
  try {
    t.addEventListener("message", listener);
  } catch {
    throw unreadable("target");
  }
  return () => {
    try {
      t.removeEventListener("message", listener);
    } catch {
      // A target that refuses: it has nothing of ours left to remove.
    }
  };
}
