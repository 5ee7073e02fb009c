// settlement-wasm-testing: the Stablecoin Settlement Service as an in-process fake, for the
// tests of an app built on settlement-wasm. The service is the repository's sandbox core
// (tests/sandbox: the same schema, seeded data, lifecycles, key checks, faults and request
// log), compiled to WebAssembly: nothing is fetched, no server is started. This shell only
// does the I/O a `fetch` needs: it reads the Request, waits as the core's fault says
// (setTimeout, so fake timers drive it), and writes the Response. The entries give it the
// core's WebAssembly, one file (settlement_sandbox_bg.wasm, beside them) loaded as each runtime
// can: node.ts reads it from disk, browser.ts fetches it (`new URL(…, import.meta.url)`),
// workerd.ts imports it as a compiled module.
import { initSync, FakeCore, type FakeAdmission, type FakeAnswer, type FakeRequest } from "./glue/settlement_sandbox.js";

/**
 * The core's WebAssembly as an entry provides it: bytes, or a module compiled by the runtime.
 * @internal
 */
export type CoreSource = BufferSource | WebAssembly.Module;

/** Where the core comes from: set once by the entry; a function is called on the first `createFakeService()`. */
let coreSource: CoreSource | (() => CoreSource) | null = null;
let loaded = false;

/**
 * Called once by an entry, on import: where `createFakeService` instantiates the core from
 * (a function: read when the first fake is created, not on import).
 * @internal
 */
export function provideCore(source: CoreSource | (() => CoreSource)): void {
  coreSource = source;
}

/** Instantiates the core once (synchronously: a fake must not need an `await`). */
function load(): void {
  if (!loaded) {
    if (coreSource === null) throw new Error("settlement-wasm-testing: no entry provided the core's WebAssembly");
    const module = typeof coreSource === "function" ? coreSource() : coreSource;
    initSync({ module });
    loaded = true;
  }
}

/** What `createFakeService` takes. */
export interface FakeServiceOptions {
  /**
   * Serve the sandbox's own fields and enum values too (for demos). Off (the default), a
   * document must keep to the fields and values the service is known to have: any other is
   * refused with the GraphQL validation error a real server gives.
   */
  extras?: boolean;
  /** The fake's clock at creation (ms since the epoch, or a Date); default `Date.now()`. */
  now?: number | Date;
  /** The origin the fake answers as (pass it as the clients' `baseUrl`); default `https://fake-service.test`. */
  baseUrl?: string;
  /** Largest `perPage` `orderHistory` accepts; default 100. */
  maxPerPage?: number;
  /** The token `webhooks` deliveries carry in `X-CASHRAMP-TOKEN`; default `fake-webhook-token`. */
  webhookToken?: string;
  /**
   * Which data set it is seeded with: an integer from 0 to 2^53 − 1; default 0, the usual
   * data. The same seed gives the same data in every fake and in the HTTP sandbox started with
   * `--seed N`; another seed gives other order ids, times, amounts, rates, currencies, methods
   * and emails, with the same keys, agent ids, order counts, agent 1's counts per status and
   * type, order days, profile figures and fixtures (see the README).
   */
  seed?: number;
}

/** The keys the fake accepts. */
export interface FakeServiceKeys {
  /** Agent 1's key (the bot endpoint; agent 1 has 1,600 seeded orders). */
  agent: string;
  /** Agent 2's key. */
  agent2: string;
  /** Agent 3's key. */
  agent3: string;
  /** The merchant's public key (the merchant endpoint, every query but `account`). */
  merchantPublic: string;
  /** The merchant's secret key (the merchant endpoint, everything). */
  merchantSecret: string;
}

/** A fault for the next requests: what `x-sandbox-fault` can say, as named options. */
export interface FakeFault {
  /** Answer this HTTP status (200–599) instead of executing. */
  status?: number;
  /** Add `Retry-After` with this value (seconds, or an HTTP date). */
  retryAfter?: number | string;
  /** Wait this many ms first (fake timers drive it). */
  delayMs?: number;
  /** Never answer: the fetch settles only when its signal aborts. */
  hang?: boolean;
  /** Reset the connection before acting (the fetch rejects with a TypeError). */
  drop?: boolean;
  /** Act (a mutation takes effect), then reset the connection: the client's `outcome_unknown`. */
  dropAfter?: boolean;
  /** Answer the real data plus an extra error (a partial failure). */
  partial?: boolean;
}

/** One request the fake received: never a key. */
export interface FakeRequestRecord {
  seq: number;
  endpoint: "bot" | "merchant";
  operationName: string | null;
  query: string | null;
  variables: unknown;
  /** Whether an `Authorization` header came. */
  hasAuthorization: boolean;
  /** Which class of key it carried, never the key. */
  keyClass: "none" | "agent" | "merchantPublic" | "merchantSecret" | "unknown";
  headerNames: string[];
  tag: string | null;
  fault: string | null;
  faultApplied: boolean;
  /** The HTTP status answered; 0 for a reset connection, 499 when the caller gave up. */
  status: number;
}

/** Moves the fake's state and clock, as the service would move on its own. */
export interface FakeControl {
  /** A new `pending` order at the head of the agent's list (agent 1 unless given). */
  createOrder(options?: { agent?: 1 | 2 | 3; type?: "deposit" | "withdrawal" }): { id: string; [k: string]: unknown };
  /** An agent's orders as the fake holds them, newest first (agent 1 unless given). */
  orders(agent?: 1 | 2 | 3): Array<{ id: string; status: string; [k: string]: unknown }>;
  /** A customer pays hosted payment request `id` onchain: its transaction hash, for `confirmTransaction`. */
  payDeposit(paymentRequestId: string): string;
  /** The agent confirms a paid direct-ramp deposit's fiat arrived (paid → completed). */
  completeRamp(paymentRequestId: string): unknown;
  /** Direct-ramp quote `id` expires now. */
  expireQuote(rampQuoteId: string): unknown;
  /** The chain settles pending onchain withdrawal `id` (`completed`, or `failed`). */
  settleWithdrawal(withdrawalId: string, outcome?: "completed" | "failed"): unknown;
  /** The next `times` requests (default 1) get `fault`. */
  failNext(fault: FakeFault, times?: number): void;
  /** Forgets the faults `failNext` queued. */
  clearFaults(): void;
  /** Moves the fake's clock forward by `ms`; answers the new time (ms since the epoch). */
  advance(ms: number): number;
  /** The fake's clock (ms since the epoch). */
  now(): number;
  /** Puts every agent's data (or one agent's) back to the seed. */
  reset(agent?: 1 | 2 | 3): void;
}

/** The fake service. */
export interface FakeService {
  /** A `fetch` answering the bot and merchant endpoints in process: the clients' `fetch` option. */
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The origin it answers as: the clients' `baseUrl`. */
  baseUrl: string;
  /** The keys it accepts. */
  keys: FakeServiceKeys;
  control: FakeControl;
  /** What it received, oldest first (only `tag`'s, the `x-sandbox-tag` header, when given). */
  requests(tag?: string): FakeRequestRecord[];
  /** Forgets what it received. */
  clearRequests(): void;
  /**
   * The webhook deliveries the service would have sent since the last call (one per hosted
   * payment, onchain withdrawal or direct-ramp request created or with a new status), as
   * `POST` Requests carrying `X-CASHRAMP-TOKEN`: feed them to `createWebhookHandler`.
   */
  webhooks(url?: string): Request[];
  /** The token the deliveries carry. */
  webhookToken: string;
}

const BOT_PATH = "/service/bot/graphql";
const MERCHANT_PATH = "/service/api/graphql";
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

function faultSpec(f: FakeFault): string {
  const items: string[] = [];
  if (f.status !== undefined) items.push(`status=${f.status}`);
  if (f.retryAfter !== undefined) items.push(`retry-after=${f.retryAfter}`);
  if (f.delayMs !== undefined) items.push(`delay=${f.delayMs}`);
  if (f.hang) items.push("hang");
  if (f.drop) items.push("drop");
  if (f.dropAfter) items.push("drop-after");
  if (f.partial) items.push("partial");
  return items.join("; ");
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms` (forever when null) unless `signal` aborts first (then rejects with its reason). */
function wait(ms: number | null, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (timer !== undefined) clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (ms !== null) {
      timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
    }
  });
}

/** A fresh fake service: its own seeded data, clock, faults and request log. */
export function createFakeService(options: FakeServiceOptions = {}): FakeService {
  load();
  const baseUrl = (options.baseUrl ?? "https://fake-service.test").replace(/\/+$/, "");
  const now = options.now instanceof Date ? options.now.getTime() : (options.now ?? Date.now());
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`settlement-wasm-testing: seed must be an integer from 0 to 2^53 - 1, got ${String(options.seed)}`);
  }
  const core = new FakeCore({
    extras: options.extras ?? false,
    nowMs: now,
    baseUrl,
    maxPerPage: options.maxPerPage ?? 100,
    seed,
  });
  const webhookToken = options.webhookToken ?? "fake-webhook-token";
  const k = core.keys();
  const keys: FakeServiceKeys = {
    agent: k["AGENT_KEY"] as string,
    agent2: k["AGENT2_KEY"] as string,
    agent3: k["AGENT3_KEY"] as string,
    merchantPublic: k["MERCHANT_PUBLIC_KEY"] as string,
    merchantSecret: k["MERCHANT_SECRET_KEY"] as string,
  };

  async function fakeFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : null);
    if (signal?.aborted) throw abortReason(signal);
    const path = new URL(request.url).pathname;
    const endpoint = path.endsWith(BOT_PATH) ? "bot" : path.endsWith(MERCHANT_PATH) ? "merchant" : null;
    if (endpoint === null) return new Response("Not Found", { status: 404 });
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const body = await request.text();
    const headerNames: string[] = [];
    request.headers.forEach((_value, name) => headerNames.push(name));
    const sent: FakeRequest = { endpoint, headerNames, body };
    const authorization = request.headers.get("authorization");
    if (authorization !== null) sent.authorization = authorization;
    const contentType = request.headers.get("content-type");
    if (contentType !== null) sent.contentType = contentType;
    const tag = request.headers.get("x-sandbox-tag");
    if (tag !== null) sent.tag = tag;
    const fault = request.headers.get("x-sandbox-fault");
    if (fault !== null) sent.fault = fault;
    const admission: FakeAdmission = core.admit(sent);
    let answer: FakeAnswer;
    try {
      const delay = admission.delayMs();
      if (admission.hangs()) await wait(null, signal);
      else if (delay !== undefined) await wait(delay, signal);
      answer = admission.answer();
    } finally {
      // Unanswered (aborted), this logs the caller as gone.
      admission.free();
    }
    if (answer.kind === "drop") {
      throw new TypeError("fetch failed", { cause: new Error("the fake service reset the connection") });
    }
    const headers = new Headers();
    for (const h of answer.headers) headers.set(h.name, h.value);
    return new Response(NULL_BODY_STATUS.has(answer.status) ? null : answer.body, { status: answer.status, headers });
  }

  const control: FakeControl = {
    createOrder: (o = {}) => core.createOrder(o.agent ?? 1, o.type) as { id: string },
    orders: (agent = 1) => core.orders(agent) as Array<{ id: string; status: string }>,
    payDeposit: (id) => core.transfer(id),
    completeRamp: (id) => core.completeRamp(id),
    expireQuote: (id) => core.expireQuote(id),
    settleWithdrawal: (id, outcome = "completed") => core.settleWithdrawal(id, outcome === "failed"),
    failNext: (fault, times = 1) => core.failNext(times, faultSpec(fault)),
    clearFaults: () => core.clearFaults(),
    advance: (ms) => core.advance(ms),
    now: () => core.nowMs(),
    reset: (agent) => core.reset(agent),
  };

  return {
    fetch: fakeFetch,
    baseUrl,
    keys,
    control,
    requests: (tag) => core.requests(tag) as FakeRequestRecord[],
    clearRequests: () => core.clearRequests(),
    webhooks: (url = `${baseUrl}/webhooks`) =>
      (core.webhookEvents() as unknown[]).map(
        (event) =>
          new Request(url, {
            method: "POST",
            headers: { "content-type": "application/json", "x-cashramp-token": webhookToken },
            body: JSON.stringify(event),
          }),
      ),
    webhookToken,
  };
}
