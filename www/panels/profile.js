// Profile panel: the agent's profile() — balances, credit line used of total, rates and
// margins, completed counts and volumes, verification status — and a refresh button.
// Editors that change the profile (e.g. rates) hook in through `onLoaded` and `load()`.
import { $, setText } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { describe, isAbort, renderError } from "../lib/errors.js";

const MONEY_FIELDS = ["accountBalance", "escrowBalance", "bonusEarnings", "creditLine", "usedCreditLine",
  "totalDepositUsdAmount", "totalWithdrawalUsdAmount"];

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {{ onLoaded?: (profile: object) => void }} [hooks] called after each profile is shown
 */
export function initProfile(ctx, { onLoaded } = {}) {
  const el = {
    refresh: $("profile-refresh"),
    error: $("profile-error"),
    body: $("profile-body"),
  };
  let ctrl = null;
  let latest = null;
  el.refresh.addEventListener("click", () => load());

  /** Load the profile (aborting a load in flight) and show it. */
  async function load() {
    if (ctrl) ctrl.abort();
    const mine = new AbortController();
    ctrl = mine;
    el.body.setAttribute("aria-busy", "true");
    el.refresh.disabled = true;
    el.refresh.textContent = "Refreshing…";
    try {
      const p = await ctx.call("profile", (c) => c.profile({ signal: mine.signal }));
      if (mine.signal.aborted) return;
      renderError(el.error, null);
      latest = p;
      render(el.body, p);
      ctx.status(`Connected as ${p.email || p.id}.`, "ok");
      if (onLoaded) onLoaded(p);
    } catch (err) {
      if (isAbort(err) && mine.signal.aborted) return;
      renderError(el.error, err);
      const d = describe(err);
      if (d.code === "unauthorized" || d.code === "forbidden") ctx.status(`Not connected: ${d.code}: ${d.message}`, "error");
    } finally {
      if (ctrl === mine) {
        ctrl = null;
        el.body.setAttribute("aria-busy", "false");
        el.refresh.disabled = !ctx.connected;
        el.refresh.textContent = "Refresh";
      }
    }
  }

  return {
    load,
    /** The connection is up: enable refresh and load. */
    connected() { el.refresh.disabled = false; return load(); },
    /** The profile last shown, or null. */
    latest() { return latest; },
  };
}

/** Fill the profile's fields (`data-testid="profile-<field>"`) from `p`. */
function render(body, p) {
  const pf = (name) => body.querySelector(`[data-testid="profile-${name}"]`);
  for (const k of MONEY_FIELDS) setText(pf(k), f.money(p[k]));
  setText($("profile-email"), p.email);
  $("profile-id").textContent = p.id ? `· ${p.id}` : "";
  setText(pf("averageDepositRate"), f.decimal(p.averageDepositRate, 2));
  setText(pf("averageWithdrawalRate"), f.decimal(p.averageWithdrawalRate, 2));
  setText(pf("depositMargin"), p.depositMargin == null ? null : `${f.decimal(p.depositMargin, 2)} %`);
  setText(pf("withdrawalMargin"), p.withdrawalMargin == null ? null : `${f.decimal(p.withdrawalMargin, 2)} %`);
  const onOff = (v) => (v == null ? "—" : v ? "on" : "off");
  setText(pf("autoUpdate"), `deposit ${onOff(p.autoUpdateDepositRate)} · withdrawal ${onOff(p.autoUpdateWithdrawalRate)}`);
  setText(pf("depositsCompleted"), f.integer(p.depositsCompleted));
  setText(pf("withdrawalsCompleted"), f.integer(p.withdrawalsCompleted));
  pf("totalDepositFiatAmount").textContent = p.totalDepositFiatAmount == null ? "" : `${f.decimal(p.totalDepositFiatAmount, 2, 2)} in local currencies`;
  pf("totalWithdrawalFiatAmount").textContent = p.totalWithdrawalFiatAmount == null ? "" : `${f.decimal(p.totalWithdrawalFiatAmount, 2, 2)} in local currencies`;
  setText(pf("verificationStatus"), f.label(p.verificationStatus));
  setText(pf("enforceReceiptUpload"), p.enforceReceiptUpload == null ? null : p.enforceReceiptUpload ? "required" : "optional");
  setText(pf("depositAddress"), p.depositAddress);
  const badge = $("profile-verification");
  badge.textContent = p.verificationStatus ? f.label(p.verificationStatus) : "Unknown";
  badge.dataset.status = String(p.verificationStatus || "");
  const used = Number(p.usedCreditLine);
  const total = Number(p.creditLine);
  const share = total > 0 && Number.isFinite(used) ? Math.min(1, Math.max(0, used / total)) : 0;
  const meter = $("profile-credit-meter");
  meter.style.width = `${(share * 100).toFixed(1)}%`;
  meter.parentElement.title = total > 0 ? `${f.percent(share)} of the credit line used` : "No credit line";
  $("profile-updated").textContent = `Updated ${f.clock()}`;
}
