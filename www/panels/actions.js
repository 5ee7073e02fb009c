// Order actions: the buttons an order's status allows (an "Actions" column of the orders
// table), each behind a confirmation that names the order and its amount. An action is sent
// once (the package never retries a mutation); when its answer is lost (`outcome_unknown`) the
// panel says so, reads the order back with `reconcile()` and shows the state it is really in,
// then reloads the page of orders. Every call, reconcile included, is in the activity log.
import { $, h, show } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { describe, renderError } from "../lib/errors.js";

/** The actions, with the order type and statuses each applies to (the service's lifecycle). */
const ACTIONS = [
  { op: "acceptWithdrawal", label: "Accept", verb: "Accept withdrawal", type: "withdrawal", from: ["pending"] },
  { op: "markWithdrawalAsPaid", label: "Paid", verb: "Mark withdrawal as paid", type: "withdrawal", from: ["picked_up"], paid: true },
  { op: "cancelWithdrawal", label: "Cancel", verb: "Cancel withdrawal", type: "withdrawal", from: ["pending", "picked_up"], danger: true },
  { op: "markDepositAsReceived", label: "Received", verb: "Mark deposit as received", type: "deposit", from: ["pending", "picked_up", "paid"] },
];

/** The order and its amount, as the confirmation and the status line name them. */
function describeOrder(row) {
  const local = row.amountLocal == null ? null : row.currency ? f.money(row.amountLocal, row.currency) : f.decimal(row.amountLocal, 2);
  const usd = row.amountUsd == null ? null : f.money(row.amountUsd);
  const amount = local && usd ? `${local} (${usd})` : local || usd || "an unknown amount";
  return { name: row.orderId || row.id, amount };
}

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {{ reload: () => Promise<unknown> }} hooks  reloads the page of orders shown
 * @returns {{ rowActions: (row: object) => Node[] | null }}
 */
export function initActions(ctx, { reload }) {
  const el = {
    status: $("action-status"),
    dialog: $("action-dialog"),
    form: $("action-form"),
    title: $("action-dialog-title"),
    text: $("action-dialog-text"),
    paid: $("action-paid-fields"),
    method: $("action-payment-method"),
    receipt: $("action-receipt"),
    error: $("action-dialog-error"),
    dismiss: $("action-dismiss"),
    confirm: $("action-confirm"),
  };
  ctx.fields({ paymentMethod: el.method, receipt: el.receipt });
  let pending = null; // { action, row } while the dialog is open
  let busy = false;

  el.dismiss.addEventListener("click", () => el.dialog.close());
  el.dialog.addEventListener("close", () => { if (!busy) pending = null; });
  el.form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (pending && !busy) run(pending.action, pending.row);
  });

  function status(text, state) {
    el.status.textContent = text;
    el.status.dataset.state = state;
    show(el.status, true);
  }

  /** Open the confirmation of `action` on `row`. */
  function ask(action, row) {
    if (!ctx.connected || busy) return;
    const o = describeOrder(row);
    pending = { action, row };
    el.title.textContent = `${action.verb}?`;
    el.text.textContent = `${action.verb} ${o.name} for ${o.amount}. It is sent once.`;
    show(el.paid, !!action.paid);
    renderError(el.error, null);
    ctx.markInvalid(null);
    el.confirm.textContent = action.label;
    el.confirm.className = `btn ${action.danger ? "btn-danger" : "btn-primary"}`;
    el.dialog.showModal();
    (action.paid ? el.method : el.confirm).focus();
  }

  /** Send the action once; on `outcome_unknown`, reconcile. */
  async function run(action, row) {
    const o = describeOrder(row);
    busy = true;
    el.confirm.disabled = true;
    try {
      await ctx.call(action.op, (c) => (action.paid
        ? c.markWithdrawalAsPaid({ p2pPayment: row.id, paymentMethod: el.method.value.trim(), receipt: el.receipt.value.trim() || undefined })
        : c[action.op](row.id)));
      el.dialog.close();
      status(`${action.verb} ${o.name}: done.`, "ok");
    } catch (err) {
      const d = describe(err);
      if (d.code === "invalid_input") {
        // Nothing was sent: keep the dialog open on the field at fault.
        renderError(el.error, err);
        ctx.markInvalid(err);
        return;
      }
      el.dialog.close();
      if (d.code === "outcome_unknown") {
        status(`${action.verb} ${o.name}: outcome unknown (${d.message}) — reading the order back…`, "unknown");
        await reconcile(action, row, o);
      } else {
        const why = d.graphqlErrors[0]?.extensions?.code;
        status(`${action.verb} ${o.name} was refused: ${d.code}${why ? ` (${why})` : ""}: ${d.message}`, "error");
      }
    } finally {
      busy = false;
      el.confirm.disabled = false;
      if (!el.dialog.open) pending = null;
    }
    await reload();
  }

  async function reconcile(action, row, o) {
    try {
      const now = await ctx.call("reconcile", (c) => c.reconcile(row));
      const was = f.label(row.status);
      status(now
        ? `${action.verb} ${o.name}: the outcome was unknown; reconciled: the order is now ${f.label(now.status)} (it was ${was}).`
        : `${action.verb} ${o.name}: the outcome was unknown; reconciled: the order is no longer in your history.`,
      "reconciled");
      el.status.dataset.reconciled = now ? String(now.status) : "";
    } catch (err) {
      const d = describe(err);
      status(`${action.verb} ${o.name}: the outcome is unknown and the order could not be read back (${d.code}: ${d.message}). Check it before trying again.`, "unknown");
    }
  }

  return {
    /** The buttons `row`'s status allows (none for final states). */
    rowActions(row) {
      const allowed = ACTIONS.filter((a) => a.type === row.paymentType && a.from.includes(row.status));
      if (!allowed.length || !row.id) return null;
      return allowed.map((a) => h("button", {
        type: "button",
        class: `btn btn-small${a.danger ? " btn-danger" : ""}`,
        dataset: { testid: `action-${a.op}` },
        "aria-label": `${a.verb} ${row.orderId || row.id}`,
        onclick: () => ask(a, row),
      }, a.label));
    },
  };
}
