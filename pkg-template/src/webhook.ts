// createWebhookHandler and verifyWebhook: receive the service's webhook deliveries on a server
// (server entries only; never imported by the browser entry). The token's comparison (constant
// time), the limits, the event's parsing and typing, its key and every answer are the Rust
// core's (`WebhookPolicy`, src/webhook.rs); this module reads the Request, calls `onEvent` and
// writes the Response.
import type { WebhookAnswer, WebhookPolicy, WebhookRefusal } from "./glue-server/settlement_wasm.js";
import type { WebhookEvent } from "./glue/settlement_wasm.js";
import { readCapped } from "./body.js";
import { SettlementError } from "./errors.js";
import { wasm } from "./wasm.js";

export type {
  WebhookEvent, PaymentRequestEventData, OnchainTxEventData, FiatPayoutEventData, ChargebackEventData,
  ChargebackPaymentRequest, WebhookCustomer, WebhookP2PPayment,
} from "./glue/settlement_wasm.js";

/** The token(s) a delivery must carry: one, several (while rotating), or a function giving either. */
export type WebhookToken =
  | string
  | readonly string[]
  | ((request: Request) => string | readonly string[] | Promise<string | readonly string[]>);

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * The token set in the service's dashboard; an array accepts each (to rotate without
   * downtime); a function is called for each delivery. Compared in constant time.
   */
  token: WebhookToken;
  /** The header the service sends the token in. Default `X-CASHRAMP-TOKEN`. */
  header?: string;
  /** The largest body read, in bytes (over it: 413 / `too_large`, the rest unread). Default 65536. */
  maxBodyBytes?: number;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookOptions extends VerifyWebhookOptions {
  /**
   * Called once per verified delivery. When it resolves the handler answers 200; when it
   * throws or rejects, 500 (the service then retries: de-duplicate with `event.key`).
   */
  onEvent: (event: WebhookEvent) => unknown;
}

/** A Fetch-API handler: a Next.js route handler, a Workers/Deno/Bun `fetch`, a Hono route. */
export type WebhookHandler = (request: Request) => Promise<Response>;

/** The server glue's `WebhookPolicy` (only the server entries' wasm has it). */
type ServerGlue = {
  WebhookPolicy?: {
    forHandler(options: unknown): WebhookPolicy;
    forVerify(options: unknown): WebhookPolicy;
  };
};

/** The server glue's `WebhookPolicy` class, or a SettlementError in an entry without it. */
function policies(fn: string): NonNullable<ServerGlue["WebhookPolicy"]> {
  const Policy = (wasm() as ServerGlue).WebhookPolicy;
  if (!Policy) {
    throw new SettlementError(`${fn} is only in the package's server entries`, { code: "invalid_input" });
  }
  return Policy;
}

/**
 * The delivery's event, or the refusal: the method (405), the token (401; 500 when the token
 * function gave none), the body (413, 400).
 */
async function check(policy: WebhookPolicy, request: Request): Promise<WebhookEvent | WebhookRefusal | WebhookAnswer> {
  const wrongMethod = policy.checkMethod(String(request.method));
  if (wrongMethod) return wrongMethod;
  let given: unknown = undefined;
  const token = policy.tokenFunction;
  if (token) {
    try {
      given = await token(request);
    } catch {
      given = null;
    }
  }
  const refused = policy.checkToken(request.headers.get(policy.headerName), given);
  if (refused) return refused;
  const bytes = await readCapped(request, policy.maxBodyBytes);
  if (bytes === undefined) return policy.tooLarge();
  if (bytes === null) return policy.unreadable();
  const decision = policy.parse(bytes);
  if (decision.kind === "refuse") return decision;
  return JSON.parse(decision.event) as WebhookEvent;
}

function isEvent(x: object): x is WebhookEvent {
  return "key" in x;
}

function respond(a: { status: number; body: string }): Response {
  return new Response(a.body, { status: a.status, headers: { "content-type": "application/json" } });
}

/**
 * A handler for the service's webhook deliveries: checks the token in constant time, reads
 * at most `maxBodyBytes`, types the event and calls `onEvent` once. Answers: 200 when
 * `onEvent` resolved; 405 for anything but POST; 401 for a missing or wrong token (nothing
 * else said); 413; 400 for a body that is not JSON or has no `event_type`/`data`; 500 when
 * `onEvent` throws or rejects (the service retries). Never a stack, never a token. A static
 * token stops no replay: de-duplicate with `event.key`, and confirm the state with
 * `merchant.confirmEvent(event)` before releasing value. Invalid options throw
 * `SettlementError` (`invalid_input`).
 */
export function createWebhookHandler(options: WebhookOptions): WebhookHandler {
  const policy = policies("createWebhookHandler").forHandler(options);
  const onEvent = policy.onEvent as (e: WebhookEvent) => unknown;
  return async function handler(request: Request): Promise<Response> {
    let result: Awaited<ReturnType<typeof check>>;
    try {
      result = await check(policy, request);
    } catch {
      // A request whose values could not be read: never a foreign exception, never a stack.
      return respond(policy.handlerFailed());
    }
    if (!isEvent(result)) return respond(result);
    try {
      await onEvent(result);
    } catch {
      return respond(policy.handlerFailed());
    }
    return respond(policy.ok());
  };
}

/**
 * The event of a delivery, for code that wants it without the handler: resolves with the
 * typed event or rejects with a `SettlementError`: `unauthorized` (a missing or wrong token),
 * `too_large`, `invalid_input` (not POST, a body that is not an event, or invalid options).
 */
export async function verifyWebhook(request: Request, options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const policy = policies("verifyWebhook").forVerify(options);
  let result: Awaited<ReturnType<typeof check>>;
  try {
    result = await check(policy, request);
  } catch (cause) {
    throw new SettlementError("verifyWebhook: the request could not be read", { code: "invalid_input", field: "request", cause });
  }
  if (isEvent(result)) return result;
  if ("error" in result) throw result.error;
  throw new SettlementError("verifyWebhook: a webhook delivery is a POST request", { code: "invalid_input", field: "request" });
}
