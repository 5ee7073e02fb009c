// The wasm exports the shell drives, bound once by the entry that loaded them: index.ts (the
// browser glue, after init() or initSync()) or node.ts (the Node glue, on require). Both glues
// export the same names; only their loading differs.
import type * as Glue from "./glue/settlement_wasm.js";
import { SettlementError } from "./errors.js";

/** The exports of the wasm-bindgen glue that the classes and functions use. */
export type Wasm = Pick<typeof Glue,
  "Core" | "useErrorClass" | "classifyKey" | "onchainRampUrl" | "parseAmount" | "checkRampListener" |
  "isCryptoRequested" | "checkEventListener">;

let bound: Wasm | undefined;

/**
 * Binds the instantiated module (once; later calls keep the first): registers SettlementError
 * as the class the wasm builds every error with, before anything else runs.
 */
export function bind(glue: Wasm): void {
  if (bound) return;
  glue.useErrorClass(SettlementError);
  bound = glue;
}

/** The bound exports; `wasm_load` when the module is not instantiated yet (init() not done). */
export function wasm(): Wasm {
  if (!bound) {
    throw new SettlementError("settlement-wasm: the WebAssembly module is not loaded: await init() (or call initSync()) first",
      { code: "wasm_load" });
  }
  return bound;
}

/** Frees a wasm object (its memory); one freed already is left as it is. */
export function release(object: { free(): void }): void {
  try {
    object.free();
  } catch {
    // Freed already: nothing left to release.
  }
}
