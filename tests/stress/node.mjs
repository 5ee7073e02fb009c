// The soak of the hostile-value cases in one Node process: REPS repetitions of each failing case
// (tests/js/hostile.mjs `repeatCases`), then the whole hostile corpus, then a normal call
// against the sandbox must still succeed. Prints the wasm memory and JS heap before and after.
// Run by scripts/stress.sh (through scripts/with-sandbox.sh).
import { createRequire } from "node:module";
import { repeatCases, hostileCases, settle, badOutcome } from "../js/hostile.mjs";

const REPS = Number(process.env.STRESS_REPS || 100_000);
const { SANDBOX_URL, AGENT_KEY } = process.env;
if (!SANDBOX_URL || !AGENT_KEY) throw new Error("run through scripts/with-sandbox.sh");

// The module's memory, captured as the Node glue instantiates it (it is not exported).
let memory, table;
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  memory = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Memory);
  table = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Table);
  return instance;
};
const api = createRequire(import.meta.url)("../../pkg/node/index.cjs");
WebAssembly.Instance = Instance;
const CODES = ["invalid_input", "unauthorized", "forbidden", "rate_limited", "http", "graphql", "network",
  "timeout", "aborted", "outcome_unknown", "decode", "secret_key_in_browser", "wasm_load"];

const uncaught = [];
process.on("uncaughtException", (e) => uncaught.push(String(e)));
process.on("unhandledRejection", (e) => uncaught.push(String(e)));
const mib = (n) => (n / 1048576).toFixed(2);
const figures = () => { globalThis.gc?.(); return { wasm: memory.buffer.byteLength, heap: process.memoryUsage().heapUsed, table: table.length }; };
const normalCall = async () => {
  const p = await new api.BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY }).profile({ fields: ["id"] });
  if (p.id !== "agent-1") throw new Error(`normal call: unexpected ${JSON.stringify(p)}`);
};

await normalCall();
const before = figures();
let failures = 0;
const started = Date.now();
for (const [name, run] of repeatCases(api)) {
  const t = Date.now();
  for (let i = 0; i < REPS; i++) {
    const why = badOutcome(await settle(run), api.SettlementError, CODES);
    if (why) { failures++; console.error(`node: ${name} #${i}: ${why}`); break; }
  }
  console.log(`node: ${REPS} x ${name}: ${Date.now() - t} ms`);
}
const afterReps = figures();
const corpus = hostileCases(api);
let bad = 0;
for (const [name, run] of corpus) {
  const why = badOutcome(await settle(run), api.SettlementError, CODES);
  if (why) { bad++; console.error(`node corpus: ${name}: ${why}`); }
}
await normalCall();
await new Promise((r) => setTimeout(r, 100));
const after = figures();
console.log(`node: ${repeatCases(api).length} cases x ${REPS} repetitions + ${corpus.length} corpus cases in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
  `${failures} failed cases, ${bad} bad corpus outcomes, ${uncaught.length} uncaught; normal call after: ok`);
console.log(`node: wasm memory ${mib(before.wasm)} MiB -> ${mib(afterReps.wasm)} MiB after the repetitions -> ${mib(after.wasm)} MiB after the corpus; ` +
  `JS heap ${mib(before.heap)} -> ${mib(afterReps.heap)} -> ${mib(after.heap)} MiB; externref table ${before.table} -> ${afterReps.table} -> ${after.table}`);
if (failures || bad || uncaught.length) process.exit(1);
