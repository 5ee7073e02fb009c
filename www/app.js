// The settlement-wasm demo dashboard. Plain ES module, no build step; it uses only the
// package's public API: init, BotClient and SettlementError (errors are read by name and
// code), and for the onchain-ramp panel onchainRampUrl, listenForRampEvents and classifyKey.
// The agent key lives in memory, or in sessionStorage when the user
// ticks "remember in this tab"; never in localStorage, the URL, the console or an error.
import { $, h, show, setText, perFrame } from "./lib/dom.js";
import * as f from "./lib/format.js";
import { describe, isAbort, renderError, setSecrets, redact } from "./lib/errors.js";
import { toCsv, download } from "./lib/csv.js";
import { createChart } from "./lib/chart.js";

const PKG_URL = new URL("../pkg/index.js", import.meta.url).href;
const STORE_KEY = "settlement-demo.connection";

/** CSV column order (any other field the service returns follows these). The client's
 *  default P2PPayment selection brings all of them. */
const CSV_COLUMNS = ["id", "orderId", "createdAt", "status", "paymentType", "paymentMethod", "amountLocal",
  "currency", "amountUsd", "exchangeRate", "exchangeRateMinusSurcharge", "agentCutOfFees", "fxSpreadRevenue",
  "source", "instant", "expiresAt", "reassigning", "reassignAfter"];

/** What the "simulate" menu sends in `x-sandbox-fault` (sandbox only). */
const SIMULATIONS = {
  timeout: { label: "timeout", fault: "delay=5000", client: { timeoutMs: 2000, maxRetries: 1 } },
  "rate-limit": { label: "429 then success", fault: "status=429;retry-after=1;fail-first=1" },
  auth: { label: "auth failure", fault: "status=401" },
  "server-error": { label: "server error", fault: "status=503;body=html" },
};

const state = {
  mod: null,
  conn: { baseUrl: "", apiKey: "" },
  connected: false,
  sandbox: null, // the /__sandbox/info answer, when the base URL is the sandbox
  orders: { page: 1, perPage: 25, filter: {}, total: null, rows: [], ctrl: null, loading: false },
  profileCtrl: null,
  withdrawalCtrl: null,
  exportCtrl: null,
  withdrawal: null,
  rampStop: null,
  rampOrigin: null,
  methods: new Set(),
};

// ---------------------------------------------------------------- elements
const el = {
  pkgStatus: $("pkg-status"),
  sandboxBadge: $("sandbox-badge"),
  connForm: $("connection-form"),
  baseUrl: $("base-url"),
  apiKey: $("agent-key"),
  toggleKey: $("toggle-key"),
  remember: $("remember"),
  connect: $("connect"),
  connStatus: $("connection-status"),
  simBar: $("simulate-bar"),
  simulate: $("simulate"),
  simHint: $("simulate-hint"),
  profileRefresh: $("profile-refresh"),
  profileError: $("profile-error"),
  profileBody: $("profile-body"),
  filters: $("filters"),
  fOrderId: $("filter-order-id"),
  fStatus: $("filter-status"),
  fFrom: $("filter-date-from"),
  fTo: $("filter-date-to"),
  fMethod: $("filter-payment-method"),
  methodList: $("method-list"),
  perPage: $("per-page"),
  apply: $("apply-filters"),
  clear: $("clear-filters"),
  ordersSummary: $("orders-summary"),
  ordersError: $("orders-error"),
  ordersBody: $("orders-body"),
  tableWrap: $("orders-table-wrap"),
  pageFirst: $("page-first"),
  pagePrev: $("page-prev"),
  pageNext: $("page-next"),
  pageLast: $("page-last"),
  pageLabel: $("page-label"),
  exportBtn: $("export-csv"),
  exportBox: $("export-progress"),
  exportBar: $("export-progress-bar"),
  exportText: $("export-progress-text"),
  exportCancel: $("export-cancel"),
  chartCaption: $("orders-chart-caption"),
  wForm: $("withdrawal-form"),
  wSymbol: $("withdrawal-symbol"),
  wLookup: $("withdrawal-lookup"),
  wError: $("withdrawal-error"),
  wEmpty: $("withdrawal-empty"),
  wResult: $("withdrawal-result"),
  wAddress: $("withdrawal-address"),
  wAddressResult: $("withdrawal-address-result"),
  wMemoField: $("withdrawal-memo-field"),
  wMemo: $("withdrawal-memo"),
  wMemoResult: $("withdrawal-memo-result"),
  rampUnavailable: $("ramp-unavailable"),
  rampForm: $("ramp-form"),
  rampFieldset: document.getElementById("ramp-fieldset"),
  rampPage: $("ramp-page-url"),
  rampKey: $("ramp-public-key"),
  rampType: $("ramp-payment-type"),
  rampCoin: $("ramp-coin"),
  rampNetwork: $("ramp-network"),
  rampAmount: $("ramp-amount"),
  rampCurrency: $("ramp-currency"),
  rampReference: $("ramp-reference"),
  rampAddress: $("ramp-address"),
  rampBuild: $("ramp-build"),
  rampOpen: $("ramp-open"),
  rampError: $("ramp-error"),
  rampLinkField: $("ramp-link-field"),
  rampLink: $("ramp-link"),
  rampCopy: $("ramp-copy"),
  rampFrameWrap: $("ramp-frame-wrap"),
  rampFrame: $("ramp-frame"),
  rampEvents: $("ramp-events"),
  rampEventsEmpty: $("ramp-events-empty"),
  activity: $("activity-log"),
  activityEmpty: $("activity-empty"),
  activityClear: $("activity-clear"),
  pkgExports: $("pkg-exports"),
};
const chart = createChart($("orders-chart"));

// ---------------------------------------------------------------- connection storage
function loadRemembered() {
  try {
    const raw = sessionStorage.getItem(STORE_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw);
    return v && typeof v === "object" ? v : null;
  } catch { return null; }
}

function saveRemembered() {
  try {
    if (el.remember.checked) {
      sessionStorage.setItem(STORE_KEY, JSON.stringify({ baseUrl: el.baseUrl.value.trim(), apiKey: el.apiKey.value }));
    } else {
      sessionStorage.removeItem(STORE_KEY);
    }
  } catch { /* storage disabled: memory only */ }
}

function setConnection(baseUrl, apiKey) {
  state.conn = { baseUrl, apiKey };
  setSecrets([apiKey]);
}

// ---------------------------------------------------------------- activity log + clients
const activity = {
  add(op, sim) {
    const started = performance.now();
    const attempts = h("ol", { class: "attempts", dataset: { testid: "activity-attempts" } });
    const outcome = h("span", { class: "outcome pending", dataset: { testid: "activity-outcome" } }, "running…");
    const meta = h("span", { class: "muted activity-meta" }, f.clock());
    const extra = h("div", { class: "activity-extra" });
    const li = h("li", { class: "activity-entry", dataset: { testid: "activity-entry", op, outcome: "running", attempts: "0" } },
      h("div", { class: "activity-line" },
        h("span", { class: "op" }, op),
        sim ? h("span", { class: "badge badge-warn", dataset: { testid: "activity-simulated" } }, `simulated: ${sim.label}`) : null,
        outcome, meta),
      attempts, extra);
    el.activity.prepend(li);
    while (el.activity.children.length > 40) el.activity.lastElementChild.remove();
    show(el.activityEmpty, false);
    let n = 0;
    return {
      /** One HTTP attempt; returns a function to call with its result. */
      attempt() {
        n += 1;
        li.dataset.attempts = String(n);
        const t0 = performance.now();
        const item = h("li", { class: "attempt pending", dataset: { testid: "activity-attempt" } }, `#${n} …`);
        const num = n;
        attempts.append(item);
        return (status, extraText) => {
          const ok = typeof status === "number" && status >= 200 && status < 300;
          item.className = `attempt ${ok ? "ok" : "bad"}`;
          item.dataset.status = String(status);
          item.textContent = `#${num} ${typeof status === "number" ? `HTTP ${status}` : status}${extraText ? ` ${extraText}` : ""} · ${f.duration(performance.now() - t0)}`;
        };
      },
      done(err, note) {
        const ms = performance.now() - started;
        if (!err) {
          li.dataset.outcome = "ok";
          outcome.className = "outcome ok";
          outcome.textContent = `ok${note ? ` · ${note}` : ""}`;
        } else {
          const d = describe(err);
          li.dataset.outcome = isAbort(err) ? "aborted" : "error";
          li.dataset.code = d.code;
          outcome.className = `outcome ${isAbort(err) ? "muted" : "bad"}`;
          outcome.textContent = `${d.code}: ${d.message}`;
        }
        meta.textContent = `${f.clock()} · ${n} attempt${n === 1 ? "" : "s"} · ${f.duration(ms)}`;
      },
      note(text) { extra.append(h("p", { class: "muted", dataset: { testid: "activity-note" } }, text)); },
      /** HTTP attempts made so far. */
      attempts() { return n; },
    };
  },
};

/** A fetch that records every attempt (status, Retry-After, duration) in the activity entry.
 *  It never records headers, so the Authorization header cannot leak into the page. */
function tracingFetch(entry) {
  return async (input, init) => {
    const done = entry.attempt();
    try {
      const res = await fetch(input, init);
      const ra = res.headers.get("retry-after");
      done(res.status, ra ? `(Retry-After: ${ra})` : "");
      return res;
    } catch (e) {
      done(e && e.name === "AbortError" ? "aborted / timed out" : "network error");
      throw e;
    }
  };
}

/** Take (and disarm) the simulation chosen in the menu, if any. */
function takeSimulation() {
  if (!state.sandbox || !el.simulate.value) return null;
  const sim = { ...SIMULATIONS[el.simulate.value], tag: `demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}` };
  el.simulate.value = "";
  updateSimHint();
  return sim;
}

function updateSimHint() {
  const sim = SIMULATIONS[el.simulate.value];
  el.simBar.classList.toggle("armed", !!sim);
  el.simHint.textContent = sim
    ? `Armed: the next call (refresh the profile, load a page, look up a coin…) gets “${sim.label}”.`
    : "Sandbox only: sets the x-sandbox-fault header on the next call the dashboard makes.";
}

/**
 * Run one client call with its own BotClient (so its attempts are traced to its own activity
 * entry, and a simulation's fault headers apply to it alone).
 */
async function withClient(op, fn) {
  const sim = takeSimulation();
  const entry = activity.add(op, sim);
  let client = null;
  try {
    const headers = sim ? { "x-sandbox-fault": sim.fault, "x-sandbox-tag": sim.tag } : undefined;
    client = new state.mod.BotClient({
      baseUrl: state.conn.baseUrl,
      apiKey: state.conn.apiKey || undefined,
      headers,
      fetch: tracingFetch(entry),
      ...(sim && sim.client),
    });
    const result = await fn(client, entry);
    entry.done(null, typeof result?.__note === "string" ? result.__note : "");
    return result;
  } catch (err) {
    entry.done(err);
    throw err;
  } finally {
    if (client && typeof client.free === "function") { try { client.free(); } catch { /* already freed */ } }
    if (sim) reportSandboxLog(sim, entry);
  }
}

/** How long to wait for the sandbox to log every attempt of a simulated call. The sandbox logs
 *  a request when it answers it, or when it notices the client went away (a timed-out
 *  `delay=` attempt can be logged a few seconds after the client gave up on it). */
const SANDBOX_LOG_WAIT_MS = 8000;
const SANDBOX_LOG_POLL_MS = 200;

/** What the sandbox itself saw for a simulated call (its request log, by tag): polled until it
 *  holds as many requests as the client made attempts, or until SANDBOX_LOG_WAIT_MS. */
async function reportSandboxLog(sim, entry) {
  const url = new URL("/__sandbox/requests", state.conn.baseUrl);
  url.searchParams.set("tag", sim.tag);
  const expected = entry.attempts();
  const deadline = performance.now() + SANDBOX_LOG_WAIT_MS;
  let list = null;
  for (;;) {
    try {
      const res = await fetch(url, { cache: "no-store" });
      if (res.ok) {
        const body = await res.json();
        list = Array.isArray(body) ? body : null;
      }
    } catch { /* retried below until the deadline */ }
    if ((list && list.length >= expected) || performance.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, SANDBOX_LOG_POLL_MS));
  }
  if (!list) return; // the log is a nicety: no note when it cannot be read
  const statuses = list.map((r) => r?.status).filter((s) => s !== undefined);
  const missing = list.length < expected ? ` (${expected - list.length} of the client's ${expected} not logged yet)` : "";
  entry.note(`Sandbox request log (tag ${sim.tag}): ${list.length} request${list.length === 1 ? "" : "s"}${statuses.length ? ` → ${statuses.join(", ")}` : ""}${missing}.`);
}

/** Mark the input an `invalid_input` error names (aria-invalid) and focus it; clear the rest. */
function markInvalid(err) {
  const inputs = {
    "filter.orderId": el.fOrderId, "filter.status": el.fStatus, "filter.dateFrom": el.fFrom,
    "filter.dateTo": el.fTo, "filter.paymentMethod": el.fMethod, perPage: el.perPage,
    baseUrl: el.baseUrl, apiKey: el.apiKey, symbol: el.wSymbol,
  };
  for (const input of Object.values(inputs)) input.removeAttribute("aria-invalid");
  if (!err || err.code !== "invalid_input" || !err.field) return;
  const input = inputs[err.field];
  if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
}

// ---------------------------------------------------------------- profile
const PROFILE_MONEY = ["accountBalance", "escrowBalance", "bonusEarnings", "creditLine", "usedCreditLine",
  "totalDepositUsdAmount", "totalWithdrawalUsdAmount"];

function pf(name) { return el.profileBody.querySelector(`[data-testid="profile-${name}"]`); }

async function loadProfile() {
  if (state.profileCtrl) state.profileCtrl.abort();
  const ctrl = new AbortController();
  state.profileCtrl = ctrl;
  el.profileBody.setAttribute("aria-busy", "true");
  el.profileRefresh.disabled = true;
  el.profileRefresh.textContent = "Refreshing…";
  try {
    const p = await withClient("profile", (c) => c.profile({ signal: ctrl.signal }));
    if (ctrl.signal.aborted) return;
    renderError(el.profileError, null);
    renderProfile(p);
    el.connStatus.textContent = `Connected as ${p.email || p.id}.`;
    el.connStatus.dataset.state = "ok";
  } catch (err) {
    if (isAbort(err) && ctrl.signal.aborted) return;
    renderError(el.profileError, err);
    const d = describe(err);
    if (d.code === "unauthorized" || d.code === "forbidden") {
      el.connStatus.textContent = `Not connected: ${d.code}: ${d.message}`;
      el.connStatus.dataset.state = "error";
    }
  } finally {
    if (state.profileCtrl === ctrl) {
      state.profileCtrl = null;
      el.profileBody.setAttribute("aria-busy", "false");
      el.profileRefresh.disabled = !state.connected;
      el.profileRefresh.textContent = "Refresh";
    }
  }
}

function renderProfile(p) {
  for (const k of PROFILE_MONEY) setText(pf(k), f.money(p[k]));
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

// ---------------------------------------------------------------- order history
function readFilter() {
  const filter = {};
  const orderId = el.fOrderId.value.trim();
  const method = el.fMethod.value.trim();
  if (orderId) filter.orderId = orderId;
  if (el.fStatus.value) filter.status = el.fStatus.value;
  if (el.fFrom.value) filter.dateFrom = el.fFrom.value;
  if (el.fTo.value) filter.dateTo = el.fTo.value;
  if (method) filter.paymentMethod = method;
  return filter;
}

/** Load one page. `filter` and `perPage` become the table's only once the page has loaded, so
 *  a refused filter leaves the rows, total and export consistent with what is shown. */
async function loadOrders(page = state.orders.page, { filter = state.orders.filter, perPage = state.orders.perPage } = {}) {
  const o = state.orders;
  if (o.ctrl) o.ctrl.abort();
  const ctrl = new AbortController();
  o.ctrl = ctrl;
  o.loading = true;
  updatePager();
  el.tableWrap.setAttribute("aria-busy", "true");
  el.tableWrap.classList.add("loading");
  if (!o.rows.length) placeholder("Loading orders…", "loading");
  const summary = el.ordersSummary.textContent;
  el.ordersSummary.textContent = "Loading…";
  try {
    const result = await withClient("orderHistory", (c) =>
      c.orderHistory({ page, perPage, filter, signal: ctrl.signal }));
    if (ctrl.signal.aborted) return;
    const total = Number(result.pagination?.total ?? 0);
    const pages = Math.max(1, Math.ceil(total / perPage));
    if (total > 0 && result.data.length === 0 && page > pages) {
      // The data shrank under us: show the (new) last page instead of an empty one.
      o.ctrl = null;
      return loadOrders(pages, { filter, perPage });
    }
    o.filter = filter;
    o.perPage = perPage;
    o.page = page;
    o.total = total;
    o.rows = result.data || [];
    renderError(el.ordersError, null);
    markInvalid(null);
    renderOrders();
  } catch (err) {
    if (isAbort(err) && ctrl.signal.aborted) return;
    renderError(el.ordersError, err);
    markInvalid(err);
    el.ordersSummary.textContent = o.rows.length && o.total != null ? summary : "Orders could not be loaded.";
    el.perPage.value = String(o.perPage);
    if (!o.rows.length) placeholder("No orders loaded.", "empty");
  } finally {
    if (o.ctrl === ctrl) {
      o.ctrl = null;
      o.loading = false;
      el.tableWrap.setAttribute("aria-busy", "false");
      el.tableWrap.classList.remove("loading");
      updatePager();
    }
  }
}

function placeholder(text, kind) {
  el.ordersBody.replaceChildren(h("tr", { class: `placeholder-row ${kind}` },
    h("td", { colspan: 8, dataset: { testid: kind === "empty" ? "orders-empty" : "orders-placeholder" } }, text)));
}

function describeFilter(filter) {
  const parts = [];
  if (filter.status) parts.push(f.label(filter.status).toLowerCase());
  if (filter.paymentMethod) parts.push(`via ${filter.paymentMethod}`);
  if (filter.orderId) parts.push(`order “${filter.orderId}”`);
  if (filter.dateFrom && filter.dateTo) parts.push(`${filter.dateFrom} – ${filter.dateTo}`);
  else if (filter.dateFrom) parts.push(`from ${filter.dateFrom}`);
  else if (filter.dateTo) parts.push(`until ${filter.dateTo}`);
  return parts.join(", ");
}

function renderOrders() {
  const o = state.orders;
  const filtered = describeFilter(o.filter);
  el.ordersSummary.textContent = `${f.integer(o.total)} order${o.total === 1 ? "" : "s"}${filtered ? ` · ${filtered}` : ""}`;
  el.ordersSummary.dataset.total = String(o.total);
  if (o.rows.length === 0) {
    placeholder(filtered ? "No orders match these filters." : "No orders yet.", "empty");
  } else {
    el.ordersBody.replaceChildren(...o.rows.map(orderRow));
  }
  for (const r of o.rows) if (r.paymentMethod) state.methods.add(String(r.paymentMethod));
  syncMethodList();
  chart.update(o.rows);
  el.chartCaption.textContent = o.rows.length ? `(${o.rows.length} rows on this page)` : "(rows on this page)";
}

function syncMethodList() {
  if (el.methodList.children.length === state.methods.size) return;
  el.methodList.replaceChildren(...[...state.methods].sort().map((m) => h("option", { value: m })));
}

function statusBadge(st) {
  const known = ["pending", "picked_up", "paid", "completed", "canceled"].includes(st);
  return h("span", { class: `status s-${known ? st : "other"}`, dataset: { testid: "order-status", status: st ?? "" } }, f.label(st));
}

function orderRow(r) {
  const type = r.paymentType === "deposit" ? "↓ Deposit" : r.paymentType === "withdrawal" ? "↑ Withdrawal" : f.label(r.paymentType);
  const local = r.amountLocal == null ? "—" : r.currency ? f.money(r.amountLocal, r.currency) : f.decimal(r.amountLocal, 2);
  return h("tr", { dataset: { testid: "order-row", id: r.id ?? "" } },
    h("td", { "data-label": "Created", title: r.createdAt || "" }, f.when(r.createdAt)),
    h("td", { "data-label": "Order", class: "mono" }, r.orderId || r.id || "—"),
    h("td", { "data-label": "Type", class: `type t-${r.paymentType}` }, type),
    h("td", { "data-label": "Status" }, statusBadge(r.status)),
    h("td", { "data-label": "Method", dataset: { testid: "order-method" } }, r.paymentMethod ? String(r.paymentMethod).replace(/_/g, " ") : "—"),
    h("td", { "data-label": "Amount", class: "num" }, local),
    h("td", { "data-label": "USD", class: "num" }, f.money(r.amountUsd)),
    h("td", { "data-label": "Rate", class: "num" }, f.decimal(r.exchangeRate, 2)));
}

function pageCount() {
  const o = state.orders;
  return o.total == null ? null : Math.max(1, Math.ceil(o.total / o.perPage));
}

function updatePager() {
  const o = state.orders;
  const pages = pageCount();
  const busy = o.loading || !state.connected;
  el.pageLabel.textContent = pages == null ? "Page – of –" : `Page ${f.integer(o.page)} of ${f.integer(pages)}`;
  el.pageLabel.dataset.page = String(o.page);
  el.pageLabel.dataset.pages = pages == null ? "" : String(pages);
  el.pageFirst.disabled = el.pagePrev.disabled = busy || pages == null || o.page <= 1;
  el.pageNext.disabled = el.pageLast.disabled = busy || pages == null || o.page >= pages;
  el.exportBtn.disabled = !state.connected || !!state.exportCtrl || o.total === 0;
}

// ---------------------------------------------------------------- CSV export
async function exportCsv() {
  if (state.exportCtrl) return;
  const ctrl = new AbortController();
  state.exportCtrl = ctrl;
  const filter = { ...state.orders.filter };
  const expected = state.orders.total;
  const rows = [];
  updatePager();
  show(el.exportBox, true);
  el.exportBox.dataset.state = "running";
  el.exportCancel.disabled = false;
  el.exportCancel.focus();
  if (expected) { el.exportBar.max = expected; el.exportBar.value = 0; } else el.exportBar.removeAttribute("value");
  let finished = false;
  const progress = perFrame((n) => {
    if (finished) return;
    el.exportBar.value = n;
    el.exportText.textContent = `Exported ${f.integer(n)}${expected ? ` of ${f.integer(expected)}` : ""} orders…`;
  });
  el.exportText.textContent = "Starting export…";
  renderError(el.ordersError, null);
  const perPage = Math.min(100, Number(state.sandbox?.maxPerPage) || 100);
  try {
    await withClient("orders (CSV export)", async (c) => {
      const iter = c.orders({ perPage, filter, signal: ctrl.signal });
      for await (const row of iter) {
        rows.push(row);
        progress(rows.length);
        if (ctrl.signal.aborted) break;
      }
      // Cancelled between rows (the client only sees the signal when it sends): an abort
      // like the client's own, so the activity entry says "aborted", not "ok".
      if (ctrl.signal.aborted) {
        throw new state.mod.SettlementError(`Export cancelled after ${rows.length} rows.`, { code: "aborted" });
      }
      return { __note: `${rows.length} rows` };
    });
    finished = true;
    for (const r of rows) if (r.paymentMethod) state.methods.add(String(r.paymentMethod));
    syncMethodList();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
    const tag = [filter.status, filter.paymentMethod, filter.dateFrom, filter.dateTo].filter(Boolean).join("_").replace(/[^\w.-]+/g, "-");
    const name = `settlement-orders${tag ? `-${tag}` : ""}-${stamp}.csv`;
    download(toCsv(rows, CSV_COLUMNS), name);
    el.exportBar.max = Math.max(1, rows.length);
    el.exportBar.value = rows.length;
    el.exportText.textContent = `Exported ${f.integer(rows.length)} orders to ${name}.`;
    el.exportBox.dataset.state = "done";
    el.exportBox.dataset.rows = String(rows.length);
  } catch (err) {
    if (isAbort(err)) {
      el.exportText.textContent = `Export cancelled after ${f.integer(rows.length)} orders; nothing was saved.`;
      el.exportBox.dataset.state = "cancelled";
    } else {
      renderError(el.ordersError, err);
      el.exportText.textContent = `Export failed after ${f.integer(rows.length)} orders; nothing was saved.`;
      el.exportBox.dataset.state = "failed";
    }
  } finally {
    finished = true;
    state.exportCtrl = null;
    const hadFocus = document.activeElement === el.exportCancel;
    el.exportCancel.disabled = true;
    updatePager();
    if (hadFocus) el.exportBtn.focus();
  }
}

// ---------------------------------------------------------------- withdrawal info
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

async function lookupWithdrawal() {
  const symbol = el.wSymbol.value.trim().toUpperCase();
  el.wSymbol.value = symbol;
  if (!symbol) { el.wEmpty.textContent = "Type a coin symbol, e.g. USDC."; el.wSymbol.focus(); return; }
  if (state.withdrawalCtrl) state.withdrawalCtrl.abort();
  const ctrl = new AbortController();
  state.withdrawalCtrl = ctrl;
  el.wLookup.disabled = true;
  el.wEmpty.textContent = `Looking up ${symbol}…`;
  try {
    const info = await withClient("withdrawalInfo", (c) => c.withdrawalInfo(symbol, { signal: ctrl.signal }));
    if (ctrl.signal.aborted) return;
    renderError(el.wError, null);
    el.wSymbol.removeAttribute("aria-invalid");
    state.withdrawal = info ? { ...info, address: toRegExp(info.addressRegex), memo: toRegExp(info.memoRegex) } : null;
    if (!info) {
      show(el.wResult, false);
      el.wEmpty.textContent = `The service has no withdrawal info for ${symbol}.`;
      return;
    }
    el.wEmpty.textContent = "";
    renderWithdrawal(state.withdrawal);
  } catch (err) {
    if (isAbort(err) && ctrl.signal.aborted) return;
    el.wEmpty.textContent = "";
    show(el.wResult, false);
    renderError(el.wError, err);
    markInvalid(err);
  } finally {
    if (state.withdrawalCtrl === ctrl) { state.withdrawalCtrl = null; el.wLookup.disabled = !state.connected; }
  }
}

function renderWithdrawal(w) {
  setText($("withdrawal-name"), w.name || w.symbol);
  $("withdrawal-code").textContent = w.symbol;
  const icon = $("withdrawal-icon");
  let iconUrl = null;
  try { if (w.icon) iconUrl = new URL(w.icon, state.conn.baseUrl); } catch { /* ignore */ }
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
  show(el.wMemoField, !!w.memoRegex);
  show(el.wResult, true);
  el.wAddress.placeholder = `Paste a ${w.symbol} address`;
  checkPattern(el.wAddress, el.wAddressResult, w.address, w.addressRegex, "address");
  checkPattern(el.wMemo, el.wMemoResult, w.memo, w.memoRegex, "memo");
}

function checkPattern(input, out, re, src, what) {
  const v = input.value.trim();
  delete out.dataset.valid;
  out.className = "check";
  if (!v) { out.textContent = ""; return; }
  if (!src) { out.textContent = `The service gives no ${what} pattern to check against.`; return; }
  if (!re) { out.textContent = `This browser cannot run the service's ${what} pattern.`; return; }
  const ok = v.length <= 512 && re.test(v);
  out.dataset.valid = String(ok);
  out.classList.add(ok ? "ok" : "bad");
  out.textContent = ok ? `✓ Matches the ${state.withdrawal?.symbol ?? ""} ${what} pattern.` : `✗ Does not match the ${what} pattern.`;
}

// ---------------------------------------------------------------- public key: onchain ramp
/** The ramp panel works once the package has loaded. */
function rampAvailable() {
  return !!state.mod;
}

function setupRamp() {
  const ok = rampAvailable();
  show(el.rampUnavailable, !ok);
  el.rampFieldset.disabled = !ok;
  el.rampBuild.disabled = !ok;
  el.rampPanel = $("ramp-panel");
  el.rampPanel.dataset.available = String(ok);
  if (!ok) el.rampEventsEmpty.textContent = "The package did not load.";
}

/** Warn (with the package's classifyKey) when a secret key is typed where a public one belongs. */
function checkRampKey() {
  const hint = document.getElementById("r-key-hint");
  const kind = state.mod && el.rampKey.value.trim()
    ? state.mod.classifyKey(el.rampKey.value.trim()) : null;
  const secret = kind === "secret";
  el.rampKey.toggleAttribute("aria-invalid", secret);
  if (secret) el.rampKey.setAttribute("aria-invalid", "true");
  hint.classList.toggle("hint-error", secret);
  hint.textContent = secret
    ? "This is a secret (SECK_) key: it must never go into a link or a browser. Use the public (PUBK_) key."
    : "Only a public (PUBK_) key belongs in a link.";
  hint.dataset.kind = kind || "";
}

function readRampOptions() {
  const opt = {
    rampUrl: el.rampPage.value.trim(),
    key: el.rampKey.value.trim(),
    paymentType: el.rampType.value,
    coin: el.rampCoin.value.trim().toUpperCase(),
    network: el.rampNetwork.value.trim().toUpperCase(),
  };
  const optional = { amount: el.rampAmount.value.trim(), currency: el.rampCurrency.value.trim().toUpperCase(),
    reference: el.rampReference.value.trim(), address: el.rampAddress.value.trim() };
  for (const [k, v] of Object.entries(optional)) if (v) opt[k] = v;
  return opt;
}

function buildRampLink() {
  if (!rampAvailable()) return;
  try {
    const url = state.mod.onchainRampUrl(readRampOptions());
    renderError(el.rampError, null);
    el.rampLink.value = url;
    show(el.rampLinkField, true);
    el.rampOpen.disabled = false;
    listenForRamp(new URL(url).origin);
  } catch (err) {
    setSecrets([state.conn.apiKey]);
    renderError(el.rampError, err);
    show(el.rampLinkField, false);
    el.rampOpen.disabled = true;
  }
}

function listenForRamp(origin) {
  if (state.rampOrigin === origin) return;
  if (state.rampStop) state.rampStop();
  state.rampStop = state.mod.listenForRampEvents({
    allowedOrigin: origin,
    onCryptoRequested: (payload) => addRampEvent(payload),
  });
  state.rampOrigin = origin;
}

function addRampEvent(payload) {
  const p = payload;
  const cents = Number(p.amountCents);
  const pr = p.paymentRequest;
  const prText = pr == null ? "—" : typeof pr === "object" ? (pr.reference || pr.id || JSON.stringify(pr)) : String(pr);
  el.rampEvents.prepend(h("li", { class: "event", dataset: { testid: "ramp-event" } },
    h("div", { class: "event-head" },
      h("strong", { dataset: { testid: "ramp-event-amount" } }, Number.isFinite(cents) ? f.money(cents / 100) : "amount unknown"),
      h("span", { class: "muted" }, f.clock())),
    h("div", {}, "to ", h("code", { class: "break", dataset: { testid: "ramp-event-address" } }, p.destinationAddress || "—")),
    h("div", { class: "muted" }, "payment request ", h("span", { dataset: { testid: "ramp-event-request" } }, redact(prText)))));
  show(el.rampEventsEmpty, false);
}

// ---------------------------------------------------------------- connect / boot
async function probeSandbox(baseUrl) {
  try {
    const ctrl = new AbortController();
    const t = setTimeout(() => ctrl.abort(), 3000);
    const res = await fetch(new URL("/__sandbox/info", baseUrl), { signal: ctrl.signal, cache: "no-store" });
    clearTimeout(t);
    if (!res.ok || !(res.headers.get("content-type") || "").includes("json")) return null;
    const info = await res.json();
    return info && typeof info === "object" && info.keys && typeof info.keys === "object" ? info : null;
  } catch { return null; }
}

function applySandbox(info) {
  state.sandbox = info;
  show(el.sandboxBadge, !!info);
  show(el.simBar, !!info);
  if (!info) { el.simulate.value = ""; return; }
  updateSimHint();
  if (!el.rampPage.value && typeof info.rampUrl === "string") {
    // rampUrl is the ramp origin; the hosted page lives at rampPagePath on it.
    try { el.rampPage.value = new URL(info.rampPagePath || "/hosted/ramp", info.rampUrl).href; } catch { el.rampPage.value = info.rampUrl; }
  }
  if (!el.rampKey.value && typeof info.keys.MERCHANT_PUBLIC_KEY === "string") el.rampKey.value = info.keys.MERCHANT_PUBLIC_KEY;
  checkRampKey();
  const max = Number(info.maxPerPage);
  if (max > 0) {
    for (const opt of [...el.perPage.options]) opt.disabled = Number(opt.value) > max;
  }
}

/** "https://host/" → "https://host"; null unless it is an http(s) URL. */
function normalizeBase(raw) {
  try {
    const u = new URL(String(raw).trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.href.replace(/\/+$/, "") : null;
  } catch { return null; }
}

async function connect() {
  const baseUrl = normalizeBase(el.baseUrl.value);
  if (!baseUrl) {
    el.connStatus.textContent = "Enter the service's base URL, e.g. https://staging.example.";
    el.connStatus.dataset.state = "error";
    el.baseUrl.focus();
    return;
  }
  const apiKey = el.apiKey.value.trim();
  setConnection(baseUrl, apiKey);
  saveRemembered();
  try {
    // Constructing a client checks the options (e.g. the URL) before anything is sent.
    const probe = new state.mod.BotClient({ baseUrl, apiKey: apiKey || undefined });
    if (typeof probe.free === "function") probe.free();
  } catch (err) {
    const d = describe(err);
    el.connStatus.textContent = `${d.code}: ${d.message}`;
    el.connStatus.dataset.state = "error";
    return;
  }
  el.connStatus.textContent = apiKey ? "Connecting…" : "Connecting without a key…";
  el.connStatus.dataset.state = "busy";
  if (state.sandboxBase !== baseUrl) {
    state.sandboxBase = baseUrl;
    applySandbox(await probeSandbox(baseUrl));
  }
  state.connected = true;
  for (const b of [el.profileRefresh, el.apply, el.wLookup]) b.disabled = false;
  state.orders.rows = [];
  state.orders.total = null;
  await Promise.all([loadProfile(), loadOrders(1), el.wSymbol.value.trim() ? lookupWithdrawal() : null]);
}

function bind() {
  el.connForm.addEventListener("submit", (e) => { e.preventDefault(); connect(); });
  el.remember.addEventListener("change", saveRemembered);
  el.apiKey.addEventListener("input", () => { if (el.remember.checked) saveRemembered(); });
  el.baseUrl.addEventListener("input", () => { if (el.remember.checked) saveRemembered(); });
  el.toggleKey.addEventListener("click", () => {
    const showing = el.apiKey.type === "text";
    el.apiKey.type = showing ? "password" : "text";
    el.toggleKey.textContent = showing ? "Show" : "Hide";
    el.toggleKey.setAttribute("aria-pressed", String(!showing));
  });
  el.simulate.addEventListener("change", updateSimHint);
  el.profileRefresh.addEventListener("click", () => loadProfile());

  el.filters.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!state.connected) return;
    loadOrders(1, { filter: readFilter() });
  });
  el.clear.addEventListener("click", () => {
    el.filters.reset();
    el.perPage.value = String(state.orders.perPage);
    if (!state.connected) return;
    loadOrders(1, { filter: {} });
  });
  el.perPage.addEventListener("change", () => {
    const first = (state.orders.page - 1) * state.orders.perPage;
    const perPage = Number(el.perPage.value);
    if (state.connected) loadOrders(Math.floor(first / perPage) + 1, { perPage });
    else state.orders.perPage = perPage;
  });
  el.pageFirst.addEventListener("click", () => loadOrders(1));
  el.pagePrev.addEventListener("click", () => loadOrders(Math.max(1, state.orders.page - 1)));
  el.pageNext.addEventListener("click", () => loadOrders(state.orders.page + 1));
  el.pageLast.addEventListener("click", () => loadOrders(pageCount() || 1));
  el.exportBtn.addEventListener("click", () => exportCsv());
  el.exportCancel.addEventListener("click", () => { if (state.exportCtrl) state.exportCtrl.abort(); });

  el.wForm.addEventListener("submit", (e) => { e.preventDefault(); if (state.connected) lookupWithdrawal(); });
  el.wAddress.addEventListener("input", () => {
    const w = state.withdrawal;
    if (w) checkPattern(el.wAddress, el.wAddressResult, w.address, w.addressRegex, "address");
  });
  el.wMemo.addEventListener("input", () => {
    const w = state.withdrawal;
    if (w) checkPattern(el.wMemo, el.wMemoResult, w.memo, w.memoRegex, "memo");
  });

  el.rampForm.addEventListener("submit", (e) => { e.preventDefault(); buildRampLink(); });
  el.rampKey.addEventListener("input", checkRampKey);
  el.rampOpen.addEventListener("click", () => {
    if (!el.rampLink.value) return;
    el.rampFrame.src = el.rampLink.value;
    show(el.rampFrameWrap, true);
    el.rampFrameWrap.scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
  el.rampCopy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(el.rampLink.value);
      el.rampCopy.textContent = "Copied";
    } catch {
      el.rampLink.select();
      el.rampCopy.textContent = "Press Ctrl+C";
    }
    setTimeout(() => { el.rampCopy.textContent = "Copy"; }, 1500);
  });
  el.activityClear.addEventListener("click", () => { el.activity.replaceChildren(); show(el.activityEmpty, true); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state.exportCtrl) state.exportCtrl.abort();
  });
}

async function boot() {
  bind();
  el.baseUrl.value = location.origin;
  const saved = loadRemembered();
  if (saved) {
    if (typeof saved.baseUrl === "string" && saved.baseUrl) el.baseUrl.value = saved.baseUrl;
    if (typeof saved.apiKey === "string") el.apiKey.value = saved.apiKey;
    el.remember.checked = true;
  }
  el.perPage.value = String(state.orders.perPage);

  // The package: loaded dynamically so a missing build is a readable message, not a blank page.
  try {
    const mod = await import(PKG_URL);
    await mod.default();
    state.mod = mod;
    el.pkgStatus.replaceChildren(h("span", { class: "pkg-name" }, "settlement-wasm "), "ready");
    el.pkgStatus.dataset.state = "ok";
    const names = Object.keys(mod).filter((n) => n !== "default" && !n.startsWith("__")).sort();
    el.pkgExports.textContent = `Exports: ${names.join(", ")}.`;
  } catch (err) {
    el.pkgStatus.textContent = "Package not loaded";
    el.pkgStatus.dataset.state = "error";
    el.connStatus.textContent = `Could not load the settlement-wasm package from ${PKG_URL} (${describe(err).message}). Build it with “make pkg”.`;
    el.connStatus.dataset.state = "error";
    setupRamp();
    return;
  }
  setupRamp();

  const base = normalizeBase(el.baseUrl.value);
  state.sandboxBase = base;
  const info = base ? await probeSandbox(base) : null;
  applySandbox(info);
  if (info && !el.apiKey.value && typeof info.keys.AGENT_KEY === "string") el.apiKey.value = info.keys.AGENT_KEY;
  el.connect.disabled = false;
  document.body.dataset.ready = "true";
  if (el.apiKey.value) {
    await connect();
  } else {
    el.connStatus.textContent = "Enter the agent API key to connect.";
    el.apiKey.focus();
  }
  document.body.dataset.loaded = "true";
}

boot().catch((err) => {
  el.connStatus.textContent = `The dashboard failed to start: ${describe(err).message}`;
  el.connStatus.dataset.state = "error";
});
