// CommonJS TypeScript consumer (.cts, compiled to require(): the `require` types condition,
// index.d.cts): type-checked by tests/consumers/types.test.mjs, --strict, no skipLibCheck.
import init, { BotClient, MerchantClient, SettlementError, listenForRampEvents, type InitInput } from "settlement-wasm";

async function main(): Promise<void> {
  await init();
  const bot = new BotClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "k" });
  const profile = await bot.profile();
  const page = await bot.orderHistory({ page: 1, perPage: 10 });
  const email: unknown = profile.email;
  const rows: number = page.data.length;
  const merchant = new MerchantClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "pk" });
  merchant.free();
  const input: InitInput = "https://cdn.example/settlement_wasm_bg.wasm";
  const stop: () => void = listenForRampEvents({
    allowedOrigin: "https://ramp.example",
    onCryptoRequested: (payload, event) => console.log(payload.amountCents, event.data.payload),
  });
  stop();
  try {
    await init(input);
  } catch (e) {
    if (e instanceof SettlementError && e.code === "wasm_load") console.log(e.message, e.cause);
  }
  // exactOptionalPropertyTypes: options passed on as `T | undefined`.
  const maybeTimeout: number | undefined = rows > 0 ? 5000 : undefined;
  const maybeSignal: AbortSignal | undefined = rows > 0 ? undefined : AbortSignal.timeout(1000);
  const strictBot = new BotClient({ baseUrl: "http://127.0.0.1:8787", apiKey: "k", timeoutMs: maybeTimeout });
  await strictBot.orderHistory({ page: 1, perPage: undefined, signal: maybeSignal, filter: { status: undefined } });
  const first = page.data[0]; // noUncheckedIndexedAccess: possibly undefined
  console.log(first?.id, email, rows);
}
void main();
