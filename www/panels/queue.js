// Incoming orders: the agent's pending orders, live, through the package's `watchOrders()`.
// New ones are highlighted for a while, each row has its actions and the time left before its
// `expiresAt`, the tab title shows the pending count, a badge shows the watch's status (live,
// paused while the tab is hidden, retrying with its countdown) and every poll is an entry of
// the activity log. The package does the polling (one request at a time, backoff, the pause
// while hidden); this panel only renders what each update says.
import { $, h, show } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { describe } from "../lib/errors.js";

/** The demo polls every 5 s (the package's default is 10 s), the 10 newest pending orders. */
const INTERVAL_MS = 5000;
/** How long a new order stays highlighted. */
const NEW_FOR_MS = 30_000;
const FIELDS = ["id", "orderId", "status", "paymentType", "expiresAt", "createdAt"];
/** The sandbox's own fields the queue shows where the service has them (see ctx.orderFields). */
const EXTRAS = ["amountLocal", "amountUsd", "currency"];

/** "12:34 left", "expired", "1 h 5 min left" for an ISO date-time. */
function timeLeft(iso, now = Date.now()) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return { text: "—", expired: false };
  const s = Math.round((at - now) / 1000);
  if (s <= 0) return { text: "expired", expired: true };
  const hours = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(hours ? 2 : 1, "0");
  const ss = String(s % 60).padStart(2, "0");
  return { text: `${hours ? `${hours}:` : ""}${mm}:${ss} left`, expired: false };
}

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {{ activity: object, rowActions: (row: object) => Node[] | null }} deps  the activity
 *   log (each poll is an entry) and the order actions (panels/actions.js)
 */
export function initQueue(ctx, { activity, rowActions }) {
  const el = {
    badge: $("queue-status"),
    list: $("queue-list"),
    empty: $("queue-empty"),
    count: $("queue-count"),
    error: $("queue-error"),
  };
  const baseTitle = document.title;
  let watch = null;
  let client = null;
  let rows = [];
  const fresh = new Map(); // id -> when it arrived
  let ticker = null;

  /** Makes each poll of `c`'s watch an activity entry (status, duration, request id), from its events. */
  function tracePolls(c) {
    let entry = null;
    let close = null; // the poll's open attempt
    let note = "";
    const poll = (e) => e.source === "watchOrders";
    c.on("request", (e) => {
      if (!poll(e)) return;
      entry = activity.add("watchOrders · poll");
      close = entry.attempt();
      note = "";
    });
    c.on("response", (e) => {
      if (!poll(e) || !close) return;
      close(e.status, e.requestId ? `· request id ${e.requestId}` : "", e.durationMs);
      close = null;
      note = e.status >= 200 && e.status < 300 ? "" : `HTTP ${e.status}`;
    });
    c.on("done", (e) => {
      if (!poll(e) || !entry) return;
      if (close) { close("no answer"); close = null; note = "no answer"; }
      entry.done(null, note);
      entry = null;
    });
  }

  function renderStatus(status) {
    const state = status.state;
    let text = { polling: "Live", paused: "Paused (tab hidden)", retrying: "Retrying", stopped: "Stopped" }[state] || state;
    if (state === "retrying" && status.nextPollInMs !== undefined) text = `Retrying in ${Math.ceil(status.nextPollInMs / 1000)} s`;
    if (state === "stopped" && status.error) text = `Stopped: ${status.error.code}`;
    el.badge.textContent = text;
    el.badge.dataset.state = state;
    el.badge.title = status.error ? describe(status.error).message : "";
  }

  function renderRows() {
    const now = Date.now();
    el.list.replaceChildren(...rows.map((row) => {
      const left = timeLeft(row.expiresAt, now);
      const isNew = fresh.has(row.id) && now - fresh.get(row.id) < NEW_FOR_MS;
      const amount = row.amountLocal == null ? "—" : row.currency ? f.money(row.amountLocal, row.currency) : f.decimal(row.amountLocal, 2);
      return h("li", { class: `queue-row${isNew ? " queue-new" : ""}`, dataset: { testid: "queue-row", id: row.id, new: String(isNew) } },
        h("div", { class: "queue-main" },
          h("span", { class: "queue-type", dataset: { type: row.paymentType } }, f.label(row.paymentType)),
          h("span", { class: "queue-order" }, row.orderId || row.id),
          isNew ? h("span", { class: "badge badge-soft", dataset: { testid: "queue-new" } }, "new") : null),
        h("div", { class: "queue-amount" }, amount, h("span", { class: "muted" }, ` · ${f.money(row.amountUsd)}`)),
        h("div", { class: `queue-left${left.expired ? " muted" : ""}`, dataset: { testid: "queue-left" } }, left.text),
        h("div", { class: "queue-actions" }, rowActions(row)));
    }));
    show(el.empty, rows.length === 0);
  }

  function renderCount(total) {
    el.count.textContent = total === 1 ? "1 pending" : `${f.integer(total)} pending`;
    document.title = total > 0 ? `(${total}) ${baseTitle}` : baseTitle;
  }

  function stop() {
    if (watch) watch.stop();
    watch = null;
    if (client) { try { client.free(); } catch { /* already freed */ } }
    client = null;
    clearInterval(ticker);
    ticker = null;
  }

  /** Starts (or restarts: the first poll goes at once) the watch of the pending orders. */
  async function start() {
    // The sandbox's amounts and currency only where the service has them (asked before the
    // previous watch stops, so two quick starts leave one watch).
    const extras = (await ctx.orderFields()).includes("amountUsd") ? EXTRAS : [];
    stop();
    show(el.error, false);
    // Through the server proxy: its endpoint and no key (the server adds it).
    const where = ctx.conn.endpoint
      ? { endpoint: ctx.conn.endpoint }
      : { baseUrl: ctx.conn.baseUrl, apiKey: ctx.conn.apiKey || undefined };
    client = new ctx.mod.BotClient({ ...where });
    tracePolls(client);
    const w = client.watchOrders({ filter: { status: "pending" }, perPage: 10, fields: [...FIELDS, ...extras], intervalMs: INTERVAL_MS });
    watch = w;
    w.onStatusChange(renderStatus);
    renderStatus(w.status);
    // Once a second: the time left and the retry countdown.
    ticker = setInterval(() => { renderRows(); if (watch === w) renderStatus(w.status); }, 1000);
    let first = true;
    try {
      for await (const update of w) {
        if (!first) for (const row of update.added) fresh.set(row.id, Date.now());
        first = false;
        rows = update.rows;
        renderRows();
        renderCount(update.total);
      }
    } catch (err) {
      if (watch !== w) return;
      el.error.textContent = `The live queue stopped: ${describe(err).code}: ${describe(err).message}`;
      show(el.error, true);
    }
    if (watch === w) renderStatus(w.status);
  }

  return {
    /** The connection is set: watch its pending orders. */
    connected() { void start(); },
    /** Poll at once (after an action changed an order). */
    refresh() { if (watch) void start(); },
  };
}
