// The entry of settlement-wasm-testing for pages and browser test runners (Vitest's browser
// mode, a bundled test page; the `browser` export condition): the core's .wasm beside this
// module is fetched from `new URL("./settlement_sandbox_bg.wasm", import.meta.url)`, the form
// Vite, webpack and Rollup's URL plugins see and serve or copy, and compiled while it streams
// in, before the module finishes loading (a top-level `await`), so `createFakeService()` stays
// synchronous. Nothing but that file is fetched.
import { provideCore, type CoreSource } from "./service.js";

const WASM = "settlement_sandbox_bg.wasm";

/** Node's `fs` when this entry runs in Node after all (a runner that resolved `browser`), else null. */
function nodeFs(): { readFileSync(path: URL): Uint8Array<ArrayBuffer> } | null {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return (proc?.getBuiltinModule?.("node:fs") as ReturnType<typeof nodeFs>) ?? null;
}

/** Fetches and compiles the core, or throws an Error saying which URL failed and why. */
async function compile(url: URL): Promise<CoreSource> {
  const fail = (why: string, cause?: unknown): never => {
    throw new Error(
      `settlement-wasm-testing: could not load its WebAssembly from ${url.href} (${why}). The file ` +
        `${WASM} must be served beside the package's browser.js: with Vite's dev server, if ` +
        `dependency pre-bundling moved the module, add "settlement-wasm-testing" to optimizeDeps.exclude.`,
      cause === undefined ? undefined : { cause },
    );
  };
  const fs = url.protocol === "file:" ? nodeFs() : null;
  if (fs) return fs.readFileSync(url);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (e) {
    return fail("the fetch failed", e);
  }
  if (!response.ok) return fail(`HTTP ${response.status}`);
  const streams = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() === "application/wasm";
  try {
    return streams ? await WebAssembly.compileStreaming(response) : await WebAssembly.compile(await response.arrayBuffer());
  } catch (e) {
    return fail("not a WebAssembly module", e);
  }
}

// A string literal, as bundlers need to see the file.
provideCore(await compile(new URL("./settlement_sandbox_bg.wasm", import.meta.url)));

export { createFakeService } from "./service.js";
export type {
  FakeControl, FakeFault, FakeRequestRecord, FakeService, FakeServiceKeys, FakeServiceOptions,
} from "./service.js";
