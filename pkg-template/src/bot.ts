// The bot (agent) entry, `settlement-wasm/bot`: an agent dashboard's client and nothing else.
//
//   import init, { BotClient } from "settlement-wasm/bot";
//   await init();                                         // once; memoised, safe to call again
//   const bot = new BotClient({ baseUrl, apiKey });
//
// The build bundles this file with the glue of the bot's own wasm build (`--features npm-bot`:
// the bot endpoint's operations, the order search and the watch; no merchant code) into
// bot.js; its .wasm is web/bot_bg.wasm. The root entry (index.ts) has everything.
import { BotClient } from "./bot-client.js";
import { entry } from "./browser.js";
import { SettlementError } from "./errors.js";
import { OrderIterator } from "./orders.js";
import { OrderWatch } from "./watch.js";

export { default, init, initSync, type InitInput, type InitSource } from "./browser.js";
export { BotClient, OrderIterator, OrderWatch, SettlementError };
export type { OrderWatchChange, OrderWatchStatus, OrderWatchUpdate } from "./watch.js";

entry("bot_bg.wasm", { BotClient, OrderIterator, OrderWatch, SettlementError });
