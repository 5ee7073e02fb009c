// The browser glue's short wasm import and export names. binaryen's
// `wasm-opt --minify-imports-and-exports-and-modules` gives every import, export and import
// module of the .wasm a one- to three-character name and prints the mapping as JSON;
// wasm-bindgen's names carry incompressible hashes (`__wbg_static_accessor_GLOBAL_THIS_003ee8…`)
// and appear in the glue too. esbuild applies the same renames to the glue as it bundles
// index.js: `--mangle-props` (only these names) with `--mangle-quoted` (the import module is a
// quoted key) and this mangle cache (each name's new one). Used by scripts/build-pkg.sh:
//   node scripts/mangle-cache.mjs <mapping.json> <module_bg.wasm> <glue.js> <shell src> <cache.json>
//     writes the cache and prints the --mangle-props pattern;
//   node scripts/mangle-cache.mjs --check <cache.json> <bundle.js>
//     fails if an old name is left in the bundle.
// esbuild renames every property of those names in the bundle, the shell's included: so none
// may be a property the shell uses, except the glue's functions it binds (`classifyKey`: the
// same rename on both sides).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const fail = (m) => { console.error(`mangle-cache: ${m}`); process.exit(1); };
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

if (process.argv[2] === "--check") {
  const [cachePath, bundlePath] = process.argv.slice(3);
  const bundle = code(readFileSync(bundlePath, "utf8"));
  const left = Object.keys(JSON.parse(readFileSync(cachePath, "utf8"))).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n)
    ? new RegExp(`[.'"\`]${escape(n)}\\b`).test(bundle)
    : bundle.includes(`"${n}"`) || bundle.includes(`'${n}'`));
  if (left.length) fail(`not renamed in ${bundlePath}: ${left.join(", ")}`);
  console.log(`mangle-cache: every wasm import and export renamed in ${path.basename(bundlePath)}`);
  process.exit(0);
}

const [mapPath, wasmPath, gluePath, srcDir, cachePath] = process.argv.slice(2);
if (!cachePath) {
  console.error("usage: mangle-cache.mjs <mapping.json> <module_bg.wasm> <glue.js> <shell src> <cache.json>");
  process.exit(2);
}
const map = JSON.parse(readFileSync(mapPath, "utf8"));
const ident = /^[A-Za-z_$][\w$]*$/;
const cache = {};
const add = (from, to) => {
  if (!ident.test(to)) fail(`${from}: the new name ${to} is not an identifier`);
  if (from in cache && cache[from] !== to) fail(`${from}: two new names (${cache[from]}, ${to})`);
  cache[from] = to;
};
// The import module's new name, read from the minified module itself (binaryen does not print it).
const modules = new Set(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(wasmPath))).map((i) => i.module));
if (modules.size !== 1) fail(`expected one import module, found ${[...modules].join(", ")}`);
const [module] = modules;
for (const [mod, from, to] of map.imports) {
  if (mod.startsWith("./snippets/")) fail(`import ${from} of a JavaScript snippet: the npm glue has none`);
  add(mod, module);
  add(from, to);
}
for (const [from, to] of map.exports) add(from, to);

// No name may be a property of the shell's own, but for the glue's functions it binds.
const glue = readFileSync(gluePath, "utf8");
if (!glue.includes(JSON.stringify(Object.keys(cache).find((n) => n.startsWith("./")) ?? ""))) {
  fail(`the import module key is not in ${gluePath} as a quoted string (did wasm-bindgen change?)`);
}
const bound = new Set([...glue.matchAll(/^export function (\w+)/gm)].map((m) => m[1]));
const shell = readdirSync(srcDir).filter((f) => f.endsWith(".ts")).map((f) => code(readFileSync(path.join(srcDir, f), "utf8"))).join("\n");
for (const name of Object.keys(cache)) {
  if (ident.test(name) && !bound.has(name) && new RegExp(`\\b${escape(name)}\\b`).test(shell)) {
    fail(`${name}, a wasm import or export, is also a name in the shell (${srcDir}): esbuild would rename it there too`);
  }
}
writeFileSync(cachePath, JSON.stringify(cache, null, 1) + "\n");
process.stdout.write(`^(?:${Object.keys(cache).map(escape).join("|")})$`);
