// Shared helpers of the consumers layer (scripts/test-consumers.sh); not a test file itself.
// The packed tarball is installed by scripts/test-consumers.sh into tests/consumers/work/
// node_modules/settlement-wasm; every consumer project is a directory under work/, so it finds
// the package by name there and the pinned tools (tests/consumers/node_modules) further up.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, "../..");
export const WORK = path.join(HERE, "work");
export const TOOLS = path.join(HERE, "node_modules");
export const BIN = path.join(TOOLS, ".bin");
export const PKG_DIR = path.join(WORK, "node_modules", "settlement-wasm");
export const SANDBOX_URL = process.env.SANDBOX_URL;
export const AGENT_KEY = process.env.AGENT_KEY;
export const EMAIL = "amara.okafor@example.com"; // the sandbox's seeded agent-1 profile

export function requireEnv({ sandbox = true } = {}) {
  if (sandbox && (!SANDBOX_URL || !AGENT_KEY)) throw new Error("run through scripts/with-sandbox.sh -- scripts/test-consumers.sh");
  if (!existsSync(path.join(PKG_DIR, "package.json"))) throw new Error(`${PKG_DIR} missing: run scripts/test-consumers.sh`);
}

/** A fresh project directory work/<name> (removed first), with the given files. */
export function project(name, files = {}) {
  const dir = path.join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) write(dir, file, text);
  return dir;
}

export function write(dir, file, text) {
  const p = path.join(dir, file);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
}

/**
 * Run a command (no shell unless `bash -c`), pinned tools first on PATH; resolves with
 * { code, out } (stdout+stderr). `timeoutMs`: killed (by its PID) after that long.
 */
export function run(cmd, args, { cwd, env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const { child, output } = spawnPinned(cmd, args, cwd, env);
    const timer = setTimeout(() => { output.extra = `\n[killed after ${timeoutMs} ms]`; child.kill("SIGKILL"); }, timeoutMs);
    child.on("close", (code) => { clearTimeout(timer); resolve({ code, out: output.text + output.extra }); });
  });
}

/**
 * Spawn with the pinned tools first on PATH; `output.text` collects stdout+stderr. `group`:
 * in a process group of its own (led by the child), for tools that start helper processes.
 */
function spawnPinned(cmd, args, cwd, env, group = false) {
  const child = spawn(cmd, args, {
    cwd, env: { ...process.env, PATH: `${BIN}:${process.env.PATH}`, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"], detached: group,
  });
  const output = { text: "", extra: "" };
  child.stdout.on("data", (d) => { output.text += d; });
  child.stderr.on("data", (d) => { output.text += d; });
  return { child, output };
}

/**
 * Start a long-running process (a dev server); `stop()` kills it by PID; `exited` resolves
 * with its exit code (for a build run this way, its output readable meanwhile). `group: true`
 * (servers that start helper processes: wrangler's workerd, next dev's server): `stop()`
 * signals the process group the child leads (its PID, negated), helpers included.
 */
export function start(cmd, args, { cwd, env = {}, group = false } = {}) {
  const { child, output } = spawnPinned(cmd, args, cwd, env, group);
  const exited = new Promise((r) => child.on("exit", r));
  const target = group ? -child.pid : child.pid;
  return {
    pid: child.pid,
    exited,
    output: () => output.text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(target, "SIGTERM");
        const t = setTimeout(() => { try { process.kill(target, "SIGKILL"); } catch {} }, 5000);
        await exited;
        clearTimeout(t);
      }
      if (group) {
        try { process.kill(target, "SIGKILL"); } catch {} // helpers that outlived their leader
      }
    },
  };
}

const TYPES = {
  ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".map": "application/json",
};

/**
 * A static file server on 127.0.0.1 (a free port) for `root`. `headers(urlPath)`: extra
 * response headers (e.g. a Content-Security-Policy). Unknown paths: 404.
 */
export async function serve(root, { headers = () => ({}) } = {}) {
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    let p = path.join(root, decodeURIComponent(url.pathname));
    if (!p.startsWith(root)) { res.writeHead(403).end(); return; }
    if (existsSync(p) && statSync(p).isDirectory()) p = path.join(p, "index.html");
    if (!existsSync(p)) { res.writeHead(404, { "content-type": "text/plain" }).end("not found"); return; }
    res.writeHead(200, { "content-type": TYPES[path.extname(p)] || "application/octet-stream", ...headers(url.pathname) });
    createReadStream(p).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}

/**
 * The README's recipes: fenced blocks whose info string is `<lang> recipe:<project>/<file>`.
 * Returns { project: { file: text } }.
 */
export function readmeRecipes() {
  const readme = readFileSync(path.join(PKG_DIR, "README.md"), "utf8");
  const recipes = {};
  for (const m of readme.matchAll(/```\w+ recipe:([\w-]+)\/([\w./-]+)\n([\s\S]*?)```/g)) {
    (recipes[m[1]] ||= {})[m[2]] = m[3];
  }
  return recipes;
}
