// The hostile-value corpus in Chromium: a blank document on the sandbox's origin imports /pkg/index.js and
// runs the shared hostile corpus (tests/js/hostile.mjs, installed from its source text).
// Used by tests/e2e/hostile.test.mjs (short) and tests/stress/browser.mjs (the soak).
import { hostileCases, repeatCases, settle, badOutcome } from "../../js/hostile.mjs";
import { SANDBOX_URL, AGENT_KEY } from "./browser.mjs";

export const CODES = ["invalid_input", "unauthorized", "forbidden", "rate_limited", "http", "graphql", "network",
  "timeout", "aborted", "outcome_unknown", "decode", "secret_key_in_browser", "wasm_load"];

/** A page with the package loaded, its wasm memory captured, and every uncaught error recorded. */
export async function openHostilePage(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const uncaught = [];
  page.on("pageerror", (err) => uncaught.push(String(err && err.stack ? err.stack : err)));
  await page.goto(`${SANDBOX_URL}/__sandbox/info`, { waitUntil: "load" });
  await page.evaluate(`window.__hostile = { hostileCases: ${hostileCases}, repeatCases: ${repeatCases}, settle: ${settle}, badOutcome: ${badOutcome} }`);
  await page.evaluate(async () => {
    // The module's memory, captured as the glue instantiates it (it is not exported).
    const grab = (r) => {
      const instance = r.instance ?? r;
      window.__memory = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Memory);
      window.__table = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Table);
      return r;
    };
    const streaming = WebAssembly.instantiateStreaming;
    const plain = WebAssembly.instantiate;
    WebAssembly.instantiateStreaming = (...a) => streaming.apply(WebAssembly, a).then(grab);
    WebAssembly.instantiate = (...a) => plain.apply(WebAssembly, a).then(grab);
    const m = await import("/pkg/index.js");
    await m.default();
    window.__m = m;
  });
  const cdp = await context.newCDPSession(page);
  const figures = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = await cdp.send("Runtime.getHeapUsage");
    const [wasm, table] = await page.evaluate(() => [window.__memory.buffer.byteLength, window.__table.length]);
    return { wasm, table, heap: usedSize };
  };
  return { context, page, uncaught, figures };
}

/** `reps` repetitions of each failing case, in the page; the first bad outcome of each. */
export function repeatInPage(page, reps) {
  return page.evaluate(async ({ reps, codes }) => {
    const { repeatCases, settle, badOutcome } = window.__hostile;
    const m = window.__m;
    const bad = [];
    const cases = repeatCases(m);
    for (const [name, run] of cases) {
      for (let i = 0; i < reps; i++) {
        const why = badOutcome(await settle(run), m.SettlementError, codes);
        if (why) { bad.push(`${name} #${i}: ${why}`); break; }
      }
    }
    return { cases: cases.length, bad };
  }, { reps, codes: CODES });
}

/** The whole hostile corpus, in the page: the case count and every bad outcome. */
export function corpusInPage(page) {
  return page.evaluate(async (codes) => {
    const { hostileCases, settle, badOutcome } = window.__hostile;
    const m = window.__m;
    const bad = [];
    const cases = hostileCases(m);
    for (const [name, run] of cases) {
      const why = badOutcome(await settle(run), m.SettlementError, codes);
      if (why) bad.push(`${name}: ${why}`);
    }
    return { cases: cases.length, bad };
  }, CODES);
}

/** A normal call against the sandbox, from the page: the agent's id. */
export function normalCallInPage(page) {
  return page.evaluate(async (apiKey) => {
    const p = await new window.__m.BotClient({ baseUrl: location.origin, apiKey }).profile({ fields: ["id"] });
    return p.id;
  }, AGENT_KEY);
}
