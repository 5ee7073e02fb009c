// The server entries' `MerchantClient`: the browser's class plus the operations that need the
// merchant's secret key. Only the server entries (node.ts) import this module, and only their
// wasm build (cargo feature `server`) declares these operations: the browser bundle has
// neither the methods nor the declarations. A secret key in a browser is refused by the
// constructor all the same (`secret_key_in_browser`).
import type {
  AddPaymentMethodOptions, Core, CreateCustomerOptions, Customer, CustomerPaymentMethod, CustomersOptions,
  InitiateHostedPaymentOptions, InitiateRampQuoteDepositOptions, InitiateRampQuoteWithdrawalOptions,
  MarkDepositAsPaidOptions, MerchantCallOptions, MerchantCustomer, MerchantCustomerPage, MerchantCustomersOptions,
  OnchainWithdrawal, OrderSearch, PaymentRequest, QuotePaymentRequest, RampQuote, RampQuoteOptions,
  RefreshRampQuoteOptions, RequestOptions, VirtualBankAccount, WithdrawOnchainOptions,
} from "./glue/settlement_wasm.js";
import { MerchantClient as BrowserMerchantClient, callMerchant, merchantClient } from "./merchant-client.js";
import { notLive } from "./errors.js";
import { iterate, type OrderIterator } from "./orders.js";
import type { WebhookEvent } from "./glue/settlement_wasm.js";
import type { WebhookReadBack } from "./glue-server/settlement_wasm.js";
import { wasm } from "./wasm.js";

/** The server glue's `webhookReadBack` (only the server entries' wasm has it). */
type ServerGlue = { webhookReadBack(event: unknown): WebhookReadBack };
import type { MethodSignatures, ServerMerchantMethod } from "./operations.js";

/**
 * The server build's Core: the browser's, plus `customers` (declared by its cargo feature
 * `server` only, so the browser glue's types, which this shell compiles against, lack it).
 */
interface ServerCore extends Core {
  customers(options: unknown): OrderSearch;
}

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
   * const { id, hostedLink } = await merchant.initiateHostedPayment({ amount: "25000.00", currency: "local_currency",
   *   countryCode: "NG", email, paymentType: "deposit", reference: orderId, firstName, lastName });
   */
  initiateHostedPayment(options: InitiateHostedPaymentOptions): Promise<PaymentRequest> {
    return callMerchant(this, "initiateHostedPayment", undefined, options);
  }

  /**
   * Cancels a hosted payment by its `id` (secret key): only while it is `created` (→ `canceled`).
   * Sent once, never retried: a lost answer is `outcome_unknown` (read it back with
   * `paymentRequest(reference)`).
   */
  cancelHostedPayment(paymentRequest: string, options?: RequestOptions): Promise<boolean> {
    return callMerchant(this, "cancelHostedPayment", paymentRequest, options);
  }

  /**
   * Sends USD stablecoins from the merchant's balance to an onchain `address` (secret key):
   * `amountUsd` decimal text (the service's minimum is 10), `network` (e.g. `"CELO"`) and
   * `metadata` optional. Resolves with
   * the withdrawal (`{ id, status }` by default). Sent once, never retried: a lost answer is
   * `outcome_unknown`; check the balance with `account()` before trying again.
   */
  withdrawOnchain(options: WithdrawOnchainOptions): Promise<OnchainWithdrawal> {
    return callMerchant(this, "withdrawOnchain", undefined, options);
  }

  /**
   * An onchain withdrawal by its `id` (secret key), or `null` when the service does not know it:
   * `{ quantity, symbol, network, address, txhash, txhashUrl, fee, status, createdAt }` by default,
   * `status` `pending`, then `completed` or `failed`. How a `withdrawOnchain` whose answer was lost
   * (`outcome_unknown`) is read back, when its `id` is known. A read: retried on retryable failures.
   *
   * @example
   * const withdrawal = await merchant.onchainWithdrawal(id);
   * if (withdrawal?.status === "completed") console.log(withdrawal.txhashUrl);
   */
  onchainWithdrawal(id: string, options?: MerchantCallOptions): Promise<OnchainWithdrawal | null> {
    return callMerchant(this, "onchainWithdrawal", id, options);
  }

  /**
   * Reads back from the API the current state of what a webhook event is about (secret key),
   * so value is released on the API's word, not the webhook's (a static token stops no
   * replay): a `payment_request.updated` event resolves with `paymentRequest(data.reference)`
   * (the service's `merchantPaymentRequest`), an `onchain_tx.updated` one with
   * `onchainWithdrawal(data.id)`; either may be `null` when the service does not know it.
   * The API has no read of a fiat payout or a chargeback by id, so a `fiat_payout.updated`,
   * `chargeback.initiated` or `unknown` event rejects with `invalid_input` (`field: "event"`);
   * for a chargeback, read its `data.payment_request.reference` with `paymentRequest`. An event
   * without the `reference` or `id` needed rejects the same way, before anything is sent.
   *
   * @example
   * const current = await merchant.confirmEvent(event);
   * if (event.type === "payment_request.updated" && current?.status === "completed") fulfil(current);
   */
  async confirmEvent(event: WebhookEvent, options?: MerchantCallOptions): Promise<PaymentRequest | OnchainWithdrawal | null> {
    // Which read, and its argument: the Rust core's rule (invalid_input before anything is sent).
    const target = (wasm() as unknown as ServerGlue).webhookReadBack(event);
    return target.kind === "paymentRequest"
      ? this.paymentRequest(target.reference, options)
      : this.onchainWithdrawal(target.id, options);
  }

  // The merchant's customers, and their USD virtual bank accounts.

  /**
   * One page of the merchant's customers (secret key): `{ nodes, pageInfo: { endCursor, hasNextPage } }`,
   * each node `{ id, email, firstName, lastName }` by default. `after` is the previous page's
   * `pageInfo.endCursor` (the first page without it). A read: retried on retryable failures. To walk
   * every page, use `customers()`.
   *
   * @example
   * const { nodes, pageInfo } = await merchant.merchantCustomers();
   * const next = pageInfo.hasNextPage ? await merchant.merchantCustomers({ after: pageInfo.endCursor! }) : null;
   */
  merchantCustomers(options?: MerchantCustomersOptions): Promise<MerchantCustomerPage> {
    return callMerchant(this, "merchantCustomers", undefined, options);
  }

  /**
   * Every customer of the merchant, page by page (`merchantCustomers`, each page after the last
   * one's `endCursor`), for `for await`; the next page is fetched only when needed. Throws on
   * invalid options (`fields`, `signal`, or an unknown key).
   *
   * @example
   * for await (const customer of merchant.customers()) console.log(customer.email);
   */
  customers(options?: CustomersOptions): OrderIterator<MerchantCustomer> {
    const client = merchantClient(this);
    if (!client) throw notLive("MerchantClient");
    return iterate<MerchantCustomer>(client.use((core) => (core as ServerCore).customers(options)), client.fetch, client.observer("orders"));
  }

  /**
   * The merchant's customer with this `email` (secret key), or `null` when there is none:
   * `{ id, email, firstName, lastName }` by default. A read: retried on retryable failures.
   *
   * @example
   * const customer = await merchant.merchantCustomer("wanjiru@example.com");
   */
  merchantCustomer(email: string, options?: MerchantCallOptions): Promise<MerchantCustomer | null> {
    return callMerchant(this, "merchantCustomer", email, options);
  }

  /**
   * Requests a USD virtual bank account for a customer (secret key): resolves with `{ id, status }`
   * (`fields` selects others). **The service charges a fee for it, not refunded.** Sent once, never
   * retried: a lost answer rejects with `outcome_unknown`; do not request again blindly (it may be
   * charged twice).
   *
   * @example
   * const { id } = await merchant.requestVirtualBankAccount(customer.id);
   */
  requestVirtualBankAccount(customer: string, options?: MerchantCallOptions): Promise<VirtualBankAccount> {
    return callMerchant(this, "requestVirtualBankAccount", customer, options);
  }

  /**
   * A virtual bank account by its `id` (secret key), or `null`: `{ id, accountName, accountNumber,
   * bankName, city, country, line1, postalCode, state, routingNumber, status, createdAt }` by default.
   * A read: retried on retryable failures.
   *
   * @example
   * const account = await merchant.virtualBankAccount(id);
   */
  virtualBankAccount(id: string, options?: MerchantCallOptions): Promise<VirtualBankAccount | null> {
    return callMerchant(this, "virtualBankAccount", id, options);
  }

  // The direct ramp: customer → payment method → quote → a deposit (pending → paid → completed,
  // or canceled) or a withdrawal (picked_up → completed).

  /**
   * Creates a customer of the direct ramp (secret key): `country` is a `Country.id` from
   * `availableCountries()`. Resolves with `{ id, email, firstName, lastName, country: { id, name,
   * code } }` (`fields`
   * selects others). Every option is checked before sending (`invalid_input` naming it). Sent once,
   * never retried: a lost answer is `outcome_unknown`.
   *
   * @example
   * const customer = await merchant.createCustomer({ email: "wanjiru@example.com", firstName: "Wanjiru",
   *   lastName: "Kamau", country: kenya.id });
   */
  createCustomer(options: CreateCustomerOptions): Promise<Customer> {
    return callMerchant(this, "createCustomer", undefined, options);
  }

  /**
   * Adds a payment method to a customer (secret key): `paymentMethodType` is a type's `identifier`
   * from `paymentMethodTypes(countryId)`, and `fieldValues` the values of that type's `fields`, as
   * `{ identifier, value }` (sent as the operation's `fields` argument; `fields` still selects the
   * result's); `ownership` is `"first_party"` or `"third_party"`. Resolves with `{ id, value,
   * fields: [{ identifier, value }] }`. Sent once, never retried: a lost answer is
   * `outcome_unknown`.
   *
   * @example
   * const wallet = await merchant.addPaymentMethod({ customer: customer.id, paymentMethodType: "mpesa",
   *   fieldValues: [{ identifier: "phone_number", value: "+254712345678" },
   *     { identifier: "account_name", value: "Wanjiru Kamau" }], ownership: "first_party" });
   */
  addPaymentMethod(options: AddPaymentMethodOptions): Promise<CustomerPaymentMethod> {
    return callMerchant(this, "addPaymentMethod", undefined, options);
  }

  /**
   * The rate a customer gets for `amount` of `currency` (`"usd"` or `"local_currency"`, sent as
   * given) by `paymentMethodType` (secret key): a quote (`{ id, exchangeRate, paymentType }`) that
   * one deposit or withdrawal then takes, within 30 to 180 seconds. A read: retried on retryable
   * failures.
   *
   * @example
   * const quote = await merchant.rampQuote({ customer: customer.id, amount: "1294.00", currency: "local_currency",
   *   paymentType: "deposit", paymentMethodType: "mpesa", country: "KE" });
   */
  rampQuote(options: RampQuoteOptions): Promise<RampQuote> {
    return callMerchant(this, "rampQuote", undefined, options);
  }

  /**
   * The same quote at a fresh rate, valid again (secret key), and a new `amount` when given:
   * resolves with `{ id, exchangeRate, paymentType }`. What to do when a deposit or
   * withdrawal is refused because the quote expired (`graphql`, the service's code
   * `QUOTE_EXPIRED` in the sandbox). A read: retried on retryable failures.
   *
   * @example
   * const fresh = await merchant.refreshRampQuote({ rampQuote: quote.id });
   */
  refreshRampQuote(options: RefreshRampQuoteOptions): Promise<RampQuote> {
    return callMerchant(this, "refreshRampQuote", undefined, options);
  }

  /**
   * Starts a deposit at a `deposit` quote's rate (secret key): the customer then pays the agent as
   * `paymentDetails` says, and `markDepositAsPaid` tells the service. Give `phoneNumber` for mobile
   * money, `bankAccountNumber` for a bank transfer, `onchainTransferInfo` (`{ address,
   * cryptocurrency, network }`, sent as given) for the crypto's destination. Resolves with the
   * request, `pending` (`{ id, status, agent, paymentDetails, exchangeRate, amountLocal, amountUsd,
   * expiresAt }`). Sent once, never retried: a
   * lost answer is `outcome_unknown` (the quote may be used by then: get a new one rather than
   * retrying blindly).
   *
   * @example
   * const deposit = await merchant.initiateRampQuoteDeposit({ rampQuote: quote.id, reference: orderId,
   *   phoneNumber: "+254712345678" });
   */
  initiateRampQuoteDeposit(options: InitiateRampQuoteDepositOptions): Promise<QuotePaymentRequest> {
    return callMerchant(this, "initiateRampQuoteDeposit", undefined, options);
  }

  /**
   * Starts a withdrawal at a `withdrawal` quote's rate to one of the customer's payment methods
   * (secret key): an agent has it at once (`picked_up`) and pays it, then
   * `markWithdrawalAsReceived` says the customer got it.
   * Resolves with the request, as `initiateRampQuoteDeposit` does. Sent once, never retried: a lost
   * answer is `outcome_unknown`.
   *
   * @example
   * const withdrawal = await merchant.initiateRampQuoteWithdrawal({ rampQuote: quote.id,
   *   paymentMethod: wallet.id, reference: payoutId });
   */
  initiateRampQuoteWithdrawal(options: InitiateRampQuoteWithdrawalOptions): Promise<QuotePaymentRequest> {
    return callMerchant(this, "initiateRampQuoteWithdrawal", undefined, options);
  }

  /**
   * Says the customer paid the agent of a deposit (`pending` → `paid`; secret key), with an
   * optional `receipt`: its URL or a reference (any text but blank, sent as given). Resolves with
   * `true`. Sent once, never retried: a lost answer is `outcome_unknown`.
   *
   * @example
   * await merchant.markDepositAsPaid({ paymentRequest: deposit.id, receipt: "MPESA-QK71H2X9" });
   */
  markDepositAsPaid(options: MarkDepositAsPaidOptions): Promise<boolean> {
    return callMerchant(this, "markDepositAsPaid", undefined, options);
  }

  /**
   * Says the customer received a withdrawal's payment (secret key). Resolves with `true`. Sent
   * once, never retried: a lost answer is `outcome_unknown`.
   *
   * @example
   * await merchant.markWithdrawalAsReceived(withdrawal.id);
   */
  markWithdrawalAsReceived(paymentRequest: string, options?: RequestOptions): Promise<boolean> {
    return callMerchant(this, "markWithdrawalAsReceived", paymentRequest, options);
  }

  /**
   * Cancels a deposit the customer has not paid (`pending`; secret key). Resolves with `true`. Sent once,
   * never retried: a lost answer is `outcome_unknown`.
   *
   * @example
   * await merchant.cancelDeposit(deposit.id);
   */
  cancelDeposit(paymentRequest: string, options?: RequestOptions): Promise<boolean> {
    return callMerchant(this, "cancelDeposit", paymentRequest, options);
  }
}

// Every secret-key operation has its method here, typed exactly as its declaration says: the
// names, parameters and results come from the declarations (src/operations.rs, generated into
// operations.ts), so tsc fails on this line when one has no method or a method differs.
type Assert<T extends true> = T;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type EveryServerMethod = Assert<Equal<Pick<MerchantClient, ServerMerchantMethod>, Pick<MethodSignatures, ServerMerchantMethod>>>;
