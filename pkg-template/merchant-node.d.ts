// Types of settlement-wasm/merchant in the server runtimes (the `node`, `workerd` and
// `edge-light` conditions): the browser's (merchant.d.ts), with the server's MerchantClient,
// which adds the secret-key operations. Its copy merchant-node.d.cts serves `require`; see
// scripts/pkg-types.mjs.
export * from "./merchant.js";
export { MerchantClient } from "./types/server.js";
import { init } from "./types/merchant.js";
export default init;
