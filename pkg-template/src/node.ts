// Node entry of settlement-wasm (also Bun's and Deno's, through the `node` export condition),
// built as CommonJS (node/index.cjs; node/index.mjs re-exports it for `import`, so both share
// one instance). The server build's .wasm is embedded in the file (esbuild's binary loader)
// and instantiated on require: nothing depends on `__dirname` or on a file beside it, so the
// entry works unchanged when a framework bundles it into its server output (Next.js webpack
// and Turbopack). init() is optional here (kept for code shared with the browser).
import bytes from "./glue-server/settlement_wasm_bg.wasm";
import { init, start } from "./server-entry.js";

export {
  BotClient, MerchantClient, OrderIterator, OrderWatch, SettlementError, classifyKey, listenForRampEvents,
  onchainRampUrl, parseAmount, init, initSync, createProxyHandler,
} from "./server-entry.js";
export { createWebhookHandler, verifyWebhook } from "./server-entry.js";
export type { ProxyHandler, ProxyOptions } from "./proxy.js";
export type {
  WebhookEvent, WebhookHandler, WebhookOptions, WebhookToken, VerifyWebhookOptions, PaymentRequestEventData,
  OnchainTxEventData, FiatPayoutEventData, ChargebackEventData, ChargebackPaymentRequest, WebhookCustomer, WebhookP2PPayment,
} from "./webhook.js";
export type { OrderWatchChange, OrderWatchStatus, OrderWatchUpdate } from "./watch.js";

start(bytes, "node");

export default init;
