// Types of settlement-wasm/bot (every runtime: the bot client is the same in the browser and
// on a server): the bot client, its iterators and watch, SettlementError, init. The classes and
// init are the TypeScript shell's (src/bot.ts; tsc emits their declarations into types/); the
// option and result types are derived from the Rust sources (node/settlement_wasm.d.ts). Its
// copy bot.d.cts serves `require`; see scripts/pkg-types.mjs.
export * from "./node/settlement_wasm.js";
export {
  BotClient, OrderIterator, OrderWatch, type OrderWatchChange, type OrderWatchStatus, type OrderWatchUpdate,
  SettlementError, init, initSync, type InitInput, type InitSource,
} from "./types/bot.js";
import { init } from "./types/bot.js";
export default init;
