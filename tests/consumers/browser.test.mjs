// The README's bundler, worker and CSP recipes, built with the pinned tools and opened in
// headless Chromium: each page must load the .wasm and show the sandbox agent's profile email
// and a 10-row order page. Then init()'s failures (CSP, 404, not WebAssembly) must be
// SettlementErrors with code wasm_load naming the fix.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { launch } from "../e2e/support/browser.mjs";
import {
  AGENT_KEY, EMAIL, PKG_DIR, SANDBOX_URL, project, readmeRecipes, requireEnv, run, serve, start,
} from "./support.mjs";

requireEnv();
const recipes = readmeRecipes();
const EXPECTED = `${EMAIL}: 10 orders`;
const SERVICE = new URL(SANDBOX_URL).origin;
let browser;

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A project work/<name> with the package in its own node_modules (as `npm install` leaves it). */
function app(name, files) {
  const dir = project(name, { "package.json": JSON.stringify({ name, private: true, type: "module" }), ...files });
  cpSync(PKG_DIR, path.join(dir, "node_modules", "settlement-wasm"), { recursive: true });
  return dir;
}

function recipe(name, file) {
  const text = recipes[name]?.[file];
  assert.ok(text, `the README has no recipe block "recipe:${name}/${file}"`);
  return text;
}

/**
 * Open `url` with BASE_URL and AGENT_KEY defined as page globals (what the README's recipes
 * use), wait for #out to change from "loading", and return its text plus any page errors.
 */
async function openApp(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  const warnings = [];
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.name}: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "warning") warnings.push(m.text());
    // Chromium asks every origin for /favicon.ico; none of these pages has one.
    if (m.type() === "error" && !/\/favicon\.ico$/.test(m.location()?.url ?? "")) {
      problems.push(`console.error: ${m.text()} (${m.location()?.url})`);
    }
  });
  await page.addInitScript(({ baseUrl, key }) => { globalThis.BASE_URL = baseUrl; globalThis.AGENT_KEY = key; },
    { baseUrl: SANDBOX_URL, key: AGENT_KEY });
  try {
    await page.goto(url, { waitUntil: "load" });
    let text = "";
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      text = (await page.textContent("#out").catch(() => "")) ?? "";
      if (text && text !== "loading") break;
      if (problems.some((p) => p.startsWith("uncaught"))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { text, problems, warnings, requests };
  } finally {
    await context.close();
  }
}

async function expectApp(url) {
  const { text, problems } = await openApp(url);
  assert.equal(text, EXPECTED, `page ${url} showed ${JSON.stringify(text)}; problems: ${problems.join("\n") || "none"}`);
  assert.deepEqual(problems, []);
}

async function built(dir, cmd, args) {
  const { code, out } = await run(cmd, args, { cwd: dir });
  assert.equal(code, 0, `${cmd} ${args.join(" ")} failed:\n${out}`);
  return out;
}

async function servedApp(root, options) {
  const server = await serve(root, options);
  try { await expectApp(`${server.url}/`); } finally { await server.close(); }
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

describe("bundlers (README recipes)", () => {
  test("Vite build: the page loads the emitted .wasm and calls the service", async () => {
    const dir = app("vite", { "index.html": recipe("vite", "index.html"), "main.js": recipe("vite", "main.js") });
    await built(dir, "vite", ["build", "--logLevel", "warn"]);
    await servedApp(path.join(dir, "dist"));
  });

  test("Vite build of a page importing settlement-wasm/bot: it emits and fetches the bot entry's .wasm only", async () => {
    const main = recipe("vite", "main.js").replace('from "settlement-wasm";', 'from "settlement-wasm/bot";');
    assert.notEqual(main, recipe("vite", "main.js"), "the recipe imports settlement-wasm");
    const dir = app("vite-bot", { "index.html": recipe("vite", "index.html"), "main.js": main });
    await built(dir, "vite", ["build", "--logLevel", "warn"]);
    const assets = readdirSync(path.join(dir, "dist", "assets"));
    const emitted = assets.filter((f) => f.endsWith(".wasm"));
    assert.equal(emitted.length, 1, `one .wasm emitted: ${emitted}`);
    const bytes = readFileSync(path.join(dir, "dist", "assets", emitted[0]));
    assert.ok(bytes.equals(readFileSync(path.join(PKG_DIR, "web", "bot_bg.wasm"))), `${emitted[0]} is the bot entry's .wasm`);
    // Nor does its JavaScript carry the other client.
    const js = assets.filter((f) => f.endsWith(".js")).map((f) => readFileSync(path.join(dir, "dist", "assets", f), "utf8")).join("\n");
    assert.doesNotMatch(js, /MerchantClient|classifyKey|core_confirmation/);
    const server = await serve(path.join(dir, "dist"));
    try {
      const { text, problems, requests } = await openApp(`${server.url}/`);
      assert.equal(text, EXPECTED, `problems: ${problems.join("\n") || "none"}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(requests.filter((u) => /\.wasm(\?|$)/.test(u)).map((u) => new URL(u).pathname), [`/assets/${emitted[0]}`]);
    } finally {
      await server.close();
    }
  });

  test("Vite dev server: the same app served by `vite`", async () => {
    const dir = app("vite-dev", { "index.html": recipe("vite", "index.html"), "main.js": recipe("vite", "main.js") });
    const port = await freePort();
    const server = start("vite", ["--host", "127.0.0.1", "--port", String(port), "--strictPort"], { cwd: dir });
    try {
      const deadline = Date.now() + 30_000;
      while (!/Local:/.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.match(server.output(), /Local:/, `vite did not start:\n${server.output()}`);
      await expectApp(`http://127.0.0.1:${port}/`);
    } finally {
      await server.stop();
    }
  });

  test("webpack 5 production build, no configuration", async () => {
    const dir = app("webpack", {
      "src/index.js": recipe("vite", "main.js"), "dist/index.html": recipe("webpack", "dist/index.html"),
    });
    await built(dir, "webpack", ["--mode", "production"]);
    await servedApp(path.join(dir, "dist"));
  });

  test("esbuild with the documented recipe (.wasm subpath, file loader, init(url))", async () => {
    const dir = app("esbuild", {
      "main.js": recipe("esbuild", "main.js"), "build.sh": recipe("esbuild", "build.sh"),
      "dist/index.html": recipe("plain", "index.html"),
    });
    // `npx` resolves to the pinned tool on PATH (tests/consumers/node_modules/.bin).
    await built(dir, "bash", ["-c", `npx() { "$@"; }; set -e; . ./build.sh`]);
    await servedApp(path.join(dir, "dist"));
  });

  test("Rollup with @rollup/plugin-node-resolve and @rollup/plugin-url", async () => {
    const dir = app("rollup", {
      "main.js": recipe("esbuild", "main.js"), "rollup.config.mjs": recipe("rollup", "rollup.config.mjs"),
      "dist/index.html": recipe("plain", "index.html"),
    });
    await built(dir, "rollup", ["-c", "--silent"]);
    await servedApp(path.join(dir, "dist"));
  });
});

describe("module worker, bundled (README: import \"settlement-wasm\" inside a bundler)", () => {
  const byName = () => {
    const text = recipe("worker", "worker.js");
    assert.match(text, /"\.\/node_modules\/settlement-wasm\/index\.js"/);
    return text.replace('"./node_modules/settlement-wasm/index.js"', '"settlement-wasm"');
  };

  test("Vite build bundles the worker and its .wasm", async () => {
    const dir = app("vite-worker", {
      "index.html": recipe("vite", "index.html"), "main.js": recipe("worker", "main.js"), "worker.js": byName(),
    });
    await built(dir, "vite", ["build", "--logLevel", "warn"]);
    await servedApp(path.join(dir, "dist"));
  });

  test("webpack 5 bundles the worker and its .wasm", async () => {
    const dir = app("webpack-worker", {
      "src/index.js": recipe("worker", "main.js"), "src/worker.js": byName(),
      "dist/index.html": recipe("webpack", "dist/index.html"),
    });
    await built(dir, "webpack", ["--mode", "production"]);
    await servedApp(path.join(dir, "dist"));
  });
});

describe("no bundler", () => {
  test("plain <script type=module> page importing node_modules/settlement-wasm/index.js", async () => {
    const dir = app("plain", { "index.html": recipe("plain", "index.html"), "main.js": recipe("plain", "main.js") });
    await servedApp(dir);
  });

  test("a module worker loads the .wasm and calls the service off the main thread", async () => {
    const dir = app("worker", {
      "index.html": recipe("plain", "index.html"), "main.js": recipe("worker", "main.js"),
      "worker.js": recipe("worker", "worker.js"),
    });
    await servedApp(dir);
  });
});

describe("Content-Security-Policy", () => {
  const policy = () => recipe("csp", "policy.txt").trim().replaceAll("https://settlement.example", SERVICE);

  test("the README's strict policy: the plain page and the worker work under it", async () => {
    assert.match(policy(), /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(policy(), /'unsafe-eval'|'unsafe-inline'/);
    const headers = () => ({ "content-security-policy": policy() });
    for (const name of ["plain", "worker"]) {
      const dir = app(`csp-${name}`, {
        "index.html": recipe("plain", "index.html"), "main.js": recipe(name, "main.js"),
        ...(name === "worker" ? { "worker.js": recipe("worker", "worker.js") } : {}),
      });
      await servedApp(dir, { headers });
    }
  });
});

describe("init() failures are SettlementErrors with code wasm_load", () => {
  let server;
  let dir;
  let csp = null;
  let wasmType = null;
  before(async () => {
    dir = app("errors", {
      "index.html": recipe("plain", "index.html"),
      "main.js": `import init, { SettlementError } from "./node_modules/settlement-wasm/index.js";
const wasm = new URLSearchParams(location.search).get("wasm");
try {
  await init(wasm ?? undefined);
  document.querySelector("#out").textContent = "loaded";
} catch (e) {
  document.querySelector("#out").textContent = JSON.stringify({
    isSettlementError: e instanceof SettlementError, name: e.name, code: e.code, message: e.message,
    cause: e.cause ? \`\${e.cause.name}: \${e.cause.message}\` : null,
  });
}
`,
    });
    server = await serve(dir, {
      headers: (p) => ({
        ...(csp ? { "content-security-policy": csp } : {}),
        ...(wasmType && p.endsWith(".wasm") ? { "content-type": wasmType } : {}),
      }),
    });
  });
  after(async () => { await server?.close(); });

  async function failure(t, query, policy) {
    csp = policy;
    const { text } = await openApp(`${server.url}/${query}`);
    assert.notEqual(text, "loaded", "init() should have failed");
    let e;
    assert.doesNotThrow(() => { e = JSON.parse(text); }, `#out: ${text}`);
    assert.equal(e.isSettlementError, true, text);
    assert.equal(e.name, "SettlementError");
    assert.equal(e.code, "wasm_load", text);
    assert.ok(e.cause, `cause kept: ${text}`);
    t.diagnostic(`message: ${e.message}`);
    return e;
  }

  test("the error page itself loads under no policy (the failures below are the cases, not the page)", async () => {
    csp = null;
    const { text } = await openApp(`${server.url}/`);
    assert.equal(text, "loaded");
  });

  test("a policy without 'wasm-unsafe-eval': the message names the directive to add", async (t) => {
    const e = await failure(t, "", `default-src 'self'; script-src 'self'; connect-src 'self' ${SERVICE}`);
    assert.match(e.message, /Content-Security-Policy.*add 'wasm-unsafe-eval' to script-src/);
    assert.match(e.cause, /CompileError|Refused|Content Security Policy/i);
  });

  test("a policy whose connect-src lacks the .wasm's origin: the message names connect-src", async (t) => {
    const e = await failure(t, "", `script-src 'self' 'wasm-unsafe-eval'; connect-src ${SERVICE}`);
    assert.match(e.message, /connect-src/);
    assert.match(e.cause, /TypeError/);
  });

  test("HTTP 404 for the .wasm: the message says to pass init(url)", async (t) => {
    const e = await failure(t, "?wasm=missing.wasm", null);
    assert.match(e.message, /HTTP 404/);
    assert.match(e.message, /pass init\(url\)/);
  });

  test("a real .wasm with the wrong MIME type still loads (the glue falls back; no error to raise)", async () => {
    csp = null;
    wasmType = "application/octet-stream";
    try {
      const { text, warnings } = await openApp(`${server.url}/`);
      assert.equal(text, "loaded");
      assert.ok(warnings.some((w) => /application\/wasm/.test(w)), `the glue's MIME warning: ${warnings}`);
    } finally {
      wasmType = null;
    }
  });

  test("bytes that are not WebAssembly (an HTML page): the message says so", async (t) => {
    const e = await failure(t, "?wasm=index.html", null);
    assert.match(e.message, /not WebAssembly/);
    assert.match(e.message, /HTML page/);
  });
});
