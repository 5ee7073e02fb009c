// A strict TypeScript consumer: `tsc -p tests/js/tsconfig.json` must pass. It is never run;
// it proves the published .d.ts has real types (no `any` leaks into the public API).
import init, {
  BotClient, SettlementError, classifyKey,
  type AgentProfile, type OrderHistoryPage, type P2PPayment, type WithdrawalInfo, type P2PPaymentStatus,
  type SettlementErrorCode,
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
