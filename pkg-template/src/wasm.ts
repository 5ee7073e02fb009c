// The wasm exports the shell drives, bound by the entry that loaded them: index.ts (the
// browser glue, after init() or initSync()) or server-entry.ts (the server glue, on import).
// Both glues export the same names; only their loading differs.
//
// A trap (a WebAssembly.RuntimeError; also the RangeError of a stack overflow, where the
// build has the probe) ends its call with `internal`, and every entry, browser and server,
// replaces the instance then (containment.ts, registered with `bind`): `generation` counts the
// replacements, and each client re-creates its wasm state from its options when it changed
// (client.ts).
import type * as Glue from "./glue/settlement_wasm.js";
import { SettlementError } from "./errors.js";

/** The function exports of the glue that functions.ts uses. */
type WasmFunctions = Pick<typeof Glue,
  "classifyKey" | "onchainRampUrl" | "parseAmount" | "checkRampListener" | "isCryptoRequested">;

/**
 * The exports of the wasm-bindgen glue that the classes and functions use: `Core`,
 * `useErrorClass` and `checkEventListener` (events.ts) in every build; the functions where
 * the entry's build has them (the root's and the server's all, the merchant entry's the
 * ramp's, the bot entry's none). An entry exports only the functions its build has.
 */
export type Wasm = Pick<typeof Glue, "Core" | "useErrorClass" | "checkEventListener"> & Partial<WasmFunctions>;

let bound: Wasm | undefined;
let current = 0;
let contain: ((e: unknown) => SettlementError | undefined) | undefined;

/**
 * Binds the instantiated module (once; later calls keep the first): registers SettlementError
 * as the class the wasm builds every error with, before anything else runs. `containment`, from
 * an entry that can replace the instance, reads a foreign error thrown by the glue (a trap, or
 * an object of a replaced instance) as the `internal` error its call ends with.
 */
export function bind(glue: Wasm, containment?: (e: unknown) => SettlementError | undefined): void {
  if (bound) return;
  glue.useErrorClass(SettlementError);
  bound = glue;
  contain = containment;
}

/** Binds a fresh instance in place of the current one (after a trap): `generation` goes up. */
export function rebind(glue: Wasm): void {
  glue.useErrorClass(SettlementError);
  bound = glue;
  current++;
}

/** The bound exports; `wasm_load` when the module is not instantiated yet (init() not done). */
export function wasm(): Wasm {
  if (!bound) {
    throw new SettlementError("settlement-wasm: the WebAssembly module is not loaded: await init() (or call initSync()) first",
      { code: "wasm_load" });
  }
  return bound;
}

/**
 * The bound function export `name`. Reached only from a function its entry exports, whose build
 * has it; `internal` otherwise (a packaging bug, never a caller's).
 */
export function exported<K extends keyof WasmFunctions>(name: K): WasmFunctions[K] {
  const f = wasm()[name];
  if (!f) throw new SettlementError(`settlement-wasm: this entry's WebAssembly has no ${name}`, { code: "internal" });
  return f as WasmFunctions[K];
}

/** How many times the instance was replaced: a wasm object made under another count is stale. */
export function generation(): number {
  return current;
}

/**
 * A foreign error thrown by the glue as the `internal` error its call ends with, when it is a
 * trap (the entry's containment replaces the instance first) or comes from a replaced
 * instance's object; `undefined` for anything else.
 */
export function internalError(e: unknown): SettlementError | undefined {
  return contain?.(e) ?? (e instanceof WebAssembly.RuntimeError
    ? new SettlementError("settlement-wasm: the WebAssembly instance failed", { code: "internal" })
    : undefined);
}

/** Frees a wasm object (its memory); one freed already, or of a replaced instance, is left as it is. */
export function release(object: { free(): void }): void {
  try {
    object.free();
  } catch {
    // Freed already: nothing left to release.
  }
}
