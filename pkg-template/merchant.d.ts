// Types of settlement-wasm/merchant in the browser: the merchant client with a public key, the
// onchain ramp link and listener, SettlementError, init. The classes, functions and init are
// the TypeScript shell's (src/merchant.ts; tsc emits their declarations into types/); the
// option and result types are derived from the Rust sources (node/settlement_wasm.d.ts). Its
// copy merchant.d.cts serves `require`; merchant-node.d.ts the server runtimes. See
// scripts/pkg-types.mjs.
export * from "./node/settlement_wasm.js";
export {
  MerchantClient, SettlementError, listenForRampEvents, onchainRampUrl, init, initSync, type InitInput,
  type InitSource,
} from "./types/merchant.js";
import { init } from "./types/merchant.js";
export default init;
