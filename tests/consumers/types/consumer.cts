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
  console.log(email, rows);
}
void main();
