// The tsc matrix: a strict TypeScript consumer of the installed tarball type-checks with
// TypeScript 5.x and the newest major, moduleResolution bundler / node16 / nodenext (ESM and
// CommonJS), lib ["es2022","dom"] (browser apps) and ["es2022"] + @types/node (Node apps: the
// runtime's major, 20, and the newest).
// The strictest flags on top of --strict (exactOptionalPropertyTypes, noUncheckedIndexedAccess,
// isolatedModules, noPropertyAccessFromIndexSignature, and verbatimModuleSyntax for the ESM
// consumers: a CommonJS file under it must use `import x = require()`). The consumers pass
// options typed `T | undefined`.
// Never skipLibCheck, never an extra lib (no esnext.disposable).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { HERE, TOOLS, project, requireEnv, run, write } from "./support.mjs";

requireEnv({ sandbox: false });

const TSC = {
  "ts5": path.join(TOOLS, "typescript/bin/tsc"),
  "ts7": path.join(TOOLS, "typescript-7/bin/tsc"),
};
const MODES = {
  "bundler": { module: "esnext", moduleResolution: "bundler", file: "consumer.ts", source: "consumer.mts" },
  "node16-esm": { module: "node16", moduleResolution: "node16", file: "consumer.mts", source: "consumer.mts" },
  "node16-cjs": { module: "node16", moduleResolution: "node16", file: "consumer.cts", source: "consumer.cts" },
  "nodenext-esm": { module: "nodenext", moduleResolution: "nodenext", file: "consumer.mts", source: "consumer.mts" },
  "nodenext-cjs": { module: "nodenext", moduleResolution: "nodenext", file: "consumer.cts", source: "consumer.cts" },
};
const LIBS = {
  "dom": { lib: ["es2022", "dom"], types: [] },
  "node": { lib: ["es2022"], types: ["node"] },
  // The newest @types/node major, from its own pinned directory (one @types/node per run).
  "node-latest": { lib: ["es2022"], types: ["node"], typeRoots: [path.join(HERE, "types-node-latest/node_modules/@types")] },
};
const typesVersion = (roots) =>
  JSON.parse(readFileSync(path.join(roots?.[0] ?? path.join(TOOLS, "@types"), "node", "package.json"), "utf8")).version;

// Two tsc processes at a time (each is single-threaded).
describe("tsc matrix", { concurrency: 2 }, () => {
  for (const [ts, tsc] of Object.entries(TSC)) {
    const version = JSON.parse(readFileSync(path.join(path.dirname(tsc), "../package.json"), "utf8")).version;
    for (const [mode, m] of Object.entries(MODES)) {
      for (const [libName, lib] of Object.entries(LIBS)) {
        const types = lib.types.length ? ` + @types/node ${typesVersion(lib.typeRoots)}` : "";
        test(`tsc ${version} --strict, strictest flags: ${mode}, lib ${lib.lib.join("+")}${types}`, async () => {
          const dir = project(`tsc-${ts}-${mode}-${libName}`);
          write(dir, m.file, readFileSync(path.join(HERE, "types", m.source), "utf8"));
          write(dir, "tsconfig.json", JSON.stringify({
            compilerOptions: {
              strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, isolatedModules: true,
              noPropertyAccessFromIndexSignature: true, verbatimModuleSyntax: m.file !== "consumer.cts",
              noEmit: true, target: "es2022", module: m.module, moduleResolution: m.moduleResolution,
              lib: lib.lib, types: lib.types, ...(lib.typeRoots ? { typeRoots: lib.typeRoots } : {}), skipLibCheck: false,
            },
            files: [m.file],
          }, null, 2));
          const { code, out } = await run(tsc, ["-p", "tsconfig.json"], { cwd: dir });
          assert.equal(code, 0, `tsc failed:\n${out}`);
        });
      }
    }
  }
});
