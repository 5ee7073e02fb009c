// The connection bar: the mode (direct, or through the server proxy), base URL (or the proxy
// endpoint) and agent key, "Remember in this tab", show/hide key, Connect.
// The key lives in memory, or in sessionStorage when the user ticks "Remember in this tab";
// never in localStorage, the URL, the console or an error (it is registered with setSecrets).
// Through the server proxy the page has no key at all: the client is
// `new BotClient({ endpoint: "/api/bot" })` and the server's createProxyHandler adds it.
import { $ } from "../lib/dom.js";
import { describe, setSecrets } from "../lib/errors.js";

const STORE_KEY = "settlement-demo.connection";

/** "https://host/" → "https://host"; null unless it is an http(s) URL. */
export function normalizeBase(raw) {
  try {
    const u = new URL(String(raw).trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.href.replace(/\/+$/, "") : null;
  } catch { return null; }
}

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {object} hooks
 * @param {(baseUrl: string) => Promise<void>} hooks.checkSandbox  called before each connection
 *   with its base URL (app.js finds out whether it is the sandbox, if the URL changed)
 * @param {() => Promise<unknown>} hooks.connected  the connection is set: load the panels
 */
export function initConnection(ctx, { checkSandbox, connected }) {
  const el = {
    form: $("connection-form"),
    mode: $("connection-mode"),
    baseUrlLabel: $("base-url-label"),
    keyField: $("agent-key-field"),
    baseUrl: $("base-url"),
    apiKey: $("agent-key"),
    toggleKey: $("toggle-key"),
    remember: $("remember"),
    connect: $("connect"),
  };
  ctx.fields({ baseUrl: el.baseUrl, apiKey: el.apiKey });

  el.form.addEventListener("submit", (e) => { e.preventDefault(); connect(); });
  el.mode.addEventListener("change", () => showMode(true));

  /** The form for the chosen mode; `switched`: the user changed it (fill the mode's URL). */
  function showMode(switched) {
    const proxy = el.mode.value === "proxy";
    el.baseUrlLabel.textContent = proxy ? "Proxy endpoint (your server)" : "Service base URL";
    el.keyField.hidden = proxy;
    if (switched) el.baseUrl.value = proxy ? `${location.origin}/api/bot` : location.origin;
  }
  el.remember.addEventListener("change", save);
  el.apiKey.addEventListener("input", () => { if (el.remember.checked) save(); });
  el.baseUrl.addEventListener("input", () => { if (el.remember.checked) save(); });
  el.toggleKey.addEventListener("click", () => {
    const showing = el.apiKey.type === "text";
    el.apiKey.type = showing ? "password" : "text";
    el.toggleKey.textContent = showing ? "Show" : "Hide";
    el.toggleKey.setAttribute("aria-pressed", String(!showing));
  });

  function save() {
    try {
      if (el.remember.checked) {
        sessionStorage.setItem(STORE_KEY, JSON.stringify({ baseUrl: el.baseUrl.value.trim(), apiKey: el.apiKey.value }));
      } else {
        sessionStorage.removeItem(STORE_KEY);
      }
    } catch { /* storage disabled: memory only */ }
  }

  async function connect() {
    if (el.mode.value === "proxy") return connectThroughProxy();
    const baseUrl = normalizeBase(el.baseUrl.value);
    if (!baseUrl) {
      ctx.status("Enter the service's base URL, e.g. https://staging.example.", "error");
      el.baseUrl.focus();
      return;
    }
    const apiKey = el.apiKey.value.trim();
    ctx.conn = { baseUrl, apiKey };
    setSecrets([apiKey]);
    save();
    try {
      // Constructing a client checks the options (e.g. the URL) before anything is sent.
      const probe = new ctx.mod.BotClient({ baseUrl, apiKey: apiKey || undefined });
      if (typeof probe.free === "function") probe.free();
    } catch (err) {
      const d = describe(err);
      ctx.status(`${d.code}: ${d.message}`, "error");
      return;
    }
    ctx.status(apiKey ? "Connecting…" : "Connecting without a key…", "busy");
    await checkSandbox(baseUrl);
    ctx.connected = true;
    await connected();
  }

  /** Through the server proxy: no key in the page, the endpoint is the proxy route. */
  async function connectThroughProxy() {
    const endpoint = normalizeBase(el.baseUrl.value);
    if (!endpoint) {
      ctx.status("Enter the proxy endpoint, e.g. https://your-app.example/api/bot.", "error");
      el.baseUrl.focus();
      return;
    }
    ctx.conn = { baseUrl: location.origin, endpoint, apiKey: "" };
    setSecrets([]);
    try {
      const probe = new ctx.mod.BotClient({ endpoint });
      if (typeof probe.free === "function") probe.free();
    } catch (err) {
      const d = describe(err);
      ctx.status(`${d.code}: ${d.message}`, "error");
      return;
    }
    ctx.status("Connecting through the server proxy (no key in this page)…", "busy");
    // The sandbox's simulate menu works by request headers, which the proxy never forwards.
    await checkSandbox(null);
    ctx.connected = true;
    await connected();
  }

  return {
    connect,
    /** Fill the form: the page's origin, or what was remembered in this tab. */
    restore() {
      el.baseUrl.value = location.origin;
      let saved = null;
      try {
        const raw = sessionStorage.getItem(STORE_KEY);
        const v = raw ? JSON.parse(raw) : null;
        saved = v && typeof v === "object" ? v : null;
      } catch { /* storage disabled or corrupt: start empty */ }
      const mode = new URLSearchParams(location.search).get("connect");
      if (mode === "proxy") {
        el.mode.value = "proxy";
        showMode(true);
        return;
      }
      if (saved) {
        if (typeof saved.baseUrl === "string" && saved.baseUrl) el.baseUrl.value = saved.baseUrl;
        if (typeof saved.apiKey === "string") el.apiKey.value = saved.apiKey;
        el.remember.checked = true;
      }
    },
    /** The base URL typed, normalised (null if it is not an http(s) URL). */
    baseUrl() { return normalizeBase(el.baseUrl.value); },
    /** The agent key typed (untrimmed). */
    apiKey() { return el.apiKey.value; },
    /** Whether the page connects through the server proxy (no key needed). */
    viaProxy() { return el.mode.value === "proxy"; },
    /** Prefill the agent key (when the field is empty). */
    suggestKey(key) { if (!el.apiKey.value && typeof key === "string") el.apiKey.value = key; },
    /** The package is ready: allow connecting. */
    enable() { el.connect.disabled = false; },
    focusKey() { el.apiKey.focus(); },
  };
}
