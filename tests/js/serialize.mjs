// The leak-check serializer shared by the Node suites (tests/js/helpers.mjs) and the
// Chromium binding suite (tests/e2e/binding.test.mjs, which installs it in the page from its
// source text): self-contained, no imports, no Node APIs.

/**
 * Everything an error carries as one string: its own properties (recursively, including a
 * `cause` and any nested Error, whose own properties JSON.stringify would drop), `String(e)`
 * and the stack.
 */
export function serializeErrorText(e) {
  const seen = new Set();
  const walk = (v) => {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) return typeof v === "bigint" ? String(v) : v;
    if (seen.has(v)) return "[circular]";
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const own = {};
    for (const k of Object.getOwnPropertyNames(v)) {
      let x;
      try { x = v[k]; } catch { continue; }
      own[k] = typeof x === "function" ? `[function ${x.name}]` : walk(x);
    }
    if (v instanceof Error) {
      own["[string]"] = String(v);
      if (v.cause !== undefined && !("cause" in own)) own.cause = walk(v.cause);
    }
    return own;
  };
  return JSON.stringify(walk(e)) + String(e) + (e && e.stack ? e.stack : "");
}
