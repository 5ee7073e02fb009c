// RFC 4180 CSV with a formula-injection guard (a text cell starting with = + - @ is prefixed
// with ' so spreadsheets don't evaluate it; numbers are left alone).

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export function cell(value) {
  if (value === undefined || value === null) return "";
  let s = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows (objects) → CSV text; columns are `preferred` first, then any other key in first-seen order. */
export function toCsv(rows, preferred = []) {
  const cols = [...preferred];
  const seen = new Set(cols);
  for (const r of rows) for (const k of Object.keys(r)) if (!seen.has(k)) { seen.add(k); cols.push(k); }
  const used = cols.filter((c) => rows.some((r) => r[c] !== undefined && r[c] !== null));
  const lines = [used.map(cell).join(",")];
  for (const r of rows) lines.push(used.map((c) => cell(r[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

/** Offer `text` as a file download (no server round trip). */
export function download(text, filename) {
  const url = URL.createObjectURL(new Blob(["\uFEFF", text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
