// The JavaScript half of the fetch transport (src/transport/fetch.rs): one attempt, or one
// backoff sleep, as one promise, so a call crosses into wasm once per attempt. Written here
// rather than as js-sys/web-sys calls from Rust: there each step (the abort controller, the
// request, the timer, the race, `fetch`, `status`, `text()`) was a crossing and every wait a
// wake-up of a Rust future; here they run as plain JavaScript (measured in issue 12's note).
//
// Nothing here throws or rejects: a caller's `fetch` (or a replaced global one) that throws,
// returns anything but a Response, or never settles ends in a failure result.

const apply = Reflect.apply;

// Failure results are `[kind, undefined, error]` with these kinds (read by fetch.rs).
const TIMEOUT = -1;
const ABORTED = -2;
const FAILED = -3;

// Settles after `ms` (with `onTimer()`), or with `[ABORTED]` when `signal` aborts, or with
// what `run` resolves to (`[FAILED, undefined, error]` when it fails); `run`, when given, is
// started at once with the signal of an `AbortController` that is aborted if the promise
// ends any other way. The timer and the listener are cleared however it ends.
function armed(ms, onTimer, signal, run) {
  return new Promise((resolve) => {
    const controller = run && new AbortController();
    const end = (value) => {
      clearTimeout(timer);
      if (signal) try { signal.removeEventListener("abort", abort); } catch {}
      if (controller && value[0] < 0) controller.abort();
      resolve(value);
    };
    const abort = () => end([ABORTED]);
    const timer = setTimeout(() => end(onTimer()), ms);
    if (signal) try { signal.addEventListener("abort", abort); } catch {}
    if (run) run(controller.signal).then(end, (e) => end([FAILED, undefined, e]));
  });
}

// One POST: `new Request(base, { body, signal })` given to `fetch` (the caller's, else the
// global one, looked up now). Resolves with `[status, retryAfter, body]` (`retryAfter` read
// for a non-2xx status only), or `[TIMEOUT]` after `ms`, `[ABORTED]` when `signal` aborts,
// `[FAILED, undefined, error]` otherwise (what was thrown, or a message).
export function send(fetch, base, body, ms, signal) {
  return armed(ms, () => [TIMEOUT], signal, async (attempt) => {
    // The request is made and sent from a microtask, not from under the wasm call that
    // started it: with DevTools (or any CDP client) attached, Chromium records the stack of
    // every request, and wasm frames on it made `fetch()` itself ~70 µs slower (measured).
    await undefined;
    const f = fetch || globalThis.fetch;
    if (typeof f !== "function") throw "no fetch implementation is available; pass the fetch option";
    const response = await apply(f, globalThis, [new Request(base, { body, signal: attempt })]);
    let status, text, retryAfter;
    try { status = response.status; } catch {}
    if (typeof status !== "number") throw "fetch did not return a Response";
    if (!(status >= 200 && status < 300)) {
      try {
        const headers = response.headers;
        retryAfter = await apply(headers.get, headers, ["retry-after"]);
      } catch {}
    }
    try { text = response.text; } catch {}
    if (typeof text !== "function") throw "fetch did not return a Response";
    const read = await apply(text, response, []);
    if (typeof read !== "string") throw "the response body could not be read as text";
    return [status, typeof retryAfter === "string" ? retryAfter : undefined, read];
  });
}

// A backoff sleep of `ms`: resolves with `[0]`, or `[ABORTED]` when `signal` aborts first.
export function sleep(ms, signal) {
  return armed(ms, () => [0], signal);
}

// `sleep(delay, signal)`, then, unless `signal` aborted, `send(...)`: the next attempt of a
// call, as one promise.
export function retry(delay, fetch, base, body, ms, signal) {
  return sleep(delay, signal).then((slept) => {
    let aborted = slept[0] < 0;
    try { aborted ||= !!(signal && signal.aborted); } catch {}
    return aborted ? [ABORTED] : send(fetch, base, body, ms, signal);
  });
}
