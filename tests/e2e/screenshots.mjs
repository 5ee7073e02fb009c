// `scripts/screenshots.sh` runs this (inside scripts/with-sandbox.sh): the dashboard at
// desktop and phone width, written to target/screenshots/ and copied to docs/.
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { launch, requireSandbox, takeScreenshots, screenshotDir } from "./support/browser.mjs";

requireSandbox();
const browser = await launch();
try {
  const shots = await takeScreenshots(browser, { dir: screenshotDir(), prefix: "demo" });
  const docs = path.resolve(process.env.DOCS_DIR || "docs");
  mkdirSync(docs, { recursive: true });
  for (const file of [shots.desktop, shots.phone]) {
    const dest = path.join(docs, path.basename(file));
    copyFileSync(file, dest);
    console.log(`wrote ${path.relative(process.cwd(), dest)}`);
  }
} finally {
  await browser.close();
}
