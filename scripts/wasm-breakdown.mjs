// Where a .wasm's bytes go: its functions' code by crate and by module (`crate::module`), from
// the function names wasm-bindgen and wasm-opt keep when asked (scripts/build-pkg.sh saves
// each browser entry's optimised .wasm with its name section in target/pkg-wasm/<entry>/;
// the shipped one has none). No tool to install: the module is read here.
//   node scripts/wasm-breakdown.mjs FILE.wasm [ROWS]
// Prints the code section's raw bytes per crate and per module (the ROWS largest, default 12),
// the data section (strings, tables), and the largest functions. Raw bytes, before gzip: the
// shares are what a change moves; `make size` prints the gzip totals.
import { readFileSync } from "node:fs";

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: wasm-breakdown.mjs FILE.wasm [ROWS]");
  process.exit(2);
}
const rows = Number(rowsArg ?? 12);
const b = readFileSync(file);
if (b.readUInt32LE(0) !== 0x6d736100) {
  console.error(`wasm-breakdown: ${file} is not WebAssembly`);
  process.exit(1);
}

// ---- the module's sections: imported functions, code bodies, data, names ----------------------
let p = 8;
/** An unsigned LEB128 at `p`. */
const leb = () => {
  let r = 0;
  for (let s = 0; ; s += 7) {
    const x = b[p++];
    r += (x & 0x7f) * 2 ** s;
    if (!(x & 0x80)) return r;
  }
};
const text = () => {
  const n = leb();
  const t = b.toString("utf8", p, p + n);
  p += n;
  return t;
};
/** Skips a table or memory type's limits (flags, minimum, maximum if flagged). */
const limits = () => {
  const flags = b[p++];
  leb();
  if (flags & 1) leb();
};
let importedFunctions = 0;
const bodies = [];
const names = new Map();
let data = 0;
while (p < b.length) {
  const id = b[p++];
  const size = leb();
  const end = p + size;
  if (id === 2) { // imports: function indices start after the imported functions
    for (let n = leb(); n > 0; n--) {
      text();
      text();
      const kind = b[p++];
      if (kind === 0) { importedFunctions++; leb(); } // function: its type index
      else if (kind === 1) { p++; limits(); } // table: element type, limits
      else if (kind === 2) limits(); // memory
      else if (kind === 3) p += 2; // global: value type, mutability
      else { console.error(`wasm-breakdown: unknown import kind ${kind}`); process.exit(1); }
    }
  } else if (id === 10) { // code: one body per defined function
    for (let n = leb(); n > 0; n--) {
      const s = leb();
      bodies.push(s);
      p += s;
    }
  } else if (id === 11) {
    data = size;
  } else if (id === 0 && text() === "name") {
    while (p < end) {
      const sub = b[p++];
      const subEnd = leb() + p;
      if (sub === 1) for (let n = leb(); n > 0; n--) { const index = leb(); names.set(index, text()); }
      p = subEnd;
    }
  }
  p = end;
}
if (!names.size) {
  console.error(`wasm-breakdown: ${file} has no function names (the shipped .wasm has none: use the one build-pkg.sh keeps)`);
  process.exit(1);
}

// ---- each function's crate and module ----------------------------------------------------------
/**
 * `crate::module` of a demangled name: the first `a::b` path in it (for `<T as Trait>::f`, T's
 * when T is a path, else the trait's), crate hashes (`core[0123abcd]`) and the symbol hash
 * dropped. A name with no path is a wasm-bindgen export shim (`core_new`, `onchainRampUrl`:
 * the binding in src/js), wasm-bindgen's runtime (`__wbindgen_malloc`, the externref table), or a
 * compiler intrinsic (`__multi3`).
 */
function place(name) {
  const clean = name.replace(/\[[0-9a-f]+\]/g, "").replace(/::h[0-9a-f]{16}$/, "").replace(/( (externref|multivalue) shim)+$/, "");
  if (/^__(wbg|wbindgen|externref)|externref shim$|^\w+ -> \w+/.test(name)) return ["wasm_bindgen", "wasm_bindgen (runtime)"];
  if (/^<(str|\[u8\])>::/.test(clean)) return ["core", "core::str"];
  if (/^__\w+\d$/.test(clean)) return ["compiler_builtins", "compiler_builtins"];
  const path = /([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)/.exec(clean);
  if (!path) return /^[a-z]+_[a-zA-Z]+$|^[a-z][a-zA-Z]+$/.test(clean) ? ["settlement_wasm", "settlement_wasm::js (exports)"] : ["(other)", "(other)"];
  const [, crate, module] = path;
  return [crate, `${crate}::${module}`];
}
const byCrate = new Map();
const byModule = new Map();
const add = (m, k, n) => m.set(k, (m.get(k) ?? 0) + n);
let code = 0;
const functions = bodies.map((size, i) => {
  const name = names.get(i + importedFunctions) ?? `(function ${i + importedFunctions})`;
  const [crate, module] = place(name);
  add(byCrate, crate, size);
  add(byModule, module, size);
  code += size;
  return [size, name.replace(/\[[0-9a-f]+\]/g, "").replace(/::h[0-9a-f]{16}$/, ""), crate];
});

// Shares of what is loaded: code and data (not the name section, which the shipped file lacks).
const pct = (n) => `${((100 * n) / (code + data)).toFixed(1).padStart(5)} %`;
const table = (title, m) => {
  console.log(`  ${title}`);
  const sorted = [...m].sort((x, y) => y[1] - x[1]);
  for (const [k, n] of sorted.slice(0, rows)) console.log(`    ${String(n).padStart(7)} B ${pct(n)}  ${k}`);
  const rest = sorted.slice(rows).reduce((s, [, n]) => s + n, 0);
  if (rest) console.log(`    ${String(rest).padStart(7)} B ${pct(rest)}  (${sorted.length - rows} more)`);
};
console.log(`${file}: code ${code} B (${functions.length} functions) + data ${data} B raw (before wasm-opt)`);
table("code by crate", byCrate);
table("code by module", byModule);
console.log("  largest functions");
for (const [n, name] of functions.sort((x, y) => y[0] - x[0]).slice(0, Math.ceil(rows / 2))) {
  console.log(`    ${String(n).padStart(7)} B ${pct(n)}  ${name.length > 90 ? name.slice(0, 87) + "..." : name}`);
}
