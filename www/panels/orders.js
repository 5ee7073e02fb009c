// Order-history panel: orderHistory() with the five filters and the page size, the pager
// (first/previous/next/last, "page X of Y", the total), loading and empty states, the chart of
// the page's rows (lib/chart.js) and the CSV export (orders-export.js). The rows are drawn by
// orders-table.js; per-order actions plug in as `rowActions` (an "Actions" column) and can
// reload the page shown through the returned `reload()`.
import { $, h } from "../lib/dom.js";
import * as f from "../lib/format.js";
import { isAbort, renderError } from "../lib/errors.js";
import { createChart } from "../lib/chart.js";
import { createOrdersTable } from "./orders-table.js";
import { initExport } from "./orders-export.js";

/**
 * @param {import("../lib/context.js").Context} ctx
 * @param {{ rowActions?: (row: object) => Node | Node[] | null }} [hooks]
 *   adds an "Actions" column with what `rowActions` returns for each row
 */
export function initOrders(ctx, { rowActions } = {}) {
  const el = {
    filters: $("filters"),
    orderId: $("filter-order-id"),
    status: $("filter-status"),
    from: $("filter-date-from"),
    to: $("filter-date-to"),
    method: $("filter-payment-method"),
    methodList: $("method-list"),
    perPage: $("per-page"),
    apply: $("apply-filters"),
    clear: $("clear-filters"),
    summary: $("orders-summary"),
    error: $("orders-error"),
    tableWrap: $("orders-table-wrap"),
    first: $("page-first"),
    prev: $("page-prev"),
    next: $("page-next"),
    last: $("page-last"),
    pageLabel: $("page-label"),
    chartCaption: $("orders-chart-caption"),
  };
  /** `filter`, `perPage` and `total` are those of the rows shown. */
  const o = { page: 1, perPage: 25, filter: {}, total: null, rows: [], ctrl: null, loading: false };
  const methods = new Set(); // payment methods seen, offered in the filter's datalist
  const table = createOrdersTable($("orders-body"), { actions: rowActions });
  const chart = createChart($("orders-chart"));
  const exporter = initExport(ctx, {
    applied: () => ({ filter: o.filter, total: o.total }),
    seen: rememberMethods,
    errorBox: el.error,
    changed: updatePager,
  });
  ctx.fields({
    "filter.orderId": el.orderId, "filter.status": el.status, "filter.dateFrom": el.from,
    "filter.dateTo": el.to, "filter.paymentMethod": el.method, perPage: el.perPage,
  });
  el.perPage.value = String(o.perPage);

  el.filters.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!ctx.connected) return;
    load(1, { filter: readFilter() });
  });
  el.clear.addEventListener("click", () => {
    el.filters.reset();
    el.perPage.value = String(o.perPage);
    if (!ctx.connected) return;
    load(1, { filter: {} });
  });
  el.perPage.addEventListener("change", () => {
    const first = (o.page - 1) * o.perPage;
    const perPage = Number(el.perPage.value);
    if (ctx.connected) load(Math.floor(first / perPage) + 1, { perPage });
    else o.perPage = perPage;
  });
  el.first.addEventListener("click", () => load(1));
  el.prev.addEventListener("click", () => load(Math.max(1, o.page - 1)));
  el.next.addEventListener("click", () => load(o.page + 1));
  el.last.addEventListener("click", () => load(pageCount() || 1));

  function readFilter() {
    const filter = {};
    const orderId = el.orderId.value.trim();
    const method = el.method.value.trim();
    if (orderId) filter.orderId = orderId;
    if (el.status.value) filter.status = el.status.value;
    if (el.from.value) filter.dateFrom = el.from.value;
    if (el.to.value) filter.dateTo = el.to.value;
    if (method) filter.paymentMethod = method;
    return filter;
  }

  /** Load one page. `filter` and `perPage` become the table's only once the page has loaded, so
   *  a refused filter leaves the rows, total and export consistent with what is shown. */
  async function load(page = o.page, { filter = o.filter, perPage = o.perPage } = {}) {
    if (o.ctrl) o.ctrl.abort();
    const ctrl = new AbortController();
    o.ctrl = ctrl;
    o.loading = true;
    updatePager();
    el.tableWrap.setAttribute("aria-busy", "true");
    el.tableWrap.classList.add("loading");
    if (!o.rows.length) table.placeholder("Loading orders…", "loading");
    const summary = el.summary.textContent;
    el.summary.textContent = "Loading…";
    try {
      const fields = await ctx.orderFields();
      const result = await ctx.call("orderHistory", (c) =>
        c.orderHistory({ page, perPage, filter, fields, signal: ctrl.signal }));
      if (ctrl.signal.aborted) return;
      const total = Number(result.pagination?.total ?? 0);
      const pages = Math.max(1, Math.ceil(total / perPage));
      if (total > 0 && result.data.length === 0 && page > pages) {
        // The data shrank under us: show the (new) last page instead of an empty one.
        o.ctrl = null;
        return load(pages, { filter, perPage });
      }
      o.filter = filter;
      o.perPage = perPage;
      o.page = page;
      o.total = total;
      o.rows = result.data || [];
      renderError(el.error, null);
      ctx.markInvalid(null);
      render();
    } catch (err) {
      if (isAbort(err) && ctrl.signal.aborted) return;
      renderError(el.error, err);
      ctx.markInvalid(err);
      el.summary.textContent = o.rows.length && o.total != null ? summary : "Orders could not be loaded.";
      el.perPage.value = String(o.perPage);
      if (!o.rows.length) table.placeholder("No orders loaded.", "empty");
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

  function render() {
    const filtered = describeFilter(o.filter);
    el.summary.textContent = `${f.integer(o.total)} order${o.total === 1 ? "" : "s"}${filtered ? ` · ${filtered}` : ""}`;
    el.summary.dataset.total = String(o.total);
    if (o.rows.length === 0) {
      table.placeholder(filtered ? "No orders match these filters." : "No orders yet.", "empty");
    } else {
      table.rows(o.rows);
    }
    rememberMethods(o.rows);
    chart.update(o.rows);
    el.chartCaption.textContent = o.rows.length ? `(${o.rows.length} rows on this page)` : "(rows on this page)";
  }

  function rememberMethods(rows) {
    for (const r of rows) if (r.paymentMethod) methods.add(String(r.paymentMethod));
    if (el.methodList.children.length === methods.size) return;
    el.methodList.replaceChildren(...[...methods].sort().map((m) => h("option", { value: m })));
  }

  function pageCount() {
    return o.total == null ? null : Math.max(1, Math.ceil(o.total / o.perPage));
  }

  function updatePager() {
    const pages = pageCount();
    const busy = o.loading || !ctx.connected;
    el.pageLabel.textContent = pages == null ? "Page – of –" : `Page ${f.integer(o.page)} of ${f.integer(pages)}`;
    el.pageLabel.dataset.page = String(o.page);
    el.pageLabel.dataset.pages = pages == null ? "" : String(pages);
    el.first.disabled = el.prev.disabled = busy || pages == null || o.page <= 1;
    el.next.disabled = el.last.disabled = busy || pages == null || o.page >= pages;
    exporter.update(o.total);
  }

  return {
    load,
    /** Reload the page shown, with its filters (e.g. after an action changed an order). */
    reload() { return load(); },
    /** The connection is up (again): enable Apply and load the first page afresh. */
    connected() {
      el.apply.disabled = false;
      o.rows = [];
      o.total = null;
      return load(1);
    },
    /** Disable the page sizes above the service's maximum. */
    limitPerPage(maxPerPage) {
      const max = Number(maxPerPage);
      if (max > 0) for (const opt of [...el.perPage.options]) opt.disabled = Number(opt.value) > max;
    },
  };
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
