// A strict TypeScript consumer: `tsc -p tests/js/tsconfig.json` must pass. It is never run;
// it proves the published .d.ts has real types (no `any` leaks into the public API).
import init, {
  BotClient, MerchantClient, SettlementError, classifyKey, onchainRampUrl, listenForRampEvents, parseAmount,
  type AgentProfile, type OrderHistoryPage, type P2PPayment, type WithdrawalInfo, type P2PPaymentStatus,
  type SettlementErrorCode, type MerchantClientOptions, type Account, type Country, type PaymentMethodType,
  type MarketRate, type RampLimits, type RampableAsset, type PaymentRequest, type OnchainRampOptions,
  type RampEvent, type RampEventPayload, type ParsedAmount,
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
type _link = Assert<Equal<ReturnType<typeof onchainRampUrl>, string>>;
type _amount = Assert<Equal<ReturnType<typeof parseAmount>, ParsedAmount>>;
type _minor = Assert<Equal<ParsedAmount["minorUnits"], bigint>>;
type _unsubscribe = Assert<Equal<ReturnType<typeof listenForRampEvents>, () => void>>;
type _guardCode = Assert<"secret_key_in_browser" extends SettlementErrorCode ? true : false>;

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
