// Display formatting with Intl. Decimals arrive as strings ("12500.50"); Intl.NumberFormat
// formats numeric strings exactly (no float rounding) in current browsers.

const cache = new Map();
function nf(key, options) {
  if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(undefined, options));
  return cache.get(key);
}

function isNumeric(v) {
  return (typeof v === "number" && Number.isFinite(v)) ||
    (typeof v === "string" && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(v));
}

function fmt(value, formatter) {
  if (value === undefined || value === null || value === "") return "—";
  if (!isNumeric(value)) return String(value);
  return formatter.format(typeof value === "string" ? value.trim() : value);
}

/** Money in a currency (ISO 4217); falls back to a plain decimal for unknown codes. */
export function money(value, currency = "USD") {
  let f;
  try {
    f = nf(`money:${currency}`, { style: "currency", currency });
  } catch {
    return `${decimal(value, 2)} ${currency}`;
  }
  return fmt(value, f);
}

/** A decimal with grouping and `min`..`max` fraction digits. */
export function decimal(value, min = 0, max = Math.max(min, 4)) {
  return fmt(value, nf(`dec:${min}:${max}`, { minimumFractionDigits: min, maximumFractionDigits: max }));
}

export function integer(value) {
  return fmt(value, nf("int", { maximumFractionDigits: 0 }));
}

export function percent(fraction) {
  return nf("pct", { style: "percent", maximumFractionDigits: 0 }).format(fraction);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dayFmt = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const dayYearFmt = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const timeFmt = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });

/** An ISO 8601 date-time, shown in UTC (the service's dates, like the filters, are UTC days). */
export function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateTime.format(d);
}

/** "YYYY-MM-DD" → "3 Oct" (or "3 Oct 2025" with year). */
export function day(ymd, withYear = false) {
  const d = new Date(`${ymd}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return ymd;
  return (withYear ? dayYearFmt : dayFmt).format(d);
}

export function clock(date = new Date()) { return timeFmt.format(date); }

export function duration(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

/** "picked_up" → "Picked up"; unknown values pass through readable. */
export function label(value) {
  if (value === undefined || value === null || value === "") return "—";
  const s = String(value).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}
