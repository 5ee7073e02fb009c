// What `BotClient` and `MerchantClient` share (bot-client.ts, merchant-client.ts: each entry
// bundles only the classes it exports). Each class holds a `Client`: its wasm `Core` (the
// validated configuration) in a private field, which is also the brand: a method called on
// anything but a live instance of its own class is refused (`invalid_input`, field `this`).
// Every method asks the Core to prepare its call (validation, document, body) and hands it to
// the one driver (call.ts).
import type { CallSource, Core, PreparedCall, ResponseInfo } from "./glue/settlement_wasm.js";
import { run } from "./call.js";
import { fromGlue, invalid, notLive } from "./errors.js";
import { Emitter, type Observer } from "./events.js";
import { generation, release, wasm } from "./wasm.js";

/** What `withResponse` collects: the call its function started, and the response behind its value. */
interface Capture {
  call?: Promise<unknown>;
  response: ResponseInfo;
}

/** What a client instance holds: its Core while it is live, and what its calls need. */
export class Client {
  /** The Core; null once free() was called. Calls in flight do not need it. */
  core: Core | null;
  /** The validated `fetch` option, read once. */
  readonly fetch: Function | undefined;
  /** How many of this client's Core calls are running: they may read the caller's values. */
  busy = 0;
  /** The listeners and the `logger` option. */
  readonly events: Emitter;
  /** Set by `withResponse` while its function runs: the first call started takes it. */
  capture: Capture | undefined;
  /** The instance the Core lives in (wasm.ts `generation`). */
  #generation: number;

  constructor(readonly what: string, readonly endpoint: "bot" | "merchant", readonly options: unknown) {
    this.#generation = generation();
    const core = this.#make();
    this.core = core;
    this.fetch = core.fetch;
    // The `logger` option was read once, by the Core, which writes the lines.
    this.events = new Emitter(core.logs);
  }

  /** How a call `source` made is observed. */
  observer(source: CallSource): Observer {
    return { emitter: this.events, source };
  }

  /** A Core from the options, in the current instance. */
  #make(): Core {
    try {
      return new (wasm().Core)(this.endpoint, this.options);
    } catch (e) {
      throw fromGlue(e, this.what);
    }
  }

  /**
   * `f(core)`, or `invalid_input` (`this`) once freed; free() is refused while it runs. After
   * the instance was replaced (a trap), the Core is made again from the options first.
   */
  use<T>(f: (core: Core) => T): T {
    let core = this.core;
    if (!core) throw notLive(this.what);
    if (this.#generation !== generation()) {
      core = this.#make();
      this.core = core;
      this.#generation = generation();
    }
    this.busy++;
    try {
      return f(core);
    } catch (e) {
      throw fromGlue(e, this.what);
    } finally {
      this.busy--;
    }
  }

  /** The call `prepare` makes, run to its end; a refusal rejects. */
  send<T>(prepare: (core: Core) => PreparedCall): Promise<T> {
    const capture = this.capture;
    this.capture = undefined;
    let call: PreparedCall;
    try {
      call = this.use(prepare);
    } catch (e) {
      const refused = Promise.reject(e);
      if (capture) capture.call = refused;
      return refused;
    }
    const p = run(this.fetch, call, this.observer("call"), capture && ((r) => { capture.response = r; })) as Promise<T>;
    if (capture) capture.call = p;
    return p;
  }

  /**
   * The call `start(self)` makes, with the response behind its value: `start` must start
   * exactly one call of this client at once (`c => c.profile()`); else `invalid_input` (`call`).
   */
  withResponse<T>(self: unknown, start: unknown): Promise<{ data: T; response: ResponseInfo }> {
    const capture: Capture = { response: { status: 0, headers: {} } };
    const before = this.capture;
    this.capture = capture;
    try {
      // What `start` returns is not used: the call it started is the one `send` recorded.
      if (typeof start === "function") start(self);
    } catch (e) {
      return Promise.reject(fromGlue(e, this.what));
    } finally {
      this.capture = before;
    }
    const call = capture.call;
    return call
      ? call.then((data) => ({ data: data as T, response: capture.response }))
      : Promise.reject(invalid("call", "call: must start one call of this client, e.g. c => c.profile()"));
  }

  /**
   * Releases the Core at once (calls in flight finish without it). Refused while one of this
   * client's Core calls is reading the caller's values (a getter that frees its own client):
   * the Core is in use.
   */
  free(): void {
    const core = this.core;
    if (!core || this.busy) throw notLive(this.what);
    this.core = null;
    release(core);
  }
}

/**
 * The call `prepare` makes on `client`'s Core, run to its end; `client` is undefined when the
 * method was called on something that is not a `what`: then it rejects (`invalid_input`,
 * field `this`), as it does for a refused call.
 */
export function send<T>(client: Client | undefined, what: string, prepare: (core: Core) => PreparedCall): Promise<T> {
  return client ? client.send<T>(prepare) : Promise.reject(notLive(what));
}

/** `on` (`add`) or `off` on `client`'s emitter; `invalid_input` (field `this`) when `client` is undefined. */
export function listen<S>(client: Client | undefined, what: string, self: S, add: boolean, type: unknown, listener: unknown): S {
  if (!client) throw notLive(what);
  client.events[add ? "on" : "off"](type, listener, what);
  return self;
}

/** `client.free()`; `invalid_input` (field `this`) when `client` is undefined (not a `what`). */
export function free(client: Client | undefined, what: string): void {
  if (!client) throw notLive(what);
  client.free();
}

/**
 * `using client = new C(…)` frees it at the end of the scope, where the engine has
 * Symbol.dispose (declared nowhere: the declarations need no `esnext.disposable` lib).
 */
export function disposable(C: { prototype: { free(): void } }): void {
  const dispose = (Symbol as { readonly dispose?: symbol }).dispose;
  if (typeof dispose === "symbol") {
    Object.defineProperty(C.prototype, dispose, { value: C.prototype.free, writable: true, configurable: true });
  }
}

// Every built-in operation has its method on its class, typed exactly as its declaration says:
// the names, parameters and results come from the declarations (src/operations.rs, generated
// into operations.ts), so tsc fails on the `EveryBotMethod` / `EveryMerchantMethod` lines of
// bot-client.ts and merchant-client.ts when a declared operation has no method there, or when
// a method's parameters or promised result differ from its declaration's.
/** `T`, which must be `true`. @internal */
export type Assert<T extends true> = T;
/** Whether `A` and `B` are the same type. @internal */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
