// The long run of generated hostile bodies through one Node createProxyHandler (the built node
// entry, in front of the sandbox): STRESS_BODIES (default 10,000) bodies from a seeded
// generator (tests/js/generated.mjs), each checked (no trap, no 500, nothing forwarded that the
// client would not send), then 1,000 ordinary calls in the same process must all succeed.
// Run by scripts/stress.sh (through scripts/with-sandbox.sh).
import { createRequire } from "node:module";
import { runGenerated } from "../js/generated.mjs";

process.env.SETTLEMENT_WASM_TEST_HOOKS = "1";
const COUNT = Number(process.env.STRESS_BODIES || 10_000);
const SEED = Number(process.env.GENERATED_SEED || 2828);
const { SANDBOX_URL, AGENT_KEY, MERCHANT_SECRET_KEY } = process.env;
if (!SANDBOX_URL || !AGENT_KEY) throw new Error("run through scripts/with-sandbox.sh");
const api = createRequire(import.meta.url)("../../pkg/node/index.cjs");
const hooks = globalThis[Symbol.for("settlement-wasm.test")];

const forwarded = [];
const handler = api.createProxyHandler({
  endpoint: "bot", baseUrl: SANDBOX_URL, apiKey: AGENT_KEY,
  allow: ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal"],
  fetch: (url, init) => {
    forwarded.push(init.body);
    return /^\{"query":"mutation/.test(init.body)
      ? Promise.resolve(new Response('{"data":null}', { status: 200, headers: { "content-type": "application/json" } }))
      : fetch(url, init);
  },
});
const figures = await runGenerated(handler, forwarded, { seed: SEED, count: COUNT });
if (hooks.generation() !== 0) throw new Error(`the instance was replaced ${hooks.generation()} time(s): a body trapped it`);
console.log(`proxy stress: ${figures.count} generated bodies (seed ${SEED}) in ${(figures.ms / 1000).toFixed(1)} s; ` +
  `statuses ${JSON.stringify(figures.statuses)}; ${figures.forwarded} upstream sends (fixpoint re-sends included); 0 traps`);

const merchant = new api.MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
const profile = JSON.stringify({ query: "query Profile { profile { id email } }", operationName: "Profile" });
const started = Date.now();
for (let i = 0; i < 1000; i++) {
  if (i % 2 === 0) {
    const r = await handler(new Request("http://localhost/api/bot", { method: "POST", body: profile }));
    if (r.status !== 200) throw new Error(`ordinary call ${i}: ${r.status} ${await r.text()}`);
    await r.text();
  } else {
    await merchant.account();
  }
}
console.log(`proxy stress: 1,000 ordinary calls after them all succeeded (${((Date.now() - started) / 1000).toFixed(1)} s)`);
