// Browser (and any ES-module, non-Node) entry of settlement-wasm: both clients, the root.
//
//   import init, { BotClient } from "settlement-wasm";   // or "./pkg/index.js" on a plain page
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// A page that uses one client loads less with its own entry: settlement-wasm/bot (bot.ts) or
// settlement-wasm/merchant (merchant.ts). No top-level await: nothing is fetched until init()
// is called. The build bundles this file with the glue of the whole browser build
// (`--features npm`) into index.js; its .wasm is web/settlement_wasm_bg.wasm.
import { BotClient } from "./bot-client.js";
import { entry } from "./browser.js";
import { MerchantClient } from "./merchant-client.js";
import { SettlementError } from "./errors.js";
import { OrderIterator } from "./orders.js";
import { OrderWatch } from "./watch.js";

export { default, init, initSync, type InitInput, type InitSource } from "./browser.js";
export { classifyKey, listenForRampEvents, onchainRampUrl, parseAmount } from "./functions.js";
export { BotClient, MerchantClient, OrderIterator, OrderWatch, SettlementError };
export type { OrderWatchChange, OrderWatchStatus, OrderWatchUpdate } from "./watch.js";

entry("settlement_wasm_bg.wasm", { BotClient, MerchantClient, OrderIterator, OrderWatch, SettlementError });
