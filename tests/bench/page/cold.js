// Cold start, in a fresh page: from `import()` to the first `profile()` result, for the
// package and for graphql-request, and each one's byte floor (c=floor-…). The page is cold.html?c=<contender>; the key and the
// profile document come from an init script (window.__bench), never from the URL.
// Sets window.coldResult = { importToProfile, navToProfile } (ms; navigation starts at 0).
const { key, profileDocument } = window.__bench;
const c = new URLSearchParams(location.search).get("c");
const base = location.origin;
const t0 = performance.now();
let ok, tReady;
if (c === "gql") {
  const { GraphQLClient } = await import("/vendor/graphql-request.js");
  tReady = performance.now();
  const gql = new GraphQLClient(`${base}/service/bot/graphql`, { headers: { authorization: `Bearer ${key}` } });
  ok = (await gql.request(profileDocument)).profile;
} else if (c.startsWith("floor-")) {
  // The byte floor, measured: the same files as the contender, through the same chain, read
  // whole and never parsed, compiled or run; then the same first call with plain fetch.
  // floor-bot / floor-pkg: the entry's files, requested by the page's preload links (at once,
  // as its hints request them); floor-gql: graphql-request's bundle, after this script (as its
  // import() requests it).
  const files = window.__bench.floorFiles[c.slice("floor-".length)];
  await Promise.all(files.map(async (f) => (await fetch(f)).arrayBuffer()));
  tReady = performance.now();
  const r = await fetch(`${base}/service/bot/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: profileDocument }),
  });
  ok = (await r.json()).data?.profile;
} else {
  // c=pkg: the root entry; c=bot: settlement-wasm/bot.
  const { default: init, BotClient } = await import(c === "bot" ? "/pkg/bot.js" : "/pkg/index.js");
  await init();
  tReady = performance.now();
  ok = await new BotClient({ baseUrl: base, apiKey: key }).profile();
}
const t1 = performance.now();
if (!ok || typeof ok !== "object") throw new Error(`${c}: no profile`);
// Where the time went: each resource's request start and end (Resource Timing), and when the
// module was ready (imported and, for the package, instantiated).
const timeline = performance.getEntriesByType("resource").map((e) => ({
  name: e.name.replace(/^.*\//, "").replace(/\?.*$/, ""), start: e.startTime, end: e.responseEnd,
}));
timeline.push({ name: "(ready)", start: tReady, end: tReady }, { name: "(profile)", start: t1, end: t1 });
window.coldResult = { importToProfile: t1 - t0, navToProfile: t1, start: t0, timeline };
