// The diagnosis of a failed .wasm load: a file of its own, imported by a browser entry (browser.ts) only after
// loading failed (so pages that load fine never download it). It is handed the entry's
// SettlementError class rather than importing it, so the class stays one.
import type { SettlementError } from "./errors.js";

/**
 * A failure to load the .wasm as a SettlementError (code `wasm_load`): the cause and the fix in
 * the message, the platform's error as `cause`. `blocked`: the CSP directives the browser
 * reported as violated meanwhile (securitypolicyviolation events). `W`: the entry's .wasm
 * (`settlement_wasm_bg.wasm`, `bot_bg.wasm`, `merchant_bg.wasm`), also its subpath in the package.
 */
export function loadError(e: unknown, blocked: readonly string[], Class: typeof SettlementError, W: string): SettlementError {
  const m = String((e as { message?: unknown } | null | undefined)?.message ?? e);
  const csp = (d: string) => blocked.some((v) => v.startsWith(d));
  const s = /Wasm: (\d+)/.exec(m);
  const b = /found ((?:\w\w ?){1,4})/.exec(m);
  const bytes = b?.[1]?.trim();
  const why = s
    ? `HTTP ${s[1]} for ${W} (did your bundler not copy it?): import "settlement-wasm/${W}" as a URL and pass init(url)`
    : /disallowed by embedder|code generation/i.test(m)
      ? "this runtime compiles no WebAssembly from bytes (an edge runtime): import the package where the bundler " +
        "applies the `workerd` or `edge-light` export condition (wrangler and Next.js edge routes do), or pass " +
        `init(module) with ${W} imported as a compiled module`
    : /Invalid URL|import\.meta/i.test(m) && !(globalThis as { document?: unknown }).document
      ? `this runtime gives the package no URL to fetch ${W} from (import.meta.url is undefined, as in workerd): ` +
        "import the package where the bundler applies the `workerd` or `edge-light` export condition (wrangler " +
        "does), or pass init(module) with the .wasm imported as a compiled module"
    : csp("script-src") || /Content.Security|unsafe-eval/i.test(m)
      ? "the Content-Security-Policy forbids WebAssembly: add 'wasm-unsafe-eval' to script-src"
      : csp("connect-src")
        ? `the Content-Security-Policy blocked fetching ${W}: add its origin ('self' if served with the page) to connect-src`
        : /MIME/.test(m)
          ? `${W} was not served as application/wasm: fix the server's MIME type`
          : bytes
            ? `not WebAssembly (starts with ${bytes}${/^3c/.test(bytes) ? ": an HTML page" : ""}): serve ${W} itself, or pass init(url)`
            : e instanceof TypeError
              ? `${W} could not be fetched (network, or CSP connect-src): check its URL, or pass init(url)`
              : `${W} could not be compiled (corrupt, or from another version)`;
  return new Class(`init(): ${why}. Cause: ${m}`, { code: "wasm_load", cause: e });
}
