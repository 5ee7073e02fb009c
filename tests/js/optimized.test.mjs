// The package under V8's optimizing compiler: the hostile corpus once, then each failing case
// thousands of times, in a child process, which must exit normally. Node 20's V8 used to abort
// the process here ("Fatal error … unreachable code" in its deoptimizer), at once and every
// time, when a call's `decide` returned its decision as the wasm call's only result; a
// process that dies that way takes everything in it down, so only a child can observe it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = "SETTLEMENT_OPTIMIZED_CHILD";

if (process.env[CHILD]) {
  const api = await import("settlement-wasm");
  const { hostileCases, repeatCases, settle } = await import("./hostile.mjs");
  for (const [, run] of hostileCases(api)) await settle(run);
  let calls = 0;
  for (const [, run] of repeatCases(api)) {
    for (let i = 0; i < 3000; i++, calls++) await settle(run);
  }
  console.log(`finished ${calls} calls`);
} else {
  test("thousands of failing calls once the JIT has optimized the driver: the process survives", () => {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, [CHILD]: "1" },
      encoding: "utf8",
      timeout: 240_000,
    });
    const why = `status ${child.status}, signal ${child.signal}\n${(child.stderr || "").slice(0, 2000)}`;
    assert.equal(child.signal, null, why);
    assert.equal(child.status, 0, why);
    assert.match(child.stdout, /finished \d+ calls/);
  });
}
