// The entry of settlement-wasm-testing for Node, bundlers, test runners and browsers: the
// core's WebAssembly embedded as bytes (esbuild's binary loader), compiled synchronously on the
// first `createFakeService()`. Runtimes that compile no WebAssembly from bytes (workerd) take
// workerd.ts instead.
import bytes from "./glue/settlement_sandbox_bg.wasm";
import { provideCore } from "./service.js";

provideCore(bytes);

export { createFakeService } from "./service.js";
export type {
  FakeControl, FakeFault, FakeRequestRecord, FakeService, FakeServiceKeys, FakeServiceOptions,
} from "./service.js";
