// `scripts/screenshots.sh` runs this (inside scripts/with-sandbox.sh): the dashboard at
// desktop and phone width, written to target/screenshots/ and copied to docs/.
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { launch, openPage, requireSandbox, startDemoServer, takeScreenshots, screenshotDir } from "./support/browser.mjs";
import { payWithWebhooks } from "./support/payments.mjs";

requireSandbox();
const browser = await launch();
try {
  const shots = await takeScreenshots(browser, { dir: screenshotDir(), prefix: "demo" });
  // The dashboard connected "through the server proxy (no key in the page)": the demo server's
  // proxy route holds the key. The first screen at desktop width.
  const demo = await startDemoServer();
  try {
    const s = await openPage(browser, { url: `${demo.url}/?connect=proxy` });
    try {
      await s.page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      shots.proxy = path.join(screenshotDir(), "demo-proxy-desktop.png");
      await s.page.screenshot({ path: shots.proxy, animations: "disabled", caret: "hide" });
      const problems = s.problems();
      if (problems.length) throw new Error(`page errors in proxy mode:\n${problems.join("\n")}`);
    } finally {
      await s.close();
    }
    // The Payments panel after a hosted payment went created → picked up → completed, each
    // step by webhook and confirmed by read-back (the agent acting in the same dashboard).
    const p = await openPage(browser, { url: `${demo.url}/?connect=proxy` });
    try {
      await p.page.waitForSelector('[data-testid="payments-panel"][data-available="true"]');
      await payWithWebhooks(p.page);
      await p.page.evaluate(() => document.activeElement?.blur());
      shots.payments = path.join(screenshotDir(), "demo-payments.png");
      await p.page.locator('[data-testid="payments-panel"]').screenshot({ path: shots.payments, animations: "disabled", caret: "hide" });
      const problems = p.problems();
      if (problems.length) throw new Error(`page errors in the Payments panel:\n${problems.join("\n")}`);
    } finally {
      await p.close();
    }
  } finally {
    await demo.stop();
  }
  const docs = path.resolve(process.env.DOCS_DIR || "docs");
  mkdirSync(docs, { recursive: true });
  for (const file of [shots.desktop, shots.phone, shots.proxy, shots.payments]) {
    const dest = path.join(docs, path.basename(file));
    copyFileSync(file, dest);
    console.log(`wrote ${path.relative(process.cwd(), dest)}`);
  }
} finally {
  await browser.close();
}
