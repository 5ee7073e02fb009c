// The one driver of every call: it asks the Rust core what to do and does the I/O. Which
// outcome is a value, an error or a retry, how long to wait before it, and what an abort means
// (`aborted` before the request was sent, `outcome_unknown` for a mutation after) are the
// core's decisions (`PreparedCall.start` and `PreparedCall.decide`, which throw the error a
// call ends with).
import type { PreparedCall } from "./glue/settlement_wasm.js";
import { fromGlue } from "./errors.js";
import { attempt, isAborted, sleep } from "./transport.js";
import { release } from "./wasm.js";

/**
 * Runs `call` to its end with `fetchImpl` (the client's `fetch` option, or undefined for the
 * global `fetch`): resolves with the value the core decoded, or rejects with the
 * SettlementError it decided. `call` is freed when the call ends. Before each attempt the core
 * is asked whether the caller's signal stops it; after each attempt, what follows, told
 * whether the signal is aborted by then (an abort that arrived with or after an outcome still
 * wins).
 */
export async function run(fetchImpl: Function | undefined, call: PreparedCall): Promise<unknown> {
  try {
    const signal = call.signal;
    let aborted = isAborted(signal);
    for (let n = 0; ; n++) {
      call.start(aborted);
      const outcome = await attempt(fetchImpl, call);
      const decision = call.decide(n, outcome, isAborted(signal));
      if (decision.kind === "done") return decision.value;
      aborted = !(await sleep(decision.delayMs, signal)) || isAborted(signal);
    }
  } catch (e) {
    throw fromGlue(e, "call");
  } finally {
    release(call);
  }
}
