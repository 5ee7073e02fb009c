// The soak of the hostile-value cases in one Chromium page: STRESS_REPS repetitions of each failing case,
// then the whole hostile corpus, then a normal call against the sandbox must still succeed.
// Prints the wasm memory and JS heap before and after. Run by scripts/stress.sh.
import { launch, requireSandbox } from "../e2e/support/browser.mjs";
import { openHostilePage, repeatInPage, corpusInPage, normalCallInPage } from "../e2e/support/hostile-page.mjs";

const REPS = Number(process.env.STRESS_REPS || 100_000);
requireSandbox();
const browser = await launch();
let failed = false;
try {
  const s = await openHostilePage(browser);
  const mib = (n) => (n / 1048576).toFixed(2);
  if (await normalCallInPage(s.page) !== "agent-1") throw new Error("normal call before the soak failed");
  const before = await s.figures();
  const started = Date.now();
  const reps = await repeatInPage(s.page, REPS);
  const afterReps = await s.figures();
  const corpus = await corpusInPage(s.page);
  const id = await normalCallInPage(s.page);
  const after = await s.figures();
  for (const b of [...reps.bad, ...corpus.bad]) console.error(`chromium: ${b}`);
  console.log(`chromium: ${reps.cases} cases x ${REPS} repetitions + ${corpus.cases} corpus cases in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
    `${reps.bad.length} failed cases, ${corpus.bad.length} bad corpus outcomes, ${s.uncaught.length} uncaught; normal call after: ${id === "agent-1" ? "ok" : id}`);
  console.log(`chromium: wasm memory ${mib(before.wasm)} MiB -> ${mib(afterReps.wasm)} MiB after the repetitions -> ${mib(after.wasm)} MiB after the corpus; ` +
    `JS heap ${mib(before.heap)} -> ${mib(afterReps.heap)} -> ${mib(after.heap)} MiB; externref table ${before.table} -> ${afterReps.table} -> ${after.table}`);
  for (const u of s.uncaught) console.error(`chromium uncaught: ${u}`);
  failed = reps.bad.length > 0 || corpus.bad.length > 0 || s.uncaught.length > 0 || id !== "agent-1";
} finally {
  await browser.close();
}
if (failed) process.exit(1);
