// Onchain-ramp panel (merchant public key): builds a ramp link with the package's
// onchainRampUrl, opens the hosted ramp page in a frame, and lists the crypto.requested events
// it posts (listenForRampEvents, origin-checked by the package). Each event can then be paid
// with the sandbox's simulated transfer (standing in for the app's wallet) and confirmed with
// the package's confirmUntilSettled (public key) until the service reports it settled.
// classifyKey flags a secret (SECK_) key typed into the key field. Usable once the package has
// loaded (`ready()`).
import { $, h, show } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { renderError, setSecrets, redact } from "../lib/errors.js";

/** @param {import("../lib/context.js").Context} ctx */
export function initRamp(ctx) {
  const el = {
    panel: $("ramp-panel"),
    unavailable: $("ramp-unavailable"),
    form: $("ramp-form"),
    fieldset: document.getElementById("ramp-fieldset"),
    page: $("ramp-page-url"),
    key: $("ramp-public-key"),
    keyHint: document.getElementById("r-key-hint"),
    type: $("ramp-payment-type"),
    coin: $("ramp-coin"),
    network: $("ramp-network"),
    amount: $("ramp-amount"),
    currency: $("ramp-currency"),
    reference: $("ramp-reference"),
    address: $("ramp-address"),
    build: $("ramp-build"),
    open: $("ramp-open"),
    error: $("ramp-error"),
    linkField: $("ramp-link-field"),
    link: $("ramp-link"),
    copy: $("ramp-copy"),
    frameWrap: $("ramp-frame-wrap"),
    frame: $("ramp-frame"),
    events: $("ramp-events"),
    eventsEmpty: $("ramp-events-empty"),
  };
  let stopListening = null;
  let listeningTo = null; // the origin the listener accepts
  let sandboxUrl = null; // the sandbox's URL (its simulated transfers), once prefill() knew it
  /** The wait between two confirmations (the package's default is the service's 5 s). */
  const CONFIRM_INTERVAL_MS = 2_000;

  el.form.addEventListener("submit", (e) => { e.preventDefault(); buildLink(); });
  el.key.addEventListener("input", checkKey);
  el.open.addEventListener("click", () => {
    if (!el.link.value) return;
    el.frame.src = el.link.value;
    show(el.frameWrap, true);
    el.frameWrap.scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
  el.copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.link.value);
      el.copy.textContent = "Copied";
    } catch {
      el.link.select();
      el.copy.textContent = "Press Ctrl+C";
    }
    setTimeout(() => { el.copy.textContent = "Copy"; }, 1500);
  });

  /** The ramp panel works once the package has loaded. */
  const available = () => !!ctx.mod;

  /** Warn (with the package's classifyKey) when a secret key is typed where a public one belongs. */
  function checkKey() {
    const kind = ctx.mod && el.key.value.trim() ? ctx.mod.classifyKey(el.key.value.trim()) : null;
    const secret = kind === "secret";
    el.key.toggleAttribute("aria-invalid", secret);
    if (secret) el.key.setAttribute("aria-invalid", "true");
    el.keyHint.classList.toggle("hint-error", secret);
    el.keyHint.textContent = secret
      ? "This is a secret (SECK_) key: it must never go into a link or a browser. Use the public (PUBK_) key."
      : "Only a public (PUBK_) key belongs in a link.";
    el.keyHint.dataset.kind = kind || "";
  }

  function readOptions() {
    const opt = {
      rampUrl: el.page.value.trim(),
      key: el.key.value.trim(),
      paymentType: el.type.value,
      coin: el.coin.value.trim().toUpperCase(),
      network: el.network.value.trim().toUpperCase(),
    };
    const optional = { amount: el.amount.value.trim(), currency: el.currency.value.trim().toUpperCase(),
      reference: el.reference.value.trim(), address: el.address.value.trim() };
    for (const [k, v] of Object.entries(optional)) if (v) opt[k] = v;
    return opt;
  }

  function buildLink() {
    if (!available()) return;
    try {
      const url = ctx.mod.onchainRampUrl(readOptions());
      renderError(el.error, null);
      el.link.value = url;
      show(el.linkField, true);
      el.open.disabled = false;
      listen(new URL(url).origin);
    } catch (err) {
      setSecrets([ctx.conn.apiKey]);
      renderError(el.error, err);
      show(el.linkField, false);
      el.open.disabled = true;
    }
  }

  function listen(origin) {
    if (listeningTo === origin) return;
    if (stopListening) stopListening();
    stopListening = ctx.mod.listenForRampEvents({
      allowedOrigin: origin,
      onCryptoRequested: (payload) => addEvent(payload),
    });
    listeningTo = origin;
  }

  function addEvent(p) {
    const cents = Number(p.amountCents);
    const pr = p.paymentRequest;
    const prText = pr == null ? "—" : typeof pr === "object" ? (pr.reference || pr.id || JSON.stringify(pr)) : String(pr);
    // The id confirmTransaction takes: the request's `id`, or the request itself when the page
    // sent it as a string.
    const prId = typeof pr === "string" ? pr : pr && typeof pr.id === "string" ? pr.id : "";
    const hash = h("code", { class: "break", dataset: { testid: "ramp-event-hash" } }, "—");
    const status = h("span", { dataset: { testid: "ramp-event-status", state: "waiting" } }, "waiting for the transfer");
    const error = h("div", { class: "panel-error", role: "alert", dataset: { testid: "ramp-event-error" }, hidden: true });
    const confirm = h("button", { type: "button", class: "btn btn-small", disabled: true, dataset: { testid: "ramp-event-confirm" } },
      "Confirm until settled");
    const transfer = h("button", { type: "button", class: "btn btn-small", disabled: !sandboxUrl || !prId,
      title: sandboxUrl ? "" : "The simulated transfer needs the sandbox",
      dataset: { testid: "ramp-event-transfer" } }, "Send (simulated transfer)");
    transfer.addEventListener("click", () => simulateTransfer(prId, { transfer, confirm, hash, status, error }));
    confirm.addEventListener("click", () => confirmTransfer(prId, hash.textContent, { confirm, status, error }));
    el.events.prepend(h("li", { class: "event", dataset: { testid: "ramp-event" } },
      h("div", { class: "event-head" },
        h("strong", { dataset: { testid: "ramp-event-amount" } }, Number.isFinite(cents) ? f.money(cents / 100) : "amount unknown"),
        h("span", { class: "muted" }, f.clock())),
      h("div", {}, "to ", h("code", { class: "break", dataset: { testid: "ramp-event-address" } }, p.destinationAddress || "—")),
      h("div", { class: "muted" }, "payment request ", h("span", { dataset: { testid: "ramp-event-request" } }, redact(prText))),
      h("div", { class: "muted" }, "transaction ", hash),
      h("div", { class: "event-actions" }, transfer, confirm, status),
      error));
    show(el.eventsEmpty, false);
  }

  /** The sandbox's simulated onchain transfer paying request `id` (the app's wallet, in real life). */
  async function simulateTransfer(id, ui) {
    ui.transfer.disabled = true;
    renderError(ui.error, null);
    try {
      const res = await fetch(`${sandboxUrl}/__sandbox/transfer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ paymentRequest: id }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
      ui.hash.textContent = body.transactionHash;
      ui.status.textContent = "sent: confirm it";
      ui.status.dataset.state = "sent";
      ui.confirm.disabled = false;
    } catch (err) {
      renderError(ui.error, err);
      ui.transfer.disabled = false;
    }
  }

  /** confirmUntilSettled with the panel's public key: "settled", or what stopped it. */
  async function confirmTransfer(id, transactionHash, ui) {
    ui.confirm.disabled = true;
    renderError(ui.error, null);
    ui.status.textContent = "confirming…";
    ui.status.dataset.state = "confirming";
    let merchant = null;
    try {
      merchant = new ctx.mod.MerchantClient({ baseUrl: sandboxUrl || ctx.conn.baseUrl, apiKey: el.key.value.trim() });
      const { settled, tries } = await merchant.confirmUntilSettled({
        paymentRequest: id, transactionHash, intervalMs: CONFIRM_INTERVAL_MS,
      });
      ui.status.textContent = settled
        ? `settled (${tries} confirmation${tries === 1 ? "" : "s"})`
        : `not settled after ${tries} confirmations`;
      ui.status.dataset.state = settled ? "settled" : "unsettled";
      if (!settled) ui.confirm.disabled = false;
    } catch (err) {
      setSecrets([el.key.value.trim()]);
      renderError(ui.error, err);
      ui.status.textContent = "failed";
      ui.status.dataset.state = "failed";
      ui.confirm.disabled = false;
    } finally {
      merchant?.free();
    }
  }

  return {
    /** The package has loaded (or failed to): enable the panel, or say why it is not. */
    ready() {
      const ok = available();
      show(el.unavailable, !ok);
      el.fieldset.disabled = !ok;
      el.build.disabled = !ok;
      el.panel.dataset.available = String(ok);
      if (!ok) el.eventsEmpty.textContent = "The package did not load.";
    },
    /** Prefill the ramp page and the public key from the sandbox's info (fields left empty only). */
    prefill(info) {
      if (typeof info.sandboxUrl === "string") sandboxUrl = info.sandboxUrl;
      if (!el.page.value && typeof info.rampUrl === "string") {
        // rampUrl is the ramp origin; the hosted page lives at rampPagePath on it.
        try { el.page.value = new URL(info.rampPagePath || "/hosted/ramp", info.rampUrl).href; } catch { el.page.value = info.rampUrl; }
      }
      if (!el.key.value && typeof info.keys.MERCHANT_PUBLIC_KEY === "string") el.key.value = info.keys.MERCHANT_PUBLIC_KEY;
      checkKey();
    },
  };
}
