// The containment of a trap, in every entry (the server entries: server-entry.ts; the browser
// entries: browser.ts). A trap (a WebAssembly.RuntimeError; a stack overflow is a RangeError)
// leaves an instance's state broken (its allocator, its stack pointer), and one instance serves
// the whole process or page: the first trap seen replaces it with a fresh instance of the same
// compiled module before the next call, and retires the old one's objects (each use throws
// `Retired`, so a call that was running in it ends with `internal` and nothing of it reaches
// the fresh instance). Clients re-create their wasm state from their options (client.ts); the
// proxy its policy (proxy.ts).
import { SettlementError } from "./errors.js";
import { generation, rebind, wasm, type Wasm } from "./wasm.js";

/** A glue made by scripts/glue-factory.mjs: `retire` poisons its exports. */
export type Retirable = Wasm & { retire(poison: object): void };

/** Thrown by an object of a replaced instance. */
class Retired extends Error {}

/** What a retired glue's exports become: every member read throws `Retired`. */
const poison: object = new Proxy({}, {
  get() {
    throw new Retired("settlement-wasm: the WebAssembly instance was replaced");
  },
});

/**
 * The containment of the instance `first`: a function reading a foreign error thrown by the
 * glue (see wasm.ts `bind`). On a trap it makes a fresh glue and instance with `make`, binds
 * it, retires the trapped one, and returns the `internal` error of the call that trapped (no
 * stack, no value of the call in its message). `probe`, a call that needs the instance's stack
 * and allocator, tells whether another foreign error left it broken too; without one (the
 * browser entries, whose builds need not share an export for it) only a RuntimeError is a trap.
 */
export function containment(first: Retirable, make: () => Retirable, probe?: (glue: Retirable) => void):
  (e: unknown) => SettlementError | undefined {
  let live = first;
  const healthy = (): boolean => {
    if (!probe) return true;
    try {
      probe(live);
      return true;
    } catch {
      return false;
    }
  };
  return (e) => {
    if (e instanceof Retired) {
      return new SettlementError(
        "settlement-wasm: the WebAssembly instance was replaced while this call ran (another call failed); start it again",
        { code: "internal" });
    }
    // A RuntimeError is a trap. Another foreign error may be one too (a stack overflow is a
    // RangeError; a broken instance hands the glue pointers it cannot read): the instance is
    // probed with a call that needs its stack and allocator, and replaced if that fails.
    if (!(e instanceof WebAssembly.RuntimeError) && healthy()) return undefined;
    try {
      const fresh = make();
      rebind(fresh);
      live.retire(poison);
      live = fresh;
    } catch {
      // The module instantiated once: it does again. If not, the next call fails on its own.
    }
    return new SettlementError(
      "settlement-wasm: the WebAssembly instance failed during this call (a bug of the package, not of the input); " +
        "it was replaced, and the next call runs on a fresh instance",
      { code: "internal" });
  };
}

/**
 * The test hooks, exposed as `globalThis[Symbol.for("settlement-wasm.test")]` by an entry that
 * was asked to (server entries: the environment variable `SETTLEMENT_WASM_TEST_HOOKS` is `1`;
 * browser entries: a build made with it, whose wasm has the hook): `breakInstance()` overflows
 * the current instance's stack, as an unbounded recursion would, and swallows the trap unseen
 * (the instance is left broken, and the next call into it traps, which is what the replacement
 * is tested against; returns the trap's class name), and `generation()` (how many times the
 * instance was replaced).
 */
export function exposeTestHooks(): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for("settlement-wasm.test")] = {
    breakInstance(): string {
      try {
        (wasm() as unknown as { forceTrapForTests(depth: number): number }).forceTrapForTests(1_000_000_000);
        return "no trap";
      } catch (e) {
        return (e as Error)?.constructor?.name ?? "unknown";
      }
    },
    generation,
  };
}
