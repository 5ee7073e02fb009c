// Tiny DOM helpers: no framework, just enough to build elements without innerHTML
// (every text from the service or the user goes in as a text node).

/** `h("li", { class: "x", dataset: { testid: "y" } }, "text", child)` */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

/** The element with `data-testid="id"` (optionally inside `root`); throws if it is missing. */
export function $(testid, root = document) {
  const el = root.querySelector(`[data-testid="${testid}"]`);
  if (!el) throw new Error(`missing element [data-testid="${testid}"]`);
  return el;
}

export function show(el, visible = true) { el.hidden = !visible; }

/** Set an element's text; "—" for null, undefined and "". */
export function setText(el, value) {
  el.textContent = value === undefined || value === null || value === "" ? "—" : String(value);
}

/** Run `fn` at most once per animation frame with the latest arguments. */
export function perFrame(fn) {
  let pending = null;
  return (...args) => {
    const first = pending === null;
    pending = args;
    if (first) requestAnimationFrame(() => { const a = pending; pending = null; fn(...a); });
  };
}
