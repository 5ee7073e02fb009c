// How the dashboard shows a failure: the SettlementError code and message, a hint, and never
// a key (anything that looks like one is masked, and so is the key currently in use).
import { h } from "./dom.js";

const KEY_SHAPE = /\b[A-Za-z0-9]+-(?:SECK|PUBK)_[A-Za-z0-9_-]+/g;
const BEARER = /(bearer\s+)[^\s"',;]+/gi;

let secrets = [];
/** Strings that must never be displayed (the keys in use). */
export function setSecrets(list) { secrets = list.filter((s) => typeof s === "string" && s.length >= 4); }

export function redact(text) {
  let out = String(text ?? "");
  for (const s of secrets) out = out.split(s).join("[key hidden]");
  return out.replace(KEY_SHAPE, "[key hidden]").replace(BEARER, "$1[key hidden]");
}

const HINTS = {
  invalid_input: "Nothing was sent: correct the highlighted value.",
  unauthorized: "The service rejected the key. Check the agent key and the base URL.",
  forbidden: "The key is valid but not allowed to do this.",
  rate_limited: "The service is limiting requests; wait a moment and try again.",
  http: "The service answered with an HTTP error.",
  graphql: "The service refused the query.",
  network: "The service could not be reached (offline, wrong URL, or blocked by CORS).",
  timeout: "The service did not answer in time.",
  aborted: "The request was cancelled.",
  outcome_unknown: "The change was sent but no answer came: it may have been applied. Read the state back before trying again.",
  decode: "The service's answer could not be read.",
  secret_key_in_browser: "Secret merchant keys belong on a server; a browser may only use a public (PUBK_) key.",
};

/** Normalise anything thrown into { code, message, status, retryAfterMs, field, graphqlErrors }. */
export function describe(err) {
  if (err && err.name === "SettlementError") {
    return {
      code: String(err.code || "unknown"),
      message: redact(err.message),
      status: err.status,
      retryAfterMs: err.retryAfterMs,
      field: err.field,
      graphqlErrors: Array.isArray(err.graphqlErrors) ? err.graphqlErrors : [],
    };
  }
  return { code: "unexpected", message: redact(err && err.message ? err.message : String(err)), graphqlErrors: [] };
}

export function isAbort(err) {
  return err && err.name === "SettlementError" && err.code === "aborted";
}

/** Fill a panel's error box (role=alert) with the error; `null` hides it. */
export function renderError(box, err) {
  if (!err) { box.hidden = true; box.replaceChildren(); return; }
  const d = describe(err);
  const details = [];
  if (d.status && !d.message.includes(String(d.status))) details.push(`HTTP ${d.status}`);
  if (d.field) details.push(`field: ${d.field}`);
  if (d.retryAfterMs) details.push(`retry after ${Math.ceil(d.retryAfterMs / 1000)} s`);
  for (const g of d.graphqlErrors.slice(0, 3)) {
    if (g && g.message && !d.message.includes(redact(g.message))) details.push(redact(g.message));
  }
  box.dataset.code = d.code;
  box.replaceChildren(
    h("span", { class: "error-code", dataset: { testid: "error-code" } }, d.code),
    h("div", { class: "error-text" },
      h("p", { class: "error-message", dataset: { testid: "error-message" } }, d.message),
      h("p", { class: "error-hint" }, [HINTS[d.code], details.join(" · ")].filter(Boolean).join(" "))),
  );
  box.hidden = false;
}
