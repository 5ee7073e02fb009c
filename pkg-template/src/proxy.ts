// createProxyHandler: a Fetch-API handler that keeps the key on the server (server entries
// only; never imported by the browser entry). What may be forwarded, every refusal and the
// redaction of the service's answers are the Rust core's (`ProxyPolicy`, src/proxy.rs); this
// module converts the Request and Response and does the I/O.
import type { AttemptOutcome, PreparedCall as UpstreamCall, ProxyAnswer, ProxyPolicy } from "./glue-server/settlement_wasm.js";
import type { SettlementEventMap } from "./glue/settlement_wasm.js";
import { readCapped } from "./body.js";
import { fromGlue, SettlementError } from "./errors.js";
import { Emitter, headerBlock, observe, type Observation } from "./events.js";
import { generation, release, wasm } from "./wasm.js";

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
  /**
   * Listeners of the upstream calls' events, by type: `{ response(e) {…}, error(e) {…} }`.
   * The events are the clients' (see the README's table) with `source: "proxy"`: `request`,
   * `response`, `error` (the error the client behind the proxy will see, e.g. `unauthorized`,
   * or `network` when the service was not reached) and `done`; never `retry` (the proxy sends
   * each request once). No event holds a piece of the key. A listener that throws is reported
   * once on the console and never changes the answer.
   */
  on?: { [K in keyof SettlementEventMap]?: (event: SettlementEventMap[K]) => void };
  /** As the clients' `logger` option: one line per upstream answer and per failed call. Off by default. */
  logger?: { debug: Function; info: Function; warn: Function; error: Function };
}

/**
 * The observation of the upstream call of a forwarded request (`method`, `body`: the policy's
 * forward decision; `key`: the key it is sent with), its events to `events`; undefined when
 * the core makes no call of it.
 */
function observeUpstream(policy: ProxyPolicy, events: Emitter, method: string, body: string, key: string): Observation | undefined {
  const call = policy.call(method, body, key);
  return call && observe({ emitter: events, source: "proxy" }, call);
}

/**
 * Ends the observed upstream call with its one attempt's `outcome`: its `error` (when the core
 * says the call failed, as the client behind the proxy will see it) and `done` events. Frees it.
 */
function end(seen: Observation, outcome: AttemptOutcome, headers?: string): void {
  try {
    (seen.call as unknown as UpstreamCall).finish(outcome);
    seen.emit((c) => c.event("done"));
  } catch (e) {
    const error = fromGlue(e, "createProxyHandler");
    // As a client's error: the response's headers and request id, when an answer came.
    if (outcome.kind === "response" && headers !== undefined && e instanceof SettlementError) {
      const { headers: kept, requestId } = seen.call.response(outcome.status, headers);
      Object.assign(error, requestId === undefined ? { headers: kept } : { headers: kept, requestId });
    }
    seen.failed(error);
  } finally {
    release(seen.call);
  }
}

/** A Fetch-API handler: a Next.js route handler, a Workers/Deno/Bun `fetch`, a Hono route. */
export type ProxyHandler = (request: Request) => Promise<Response>;

/** The server glue's `ProxyPolicy` (only the server entries' wasm has it). */
type ServerGlue = {
  ProxyPolicy?: new (options: unknown) => ProxyPolicy;
};

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
  // The core reads and checks every option once (types included; an unknown key is refused)
  // and keeps the functions and the listeners. The options object is kept so that the policy
  // can be made again in a fresh instance after a trap.
  const make = (): ProxyPolicy => {
    const Current = (wasm() as ServerGlue).ProxyPolicy ?? Policy;
    try {
      return new Current(options);
    } catch (e) {
      throw fromGlue(e, "createProxyHandler");
    }
  };
  let policy = make();
  let made = generation();
  const { apiKey, authorize, fetch: fetchImpl } = policy;
  const events = new Emitter(policy.logs);
  for (const { type, listener } of policy.listeners) events.on(type, listener, "createProxyHandler");
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

    // The upstream call's events, when something listens: the core's, as for a client's call.
    const seen = events.active ? observeUpstream(current(), events, decision.method, decision.body, key) : undefined;
    seen?.emit((c) => c.event("request"));
    // Only these two headers go upstream: never the caller's Authorization, cookies or others.
    // Sent once: the proxy never retries (the client decides, and never retries a mutation).
    let status: number;
    let retryAfter: string | null;
    let contentType: string | null;
    let body: string;
    let upstreamHeaders: unknown;
    try {
      const f = (fetchImpl ?? fetch) as (input: string, init: RequestInit) => Promise<Response>;
      const res = await f(upstream, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: decision.body,
        redirect: "manual",
      });
      status = res.status;
      upstreamHeaders = res.headers;
      retryAfter = res.headers.get("retry-after");
      contentType = res.headers.get("content-type");
      body = await res.text();
      // Only strings go on to the core (a `fetch` option's answer is a foreign value: the glue's
      // string passing assumes a string, and a Proxy there can break the instance).
      if (typeof body !== "string" || (retryAfter !== null && typeof retryAfter !== "string") ||
        (contentType !== null && typeof contentType !== "string")) {
        throw "the service's answer could not be read";
      }
    } catch (e) {
      if (seen) end(seen, { kind: "failed", error: e });
      return answer(current().unreachable());
    }
    // 1xx, or an opaque answer (status 0): no answer of the service's to pass on.
    if (!(status >= 200 && status <= 599)) {
      if (seen) end(seen, { kind: "failed", error: "no answer of the service's to pass on" });
      return answer(current().unreachable());
    }
    if (seen) {
      const block = headerBlock(upstreamHeaders);
      seen.emit((c) => c.responseEvent(status, block));
      end(seen, { kind: "response", status, retryAfter: retryAfter ?? undefined, body }, block);
    }
    const headers: Record<string, string> = { "content-type": contentType ?? "application/json" };
    if (retryAfter !== null) headers["retry-after"] = current().redact(retryAfter, key);
    headers["content-type"] = current().redact(headers["content-type"] ?? "", key);
    // 204, 205 and 304 carry no body (the Response constructor refuses one).
    const empty = status === 204 || status === 205 || status === 304;
    return new Response(empty ? null : current().redact(body, key), { status, headers });
  }
}
