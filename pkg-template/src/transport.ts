// The shell's I/O: one attempt of a call (a POST through `fetch`, its own timeout, the caller's
// abort) and one backoff sleep. What an outcome means (retry, fail, decode) is the Rust core's
// decision (`PreparedCall.decide`); nothing here throws or rejects. A caller's `fetch` (or a
// replaced global one) that throws, returns anything but a Response, or never settles ends in
// an outcome all the same.
import type { AttemptOutcome, PreparedCall } from "./glue/settlement_wasm.js";

const apply = Reflect.apply;
/** `setTimeout`'s largest delay (a longer one would fire at once). */
const MAX_DELAY = 2147483647;
const settled = Promise.resolve();

/** Whether `signal` is aborted; a getter that throws counts as not aborted. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  if (!signal) return false;
  try {
    return !!signal.aborted;
  } catch {
    return false;
  }
}

/**
 * Runs `onAbort` when `signal` aborts, until the returned function is called (it removes the
 * listener). A signal whose listener methods throw is then never observed.
 */
export function onAbort(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return () => {};
  try {
    signal.addEventListener("abort", onAbort);
  } catch {
    return () => {};
  }
  return () => {
    try {
      signal.removeEventListener("abort", onAbort);
    } catch {
      // The caller's signal refused: nothing is left to remove on our side.
    }
  };
}

/**
 * One attempt of `call`: `new Request(call.url, { method: "POST", headers, body, signal })`
 * given to `fetchImpl` (else the global `fetch`, looked up now), from a microtask. Resolves,
 * never rejects, with the first of:
 * - `response`: the status, `Retry-After` (read for a non-2xx status only) and the body text;
 * - `timeout`: `call.timeoutMs` passed first (the request's own signal is then aborted);
 * - `aborted`: the caller's signal (`call.signal`) aborted first;
 * - `failed`: `fetch` threw or rejected, returned no Response, or the body could not be read.
 * The timer and the abort listener are removed however it ends.
 */
export function attempt(fetchImpl: Function | undefined, call: PreparedCall): Promise<AttemptOutcome> {
  const url = call.url;
  const headers = call.headers;
  const body = call.body;
  const ms = call.timeoutMs;
  const signal = call.signal;
  return new Promise<AttemptOutcome>((resolve) => {
    const controller = new AbortController();
    let done = false;
    const end = (outcome: AttemptOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unlisten();
      if (outcome.kind !== "response") controller.abort();
      resolve(outcome);
    };
    const fail = (error: unknown): void => end({ kind: "failed", error });
    const timer = setTimeout(() => end({ kind: "timeout" }), Math.min(Math.max(ms, 0), MAX_DELAY));
    const unlisten = onAbort(signal, () => end({ kind: "aborted" }));
    if (isAborted(signal)) end({ kind: "aborted" });
    // The response's status (and Retry-After), then its body as text.
    const read = (response: unknown): void => {
      try {
        const r = response as Response;
        let status: unknown;
        let retryAfter: unknown;
        let text: unknown;
        try { status = r.status; } catch { /* not a Response: refused below */ }
        if (typeof status !== "number") throw "fetch did not return a Response";
        if (!(status >= 200 && status < 300)) {
          try {
            const h = r.headers;
            retryAfter = apply(h.get, h, ["retry-after"]);
          } catch {
            // No readable Retry-After: the core's backoff applies.
          }
        }
        try { text = r.text; } catch { /* refused below */ }
        if (typeof text !== "function") throw "fetch did not return a Response";
        const n = status;
        // Kept, not read: read only when the call is observed, fails, or its response is asked for.
        let headers: unknown;
        try { headers = r.headers; } catch { /* none */ }
        const after = typeof retryAfter === "string" ? retryAfter : undefined;
        Promise.resolve(apply(text, r, [])).then((value: unknown) => {
          end(typeof value === "string"
            ? { kind: "response", status: n, retryAfter: after, body: value, headers }
            : { kind: "failed", error: "the response body could not be read as text" });
        }, fail);
      } catch (e) {
        fail(e);
      }
    };
    // The request is made and sent from a microtask, not from under the call that started
    // it: with DevTools (or any CDP client) attached, Chromium records the stack of every
    // request, and wasm frames on it made `fetch()` itself slower.
    void settled.then(() => {
      if (done) return;
      try {
        const f: unknown = fetchImpl ?? globalThis.fetch;
        if (typeof f !== "function") throw "no fetch implementation is available; pass the fetch option";
        const request = new Request(url, { method: "POST", headers, body, signal: controller.signal });
        Promise.resolve(apply(f, globalThis, [request])).then(read, fail);
      } catch (e) {
        fail(e);
      }
    });
  });
}

/**
 * A backoff sleep of `ms`: resolves with `true` after it, or with `false` as soon as `signal`
 * aborts (at once if it already has). The timer and the listener are removed either way.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (isAborted(signal)) {
      resolve(false);
      return;
    }
    const end = (slept: boolean): void => {
      clearTimeout(timer);
      unlisten();
      resolve(slept);
    };
    const timer = setTimeout(() => end(true), Math.min(Math.max(ms, 0), MAX_DELAY));
    const unlisten = onAbort(signal, () => end(false));
  });
}
