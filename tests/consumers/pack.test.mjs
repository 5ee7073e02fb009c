// What `npm pack` puts in the tarball: exactly the expected files, each one referenced by the
// manifest or by another packed file (or one npm always ships), the two license texts, and
// the repository/homepage taken from Cargo.toml (the one place they are set).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PKG_DIR, ROOT, requireEnv, run } from "./support.mjs";

requireEnv({ sandbox: false });
const PKG = path.join(ROOT, "pkg");

const EXPECTED = [
  "LICENSE-APACHE", "LICENSE-MIT", "README.md",
  // settlement-wasm/bot and settlement-wasm/merchant: the browser bundles, their types, and their
  // server runtimes' files (bot/, merchant/: the server entries' exports of the same names).
  "bot.d.cts", "bot.d.ts", "bot.js", "bot/edge.js", "bot/node.cjs", "bot/node.mjs",
  "edge/index.js", "edge/settlement_wasm_bg.wasm",
  "index.d.cts", "index.d.ts", "index.js",
  "merchant-node.d.cts", "merchant-node.d.ts", "merchant.d.cts", "merchant.d.ts", "merchant.js",
  "merchant/edge.js", "merchant/node.cjs", "merchant/node.mjs",
  "node.d.cts", "node.d.ts",
  "node/index.cjs", "node/index.mjs", "node/package.json", "node/settlement_wasm.d.ts", "package.json",
  "types/bot-client.d.ts", "types/bot.d.ts", "types/browser.d.ts", "types/errors.d.ts", "types/functions.d.ts",
  "types/index.d.ts", "types/merchant-client.d.ts", "types/merchant.d.ts", "types/orders.d.ts", "types/package.json",
  "types/proxy.d.ts", "types/server.d.ts", "types/watch.d.ts", "types/webhook.d.ts", "wasm-load-error.js",
  "web/bot_bg.wasm", "web/merchant_bg.wasm", "web/settlement_wasm_bg.wasm",
];
// npm ships the first four whatever `files` says; node/package.json and types/package.json give
// their directories their module type (CommonJS): read by Node and TypeScript, referenced by no file.
const ALWAYS = new Set(["package.json", "README.md", "LICENSE-MIT", "LICENSE-APACHE", "node/package.json", "types/package.json"]);

async function packed() {
  const { code, out } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PKG });
  assert.equal(code, 0, out);
  const json = JSON.parse(out.slice(out.indexOf("[")));
  return json[0].files.map((f) => f.path).sort();
}

test("npm pack --dry-run: exactly the expected files", async () => {
  assert.deepEqual(await packed(), EXPECTED);
});

test("every packed file is referenced (manifest, imports, the glue's .wasm) or shipped by npm itself", async () => {
  const manifest = JSON.parse(readFileSync(path.join(PKG, "package.json"), "utf8"));
  const seen = new Set();
  const queue = [];
  const add = (file) => {
    const f = path.posix.normalize(file.replace(/^\.\//, ""));
    if (!seen.has(f)) { seen.add(f); queue.push(f); }
  };
  const targets = (v) => (typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(targets) : []);
  for (const t of [manifest.main, manifest.module, manifest.browser, manifest.types, ...targets(manifest.exports)]) {
    if (t && !t.endsWith("package.json")) add(t);
  }
  while (queue.length) {
    const f = queue.shift();
    const p = path.join(PKG, f);
    assert.ok(existsSync(p), `${f} is referenced but not in pkg/`);
    if (f.endsWith(".wasm")) continue;
    const text = readFileSync(p, "utf8");
    const dir = path.posix.dirname(f);
    const refs = [
      ...[...text.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]),
      ...[...text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)].map((m) => m[1]),
      ...[...text.matchAll(/\brequire\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)].map((m) => m[1]),
      ...[...text.matchAll(/new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\)/g)].map((m) => m[1]),
      ...[...text.matchAll(/`\$\{__dirname\}\/([^`]+)`/g)].map((m) => m[1]),
    ];
    for (const r of refs) {
      // `./x.wasm?module` (the edge entry's compiled-module import) is the file x.wasm.
      let target = path.posix.join(dir, r.replace(/\?.*$/, ""));
      // A declaration file's "./x.js" is x.d.ts (or x.d.cts for .cjs).
      if (/\.d\.c?ts$/.test(f)) target = target.replace(/\.js$/, ".d.ts").replace(/\.cjs$/, ".d.cts");
      add(target);
    }
  }
  const unreferenced = (await packed()).filter((f) => !seen.has(f) && !ALWAYS.has(f));
  assert.deepEqual(unreferenced, [], "packed but referenced by nothing");
});

test("LICENSE-MIT and LICENSE-APACHE: the repository's texts, in the tarball", () => {
  for (const [file, marks] of [
    ["LICENSE-MIT", [/^MIT License/, /Permission is hereby granted, free of charge/]],
    ["LICENSE-APACHE", [/Apache License\s+Version 2\.0, January 2004/, /END OF TERMS AND CONDITIONS/]],
  ]) {
    const repo = readFileSync(path.join(ROOT, file), "utf8");
    for (const re of marks) assert.match(repo, re, file);
    assert.equal(readFileSync(path.join(PKG_DIR, file), "utf8"), repo, `${file} in the installed package`);
  }
  const manifest = JSON.parse(readFileSync(path.join(PKG_DIR, "package.json"), "utf8"));
  assert.equal(manifest.license, "MIT OR Apache-2.0");
});

test("repository and homepage come from Cargo.toml's repository", () => {
  const cargo = readFileSync(path.join(ROOT, "Cargo.toml"), "utf8");
  const repo = /^repository = "(.*)"$/m.exec(cargo)?.[1];
  assert.ok(repo, "Cargo.toml has a repository");
  const manifest = JSON.parse(readFileSync(path.join(PKG_DIR, "package.json"), "utf8"));
  assert.deepEqual(manifest.repository, { type: "git", url: `git+${repo}.git` });
  assert.equal(manifest.homepage, `${repo}#readme`);
  assert.ok(!readFileSync(path.join(ROOT, "pkg-template/package.json"), "utf8").includes(repo),
    "the template must not repeat it (one place: Cargo.toml)");
});
