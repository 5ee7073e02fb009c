// Shortens the hashed names the wasm module shares with its JS glue. wasm-bindgen names imports
// like `__wbg_static_accessor_GLOBAL_THIS_003ee833af9699fc` and closure exports like
// `wasm_bindgen__convert__closures_____invoke__h5e84aab8614c9381`; the random hashes cannot be
// compressed and appear twice (in the .wasm and in the glue), and the import module name
// `./<name>_bg.js` is repeated once per import. Rewrites both files in place:
//   - every import of module `./<name>_bg.js` gets a short unique field name, and the module
//     itself the name `x`; the glue's import object is renamed to match;
//   - every export whose name ends in a `__h<16 hex>` hash gets the name `h0`, `h1`, ... and
//     the glue's `wasm.<name>` accesses are renamed to match.
// Nothing else changes (the API's exports keep their names, so the .d.ts files stay true).
// Every rename is checked: the old name must occur exactly where expected and nowhere else.
// Used by scripts/build-pkg.sh for the browser build.
//   node scripts/minify-imports.mjs pkg/web/settlement_wasm_bg.wasm pkg/web/settlement_wasm.js
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [wasmPath, jsPath] = process.argv.slice(2);
if (!wasmPath || !jsPath) {
  console.error("usage: minify-imports.mjs <module_bg.wasm> <module.js>");
  process.exit(2);
}
const moduleName = `./${path.basename(wasmPath, ".wasm")}.js`;

const bytes = readFileSync(wasmPath);
const dec = new TextDecoder("utf-8", { fatal: true });
const enc = new TextEncoder();

function readU32(buf, pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  return [result >>> 0, pos];
}
function writeU32(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
function name(buf, pos) {
  const [len, p] = readU32(buf, pos);
  return [dec.decode(buf.subarray(p, p + len)), p + len];
}
function encName(s) {
  const b = enc.encode(s);
  return [...writeU32(b.length), ...b];
}
// Short names: a..z, A..Z, then two characters; never a JavaScript keyword-like clash since
// they are only used as object keys.
function shortName(i) {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let s = "";
  do {
    s = chars[i % chars.length] + s;
    i = Math.floor(i / chars.length) - 1;
  } while (i >= 0);
  return s;
}

if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${wasmPath} is not a wasm module`);
let pos = 8;
const chunks = [bytes.subarray(0, 8)];
const renames = new Map();
const exportRenames = new Map();
const exportNames = new Set();
const SHORT_MODULE = "x";
let found = false;
while (pos < bytes.length) {
  const id = bytes[pos];
  const [size, body] = readU32(bytes, pos + 1);
  const end = body + size;
  if (id === 7) {
    // The export section: rename the hashed exports.
    let p = body;
    const [count, p1] = readU32(bytes, p);
    p = p1;
    const out = [...writeU32(count)];
    for (let i = 0; i < count; i++) {
      const [field, p2] = name(bytes, p);
      const [, p3] = readU32(bytes, p2 + 1); // kind byte, then index
      let newField = field;
      if (/__h[0-9a-f]{16}$/.test(field)) {
        newField = `h${exportRenames.size}`;
        exportRenames.set(field, newField);
      }
      out.push(...encName(newField), ...bytes.subarray(p2, p3));
      exportNames.add(newField === field ? field : "");
      p = p3;
    }
    if (p !== end) throw new Error("export section not fully read");
    chunks.push(Uint8Array.from([7, ...writeU32(out.length), ...out]));
    pos = end;
    continue;
  }
  if (id !== 2) {
    chunks.push(bytes.subarray(pos, end));
    pos = end;
    continue;
  }
  found = true;
  // The import section: rebuild it with new field names.
  let p = body;
  const [count, p1] = readU32(bytes, p);
  p = p1;
  const out = [...writeU32(count)];
  for (let i = 0; i < count; i++) {
    const [mod, p2] = name(bytes, p);
    const [field, p3] = name(bytes, p2);
    // The rest of the entry (kind and type) is copied as is: find its end.
    const kind = bytes[p3];
    let q = p3 + 1;
    if (kind === 0) [, q] = readU32(bytes, q); // function: type index
    else if (kind === 1) { // table: reftype, limits
      q += 1;
      const flags = bytes[q++];
      [, q] = readU32(bytes, q);
      if (flags & 1) [, q] = readU32(bytes, q);
    } else if (kind === 2) { // memory: limits
      const flags = bytes[q++];
      [, q] = readU32(bytes, q);
      if (flags & 1) [, q] = readU32(bytes, q);
    } else if (kind === 3) q += 2; // global: valtype, mutability
    else throw new Error(`unknown import kind ${kind}`);
    let newField = field;
    let newMod = mod;
    if (mod === moduleName) {
      if (!renames.has(field)) renames.set(field, shortName(renames.size));
      newField = renames.get(field);
      newMod = SHORT_MODULE;
    }
    out.push(...encName(newMod), ...encName(newField), ...bytes.subarray(p3, q));
    p = q;
  }
  if (p !== end) throw new Error("import section not fully read");
  chunks.push(Uint8Array.from([2, ...writeU32(out.length), ...out]));
  pos = end;
}
if (!found || renames.size === 0) throw new Error(`no imports of ${moduleName} in ${wasmPath}`);

let js = readFileSync(jsPath, "utf8");
for (const [from, to] of renames) {
  // Each import is one key of the glue's import object: `        name: function(`.
  const re = new RegExp(`(^|[\\s,{])${from}(\\s*:)`, "gm");
  let hits = 0;
  js = js.replace(re, (_, a, b) => { hits += 1; return `${a}${to}${b}`; });
  if (hits !== 1) throw new Error(`import ${from}: ${hits} keys in ${jsPath} (expected 1)`);
  if (js.includes(from)) throw new Error(`import ${from} is still referenced in ${jsPath}`);
}
// The import object's module key: `"./<name>_bg.js": import0` in wasm-bindgen's glue.
{
  const key = JSON.stringify(moduleName);
  const hits = js.split(key).length - 1;
  if (hits !== 1) throw new Error(`module ${moduleName}: ${hits} occurrences in ${jsPath} (expected 1)`);
  js = js.replace(key, JSON.stringify(SHORT_MODULE));
}
for (const [from, to] of exportRenames) {
  if (exportNames.has(to)) throw new Error(`export ${to} already exists`);
  const re = new RegExp(`\\bwasm\\.${from}\\b`, "g");
  let hits = 0;
  js = js.replace(re, () => { hits += 1; return `wasm.${to}`; });
  if (hits < 1) throw new Error(`export ${from}: no wasm.${from} in ${jsPath}`);
  if (js.includes(`.${from}`) || js.includes(`"${from}"`)) throw new Error(`export ${from} is still referenced in ${jsPath}`);
}
writeFileSync(wasmPath, Buffer.concat(chunks.map((c) => Buffer.from(c))));
writeFileSync(jsPath, js);
console.log(`minify-imports: ${renames.size} imports and ${exportRenames.size} exports renamed in ${path.basename(wasmPath)}`);
