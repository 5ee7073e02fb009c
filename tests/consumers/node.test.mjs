// Node consumers of the installed tarball, each in its own process: ESM import, CommonJS
// require, a TypeScript CommonJS file compiled by tsc (default-import interop), and the
// wasm_load errors of the Node entries and of the browser entry's init(url) under Node.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AGENT_KEY, EMAIL, PKG_DIR, SANDBOX_URL, TOOLS, WORK, project, requireEnv, run, serve } from "./support.mjs";

requireEnv();
const EXPECTED = `${EMAIL}: 10 orders`;
const env = { BASE_URL: SANDBOX_URL, AGENT_KEY };

const CALLS = `
  const bot = new BotClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.AGENT_KEY });
  const profile = await bot.profile();
  const page = await bot.orderHistory({ page: 1, perPage: 10 });
  console.log(\`\${profile.email}: \${page.data.length} orders\`);
`;

async function node(dir, file) {
  const { code, out } = await run(process.execPath, [file], { cwd: dir, env });
  assert.equal(code, 0, out);
  return out.trim();
}

test("Node ESM: import { BotClient } from \"settlement-wasm\"", async () => {
  const dir = project("node-esm", { "main.mjs": `import init, { BotClient } from "settlement-wasm";\nawait init();\n${CALLS}` });
  assert.equal(await node(dir, "main.mjs"), EXPECTED);
});

test("Node CommonJS: require(\"settlement-wasm\")", async () => {
  const dir = project("node-cjs", {
    "main.cjs": `const { BotClient } = require("settlement-wasm");\n(async () => {\n${CALLS}\n})().catch((e) => { console.error(e); process.exit(1); });\n`,
  });
  assert.equal(await node(dir, "main.cjs"), EXPECTED);
});

test("TypeScript CommonJS (.cts, compiled by tsc): the default import is init", async () => {
  const dir = project("node-cts", {
    "main.cts": `import init, { BotClient } from "settlement-wasm";\nasync function main(): Promise<void> {\n  await init();\n${CALLS}}\nvoid main();\n`,
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, module: "node16", moduleResolution: "node16", target: "es2022", types: ["node"], outDir: "out" },
      files: ["main.cts"],
    }),
  });
  const tsc = await run(path.join(TOOLS, "typescript/bin/tsc"), ["-p", "tsconfig.json"], { cwd: dir });
  assert.equal(tsc.code, 0, tsc.out);
  assert.equal(await node(dir, "out/main.cjs"), EXPECTED);
});

// A copy of the package with node/settlement_wasm_bg.wasm removed.
function brokenNodePackage(name) {
  const dir = project(name);
  const copy = path.join(dir, "node_modules", "settlement-wasm");
  cpSync(PKG_DIR, copy, { recursive: true });
  rmSync(path.join(copy, "node", "settlement_wasm_bg.wasm"));
  return dir;
}

const REPORT = `(e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message, cause: e.cause && e.cause.code }))`;

test("Node, .wasm missing: require() throws a SettlementError wasm_load naming the file and the fix", async () => {
  const dir = brokenNodePackage("node-broken-cjs");
  writeFileSync(path.join(dir, "main.cjs"),
    `try { require("settlement-wasm"); console.log("loaded"); } catch (e) { (${REPORT})(e); }\n`);
  const e = JSON.parse(await node(dir, "main.cjs"));
  assert.equal(e.name, "SettlementError");
  assert.equal(e.code, "wasm_load");
  assert.match(e.message, /node\/settlement_wasm_bg\.wasm is missing.*reinstall/);
  assert.equal(e.cause, "ENOENT");
});

test("Node, .wasm missing: import rejects with the same SettlementError", async () => {
  const dir = brokenNodePackage("node-broken-esm");
  writeFileSync(path.join(dir, "main.mjs"),
    `import("settlement-wasm").then(() => console.log("loaded"), ${REPORT});\n`);
  // Node 20 also reports an error thrown by a CommonJS module under `import` as uncaught
  // (exit code 1) after the importer's handler ran: the handler's line is what is checked.
  const { out } = await run(process.execPath, ["main.mjs"], { cwd: dir, env });
  const e = JSON.parse(out.split("\n")[0]);
  assert.equal(e.code, "wasm_load");
  assert.equal(e.name, "SettlementError");
  assert.match(e.message, /node\/settlement_wasm_bg\.wasm is missing/);
});

let server;
before(async () => { server = await serve(WORK); });
after(async () => { await server?.close(); });

test("browser entry under Node: init(url) answered 404 rejects with wasm_load saying to pass init(url)", async () => {
  // The exports map gives Node its own entry; the browser entry is imported by path.
  const dir = project("node-web-404");
  const entry = path.join(PKG_DIR, "index.js");
  writeFileSync(path.join(dir, "main.mjs"),
    `const { default: init, SettlementError } = await import(${JSON.stringify(entry)});
try { await init(${JSON.stringify(`${server.url}/missing.wasm`)}); console.log("loaded"); }
catch (e) { console.log(JSON.stringify({ is: e instanceof SettlementError, code: e.code, message: e.message, cause: String(e.cause) })); }
`);
  const e = JSON.parse(await node(dir, "main.mjs"));
  assert.equal(e.is, true);
  assert.equal(e.code, "wasm_load");
  assert.match(e.message, /HTTP 404/);
  assert.match(e.message, /pass init\(url\)/);
  assert.match(e.cause, /failed to fetch Wasm: 404/);
});

test("browser entry under Node: initSync with bytes that are not WebAssembly throws wasm_load", async () => {
  const dir = project("node-web-bytes");
  const entry = path.join(PKG_DIR, "index.js");
  writeFileSync(path.join(dir, "main.mjs"),
    `const { initSync, SettlementError } = await import(${JSON.stringify(entry)});
try { initSync(new TextEncoder().encode("<!doctype html><p>not wasm")); console.log("loaded"); }
catch (e) { console.log(JSON.stringify({ is: e instanceof SettlementError, code: e.code, message: e.message })); }
`);
  const e = JSON.parse(await node(dir, "main.mjs"));
  assert.equal(e.is, true);
  assert.equal(e.code, "wasm_load");
  assert.match(e.message, /not WebAssembly.*HTML page/);
});

test("browser entry under Node: what init()/initSync() cannot load is invalid_input naming the argument", async () => {
  const dir = project("node-web-input");
  const entry = path.join(PKG_DIR, "index.js");
  writeFileSync(path.join(dir, "main.mjs"),
    `const { default: init, initSync } = await import(${JSON.stringify(entry)});
const seen = [];
for (const bad of [42, { module_or_path: 42 }, null]) {
  try { await init(bad); seen.push("resolved"); } catch (e) { seen.push([e.name, e.code, e.field]); }
}
try { initSync("settlement_wasm_bg.wasm"); seen.push("returned"); } catch (e) { seen.push([e.name, e.code, e.field]); }
console.log(JSON.stringify(seen));
`);
  const seen = JSON.parse(await node(dir, "main.mjs"));
  const input = ["SettlementError", "invalid_input", "input"];
  assert.deepEqual(seen, [input, input, input, ["SettlementError", "invalid_input", "moduleOrBytes"]]);
});
