// In-page benchmark: the package vs plain fetch + JSON.parse vs graphql-request, same
// endpoint, same document, same variables. Driven by tests/bench/bench.mjs (Playwright).
// Exposes window.runBench(config) -> results.
import init, { BotClient } from "/pkg/index.js";
import { GraphQLClient } from "/vendor/graphql-request.js";

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// init() as a page calls it: download of the .wasm (no HTTP cache: new context, and the
// sandbox sends no-cache), compile and instantiate.
window.measureInit = async () => {
  const t0 = performance.now();
  await init();
  return performance.now() - t0;
};

// Instantiation alone: the bytes are fetched first (untimed), then init(bytes) compiles and
// instantiates them.
window.measureInstantiate = async () => {
  const bytes = await (await fetch("/pkg/web/settlement_wasm_bg.wasm")).arrayBuffer();
  const t0 = performance.now();
  await init(bytes);
  return performance.now() - t0;
};

window.runBench = async ({ baseUrl, apiKey, document, perPage, rounds, warmup }) => {
  await init();
  const endpoint = `${baseUrl}/service/bot/graphql`;
  const variables = { page: 1, perPage };
  const bot = new BotClient({ baseUrl, apiKey, maxRetries: 0 });
  const gql = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = () => JSON.stringify({ query: document, variables });
  const contenders = {
    fetch: async () => {
      const res = await fetch(endpoint, {
        method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` }, body: body(),
      });
      const json = JSON.parse(await res.text());
      return json.data.orderHistory.data.length;
    },
    "graphql-request": async () => (await gql.request(document, variables)).orderHistory.data.length,
    "settlement-wasm": async () => (await bot.orderHistory({ page: 1, perPage })).data.length,
  };
  for (const [name, fn] of Object.entries(contenders)) {
    const n = await fn();
    if (n !== perPage) throw new Error(`${name} returned ${n} rows, expected ${perPage}`);
    for (let i = 0; i < warmup; i++) await fn();
  }
  const times = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    // Interleave, rotating the order each round, so drift hits every contender alike.
    const names = Object.keys(contenders);
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      const t0 = performance.now();
      await contenders[name]();
      times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { median: median(xs), min: Math.min(...xs), n: xs.length }]));
};
document.getElementById("out").textContent = "ready";
window.benchReady = true;
