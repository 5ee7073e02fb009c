// Onchain-ramp panel (merchant public key): builds a ramp link with the package's
// onchainRampUrl, opens the hosted ramp page in a frame, and lists the crypto.requested events
// it posts (listenForRampEvents, origin-checked by the package). classifyKey flags a secret
// (SECK_) key typed into the key field. Usable once the package has loaded (`ready()`).
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
    el.events.prepend(h("li", { class: "event", dataset: { testid: "ramp-event" } },
      h("div", { class: "event-head" },
        h("strong", { dataset: { testid: "ramp-event-amount" } }, Number.isFinite(cents) ? f.money(cents / 100) : "amount unknown"),
        h("span", { class: "muted" }, f.clock())),
      h("div", {}, "to ", h("code", { class: "break", dataset: { testid: "ramp-event-address" } }, p.destinationAddress || "—")),
      h("div", { class: "muted" }, "payment request ", h("span", { dataset: { testid: "ramp-event-request" } }, redact(prText)))));
    show(el.eventsEmpty, false);
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
      if (!el.page.value && typeof info.rampUrl === "string") {
        // rampUrl is the ramp origin; the hosted page lives at rampPagePath on it.
        try { el.page.value = new URL(info.rampPagePath || "/hosted/ramp", info.rampUrl).href; } catch { el.page.value = info.rampUrl; }
      }
      if (!el.key.value && typeof info.keys.MERCHANT_PUBLIC_KEY === "string") el.key.value = info.keys.MERCHANT_PUBLIC_KEY;
      checkKey();
    },
  };
}
