// The wasm exports the shell drives, bound by the entry that loaded them: index.ts (the
// browser glue, after init() or initSync()) or server-entry.ts (the server glue, on import).
// Both glues export the same names; only their loading differs.
//
// Containment: a trap (a WebAssembly.RuntimeError, or a RangeError when the instance's stack
// overflows) leaves an instance's state broken (its allocator, its stack pointer), so an entry
// that can make a fresh instance registers how (`bind(glue, restart)`): the first trap seen
// replaces the instance before the next call, and the objects of the old one are retired
// (using one throws `Retired`, which ends that call with `internal`). Each client re-creates
// its wasm state from its options on its next call (clients.ts).
import type * as Glue from "./glue/settlement_wasm.js";
import { SettlementError } from "./errors.js";

/** The exports of the wasm-bindgen glue that the classes and functions use. */
export type Wasm = Pick<typeof Glue,
  "Core" | "useErrorClass" | "classifyKey" | "onchainRampUrl" | "parseAmount" | "checkRampListener" |
  "isCryptoRequested">;

/** A glue the entry can retire: after `retire`, every use of its objects throws `Retired`. */
export interface Retirable {
  retire?: (poison: object) => void;
}

let bound: Wasm | undefined;
let restart: (() => Wasm & Retirable) | undefined;
let current = 0;

/** Thrown by an object of a replaced instance (a call that was running when it trapped). */
export class Retired extends Error {}

/** What the old glue's exports become: every member read throws `Retired`. */
const poison: object = new Proxy({}, {
  get() {
    throw new Retired("settlement-wasm: the WebAssembly instance was replaced");
  },
});

/**
 * Binds the instantiated module: registers SettlementError as the class the wasm builds every
 * error with, before anything else runs. `make`, when the entry can instantiate the module
 * again, makes a fresh glue and instance (see `replaceAfterTrap`). A later call keeps the
 * first binding.
 */
export function bind(glue: Wasm, make?: () => Wasm & Retirable): void {
  if (bound) return;
  glue.useErrorClass(SettlementError);
  bound = glue;
  restart = make;
}

/** The bound exports; `wasm_load` when the module is not instantiated yet (init() not done). */
export function wasm(): Wasm {
  if (!bound) {
    throw new SettlementError("settlement-wasm: the WebAssembly module is not loaded: await init() (or call initSync()) first",
      { code: "wasm_load" });
  }
  return bound;
}

/** How many times the instance was replaced: a wasm object made under another count is stale. */
export function generation(): number {
  return current;
}

/** Whether `e`, thrown by a call into the wasm glue, is a trap of the instance. */
export function isTrap(e: unknown): boolean {
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError;
}

/**
 * After a trap: replaces the instance (when the entry registered how) and retires the old
 * one's objects. Returns the `internal` error the call that trapped ends with (no stack, no
 * value of the call in its message).
 */
export function replaceAfterTrap(): SettlementError {
  const old = bound as (Wasm & Retirable) | undefined;
  if (restart && old) {
    try {
      const fresh = restart();
      fresh.useErrorClass(SettlementError);
      bound = fresh;
      current++;
      old.retire?.(poison);
    } catch {
      // The module instantiated once: it does again. If not, the next call fails on its own.
    }
  }
  return new SettlementError(
    "settlement-wasm: the WebAssembly instance failed during this call (a bug of the package, not of the input); " +
      "it was replaced, and the next call runs on a fresh instance",
    { code: "internal" });
}

/**
 * The `internal` error of a call whose wasm objects belong to an instance replaced while it
 * ran (another call trapped): it cannot go on, and nothing of it is resent.
 */
export function retiredError(): SettlementError {
  return new SettlementError(
    "settlement-wasm: the WebAssembly instance was replaced while this call ran (another call failed); start it again",
    { code: "internal" });
}

/** Frees a wasm object (its memory); one freed already, or of a replaced instance, is left as it is. */
export function release(object: { free(): void }): void {
  try {
    object.free();
  } catch {
    // Freed already: nothing left to release.
  }
}
