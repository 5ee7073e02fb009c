// Runs runMarks of tests/bench/page/micro.js (marks inside one package call, real network);
// MARKS_FINE=1: finer marks (Reflect.get, string crossings, ...). MARKS_AB=1: also the baseline package at /base/ (see tests/bench/ab.sh), interleaved.
//   /work/main/scripts/with-sandbox.sh --release --static-root <root> -- node tests/bench/marks.mjs
import { chromium } from "playwright-core";

const { SANDBOX_URL, AGENT_KEY } = process.env;
const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args });
try {
  for (let k = 0; k < Number(process.env.MARKS_REPEAT || 2); k++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${SANDBOX_URL}/index.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { polling: 20 });
    const r = await page.evaluate(async (cfg) => (await import("/micro.js")).runMarks(cfg),
      { baseUrl: SANDBOX_URL, apiKey: AGENT_KEY, rounds: Number(process.env.MARKS_ROUNDS || 400), ab: !!process.env.MARKS_AB, fine: !!process.env.MARKS_FINE });
    await ctx.close();
    for (const [who, v] of Object.entries(r)) {
      console.log(`run ${k + 1}, ${who}: means of ${v.n} of ${v.of} calls (ms)`);
      for (const [name, t] of v.gaps) console.log(`  ${t.toFixed(4).padStart(8)}  ${name}`);
      // The main thread's share: every gap but the two waits on the network (response
      // headers, then the body), which are the same request for every contender.
      const wait = /^(fetch returned → headers arrived|text\(\) → body read|total)$/;
      const busy = v.gaps.filter(([name]) => !wait.test(name)).reduce((a, [, t]) => a + t, 0);
      console.log(`  ${busy.toFixed(4).padStart(8)}  busy (all but the two network waits)`);
      // Less the platform's own calls that every contender makes (fetch(), new Request).
      const platform = /^(fetch → fetch returned|new Request → Request done)$/;
      const own = v.gaps.filter(([name]) => !wait.test(name) && !platform.test(name)).reduce((a, [, t]) => a + t, 0);
      console.log(`  ${own.toFixed(4).padStart(8)}  own (busy less fetch() and new Request)`);
    }
  }
} finally {
  await browser.close();
}
