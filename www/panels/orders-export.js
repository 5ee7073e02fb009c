// "Export all as CSV" of the order-history panel: walks the client's orders() async iterator
// with the applied filters, shows progress, and can be cancelled (button or Esc) through an
// AbortSignal; a cancelled or failed export saves nothing.
import { $, show, perFrame } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { isAbort, renderError } from "../lib/errors.js";
import { toCsv, download } from "../lib/csv.js";

/** CSV column order (any other field the service returns follows these). The client's
 *  default P2PPayment selection brings all of them. */
const CSV_COLUMNS = ["id", "orderId", "createdAt", "status", "paymentType", "paymentMethod", "amountLocal",
  "currency", "amountUsd", "exchangeRate", "exchangeRateMinusSurcharge", "agentCutOfFees", "fxSpreadRevenue",
  "source", "instant", "expiresAt", "reassigning", "reassignAfter"];

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {object} orders  what the export needs from the orders panel:
 * @param {() => { filter: object, total: number|null }} orders.applied  the filters of the rows shown, and their total
 * @param {(rows: object[]) => void} orders.seen  rows the export read (for the payment-method suggestions)
 * @param {HTMLElement} orders.errorBox  the panel's error box
 * @param {() => void} orders.changed  the export started or ended (the pager's buttons depend on it)
 */
export function initExport(ctx, { applied, seen, errorBox, changed }) {
  const el = {
    button: $("export-csv"),
    box: $("export-progress"),
    bar: $("export-progress-bar"),
    text: $("export-progress-text"),
    cancel: $("export-cancel"),
  };
  let ctrl = null;
  el.button.addEventListener("click", () => run());
  el.cancel.addEventListener("click", () => { if (ctrl) ctrl.abort(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && ctrl) ctrl.abort();
  });

  async function run() {
    if (ctrl) return;
    const mine = new AbortController();
    ctrl = mine;
    const { filter: shown, total: expected } = applied();
    const filter = { ...shown };
    const rows = [];
    changed();
    show(el.box, true);
    el.box.dataset.state = "running";
    el.cancel.disabled = false;
    el.cancel.focus();
    if (expected) { el.bar.max = expected; el.bar.value = 0; } else el.bar.removeAttribute("value");
    let finished = false;
    const progress = perFrame((n) => {
      if (finished) return;
      el.bar.value = n;
      el.text.textContent = `Exported ${f.integer(n)}${expected ? ` of ${f.integer(expected)}` : ""} orders…`;
    });
    el.text.textContent = "Starting export…";
    renderError(errorBox, null);
    const perPage = Math.min(100, Number(ctx.sandbox.info?.maxPerPage) || 100);
    try {
      const fields = await ctx.orderFields();
      await ctx.call("orders (CSV export)", async (c) => {
        const iter = c.orders({ perPage, filter, fields, signal: mine.signal });
        for await (const row of iter) {
          rows.push(row);
          progress(rows.length);
          if (mine.signal.aborted) break;
        }
        // Cancelled between rows (the client only sees the signal when it sends): an abort
        // like the client's own, so the activity entry says "aborted", not "ok".
        if (mine.signal.aborted) {
          throw new ctx.mod.SettlementError(`Export cancelled after ${rows.length} rows.`, { code: "aborted" });
        }
        return { __note: `${rows.length} rows` };
      });
      finished = true;
      seen(rows);
      const name = fileName(filter);
      download(toCsv(rows, CSV_COLUMNS), name);
      el.bar.max = Math.max(1, rows.length);
      el.bar.value = rows.length;
      el.text.textContent = `Exported ${f.integer(rows.length)} orders to ${name}.`;
      el.box.dataset.state = "done";
      el.box.dataset.rows = String(rows.length);
    } catch (err) {
      if (isAbort(err)) {
        el.text.textContent = `Export cancelled after ${f.integer(rows.length)} orders; nothing was saved.`;
        el.box.dataset.state = "cancelled";
      } else {
        renderError(errorBox, err);
        el.text.textContent = `Export failed after ${f.integer(rows.length)} orders; nothing was saved.`;
        el.box.dataset.state = "failed";
      }
    } finally {
      finished = true;
      ctrl = null;
      const hadFocus = document.activeElement === el.cancel;
      el.cancel.disabled = true;
      changed();
      if (hadFocus) el.button.focus();
    }
  }

  return {
    /** Enable the button when connected, no export runs and the applied filters match rows. */
    update(total) { el.button.disabled = !ctx.connected || !!ctrl || total === 0; },
  };
}

/** settlement-orders[-<filters>]-<UTC stamp>.csv */
function fileName(filter) {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  const tag = [filter.status, filter.paymentMethod, filter.dateFrom, filter.dateTo].filter(Boolean).join("_").replace(/[^\w.-]+/g, "-");
  return `settlement-orders${tag ? `-${tag}` : ""}-${stamp}.csv`;
}
