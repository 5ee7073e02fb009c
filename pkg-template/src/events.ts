// The delivery of a client's events to its listeners (`on`/`off`). What each event holds
// (headers without `set-cookie`, the request id, no piece of the key), the checks of
// `on`/`off`'s arguments and the `logger` option's lines are the Rust core's
// (`PreparedCall.observe` and `event`, `checkEventListener`); this calls the listeners, after
// the fact, and keeps a throwing one from breaking a call.
import type { CallEvent, CallRequestEvent, CallSource, PreparedCall, SettlementEventMap } from "./glue/settlement_wasm.js";
import { fromGlue } from "./errors.js";
import { wasm } from "./wasm.js";

const apply = Reflect.apply;

/** An event type: `"request"`, `"response"`, `"retry"`, `"error"` or `"done"`. */
export type SettlementEventType = keyof SettlementEventMap;

/** A listener of events of type `K`. */
export type SettlementEventListener<K extends SettlementEventType = SettlementEventType> =
  (event: SettlementEventMap[K]) => void;

/** One client's listeners. @internal */
export class Emitter {
  /** The listeners by type; a type without listeners has no entry (then nothing is built). */
  #listeners = new Map<string, readonly Function[]>();
  #reported = false;

  /** `logs`: whether the client has a `logger` option (the core writes its lines). */
  constructor(readonly logs: boolean) {}

  /** Whether a call must be observed: a listener or a logger is set. */
  get active(): boolean {
    return this.#listeners.size > 0 || this.logs;
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
   * Delivers `event` (built by a call's core, which also wrote its logger line; undefined
   * when there is none) to the listeners of its type. A listener that throws is reported
   * once on the console.
   */
  emit(event: CallEvent | undefined): void {
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
  }
}

/**
 * One observed call's events, in order: each is built by the call's core and delivered. When
 * the call's instance was replaced (a trap ended it: every use of `call` throws), the core that
 * observed it is gone; its `error` (`internal`) and `done` then carry the members of its last
 * `request` event (its call id, operation, kind and source, and its attempts), `done`'s
 * duration measured here. No logger line is written for them. @internal
 */
export class Observation {
  #request: CallRequestEvent | undefined;
  #started = 0;
  #lost = false;

  constructor(readonly emitter: Emitter, readonly call: PreparedCall) {}

  /** Delivers the event `build` makes with the call's core (none once the instance is lost). */
  emit(build: (call: PreparedCall) => CallEvent | undefined): void {
    if (this.#lost) return;
    let event: CallEvent | undefined;
    try {
      event = build(this.call);
    } catch (e) {
      // A trap (the entry's containment replaces the instance: the call then ends with
      // `internal`), or an object of a replaced instance.
      fromGlue(e, "call");
      this.#lost = true;
      return;
    }
    if (event?.type === "request") {
      this.#request = event;
      this.#started ||= Date.now();
    }
    this.emitter.emit(event);
  }

  /** The call ended with `error`: its `error` and `done` events. */
  failed(error: unknown): void {
    let built = false;
    this.emit((c) => {
      const event = c.errorEvent(error);
      built = true;
      return event;
    });
    this.emit((c) => c.event("done"));
    const r = this.#request;
    if (!this.#lost || !r) return;
    const base = { callId: r.callId, operation: r.operation, kind: r.kind, source: r.source };
    if (!built) this.emitter.emit({ type: "error", ...base, error });
    this.emitter.emit({ type: "done", ...base, durationMs: Math.round(Date.now() - this.#started), attempts: r.attempt });
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

/** How a call is observed: the client's emitter, and what made the call. @internal */
export interface Observer {
  readonly emitter: Emitter;
  readonly source: CallSource;
}

/** The observation of `call` when `observer` is active (the core starts it: a new call id), else undefined. @internal */
export function observe(observer: Observer | undefined, call: PreparedCall): Observation | undefined {
  if (!observer?.emitter.active) return undefined;
  call.observe(observer.source);
  return new Observation(observer.emitter, call);
}
