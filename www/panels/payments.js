// Payments panel (the demo server's, secret key there): creates a hosted payment through the
// demo server (POST /api/payments: the merchant's secret key never reaches the page) and shows
// its status as the service's webhooks move it. The demo server receives each delivery with the
// package's createWebhookHandler, reads the payment back with merchant.confirmEvent and relays
// both to this page by Server-Sent Events (GET /api/events); the panel shows the status the
// read-back confirmed, each step with the webhook's status beside it. The sandbox carries a
// hosted payment by an order in the agent's queue, so the agent of this same dashboard moves it.
// Available only when the page is served by the demo server (its responses carry the header
// `x-settlement-demo: payments`); served by the sandbox alone, the panel says why it is off.
import { $, h, show } from "../lib/dom.js";
import * as f from "../lib/format.js";

/** The statuses of a hosted payment, in order (the service's lifecycle). */
const STATUSES = ["created", "picked_up", "completed", "canceled"];
/** The most webhook deliveries listed. */
const MAX_DELIVERIES = 50;

export function initPayments() {
  const el = {
    panel: $("payments-panel"),
    stream: $("payments-stream"),
    unavailable: $("payments-unavailable"),
    form: $("payments-form"),
    fieldset: document.getElementById("payments-fieldset"),
    amount: $("payments-amount"),
    type: $("payments-type"),
    create: $("payments-create"),
    error: $("payments-error"),
    list: $("payments-list"),
    empty: $("payments-empty"),
    deliveries: $("payments-deliveries"),
    deliveriesEmpty: $("payments-deliveries-empty"),
  };
  /** The payments shown, by reference: their row's parts. */
  const shown = new Map();
  /** Deliveries about a reference not shown yet (a webhook can beat the creation's answer). */
  const early = new Map();
  /** The most references kept in `early`. */
  const MAX_EARLY = 100;
  let source = null;

  el.form.addEventListener("submit", (e) => { e.preventDefault(); void create(); });

  function streamState(state, text) {
    el.stream.dataset.state = state;
    el.stream.textContent = text;
  }

  function showError(message) {
    el.error.textContent = message || "";
    show(el.error, !!message);
  }

  /** POST /api/payments: the demo server creates it with the secret key; the page gets its id, reference, status and amount. */
  async function create() {
    showError(null);
    el.create.disabled = true;
    try {
      const res = await fetch("/api/payments", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ amount: el.amount.value.trim(), paymentType: el.type.value }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        showError(`The payment was not created: ${body.code || `HTTP ${res.status}`}${body.message ? `: ${body.message}` : ""}`);
        return;
      }
      add(body);
    } catch {
      showError("The demo server could not be reached.");
    } finally {
      el.create.disabled = false;
    }
  }

  /** A payment's row, newest first. */
  function add(p) {
    const status = h("span", { class: "payment-status", dataset: { testid: "payment-status", state: p.status } }, f.label(p.status));
    const steps = h("ol", { class: "payment-steps", dataset: { testid: "payment-steps" } },
      h("li", { class: "payment-step", dataset: { testid: "payment-step", status: p.status, source: "created" } },
        `${f.label(p.status)} · created by the demo server ${f.clock()}`));
    const row = h("li", { class: "event", dataset: { testid: "payment", reference: p.reference, id: p.id, status: p.status } },
      h("div", { class: "event-head" },
        h("strong", { dataset: { testid: "payment-amount" } }, `${f.money(p.amount, p.currency || "USD")} · ${f.label(p.paymentType)}`),
        status),
      h("div", { class: "muted" }, "reference ", h("code", { dataset: { testid: "payment-reference" } }, p.reference),
        " · its order is in the incoming-orders queue under this reference"),
      steps);
    shown.set(p.reference, { row, status, steps });
    el.list.prepend(row);
    show(el.empty, false);
    for (const d of early.get(p.reference) || []) applyTo(shown.get(p.reference), d);
    early.delete(p.reference);
  }

  /** What the demo server's read-back (confirmEvent) of delivery `d` said. */
  function describeReadBack(d) {
    if (d.error) return `read-back failed (${d.error.code})`;
    if (!d.confirmed) return "no read-back for this type";
    return d.confirmed.found ? `read back: ${f.label(d.confirmed.status)}` : "read back: not found";
  }

  /** One relayed delivery: listed, and applied to its payment when the panel shows it. */
  function delivered(d) {
    const readBack = describeReadBack(d);
    el.deliveries.prepend(h("li", { dataset: { testid: "payments-delivery", type: d.type, status: d.status ?? "" } },
      `${f.clock()} · ${d.type} · ${d.id ?? "—"} · ${d.status ?? "—"} · ${readBack}`));
    while (el.deliveries.children.length > MAX_DELIVERIES) el.deliveries.lastElementChild.remove();
    show(el.deliveriesEmpty, false);

    if (d.type !== "payment_request.updated" || !d.reference) return;
    const p = shown.get(d.reference);
    if (p) applyTo(p, d);
    else {
      if (!early.has(d.reference) && early.size >= MAX_EARLY) early.delete(early.keys().next().value);
      early.set(d.reference, [...(early.get(d.reference) || []), d]);
    }
  }

  /** A relayed `payment_request.updated` delivery `d` on the payment row `p`: a step, and the confirmed status. */
  function applyTo(p, d) {
    const confirmed = d.confirmed && d.confirmed.found ? d.confirmed.status : null;
    const readBack = describeReadBack(d);
    p.steps.append(h("li", {
      class: "payment-step",
      dataset: { testid: "payment-step", status: d.status ?? "", source: "webhook", confirmed: String(confirmed !== null && confirmed === d.status) },
    }, `${f.label(d.status)} · by webhook ${f.clock()} · ${readBack}`));
    // The status shown is the API's (the read-back), never the webhook's alone.
    if (confirmed && STATUSES.includes(confirmed)) {
      p.status.textContent = f.label(confirmed);
      p.status.dataset.state = confirmed;
      p.row.dataset.status = confirmed;
    }
  }

  /** Subscribes to the demo server's relay. */
  function listen() {
    source = new EventSource("/api/events");
    streamState("connecting", "Connecting…");
    source.addEventListener("ready", (e) => {
      let payments = false;
      try { payments = JSON.parse(e.data).payments === true; } catch { /* not the demo server's */ }
      streamState("live", "Live");
      el.fieldset.disabled = !payments;
      if (!payments) showError("The demo server has no merchant secret key: payments cannot be created.");
    });
    source.addEventListener("webhook", (e) => {
      try { delivered(JSON.parse(e.data)); } catch { /* a malformed frame is skipped */ }
    });
    // EventSource reconnects by itself; the badge says so meanwhile.
    source.addEventListener("error", () => streamState("reconnecting", "Reconnecting…"));
  }

  return {
    /** Turns the panel on when the page is served by the demo server; says why not otherwise. */
    async start() {
      let demo = false;
      try {
        const res = await fetch(location.href, { method: "HEAD", cache: "no-store" });
        demo = res.headers.get("x-settlement-demo") === "payments";
      } catch { /* not reachable: off */ }
      el.panel.dataset.available = String(demo);
      show(el.unavailable, !demo);
      if (demo) listen();
      else { el.fieldset.disabled = true; streamState("off", "Off"); }
    },
  };
}
