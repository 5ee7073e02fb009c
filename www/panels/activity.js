// Activity panel: every call the dashboard makes, newest first, with each HTTP attempt
// (status, Retry-After, duration), so retries are visible. Attempts are recorded by a fetch
// wrapper handed to the client as its `fetch` option; it never records headers.
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
        return (status, extraText) => {
          const ok = typeof status === "number" && status >= 200 && status < 300;
          item.className = `attempt ${ok ? "ok" : "bad"}`;
          item.dataset.status = String(status);
          item.textContent = `#${num} ${typeof status === "number" ? `HTTP ${status}` : status}${extraText ? ` ${extraText}` : ""} · ${f.duration(performance.now() - t0)}`;
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
      /** HTTP attempts made so far. */
      attempts() { return n; },
    };
  }

  /** A fetch that records every attempt (status, Retry-After, duration) in `entry`.
   *  It never records headers, so the Authorization header cannot leak into the page. */
  function tracingFetch(entry) {
    return async (input, init) => {
      const done = entry.attempt();
      try {
        const res = await fetch(input, init);
        const ra = res.headers.get("retry-after");
        done(res.status, ra ? `(Retry-After: ${ra})` : "");
        return res;
      } catch (e) {
        done(e && e.name === "AbortError" ? "aborted / timed out" : "network error");
        throw e;
      }
    };
  }

  return { add, tracingFetch };
}
