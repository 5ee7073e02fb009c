// createProxyHandler: a Fetch-API handler that keeps the key on the server (server entries
// only; never imported by the browser entry). What may be forwarded, every refusal and the
// redaction of the service's answers are the Rust core's (`ProxyPolicy`, src/proxy.rs); this
// module converts the Request and Response and does the I/O.
import type { ProxyAnswer, ProxyPolicy } from "./glue-server/settlement_wasm.js";
import { readCapped } from "./body.js";
import { fromGlue, SettlementError } from "./errors.js";
import { generation, wasm } from "./wasm.js";

/** Options of {@link createProxyHandler}. */
export interface ProxyOptions {
  /** The service endpoint the proxy fronts: the agents' `"bot"` or the `"merchant"` one. */
  endpoint: "bot" | "merchant";
  /** The service's base URL, as the clients take it. */
  baseUrl: string;
  /**
   * The key sent upstream as `Authorization: Bearer <key>`; or a function choosing it for each
   * request (e.g. each signed-in agent's own key).
   */
  apiKey: string | ((request: Request) => string | Promise<string>);
  /** The client methods the page may call through the proxy, e.g. `["profile", "orderHistory"]`. */
  allow: readonly string[];
  /** Whether this request may use the proxy (false, or a throw: 401). Default: every request. */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /** The largest request body read, in bytes (over it: 413). Default 65536. */
  maxBodyBytes?: number;
  /** The `fetch` used upstream. Default: the global `fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A Fetch-API handler: a Next.js route handler, a Workers/Deno/Bun `fetch`, a Hono route. */
export type ProxyHandler = (request: Request) => Promise<Response>;

/** The server glue's `ProxyPolicy` (only the server entries' wasm has it). */
type ServerGlue = {
  ProxyPolicy?: new (endpoint: unknown, baseUrl: unknown, allow: unknown, maxBodyBytes: unknown, apiKey: unknown,
    authorize: unknown, fetch: unknown) => ProxyPolicy;
};

/** `options[name]`, or a SettlementError naming it when reading it throws. */
function option(options: unknown, name: string): unknown {
  if (options === null || options === undefined) return undefined;
  try {
    return (options as Record<string, unknown>)[name];
  } catch (cause) {
    throw new SettlementError(`createProxyHandler: ${name} could not be read`, { code: "invalid_input", field: name, cause });
  }
}

function answer(a: ProxyAnswer): Response {
  return new Response(a.body, { status: a.status, headers: { "content-type": "application/json" } });
}

/**
 * Reads the body, at most `max` bytes: the text, or `undefined` as soon as it goes over (the
 * rest is not read; the stream is cancelled), or `null` when it is not UTF-8 or cannot be read.
 */
async function readBody(request: Request, max: number): Promise<string | undefined | null> {
  const bytes = await readCapped(request, max);
  if (!bytes) return bytes;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * A handler that forwards to the service only what this package's own client sends for an
 * allowed method, with the server's key; everything else is refused (403
 * `FORBIDDEN_OPERATION`, 405, 413, 400, 401) with nothing sent upstream. The page uses
 * `new BotClient({ endpoint: "/api/bot" })` (or `MerchantClient`) without a key. Invalid
 * options throw `SettlementError` (`invalid_input`).
 */
export function createProxyHandler(options: ProxyOptions): ProxyHandler {
  const Policy = (wasm() as ServerGlue).ProxyPolicy;
  if (!Policy) {
    throw new SettlementError("createProxyHandler is only in the package's server entries (Node)", { code: "invalid_input" });
  }
  const [endpoint, baseUrl, allow, maxBodyBytes, apiKey, authorize, fetchImpl] =
    ["endpoint", "baseUrl", "allow", "maxBodyBytes", "apiKey", "authorize", "fetch"].map((n) => option(options, n));
  // Checks every option (types included); the key itself is not kept there. The options read
  // are kept (not the key: `apiKey` is only read when a request is forwarded) so that the
  // policy can be made again in a fresh instance after a trap.
  const make = (): ProxyPolicy => {
    const Current = (wasm() as ServerGlue).ProxyPolicy ?? Policy;
    try {
      return new Current(endpoint, baseUrl, allow, maxBodyBytes, apiKey, authorize, fetchImpl);
    } catch (e) {
      throw fromGlue(e, "createProxyHandler");
    }
  };
  let policy = make();
  let made = generation();
  const upstream = policy.upstream;
  const max = policy.maxBodyBytes;
  /** The policy in the current instance (made again after the instance was replaced). */
  const current = (): ProxyPolicy => {
    if (made !== generation()) {
      policy = make();
      made = generation();
    }
    return policy;
  };

  return async function handler(request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (e) {
      // A request (or an option's function) whose values could not be read, or a trap of the
      // instance (replaced before the next request: fromGlue): 500 PROXY_ERROR for this
      // request only; never a foreign exception, never a stack.
      fromGlue(e, "createProxyHandler");
      return answer(current().internal());
    }
  };

  // Each use asks for the current policy: a request awaiting its body or the service when
  // another one trapped goes on in the fresh instance.
  async function handle(request: Request): Promise<Response> {
    const wrongMethod = current().checkMethod(String(request.method));
    if (wrongMethod) return answer(wrongMethod);
    if (authorize) {
      let ok: unknown = false;
      try {
        ok = await (authorize as (r: Request) => unknown)(request);
      } catch {
        ok = false;
      }
      if (ok !== true) return answer(current().unauthorized());
    }
    const text = await readBody(request, max);
    if (text === undefined) return answer(current().tooLarge());
    if (text === null) return answer(current().notJson());
    const decision = current().check(text);
    if (decision.kind === "refuse") return answer(decision);

    let key: unknown;
    try {
      key = typeof apiKey === "function" ? await (apiKey as (r: Request) => unknown)(request) : apiKey;
    } catch {
      key = undefined;
    }
    if (typeof key !== "string" || key === "") return answer(current().noKey());

    // Only these two headers go upstream: never the caller's Authorization, cookies or others.
    // Sent once: the proxy never retries (the client decides, and never retries a mutation).
    let status: number;
    let retryAfter: string | null;
    let contentType: string | null;
    let body: string;
    try {
      const f = (fetchImpl ?? fetch) as (input: string, init: RequestInit) => Promise<Response>;
      const res = await f(upstream, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: decision.body,
        redirect: "manual",
      });
      status = res.status;
      retryAfter = res.headers.get("retry-after");
      contentType = res.headers.get("content-type");
      body = await res.text();
      // Only strings go on to the core (a `fetch` option's answer is a foreign value: the glue's
      // string passing assumes a string, and a Proxy there can break the instance).
      if (typeof body !== "string" || (retryAfter !== null && typeof retryAfter !== "string") ||
        (contentType !== null && typeof contentType !== "string")) {
        return answer(current().unreachable());
      }
    } catch {
      return answer(current().unreachable());
    }
    // 1xx, or an opaque answer (status 0): no answer of the service's to pass on.
    if (status < 200 || status > 599) return answer(current().unreachable());
    const headers: Record<string, string> = { "content-type": contentType ?? "application/json" };
    if (retryAfter !== null) headers["retry-after"] = current().redact(retryAfter, key);
    headers["content-type"] = current().redact(headers["content-type"] ?? "", key);
    // 204, 205 and 304 carry no body (the Response constructor refuses one).
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : current().redact(body, key), { status, headers });
  }
}
