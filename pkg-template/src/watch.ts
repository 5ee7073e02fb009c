// `OrderWatch`: the I/O side of `BotClient.watchOrders()`. The watch itself (when the next poll
// is due, the backoff after a failure, Retry-After, the pause while the page is hidden, the end
// after a failure that is not retryable, and what changed since the last update delivered) is
// the Rust core's `OrderWatchCore`. This shell owns the timer, the page's visibility, the abort
// of the poll in flight and the consumer's pending `next()`.
import type {
  OrderWatchChange, OrderWatchCore, OrderWatchUpdate, PreparedCall, WatchStatus,
} from "./glue/settlement_wasm.js";
import { fromGlue, notLive, type SettlementError } from "./errors.js";
import { headerBlock, observe, type Observation, type Observer } from "./events.js";
import { attempt, isAborted, onAbort } from "./transport.js";
import { release } from "./wasm.js";

const WHAT = "OrderWatch made by BotClient.watchOrders()";
/** What only this module passes to the constructor: `new OrderWatch()` elsewhere is refused. */
const TOKEN = Symbol();
let make: (core: OrderWatchCore, controller: AbortController, fetchImpl: Function | undefined, observer?: Observer) => OrderWatch;

// An update's shape is declared once, with the core that makes it (src/js/mod.rs).
export type { OrderWatchChange, OrderWatchUpdate };

/**
 * Where a watch is, for a "live · paused · retrying in 20 s" badge: the core's `WatchStatus`
 * (declared once, with the core that makes it), its error a `SettlementError`.
 */
export type OrderWatchStatus = WatchStatus<SettlementError>;

/** `performance.now()`: the watch's clock (monotonic). */
function now(): number {
  return performance.now();
}

/** The page's `document`, when there is one with a visibility state (not in Node or workers). */
function pageDocument(): Document | undefined {
  const d = (globalThis as { document?: Document }).document;
  return d && typeof d.visibilityState === "string" ? d : undefined;
}

/** Reports an error thrown by a status listener the way an event listener's is, without stopping the watch. */
function report(error: unknown): void {
  const reportError = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (typeof reportError === "function") reportError(error);
  else setTimeout(() => { throw error; }, 0);
}

/**
 * The live view of an agent's first page of orders: an async iterable of updates (what was
 * added, changed or removed since the previous update). One request at a time; the next poll
 * starts `intervalMs` after the previous one settled, whether or not the consumer is waiting,
 * and updates the consumer missed are coalesced. `stop()`, `break` out of `for await`, or the
 * `signal` option's abort end it: the poll in flight is aborted and nothing more is sent.
 */
export class OrderWatch implements AsyncIterable<OrderWatchUpdate> {
  /** The core's watch; null once the watch is over. */
  #core: OrderWatchCore | null = null;
  /** The poll (the same call each time); null once over. */
  #call: PreparedCall | null = null;
  /** Aborts the poll in flight when the watch ends. */
  #controller: AbortController | null = null;
  /** The client's `fetch` option. */
  #fetch: Function | undefined;
  /** Where each poll's events go. */
  #observer: Observer | undefined;
  /** The pending sleep. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether a poll is in flight. */
  #busy = false;
  /** The consumer's pending `next()` calls, oldest first. */
  #waiters: { resolve: (r: IteratorResult<OrderWatchUpdate, undefined>) => void; reject: (e: unknown) => void }[] = [];
  /** What the watch left for the consumer when it ended: an update not yet taken, then the error. */
  #leftover: { update?: OrderWatchUpdate | undefined; error?: unknown } = {};
  /** The status once over. */
  #final: OrderWatchStatus | null = null;
  /** The last status told to the listeners, with the time its poll was due. */
  #told: { state: string; error: unknown; dueAt: number | undefined } | null = null;
  #listeners = new Set<(status: OrderWatchStatus) => void>();
  /** Removes the listeners on the caller's signal and on the page's visibility. */
  #unlisten: (() => void)[] = [];

  static {
    make = (core, controller, fetchImpl, observer) => {
      const w = new OrderWatch(TOKEN);
      w.#core = core;
      w.#controller = controller;
      w.#fetch = fetchImpl;
      w.#observer = observer;
      w.#start();
      return w;
    };
  }

  private constructor(token?: unknown) {
    if (token !== TOKEN) throw notLive(WHAT);
  }

  static #is(o: unknown): o is OrderWatch {
    return typeof o === "object" && o !== null && #core in o;
  }

  /** Listens to the caller's signal and the page's visibility, and sends the first poll. */
  #start(): void {
    const core = this.#core!;
    try {
      this.#call = core.call();
      const signal = core.callerSignal;
      if (isAborted(signal)) {
        this.#end();
        return;
      }
      this.#unlisten.push(onAbort(signal, () => this.stop()));
      const doc = core.pauseWhenHidden ? pageDocument() : undefined;
      if (doc) {
        const onVisibility = (): void => {
          if (!this.#core) return;
          this.#core.setHidden(doc.visibilityState === "hidden", now());
          this.#drive();
        };
        doc.addEventListener("visibilitychange", onVisibility);
        this.#unlisten.push(() => doc.removeEventListener("visibilitychange", onVisibility));
        core.setHidden(doc.visibilityState === "hidden", now());
      }
    } catch (e) {
      this.#end();
      throw fromGlue(e, WHAT);
    }
    this.#drive();
  }

  /** Does what the core says now: send the poll, sleep until it is due, or nothing. */
  #drive(): void {
    const core = this.#core;
    if (!core || this.#busy) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    let step: ReturnType<OrderWatchCore["step"]>;
    try {
      step = core.step(now());
    } catch (e) {
      // A trap (the instance is replaced) or a core of a replaced instance: the watch ends
      // with `internal` for its consumer, never with an exception in a timer.
      this.#fail(e);
      return;
    }
    if (step.kind === "send") {
      this.#busy = true;
      const controller = this.#controller!;
      const call = this.#call!;
      // Each poll is one observed call, sent once: its `retry` is the watch's backoff (the
      // core's), its `error` the failure that ends the watch.
      let seen: Observation | undefined;
      try {
        seen = observe(this.#observer, call);
        seen?.emit((c) => c.event("request"));
      } catch (e) {
        this.#fail(e);
        return;
      }
      void attempt(this.#fetch, call).then((outcome) => {
        this.#busy = false;
        if (this.#core !== core) return; // stopped meanwhile (the poll's call is freed): the outcome is the abort's
        if (seen && outcome.kind === "response") {
          seen.emit((c) => c.responseEvent(outcome.status, headerBlock(outcome.headers)));
        }
        try {
          core.settle(outcome, controller.signal.aborted, now(), call);
        } catch (e) {
          // A trap, or a core of a replaced instance: the watch ends (`internal`) rather than
          // poll on a broken state.
          const error = fromGlue(e, WHAT);
          seen?.failed(error);
          this.#fail(error);
          return;
        }
        seen?.emit((c) => c.event("retry"));
        seen?.emit((c) => c.event("error"));
        seen?.emit((c) => c.event("done"));
        this.#drive(); // the next poll's timer, or the end
        this.#deliver();
      });
    } else if (step.kind === "sleep") {
      this.#timer = setTimeout(() => this.#drive(), step.delayMs);
    } else if (step.kind === "stop") {
      this.#end();
      return;
    }
    this.#tell();
  }

  /** Hands the consumer's pending `next()` calls the updates there are, or the end. */
  #deliver(): void {
    while (this.#waiters.length > 0) {
      let result: IteratorResult<OrderWatchUpdate, undefined> | undefined;
      try {
        result = this.#take();
      } catch (e) {
        this.#waiters.shift()!.reject(e);
        continue;
      }
      if (!result) return;
      this.#waiters.shift()!.resolve(result);
    }
  }

  /** The next update or the end, if there is one now; throws the failure that ended the watch. */
  #take(): IteratorResult<OrderWatchUpdate, undefined> | undefined {
    const core = this.#core;
    if (core) {
      let update: OrderWatchUpdate | undefined;
      try {
        update = core.takeUpdate() as OrderWatchUpdate | undefined;
      } catch (e) {
        // A core of a replaced instance (or a trap): the watch ends with `internal`, which
        // this call then takes.
        this.#fail(e);
        return this.#take();
      }
      return update ? { done: false, value: update } : undefined;
    }
    const left = this.#leftover;
    if (left.update) {
      const value = left.update;
      left.update = undefined;
      return { done: false, value };
    }
    if (left.error !== undefined) {
      const error = left.error;
      left.error = undefined;
      throw error;
    }
    return { done: true, value: undefined };
  }

  /**
   * Ends the watch (if not over yet): keeps what the consumer has not taken after a failure,
   * aborts the poll in flight, clears the timer, removes the listeners, releases the wasm
   * memory, and settles a pending `next()`.
   */
  #end(): void {
    const core = this.#core;
    if (!core) return;
    try {
      this.#final = core.status(now()) as OrderWatchStatus;
      const update = core.takeUpdate() as OrderWatchUpdate | undefined;
      try {
        core.takeError();
      } catch (e) {
        // A failure that is not retryable: the consumer gets the update first, then it.
        this.#leftover = { update, error: e };
      }
    } catch {
      // Only a core bug throws here; the watch ends all the same.
    }
    if (!this.#final || this.#final.state !== "stopped") this.#final = { state: "stopped" };
    this.#core = null;
    this.#controller?.abort();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const unlisten of this.#unlisten.splice(0)) {
      try {
        unlisten();
      } catch {
        // The caller's signal refused: nothing is left to remove on our side.
      }
    }
    release(core);
    if (this.#call) release(this.#call);
    this.#call = null;
    this.#deliver();
    this.#tell();
  }

  /** Ends the watch after its core threw: the consumer's iteration rejects with the error. */
  #fail(e: unknown): void {
    const error = fromGlue(e, WHAT);
    this.#leftover = { error };
    this.#end();
    this.#final = { state: "stopped", error };
    this.#tell();
  }

  /** Tells the status listeners when the state, the error or the next poll's time changed. */
  #tell(): void {
    if (this.#listeners.size === 0) return;
    const status = this.#status();
    const t = now();
    const dueAt = status.nextPollInMs === undefined ? undefined : Math.round(t + status.nextPollInMs);
    const told = this.#told;
    const errorKey = status.error?.message;
    if (told && told.state === status.state && told.error === errorKey &&
      (told.dueAt === dueAt || (told.dueAt !== undefined && dueAt !== undefined && Math.abs(told.dueAt - dueAt) <= 2))) {
      return;
    }
    this.#told = { state: status.state, error: errorKey, dueAt };
    for (const listener of [...this.#listeners]) {
      try {
        listener(status);
      } catch (e) {
        report(e);
      }
    }
  }

  #status(): OrderWatchStatus {
    const core = this.#core;
    if (!core) return { ...(this.#final ?? { state: "stopped" }) };
    try {
      return core.status(now()) as OrderWatchStatus;
    } catch (e) {
      this.#fail(e);
      return { ...(this.#final ?? { state: "stopped" }) };
    }
  }

  /** The watch's state now (a fresh countdown each time it is read). */
  get status(): OrderWatchStatus {
    if (!OrderWatch.#is(this)) throw notLive(WHAT);
    return this.#status();
  }

  /**
   * Calls `listener` with the status whenever it changes (state, error, or a new poll time);
   * returns the function that removes it. A listener that throws is reported, not fatal.
   */
  onStatusChange(listener: (status: OrderWatchStatus) => void): () => void {
    if (!OrderWatch.#is(this)) throw notLive(WHAT);
    const listeners = this.#listeners;
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }

  /** The next update: at once if one is waiting, else when a poll brings a change. */
  next(): Promise<IteratorResult<OrderWatchUpdate, undefined>> {
    if (!OrderWatch.#is(this)) return Promise.reject(notLive(WHAT));
    if (this.#waiters.length === 0) {
      try {
        const result = this.#take();
        if (result) return Promise.resolve(result);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
  }

  /**
   * Ends the watch: the poll in flight is aborted, nothing more is sent, and the iteration
   * ends (a pending `next()` resolves done). Safe to call more than once.
   */
  stop(): void {
    if (!OrderWatch.#is(this)) throw notLive(WHAT);
    this.#leftover = {};
    const core = this.#core;
    if (core) {
      core.stop();
      this.#end();
    } else {
      this.#deliver();
    }
  }

  /** Ends the watch, like `stop()` (`for await` calls it on `break`). */
  return(): Promise<IteratorReturnResult<undefined>> {
    if (!OrderWatch.#is(this)) return Promise.reject(notLive(WHAT));
    this.stop();
    return Promise.resolve({ done: true, value: undefined });
  }

  /** The watch itself: `for await` asks for it. */
  [Symbol.asyncIterator](): OrderWatch {
    return this;
  }
}

/** A watch over `core`, its polls made with `fetchImpl` and aborted through `controller`. @internal */
export function watch(
  core: OrderWatchCore,
  controller: AbortController,
  fetchImpl: Function | undefined,
  observer?: Observer,
): OrderWatch {
  return make(core, controller, fetchImpl, observer);
}
