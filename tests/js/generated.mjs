// A seeded generator of hostile proxy bodies (GraphQL-ish documents: deep and wide nesting,
// long names, many aliases, fragments, directives, comments, escapes, huge strings and
// numbers; random variables; invalid UTF-8), and the run of N of them through one Node
// `createProxyHandler` with the property checked on each: no trap (the instance is never
// replaced), no 500, nothing forwarded that the client would not send itself (the forwarded
// body is a fixpoint of the proxy, and no variable string is over the client's bound), and a
// normal call works afterwards. Used by tests/js/trap.test.mjs (a few hundred) and
// tests/stress/proxy.mjs (10,000 and more).

/** A small seeded PRNG (mulberry32): the same seed, the same bodies. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal", "account", "marketRate", "id", "email",
  "apiKey", "data", "pagination", "__schema", "__typename", "query", "mutation", "fragment", "on", "Profile", "OrderHistory"];
const PUNCT = ["{", "}", "(", ")", "[", "]", ":", "$", "!", "=", "@", "...", "|", "&", ","];
const OPERATIONS = [
  ["Profile", "query Profile { profile { id email } }"],
  ["OrderHistory", "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { orderHistory(page: $page, perPage: $perPage, filter: $filter) { data { id status } } }"],
  ["WithdrawalInfo", "query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { address } }"],
  ["AcceptWithdrawal", "mutation AcceptWithdrawal($p2pPayment: ID!) { acceptWithdrawal(p2pPayment: $p2pPayment) { id } }"],
];
const ARGS = ["page", "perPage", "filter", "symbol", "p2pPayment", "status", "orderId", "x"];

export function generator(seed) {
  const r = prng(seed);
  const int = (n) => Math.floor(r() * n);
  const pick = (list) => list[int(list.length)];
  const name = () => {
    const k = r();
    if (k < 0.5) return pick(NAMES);
    if (k < 0.9) return "n" + int(1e9).toString(36);
    return "n" + "x".repeat(1 + int(3000));
  };
  const string = () => {
    const k = r();
    if (k < 0.3) return JSON.stringify("s".repeat(int(20000)));
    if (k < 0.6) return `"${"\\n\\u00e9\\\"\\\\".repeat(int(50))}"`;
    if (k < 0.8) return `"""${"x\\\"\"\"".repeat(int(40))}"""`;
    return `"${"\\u".repeat(int(5))}`;
  };
  const piece = () => {
    const k = int(14);
    switch (k) {
      case 0: case 1: case 2: return name();
      case 3: case 4: return pick(PUNCT);
      case 5: return pick(["{", "(", "[", "{ a ", "[[", "{a:"]).repeat(1 + int(6000));
      case 6: return pick(["}", ")", "]"]).repeat(1 + int(6000));
      case 7: { const n = name(); return Array.from({ length: 1 + int(2000) }, (_, i) => `a${i}: ${n}`).join(" "); }
      case 8: return `fragment F on ${name()} { id } ...F`;
      case 9: return `@${name()}(if: true) @skip(if: $x)`;
      case 10: return `# ${"c".repeat(int(100))} {{{{\n`;
      case 11: return string();
      case 12: return `-${"9".repeat(1 + int(400))}.${"1".repeat(int(400))}e+${"7".repeat(1 + int(50))}`;
      default: return "\u{feff}\u0000\u2028";
    }
  };
  const document = () => {
    const pieces = Array.from({ length: int(10) }, piece).join(" ");
    if (r() < 0.5) return pieces;
    const [, doc] = pick(OPERATIONS);
    const at = doc.indexOf("{");
    return `${doc.slice(0, at)} ${pieces} ${doc.slice(at)} ${Array.from({ length: int(3) }, piece).join(" ")}`;
  };
  const json = (depth) => {
    const k = int(depth > 3 ? 6 : 9);
    switch (k) {
      case 0: return null;
      case 1: return r() < 0.5;
      case 2: return (r() - 0.5) * 10 ** int(300);
      case 3: return "U".repeat(int(6000));
      case 4: return pick(["BTC", "usdc", "NG", "ng", "p2p_1", "1", "2026-01-01", "15.55", "", " "]);
      case 5: return int(2 ** 31);
      case 6: return Array.from({ length: int(5) }, () => json(depth + 1));
      default: return Object.fromEntries(Array.from({ length: int(5) }, () => [pick(ARGS), json(depth + 1)]));
    }
  };
  /** The client's own values of each operation (what it sends), some of them replaced. */
  const SAMPLES = { Profile: {}, OrderHistory: { page: 1, perPage: 5 }, WithdrawalInfo: { symbol: "usdc" }, AcceptWithdrawal: { p2pPayment: "p2p_999999" } };
  const clientBody = () => {
    const [operationName, query] = pick(OPERATIONS);
    const variables = { ...SAMPLES[operationName] };
    for (const key of Object.keys(variables)) {
      const k = r();
      if (k < 0.3) variables[key] = json(0);
      else if (k < 0.5) variables[key] = "a".repeat(4090 + int(10));
    }
    if (r() < 0.2) variables.filter = { status: "s".repeat(250 + int(10)) };
    const q = r() < 0.3 ? `# ${"c".repeat(int(40))}\n${query}` : query;
    return { kind: "text", text: JSON.stringify({ query: q, variables, operationName }) };
  };
  /** One body: `{ kind: "text", text }` or `{ kind: "bytes", bytes }` (invalid UTF-8). */
  return function body() {
    if (r() < 0.3) return clientBody();
    const k = r();
    if (k < 0.8) {
      const variables = Object.fromEntries(Array.from({ length: int(4) }, () => [pick(ARGS), json(0)]));
      const operationName = r() < 0.8 ? pick(OPERATIONS)[0] : name();
      return { kind: "text", text: JSON.stringify({ query: document(), variables, operationName }) };
    }
    if (k < 0.88) {
      const n = 1 + int(30000);
      return { kind: "text", text: `{"query":${JSON.stringify(document())},"variables":{"a":${"[".repeat(n)}${"]".repeat(n)}}}` };
    }
    if (k < 0.95) {
      const text = JSON.stringify({ query: pick(OPERATIONS)[1], variables: { symbol: "é" }, operationName: pick(OPERATIONS)[0] });
      const bytes = new TextEncoder().encode(text);
      const at = int(bytes.length);
      const bad = new Uint8Array(bytes.length + 2);
      bad.set(bytes.subarray(0, at));
      // Pairs that are never UTF-8, whatever surrounds them.
      bad.set(pick([[0xff, 0x28], [0xc3, 0x28], [0xed, 0xa0], [0xf8, 0xa0], [0xc3, 0xff], [0x80, 0x80]]), at);
      bad.set(bytes.subarray(at), at + 2);
      return { kind: "bytes", bytes: bad };
    }
    return { kind: "text", text: Array.from({ length: int(20) }, piece).join("") };
  };
}

/**
 * Runs `count` generated bodies (from `seed`) through `handler` (a createProxyHandler whose
 * `fetch` option pushes every forwarded body into `forwarded`). Resolves to the figures:
 * `{ count, statuses, forwarded, ms }`; throws at the first body that breaks the property.
 */
export async function runGenerated(handler, forwarded, { seed = 1, count = 300, maxTextLen = 4096 } = {}) {
  const next = generator(seed);
  const statuses = {};
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const b = next();
    const before = forwarded.length;
    const res = await handler(new Request("http://localhost/api/bot", {
      method: "POST", headers: { "content-type": "application/json" }, body: b.kind === "text" ? b.text : b.bytes,
    }));
    const text = await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status >= 500) throw new Error(`body ${i} (seed ${seed}): ${res.status} ${text.slice(0, 300)}`);
    if (b.kind === "bytes" && res.status !== 400) throw new Error(`body ${i}: invalid UTF-8 answered ${res.status}`);
    for (const sent of forwarded.slice(before)) {
      const { variables = {} } = JSON.parse(sent);
      for (const [k, v] of Object.entries(variables)) {
        if (typeof v === "string" && v.length > maxTextLen) throw new Error(`body ${i}: forwarded ${k} of ${v.length} characters`);
      }
      // What was forwarded is the client's own body: sent again, the very same goes upstream.
      const at = forwarded.length;
      const again = await handler(new Request("http://localhost/api/bot", { method: "POST", body: sent }));
      await again.text();
      if (forwarded[at] !== sent) throw new Error(`body ${i}: the forwarded body is not forwarded unchanged: ${sent.slice(0, 200)}`);
    }
  }
  return { count, statuses, forwarded: forwarded.length, ms: Date.now() - started };
}
