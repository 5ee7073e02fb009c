// The entry of settlement-wasm-testing for Node and what runs on it (Vitest, Jest, `node:test`,
// Jest's jsdom environment; the `node` export condition, and `require` under `browser`): the
// core's .wasm beside the bundle (settlement_sandbox_bg.wasm) is read from disk and compiled
// synchronously on the first `createFakeService()`. Bundled to CommonJS (index.cjs); index.mjs
// re-exports it, so Node has one instance of the module whichever way it is loaded.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { provideCore } from "./service.js";

provideCore(() => readFileSync(join(__dirname, "settlement_sandbox_bg.wasm")));

export { createFakeService } from "./service.js";
export type {
  FakeControl, FakeFault, FakeRequestRecord, FakeService, FakeServiceKeys, FakeServiceOptions,
} from "./service.js";
