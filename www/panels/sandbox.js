// Sandbox controls: whether the base URL is the sandbox (GET /__sandbox/info), the "Sandbox"
// badge, and the "simulate" menu, which arms a fault for the next call through the
// x-sandbox-fault and x-sandbox-tag headers, then reports what the sandbox's request log saw.
import { $, show } from "../lib/dom.js";

/** What the "simulate" menu sends in `x-sandbox-fault` (sandbox only). */
const SIMULATIONS = {
  timeout: { label: "timeout", fault: "delay=5000", client: { timeoutMs: 2000, maxRetries: 1 } },
  "rate-limit": { label: "429 then success", fault: "status=429;retry-after=1;fail-first=1" },
  auth: { label: "auth failure", fault: "status=401" },
  "server-error": { label: "server error", fault: "status=503;body=html" },
  // The sandbox applies the change, then resets the connection: an action's outcome is unknown.
  "drop-after": { label: "answer lost after applying", fault: "drop-after" },
};

/** How long to wait for the sandbox to log every attempt of a simulated call. The sandbox logs
 *  a request when it answers it, or when it notices the client went away (a timed-out
 *  `delay=` attempt can be logged a few seconds after the client gave up on it). */
const SANDBOX_LOG_WAIT_MS = 8000;
const SANDBOX_LOG_POLL_MS = 200;

/** Needs no context: it is one of the services the context is built from (lib/context.js). */
export function initSandbox() {
  const el = {
    badge: $("sandbox-badge"),
    bar: $("simulate-bar"),
    simulate: $("simulate"),
    hint: $("simulate-hint"),
  };
  let info = null; // the /__sandbox/info answer, when the base URL is the sandbox

  function updateHint() {
    const sim = SIMULATIONS[el.simulate.value];
    el.bar.classList.toggle("armed", !!sim);
    el.hint.textContent = sim
      ? `Armed: the next call (refresh the profile, load a page, look up a coin…) gets “${sim.label}”.`
      : "Sandbox only: sets the x-sandbox-fault header on the next call the dashboard makes.";
  }
  el.simulate.addEventListener("change", updateHint);

  /** GET /__sandbox/info at `baseUrl`: its answer, or null when that is not the sandbox. */
  async function probe(baseUrl) {
    try {
      const ctrl = new AbortController();
      const t = setTimeout(() => ctrl.abort(), 3000);
      const res = await fetch(new URL("/__sandbox/info", baseUrl), { signal: ctrl.signal, cache: "no-store" });
      clearTimeout(t);
      if (!res.ok || !(res.headers.get("content-type") || "").includes("json")) return null;
      const body = await res.json();
      return body && typeof body === "object" && body.keys && typeof body.keys === "object" ? body : null;
    } catch { return null; }
  }

  /** Show (or hide) the sandbox badge and the simulate menu for `next` (a probe's answer). */
  function apply(next) {
    info = next;
    show(el.badge, !!info);
    show(el.bar, !!info);
    if (!info) { el.simulate.value = ""; return; }
    updateHint();
  }

  /** Take (and disarm) the simulation chosen in the menu, if any. */
  function take() {
    if (!info || !el.simulate.value) return null;
    const sim = { ...SIMULATIONS[el.simulate.value], tag: `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}` };
    el.simulate.value = "";
    updateHint();
    return sim;
  }

  /** What the sandbox itself saw for a simulated call (its request log, by tag), as a note on
   *  the call's activity entry: polled until it holds as many requests as the client made
   *  attempts, or until SANDBOX_LOG_WAIT_MS. */
  async function report(sim, entry, baseUrl) {
    const url = new URL("/__sandbox/requests", baseUrl);
    url.searchParams.set("tag", sim.tag);
    const expected = entry.attempts();
    const deadline = performance.now() + SANDBOX_LOG_WAIT_MS;
    let list = null;
    for (;;) {
      try {
        const res = await fetch(url, { cache: "no-store" });
        if (res.ok) {
          const body = await res.json();
          list = Array.isArray(body) ? body : null;
        }
      } catch { /* retried below until the deadline */ }
      if ((list && list.length >= expected) || performance.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, SANDBOX_LOG_POLL_MS));
    }
    if (!list) return; // the log is a nicety: no note when it cannot be read
    const statuses = list.map((r) => r?.status).filter((s) => s !== undefined);
    const missing = list.length < expected ? ` (${expected - list.length} of the client's ${expected} not logged yet)` : "";
    entry.note(`Sandbox request log (tag ${sim.tag}): ${list.length} request${list.length === 1 ? "" : "s"}${statuses.length ? ` → ${statuses.join(", ")}` : ""}${missing}.`);
  }

  return {
    /** The /__sandbox/info answer, or null when the base URL is not the sandbox. */
    get info() { return info; },
    probe, apply, take, report,
  };
}
