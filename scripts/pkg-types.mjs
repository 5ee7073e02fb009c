// Called by scripts/build-pkg.sh (step "types"): arranges the package's declarations so they
// type-check in every consumer setup (`tsc --strict`, no skipLibCheck, no extra `lib`; ESM and
// CJS; DOM or @types/node) and hold only the public API.
//   node scripts/pkg-types.mjs <pkg> <staged glue dir> <tsc's declarations dir>
//
// - node/settlement_wasm.d.ts: the option and result types derived from the Rust sources
//   (tsify), from wasm-bindgen's output. The wasm exports there (classes, functions, the shapes
//   they exchange) are the TypeScript shell's internals and are removed; the shell's own
//   classes and functions are declared in types/. The browser glue's .d.ts (staged for the
//   shell, which compiles against it) must be the same file plus wasm-bindgen's init section:
//   checked here.
// - types/*.d.ts: the declarations tsc emitted for the shell (src/), those index.d.ts reaches,
//   their import of the staged glue pointed at node/settlement_wasm.js. Every name they import
//   from it must be one of its public types.
// - Both directories are CommonJS (node/package.json, types/package.json), so index.d.ts (ESM)
//   and index.d.cts (its copy, the `require` types condition) can both re-export them.
// - `[Symbol.dispose]` members are removed: they need lib `esnext.disposable`, which a default
//   project lacks. The runtime method exists where the engine has Symbol.dispose.
// - `MessageEvent` is shadowed by the platform's own (DOM or @types/node, non-generic in
//   @types/node 20) with `data` typed, so `MessageEvent<RampEvent>` compiles in both.
// - The *_bg.wasm.d.ts files describe wasm-bindgen's internal exports; nothing imports them.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const [pkg = "pkg", glueDir, emitted] = process.argv.slice(2);
if (!glueDir || !emitted) {
  console.error("usage: pkg-types.mjs <pkg> <staged glue dir> <tsc declarations dir>");
  process.exit(2);
}
const name = "settlement_wasm";
const fail = (msg) => { console.error(`pkg-types: ${msg}`); process.exit(1); };
const read = (p) => readFileSync(p, "utf8");

// ---- node/settlement_wasm.d.ts: the derived types only ----------------------------------------
const web = read(path.join(glueDir, `${name}.d.ts`));
let shared = read(path.join(pkg, `node/${name}.d.ts`));
const initAt = web.indexOf("\nexport type InitInput = ");
if (initAt < 0) fail(`the staged ${name}.d.ts has no wasm-bindgen init section (did wasm-bindgen change?)`);

// The glue's internal declarations: every class and function (the wasm exports), the shapes
// they exchange (the server build's proxy shapes too), and the error interface the shell's SettlementError class replaces.
const INTERNAL_TYPES = new Set(["AttemptOutcome", "Decision", "SearchStep", "ConfirmationStep", "SettlementError", "SettlementErrorConstructor",
  "ProxyAnswer", "ProxyDecision", "WebhookAnswer", "WebhookRefusal", "WebhookDecision", "WebhookReadBack"]);

/** Index just past the declaration starting at `from` (its closing `}` or `;` at depth 0). */
function declarationEnd(text, from, kind) {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === "\\") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2) + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      i = text.indexOf("\n", i);
    } else if ("({[".includes(c)) {
      depth++;
    } else if (")}]".includes(c)) {
      depth--;
      if (depth === 0 && c === "}" && (kind === "class" || kind === "interface")) return i + 1;
    } else if (c === ";" && depth === 0) {
      return i + 1;
    }
    if (i < 0) break;
  }
  fail(`unterminated declaration at ${text.slice(from, from + 60)}`);
}

/** `text` without the wasm exports and internal shapes (each with its doc comment); and their names. */
function withoutInternals(text) {
  const declaration = /^export (?:declare )?(class|function|interface|type) (\w+)/gm;
  const removed = new Set();
  let out = "";
  let at = 0;
  for (let m; (m = declaration.exec(text));) {
    const [, kind, id] = m;
    if (!(kind === "class" || kind === "function" || INTERNAL_TYPES.has(id))) continue;
    // With the doc comment right above it, if any.
    let start = m.index;
    const before = text.slice(at, start);
    const doc = /\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.exec(before);
    if (doc) start = at + doc.index;
    const end = declarationEnd(text, m.index, kind);
    out += text.slice(at, start);
    at = end;
    declaration.lastIndex = end;
    removed.add(id);
  }
  return { text: out + text.slice(at), removed };
}

// The browser glue (`--features npm`) and the Node glue (the server build, `--features server`)
// differ only in their wasm exports: the derived types must be the same.
// One difference is expected: the error code `too_large` (a webhook body over its limit) exists
// only in the server build, so the browser's wasm stays as it was; the shared file keeps it.
const { text: webTypes } = withoutInternals(web.slice(0, initAt));
const stripped = withoutInternals(shared);
const blankLines = (t) => t.replace(/\n\s*\n/g, "\n\n").trim();
const SERVER_ONLY_CODE = ' | "too_large"';
const browserCodes = (t) => t.replace(/^(export type SettlementErrorCode = .*?) \| "too_large";$/m, "$1;");
if (!/^export type SettlementErrorCode = .* \| "too_large";$/m.test(stripped.text)) {
  fail(`node/${name}.d.ts's SettlementErrorCode has no${SERVER_ONLY_CODE} (the server build's own code)`);
}
if (blankLines(webTypes) !== blankLines(browserCodes(stripped.text))) {
  fail(`the browser glue's ${name}.d.ts (without its init section and wasm exports) differs from node/${name}.d.ts's types; one shared file no longer fits`);
}
shared = stripped.text;
const removed = stripped.removed;
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
for (const id of removed) {
  if (new RegExp(`\\b${id}\\b`).test(code(shared))) fail(`node/${name}.d.ts still refers to the internal ${id}`);
}

const disposeLine = /^[ \t]*\[Symbol\.dispose\]\(\): void;\r?\n/gm;
shared = shared.replace(disposeLine, "");
if (/Symbol\.dispose/.test(shared)) fail("a Symbol.dispose member is left in the declarations");

/**
 * Every optional property declared as accepting `undefined` too (`name?: T | undefined`): the
 * package treats a property set to `undefined` as absent, and apps compiled with
 * `exactOptionalPropertyTypes` pass `{ signal: maybeSignal }`. Found with the TypeScript parser
 * (property signatures and class properties with `?`); a function or conditional type is
 * parenthesised first, so the union applies to the property.
 */
function optionalAcceptsUndefined(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  const includesUndefined = (t) => t.kind === ts.SyntaxKind.UndefinedKeyword ||
    (ts.isUnionTypeNode(t) && t.types.some(includesUndefined)) || (ts.isParenthesizedTypeNode(t) && includesUndefined(t.type));
  const visit = (node) => {
    if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && node.questionToken && node.type &&
      !includesUndefined(node.type)) {
      const t = node.type;
      const wrap = ts.isFunctionTypeNode(t) || ts.isConstructorTypeNode(t) || ts.isConditionalTypeNode(t);
      if (wrap) edits.push([t.getStart(source), "("]);
      edits.push([t.getEnd(), wrap ? ") | undefined" : " | undefined"]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const [at, insert] of edits.sort((x, y) => y[0] - x[0])) text = text.slice(0, at) + insert + text.slice(at);
  return text;
}
shared = optionalAcceptsUndefined(shared, `${name}.d.ts`);

const header = `// The option and result types derived from the Rust sources, shared by index.d.ts (import) and
// index.d.cts (require); see scripts/pkg-types.mjs.
// The platform's MessageEvent (DOM lib or @types/node) with \`data\` typed.
type MessageEvent<T = unknown> =
  (typeof globalThis extends { readonly MessageEvent: abstract new (...args: any) => infer E } ? E : { readonly origin: string })
  & { readonly data: T };
`;
shared = header + shared.replace(/^\/\* (tslint|eslint)[:-]disable \*\/\n/gm, "").replace(/\n{3,}/g, "\n\n").trimEnd() +
  "\n\n// Only the declarations marked `export` are the package's.\nexport {};\n";
writeFileSync(path.join(pkg, `node/${name}.d.ts`), shared);
rmSync(path.join(pkg, `node/${name}_bg.wasm.d.ts`), { force: true });
const publicTypes = new Set([...shared.matchAll(/^export (?:declare )?(?:interface|type|class|const|function) (\w+)/gm)].map((m) => m[1]));

// ---- types/: the shell's declarations that index.d.ts reaches --------------------------------
const GLUE = `./glue/${name}.js`;
const typesDir = path.join(pkg, "types");
rmSync(typesDir, { recursive: true, force: true });
mkdirSync(typesDir, { recursive: true });
// index.d.ts (every entry of the root); bot.d.ts and merchant.d.ts (the per-client entries,
// settlement-wasm/bot and /merchant); server.d.ts, proxy.d.ts and webhook.d.ts (the server
// entries' MerchantClient, createProxyHandler and the webhook receiver, through node.d.ts and
// merchant-node.d.ts).
const queue = ["index.d.ts", "bot.d.ts", "merchant.d.ts", "server.d.ts", "proxy.d.ts", "webhook.d.ts"];
const copied = new Set();
while (queue.length) {
  const file = queue.shift();
  if (copied.has(file)) continue;
  copied.add(file);
  const p = path.join(emitted, file);
  if (!existsSync(p)) fail(`${p} is missing (did tsc emit the declarations?)`);
  let text = read(p);
  for (const m of text.matchAll(/^(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)";/gm)) {
    const [, names, from] = m;
    if (from === GLUE) {
      for (const n of names.split(",").map((s) => s.trim().replace(/^type\s+/, "")).filter(Boolean)) {
        if (!publicTypes.has(n)) fail(`types/${file} uses ${n} from the glue, which is not one of its public types`);
      }
    } else if (from.startsWith("./") && from.endsWith(".js") && !from.slice(2).includes("/")) {
      queue.push(from.slice(2).replace(/\.js$/, ".d.ts"));
    } else {
      fail(`types/${file} imports ${from}: only the shell's own modules and the glue's types can be referenced`);
    }
  }
  if (/\bimport\(/.test(text)) fail(`types/${file} has an import() type`);
  text = optionalAcceptsUndefined(text.split(`"${GLUE}"`).join(`"../node/${name}.js"`), file);
  writeFileSync(path.join(typesDir, file), text);
}
writeFileSync(path.join(typesDir, "package.json"), `{\n  "type": "commonjs"\n}\n`);
const files = new Set(JSON.parse(read(path.join(pkg, "package.json"))).files);
for (const f of [...copied, "package.json"].map((f) => `types/${f}`)) {
  if (!files.has(f)) fail(`${f} is not in package.json's "files" (pkg-template/package.json)`);
}

// ---- index.d.cts, node.d.cts: the same declarations as index.d.ts / node.d.ts, read as CommonJS
const esm = read(path.join(pkg, "index.d.ts"));
for (const from of [`./node/${name}.js`, "./types/index.js"]) {
  if (!esm.includes(`from "${from}"`)) fail(`index.d.ts must re-export ${from}`);
}
writeFileSync(path.join(pkg, "index.d.cts"),
  esm.replace(/^\/\/ Types of settlement-wasm:.*$/m,
    "// Types of settlement-wasm for `require` (CommonJS) consumers: a copy of index.d.ts."));
const nodeEsm = read(path.join(pkg, "node.d.ts"));
for (const from of ["./index.js", "./types/server.js", "./types/proxy.js", "./types/webhook.js"]) {
  if (!nodeEsm.includes(`from "${from}"`)) fail(`node.d.ts must re-export ${from}`);
}
writeFileSync(path.join(pkg, "node.d.cts"),
  nodeEsm.replace(/^\/\/ Types of settlement-wasm's server entries.*$/m,
    "// Types of settlement-wasm's server entries for `require` (CommonJS): a copy of node.d.ts.")
    .replace('from "./index.js"', 'from "./index.cjs"'));
// bot.d.cts, merchant.d.cts, merchant-node.d.cts: the per-client entries' copies, the same way.
const copies = [
  ["bot.d.ts", ["./node/settlement_wasm.js", "./types/bot.js"]],
  ["merchant.d.ts", ["./node/settlement_wasm.js", "./types/merchant.js"]],
  ["merchant-node.d.ts", ["./merchant.js", "./types/server.js"]],
];
for (const [file, froms] of copies) {
  const text = read(path.join(pkg, file));
  for (const from of froms) if (!text.includes(`from "${from}"`)) fail(`${file} must re-export ${from}`);
  const cts = file.replace(/\.d\.ts$/, ".d.cts");
  writeFileSync(path.join(pkg, cts),
    `// A copy of ${file} for \`require\` (CommonJS) consumers.\n` + text.replace('from "./merchant.js"', 'from "./merchant.cjs"'));
}
console.log(`pkg-types: node/${name}.d.ts without the wasm exports (${[...removed].sort().join(", ")}); ` +
  `types/ ${[...copied].sort().join(", ")}; index.d.cts, node.d.cts, ${copies.map(([f]) => f.replace(/\.d\.ts$/, ".d.cts")).join(", ")} written`);
