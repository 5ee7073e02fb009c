// The delivery of a client's events: its listeners (`on`/`off`) and its `logger` option. What
// each event holds (headers without `set-cookie`, the request id, no piece of the key) and the
// checks of `on`/`off`'s arguments are the Rust core's (`PreparedCall.observe` and `event`,
// `checkEventListener`); this calls the listeners, after the fact, keeps a throwing one from
// breaking a call, and writes the logger's line from the event's (already clean) members.
import type { CallSource, LoggerLike, SettlementEventMap } from "./glue/settlement_wasm.js";
import { fromGlue } from "./errors.js";
import { wasm } from "./wasm.js";

const apply = Reflect.apply;

/** An event type: `"request"`, `"response"`, `"retry"`, `"error"` or `"done"`. */
export type SettlementEventType = keyof SettlementEventMap;

/** A listener of events of type `K`. */
export type SettlementEventListener<K extends SettlementEventType = SettlementEventType> =
  (event: SettlementEventMap[K]) => void;

/** One client's listeners and logger. @internal */
export class Emitter {
  /** The listeners by type; a type without listeners has no entry (then nothing is built). */
  #listeners = new Map<string, readonly Function[]>();
  #reported = false;

  constructor(readonly logger: LoggerLike | undefined) {}

  /** Whether a call must be observed: a listener or a logger is set. */
  get active(): boolean {
    return this.#listeners.size > 0 || this.logger !== undefined;
  }

  /** Adds `listener` for `type` (once); `invalid_input` naming `type` or `listener`. */
  on(type: unknown, listener: unknown, what: string): void {
    check(type, listener, what);
    const list = this.#listeners.get(type as string) ?? [];
    if (!list.includes(listener as Function)) this.#listeners.set(type as string, [...list, listener as Function]);
  }

  /** Removes `listener` from `type`; `invalid_input` naming `type` or `listener`. */
  off(type: unknown, listener: unknown, what: string): void {
    check(type, listener, what);
    const list = (this.#listeners.get(type as string) ?? []).filter((l) => l !== listener);
    if (list.length) this.#listeners.set(type as string, list);
    else this.#listeners.delete(type as string);
  }

  /**
   * Delivers `event` (built by `call`'s core; undefined when there is none) to the listeners
   * of its type, then writes the logger's line for it. A listener that throws is reported
   * once on the console; a logger that throws is ignored.
   */
  emit(event: SettlementEventMap[keyof SettlementEventMap] | undefined): void {
    if (!event) return;
    for (const listener of this.#listeners.get(event.type) ?? []) {
      try {
        apply(listener, undefined, [event]);
      } catch (e) {
        if (!this.#reported) {
          this.#reported = true;
          console.error("settlement-wasm: a listener threw", e);
        }
      }
    }
    const logger = this.logger;
    const line = logger && logLine(event);
    if (!line) return;
    try {
      apply(logger[line[0]], logger, [line[1]]);
    } catch {
      // The logger's own failure is not the call's.
    }
  }
}

/**
 * The logger's method and line for `event`: one per attempt that got an answer (`debug`), per
 * retry (`warn`) and per failed call (`error`); none for `request` and `done`.
 */
function logLine(e: SettlementEventMap[keyof SettlementEventMap]): ["debug" | "warn" | "error", string] | undefined {
  const head = `settlement-wasm ${e.callId} ${e.kind} ${e.operation} (${e.source}):`;
  switch (e.type) {
    case "response":
      return ["debug", `${head} attempt ${e.attempt}: ${e.status} in ${Math.round(e.durationMs)} ms${e.requestId ? `, request id ${e.requestId}` : ""}`];
    case "retry":
      return ["warn", `${head} attempt ${e.attempt} failed (${e.reason} ${e.status ?? ""}), retry in ${e.delayMs} ms`];
    case "error":
      return ["error", `${head} failed: ${e.error.code} ${e.error.message}`];
    default:
      return undefined;
  }
}

function check(type: unknown, listener: unknown, what: string): void {
  try {
    wasm().checkEventListener(type, listener);
  } catch (e) {
    throw fromGlue(e, what);
  }
}

/** The largest number of response headers read for events, results and errors. */
const MAX_HEADERS = 100;

/**
 * The headers of a response (a `Headers`, or anything) as a block of `name: value` lines, for
 * the core: entries that are strings, at most MAX_HEADERS, catching. @internal
 */
export function headerBlock(headers: unknown): string {
  let block = "";
  let n = 0;
  try {
    const h = headers as Headers;
    apply(h.forEach, h, [(value: unknown, name: unknown) => {
      if (typeof name === "string" && typeof value === "string" && n++ < MAX_HEADERS) block += `${name}: ${value}\n`;
    }]);
  } catch {
    // Unreadable headers: none.
  }
  return block;
}

/** How a call is observed: the client's emitter, what made the call, and who wants its response. @internal */
export interface Observer {
  readonly emitter: Emitter;
  readonly source: CallSource;
}
