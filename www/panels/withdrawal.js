// Withdrawal-info panel: withdrawalInfo(symbol) — the coin, its networks as chips, the address
// and memo patterns — and a live check of a pasted address (and memo) against them.
import { $, h, show, setText } from "../lib/dom.js";
import { isAbort, renderError } from "../lib/errors.js";

/** The package's default selection, with the coin's display name and icon. */
const WITHDRAWAL_FIELDS = ["symbol", "name", "icon", "networks", "addressRegex", "memoRegex"];

/** The service's pattern as a JS RegExp that must match the whole input (Ruby/PCRE anchors
 *  \A \z \Z and a leading (?i) are translated). null if this browser cannot compile it. */
export function toRegExp(src) {
  if (!src) return null;
  let flags = "";
  let body = String(src);
  if (body.startsWith("(?i)")) { flags = "i"; body = body.slice(4); }
  body = body.replace(/\\A/g, "^").replace(/\\[zZ]/g, "$");
  try { return new RegExp(`^(?:${body})$`, flags); } catch { return null; }
}

/** @param {import("../lib/context.js").Context} ctx */
export function initWithdrawal(ctx) {
  const el = {
    form: $("withdrawal-form"),
    symbol: $("withdrawal-symbol"),
    lookup: $("withdrawal-lookup"),
    error: $("withdrawal-error"),
    empty: $("withdrawal-empty"),
    result: $("withdrawal-result"),
    address: $("withdrawal-address"),
    addressResult: $("withdrawal-address-result"),
    memoField: $("withdrawal-memo-field"),
    memo: $("withdrawal-memo"),
    memoResult: $("withdrawal-memo-result"),
  };
  let ctrl = null;
  let shown = null; // the info shown, with its patterns compiled (`address`, `memo`)
  ctx.fields({ symbol: el.symbol });

  el.form.addEventListener("submit", (e) => { e.preventDefault(); if (ctx.connected) lookup(); });
  el.address.addEventListener("input", () => { if (shown) checkAddress(); });
  el.memo.addEventListener("input", () => { if (shown) checkMemo(); });

  const checkAddress = () => checkPattern(el.address, el.addressResult, shown.address, shown.addressRegex, "address", shown.symbol);
  const checkMemo = () => checkPattern(el.memo, el.memoResult, shown.memo, shown.memoRegex, "memo", shown.symbol);

  async function lookup() {
    const symbol = el.symbol.value.trim().toUpperCase();
    el.symbol.value = symbol;
    if (!symbol) { el.empty.textContent = "Type a coin symbol, e.g. USDC."; el.symbol.focus(); return; }
    if (ctrl) ctrl.abort();
    const mine = new AbortController();
    ctrl = mine;
    el.lookup.disabled = true;
    el.empty.textContent = `Looking up ${symbol}…`;
    try {
      // `name` and `icon` (the documentation shows them; the SDKs do not select them) are asked
      // for by name, but not through the server proxy, which lets through the package's own
      // selection only (the panel then shows the symbol, without an icon).
      const fields = ctx.conn.endpoint ? undefined : WITHDRAWAL_FIELDS;
      const info = await ctx.call("withdrawalInfo", (c) => c.withdrawalInfo(symbol, { fields, signal: mine.signal }));
      if (mine.signal.aborted) return;
      renderError(el.error, null);
      el.symbol.removeAttribute("aria-invalid");
      shown = info ? { ...info, address: toRegExp(info.addressRegex), memo: toRegExp(info.memoRegex) } : null;
      if (!info) {
        show(el.result, false);
        el.empty.textContent = `The service has no withdrawal info for ${symbol}.`;
        return;
      }
      el.empty.textContent = "";
      render(shown);
    } catch (err) {
      if (isAbort(err) && mine.signal.aborted) return;
      el.empty.textContent = "";
      show(el.result, false);
      renderError(el.error, err);
      ctx.markInvalid(err);
    } finally {
      if (ctrl === mine) { ctrl = null; el.lookup.disabled = !ctx.connected; }
    }
  }

  function render(w) {
    setText($("withdrawal-name"), w.name || w.symbol);
    $("withdrawal-code").textContent = w.symbol;
    const icon = $("withdrawal-icon");
    let iconUrl = null;
    try { if (w.icon) iconUrl = new URL(w.icon, ctx.conn.baseUrl); } catch { /* ignore */ }
    if (iconUrl && (iconUrl.protocol === "https:" || iconUrl.protocol === "http:")) {
      icon.onerror = () => { icon.hidden = true; };
      icon.src = iconUrl.href;
      icon.hidden = false;
    } else {
      icon.hidden = true;
      icon.removeAttribute("src");
    }
    const nets = Array.isArray(w.networks) ? w.networks : [];
    $("withdrawal-networks").replaceChildren(...(nets.length
      ? nets.map((n) => h("li", { class: "chip", dataset: { testid: "network-chip" } }, n))
      : [h("li", { class: "muted" }, "No networks listed.")]));
    setText($("withdrawal-address-regex"), w.addressRegex);
    setText($("withdrawal-memo-regex"), w.memoRegex);
    show(el.memoField, !!w.memoRegex);
    show(el.result, true);
    el.address.placeholder = `Paste a ${w.symbol} address`;
    checkAddress();
    checkMemo();
  }

  return {
    /** The connection is up: enable the lookup, and look the typed coin up (if any). */
    connected() {
      el.lookup.disabled = false;
      return el.symbol.value.trim() ? lookup() : null;
    },
  };
}

/** Check `input`'s value against `re` (compiled from the service's pattern `src`) into `out`. */
function checkPattern(input, out, re, src, what, symbol) {
  const v = input.value.trim();
  delete out.dataset.valid;
  out.className = "check";
  if (!v) { out.textContent = ""; return; }
  if (!src) { out.textContent = `The service gives no ${what} pattern to check against.`; return; }
  if (!re) { out.textContent = `This browser cannot run the service's ${what} pattern.`; return; }
  const ok = v.length <= 512 && re.test(v);
  out.dataset.valid = String(ok);
  out.classList.add(ok ? "ok" : "bad");
  out.textContent = ok ? `✓ Matches the ${symbol ?? ""} ${what} pattern.` : `✗ Does not match the ${what} pattern.`;
}
