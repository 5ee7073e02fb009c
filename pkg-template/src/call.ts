// The one driver of every call: it asks the Rust core what to do and does the I/O. Which
// outcome is a value, an error or a retry, how long to wait before it, and what an abort means
// (`aborted` before the request was sent, `outcome_unknown` for a mutation after) are the
// core's decisions (`PreparedCall.start` and `PreparedCall.decide`, which throw the error a
// call ends with). When the call is observed (a listener or a logger), the core builds each
// event and this delivers it; the response behind a result or an error is the core's too.
import type { AttemptOutcome, PreparedCall, ResponseInfo } from "./glue/settlement_wasm.js";
import { fromGlue, SettlementError } from "./errors.js";
import { headerBlock, observe, type Observation, type Observer } from "./events.js";
import { attempt, isAborted, sleep } from "./transport.js";
import { release } from "./wasm.js";

/**
 * Runs `call` to its end with `fetchImpl` (the client's `fetch` option, or undefined for the
 * global `fetch`): resolves with the value the core decoded, or rejects with the
 * SettlementError it decided (with the headers and request id of the last response, if one
 * came). `call` is freed when the call ends. Before each attempt the core is asked whether the
 * caller's signal stops it; after each attempt, what follows, told whether the signal is
 * aborted by then (an abort that arrived with or after an outcome still wins). `observer`:
 * the client's emitter (events are built only when it is active) and what made the call;
 * `capture` receives the response behind the value.
 */
export async function run(
  fetchImpl: Function | undefined,
  call: PreparedCall,
  observer?: Observer,
  capture?: (response: ResponseInfo) => void,
): Promise<unknown> {
  let last: AttemptOutcome | undefined;
  let seen: Observation | undefined;
  try {
    seen = observe(observer, call);
    const signal = call.signal;
    let aborted = isAborted(signal);
    for (let n = 0; ; n++) {
      call.start(aborted);
      seen?.emit((c) => c.event("request"));
      const outcome = await attempt(fetchImpl, call);
      last = outcome.kind === "response" ? outcome : undefined;
      if (seen && last?.kind === "response") {
        const { status, headers } = last;
        seen.emit((c) => c.responseEvent(status, headerBlock(headers)));
      }
      const decision = call.decide(n, outcome, isAborted(signal));
      if (decision.kind === "done") {
        if (capture && last?.kind === "response") capture(call.response(last.status, headerBlock(last.headers)));
        seen?.emit((c) => c.event("done"));
        return decision.value;
      }
      seen?.emit((c) => c.event("retry"));
      aborted = !(await sleep(decision.delayMs, signal)) || isAborted(signal);
    }
  } catch (e) {
    const error = fromGlue(e, "call");
    if (last?.kind === "response" && e instanceof SettlementError) {
      const { headers, requestId } = call.response(last.status, headerBlock(last.headers));
      Object.assign(error, requestId === undefined ? { headers } : { headers, requestId });
    }
    seen?.failed(error);
    throw error;
  } finally {
    release(call);
  }
}

/**
 * One attempt of `call`, sent once: a confirmation of `confirmUntilSettled`, whose backoff is
 * its loop's (the core's `Confirmation`). `call` is started (told whether the caller's signal
 * is aborted), sent, and its outcome handed to `settle` (the loop's core, given the call),
 * which throws the error the loop ends with. When `observer` is active the attempt's events
 * are delivered: `request`, `response` (when an answer came), `retry` (the loop backs off) or
 * `error` (what `settle` threw), and `done`. `call` is freed at the end.
 */
export async function once(
  fetchImpl: Function | undefined,
  call: PreparedCall,
  observer: Observer | undefined,
  settle: (outcome: AttemptOutcome, call: PreparedCall) => void,
): Promise<void> {
  let seen: Observation | undefined;
  try {
    seen = observe(observer, call);
    call.start(isAborted(call.signal));
    seen?.emit((c) => c.event("request"));
    const outcome = await attempt(fetchImpl, call);
    if (seen && outcome.kind === "response") {
      seen.emit((c) => c.responseEvent(outcome.status, headerBlock(outcome.headers)));
    }
    settle(outcome, call);
    seen?.emit((c) => c.event("retry"));
    seen?.emit((c) => c.event("done"));
  } catch (e) {
    seen?.failed(fromGlue(e, "call"));
    throw e;
  } finally {
    release(call);
  }
}
