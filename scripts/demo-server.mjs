// The demo's server (`make demo`, and the e2e tests of the dashboard's proxy mode and Payments
// panel): the page's origin, on 127.0.0.1. It serves
//   POST /api/bot       the server proxy: createProxyHandler from the built package (pkg/), with
//                       the agent key held here (AGENT_KEY) and every bot method allowed, so the
//                       page connects "through the server proxy" with no key in it;
//   POST /api/payments  creates a hosted payment (`{ amount, paymentType }`) with the merchant's
//                       secret key (MERCHANT_SECRET_KEY, held here) and answers what the page
//                       shows of it (`{ id, reference, status, amount, currency, paymentType }`);
//   POST /api/webhooks  the webhook receiver: createWebhookHandler, with the token set below; each
//                       verified event is read back with merchant.confirmEvent and relayed;
//   GET  /api/events    the relay: Server-Sent Events, one `webhook` event per verified delivery
//                       (its type, key, id, reference and status, and the read-back's status);
//   everything else passed on to the sandbox (SANDBOX_URL), which serves www/ and pkg/, its
//                       control routes and the GraphQL endpoints (the dashboard's direct mode).
// Once listening, it points the sandbox's webhooks at /api/webhooks
// (POST /__sandbox/webhooks/target) with WEBHOOK_TOKEN, or a random token when that is unset.
// No key or token is ever sent to the page or logged.
// The pass-through is this demo's plumbing only (one origin for the page and the proxy); the
// proxy and the webhook handler are the package's, as an app would mount them.
//   SANDBOX_URL=… AGENT_KEY=… [MERCHANT_SECRET_KEY=…] [WEBHOOK_TOKEN=…] node scripts/demo-server.mjs [port]
//   (port 0 or absent: a free port). Prints "demo server: <url>" once listening and registered.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createRequire } from "node:module";
import { randomBytes, randomUUID } from "node:crypto";

const require = createRequire(import.meta.url);
const { createProxyHandler, createWebhookHandler, MerchantClient, SettlementError } = require("../pkg/node/index.cjs");

const SANDBOX_URL = process.env.SANDBOX_URL;
const AGENT_KEY = process.env.AGENT_KEY;
if (!SANDBOX_URL || !AGENT_KEY) {
  console.error("demo-server: SANDBOX_URL and AGENT_KEY are required");
  process.exit(2);
}

const MERCHANT_SECRET_KEY = process.env.MERCHANT_SECRET_KEY || "";
/** The token the sandbox sends with each delivery (never printed). */
const WEBHOOK_TOKEN = process.env.WEBHOOK_TOKEN || randomBytes(24).toString("base64url");

const bot = createProxyHandler({
  endpoint: "bot",
  baseUrl: SANDBOX_URL,
  apiKey: AGENT_KEY,
  allow: ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal", "cancelWithdrawal", "markDepositAsReceived",
    "markWithdrawalAsPaid", "updateRates", "updatePaymentMethodLiquidity"],
});

/** The merchant client (secret key), for the hosted payments and the read-backs. */
const merchant = MERCHANT_SECRET_KEY ? new MerchantClient({ baseUrl: SANDBOX_URL, apiKey: MERCHANT_SECRET_KEY }) : null;

/** The pages listening to the relay (GET /api/events). */
const listeners = new Set();

/** Sends `payload` to every page listening, as the SSE event `name`. */
function relay(name, payload) {
  const frame = `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
  for (const res of listeners) res.write(frame);
}

/** A SettlementError as the page may see it: its code, and its message (which never holds a key). */
function errorShape(err) {
  return err instanceof SettlementError ? { code: err.code, message: err.message } : { code: "internal", message: "unexpected error" };
}

/**
 * The webhook receiver. Each verified event is read back from the API (confirmEvent: the API's
 * word, not the webhook's) and relayed with both statuses. A read-back that fails is relayed
 * as such and answered 500, so the sandbox delivers the event again.
 */
const webhooks = createWebhookHandler({
  token: WEBHOOK_TOKEN,
  async onEvent(event) {
    const data = event.data && typeof event.data === "object" ? event.data : {};
    const shown = {
      type: event.type, key: event.key,
      id: typeof data.id === "string" ? data.id : null,
      reference: typeof data.reference === "string" ? data.reference : null,
      status: typeof data.status === "string" ? data.status : null,
      receivedAt: new Date().toISOString(),
    };
    let confirmed = null;
    let failure = null;
    if (merchant && (event.type === "payment_request.updated" || event.type === "onchain_tx.updated")) {
      try {
        const current = await merchant.confirmEvent(event);
        confirmed = { status: current ? current.status : null, found: current !== null };
      } catch (err) {
        failure = errorShape(err);
      }
    }
    console.log(`webhook ${shown.type} ${shown.id ?? "-"} ${shown.status ?? "-"}: ${
      failure ? `read-back failed (${failure.code})` : confirmed ? `read back: ${confirmed.status ?? "not found"}` : "no read-back"}`);
    relay("webhook", { ...shown, confirmed, error: failure });
    if (failure) throw new Error("the read-back failed; the service will deliver the event again");
  },
});

/** POST /api/payments: a hosted payment (secret key here), for the page's Payments panel. */
async function createPayment(request) {
  const json = (status, body) => Response.json(body, { status });
  if (request.method !== "POST") return json(405, { code: "method_not_allowed", message: "POST only" });
  if (!merchant) return json(503, { code: "unavailable", message: "the demo server has no merchant secret key (MERCHANT_SECRET_KEY)" });
  let input;
  try {
    input = JSON.parse(await request.text());
  } catch {
    return json(400, { code: "invalid_input", message: "the body must be JSON" });
  }
  const amount = typeof input?.amount === "string" ? input.amount : "";
  const paymentType = input?.paymentType === "deposit" ? "deposit" : "withdrawal";
  try {
    const p = await merchant.initiateHostedPayment({
      amount, currency: "usd", paymentType, reference: `demo-${randomUUID().slice(0, 8)}`,
      countryCode: "NG", email: "ada@example.com", firstName: "Ada", lastName: "Obi",
      fields: ["id", "reference", "status", "amount", "currency", "paymentType"],
    });
    return json(201, { id: p.id, reference: p.reference, status: p.status, amount: p.amount, currency: p.currency, paymentType: p.paymentType });
  } catch (err) {
    const e = errorShape(err);
    return json(e.code === "invalid_input" || e.code === "graphql" ? 400 : 502, e);
  }
}

/** GET /api/events: the relay, as Server-Sent Events. */
function events(req, res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
  res.write(`event: ready\ndata: ${JSON.stringify({ payments: !!merchant })}\n\n`);
  listeners.add(res);
  const ping = setInterval(() => res.write(": ping\n\n"), 15_000);
  req.on("close", () => { clearInterval(ping); listeners.delete(res); });
}

/** Node's request as a Fetch `Request` (the README's wrapper). */
function toRequest(req) {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://localhost${req.url}`, {
    method: req.method, headers: req.headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: "half",
  });
}

/** The sandbox's answer to the same request (hop-by-hop and encoding headers dropped). */
async function passOn(req) {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.connection;
  delete headers["accept-encoding"];
  const res = await fetch(new URL(req.url, SANDBOX_URL), {
    method: req.method, headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: "half", redirect: "manual",
  });
  const out = new Headers(res.headers);
  for (const h of ["content-encoding", "content-length", "transfer-encoding", "connection"]) out.delete(h);
  // Tells the page it is served by this server (its Payments panel turns on).
  out.set("x-settlement-demo", "payments");
  return new Response(res.body, { status: res.status, headers: out });
}

const routes = { "/api/bot": (r) => bot(r), "/api/webhooks": (r) => webhooks(r), "/api/payments": createPayment };

const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://localhost").pathname;
  if (path === "/api/events" && req.method === "GET") return events(req, res);
  let r;
  try {
    r = routes[path] ? await routes[path](toRequest(req)) : await passOn(req);
  } catch {
    r = new Response("demo server: the sandbox could not be reached", { status: 502 });
  }
  res.writeHead(r.status, Object.fromEntries(r.headers));
  res.end(Buffer.from(await r.arrayBuffer()));
});

/** Points the sandbox's webhook deliveries at this server's /api/webhooks. */
async function registerWebhooks(url) {
  const res = await fetch(new URL("/__sandbox/webhooks/target", SANDBOX_URL), {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: `${url}/api/webhooks`, token: WEBHOOK_TOKEN }),
  });
  if (res.status !== 204) throw new Error(`the sandbox refused the webhook target (HTTP ${res.status})`);
}

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", async () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    await registerWebhooks(url);
    console.log(`webhooks: the sandbox delivers to ${url}/api/webhooks`);
  } catch (err) {
    console.error(`demo-server: ${err.message}; the Payments panel will not update`);
  }
  console.log(`demo server: ${url}`);
});
