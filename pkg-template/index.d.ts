// Types of settlement-wasm: the same for the browser, Node ESM and Node require entries.
// The classes, functions, init and SettlementError are the TypeScript shell's (src/; tsc emits
// their declarations into types/); the option and result types are derived from the Rust
// sources (node/settlement_wasm.d.ts, from wasm-bindgen's output). Both are CommonJS files, so
// this file and its copy index.d.cts (`require`) can re-export them; see scripts/pkg-types.mjs.
// It needs no `lib` beyond ES2022 and either "dom" or @types/node.
export * from "./node/settlement_wasm.js";
export {
  BotClient, MerchantClient, OrderIterator, OrderWatch, type OrderWatchChange, type OrderWatchStatus,
  type OrderWatchUpdate, SettlementError, classifyKey, onchainRampUrl, parseAmount,
  listenForRampEvents, init, initSync, type InitInput, type InitSource,
} from "./types/index.js";
import { init } from "./types/index.js";
export default init;
