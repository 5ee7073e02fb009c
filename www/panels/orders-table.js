// The order-history table's rendering: one <tr> per P2PPayment row, the placeholder rows
// (loading, empty), and an optional actions column. No state and no calls: panels/orders.js
// decides what to show. The <thead> in index.html lists the same columns as CELLS.
import { h } from "../lib/dom.js";
import * as f from "../lib/format.js";

const KNOWN_STATUSES = ["pending", "picked_up", "paid", "completed", "canceled"];

/** One <td> per column, in the <thead>'s order. */
const CELLS = [
  (r) => h("td", { "data-label": "Created", title: r.createdAt || "" }, f.when(r.createdAt)),
  (r) => h("td", { "data-label": "Order", class: "mono" }, r.orderId || r.id || "—"),
  (r) => h("td", { "data-label": "Type", class: `type t-${r.paymentType}` }, typeLabel(r.paymentType)),
  (r) => h("td", { "data-label": "Status" }, statusBadge(r.status)),
  (r) => h("td", { "data-label": "Method", dataset: { testid: "order-method" } }, r.paymentMethod ? String(r.paymentMethod).replace(/_/g, " ") : "—"),
  (r) => h("td", { "data-label": "Amount", class: "num" }, localAmount(r)),
  (r) => h("td", { "data-label": "USD", class: "num" }, f.money(r.amountUsd)),
  (r) => h("td", { "data-label": "Rate", class: "num" }, f.decimal(r.exchangeRate, 2)),
];

function typeLabel(t) {
  return t === "deposit" ? "↓ Deposit" : t === "withdrawal" ? "↑ Withdrawal" : f.label(t);
}

function localAmount(r) {
  return r.amountLocal == null ? "—" : r.currency ? f.money(r.amountLocal, r.currency) : f.decimal(r.amountLocal, 2);
}

export function statusBadge(st) {
  // One source spells it "cancelled": shown as "canceled" is.
  const look = st === "cancelled" ? "canceled" : st;
  const known = KNOWN_STATUSES.includes(look);
  return h("span", { class: `status s-${known ? look : "other"}`, dataset: { testid: "order-status", status: st ?? "" } }, f.label(st));
}

/**
 * The table body's renderer.
 * @param {HTMLTableSectionElement} body  the <tbody>
 * @param {{ actions?: (row: object) => Node | Node[] | null }} [options]
 *   `actions` adds a last "Actions" column (its header included) holding what it returns for
 *   each row — the place for per-order buttons.
 */
export function createOrdersTable(body, { actions } = {}) {
  const columns = CELLS.length + (actions ? 1 : 0);
  if (actions) body.closest("table").tHead.rows[0].append(h("th", { scope: "col" }, "Actions"));

  function row(r) {
    return h("tr", { dataset: { testid: "order-row", id: r.id ?? "" } },
      CELLS.map((cell) => cell(r)),
      actions ? h("td", { "data-label": "Actions", class: "actions" }, actions(r)) : null);
  }

  return {
    /** Show `rows` (at least one). */
    rows(rows) { body.replaceChildren(...rows.map(row)); },
    /** One full-width row of text; `kind` "empty" or "loading". */
    placeholder(text, kind) {
      body.replaceChildren(h("tr", { class: `placeholder-row ${kind}` },
        h("td", { colspan: columns, dataset: { testid: kind === "empty" ? "orders-empty" : "orders-placeholder" } }, text)));
    },
  };
}
