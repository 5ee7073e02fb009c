// Node consumers of the installed tarball, each in its own process: ESM import, CommonJS
// require, a TypeScript CommonJS file compiled by tsc (default-import interop), and the
// wasm_load errors of the Node entries and of the browser entry's init(url) under Node.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
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

const REPORT = `(e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message }))`;

test("Node entry: no file is read at run time (node/index.cjs and index.mjs copied alone, as a bundler does)", async () => {
  const dir = project("node-entry-alone");
  for (const f of ["index.cjs", "index.mjs"]) cpSync(path.join(PKG_DIR, "node", f), path.join(dir, "entry", f));
  writeFileSync(path.join(dir, "entry", "package.json"), "{}\n");
  writeFileSync(path.join(dir, "main.mjs"), `import init, { BotClient } from "./entry/index.mjs";\nawait init();\n${CALLS}`);
  writeFileSync(path.join(dir, "main.cjs"),
    `const { BotClient } = require("./entry/index.cjs");\n(async () => {\n${CALLS}\n})().catch((e) => { console.error(e); process.exit(1); });\n`);
  assert.equal(await node(dir, "main.mjs"), EXPECTED);
  assert.equal(await node(dir, "main.cjs"), EXPECTED);
});

test("Node entry, damaged (its embedded WebAssembly altered): require() throws wasm_load naming the cause, not \"reinstall\"", async () => {
  const dir = project("node-damaged");
  const copy = path.join(dir, "node_modules", "settlement-wasm");
  cpSync(PKG_DIR, copy, { recursive: true });
  const cjs = path.join(copy, "node", "index.cjs");
  const text = readFileSync(cjs, "utf8");
  // The base64 of the module's first bytes (00 61 73 6d = "\0asm") becomes "<!do": not WebAssembly.
  assert.ok(text.includes('"AGFzbQ'), "the Node entry embeds the .wasm as base64");
  writeFileSync(cjs, text.replace('"AGFzbQ', '"PCFkbw'));
  writeFileSync(path.join(dir, "main.cjs"), `try { require("settlement-wasm"); console.log("loaded"); } catch (e) { (${REPORT})(e); }\n`);
  const e = JSON.parse(await node(dir, "main.cjs"));
  assert.equal(e.name, "SettlementError");
  assert.equal(e.code, "wasm_load");
  assert.match(e.message, /node entry.*could not be instantiated.*one version/);
  assert.doesNotMatch(e.message, /reinstall/);
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

// Values from another realm (a vm context: what an edge runtime's sandbox or an iframe hands
// the package), where `instanceof` this realm's classes fails: init() and initSync() take them.
test("browser entry under Node: init() and initSync() take a module, bytes, a URL and a Response from another realm", async () => {
  const dir = project("node-web-realms");
  const entry = path.join(PKG_DIR, "index.js");
  const wasm = path.join(PKG_DIR, "web", "settlement_wasm_bg.wasm");
  const wasmUrl = `${server.url}/node_modules/settlement-wasm/web/settlement_wasm_bg.wasm`;
  writeFileSync(path.join(dir, "main.mjs"), `import vm from "node:vm";
import { readFileSync } from "node:fs";
const bytes = readFileSync(${JSON.stringify(wasm)});
const other = vm.createContext({ bytes });
const foreign = {
  module: () => vm.runInContext("new WebAssembly.Module(new Uint8Array(bytes))", other),
  bytes: () => vm.runInContext("new Uint8Array(bytes)", other),
  arrayBuffer: () => vm.runInContext("new Uint8Array(bytes).buffer", other),
  // vm contexts have no URL or Response: objects with their class tag stand for another realm's.
  url: () => vm.runInContext(\`({ href: ${JSON.stringify(wasmUrl)}, get [Symbol.toStringTag]() { return "URL"; } })\`, other),
  response: async () => { const r = await fetch(${JSON.stringify(wasmUrl)}); return vm.runInContext(
    "(r) => ({ ok: r.ok, status: r.status, statusText: r.statusText, url: r.url, arrayBuffer: () => r.arrayBuffer(), get [Symbol.toStringTag]() { return 'Response'; } })", other)(r); },
};
const seen = {};
let n = 0;
for (const [kind, make] of Object.entries(foreign)) {
  for (const how of kind === "module" || kind === "bytes" ? ["init", "initSync"] : ["init"]) {
    // A fresh instance of the entry each time (init() is memoised).
    const m = await import(${JSON.stringify(entry)} + "?case=" + n++);
    const value = await make();
    if (kind !== "url" && kind !== "response") {
      if (value instanceof WebAssembly.Module || value instanceof Uint8Array || value instanceof ArrayBuffer) throw new Error(kind + " is not foreign");
    }
    try {
      if (how === "init") await m.default(value); else m.initSync(value);
      const bot = new m.BotClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.AGENT_KEY });
      seen[kind + " " + how] = (await bot.profile()).email;
    } catch (e) { seen[kind + " " + how] = e.code + ": " + e.message; }
  }
}
console.log(JSON.stringify(seen));
`);
  const seen = JSON.parse(await node(dir, "main.mjs"));
  const all = ["module init", "module initSync", "bytes init", "bytes initSync", "arrayBuffer init", "url init", "response init"];
  assert.deepEqual(seen, Object.fromEntries(all.map((k) => [k, EMAIL])));
});
