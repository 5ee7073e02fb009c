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

// The deadlines of every attempt and backoff sleep in flight, served by one timer: each
// entry is `[at, onTime]` (`at` on `performance.now()`'s clock). The timer is armed for the
// earliest deadline, and set again only when an earlier one arrives or when it fires; an
// entry that ends first is just removed. Sequential calls with one timeout (the common case)
// then arm one timer per timeout period rather than a `setTimeout` and a `clearTimeout` per
// call (~20-50 µs of main-thread time per call in Chromium, issue 12's note). Under Node the
// timer holds the process open only while an entry is pending (`ref`/`unref`), as a timer
// per call did.
const due = new Set();
let timer, timerAt = Infinity;
// `performance` looked up once: reading the global on every call cost ~9 µs in Chromium (a
// CPU profile of 10-row calls), `now()` itself ~1 µs. Monotonic, unlike `Date.now()`.
const perf = typeof performance === "object" && performance && typeof performance.now === "function" ? performance : Date;
const clock = () => perf.now();

function tick() {
  timer = undefined;
  timerAt = Infinity;
  const now = clock();
  let next = Infinity;
  for (const entry of due) {
    if (entry[0] <= now) {
      due.delete(entry);
      // Never throws in practice (it settles a promise); if it did, the others still run.
      try { entry[1](); } catch {}
    } else if (entry[0] < next) next = entry[0];
  }
  if (next < Infinity) arm(next, now);
}

function arm(at, now) {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(tick, Math.min(Math.ceil(at - now), 2147483647));
}

// Calls `onTime()` `ms` from now unless `cancel` (the returned function) is called first.
function deadline(ms, onTime) {
  const now = clock();
  const entry = [now + ms, onTime];
  if (!due.size) timer?.ref?.();
  due.add(entry);
  if (entry[0] < timerAt) arm(entry[0], now);
  return () => {
    if (due.delete(entry) && !due.size) timer?.unref?.();
  };
}

// Settles after `ms` (with `onTimer()`), or with `[ABORTED]` when `signal` aborts, or with
// what `run` ends it with; `run(attemptSignal, end)`, when given, is started at once with the
// signal of an `AbortController` that is aborted if the promise ends any other way. The
// deadline and the listener are removed however it ends; only the first `end` counts.
function armed(ms, onTimer, signal, run) {
  return new Promise((resolve) => {
    const controller = run && new AbortController();
    const end = (value) => {
      cancel();
      if (signal) try { signal.removeEventListener("abort", abort); } catch {}
      if (controller && value[0] < 0) controller.abort();
      resolve(value);
    };
    const abort = () => end([ABORTED]);
    const cancel = deadline(ms, () => end(onTimer()));
    if (signal) try { signal.addEventListener("abort", abort); } catch {}
    if (run) run(controller.signal, end);
  });
}

const settled = Promise.resolve();

// One POST: `new Request(base, { body, signal })` given to `fetch` (the caller's, else the
// global one, looked up now). Resolves with `[status, retryAfter, body]` (`retryAfter` read
// for a non-2xx status only), or `[TIMEOUT]` after `ms`, `[ABORTED]` when `signal` aborts,
// `[FAILED, undefined, error]` otherwise (what was thrown, or a message).
//
// Written as promise reactions that end the attempt themselves (none returns a promise or
// throws), rather than as an `async` function whose result is then awaited: one microtask
// and about four promises fewer per attempt.
export function send(fetch, base, body, ms, signal) {
  return armed(ms, () => [TIMEOUT], signal, (attempt, end) => {
    const fail = (e) => end([FAILED, undefined, e]);
    // The response's status (and Retry-After), then its body as text: `end` is called from
    // the body's own reaction.
    const read = (response) => {
      try {
        let status, text, retryAfter;
        try { status = response.status; } catch {}
        if (typeof status !== "number") throw "fetch did not return a Response";
        if (!(status >= 200 && status < 300)) {
          try {
            const headers = response.headers;
            retryAfter = apply(headers.get, headers, ["retry-after"]);
          } catch {}
        }
        try { text = response.text; } catch {}
        if (typeof text !== "function") throw "fetch did not return a Response";
        if (typeof retryAfter !== "string") retryAfter = undefined;
        Promise.resolve(apply(text, response, [])).then((value) => {
          end(typeof value === "string" ? [status, retryAfter, value]
            : [FAILED, undefined, "the response body could not be read as text"]);
        }, fail);
      } catch (e) {
        fail(e);
      }
    };
    // The request is made and sent from a microtask, not from under the wasm call that
    // started it: with DevTools (or any CDP client) attached, Chromium records the stack of
    // every request, and wasm frames on it made `fetch()` itself ~70 µs slower (measured).
    settled.then(() => {
      try {
        const f = fetch || globalThis.fetch;
        if (typeof f !== "function") throw "no fetch implementation is available; pass the fetch option";
        Promise.resolve(apply(f, globalThis, [new Request(base, { body, signal: attempt })])).then(read, fail);
      } catch (e) {
        fail(e);
      }
    });
  });
}

// The first attempt of a call of the npm classes, and the call's context for compose.js'
// `drive`: `[its result (a promise), code, body, signal]` (made here rather than in wasm:
// one crossing and one `Array.of` less per call).
export function start(fetch, base, body, ms, signal, code) {
  return [send(fetch, base, body, ms, signal), code, body, signal];
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
