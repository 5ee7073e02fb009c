// `MerchantClient`, the merchant endpoint's client with a public key: the
// `settlement-wasm/merchant` entry's, and the root's (the server entries extend it with the
// secret-key operations, server.ts). What it shares with `BotClient` is in client.ts.
import type {
  Account, Confirmation, ConfirmOutcome, ConfirmTransactionOptions, ConfirmUntilSettledOptions, Country,
  MarketRate, MerchantCallOptions, MerchantClientOptions, PaymentMethodType, PaymentRequest, RampableAsset,
  RampLimits, ResponseInfo, SettlementEventMap,
} from "./glue/settlement_wasm.js";
import { type Assert, Client, disposable, type Equal, free, listen, send } from "./client.js";
import { confirm } from "./confirm.js";
import type { MerchantMethod, MethodSignatures, ServerMerchantMethod } from "./operations.js";
import { notLive } from "./errors.js";

/**
 * The call of a merchant operation (its argument, if it takes one, and options) on `self`'s
 * Core: `self` is a `MerchantClient` (or an instance of the server entries' subclass, whose
 * secret-key methods go through it too). Set by the class. @internal
 */
export let callMerchant: <T>(
  self: unknown, method: MerchantMethod | ServerMerchantMethod, argument: unknown, options: unknown,
) => Promise<T>;

/**
 * The `Client` of `self` if it is a `MerchantClient` (live or freed; the server entries'
 * `customers()` iterates a search on its Core). Set by the class. @internal
 */
export let merchantClient: (self: unknown) => Client | undefined;

/** Client of the merchant endpoint (public-key-safe reads, and `account` with the secret key). */
export class MerchantClient {
  #client: Client;

  static {
    callMerchant = <T>(self: unknown, method: MerchantMethod | ServerMerchantMethod, argument: unknown, options: unknown) =>
      send<T>(MerchantClient.#of(self), "MerchantClient", (core) => core.prepare(method, argument, options));
    merchantClient = (self: unknown) => MerchantClient.#of(self);
  }

  /** Throws `SettlementError` (`secret_key_in_browser`, `invalid_input`); see `MerchantClientOptions`. */
  constructor(options: MerchantClientOptions) {
    this.#client = new Client("MerchantClient", "merchant", options);
  }

  /** The client of `self` if it is a MerchantClient (live or freed). */
  static #of(self: unknown): Client | undefined {
    return typeof self === "object" && self !== null && #client in self ? self.#client : undefined;
  }

  /** Releases the client's wasm memory; the client is unusable afterwards (`invalid_input`, field `this`). */
  free(): void {
    free(MerchantClient.#of(this), "MerchantClient");
  }

  /**
   * Calls `listener` with every event of `type` of this client's calls (`request`, `response`,
   * `retry`, `error`, `done`; see the README's table), after the fact: it cannot change the
   * call, and one that throws is reported once on the console. Returns the client. Throws
   * `invalid_input` (field `type` or `listener`).
   */
  on<K extends keyof SettlementEventMap>(type: K, listener: (event: SettlementEventMap[K]) => void): this {
    return listen(MerchantClient.#of(this), "MerchantClient", this, true, type, listener);
  }

  /** Stops calling `listener` for `type`. Returns the client. Throws as `on` does. */
  off<K extends keyof SettlementEventMap>(type: K, listener: (event: SettlementEventMap[K]) => void): this {
    return listen(MerchantClient.#of(this), "MerchantClient", this, false, type, listener);
  }

  /**
   * The value of the call `call` starts, with the response behind it (`{ status, headers,
   * requestId? }`), from the same request: `await client.withResponse((c) => c.rampLimits())`.
   * `call` must start exactly one call of this client at once; else `invalid_input` (field
   * `call`). A failed call rejects as usual (its error carries `headers` and `requestId`).
   */
  withResponse<T>(call: (client: this) => Promise<T>): Promise<{ data: T; response: ResponseInfo }> {
    const client = MerchantClient.#of(this);
    return client ? client.withResponse<T>(this, call) : Promise.reject(notLive("MerchantClient"));
  }

  /**
   * The merchant account (`id`, `accountBalance`, `depositAddress`). Needs the secret key, so
   * it belongs on a server: the service answers a public key with `forbidden`.
   */
  account(options?: MerchantCallOptions): Promise<Account> {
    return callMerchant(this, "account", undefined, options);
  }

  /** The countries the service operates in. */
  availableCountries(options?: MerchantCallOptions): Promise<Country[]> {
    return callMerchant(this, "availableCountries", undefined, options);
  }

  /**
   * The P2P payment methods of a country, with the fields each one asks for. `countryId` is a
   * `Country.id` from `availableCountries()` (trimmed, not empty).
   */
  paymentMethodTypes(countryId: string, options?: MerchantCallOptions): Promise<PaymentMethodType[]> {
    return callMerchant(this, "paymentMethodTypes", countryId, options);
  }

  /**
   * Indicative deposit and withdrawal rates of a country, or `null` when the service has none.
   * `countryCode` is an ISO 3166-1 alpha-2 code (`"NG"`, any case; sent upper-case).
   */
  marketRate(countryCode: string, options?: MerchantCallOptions): Promise<MarketRate | null> {
    return callMerchant(this, "marketRate", countryCode, options);
  }

  /** The ramp limits (USD). */
  rampLimits(options?: MerchantCallOptions): Promise<RampLimits> {
    return callMerchant(this, "rampLimits", undefined, options);
  }

  /** The assets the onchain ramp handles. */
  rampableAssets(options?: MerchantCallOptions): Promise<RampableAsset[]> {
    return callMerchant(this, "rampableAssets", undefined, options);
  }

  /**
   * A payment request by its exact `reference` (the merchant's own identifier, sent exactly
   * as given), or `null` when the service does not know it.
   */
  paymentRequest(reference: string, options?: MerchantCallOptions): Promise<PaymentRequest | null> {
    return callMerchant(this, "paymentRequest", reference, options);
  }

  /**
   * Tells the service that the crypto a `crypto.requested` event asked for was sent (the
   * public key is enough): `paymentRequest` is the payload's `paymentRequest.id`,
   * `transactionHash` the hash of the transfer (`0x` and 64 hex digits for EVM chains, 64 hex
   * digits for Tron, 43 to 88 base58 characters for Solana; checked before sending). Resolves
   * `true` once the request is settled, `false` while the service has not seen or confirmed the
   * transfer yet. Sent once, never retried: a lost answer rejects with `outcome_unknown`
   * (confirming the same hash again is harmless; or read the request back with
   * `paymentRequest(reference)`). To confirm until settled, use `confirmUntilSettled`.
   */
  confirmTransaction(options: ConfirmTransactionOptions): Promise<boolean> {
    return callMerchant(this, "confirmTransaction", undefined, options);
  }

  /**
   * `confirmTransaction` again and again until the service reports the request settled, as
   * the service's own mini-app does: every `intervalMs` (default 5000), at most `maxTries`
   * times (default 10). Resolves `{ settled: true, tries }`, or `{ settled: false, tries }`
   * when the last try still was not settled. Each confirmation is sent once; the next is sent
   * only after the service answered "not yet". Rejects with the error that ends it: a
   * confirmation's (`outcome_unknown` when its answer is lost, `graphql` when the service
   * refuses), or `aborted` when `signal` fires between confirmations. Every option is checked
   * before anything is sent (`invalid_input`).
   *
   * @example
   * const { settled } = await merchant.confirmUntilSettled({ paymentRequest: payload.paymentRequest.id, transactionHash });
   */
  confirmUntilSettled(options: ConfirmUntilSettledOptions): Promise<ConfirmOutcome> {
    const client = MerchantClient.#of(this);
    if (!client) return Promise.reject(notLive("MerchantClient"));
    let confirmation: Confirmation;
    try {
      confirmation = client.use((core) => core.confirmation(options));
    } catch (e) {
      return Promise.reject(e);
    }
    return confirm(confirmation, client.fetch, client.observer("confirmUntilSettled"));
  }
}

disposable(MerchantClient);

/** Every merchant operation has its method, typed as declared (see client.ts). */
type EveryMerchantMethod = Assert<Equal<Pick<MerchantClient, MerchantMethod>, Pick<MethodSignatures, MerchantMethod>>>;
