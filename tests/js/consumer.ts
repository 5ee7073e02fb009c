// A strict TypeScript consumer: `tsc -p tests/js/tsconfig.json` must pass. It is never run;
// it proves the published .d.ts has real types (no `any` leaks into the public API).
import init, {
  BotClient, MerchantClient, SettlementError, classifyKey, onchainRampUrl, listenForRampEvents, parseAmount,
  type AgentProfile, type OrderHistoryPage, type P2PPayment, type WithdrawalInfo, type P2PPaymentStatus,
  type SettlementErrorCode, type MerchantClientOptions, type ConfirmOutcome, type InitiateHostedPaymentOptions,
  type OnchainWithdrawal, type Account, type Country, type CustomerCountry, type PaymentMethodType,
  type MarketRate, type RampLimits, type RampableAsset, type PaymentRequest, type OnchainRampOptions,
  type RampEvent, type RampEventPayload, type ParsedAmount,
  type BotClientOptions, type GraphQLErrorInfo, type OrderIterator, type OrderHistoryFilter, type FetchLike,
  type FetchResponseLike, type ClientOptions, type SettlementErrorDetails, type GraphQLErrorLocation, type Pagination,
  type RequestOptions, type ProfileOptions, type WithdrawalInfoOptions, type MerchantCallOptions, type OrdersOptions,
  type OrderHistoryOptions, type RampPaymentRequest, type RampListenerOptions, type PaymentRequestStatus,
  type GraphQLVariables, type Currency, type PaymentMethodField,
  OrderWatch, type OrderWatchUpdate, type OrderWatchStatus, type OrderWatchChange, type WatchOrdersOptions,
  createProxyHandler, type ProxyHandler, type ProxyOptions,
  type RampQuote, type RampQuoteOptions, type RefreshRampQuoteOptions, type Customer, type CreateCustomerOptions,
  type CustomerPaymentMethod, type AddPaymentMethodOptions, type PaymentMethodFieldInput,
  type OnchainTransferInfo, type PaymentMethodFieldValue, type QuotePaymentRequestStatus,
  type InitiateRampQuoteDepositOptions, type InitiateRampQuoteWithdrawalOptions, type MarkDepositAsPaidOptions, type QuotePaymentRequest,
  type MerchantCustomer, type MerchantCustomerPage, type MerchantCustomersOptions, type CustomersOptions, type PageInfo,
  type VirtualBankAccount, type OnchainWithdrawalStatus,
} from "settlement-wasm";

// Compile-time assertions.
type IsAny<T> = 0 extends 1 & T ? true : false;
type Assert<T extends true> = T;
type Not<T extends boolean> = T extends true ? false : true;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

type _profile = Assert<Not<IsAny<Awaited<ReturnType<BotClient["profile"]>>>>>;
type _history = Assert<Equal<Awaited<ReturnType<BotClient["orderHistory"]>>, OrderHistoryPage>>;
type _withdrawal = Assert<Not<IsAny<Awaited<ReturnType<BotClient["withdrawalInfo"]>>>>>;
type _code = Assert<Not<IsAny<SettlementError["code"]>>>;
type _status = Assert<Not<IsAny<P2PPayment["status"]>>>;
type _account = Assert<Equal<Awaited<ReturnType<MerchantClient["account"]>>, Account>>;
type _countries = Assert<Equal<Awaited<ReturnType<MerchantClient["availableCountries"]>>, Country[]>>;
type _methods = Assert<Equal<Awaited<ReturnType<MerchantClient["paymentMethodTypes"]>>, PaymentMethodType[]>>;
type _rate = Assert<Equal<Awaited<ReturnType<MerchantClient["marketRate"]>>, MarketRate | null>>;
type _limits = Assert<Equal<Awaited<ReturnType<MerchantClient["rampLimits"]>>, RampLimits>>;
type _assets = Assert<Equal<Awaited<ReturnType<MerchantClient["rampableAssets"]>>, RampableAsset[]>>;
type _request = Assert<Equal<Awaited<ReturnType<MerchantClient["paymentRequest"]>>, PaymentRequest | null>>;
// The onchain ramp's confirmation (every entry), and the secret-key operations, which this
// Node consumer sees through the server entry's types (node.d.ts).
type _confirm = Assert<Equal<Awaited<ReturnType<MerchantClient["confirmTransaction"]>>, boolean>>;
type _until = Assert<Equal<Awaited<ReturnType<MerchantClient["confirmUntilSettled"]>>, ConfirmOutcome>>;
type _settled = Assert<Equal<ConfirmOutcome["settled"], boolean>>;
type _hosted = Assert<Equal<Awaited<ReturnType<MerchantClient["initiateHostedPayment"]>>, PaymentRequest>>;
type _hostedOptions = Assert<Equal<Parameters<MerchantClient["initiateHostedPayment"]>[0], InitiateHostedPaymentOptions>>;
type _cancel = Assert<Equal<Awaited<ReturnType<MerchantClient["cancelHostedPayment"]>>, boolean>>;
type _withdraw = Assert<Equal<Awaited<ReturnType<MerchantClient["withdrawOnchain"]>>, OnchainWithdrawal>>;
type _hostedPaymentType = Assert<Equal<InitiateHostedPaymentOptions["paymentType"], "deposit" | "withdrawal">>;
// The direct ramp (server entry): every method's options and result, exactly.
type _quote = Assert<Equal<Awaited<ReturnType<MerchantClient["rampQuote"]>>, RampQuote>>;
type _quoteOptions = Assert<Equal<Parameters<MerchantClient["rampQuote"]>[0], RampQuoteOptions>>;
type _refresh = Assert<Equal<Awaited<ReturnType<MerchantClient["refreshRampQuote"]>>, RampQuote>>;
type _refreshOptions = Assert<Equal<Parameters<MerchantClient["refreshRampQuote"]>[0], RefreshRampQuoteOptions>>;
type _customer = Assert<Equal<Awaited<ReturnType<MerchantClient["createCustomer"]>>, Customer>>;
type _customerOptions = Assert<Equal<Parameters<MerchantClient["createCustomer"]>[0], CreateCustomerOptions>>;
type _method = Assert<Equal<Awaited<ReturnType<MerchantClient["addPaymentMethod"]>>, CustomerPaymentMethod>>;
type _methodOptions = Assert<Equal<Parameters<MerchantClient["addPaymentMethod"]>[0], AddPaymentMethodOptions>>;
type _fieldValues = Assert<Equal<AddPaymentMethodOptions["fieldValues"], readonly PaymentMethodFieldInput[]>>;
type _fieldInput = Assert<Equal<PaymentMethodFieldInput, { identifier: string; value: string }>>;
type _ownership = Assert<Equal<AddPaymentMethodOptions["ownership"], "first_party" | "third_party" | undefined>>;
type _quoteCurrency = Assert<Equal<RampQuoteOptions["currency"], "usd" | "local_currency">>;
type _onchainInfo = Assert<Equal<InitiateRampQuoteDepositOptions["onchainTransferInfo"], OnchainTransferInfo | undefined>>;
type _onchainInfoExact = Assert<Equal<OnchainTransferInfo, { address: string; cryptocurrency: string; network: string }>>;
type _customerCountry = Assert<Equal<Customer["country"], CustomerCountry>>;
type _customerCountryHasNoCurrency = Assert<Not<Equal<"currency" extends keyof CustomerCountry ? true : false, true>>>;
type _methodValue = Assert<Equal<CustomerPaymentMethod["fields"], PaymentMethodFieldValue[] | null>>;
type _quoteStatus = Assert<Equal<QuotePaymentRequest["status"], QuotePaymentRequestStatus>>;
type _deposit = Assert<Equal<Awaited<ReturnType<MerchantClient["initiateRampQuoteDeposit"]>>, QuotePaymentRequest>>;
type _depositOptions = Assert<Equal<Parameters<MerchantClient["initiateRampQuoteDeposit"]>[0], InitiateRampQuoteDepositOptions>>;
type _rampWithdrawal = Assert<Equal<Awaited<ReturnType<MerchantClient["initiateRampQuoteWithdrawal"]>>, QuotePaymentRequest>>;
type _rampWithdrawalOptions = Assert<Equal<Parameters<MerchantClient["initiateRampQuoteWithdrawal"]>[0], InitiateRampQuoteWithdrawalOptions>>;
type _paid = Assert<Equal<Awaited<ReturnType<MerchantClient["markDepositAsPaid"]>>, boolean>>;
type _depositPaidOptions = Assert<Equal<Parameters<MerchantClient["markDepositAsPaid"]>[0], MarkDepositAsPaidOptions>>;
type _received = Assert<Equal<Awaited<ReturnType<MerchantClient["markWithdrawalAsReceived"]>>, boolean>>;
type _receivedArg = Assert<Equal<Parameters<MerchantClient["markWithdrawalAsReceived"]>[0], string>>;
type _cancelDeposit = Assert<Equal<Awaited<ReturnType<MerchantClient["cancelDeposit"]>>, boolean>>;
type _rampAgent = Assert<Equal<QuotePaymentRequest["agent"], string | null>>;
// Customers, an onchain withdrawal read back, virtual bank accounts (server entry).
type _onchainRead = Assert<Equal<Awaited<ReturnType<MerchantClient["onchainWithdrawal"]>>, OnchainWithdrawal | null>>;
type _onchainArg = Assert<Equal<Parameters<MerchantClient["onchainWithdrawal"]>[0], string>>;
type _onchainStatus = Assert<Equal<OnchainWithdrawal["status"], OnchainWithdrawalStatus>>;
type _onchainTx = Assert<Equal<OnchainWithdrawal["txhash"], string | null | undefined>>;
type _customersPage = Assert<Equal<Awaited<ReturnType<MerchantClient["merchantCustomers"]>>, MerchantCustomerPage>>;
type _customersPageOptions = Assert<Equal<Parameters<MerchantClient["merchantCustomers"]>[0], MerchantCustomersOptions | undefined>>;
type _customersAfter = Assert<Equal<MerchantCustomersOptions["after"], string | undefined>>;
type _pageInfo = Assert<Equal<MerchantCustomerPage["pageInfo"], PageInfo>>;
type _endCursor = Assert<Equal<PageInfo["endCursor"], string | null>>;
type _nodes = Assert<Equal<MerchantCustomerPage["nodes"], MerchantCustomer[] | null>>;
type _customersIterator = Assert<Equal<ReturnType<MerchantClient["customers"]>, OrderIterator<MerchantCustomer>>>;
type _customersYield = Assert<Equal<Yielded<ReturnType<MerchantClient["customers"]>>, MerchantCustomer>>;
type _customersOptions = Assert<Equal<Parameters<MerchantClient["customers"]>[0], CustomersOptions | undefined>>;
type _oneCustomer = Assert<Equal<Awaited<ReturnType<MerchantClient["merchantCustomer"]>>, MerchantCustomer | null>>;
type _customerEmail = Assert<Equal<MerchantCustomer["email"], string>>;
type _vbaRequest = Assert<Equal<Awaited<ReturnType<MerchantClient["requestVirtualBankAccount"]>>, VirtualBankAccount>>;
type _vbaRead = Assert<Equal<Awaited<ReturnType<MerchantClient["virtualBankAccount"]>>, VirtualBankAccount | null>>;
type _vbaRouting = Assert<Equal<VirtualBankAccount["routingNumber"], string | null | undefined>>;
type _link = Assert<Equal<ReturnType<typeof onchainRampUrl>, string>>;
type _amount = Assert<Equal<ReturnType<typeof parseAmount>, ParsedAmount>>;
type _minor = Assert<Equal<ParsedAmount["minorUnits"], bigint>>;
type _unsubscribe = Assert<Equal<ReturnType<typeof listenForRampEvents>, () => void>>;
type _guardCode = Assert<"secret_key_in_browser" extends SettlementErrorCode ? true : false>;

// request(): a JSON object of unknown values, never `any`.
type RequestResult = Awaited<ReturnType<BotClient["request"]>>;
type _requestNotAny = Assert<Not<IsAny<RequestResult>>>;
type _requestExact = Assert<Equal<RequestResult, { [field: string]: unknown }>>;
type _requestValues = Assert<Equal<RequestResult[string], unknown>>;
// The orders() iterator: next() and what `for await` yields.
type NextResult = Awaited<ReturnType<OrderIterator["next"]>>;
type _nextNotAny = Assert<Not<IsAny<NextResult>>>;
type _nextExact = Assert<Equal<NextResult, IteratorResult<P2PPayment, undefined>>>;
type _ordersReturn = Assert<Equal<ReturnType<BotClient["orders"]>, OrderIterator>>;
type Yielded<T> = T extends AsyncIterable<infer E> ? E : never;
type _yielded = Assert<Equal<Yielded<ReturnType<BotClient["orders"]>>, P2PPayment>>;
type _paymentId = Assert<Equal<P2PPayment["id"], string>>;
// watchOrders(): an OrderWatch of typed updates, a typed status.
type _watchReturn = Assert<Equal<ReturnType<BotClient["watchOrders"]>, OrderWatch>>;
type _watchOptions = Assert<Equal<Parameters<BotClient["watchOrders"]>[0], WatchOrdersOptions | undefined>>;
type _watchYielded = Assert<Equal<Yielded<OrderWatch>, OrderWatchUpdate>>;
type _watchRows = Assert<Equal<OrderWatchUpdate["rows"], P2PPayment[]>>;
type _watchChanged = Assert<Equal<OrderWatchUpdate["changed"], OrderWatchChange<P2PPayment>[]>>;
type _watchTotal = Assert<Equal<OrderWatchUpdate["total"], number | null>>;
type _watchState = Assert<Equal<OrderWatchStatus["state"], "polling" | "paused" | "retrying" | "stopped">>;
type _watchStatus = Assert<Equal<OrderWatch["status"], OrderWatchStatus>>;
type _watchError = Assert<Equal<OrderWatchStatus["error"], SettlementError | undefined>>;
type _watchInterval = Assert<Equal<WatchOrdersOptions["intervalMs"], number | undefined>>;
type _watchSignal = Assert<Equal<WatchOrdersOptions["signal"], AbortSignal | undefined>>;
type _watchStop = Assert<Equal<ReturnType<OrderWatch["stop"]>, void>>;
type _watchListener = Assert<Equal<ReturnType<OrderWatch["onStatusChange"]>, () => void>>;
type _paymentStatusNotString = Assert<Not<Equal<P2PPaymentStatus, string>>>;
// SettlementError's fields.
type _codeExact = Assert<Equal<SettlementError["code"], SettlementErrorCode>>;
type _codeUnion = Assert<Equal<SettlementErrorCode,
  | "invalid_input" | "unauthorized" | "forbidden" | "rate_limited" | "http" | "graphql" | "network" | "timeout"
  | "aborted" | "outcome_unknown" | "decode" | "secret_key_in_browser" | "wasm_load" | "internal" | "too_large">>;
type _codeNotString = Assert<string extends SettlementErrorCode ? false : true>;
type _gqlNotAny = Assert<Not<IsAny<SettlementError["graphqlErrors"]>>>;
type _gqlExact = Assert<Equal<SettlementError["graphqlErrors"], GraphQLErrorInfo[] | undefined>>;
type _gqlMessage = Assert<Equal<GraphQLErrorInfo["message"], string>>;
type _gqlExtensions = Assert<Not<IsAny<NonNullable<GraphQLErrorInfo["extensions"]>[string]>>>;
type _gqlPath = Assert<Equal<GraphQLErrorInfo["path"], ReadonlyArray<string | number> | undefined>>;
type _retryAfter = Assert<Equal<SettlementError["retryAfterMs"], number | undefined>>;
type _dataNotAny = Assert<Not<IsAny<SettlementError["data"]>>>;
type _dataUnknown = Assert<Equal<SettlementError["data"], unknown>>;
type _field = Assert<Equal<SettlementError["field"], string | undefined>>;
type _errStatus = Assert<Equal<SettlementError["status"], number | undefined>>;
type _name = Assert<Equal<SettlementError["name"], "SettlementError">>;
type _isError = Assert<SettlementError extends Error ? true : false>;
// The BotClient constructor's options.
type CtorOptions = ConstructorParameters<typeof BotClient>[0];
type _ctorNotAny = Assert<Not<IsAny<CtorOptions>>>;
type _ctorExact = Assert<Equal<CtorOptions, BotClientOptions>>;
type _ctorArity = Assert<Equal<ConstructorParameters<typeof BotClient>["length"], 1>>;
type _optFetch = Assert<Equal<BotClientOptions["fetch"], FetchLike | undefined>>;
type _optHeaders = Assert<Equal<BotClientOptions["headers"], Record<string, string> | undefined>>;
type _optTimeout = Assert<Equal<BotClientOptions["timeoutMs"], number | undefined>>;
type _optKeys = Assert<Equal<keyof BotClientOptions, "baseUrl" | "endpoint" | "apiKey" | "timeoutMs" | "maxRetries" | "headers" | "fetch" | "logger">>;
// Other call signatures that take caller input.
type HistoryArg = Parameters<BotClient["orderHistory"]>[0];
type _historyArgNotAny = Assert<Not<IsAny<HistoryArg>>>;
type _pageNumber = Assert<Equal<HistoryArg["page"], number>>;
type _filterKeys = Assert<Equal<keyof OrderHistoryFilter, "orderId" | "status" | "dateFrom" | "dateTo" | "paymentMethod">>;
type _dateFrom = Assert<Equal<OrderHistoryFilter["dateFrom"], string | Date | undefined>>;
type _symbolArg = Assert<Equal<Parameters<BotClient["withdrawalInfo"]>[0], string>>;
type _withdrawalExact = Assert<Equal<Awaited<ReturnType<BotClient["withdrawalInfo"]>>, WithdrawalInfo | null>>;
type _profileExact = Assert<Equal<Awaited<ReturnType<BotClient["profile"]>>, AgentProfile>>;
// The declarations derived from the Rust types (tsify) and what is hand-written beside them.
// fetch: called with one built Request.
type _fetchExact = Assert<Equal<FetchLike, (input: Request) => Promise<FetchResponseLike>>>;
type _fetchArity = Assert<Equal<Parameters<FetchLike>["length"], 1>>;
type _fetchStatus = Assert<Equal<FetchResponseLike["status"], number>>;
type _fetchHeader = Assert<Equal<ReturnType<FetchResponseLike["headers"]["get"]>, string | null>>;
type _fetchText = Assert<Equal<ReturnType<FetchResponseLike["text"]>, Promise<string>>>;
type _globalFetchFits = Assert<typeof fetch extends FetchLike ? true : false>;
// Client options: the shared ones, and what each client adds.
type _clientKeys = Assert<Equal<keyof ClientOptions, "baseUrl" | "endpoint" | "apiKey" | "timeoutMs" | "maxRetries" | "headers">>;
type _botExtends = Assert<Equal<Omit<BotClientOptions, "fetch" | "logger">, Omit<ClientOptions, never>>>;
type _merchantKeys = Assert<Equal<keyof MerchantClientOptions, keyof BotClientOptions | "dangerouslyAllowBrowser">>;
type _merchantFetch = Assert<Equal<MerchantClientOptions["fetch"], FetchLike | undefined>>;
type _merchantAllow = Assert<Equal<MerchantClientOptions["dangerouslyAllowBrowser"], boolean | undefined>>;
type _merchantCtor = Assert<Equal<ConstructorParameters<typeof MerchantClient>[0], MerchantClientOptions>>;
// Call options.
type _requestOptKeys = Assert<Equal<keyof RequestOptions, "signal">>;
type _signal = Assert<Equal<RequestOptions["signal"], AbortSignal | undefined>>;
type _fieldOptKeys = Assert<Equal<keyof ProfileOptions, "fields" | "signal">>;
type _fieldsList = Assert<Equal<ProfileOptions["fields"], readonly string[] | undefined>>;
type _sameFieldOpts = Assert<Equal<ProfileOptions, WithdrawalInfoOptions>>;
type _merchantCallOpts = Assert<Equal<ProfileOptions, MerchantCallOptions>>;
type _profileArg = Assert<Equal<Parameters<BotClient["profile"]>[0], ProfileOptions | undefined>>;
type _accountArg = Assert<Equal<Parameters<MerchantClient["account"]>[0], MerchantCallOptions | undefined>>;
type _ordersKeys = Assert<Equal<keyof OrdersOptions, "perPage" | "filter" | "fields" | "signal">>;
type _historyKeys = Assert<Equal<keyof OrderHistoryOptions, keyof OrdersOptions | "page">>;
type _historyArgExact = Assert<Equal<HistoryArg, OrderHistoryOptions>>;
type _perPage = Assert<Equal<OrderHistoryOptions["perPage"], number | undefined>>;
type _filterStatus = Assert<Equal<OrderHistoryFilter["status"], P2PPaymentStatus | undefined>>;
type _variables = Assert<Equal<GraphQLVariables, { [name: string]: unknown }>>;
// Error details: every member but the message, which is the Error's own.
type _detailKeys = Assert<Equal<keyof SettlementErrorDetails, "code" | "field" | "status" | "retryAfterMs" | "graphqlErrors" | "data">>;
type _detailCode = Assert<Equal<SettlementErrorDetails["code"], SettlementErrorCode>>;
type _errorDetails = Assert<SettlementError extends SettlementErrorDetails ? true : false>;
type _location = Assert<Equal<GraphQLErrorLocation, { line: number; column: number }>>;
type _gqlLocations = Assert<Equal<GraphQLErrorInfo["locations"], ReadonlyArray<GraphQLErrorLocation> | undefined>>;
// Results: members the default selection always has are required, the others optional and
// nullable, and members selected with `fields` beyond the known ones are `unknown`.
type _paginationExact = Assert<Equal<Pagination, { page: number; perPage: number; total: number }>>;
type _pageExact = Assert<Equal<OrderHistoryPage, { data: P2PPayment[]; pagination: Pagination }>>;
type _email = Assert<Equal<AgentProfile["email"], string | null | undefined>>;
type _profileExtra = Assert<Equal<AgentProfile["totp"], unknown>>;
type _paymentExtra = Assert<Equal<P2PPayment[string], unknown>>;
type _paymentType = Assert<Equal<P2PPayment["paymentType"], "deposit" | "withdrawal" | (string & {}) | undefined>>;
type _completed = Assert<Equal<P2PPayment["expiresAtSecs"], number | null | undefined>>;
type _networks = Assert<Equal<WithdrawalInfo["networks"], string[]>>;
type _currency = Assert<Equal<Country["currency"], Currency>>;
type _currencyExact = Assert<Equal<Currency, { isoCode: string; name: string }>>;
type _methodFields = Assert<Equal<PaymentMethodType["fields"], PaymentMethodField[]>>;
type _contract = Assert<Equal<RampableAsset["contractAddress"], string | { readonly [network: string]: string } | null | undefined>>;
type _cancelled = Assert<Equal<Extract<PaymentRequestStatus, "cancelled">, "cancelled">>;
type _requestStatus = Assert<Equal<PaymentRequest["status"], PaymentRequestStatus>>;
type _requestStatusOpen = Assert<Not<Equal<PaymentRequestStatus, string>>>;
type _limitsText = Assert<Equal<RampLimits["dailyLimitUsd"], string>>;
type _balance = Assert<Equal<Account["accountBalance"], string | null | undefined>>;
type _rampPaymentType = Assert<Equal<OnchainRampOptions["paymentType"], "deposit" | "withdrawal">>;
type _rampAmount = Assert<Equal<OnchainRampOptions["amount"], string | undefined>>;
type _rampEvent = Assert<Equal<RampEvent["event"], "crypto.requested">>;
type _rampRequest = Assert<Equal<RampEventPayload["paymentRequest"], RampPaymentRequest | string>>;
type _rampRequestRef = Assert<Equal<RampPaymentRequest["reference"], string | null | undefined>>;
type _listenerArg = Assert<Equal<Parameters<typeof listenForRampEvents>[0], RampListenerOptions>>;
type _scale = Assert<Equal<ParsedAmount["scale"], number>>;

/** Wrong usages the declarations must reject (each line below must be a type error). */
export async function rejected(bot: BotClient, e: SettlementError, baseUrl: string): Promise<void> {
  // @ts-expect-error page is a number, not a string
  await bot.orderHistory({ page: "1" });
  // @ts-expect-error page is required
  await bot.orderHistory({ perPage: 10 });
  // @ts-expect-error unknown filter key
  await bot.orderHistory({ page: 1, filter: { orderID: "ORD-2026-000001" } });
  // @ts-expect-error dateFrom is a string or a Date, not a timestamp
  await bot.orderHistory({ page: 1, filter: { dateFrom: 1_700_000_000_000 } });
  // @ts-expect-error perPage is a number
  bot.orders({ perPage: "100" });
  // @ts-expect-error fields is a list
  await bot.profile({ fields: "id" });
  // @ts-expect-error the symbol is a string
  await bot.withdrawalInfo(42);
  // @ts-expect-error signal is an AbortSignal
  await bot.profile({ signal: new AbortController() });
  // @ts-expect-error variables are an object, not a list
  await bot.request("{ profile { id } }", ["x"]);
  // @ts-expect-error options are required
  new BotClient();
  // @ts-expect-error timeoutMs is a number
  new BotClient({ baseUrl, timeoutMs: "5000" });
  // @ts-expect-error fetch is a function
  new BotClient({ baseUrl, fetch: 42 });
  // @ts-expect-error fetch is called with one Request, not a URL and an init object
  new BotClient({ baseUrl, fetch: (url: string, init: { method: string; body: string }) => fetch(url, init) });
  // @ts-expect-error what fetch resolves to must have text()
  new BotClient({ baseUrl, fetch: async (req: Request) => ({ status: 200, headers: req.headers }) });
  // @ts-expect-error paymentType is deposit or withdrawal
  onchainRampUrl({ rampUrl: baseUrl, key: "PUBK_x", paymentType: "refund", coin: "USDC", network: "CELO" });
  // @ts-expect-error dangerouslyAllowBrowser is a MerchantClient option
  new BotClient({ baseUrl, dangerouslyAllowBrowser: true });
  // @ts-expect-error headers are strings
  new BotClient({ baseUrl, headers: { "x-n": 1 } });
  // @ts-expect-error unknown option
  new BotClient({ baseUrl, apikey: "SBX-SECK_x" });
  // @ts-expect-error not a code: the union has no such member, so the comparison cannot be true
  if (e.code === "not_a_code") return;
  // @ts-expect-error data is unknown, not any
  const n: number = e.data;
  // @ts-expect-error retryAfterMs may be undefined
  const ms: number = e.retryAfterMs;
  // @ts-expect-error graphqlErrors may be undefined
  const firstMessage: string = e.graphqlErrors[0].message;
  const data = await bot.request("{ profile { id } }");
  // @ts-expect-error request() values are unknown, not any
  const id: string = data.profile;
  for await (const o of bot.orders({ perPage: 100 })) {
    const yielded: Assert<Equal<typeof o, P2PPayment>> = true;
    // @ts-expect-error an order id is a string
    const num: number = o.id;
    // @ts-expect-error status is a string union, not a number
    const st: P2PPaymentStatus = 5;
    console.log(yielded, num, st);
  }
  const r = await bot.orders().next();
  if (!r.done) {
    const p: P2PPayment = r.value;
    console.log(p.id);
  } else {
    const end: undefined = r.value;
    console.log(end);
  }
  console.log(n, ms, firstMessage, id);
}

export async function storefront(baseUrl: string, publicKey: string, rampUrl: string): Promise<string> {
  await init();
  const options: MerchantClientOptions = { baseUrl, apiKey: publicKey, timeoutMs: 5_000, maxRetries: 1 };
  const merchant = new MerchantClient(options);
  const viaProxy = new MerchantClient({ endpoint: "/api/merchant", dangerouslyAllowBrowser: false });
  const countries: Country[] = await merchant.availableCountries();
  const first: Country | undefined = countries[0];
  const methods: PaymentMethodType[] = first ? await merchant.paymentMethodTypes(first.id, { fields: ["id", "label"] }) : [];
  const rate: MarketRate | null = await merchant.marketRate("NG");
  const limits: RampLimits = await merchant.rampLimits();
  const assets: RampableAsset[] = await viaProxy.rampableAssets();
  const request: PaymentRequest | null = await merchant.paymentRequest("REF-1001");
  const balance: Account = await new MerchantClient({ baseUrl, apiKey: "SECK_x", dangerouslyAllowBrowser: true }).account();
  const parsed: ParsedAmount = parseAmount(balance.accountBalance ?? "0");
  const cents: bigint = parsed.minorUnits * 100n / 10n ** BigInt(parsed.scale);
  const ramp: OnchainRampOptions = {
    rampUrl, key: publicKey, paymentType: "deposit", coin: "USDC", network: "CELO", amount: "25.00", hideAddress: true,
  };
  const link: string = onchainRampUrl(ramp);
  const stop: () => void = listenForRampEvents({
    allowedOrigin: new URL(rampUrl).origin,
    onCryptoRequested: (payload: RampEventPayload, event: MessageEvent<RampEvent>) => {
      const to: string = payload.destinationAddress;
      const amount: number = payload.amountCents;
      const from: string = event.origin;
      console.log(to, amount, from, event.data.event);
    },
  });
  stop();
  try {
    new MerchantClient({ baseUrl, apiKey: "SECK_x" });
  } catch (e) {
    if (e instanceof SettlementError && e.code === "secret_key_in_browser") return e.message;
  }
  return `${methods.length} ${rate?.depositRate ?? ""} ${limits.dailyLimitUsd} ${assets.length} ${request?.status ?? ""} ${cents} ${link}`;
}

export async function dashboard(baseUrl: string, apiKey: string, signal: AbortSignal): Promise<string> {
  await init();
  const bot = new BotClient({ baseUrl, apiKey, timeoutMs: 10_000, maxRetries: 2, headers: { "x-trace": "1" } });
  // A custom fetch gets the built Request; the global one fits as is.
  const logged: FetchLike = async (request: Request) => {
    console.log(request.method, request.url);
    return fetch(request);
  };
  const viaLog = new BotClient({ baseUrl, fetch: logged });
  const viaGlobal = new MerchantClient({ baseUrl, fetch, dangerouslyAllowBrowser: false });
  const canned = new BotClient({
    baseUrl,
    fetch: async (request: Request) => ({ status: 200, headers: request.headers, text: async () => "{\"data\":{}}" }),
  });
  console.log(viaLog, viaGlobal, canned);
  const profile: AgentProfile = await bot.profile({ signal });
  const page: OrderHistoryPage = await bot.orderHistory({
    page: 1, perPage: 25, filter: { status: "completed", dateFrom: new Date(), dateTo: "2026-10-31", paymentMethod: "mpesa" },
  });
  const total: number = page.pagination.total;
  const first: P2PPayment | undefined = page.data[0];
  const status: P2PPaymentStatus | undefined = first?.status;
  const other: P2PPaymentStatus = "some_future_status"; // unknown values are admitted
  let count = 0;
  for await (const order of bot.orders({ perPage: 100, filter: { status: "canceled" }, signal })) {
    const id: string = order.id;
    count += id.length > 0 ? 1 : 0;
  }
  const usdc: WithdrawalInfo | null = await bot.withdrawalInfo("USDC");
  const networks: string[] = usdc ? usdc.networks : [];
  const raw: unknown = await bot.request("query { profile { id } }", {}, { signal });
  const kind: "public" | "secret" | "unknown" = classifyKey(apiKey);
  try {
    await bot.profile({ fields: ["id", "totp.enabled"] });
  } catch (e) {
    if (e instanceof SettlementError) {
      const code: SettlementErrorCode = e.code;
      const field: string | undefined = e.field;
      const status2: number | undefined = e.status;
      return `${code} ${field ?? ""} ${status2 ?? ""}`;
    }
  }
  return `${profile.id} ${total} ${status ?? ""} ${other} ${count} ${networks.join(",")} ${String(raw)} ${kind}`;
}

// The agent actions (the bot mutations): typed arguments and results, reconcile.
import type {
  MarkWithdrawalAsPaidOptions, UpdateRatesOptions, UpdatePaymentMethodLiquidityOptions, P2PPaymentMethod,
  ReconcileOptions,
} from "settlement-wasm";
type _paidOptions = Assert<Equal<Parameters<BotClient["markWithdrawalAsPaid"]>[0], MarkWithdrawalAsPaidOptions>>;
type _ratesOptions = Assert<Equal<Parameters<BotClient["updateRates"]>[0], UpdateRatesOptions>>;
type _liqOptions = Assert<Equal<Parameters<BotClient["updatePaymentMethodLiquidity"]>[0], UpdatePaymentMethodLiquidityOptions>>;
type _liqResult = Assert<Equal<Awaited<ReturnType<BotClient["updatePaymentMethodLiquidity"]>>, P2PPaymentMethod>>;
type _reconcileOptions = Assert<Equal<NonNullable<Parameters<BotClient["reconcile"]>[1]>, ReconcileOptions>>;
// A number is not decimal text: refused by the types too.
// @ts-expect-error depositRate is a string
const _badRate: UpdateRatesOptions = { depositRate: 1540 };
type _acceptResult = Assert<Equal<Awaited<ReturnType<BotClient["acceptWithdrawal"]>>, boolean>>;
type _acceptArgs = Assert<Equal<Parameters<BotClient["acceptWithdrawal"]>[0], string>>;
type _ratesArg = Assert<Equal<Parameters<BotClient["updateRates"]>[0]["depositRate"], string | undefined>>;
type _paidArg = Assert<Equal<Parameters<BotClient["markWithdrawalAsPaid"]>[0]["p2pPayment"], string>>;
type _liquidityResult = Assert<Not<IsAny<Awaited<ReturnType<BotClient["updatePaymentMethodLiquidity"]>>>>>;
type _liquidityId = Assert<Equal<Awaited<ReturnType<BotClient["updatePaymentMethodLiquidity"]>>["id"], string>>;
type _reconcileResult = Assert<Equal<Awaited<ReturnType<BotClient["reconcile"]>>, P2PPayment | null>>;

export async function actions(bot: BotClient, order: P2PPayment, signal: AbortSignal): Promise<string> {
  const accepted: boolean = await bot.acceptWithdrawal(order.id, { signal });
  await bot.markWithdrawalAsPaid({ p2pPayment: order.id, paymentMethod: "pm_1", receipt: "https://r.example/1" });
  await bot.updateRates({ depositMargin: "1.50" });
  const m = await bot.updatePaymentMethodLiquidity({ paymentMethodType: "mpesa", amountLocal: "1.00", fields: ["id"] });
  try {
    await bot.cancelWithdrawal(order.id);
  } catch (e) {
    if (e instanceof SettlementError && e.code === "outcome_unknown") {
      const now: P2PPayment | null = await bot.reconcile(order);
      return now ? now.status : "gone";
    }
  }
  return `${accepted} ${m.id}`;
}

// The server proxy (Node conditions: server.d.ts): a Fetch-API handler, typed options.
const proxyOptions: ProxyOptions = {
  endpoint: "bot", baseUrl: "https://service.example", allow: ["profile"],
  apiKey: async (request: Request) => request.headers.get("x-user") ?? "",
  authorize: (request: Request) => request.headers.has("cookie"),
};
const proxy: ProxyHandler = createProxyHandler(proxyOptions);
const proxied: Promise<Response> = proxy(new Request("https://app.example/api/bot", { method: "POST" }));
type _ProxyIsNotAny = Assert<Not<IsAny<typeof proxied>>>;
// @ts-expect-error: the endpoint is "bot" or "merchant"
createProxyHandler({ ...proxyOptions, endpoint: "admin" });

// Events, the logger and the response behind a result: typed by event type.
import type {
  SettlementEventMap, CallResponseEvent, CallRetryEvent, CallDoneEvent, ResponseInfo, LoggerLike, CallSource,
} from "settlement-wasm";
export async function observed(bot: BotClient, merchant: MerchantClient): Promise<string> {
  const logger: LoggerLike = console;
  const withLogger = new BotClient({ baseUrl: "https://api.example.com", apiKey: "k", logger });
  const onResponse = (e: CallResponseEvent): void => {
    const status: number = e.status;
    const id: string | undefined = e.requestId;
    const headers: Record<string, string> = e.headers;
    void [status, id, headers];
  };
  bot.on("response", onResponse).off("response", onResponse);
  bot.on("retry", (e) => {
    const reason: "status" | "timeout" | "network" | "retry-after" = e.reason;
    const delay: number = e.delayMs;
    void [reason, delay];
  });
  bot.on("error", (e) => {
    const code: SettlementErrorCode = e.error.code;
    void code;
  });
  merchant.on("done", (e: CallDoneEvent) => {
    const source: CallSource = e.source;
    void [source, e.attempts, e.durationMs, e.callId];
  });
  // @ts-expect-error: not an event type
  bot.on("finished", () => {});
  // @ts-expect-error: a retry listener gets a retry event, not a response
  bot.on("retry", (e: CallResponseEvent) => void e);
  const { data, response } = await bot.withResponse((c) => c.profile({ fields: ["id"] }));
  const profile: AgentProfile = data;
  const info: ResponseInfo = response;
  const limits = await merchant.withResponse((m) => m.rampLimits());
  const r: RampLimits = limits.data;
  type _map = Assert<Equal<SettlementEventMap["retry"], CallRetryEvent>>;
  try {
    await withLogger.profile();
  } catch (e) {
    if (e instanceof SettlementError) {
      const id: string | undefined = e.requestId;
      const headers: Record<string, string> | undefined = e.headers;
      void [id, headers];
    }
  }
  return `${profile.id} ${info.status} ${r}`;
}
// Webhooks (Node conditions: webhook.d.ts): the handler, verifyWebhook, the typed events
// (a discriminated union on `type`, snake_case data, amounts as sent) and confirmEvent.
import {
  createWebhookHandler, verifyWebhook, type WebhookEvent, type WebhookHandler, type WebhookOptions,
  type PaymentRequestEventData, type OnchainTxEventData,
} from "settlement-wasm";
const webhookOptions: WebhookOptions = {
  token: ["whk_new", "whk_old"],
  onEvent: async (event: WebhookEvent) => {
    switch (event.type) {
      case "payment_request.updated": {
        const amount: string | number | undefined = event.data.p2p_payment?.amount_usd;
        const wallet: string | undefined = event.data.customer?.wallet_address;
        return `${event.data.reference} ${String(amount)} ${wallet}`;
      }
      case "onchain_tx.updated": {
        const q: string | number | undefined = event.data.quantity;
        return `${event.data.txhash} ${String(q)}`;
      }
      case "fiat_payout.updated":
        return event.data.payment_type;
      case "chargeback.initiated":
        return event.data.payment_request?.reference;
      case "unknown": {
        const t: string = event.eventType;
        const d: Record<string, unknown> = event.data;
        return `${t} ${Object.keys(d).length}`;
      }
      default: {
        const never: never = event;
        return never;
      }
    }
  },
};
const webhooks: WebhookHandler = createWebhookHandler(webhookOptions);
createWebhookHandler({ token: async (r: Request) => r.headers.get("x-tenant") ?? "", onEvent: () => {}, maxBodyBytes: 1024, header: "X-Token" });
// @ts-expect-error: onEvent is required
createWebhookHandler({ token: "t" });
type _EventKey = Assert<Equal<WebhookEvent["key"], string>>;
type _PrData = Assert<Equal<Extract<WebhookEvent, { type: "payment_request.updated" }>["data"], PaymentRequestEventData>>;
type _TxData = Assert<Equal<Extract<WebhookEvent, { type: "onchain_tx.updated" }>["data"], OnchainTxEventData>>;
// @ts-expect-error: data keeps the service's snake_case keys
const _camel: PaymentRequestEventData["paymentLink"] = undefined;
export async function receive(request: Request, merchant: MerchantClient): Promise<string> {
  const answer: Response = await webhooks(request);
  const event: WebhookEvent = await verifyWebhook(request, { token: "whk" });
  const current: PaymentRequest | OnchainWithdrawal | null = await merchant.confirmEvent(event);
  return `${answer.status} ${event.key} ${event.raw.length} ${current?.status ?? ""}`;
}
type _ConfirmNotAny = Assert<Not<IsAny<Awaited<ReturnType<MerchantClient["confirmEvent"]>>>>>;
