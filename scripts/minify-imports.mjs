// Renames the browser glue to match a module minified by binaryen's
// `wasm-opt --minify-imports-and-exports-and-modules` (which rewrites the .wasm and prints the
// mapping as JSON). wasm-bindgen's names carry incompressible hashes
// (`__wbg_static_accessor_GLOBAL_THIS_003ee833af9699fc`) and appear twice, in the .wasm and in
// the glue; binaryen gives every import, export and module a one- to three-character name.
// This script applies the same renames to the glue, in one pass each:
//   - the import object's module key `"./<name>_bg.js"` becomes the module's new name;
//   - each key of that import object (`name: function(`) becomes the import's new name;
//   - each `wasm.<export>` access becomes `wasm.<new name>`;
//   - imports of a JavaScript snippet module (`./snippets/.../x.js`, from
//     `#[wasm_bindgen(module = ...)]`), which binaryen folds into the same one module, become
//     keys of that module's import object (`<new name>: importN.<name>`), and the snippet's
//     own entry of the returned object is dropped.
// Every rename is checked: each import key occurs exactly once, each renamed export is used
// only as `wasm.<name>`, and no old name is left anywhere in the glue.
// Used by scripts/build-pkg.sh for the browser build:
//   node scripts/minify-imports.mjs <mapping.json> pkg/web/settlement_wasm_bg.wasm pkg/web/settlement_wasm.js
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [mapPath, wasmPath, jsPath] = process.argv.slice(2);
if (!mapPath || !wasmPath || !jsPath) {
  console.error("usage: minify-imports.mjs <mapping.json> <module_bg.wasm> <module.js>");
  process.exit(2);
}
const fail = (m) => { throw new Error(`minify-imports: ${m}`); };
const moduleName = `./${path.basename(wasmPath, ".wasm")}.js`;
const map = JSON.parse(readFileSync(mapPath, "utf8"));
const ident = /^[A-Za-z_$][\w$]*$/;
const escape = (s) => s.replace(/[$]/g, "\\$");

// The module's new name, read from the minified module itself (binaryen does not print it).
const modules = new Set(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(wasmPath))).map((i) => i.module));
if (modules.size !== 1) fail(`expected one import module, found ${[...modules].join(", ")}`);
const newModule = [...modules][0];

const imports = new Map();
const snippetImports = [];
for (const [mod, from, to] of map.imports) {
  if (!ident.test(to)) fail(`import ${from}: ${to} is not an identifier`);
  if (mod.startsWith("./snippets/")) snippetImports.push([mod, from, to]);
  else if (mod !== moduleName) fail(`import ${from} of unexpected module ${mod}`);
  else imports.set(from, to);
}
const exports = new Map();
for (const [from, to] of map.exports) {
  if (!ident.test(to)) fail(`export ${from}: ${to} is not an identifier`);
  exports.set(from, to);
}

let js = readFileSync(jsPath, "utf8");
const key = JSON.stringify(moduleName);
if (js.split(key).length !== 2) fail(`module ${moduleName}: not exactly one occurrence in ${jsPath}`);
js = js.replace(key, JSON.stringify(newModule));

// Snippet modules: `"./snippets/...": importN,` entries of the returned import object.
const snippetVars = new Map();
js = js.replace(/^\s*("\.\/snippets\/[^"]+"): (import\d+),\n/gm, (_, mod, v) => {
  snippetVars.set(JSON.parse(mod), v);
  return "";
});
if (snippetImports.length) {
  const entries = snippetImports.map(([mod, from, to]) => {
    const v = snippetVars.get(mod) ?? fail(`snippet module ${mod}: no entry in ${jsPath}`);
    if (!ident.test(from)) fail(`snippet import ${from} is not an identifier`);
    return `${to}: ${v}.${from},`;
  });
  const head = "const import0 = {\n        __proto__: null,\n";
  if (js.split(head).length !== 2) fail(`the import object is not where expected in ${jsPath}`);
  js = js.replace(head, head + entries.map((e) => `        ${e}\n`).join(""));
}
if (/"\.\/snippets\/[^"]+":/.test(js)) fail(`a snippet module is still an import object key in ${jsPath}`);

const seen = new Set();
const alt = (names) => [...names].sort((a, b) => b.length - a.length).map(escape).join("|");
// Import keys: `        name: function(` (at a line start, or after `{` or `,`).
js = js.replace(new RegExp(`(^|[\\s,{])(${alt(imports.keys())})(\\s*:)`, "gm"), (_, a, name, b) => {
  if (seen.has(name)) fail(`import ${name}: more than one key in ${jsPath}`);
  seen.add(name);
  return `${a}${imports.get(name)}${b}`;
});
for (const name of imports.keys()) if (!seen.has(name)) fail(`import ${name}: no key in ${jsPath}`);
js = js.replace(new RegExp(`\\bwasm\\.(${alt(exports.keys())})\\b`, "g"), (_, name) => `wasm.${exports.get(name)}`);
// No old name is left in the code (doc comments may name the functions): an import name
// anywhere, an export name as a property (`.x`, `"x"`). (The glue's own functions share their
// export's name: `parseAmount`.)
const code = js.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
for (const name of imports.keys()) {
  if (new RegExp(`\\b${escape(name)}\\b`).test(code)) fail(`import ${name} is still referenced in ${jsPath}`);
}
for (const name of exports.keys()) {
  if (new RegExp(`[.'"\`]${escape(name)}\\b`).test(code)) fail(`export ${name} is still referenced in ${jsPath}`);
}
writeFileSync(jsPath, js);
console.log(`minify-imports: ${imports.size + snippetImports.length} imports, ${exports.size} exports and the module renamed in ${path.basename(jsPath)}`);
