// The JavaScript half of the Rust API's fetch transport (src/transport/fetch.rs): one
// attempt, or one backoff sleep, as one promise. (The npm package's TypeScript shell does
// its own I/O in pkg-template/src/transport.ts.)
//
// Nothing here throws or rejects: a caller's `fetch` (or a replaced global one) that throws,
// returns anything but a Response, or never settles ends in a `failed` or `timeout` outcome.

// One POST: `new Request(request, { signal })` given to `fetch` (the caller's, else the
// global one, looked up now). Resolves with an outcome (read by fetch.rs' `outcome`):
// `{ kind: "response", status, retryAfter, body, headers }` (`retryAfter` read for a non-2xx
// status only; `headers` every header as `name: value` lines, at most 100), `{ kind: "timeout" }` after `ms`, `{ kind: "aborted" }` when `signal` (the caller's)
// or `dropped` (aborted by the Rust side when it drops the attempt) aborts, or
// `{ kind: "failed", error }`.
export function send(fetch, request, ms, signal, dropped) {
  return new Promise((resolve) => {
    const controller = new AbortController();
    const signals = signal ? [signal, dropped] : [dropped];
    const end = (outcome) => {
      clearTimeout(timer);
      for (const s of signals) try { s.removeEventListener("abort", abort); } catch {}
      if (outcome.kind !== "response") controller.abort();
      resolve(outcome);
    };
    const abort = () => end({ kind: "aborted" });
    const timer = setTimeout(() => end({ kind: "timeout" }), ms);
    for (const s of signals) try { s.addEventListener("abort", abort); } catch {}
    const fail = (error) => end({ kind: "failed", error });
    const read = async (response) => {
      let status, retryAfter;
      try { status = response.status; } catch {}
      if (typeof status !== "number") throw "fetch did not return a Response";
      if (!(status >= 200 && status < 300)) {
        try { retryAfter = response.headers.get("retry-after") ?? undefined; } catch {}
      }
      // Every header, as `name: value` lines (at most 100), for the call's observers.
      let headers = "";
      try {
        let n = 0;
        response.headers.forEach((value, name) => {
          if (typeof name === "string" && typeof value === "string" && n++ < 100) headers += `${name}: ${value}\n`;
        });
      } catch {}
      const body = await response.text();
      if (typeof body !== "string") throw "the response body could not be read as text";
      return { kind: "response", status, retryAfter: typeof retryAfter === "string" ? retryAfter : undefined, body, headers };
    };
    // Called from a microtask, so a synchronous throw becomes a rejection.
    Promise.resolve().then(() => {
      const f = fetch || globalThis.fetch;
      if (typeof f !== "function") throw "no fetch implementation is available; pass the fetch option";
      return f.call(globalThis, new Request(request, { signal: controller.signal }));
    }).then(read).then(end, fail);
  });
}

// A backoff sleep of `ms`: resolves with `true`, or `false` as soon as `signal` aborts.
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const end = (slept) => {
      clearTimeout(timer);
      if (signal) try { signal.removeEventListener("abort", abort); } catch {}
      resolve(slept);
    };
    const abort = () => end(false);
    const timer = setTimeout(() => end(true), ms);
    if (signal) try { signal.addEventListener("abort", abort); } catch {}
  });
}
