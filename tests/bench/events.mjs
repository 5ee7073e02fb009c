// The cost of events per call, in Node, with no network: a `fetch` that answers at once.
//   node tests/bench/events.mjs [path/to/pkg]   (after scripts/build-pkg.sh; pkg/ by default;
//   a package without `on` (an older build) runs the no-listener case only, as a baseline)
// Prints the median per-call time of `profile({ fields: ["id"] })` with no listener, with a
// listener on every event type, and with a logger, interleaved in groups so drift hits all
// three alike. EVENTS_ROUNDS (40 groups), EVENTS_GROUP (200 calls per group).
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(import.meta.url);
const { BotClient } = require(resolve(process.argv[2] || new URL("../../pkg", import.meta.url).pathname, "node/index.cjs"));

const body = JSON.stringify({ data: { profile: { id: "agent-1" } } });
const headers = { "content-type": "application/json", "x-request-id": "req-1" };
const fetch = async () => new Response(body, { status: 200, headers });
const base = { endpoint: "https://settlement.invalid/graphql", apiKey: "SBX-AGNT_benchKey12345678", fetch };

const plain = new BotClient(base);
const observable = typeof plain.on === "function";
let seen = 0;
const variants = { "no listener": plain };
if (observable) {
  const listened = new BotClient(base);
  for (const t of ["request", "response", "retry", "error", "done"]) listened.on(t, () => { seen += 1; });
  variants["a listener per type"] = listened;
  variants.logger = new BotClient({ ...base, logger: { debug() {}, info() {}, warn() {}, error() {} } });
}

const rounds = Number(process.env.EVENTS_ROUNDS || 40);
const group = Number(process.env.EVENTS_GROUP || 200);
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let w = 0; w < 3; w++) for (const c of Object.values(variants)) for (let i = 0; i < group; i++) await c.profile({ fields: ["id"] });
for (let r = 0; r < rounds; r++) {
  for (const [name, c] of Object.entries(variants)) {
    const t0 = performance.now();
    for (let i = 0; i < group; i++) await c.profile({ fields: ["id"] });
    times[name].push((performance.now() - t0) / group);
  }
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const base0 = med(times["no listener"]);
for (const [name, xs] of Object.entries(times)) {
  const m = med(xs);
  console.log(`${name.padEnd(22)} ${(m * 1000).toFixed(1).padStart(7)} µs/call  ${(m / base0).toFixed(3)} x  +${((m - base0) * 1000).toFixed(1)} µs`);
}
console.log(`events delivered: ${seen}`);
