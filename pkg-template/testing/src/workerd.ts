// The entry of settlement-wasm-testing for workerd (Cloudflare Workers, `wrangler dev`; the
// `workerd` export condition), which refuses to compile WebAssembly from bytes: the core's
// .wasm, beside the built file (settlement_sandbox_bg.wasm), is imported as a module
// the runtime compiled (`?module`, which wrangler understands) and instantiated on the first
// `createFakeService()`.
import compiled from "./settlement_sandbox_bg.wasm?module";
import { provideCore } from "./service.js";

provideCore(compiled);

export { createFakeService } from "./service.js";
export type {
  FakeControl, FakeFault, FakeRequestRecord, FakeService, FakeServiceKeys, FakeServiceOptions,
} from "./service.js";
