// Shared helpers of the node:test suites. The sandbox is started by scripts/with-sandbox.sh.
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { serializeErrorText } from "./serialize.mjs";

export const SANDBOX_URL = process.env.SANDBOX_URL;
export const AGENT_KEY = process.env.AGENT_KEY;
export const AGENT3_KEY = process.env.AGENT3_KEY;
export const MERCHANT_PUBLIC_KEY = process.env.MERCHANT_PUBLIC_KEY;
export const MERCHANT_SECRET_KEY = process.env.MERCHANT_SECRET_KEY;
if (!SANDBOX_URL || !AGENT_KEY) {
  throw new Error("SANDBOX_URL / AGENT_KEY missing: run through scripts/with-sandbox.sh");
}

let tagCounter = 0;
/** A tag unique to this process and call, for the sandbox's fault counters and request log. */
export function uniqueTag(name) {
  tagCounter += 1;
  return `js-${process.pid}-${name}-${tagCounter}-${Date.now()}`;
}

/** The sandbox's request log entries carrying `tag`. */
export async function requestsTagged(tag) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/requests?tag=${encodeURIComponent(tag)}`);
  if (!res.ok) throw new Error(`request log: HTTP ${res.status}`);
  return res.json();
}

let ordersCache = null;
/** Agent 1's full order list, straight from the sandbox's data (the oracle for filters). */
export async function allOrders() {
  if (!ordersCache) {
    const res = await fetch(`${SANDBOX_URL}/__sandbox/orders?agent=1`);
    if (!res.ok) throw new Error(`orders oracle: HTTP ${res.status}`);
    ordersCache = await res.json();
  }
  return ordersCache;
}

/**
 * Serialize everything an error carries, for leak checks: `serializeErrorText` (own
 * properties recursively, cause, message, stack) plus Node's full `util.inspect` rendering.
 */
export function serializeError(e) {
  return serializeErrorText(e) + inspect(e, { depth: null, showHidden: true, getters: true });
}

/**
 * The request log entries of `tag` once at least `atLeast` have arrived (polling up to
 * `timeoutMs`; the sandbox appends an entry when it answers, or when the client went away),
 * then `settleMs` more, so that "exactly N" checks see any extra request too.
 */
export async function settledLog(tag, atLeast, { timeoutMs = 5_000, settleMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let log = await requestsTagged(tag);
  while (log.length < atLeast && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    log = await requestsTagged(tag);
  }
  if (settleMs > 0) {
    await new Promise((r) => setTimeout(r, settleMs));
    log = await requestsTagged(tag);
  }
  return log;
}

/**
 * A `fetch` option that answers every call itself (no network). The client calls it with one
 * `Request`; `respond(url, init, n)` gets that request's URL and `init`, its parts as sent
 * (`method`, `headers` as a plain record with lower-case names, `body` text, `signal`), and
 * returns a `Response` (or throws/rejects). `calls` records `{ url, init }` of every call.
 */
export function fakeFetch(respond) {
  const calls = [];
  const f = async (request) => {
    const init = {
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.clone().text(),
      signal: request.signal,
    };
    calls.push({ url: request.url, init });
    return respond(request.url, init, calls.length);
  };
  f.calls = calls;
  return f;
}

/** The value of header `name` (case-insensitive) in a plain headers record. */
export function headerOf(headers, name) {
  const hit = Object.entries(headers || {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return hit ? hit[1] : undefined;
}

/** Assert that calling `fn` rejects (or throws) a SettlementError with `code`. Returns it. */
export async function expectCode(assert, SettlementError, fn, code) {
  let caught = null;
  try {
    await fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught, `expected a SettlementError with code ${code}, but nothing was thrown`);
  assert.ok(caught instanceof SettlementError, `expected SettlementError, got ${caught && caught.name}: ${caught && caught.message}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, "SettlementError");
  assert.equal(caught.code, code, `code (message: ${caught.message})`);
  assert.equal(typeof caught.message, "string");
  assert.ok(caught.message.length > 0);
  return caught;
}

/**
 * Runs `script` (an ES module that may import the package by name) in a Node process of its
 * own, with this process's environment (the sandbox's URL and keys): resolves with its exit
 * code, output (stdout and stderr) and run time in ms. Killed (by its PID) after 60 s.
 */
export function runModule(script) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { out += d; });
    const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(kill);
      resolve({ code, out: out.trim(), ms: performance.now() - t0 });
    });
  });
}
