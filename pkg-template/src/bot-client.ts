// `BotClient`, the bot (agent) endpoint's client: the `settlement-wasm/bot` entry's, and the
// root's. What it shares with `MerchantClient` is in client.ts.
import type {
  AgentProfile, BotClientOptions, GraphQLVariables, MarkWithdrawalAsPaidOptions, OrderHistoryOptions,
  OrderHistoryPage, OrdersOptions, P2PPayment, P2PPaymentMethod, ProfileOptions, ReconcileOptions,
  RequestOptions, ResponseInfo, SettlementEventMap, UpdatePaymentMethodLiquidityOptions, UpdateRatesOptions,
  WatchOrdersOptions, WithdrawalInfo, WithdrawalInfoOptions,
} from "./glue/settlement_wasm.js";
import { type Assert, Client, disposable, type Equal, free, listen, send } from "./client.js";
import type { BotMethod, MethodSignatures } from "./operations.js";
import { notLive } from "./errors.js";
import { first, iterate, type OrderIterator } from "./orders.js";
import { watch, type OrderWatch } from "./watch.js";

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
    return iterate(client.use((core) => core.orders(options)), client.fetch, client.observer("orders"));
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
      return first(iterate(client.use((core) => core.reconcile(order, options)), client.fetch, client.observer("reconcile")));
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

disposable(BotClient);

/** Every bot operation has its method, typed as declared (see client.ts). */
type EveryBotMethod = Assert<Equal<Pick<BotClient, BotMethod>, Pick<MethodSignatures, BotMethod>>>;
