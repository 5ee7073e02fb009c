// Activity panel: every call the dashboard makes, newest first, with each HTTP attempt
// (status, duration, the retry's delay and reason, the service's request id), so retries are
// visible. Attempts are recorded from the client's own events (`client.on(...)`), which never
// carry a key; no fetch is wrapped.
import { $, h, show } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { describe, isAbort } from "../lib/errors.js";

const MAX_ENTRIES = 40;

/** Needs no context: it is one of the services the context is built from (lib/context.js). */
export function initActivity() {
  const el = {
    log: $("activity-log"),
    empty: $("activity-empty"),
    clear: $("activity-clear"),
  };
  el.clear.addEventListener("click", () => { el.log.replaceChildren(); show(el.empty, true); });

  /** A new entry for the call `op` (with the armed simulation `sim`, if any). */
  function add(op, sim) {
    const started = performance.now();
    const attempts = h("ol", { class: "attempts", dataset: { testid: "activity-attempts" } });
    const outcome = h("span", { class: "outcome pending", dataset: { testid: "activity-outcome" } }, "running…");
    const meta = h("span", { class: "muted activity-meta" }, f.clock());
    const extra = h("div", { class: "activity-extra" });
    const li = h("li", { class: "activity-entry", dataset: { testid: "activity-entry", op, outcome: "running", attempts: "0" } },
      h("div", { class: "activity-line" },
        h("span", { class: "op" }, op),
        sim ? h("span", { class: "badge badge-warn", dataset: { testid: "activity-simulated" } }, `simulated: ${sim.label}`) : null,
        outcome, meta),
      attempts, extra);
    el.log.prepend(li);
    while (el.log.children.length > MAX_ENTRIES) el.log.lastElementChild.remove();
    show(el.empty, false);
    let n = 0;
    return {
      /** One HTTP attempt; returns a function to call with its result. */
      attempt() {
        n += 1;
        li.dataset.attempts = String(n);
        const t0 = performance.now();
        const item = h("li", { class: "attempt pending", dataset: { testid: "activity-attempt" } }, `#${n} …`);
        const num = n;
        attempts.append(item);
        return (status, extraText, ms) => {
          const ok = typeof status === "number" && status >= 200 && status < 300;
          item.className = `attempt ${ok ? "ok" : "bad"}`;
          item.dataset.status = String(status);
          const took = typeof ms === "number" ? ms : performance.now() - t0;
          item.textContent = `#${num} ${typeof status === "number" ? `HTTP ${status}` : status}${extraText ? ` ${extraText}` : ""} · ${f.duration(took)}`;
        };
      },
      done(err, note) {
        const ms = performance.now() - started;
        if (!err) {
          li.dataset.outcome = "ok";
          outcome.className = "outcome ok";
          outcome.textContent = `ok${note ? ` · ${note}` : ""}`;
        } else {
          const d = describe(err);
          li.dataset.outcome = isAbort(err) ? "aborted" : "error";
          li.dataset.code = d.code;
          outcome.className = `outcome ${isAbort(err) ? "muted" : "bad"}`;
          outcome.textContent = `${d.code}: ${d.message}`;
        }
        meta.textContent = `${f.clock()} · ${n} attempt${n === 1 ? "" : "s"} · ${f.duration(ms)}`;
      },
      note(text) { extra.append(h("p", { class: "muted", dataset: { testid: "activity-note" } }, text)); },
      /** A retry the client decided (its delay and reason), under the attempt that failed. */
      retry(text) { attempts.lastElementChild?.append(h("span", { class: "muted", dataset: { testid: "activity-retry" } }, ` → ${text}`)); },
      /** HTTP attempts made so far. */
      attempts() { return n; },
    };
  }

  /**
   * Records in `entry` every attempt of the calls `client` makes (of `source` only, when given),
   * from its events: `request` opens an attempt, `response` closes it with its status, duration
   * and request id, `retry` closes one that got no answer and notes the delay and reason, and
   * `error` closes one that got none. Returns a function that stops listening.
   */
  function trace(entry, client, source) {
    let pending = null; // the open attempt's closer
    const mine = (e) => source === undefined || e.source === source;
    const close = (...args) => { if (pending) { pending(...args); pending = null; } };
    const listeners = {
      request: (e) => { if (mine(e)) { close("no answer"); pending = entry.attempt(); } },
      response: (e) => {
        if (!mine(e)) return;
        const ra = e.headers["retry-after"];
        const extra = [ra ? `(Retry-After: ${ra})` : "", e.requestId ? `· request id ${e.requestId}` : ""].filter(Boolean).join(" ");
        close(e.status, extra, e.durationMs);
      },
      retry: (e) => {
        if (!mine(e)) return;
        close(e.reason === "timeout" ? "aborted / timed out" : "network error");
        entry.retry(`retry in ${f.duration(e.delayMs)} (${e.reason}${e.status ? ` ${e.status}` : ""})`);
      },
      error: (e) => { if (mine(e)) close(e.error.code === "aborted" || e.error.code === "timeout" ? "aborted / timed out" : "network error"); },
    };
    for (const [type, listener] of Object.entries(listeners)) client.on(type, listener);
    return () => { for (const [type, listener] of Object.entries(listeners)) client.off(type, listener); };
  }

  return { add, trace };
}
