//! The TypeScript declarations the generated `.d.ts` needs beyond the classes: options,
//! results and the error shape. Kept in step with `types.rs`, `graphql.rs` and `error.rs`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A P2P payment status. The known lifecycle values are listed; unknown values pass through. */
export type P2PPaymentStatus = "pending" | "picked_up" | "paid" | "completed" | "canceled" | (string & {});

/** The `code` of a {@link SettlementError}. */
export type SettlementErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "http"
  | "graphql"
  | "network"
  | "timeout"
  | "aborted"
  | "decode"
  | "secret_key_in_browser";

/** Where a GraphQL error occurred in the document. */
export interface GraphQLErrorLocation {
  line: number;
  column: number;
}

/** One entry of a GraphQL response's `errors`, as the service sent it. */
export interface GraphQLErrorInfo {
  message: string;
  path?: ReadonlyArray<string | number>;
  locations?: ReadonlyArray<GraphQLErrorLocation>;
  extensions?: { [key: string]: unknown };
}

/** The structured part of a {@link SettlementError}. Absent members are omitted. */
export interface SettlementErrorDetails {
  code: SettlementErrorCode;
  /** For `invalid_input`: the argument or option at fault, e.g. `"filter.dateFrom"`. */
  field?: string;
  /** The HTTP status, whenever a response was received. */
  status?: number;
  /** How long the server asked to wait (`Retry-After`), in ms. */
  retryAfterMs?: number;
  /** Every GraphQL error of the response (also read from non-2xx GraphQL bodies). */
  graphqlErrors?: GraphQLErrorInfo[];
  /** Partial `data` of a response that also had errors. */
  data?: unknown;
}

/** Every failure rejects (or throws) with a SettlementError. Messages never contain the key. */
export interface SettlementError extends Error, SettlementErrorDetails {
  name: "SettlementError";
}

/** The class `__registerErrorClass` expects. */
export type SettlementErrorConstructor = new (message: string, details: SettlementErrorDetails) => SettlementError;

/** What the client needs from a `fetch` response. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** A `fetch` implementation, called with one `Request` (the global `fetch` fits). */
export type FetchLike = (input: Request) => Promise<FetchResponseLike>;

/**
 * Options of `new BotClient(…)`: exactly one of `baseUrl` and `endpoint`. Invalid options
 * throw a `SettlementError` (`invalid_input`, `field` naming the option) synchronously.
 *
 * Read-only calls are retried after network errors, timeouts, 429, 502, 503 and 504, up to
 * `maxRetries` times, with exponential backoff and full jitter (200 ms base, 5 s cap), or
 * after the server's `Retry-After` (capped at 60 s). Mutations are never retried.
 *
 * @example
 * const bot = new BotClient({ baseUrl: "https://api.example.com", apiKey });
 */
export interface BotClientOptions {
  /** The service's base URL (absolute http/https); `/service/bot/graphql` is appended. */
  baseUrl?: string;
  /** A full endpoint URL instead, or a same-origin path starting with `/` (e.g. a proxy). */
  endpoint?: string;
  /** The agent API key, sent as `Authorization: Bearer <key>`. Omit it behind a proxy that adds it. */
  apiKey?: string;
  /** Per-attempt timeout in ms. Default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for read-only calls. Default 2. */
  maxRetries?: number;
  /** Extra headers: a plain object of string (Latin-1) values; may not set Authorization or Content-Type. */
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global one. */
  fetch?: FetchLike;
}

/** Options every call accepts. */
export interface RequestOptions {
  /** Cancels the call at once (code `aborted`); never retried. */
  signal?: AbortSignal;
}

/**
 * Options of calls that select fields. Every name must match `/^[_A-Za-z][_0-9A-Za-z]*$/`
 * (checked before sending); an empty list is refused.
 */
export interface FieldOptions extends RequestOptions {
  /** Field names to select instead of the default; dotted paths (at most 16 names) select nested fields (`"totp.enabled"`). */
  fields?: readonly string[];
}

/** Options of `profile`. */
export type ProfileOptions = FieldOptions;
/** Options of `withdrawalInfo`. */
export type WithdrawalInfoOptions = FieldOptions;

/** Narrows the order history; every member given applies. */
export interface OrderHistoryFilter {
  orderId?: string;
  status?: P2PPaymentStatus;
  /** First day included: `YYYY-MM-DD`, or a Date (its UTC date). */
  dateFrom?: string | Date;
  /** Last day included: `YYYY-MM-DD`, or a Date (its UTC date). */
  dateTo?: string | Date;
  paymentMethod?: string;
}

/**
 * Options of `orders()`: every matching order, page by page, as an async iterable. The next
 * page is fetched only when needed; iteration stops at `pagination.total` or an empty page,
 * and is over after an error. Invalid options throw at once from `orders()`.
 *
 * @example
 * for await (const order of bot.orders({ perPage: 100, filter: { status: "paid" } })) { … }
 */
export interface OrdersOptions extends FieldOptions {
  /** Rows per page fetched (integer ≥ 1; the service's default is 10). */
  perPage?: number;
  filter?: OrderHistoryFilter;
}

/**
 * Options of `orderHistory()`. Refused before sending (`invalid_input`, `field` naming the
 * argument): `page`/`perPage` not integers ≥ 1, a date that is not a real `YYYY-MM-DD`
 * calendar date, `dateFrom` after `dateTo`, a status that is not an enum name, an empty
 * `orderId`/`paymentMethod`, an unknown filter key. The default row selection includes
 * `paymentMethod`, `amountLocal`, `amountUsd` and `currency`, which the service may lack:
 * pass `fields` if it refuses them.
 */
export interface OrderHistoryOptions extends OrdersOptions {
  /** Page number, an integer ≥ 1. */
  page: number;
}

/** Variables of a `request` document. */
export type GraphQLVariables = { [name: string]: unknown };

/**
 * The agent's profile. Decimals are strings. The default selection is every member below;
 * with `fields`, only the chosen ones are present.
 */
export interface AgentProfile {
  id: string;
  email?: string | null;
  accountBalance?: string | null;
  escrowBalance?: string | null;
  bonusEarnings?: string | null;
  depositAddress?: string | null;
  verificationStatus?: string | null;
  autoUpdateDepositRate?: boolean | null;
  autoUpdateWithdrawalRate?: boolean | null;
  creditLine?: string | null;
  usedCreditLine?: string | null;
  depositMargin?: string | null;
  withdrawalMargin?: string | null;
  averageDepositRate?: string | null;
  averageWithdrawalRate?: string | null;
  depositsCompleted?: number | null;
  withdrawalsCompleted?: number | null;
  totalDepositFiatAmount?: string | null;
  totalDepositUsdAmount?: string | null;
  totalWithdrawalFiatAmount?: string | null;
  totalWithdrawalUsdAmount?: string | null;
  enforceReceiptUpload?: boolean | null;
  [field: string]: unknown;
}

/**
 * One P2P payment (order). Decimals are strings. The default selection is every member
 * below; with `fields`, only the chosen ones are present.
 */
export interface P2PPayment {
  id: string;
  status: P2PPaymentStatus;
  paymentType?: "deposit" | "withdrawal" | (string & {});
  exchangeRate?: string | null;
  exchangeRateMinusSurcharge?: string | null;
  orderId?: string | null;
  source?: string | null;
  instant?: boolean | null;
  createdAt?: string | null;
  expiresAt?: string | null;
  expiresAtSecs?: number | null;
  reassigning?: boolean | null;
  reassignAfter?: string | null;
  reassignAfterSecs?: number | null;
  agentCutOfFees?: string | null;
  fxSpreadRevenue?: string | null;
  /** Not in the service's observed schema (selected by default; pass `fields` if refused). */
  paymentMethod?: string | null;
  /** Not in the service's observed schema (selected by default; pass `fields` if refused). */
  amountLocal?: string | null;
  /** Not in the service's observed schema (selected by default; pass `fields` if refused). */
  amountUsd?: string | null;
  /** Not in the service's observed schema (selected by default; pass `fields` if refused). */
  currency?: string | null;
  [field: string]: unknown;
}

/** Page information. */
export interface Pagination {
  page: number;
  perPage: number;
  /** Rows matching the filter, over all pages. */
  total: number;
}

/** One page of the order history. */
export interface OrderHistoryPage {
  data: P2PPayment[];
  pagination: Pagination;
}

/** How to withdraw one coin. */
export interface WithdrawalInfo {
  symbol: string;
  name?: string | null;
  /** Icon URL. */
  icon?: string | null;
  networks: string[];
  addressRegex?: string | null;
  memoRegex?: string | null;
  [field: string]: unknown;
}

export interface OrderIterator {
  [Symbol.asyncIterator](): OrderIterator;
}

/**
 * Options of `new MerchantClient(…)`: those of {@link BotClientOptions}, with a merchant key;
 * requests go to `${baseUrl}/service/api/graphql`.
 *
 * Front-end apps hold the merchant **public** key (`PUBK_`); servers hold the **secret** key
 * (`SECK_`). Where page visitors can read the key — a `window` or `document` global, or a
 * worker — a secret key makes the constructor throw a `SettlementError` with code
 * `secret_key_in_browser`: use the public key there, and make secret-key calls on a server
 * or through a proxy `endpoint` of yours that adds the key. In Node a secret key is normal.
 *
 * @example
 * // Browser: public key, public-key-safe reads.
 * const merchant = new MerchantClient({ baseUrl: "https://api.example.com", apiKey: publicKey });
 * // Browser, through your proxy (your server adds the secret key): no apiKey here.
 * const viaProxy = new MerchantClient({ endpoint: "/api/merchant" });
 */
export interface MerchantClientOptions extends Omit<BotClientOptions, "apiKey"> {
  /** The merchant key, sent as `Authorization: Bearer <key>`: public in browsers, secret on servers. */
  apiKey?: string;
  /**
   * Accept a secret key in a browser anyway: anyone who opens the page can then read it.
   * Default `false`.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** Options of every `MerchantClient` call: `fields` to select instead of the default, `signal`. */
export type MerchantCallOptions = FieldOptions;

/** The merchant account (`account`; needs the secret key). Money is decimal text: see {@link parseAmount}. */
export interface Account {
  id: string;
  /** Two decimals, e.g. `"1520.00"`. */
  accountBalance?: string | null;
  depositAddress?: string | null;
  [field: string]: unknown;
}

/** A country's currency. */
export interface Currency {
  /** ISO 4217, e.g. `"NGN"`. */
  isoCode: string;
  name: string;
}

/** A country the service operates in. */
export interface Country {
  /** What `paymentMethodTypes` takes. */
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2, e.g. `"NG"` (what `marketRate` takes). */
  code: string;
  currency: Currency;
  [field: string]: unknown;
}

/** One field a payment method asks for. */
export interface PaymentMethodField {
  label: string;
  identifier: string;
  required: boolean;
}

/** A P2P payment method of a country. */
export interface PaymentMethodType {
  id: string;
  /** e.g. `"mpesa"`, `"bank_transfer"`. */
  identifier: string;
  label: string;
  fields: PaymentMethodField[];
  [field: string]: unknown;
}

/** Indicative rates, local currency per USD (decimal text). */
export interface MarketRate {
  depositRate: string;
  withdrawalRate: string;
  [field: string]: unknown;
}

/** Ramp limits in USD (decimal text). */
export interface RampLimits {
  minimumDepositUsd: string;
  maximumDepositUsd: string;
  minimumWithdrawalUsd: string;
  maximumWithdrawalUsd: string;
  dailyLimitUsd: string;
  [field: string]: unknown;
}

/** An asset the onchain ramp handles. */
export interface RampableAsset {
  name: string;
  /** e.g. `"USDC"`. */
  symbol: string;
  /** e.g. `["CELO", "BASE"]`. */
  networks: string[];
  contractAddress?: string | null;
  [field: string]: unknown;
}

/** A payment request's status. The known values are listed; unknown values pass through. */
export type PaymentRequestStatus = "created" | "picked_up" | "completed" | "canceled" | (string & {});

/** A merchant payment request (`merchantPaymentRequest`). */
export interface PaymentRequest {
  id: string;
  paymentType: "deposit" | "withdrawal" | (string & {});
  /** The hosted page of this request. */
  hostedLink: string;
  /** Decimal text. */
  amount: string;
  /** ISO 4217. */
  currency: string;
  reference: string;
  status: PaymentRequestStatus;
  [field: string]: unknown;
}

/**
 * Options of `onchainRampUrl`. Refused with `invalid_input` (`field` naming the option): a
 * `rampUrl` that is not absolute `https` (`http` only for `localhost` / `127.0.0.1`) or that
 * has a query or fragment; a `key` that is not public (a link leaks its key to every log and
 * history); a `paymentType` other than `deposit` / `withdrawal`; an empty `coin` or
 * `network`; an `amount` that is not a positive decimal; a `currency` that is not 3 letters;
 * a `redirectUrl` that is not absolute http(s). Optional values that are absent or `""` are
 * left out of the link.
 *
 * @example
 * const link = onchainRampUrl({ rampUrl, key: publicKey, paymentType: "deposit", coin: "USDC",
 *   network: "CELO", amount: "25.00", reference: "order-42" });
 */
export interface OnchainRampOptions {
  /** The environment's hosted ramp page, e.g. `"https://ramp.example/onramp"`. */
  rampUrl: string;
  /** The merchant public key (`PUBK_`). */
  key: string;
  paymentType: "deposit" | "withdrawal";
  /** e.g. `"USDC"`. */
  coin: string;
  /** e.g. `"CELO"`, `"BASE"`, `"OP"`. */
  network: string;
  /** The wallet address. */
  address?: string;
  /** A positive decimal, e.g. `"25.00"` (text, never a float). */
  amount?: string;
  /** Your reference. */
  reference?: string;
  /** Where the page sends the user afterwards (absolute http(s)). */
  redirectUrl?: string;
  /** ISO 4217, e.g. `"NGN"`. */
  currency?: string;
  phone?: string;
  hideAddress?: boolean;
  isWalletContext?: boolean;
}

/** The payment request a `crypto.requested` event refers to (an id, or an object with at least these). */
export interface RampPaymentRequest {
  id?: string;
  reference?: string | null;
  amount?: string | null;
  [field: string]: unknown;
}

/** The `payload` of a `crypto.requested` event: send `amountCents` of the coin to `destinationAddress`. */
export interface RampEventPayload {
  /** A whole number ≥ 0. */
  amountCents: number;
  destinationAddress: string;
  paymentRequest: RampPaymentRequest | string;
  [field: string]: unknown;
}

/** The message the hosted ramp page posts to its opener or parent. */
export interface RampEvent {
  event: "crypto.requested";
  payload: RampEventPayload;
}

/** Where `listenForRampEvents` listens: `window` (the default, `globalThis`), a worker, or any `EventTarget`. */
export interface RampEventTarget {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

/**
 * Options of `listenForRampEvents`. Only messages whose `origin` is exactly `allowedOrigin`
 * and whose data is a well-formed `crypto.requested` event reach `onCryptoRequested`;
 * everything else is ignored. Invalid options throw `invalid_input`.
 */
export interface RampListenerOptions {
  /** The ramp page's origin as browsers write it, e.g. `"https://ramp.example"`: lower case, no default port, no path, no trailing `/`. */
  allowedOrigin: string;
  /** Called once per accepted message with its payload and the `MessageEvent`. */
  onCryptoRequested: (payload: RampEventPayload, event: MessageEvent<RampEvent>) => void;
  /** Default `globalThis` (the window); it must have `addEventListener`. */
  target?: RampEventTarget;
}

/** Decimal text as an exact integer and a scale: `"1520.00"` → `{ minorUnits: 152000n, scale: 2 }`. */
export interface ParsedAmount {
  /** The amount with the decimal point removed. */
  minorUnits: bigint;
  /** Digits after the decimal point. */
  scale: number;
}
"#;
