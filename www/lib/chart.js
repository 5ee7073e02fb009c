// Inline-SVG stacked bar chart: orders per day (UTC date of createdAt) for the loaded rows,
// stacked by status. Re-rendered at the container's width, so text stays readable on phones.
import { h } from "./dom.js";
import { day, label } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";
export const STATUS_ORDER = ["completed", "paid", "picked_up", "pending", "canceled"];

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children) if (c !== undefined && c !== null) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** One source spells it "cancelled": drawn as "canceled" is. */
const same = (st) => (st === "cancelled" ? "canceled" : st);

function statusClass(st) { return STATUS_ORDER.includes(same(st)) ? `s-${same(st)}` : "s-other"; }

function addDays(ymd, n) {
  const d = new Date(`${ymd}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Group rows by day → [{ day, total, byStatus: Map }], every day from first to last. */
export function perDay(rows) {
  const map = new Map();
  for (const r of rows) {
    const m = /^(\d{4}-\d{2}-\d{2})/.exec(r && r.createdAt ? String(r.createdAt) : "");
    if (!m) continue;
    const k = m[1];
    if (!map.has(k)) map.set(k, new Map());
    const st = r.status ?? "unknown";
    map.get(k).set(st, (map.get(k).get(st) || 0) + 1);
  }
  if (map.size === 0) return [];
  const keys = [...map.keys()].sort();
  const out = [];
  for (let d = keys[0], i = 0; d <= keys[keys.length - 1] && i < 3660; d = addDays(d, 1), i++) {
    const byStatus = map.get(d) || new Map();
    let total = 0;
    for (const n of byStatus.values()) total += n;
    out.push({ day: d, total, byStatus });
  }
  return out;
}

export function createChart(container) {
  let lastRows = [];
  let lastWidth = 0;
  const draw = () => render(container, lastRows);
  if ("ResizeObserver" in window) {
    new ResizeObserver(() => {
      const w = Math.round(container.clientWidth);
      if (w !== lastWidth) { lastWidth = w; draw(); }
    }).observe(container);
  }
  return { update(rows) { lastRows = rows || []; draw(); } };
}

function render(container, rows) {
  const days = perDay(rows);
  const total = days.reduce((a, d) => a + d.total, 0);
  container.dataset.days = String(days.filter((d) => d.total > 0).length);
  container.dataset.total = String(total);
  if (days.length === 0) {
    container.replaceChildren(h("p", { class: "chart-empty muted", dataset: { testid: "orders-chart-empty" } }, "No rows to chart."));
    return;
  }
  const W = Math.max(280, Math.round(container.clientWidth || 640));
  const H = 168;
  const m = { top: 12, right: 8, bottom: 26, left: 30 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const max = Math.max(1, ...days.map((d) => d.total));
  const yMax = max <= 4 ? max : Math.ceil(max / 2) * 2;
  const slot = pw / days.length;
  const bw = Math.max(1, Math.min(28, slot * 0.74));
  const y = (v) => m.top + ph - (v / yMax) * ph;

  const peak = days.reduce((a, d) => (d.total > a.total ? d : a), days[0]);
  const first = days[0].day;
  const last = days[days.length - 1].day;
  const summary = `${total} orders from ${day(first, true)} to ${day(last, true)}; busiest day ${day(peak.day, true)} with ${peak.total}.`;

  const svg = s("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Orders per day: ${summary}`, "data-testid": "orders-chart-svg" });
  const grid = s("g", { class: "chart-grid" });
  const ticks = yMax <= 1 ? [0, 1] : [0, yMax / 2, yMax].filter((v) => Number.isInteger(v));
  for (const t of ticks) {
    grid.append(s("line", { x1: m.left, x2: W - m.right, y1: y(t), y2: y(t) }));
    grid.append(s("text", { x: m.left - 6, y: y(t) + 4, "text-anchor": "end" }, String(t)));
  }
  svg.append(grid);

  const bars = s("g", { class: "chart-bars" });
  days.forEach((d, i) => {
    const x = m.left + i * slot + (slot - bw) / 2;
    const g = s("g", { "data-day": d.day, "data-count": d.total });
    const parts = [...d.byStatus.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
    const detail = parts.map(([st, n]) => `${n} ${label(st).toLowerCase()}`).join(", ");
    g.append(s("title", {}, `${day(d.day, true)}: ${d.total} order${d.total === 1 ? "" : "s"}${detail ? ` (${detail})` : ""}`));
    let acc = 0;
    for (const [st, n] of parts) {
      const y0 = y(acc + n);
      g.append(s("rect", { x: x.toFixed(2), y: y0.toFixed(2), width: bw.toFixed(2), height: Math.max(0.5, y(acc) - y0).toFixed(2), class: statusClass(st) }));
      acc += n;
    }
    // A transparent full-height target makes thin bars easy to hover.
    g.append(s("rect", { x: (m.left + i * slot).toFixed(2), y: m.top, width: slot.toFixed(2), height: ph, class: "hit" }));
    bars.append(g);
  });
  svg.append(bars);

  const axis = s("g", { class: "chart-axis" });
  axis.append(s("line", { x1: m.left, x2: W - m.right, y1: m.top + ph, y2: m.top + ph }));
  const nLabels = Math.max(2, Math.min(days.length, Math.floor(pw / 70)));
  const idx = new Set();
  for (let k = 0; k < nLabels; k++) idx.add(Math.round((k * (days.length - 1)) / Math.max(1, nLabels - 1)));
  for (const i of idx) {
    const cx = m.left + i * slot + slot / 2;
    const anchor = days.length === 1 ? "middle" : i === 0 ? "start" : i === days.length - 1 ? "end" : "middle";
    const tx = anchor === "start" ? Math.max(m.left, cx - bw / 2) : anchor === "end" ? Math.min(W - m.right, cx + bw / 2) : cx;
    axis.append(s("text", { x: tx.toFixed(1), y: H - 8, "text-anchor": anchor }, day(days[i].day)));
  }
  svg.append(axis);

  const present = [...new Set(days.flatMap((d) => [...d.byStatus.keys()]))].sort((a, b) => rank(a) - rank(b));
  const legend = h("ul", { class: "legend", "aria-hidden": "true" },
    present.map((st) => h("li", {}, h("span", { class: `swatch ${statusClass(st)}` }), label(st))));
  container.replaceChildren(svg, legend, h("p", { class: "visually-hidden" }, summary));
}

function rank(st) {
  const i = STATUS_ORDER.indexOf(same(st));
  return i === -1 ? STATUS_ORDER.length : i;
}
