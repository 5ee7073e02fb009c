// The I/O side of `MerchantClient.confirmUntilSettled()`. The loop itself (when to send the
// next confirmation, how long to wait, when to stop, what an abort between confirmations
// means, which failures are transient and back off) is the Rust core's `Confirmation`: this
// driver asks it for the next step, sends each confirmation it prepares once, hands the
// attempt's outcome back, and sleeps when told to.
import type { ConfirmOutcome, Confirmation } from "./glue/settlement_wasm.js";
import { fromGlue } from "./errors.js";
import { once } from "./call.js";
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
      if (step.kind === "send") {
        // One attempt (a confirmation is sent once); what it means, a transient failure's
        // backoff included, is the core's.
        const call = step.call;
        await once(fetchImpl, call, observer, (outcome, c) => confirmation.settle(outcome, isAborted(signal), c));
      }
      // An abort during the wait is seen by the next step.
      else await sleep(step.delayMs, signal);
    }
  } catch (e) {
    throw fromGlue(e, "confirmUntilSettled");
  } finally {
    release(confirmation);
  }
}
