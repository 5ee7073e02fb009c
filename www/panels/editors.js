// The profile's editors: rates and margins (updateRates: only the values filled in change)
// and one payment method's liquidity (updatePaymentMethodLiquidity, by type or id). Both are
// sent once; a refused value is marked by the field the client's `invalid_input` names, and
// an `outcome_unknown` says so (the profile is reloaded either way, to show what is true now).
import { $ } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { describe } from "../lib/errors.js";

const RATE_KEYS = ["depositRate", "depositMargin", "withdrawalRate", "withdrawalMargin"];

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {{ reloadProfile: () => Promise<unknown> }} hooks
 */
export function initEditors(ctx, { reloadProfile }) {
  const rates = {
    form: $("rates-editor"),
    save: $("rates-save"),
    result: $("rates-result"),
    inputs: Object.fromEntries(RATE_KEYS.map((k) => [k, $(`rate-${k}`)])),
  };
  const liq = {
    form: $("liquidity-editor"),
    by: $("liquidity-by"),
    method: $("liquidity-method"),
    amount: $("liquidity-amount"),
    save: $("liquidity-save"),
    result: $("liquidity-result"),
  };
  // The fields an invalid_input can name ("rates" names the editor's first input).
  // (`paymentMethod` is the order dialog's field; the liquidity editor marks its own below.)
  ctx.fields({ ...rates.inputs, rates: rates.inputs.depositRate, amountLocal: liq.amount, paymentMethodType: liq.method });

  function say(out, text, state) { out.textContent = text; out.dataset.state = state; }

  function failed(out, err) {
    const d = describe(err);
    ctx.markInvalid(err);
    say(out, d.code === "outcome_unknown"
      ? `Outcome unknown: ${d.message} The profile is reloaded to show what is set now.`
      : `${d.code}${d.field ? ` (${d.field})` : ""}: ${d.message}`, d.code === "outcome_unknown" ? "unknown" : "error");
  }

  rates.form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!ctx.connected) return;
    const args = {};
    for (const k of RATE_KEYS) { const v = rates.inputs[k].value.trim(); if (v) args[k] = v; }
    ctx.markInvalid(null);
    rates.save.disabled = true;
    say(rates.result, "Saving…", "pending");
    let sent = true;
    try {
      await ctx.call("updateRates", (c) => c.updateRates(args));
      say(rates.result, `Saved ${Object.keys(args).join(", ")} at ${f.clock()}.`, "ok");
      for (const input of Object.values(rates.inputs)) input.value = "";
    } catch (err) {
      failed(rates.result, err);
      sent = describe(err).code !== "invalid_input";
    } finally {
      rates.save.disabled = !ctx.connected;
    }
    // The margins are in the profile: show what is set now (also after an unknown outcome).
    if (sent) await reloadProfile().catch(() => {});
  });

  liq.form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!ctx.connected) return;
    const args = { amountLocal: liq.amount.value.trim() };
    const name = liq.method.value.trim();
    if (name) args[liq.by.value] = name;
    ctx.markInvalid(null);
    liq.save.disabled = true;
    say(liq.result, "Saving…", "pending");
    try {
      const m = await ctx.call("updatePaymentMethodLiquidity", (c) => c.updatePaymentMethodLiquidity(args));
      say(liq.result, `${m.displayValue || m.id}: ${f.decimal(m.localCurrencyAvailable, 2)} available (saved ${f.clock()}).`, "ok");
    } catch (err) {
      failed(liq.result, err);
      if (describe(err).field === "paymentMethod") liq.method.setAttribute("aria-invalid", "true");
    } finally {
      liq.save.disabled = !ctx.connected;
    }
  });

  return {
    /** The connection is up: enable the editors. */
    connected() { rates.save.disabled = false; liq.save.disabled = false; },
  };
}
