// What `BotClient` and `MerchantClient` share (bot-client.ts, merchant-client.ts: each entry
// bundles only the classes it exports). Each class holds a `Client`: its wasm `Core` (the
// validated configuration) in a private field, which is also the brand: a method called on
// anything but a live instance of its own class is refused (`invalid_input`, field `this`).
// Every method asks the Core to prepare its call (validation, document, body) and hands it to
// the one driver (call.ts).
import type { Core, PreparedCall } from "./glue/settlement_wasm.js";
import { run } from "./call.js";
import { fromGlue, notLive } from "./errors.js";
import { generation, release, wasm } from "./wasm.js";

/** What a client instance holds: its Core while it is live, and what its calls need. */
export class Client {
  /** The Core; null once free() was called. Calls in flight do not need it. */
  core: Core | null;
  /** The validated `fetch` option, read once. */
  readonly fetch: Function | undefined;
  /** How many of this client's Core calls are running: they may read the caller's values. */
  busy = 0;
  /** The instance the Core lives in (wasm.ts `generation`). */
  #generation: number;

  constructor(readonly what: string, readonly endpoint: "bot" | "merchant", readonly options: unknown) {
    this.#generation = generation();
    const core = this.#make();
    this.core = core;
    this.fetch = core.fetch;
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
    let call: PreparedCall;
    try {
      call = this.use(prepare);
    } catch (e) {
      return Promise.reject(e);
    }
    return run(this.fetch, call) as Promise<T>;
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
