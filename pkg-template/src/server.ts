// The server entries' `MerchantClient`: the browser's class plus the operations that need the
// merchant's secret key. Only the server entries (node.ts) import this module, and only their
// wasm build (cargo feature `server`) declares these operations: the browser bundle has
// neither the methods nor the declarations. A secret key in a browser is refused by the
// constructor all the same (`secret_key_in_browser`).
import type {
  InitiateHostedPaymentOptions, OnchainWithdrawal, PaymentRequest, RequestOptions, WithdrawOnchainOptions,
} from "./glue/settlement_wasm.js";
import { MerchantClient as BrowserMerchantClient, callMerchant } from "./clients.js";
import type { ServerMerchantMethod } from "./operations.js";

/**
 * Client of the merchant endpoint, on a server: everything the browser's `MerchantClient`
 * does, plus the secret-key operations. Construct it with the secret key (`SECK_`).
 */
export class MerchantClient extends BrowserMerchantClient {
  /**
   * Creates a hosted payment page for a customer (secret key). Resolves with the payment
   * request (`{ id, hostedLink, status }` by default; `fields` selects others). Every option
   * is checked before sending (`invalid_input` naming it; see `InitiateHostedPaymentOptions`).
   * Sent once, never retried: when the answer is lost it rejects with `outcome_unknown`. Then
   * read the payment back with `paymentRequest(reference)`: `reference` is your idempotency key,
   * and creating it again would be refused (or create a second payment).
   *
   * @example
   * const { id, hostedLink } = await merchant.initiateHostedPayment({ amount: "25000.00", currency: "NGN",
   *   countryCode: "NG", email, paymentType: "deposit", reference: orderId, firstName, lastName });
   */
  initiateHostedPayment(options: InitiateHostedPaymentOptions): Promise<PaymentRequest> {
    return callMerchant(this, "initiateHostedPayment", undefined, options);
  }

  /**
   * Cancels a hosted payment (`created` or `picked_up` → `canceled`) by its `id` (secret key).
   * Sent once, never retried: a lost answer is `outcome_unknown` (read it back with
   * `paymentRequest(reference)`).
   */
  cancelHostedPayment(paymentRequest: string, options?: RequestOptions): Promise<boolean> {
    return callMerchant(this, "cancelHostedPayment", paymentRequest, options);
  }

  /**
   * Sends USD stablecoins from the merchant's balance to an onchain `address` (secret key):
   * `amountUsd` decimal text, `network` (e.g. `"CELO"`) and `metadata` optional. Resolves with
   * the withdrawal (`{ id, status }` by default). Sent once, never retried: a lost answer is
   * `outcome_unknown`; check the balance with `account()` before trying again.
   */
  withdrawOnchain(options: WithdrawOnchainOptions): Promise<OnchainWithdrawal> {
    return callMerchant(this, "withdrawOnchain", undefined, options);
  }
}

// Every secret-key operation has its method here: the names come from the declarations
// (src/operations.rs, generated into operations.ts), so tsc fails on this line when one has no
// method.
type Methods<M extends string> = { readonly [K in M]: (...args: never[]) => Promise<unknown> };
type Assert<T extends true> = T;
type EveryServerMethod = Assert<MerchantClient extends Methods<ServerMerchantMethod> ? true : false>;
