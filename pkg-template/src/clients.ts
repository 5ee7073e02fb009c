// `BotClient` and `MerchantClient`. Each holds its wasm `Core` (the validated configuration) in
// a private field, which is also the brand: a method called on anything but a live instance of
// its own class is refused (`invalid_input`, field `this`). Every method asks the Core to
// prepare its call (validation, document, body) and hands it to the one driver (call.ts).
import type {
  Account, AgentProfile, BotClientOptions, Confirmation, ConfirmOutcome, ConfirmTransactionOptions,
  ConfirmUntilSettledOptions, Core, Country, GraphQLVariables, MarketRate,
  MarkWithdrawalAsPaidOptions, MerchantCallOptions, MerchantClientOptions, OrderHistoryOptions,
  OrderHistoryPage, OrderSearch, OrdersOptions, P2PPayment, P2PPaymentMethod, PaymentMethodType,
  PaymentRequest, PreparedCall, ProfileOptions, RampableAsset, RampLimits, ReconcileOptions,
  RequestOptions, ResponseInfo, SettlementEventMap, UpdatePaymentMethodLiquidityOptions, UpdateRatesOptions,
  WatchOrdersOptions, WithdrawalInfo, WithdrawalInfoOptions, CallSource,
} from "./glue/settlement_wasm.js";
import { run } from "./call.js";
import { confirm } from "./confirm.js";
import type { BotMethod, MerchantMethod, MethodSignatures, ServerMerchantMethod } from "./operations.js";
import { fromGlue, invalid, notLive } from "./errors.js";
import { Emitter, type Observer } from "./events.js";
import { first, iterate, type OrderIterator } from "./orders.js";
import { watch, type OrderWatch } from "./watch.js";
import { generation, release, wasm } from "./wasm.js";

/** What `withResponse` collects: the call its function started, and the response behind its value. */
interface Capture {
  call?: Promise<unknown>;
  response: ResponseInfo;
}

/** What a client instance holds: its Core while it is live, and what its calls need. */
class Client {
  /** The Core; null once free() was called. Calls in flight do not need it. */
  core: Core | null;
  /** The validated `fetch` option, read once. */
  readonly fetch: Function | undefined;
  /** How many of this client's Core calls are running: they may read the caller's values. */
  busy = 0;
  /** The listeners and the `logger` option. */
  readonly events: Emitter;
  /** Set by `withResponse` while its function runs: the first call started takes it. */
  capture: Capture | undefined;
  /** The instance the Core lives in (wasm.ts `generation`). */
  #generation: number;

  constructor(readonly what: string, readonly endpoint: "bot" | "merchant", readonly options: unknown) {
    this.#generation = generation();
    const core = this.#make();
    this.core = core;
    this.fetch = core.fetch;
    // The `logger` option was read once, by the Core, which writes the lines.
    this.events = new Emitter(core.logs);
  }

  /** How a call `source` made is observed. */
  observer(source: CallSource): Observer {
    return { emitter: this.events, source };
  }

  /** A Core from the options, in the current instance. */
  #make(): Core {
    try {
      return new (wasm().Core)(this.endpoint, this.options);
    } catch (e) {
      throw fromGlue(e, this.what);
    }
  }

  /**
   * `f(core)`, or `invalid_input` (`this`) once freed; free() is refused while it runs. After
   * the instance was replaced (a trap), the Core is made again from the options first.
   */
  use<T>(f: (core: Core) => T): T {
    let core = this.core;
    if (!core) throw notLive(this.what);
    if (this.#generation !== generation()) {
      core = this.#make();
      this.core = core;
      this.#generation = generation();
    }
    this.busy++;
    try {
      return f(core);
    } catch (e) {
      throw fromGlue(e, this.what);
    } finally {
      this.busy--;
    }
  }

  /** The call `prepare` makes, run to its end; a refusal rejects. */
  send<T>(prepare: (core: Core) => PreparedCall): Promise<T> {
    const capture = this.capture;
    this.capture = undefined;
    let call: PreparedCall;
    try {
      call = this.use(prepare);
    } catch (e) {
      const refused = Promise.reject(e);
      if (capture) capture.call = refused;
      return refused;
    }
    const p = run(this.fetch, call, this.observer("call"), capture && ((r) => { capture.response = r; })) as Promise<T>;
    if (capture) capture.call = p;
    return p;
  }

  /** An iterator over the search `open` makes (`source`: `orders` or `reconcile`). */
  search<Row = P2PPayment>(open: (core: Core) => OrderSearch, source: CallSource = "orders"): OrderIterator<Row> {
    return iterate<Row>(this.use(open), this.fetch, this.observer(source));
  }

  /**
   * The call `start(self)` makes, with the response behind its value: `start` must start
   * exactly one call of this client at once (`c => c.profile()`); else `invalid_input` (`call`).
   */
  withResponse<T>(self: unknown, start: unknown): Promise<{ data: T; response: ResponseInfo }> {
    const capture: Capture = { response: { status: 0, headers: {} } };
    const before = this.capture;
    this.capture = capture;
    try {
      // What `start` returns is not used: the call it started is the one `send` recorded.
      if (typeof start === "function") start(self);
    } catch (e) {
      return Promise.reject(fromGlue(e, this.what));
    } finally {
      this.capture = before;
    }
    const call = capture.call;
    return call
      ? call.then((data) => ({ data: data as T, response: capture.response }))
      : Promise.reject(invalid("call", "call: must start one call of this client, e.g. c => c.profile()"));
  }

  /**
   * Releases the Core at once (calls in flight finish without it). Refused while one of this
   * client's Core calls is reading the caller's values (a getter that frees its own client):
   * the Core is in use.
   */
  free(): void {
    const core = this.core;
    if (!core || this.busy) throw notLive(this.what);
    this.core = null;
    release(core);
  }
}

/**
 * The call `prepare` makes on `client`'s Core, run to its end; `client` is undefined when the
 * method was called on something that is not a `what`: then it rejects (`invalid_input`,
 * field `this`), as it does for a refused call.
 */
function send<T>(client: Client | undefined, what: string, prepare: (core: Core) => PreparedCall): Promise<T> {
  return client ? client.send<T>(prepare) : Promise.reject(notLive(what));
}

/** `on` (`add`) or `off` on `client`'s emitter; `invalid_input` (field `this`) when `client` is undefined. */
function listen<S>(client: Client | undefined, what: string, self: S, add: boolean, type: unknown, listener: unknown): S {
  if (!client) throw notLive(what);
  client.events[add ? "on" : "off"](type, listener, what);
  return self;
}

/** `client.free()`; `invalid_input` (field `this`) when `client` is undefined (not a `what`). */
function free(client: Client | undefined, what: string): void {
  if (!client) throw notLive(what);
  client.free();
}

/** Client of the bot (agent) endpoint; every method rejects with a `SettlementError`. */
export class BotClient {
  #client: Client;

  /** Throws `SettlementError` (`invalid_input`) for invalid options; see `BotClientOptions`. */
  constructor(options: BotClientOptions) {
    this.#client = new Client("BotClient", "bot", options);
  }

  /** The client of `self` if it is a BotClient (live or freed). */
  static #of(self: unknown): Client | undefined {
    return typeof self === "object" && self !== null && #client in self ? self.#client : undefined;
  }

  /** The call of `method` (its operation's argument, if it takes one, and options) on `self`'s Core. */
  static #call<T>(self: unknown, method: BotMethod, argument: unknown, options: unknown): Promise<T> {
    return send<T>(BotClient.#of(self), "BotClient", (core) => core.prepare(method, argument, options));
  }

  /** Releases the client's wasm memory; the client is unusable afterwards (`invalid_input`, field `this`). */
  free(): void {
    free(BotClient.#of(this), "BotClient");
  }

  /**
   * Calls `listener` with every event of `type` of this client's calls (`request`, `response`,
   * `retry`, `error`, `done`; see the README's table), after the fact: it cannot change the
   * call, and one that throws is reported once on the console. Returns the client. Throws
   * `invalid_input` (field `type` or `listener`).
   */
  on<K extends keyof SettlementEventMap>(type: K, listener: (event: SettlementEventMap[K]) => void): this {
    return listen(BotClient.#of(this), "BotClient", this, true, type, listener);
  }

  /** Stops calling `listener` for `type`. Returns the client. Throws as `on` does. */
  off<K extends keyof SettlementEventMap>(type: K, listener: (event: SettlementEventMap[K]) => void): this {
    return listen(BotClient.#of(this), "BotClient", this, false, type, listener);
  }

  /**
   * The value of the call `call` starts, with the response behind it (`{ status, headers,
   * requestId? }`), from the same request: `await client.withResponse((c) => c.profile())`.
   * `call` must start exactly one call of this client at once; else `invalid_input` (field
   * `call`). A failed call rejects as usual (its error carries `headers` and `requestId`).
   */
  withResponse<T>(call: (client: this) => Promise<T>): Promise<{ data: T; response: ResponseInfo }> {
    const client = BotClient.#of(this);
    return client ? client.withResponse<T>(this, call) : Promise.reject(notLive("BotClient"));
  }

  /** Every matching order, page by page, for `for await`; throws on invalid options. */
  orders(options?: OrdersOptions): OrderIterator {
    const client = BotClient.#of(this);
    if (!client) throw notLive("BotClient");
    return client.search((core) => core.orders(options));
  }

  /**
   * A live view of the first page of the order history: an `OrderWatch`, async iterable of
   * updates `{ rows, added, changed, removed, total }` (the first has every row in `added`;
   * later ones come only when something changed). Polls one request at a time, `intervalMs`
   * (10 s) after the previous one settled; backs off after a retryable failure (up to
   * `maxIntervalMs`, honouring `Retry-After`); pauses while the page is hidden
   * (`pauseWhenHidden`); ends with the `SettlementError` of a failure that is not retryable.
   * `stop()`, `break` or the `signal` option's abort end it. Throws on invalid options.
   */
  watchOrders(options?: WatchOrdersOptions): OrderWatch {
    const client = BotClient.#of(this);
    if (!client) throw notLive("BotClient");
    const controller = new AbortController();
    return watch(client.use((core) => core.watchOrders(options, controller.signal)), controller, client.fetch, client.observer("watchOrders"));
  }

  /**
   * The order's current record, or `null`: reads `order.orderId` back with `orders()` and
   * returns the row whose `id` is `order.id` (`fields` always gets `id`). The pattern after
   * `outcome_unknown`: reconcile, never resend blindly. Rejects with `invalid_input`
   * (`order.id`, `order.orderId`) before any request.
   */
  reconcile(order: Pick<P2PPayment, "id" | "orderId">, options?: ReconcileOptions): Promise<P2PPayment | null> {
    const client = BotClient.#of(this);
    if (!client) return Promise.reject(notLive("BotClient"));
    try {
      return first(client.search((core) => core.reconcile(order, options), "reconcile"));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * The agent's profile: balances, margins, rates and counters. The default selection is every
   * `AgentProfile` field but `apiKey` (the agent's own key is never read unless asked for by
   * name in `fields`). Retried after network errors, timeouts, 429 and 502–504 (see
   * `BotClientOptions`). Rejects with a `SettlementError`: `invalid_input` for bad `fields`
   * before any request, `unauthorized` for a key the service refuses.
   *
   * @example
   * const { accountBalance, escrowBalance } = await bot.profile({ fields: ["accountBalance", "escrowBalance"] });
   */
  profile(options?: ProfileOptions): Promise<AgentProfile> {
    return BotClient.#call(this, "profile", undefined, options);
  }

  /**
   * One page of the order history, newest first: `{ data, pagination: { page, perPage, total } }`.
   * `page` is required (from 1); `filter` narrows by `orderId`, `status`, `dateFrom`/`dateTo`
   * (`YYYY-MM-DD` or a `Date`) and `paymentMethod`, all together. Every option is checked
   * before the request (`invalid_input` naming it); see `OrderHistoryOptions`. To walk every
   * page, use `orders()`.
   *
   * @example
   * const page = await bot.orderHistory({ page: 1, perPage: 25, filter: { status: "completed" } });
   */
  orderHistory(options: OrderHistoryOptions): Promise<OrderHistoryPage> {
    return BotClient.#call(this, "orderHistory", undefined, options);
  }

  /**
   * Withdrawal information for a coin such as `"USDC"` (its networks and the address and memo
   * patterns, as the official SDKs select them; its `name` and `icon`, which the documentation
   * shows, with `fields`), or `null` when the service does not know the symbol. The symbol is
   * trimmed and must not be empty (`invalid_input`, field `symbol`).
   */
  withdrawalInfo(symbol: string, options?: WithdrawalInfoOptions): Promise<WithdrawalInfo | null> {
    return BotClient.#call(this, "withdrawalInfo", symbol, options);
  }

  /**
   * Accepts a pending withdrawal: the order moves from `pending` to `picked_up`. `p2pPayment`
   * is the order's `id` (not its `orderId`). Sent once, never retried: when the answer is lost
   * (network error, timeout, or an abort after it was sent) it rejects with `outcome_unknown`,
   * and `reconcile(order)` tells whether it took effect.
   */
  acceptWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean> {
    return BotClient.#call(this, "acceptWithdrawal", p2pPayment, options);
  }

  /**
   * Cancels a withdrawal (`pending` or `picked_up` → `canceled`), by the order's `id`. Sent
   * once, never retried; a lost answer is `outcome_unknown` (see `acceptWithdrawal`).
   */
  cancelWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean> {
    return BotClient.#call(this, "cancelWithdrawal", p2pPayment, options);
  }

  /**
   * Confirms that a deposit's fiat arrived (→ `completed`), by the order's `id`. Sent once,
   * never retried; a lost answer is `outcome_unknown` (see `acceptWithdrawal`).
   */
  markDepositAsReceived(p2pPayment: string, options?: RequestOptions): Promise<boolean> {
    return BotClient.#call(this, "markDepositAsReceived", p2pPayment, options);
  }

  /**
   * Records that an accepted withdrawal was paid (`picked_up` → `paid`): `p2pPayment` (the
   * order's `id`), the `paymentMethod` it was paid with, and an optional `receipt`: "a receipt
   * URL or reference" (any text but blank, sent as given). Unknown option names are refused. Sent
   * once, never retried; see
   * `MarkWithdrawalAsPaidOptions`.
   */
  markWithdrawalAsPaid(options: MarkWithdrawalAsPaidOptions): Promise<boolean> {
    return BotClient.#call(this, "markWithdrawalAsPaid", undefined, options);
  }

  /**
   * Sets the agent's deposit and withdrawal rates and margins: at least one of
   * `depositRate`, `depositMargin`, `withdrawalRate`, `withdrawalMargin`, each decimal text
   * such as `"1540.50"` (never a float). Unknown option names are refused (a misspelt rate is
   * never silently skipped). Sent once, never retried; see `UpdateRatesOptions`.
   */
  updateRates(options: UpdateRatesOptions): Promise<boolean> {
    return BotClient.#call(this, "updateRates", undefined, options);
  }

  /**
   * Sets the local currency available on one payment method: exactly one of `paymentMethod`
   * (its id) and `paymentMethodType`, and `amountLocal` (decimal text). Resolves with the
   * updated `P2PPaymentMethod`. Sent once, never retried; see
   * `UpdatePaymentMethodLiquidityOptions`.
   */
  updatePaymentMethodLiquidity(options: UpdatePaymentMethodLiquidityOptions): Promise<P2PPaymentMethod> {
    return BotClient.#call(this, "updatePaymentMethodLiquidity", undefined, options);
  }

  /**
   * Any other operation of the bot endpoint: resolves with the response's whole `data`.
   * `variables` must be a plain object that JSON can represent; every value travels there,
   * never in the document. Retried like the built-in queries only when every operation in
   * `document` is a query; a mutation is sent once.
   *
   * @example
   * const data = await bot.request("query W($s: String!) { withdrawalInfo(symbol: $s) { networks } }", { s: "USDC" });
   */
  request(document: string, variables?: GraphQLVariables | null, options?: RequestOptions): Promise<{ [field: string]: unknown }> {
    return send(BotClient.#of(this), "BotClient", (core) => core.request(document, variables, options));
  }
}

/**
 * The call of a merchant operation (its argument, if it takes one, and options) on `self`'s
 * Core: `self` is a `MerchantClient` (or an instance of the server entries' subclass, whose
 * secret-key methods go through it too). Set by the class. @internal
 */
export let callMerchant: <T>(
  self: unknown, method: MerchantMethod | ServerMerchantMethod, argument: unknown, options: unknown,
) => Promise<T>;

/**
 * An iterator over the search `open` makes on `self`'s Core (the server entries'
 * `customers()`); throws as `orders()` does. Set by the class. @internal
 */
export let searchMerchant: <Row>(self: unknown, open: (core: Core) => OrderSearch) => OrderIterator<Row>;

/** Client of the merchant endpoint (public-key-safe reads, and `account` with the secret key). */
export class MerchantClient {
  #client: Client;

  static {
    callMerchant = <T>(self: unknown, method: MerchantMethod | ServerMerchantMethod, argument: unknown, options: unknown) =>
      send<T>(MerchantClient.#of(self), "MerchantClient", (core) => core.prepare(method, argument, options));
    searchMerchant = <Row>(self: unknown, open: (core: Core) => OrderSearch) => {
      const client = MerchantClient.#of(self);
      if (!client) throw notLive("MerchantClient");
      return client.search<Row>(open);
    };
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

// `using client = new BotClient(…)` frees it at the end of the scope, where the engine has
// Symbol.dispose (declared nowhere: the declarations need no `esnext.disposable` lib).
const dispose = (Symbol as { readonly dispose?: symbol }).dispose;
if (typeof dispose === "symbol") {
  for (const C of [BotClient, MerchantClient]) {
    Object.defineProperty(C.prototype, dispose, { value: C.prototype.free, writable: true, configurable: true });
  }
}

// Every built-in operation has its method on its class, typed exactly as its declaration says:
// the names, parameters and results come from the declarations (src/operations.rs, generated
// into operations.ts), so tsc fails on these lines when a declared operation has no method
// here, or when a method's parameters or promised result differ from its declaration's.
type Assert<T extends true> = T;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type EveryBotMethod = Assert<Equal<Pick<BotClient, BotMethod>, Pick<MethodSignatures, BotMethod>>>;
type EveryMerchantMethod = Assert<Equal<Pick<MerchantClient, MerchantMethod>, Pick<MethodSignatures, MerchantMethod>>>;
