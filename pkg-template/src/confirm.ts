// The I/O side of `MerchantClient.confirmUntilSettled()`. The loop itself (when to send the
// next confirmation, how long to wait, when to stop, what an abort between confirmations
// means) is the Rust core's `Confirmation`: this driver asks it for the next step, runs the
// confirmation calls it prepares through the one driver (call.ts), hands each answer back,
// and sleeps when told to.
import type { ConfirmOutcome, Confirmation } from "./glue/settlement_wasm.js";
import { run } from "./call.js";
import { fromGlue } from "./errors.js";
import type { Observer } from "./events.js";
import { isAborted, sleep } from "./transport.js";
import { release } from "./wasm.js";

/**
 * Runs `confirmation` to its end with `fetchImpl` (the client's `fetch` option, or undefined
 * for the global `fetch`): resolves with its outcome, or rejects with the SettlementError of
 * the confirmation that failed (or `aborted`). `confirmation` is freed when it ends. Each
 * confirmation's events go to `observer`.
 */
export async function confirm(
  confirmation: Confirmation,
  fetchImpl: Function | undefined,
  observer?: Observer,
): Promise<ConfirmOutcome> {
  try {
    const signal = confirmation.signal;
    for (;;) {
      const step = confirmation.next(isAborted(signal));
      if (step.kind === "done") return step.outcome;
      if (step.kind === "send") confirmation.receive(await run(fetchImpl, step.call, observer));
      // An abort during the wait is seen by the next step.
      else await sleep(step.delayMs, signal);
    }
  } catch (e) {
    throw fromGlue(e, "confirmUntilSettled");
  } finally {
    release(confirmation);
  }
}
