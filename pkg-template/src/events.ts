// The delivery of a client's events: its listeners (`on`/`off`) and its `logger` option. What
// each event holds, the logger's lines and the checks of `on`/`off`'s arguments are the Rust
// core's (`PreparedCall.observe` and its `…Event` builders, `logLine`, `checkEventListener`);
// this only calls the listeners, after the fact, and keeps a throwing one from breaking a call.
import type { CallSource, HeaderEntry, LoggerLike, PreparedCall, SettlementEventMap } from "./glue/settlement_wasm.js";
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
  emit(call: PreparedCall, event: { type: string } | undefined): void {
    if (!event) return;
    for (const listener of this.#listeners.get(event.type) ?? []) {
      try {
        apply(listener, undefined, [event]);
      } catch (e) {
        if (!this.#reported) {
          this.#reported = true;
          console.error("settlement-wasm: an event listener threw (reported once per client)", e);
        }
      }
    }
    const logger = this.logger;
    if (!logger) return;
    const line = call.logLine();
    if (!line) return;
    try {
      apply(logger[line.level], logger, [line.line]);
    } catch {
      // The logger's own failure is not the call's.
    }
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

/** The headers of a response (a `Headers`, or anything): entries that are strings, catching. @internal */
export function headerEntries(headers: unknown): HeaderEntry[] {
  const list: HeaderEntry[] = [];
  try {
    const h = headers as Headers;
    apply(h.forEach, h, [(value: unknown, name: unknown) => {
      if (typeof name === "string" && typeof value === "string" && list.length < MAX_HEADERS) list.push({ name, value });
    }]);
  } catch {
    // Unreadable headers: none.
  }
  return list;
}

/** How a call is observed: the client's emitter, what made the call, and who wants its response. @internal */
export interface Observer {
  readonly emitter: Emitter;
  readonly source: CallSource;
}
