// Serves the built Leptos example (a directory: index.html, app.js, app_bg.wasm) on
// 127.0.0.1 and opens it in headless Chromium (playwright-core) with the sandbox's URL and
// agent key; passes when the page shows the agent's profile and ten distinct orders, with no
// page error. Usage: node scripts/leptos-example-check.mjs <dir>  (SANDBOX_URL, AGENT_KEY set)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";

const dir = process.argv[2];
const { SANDBOX_URL, AGENT_KEY } = process.env;
if (!dir || !SANDBOX_URL || !AGENT_KEY) throw new Error("usage: SANDBOX_URL=… AGENT_KEY=… node leptos-example-check.mjs <dir>");
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

const root = path.resolve(dir);
const server = createServer(async (req, res) => {
  // Files under `dir` only (wasm-bindgen's glue imports its snippets from `snippets/…`).
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
  const file = path.resolve(root, rel);
  try {
    if (!file.startsWith(root + path.sep)) throw new Error("outside the site");
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
const problems = [];
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => problems.push(`uncaught: ${e}`));
  page.on("console", (m) => { if (m.type() === "error") problems.push(`console.error: ${m.text()}`); });
  const query = new URLSearchParams({ base: SANDBOX_URL, key: AGENT_KEY });
  await page.goto(`${origin}/index.html?${query}`);
  const settled = await page.waitForFunction(() => {
    const s = document.querySelector("#status")?.textContent ?? "";
    return s === "done" || s.startsWith("error");
  }, null, { timeout: 60_000 }).then(() => true, () => false);
  if (!settled) {
    problems.push(`the page did not settle in 60 s; its body:\n${await page.innerHTML("body")}`);
  } else {
    const status = await page.textContent("#status");
    const profileId = await page.textContent("#profile-id");
    const balance = await page.textContent("#balance");
    const ids = await page.$$eval("li.order", (rows) => rows.map((r) => r.dataset.id));
    console.log(`leptos-example: status ${status}, profile ${profileId}, balance ${balance}, ${ids.length} orders: ${ids.join(" ")}`);
    const check = (ok, what) => { if (!ok) problems.push(what); };
    check(status === "done", `status is "${status}"`);
    check(profileId === "agent-1", `profile id is "${profileId}", not agent-1`);
    check(/^\d+(\.\d+)?$/.test(balance ?? ""), `balance "${balance}" is not a decimal amount`);
    check(ids.length === 10 && new Set(ids).size === 10 && ids.every(Boolean), "not ten distinct order ids");
  }
} finally {
  await browser.close();
  server.close();
}
if (problems.length) {
  console.error(`leptos-example: ${problems.join("\n")}`);
  process.exit(1);
}
console.log("leptos-example: ok");
