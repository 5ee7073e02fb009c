// The merchant entry, `settlement-wasm/merchant`: a front-end with the merchant's public key.
//
//   import init, { MerchantClient, listenForRampEvents } from "settlement-wasm/merchant";
//   await init();                                         // once; memoised, safe to call again
//   const merchant = new MerchantClient({ baseUrl, apiKey: publicKey });
//
// The build bundles this file with the glue of the merchant's own wasm build
// (`--features npm-merchant`: the public-key-safe merchant operations, the confirmation loop,
// the onchain ramp link and listener's checks; no bot code) into merchant.js; its .wasm is
// web/merchant_bg.wasm. The root entry (index.ts) has everything.
import { entry } from "./browser.js";
import { MerchantClient } from "./merchant-client.js";
import { SettlementError } from "./errors.js";

export { default, init, initSync, type InitInput, type InitSource } from "./browser.js";
export { listenForRampEvents, onchainRampUrl } from "./functions.js";
export { MerchantClient, SettlementError };

entry("merchant_bg.wasm", { MerchantClient, SettlementError });
