// Types of settlement-wasm's server entries (Node; `node` condition): the browser entry's
// types (index.d.ts), with the server's MerchantClient, which adds the secret-key operations.
// Its copy node.d.cts serves `require`; see scripts/pkg-types.mjs.
export * from "./index.js";
export { MerchantClient } from "./types/server.js";
import { init } from "./types/index.js";
export default init;
