// A trapped instance in Chromium: one bad call never breaks the next. The page loads the test-hook
// build (SETTLEMENT_WASM_TEST_HOOKS=1 scripts/build-pkg.sh, written to target/pkg-hooks/ by
// scripts/test-e2e.sh; its wasm has `forceTrapForTests`, its entry exposes
// globalThis[Symbol.for("settlement-wasm.test")]), served at /pkg-hooks/ on the sandbox's
// origin. The hook breaks the page's instance (its stack overflowed, the trap swallowed), so
// the next call into it traps: that call rejects with `internal`, the instance is replaced from
// the module compiled by init() (nothing fetched again), and the same client, a client made
// before the trap and the functions work; a watch and an order iterator in flight end `internal`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SANDBOX_URL, AGENT_KEY, requireSandbox, launch } from "./support/browser.mjs";

const HOOKS = path.resolve(process.env.SETTLEMENT_WASM_HOOKS_PKG || "target/pkg-hooks");
const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm" };
let browser;
let context;
let page;
const uncaught = [];
const wasmRequests = [];

before(async () => {
  requireSandbox();
  assert.ok(existsSync(path.join(HOOKS, "index.js")),
    `${HOOKS}/index.js is missing: build it with SETTLEMENT_WASM_TEST_HOOKS=1 SETTLEMENT_PKG_OUT=${HOOKS} scripts/build-pkg.sh --dev`);
  browser = await launch();
  context = await browser.newContext();
  await context.route(`${SANDBOX_URL}/pkg-hooks/**`, (route) => {
    const rel = decodeURIComponent(new URL(route.request().url()).pathname.slice("/pkg-hooks/".length));
    const file = path.join(HOOKS, rel);
    if (rel.endsWith(".wasm")) wasmRequests.push(rel);
    if (!file.startsWith(HOOKS + path.sep) || !existsSync(file)) return route.fulfill({ status: 404, body: "" });
    return route.fulfill({ status: 200, contentType: TYPES[path.extname(file)] ?? "application/octet-stream", body: readFileSync(file) });
  });
  page = await context.newPage();
  page.on("pageerror", (err) => uncaught.push(String(err && err.stack ? err.stack : err)));
  await page.goto(`${SANDBOX_URL}/__sandbox/info`, { waitUntil: "load" });
  await page.evaluate(async () => {
    const m = await import("/pkg-hooks/index.js");
    await m.default();
    window.__m = m;
    window.__hooks = globalThis[Symbol.for("settlement-wasm.test")];
  });
});
after(async () => { await context?.close(); await browser?.close(); });

test("a forced trap: the call rejects internal, the next call runs on a fresh instance, clients made before go on", async () => {
  const r = await page.evaluate(async (apiKey) => {
    const m = window.__m;
    const hooks = window.__hooks;
    const out = {};
    out.hooks = typeof hooks?.breakInstance === "function";
    const describe = (e) => ({
      name: e?.constructor?.name, isSettlementError: e instanceof m.SettlementError, code: e?.code,
      message: String(e?.message), own: JSON.stringify(e), string: String(e),
    });
    const settle = (p) => p.then((value) => ({ ok: true, value }), (e) => ({ ok: false, error: describe(e) }));
    const withTimeout = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(() => r({ ok: false, error: { code: "hang" } }), ms))]);

    const bot = new m.BotClient({ baseUrl: location.origin, apiKey });
    const other = new m.BotClient({ baseUrl: location.origin, apiKey });
    out.before = (await bot.profile({ fields: ["id"] })).id;

    // In flight across the trap: a watch (its first update delivered) and an order iterator
    // (its first row read, the rest of the page held by its core in the old instance).
    const watch = bot.watchOrders({ intervalMs: 1000 });
    const watchIt = watch[Symbol.asyncIterator]();
    out.watchFirst = (await withTimeout(settle(watchIt.next()), 15000)).ok;
    const rows = bot.orders({ perPage: 2 });
    out.rowFirst = (await settle(rows.next())).ok;

    out.generationBefore = hooks.generation();
    out.broke = hooks.breakInstance();
    out.trapped = await settle(bot.profile({ fields: ["id"] }));
    out.generationAfter = hooks.generation();
    out.same = await settle(bot.profile({ fields: ["id"] }));
    out.sameAgain = await settle(bot.profile({ fields: ["id"] }));
    out.other = await settle(other.profile({ fields: ["id"] }));
    out.fresh = await settle(new m.BotClient({ baseUrl: location.origin, apiKey }).profile({ fields: ["id"] }));
    out.parse = await settle(Promise.resolve().then(() => String(m.parseAmount("1.5").atomic ?? m.parseAmount("1.5"))));
    out.watchNext = await withTimeout(settle(watchIt.next()), 15000);
    out.watchState = watch.status.state;
    out.rowNext = await withTimeout(settle(rows.next()), 15000);
    out.generationEnd = hooks.generation();
    watch.stop();
    return out;
  }, AGENT_KEY);

  assert.equal(r.hooks, true, "the test-hook build exposes its hooks");
  assert.equal(r.before, "agent-1");
  assert.equal(r.watchFirst, true);
  assert.equal(r.rowFirst, true);
  assert.equal(r.broke, "RuntimeError", "the hook overflowed the instance's stack");

  // The call that met the broken instance: internal, no stack, no key.
  assert.equal(r.trapped.ok, false, "the call into the broken instance fails");
  assert.equal(r.trapped.error.isSettlementError, true);
  assert.equal(r.trapped.error.code, "internal");
  for (const text of [r.trapped.error.message, r.trapped.error.own, r.trapped.error.string]) {
    assert.doesNotMatch(text, /\n\s*at |@http|wasm-function|\.js:\d/, "no stack in the error");
    for (let i = 0; i + 8 <= AGENT_KEY.length; i++) assert.ok(!text.includes(AGENT_KEY.slice(i, i + 8)), "no piece of the key");
  }
  assert.equal(r.generationAfter, r.generationBefore + 1, "the instance was replaced once");

  // The next calls: the same client, a client made before the trap, a new one, a function.
  for (const k of ["same", "sameAgain", "other", "fresh"]) {
    assert.deepEqual(r[k], { ok: true, value: { id: "agent-1" } }, `${k}: ${JSON.stringify(r[k])}`);
  }
  assert.equal(r.parse.ok, true, JSON.stringify(r.parse));

  // In flight across the trap: ended with internal, not a hang.
  assert.equal(r.watchNext.ok, false, JSON.stringify(r.watchNext));
  assert.equal(r.watchNext.error.code, "internal", JSON.stringify(r.watchNext));
  assert.equal(r.watchState, "stopped");
  assert.equal(r.rowNext.ok, false, JSON.stringify(r.rowNext));
  assert.equal(r.rowNext.error.code, "internal", JSON.stringify(r.rowNext));
  assert.equal(r.generationEnd, r.generationAfter, "nothing else replaced the instance");

  // The replacement came from the compiled module: the .wasm was fetched once.
  assert.deepEqual(wasmRequests, ["web/settlement_wasm_bg.wasm"]);
  assert.deepEqual(uncaught, []);
});
