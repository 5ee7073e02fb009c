// Hostile values in headless Chromium: the hostile corpus ends in results or documented
// SettlementErrors, with no uncaught error; the module survives repeated failures (the long
// soak is `make stress`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { requireSandbox, launch } from "./support/browser.mjs";
import { openHostilePage, repeatInPage, corpusInPage, normalCallInPage } from "./support/hostile-page.mjs";

const REPEAT = Number(process.env.HOSTILE_REPEAT || 3000);
let browser;
let session;

before(async () => {
  requireSandbox();
  browser = await launch();
  session = await openHostilePage(browser);
});
after(async () => { await session?.context.close(); await browser?.close(); });

test("hostile corpus in Chromium: every argument set ends in a result or a documented SettlementError", async () => {
  const r = await corpusInPage(session.page);
  console.log(`chromium hostile corpus: ${r.cases} cases, ${r.bad.length} bad`);
  assert.ok(r.cases > 5000);
  assert.deepEqual(r.bad, []);
  assert.equal(await normalCallInPage(session.page), "agent-1");
  assert.deepEqual(session.uncaught, []);
});

test(`repetition in Chromium: ${REPEAT} of each failing case, then a normal call succeeds`, async () => {
  const before = await session.figures();
  const r = await repeatInPage(session.page, REPEAT);
  assert.deepEqual(r.bad, []);
  assert.equal(await normalCallInPage(session.page), "agent-1");
  const after = await session.figures();
  // No wear-out, and no growth of wasm memory from failures.
  assert.ok(after.wasm - before.wasm <= 65536, `wasm memory grew ${before.wasm} -> ${after.wasm}`);
  assert.ok(after.table - before.table <= 128, `externref table grew ${before.table} -> ${after.table}`);
  assert.deepEqual(session.uncaught, []);
});
