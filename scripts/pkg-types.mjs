// Called by scripts/build-pkg.sh (step "types"): makes the package's declarations type-check in
// every consumer setup (`tsc --strict`, no skipLibCheck, no extra `lib`; ESM and CJS; DOM or
// @types/node) and drops the declaration files nothing references. Usage: node scripts/pkg-types.mjs pkg
//
// - One declaration file for both entries: node/settlement_wasm.d.ts. It is CommonJS (node/ has
//   {"type":"commonjs"}), so index.d.ts (ESM) and index.d.cts (CJS, the `require` types
//   condition) can both re-export it. The web glue's .d.ts is the same file plus wasm-bindgen's
//   own init section (index.d.ts declares init itself): checked equal here, then deleted.
// - `[Symbol.dispose]` members are removed: they need lib `esnext.disposable`, which a default
//   project lacks. `free()` stays; the runtime method exists where the engine has Symbol.dispose.
// - `MessageEvent` is shadowed by the platform's own (DOM or @types/node, non-generic in
//   @types/node 20) with `data` typed, so `MessageEvent<RampEvent>` compiles in both.
// - The *_bg.wasm.d.ts files describe wasm-bindgen's internal exports; nothing imports them.
import { readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import path from "node:path";

const pkg = process.argv[2] || "pkg";
const name = "settlement_wasm";
const fail = (msg) => { console.error(`pkg-types: ${msg}`); process.exit(1); };
const read = (p) => readFileSync(path.join(pkg, p), "utf8");

const web = read(`web/${name}.d.ts`);
let shared = read(`node/${name}.d.ts`);
const initAt = web.indexOf("\nexport type InitInput = ");
if (initAt < 0) fail(`web/${name}.d.ts has no wasm-bindgen init section (did wasm-bindgen change?)`);
if (web.slice(0, initAt).trimEnd() !== shared.trimEnd()) {
  fail(`web/${name}.d.ts (without its init section) differs from node/${name}.d.ts; one shared file no longer fits`);
}

const disposeLine = /^[ \t]*\[Symbol\.dispose\]\(\): void;\r?\n/gm;
shared = shared.replace(disposeLine, "");
if (/Symbol\.dispose/.test(shared)) fail("a Symbol.dispose member is left in the declarations");

const header = `// Declarations shared by index.d.ts (import) and index.d.cts (require); see scripts/pkg-types.mjs.
// The platform's MessageEvent (DOM lib or @types/node) with \`data\` typed.
type MessageEvent<T = unknown> =
  (typeof globalThis extends { readonly MessageEvent: abstract new (...args: any) => infer E } ? E : { readonly origin: string })
  & { readonly data: T };
`;
shared = header + shared.trimEnd() + "\n\n// Only the declarations marked `export` are the package's.\nexport {};\n";
writeFileSync(path.join(pkg, `node/${name}.d.ts`), shared);

for (const f of [`web/${name}.d.ts`, `web/${name}_bg.wasm.d.ts`, `node/${name}_bg.wasm.d.ts`]) {
  rmSync(path.join(pkg, f), { force: true });
}

// index.d.cts: the same declarations as index.d.ts, read as CommonJS.
const esm = read("index.d.ts");
if (!esm.includes(`from "./node/${name}.js"`)) fail(`index.d.ts must re-export ./node/${name}.js`);
writeFileSync(path.join(pkg, "index.d.cts"),
  esm.replace(/^\/\/ Types of settlement-wasm:.*$/m,
    "// Types of settlement-wasm for `require` (CommonJS) consumers: a copy of index.d.ts."));
if (!existsSync(path.join(pkg, "index.d.cts"))) fail("index.d.cts not written");
console.log(`pkg-types: ${path.join(pkg, `node/${name}.d.ts`)} shared; index.d.cts written; unreferenced .d.ts removed`);
