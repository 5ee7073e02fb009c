// Edge entry of settlement-wasm (the `workerd` and `edge-light` export conditions: Cloudflare
// Workers through wrangler, Vercel Edge, Next.js edge routes). These runtimes refuse to compile
// WebAssembly from bytes, so the server build's .wasm (edge/settlement_wasm_bg.wasm, beside
// the built file) is imported as a compiled module (`?module`, understood by wrangler and
// Next.js) and instantiated on import. init() is optional here (kept for shared code).
import wasmModule from "./settlement_wasm_bg.wasm?module";
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

start(wasmModule, "workerd/edge-light");

export default init;
