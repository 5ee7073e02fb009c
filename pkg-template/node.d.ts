// Types of settlement-wasm's server entries (Node; `node` condition): the browser entry's
// types (index.d.ts), with the server's MerchantClient, which adds the secret-key operations,
// createProxyHandler, and the webhook receiver (createWebhookHandler, verifyWebhook).
// Its copy node.d.cts serves `require`; see scripts/pkg-types.mjs.
export * from "./index.js";
export { MerchantClient } from "./types/server.js";
export { createProxyHandler, type ProxyHandler, type ProxyOptions } from "./types/proxy.js";
export {
  createWebhookHandler, verifyWebhook, type WebhookEvent, type WebhookHandler, type WebhookOptions, type WebhookToken,
  type VerifyWebhookOptions, type PaymentRequestEventData, type OnchainTxEventData, type FiatPayoutEventData,
  type ChargebackEventData, type ChargebackPaymentRequest, type WebhookCustomer, type WebhookP2PPayment,
} from "./types/webhook.js";
import { init } from "./types/index.js";
export default init;
