// The demo's server (`make demo`, and the e2e test of the dashboard's proxy mode): the page's
// origin, on 127.0.0.1. It serves
//   POST /api/bot   the server proxy: createProxyHandler from the built package (pkg/), with the
//                   agent key held here (AGENT_KEY) and every bot method allowed, so the page
//                   connects "through the server proxy" with no key in it;
//   everything else passed on to the sandbox (SANDBOX_URL), which serves www/ and pkg/, its
//                   control routes and the GraphQL endpoints (the dashboard's direct mode).
// The pass-through is this demo's plumbing only (one origin for the page and the proxy); the
// proxy itself is the package's, as an app would mount it.
//   SANDBOX_URL=… AGENT_KEY=… node scripts/demo-server.mjs [port]   (0 or absent: a free port)
// Prints "demo server: <url>" once listening.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { createProxyHandler } = require("../pkg/node/index.cjs");

const SANDBOX_URL = process.env.SANDBOX_URL;
const AGENT_KEY = process.env.AGENT_KEY;
if (!SANDBOX_URL || !AGENT_KEY) {
  console.error("demo-server: SANDBOX_URL and AGENT_KEY are required");
  process.exit(2);
}

const bot = createProxyHandler({
  endpoint: "bot",
  baseUrl: SANDBOX_URL,
  apiKey: AGENT_KEY,
  allow: ["profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal", "cancelWithdrawal", "markDepositAsReceived",
    "markWithdrawalAsPaid", "updateRates", "updatePaymentMethodLiquidity"],
});

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
  return new Response(res.body, { status: res.status, headers: out });
}

const server = createServer(async (req, res) => {
  let r;
  try {
    r = new URL(req.url, "http://localhost").pathname === "/api/bot" ? await bot(toRequest(req)) : await passOn(req);
  } catch {
    r = new Response("demo server: the sandbox could not be reached", { status: 502 });
  }
  res.writeHead(r.status, Object.fromEntries(r.headers));
  res.end(Buffer.from(await r.arrayBuffer()));
});
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  console.log(`demo server: http://127.0.0.1:${server.address().port}`);
});
