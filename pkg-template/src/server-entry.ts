// What the server entries share (node.ts: Node, Bun, Deno; edge.ts: workerd and edge
// runtimes), and their exports: the server build's glue (`--features server`, staged in glue-server/ by
// scripts/build-pkg.sh), instantiated synchronously when the entry is imported, from what the
// entry has: the .wasm's bytes (embedded in the Node entry) or a compiled module (imported by
// the edge entry). No file is read and nothing is fetched at run time.
import { createGlue } from "./glue-server/factory.js";
import { SettlementError } from "./errors.js";
import { containment, exposeTestHooks } from "./containment.js";
import { bind } from "./wasm.js";

export { BotClient } from "./bot-client.js";
// The server's MerchantClient, with the secret-key operations.
export { MerchantClient } from "./server.js";
export { createProxyHandler, type ProxyHandler, type ProxyOptions } from "./proxy.js";
export { createWebhookHandler, verifyWebhook } from "./webhook.js";
export { OrderIterator } from "./orders.js";
export { OrderWatch } from "./watch.js";
export { classifyKey, listenForRampEvents, onchainRampUrl, parseAmount } from "./functions.js";
export { SettlementError };

/** The platform's message of an error (a foreign value: read without trusting it). */
function messageOf(e: unknown): string {
  try {
    return String((e as { message?: unknown } | null | undefined)?.message ?? e);
  } catch {
    return "(unreadable error)";
  }
}

/**
 * Instantiates the server build from `source` and binds it. A failure is a SettlementError
 * (`wasm_load`) naming the cause and the fix, thrown by the entry's import.
 */
export function start(source: BufferSource | WebAssembly.Module, entry: string): void {
  const glue = createGlue();
  let module: WebAssembly.Module;
  try {
    // Compiled once: a replacement instance (after a trap) is made from the same module.
    module = Object.prototype.toString.call(source) === "[object WebAssembly.Module]"
      ? source as WebAssembly.Module
      : new WebAssembly.Module(source as BufferSource);
    glue.initSync({ module });
  } catch (e) {
    const m = messageOf(e);
    const why = /disallowed|code generation|not allowed/i.test(m)
      ? "this runtime compiles no WebAssembly from bytes (an edge runtime): import the package where the bundler " +
        "applies the `workerd` or `edge-light` export condition (wrangler and Next.js edge routes do), which imports " +
        "the .wasm as a compiled module"
      : Object.prototype.toString.call(source) === "[object WebAssembly.Module]" || ArrayBuffer.isView(source)
        ? "the WebAssembly module could not be instantiated (a damaged or mixed installation: " +
          "every file of the package must come from one version)"
        : `the bundler gave the .wasm import as ${typeof source}, not as a compiled module: ` +
          "the `workerd` and `edge-light` entry needs a bundler that imports `.wasm?module` as a WebAssembly.Module " +
          "(wrangler, Next.js); elsewhere import the package's default entry and pass init(url)";
    throw new SettlementError(`settlement-wasm (${entry} entry): ${why}. Cause: ${m}`, { code: "wasm_load", cause: e });
  }
  // The whole server glue: the server-only exports (the proxy's `ProxyPolicy`) included. After
  // a trap, a fresh copy of the glue with a fresh instance of the same module replaces it.
  bind(glue, containment(glue, () => {
    const fresh = createGlue();
    fresh.initSync({ module });
    return fresh;
  }, (live) => live.classifyKey?.("SBX-PUBK_probe")));
  testHooks();
}

/** The test hooks (containment.ts), only when the environment variable `SETTLEMENT_WASM_TEST_HOOKS` is `1`. */
function testHooks(): void {
  let enabled = false;
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    enabled = env?.SETTLEMENT_WASM_TEST_HOOKS === "1";
  } catch {
    enabled = false;
  }
  if (enabled) exposeTestHooks();
}

const ready = Promise.resolve();

/**
 * Resolves at once: in a server entry the module is ready on import (idempotent: always the
 * same promise). An argument is accepted (code shared with the browser) and not needed.
 */
export function init(_input?: unknown): Promise<void> {
  return ready;
}

/** Does nothing: in a server entry the module is ready on import. */
export function initSync(_moduleOrBytes?: unknown): void {}
