// Times each repeat case of tests/js/hostile.mjs in one Chromium page (N repetitions each):
// a diagnostic for `make stress` (which repeats each 100,000 times). Run through
// scripts/with-sandbox.sh --static-root <checkout>:  node tests/stress/time-cases.mjs [N]
import { launch, requireSandbox } from "../e2e/support/browser.mjs";
import { openHostilePage } from "../e2e/support/hostile-page.mjs";

const N = Number(process.argv[2] || 500);
requireSandbox();
const browser = await launch();
try {
  const s = await openHostilePage(browser);
  const rows = await s.page.evaluate(async (n) => {
    const { repeatCases, settle } = window.__hostile;
    const m = await import("/pkg/index.js");
    const out = [];
    for (const [name, run] of repeatCases(m)) {
      const t = performance.now();
      for (let i = 0; i < n; i++) await settle(run);
      out.push([name, ((performance.now() - t) / n * 1000).toFixed(1)]);
    }
    return out;
  }, N);
  for (const [name, us] of rows) console.log(`${us.padStart(9)} µs  ${name}`);
} finally {
  await browser.close();
}
