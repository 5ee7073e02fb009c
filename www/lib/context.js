// The context every panel's init receives: the dashboard's shared state and the few services
// panels share. Nothing else is shared: a panel keeps its own elements and state, and talks
// to another panel only through what app.js wires between their returned APIs.
import { $ } from "./dom.js";

/**
 * The order fields (`P2PPayment`) the service's sources show: the client's default selection.
 * The sandbox adds `ORDER_EXTRAS`; the tables show them where the service has them.
 */
export const ORDER_FIELDS = ["id", "status", "paymentType", "exchangeRate", "exchangeRateMinusSurcharge",
  "orderId", "source", "instant", "createdAt", "expiresAt", "expiresAtSecs", "reassigning", "reassignAfter",
  "reassignAfterSecs", "agentCutOfFees", "fxSpreadRevenue"];

/** The sandbox's own order fields (the amounts, their currency, the payment method). */
export const ORDER_EXTRAS = ["paymentMethod", "amountLocal", "amountUsd", "currency"];

/**
 * @typedef {object} Context
 * @property {object|null} mod       the settlement-wasm module once loaded (init() done), else null
 * @property {{ baseUrl: string, apiKey: string }} conn  the connection in use (set by the connection form)
 * @property {boolean} connected     true once the connection form has connected
 * @property {object} sandbox        the sandbox controls (panels/sandbox.js); `sandbox.info` is the
 *                                   GET /__sandbox/info answer, or null when not on the sandbox
 * @property {(op: string, fn: (client: object, entry: object) => Promise<any>) => Promise<any>} call
 *   runs one client call with its own BotClient, traced to its own activity entry
 * @property {(text: string, state?: string) => void} status  the status line of the connection bar
 * @property {(inputs: Record<string, HTMLElement>) => void} fields
 *   registers the inputs an `invalid_input` error can name (by its `field`)
 * @property {(err: unknown) => void} markInvalid  marks the input an error names; `null` clears all
 */

/**
 * @param {{ activity: object, sandbox: object }} services the activity log (panels/activity.js)
 *   and the sandbox controls (panels/sandbox.js), which every call goes through
 * @returns {Context}
 */
export function createContext({ activity, sandbox }) {
  const statusLine = $("connection-status");
  const inputs = {};
  const extras = { key: null, answer: null };
  /** Whether the service answers an order query naming the extras (a refusal: it has not them). */
  async function probeExtras() {
    try {
      await ctx.call("orderHistory (probe: amounts, currency, method?)", (c) =>
        c.orderHistory({ page: 1, perPage: 1, fields: ["id", ...ORDER_EXTRAS] }));
      return true;
    } catch {
      return false;
    }
  }
  const ctx = {
    mod: null,
    conn: { baseUrl: "", apiKey: "" },
    connected: false,
    sandbox,

    status(text, state) {
      statusLine.textContent = text;
      if (state !== undefined) statusLine.dataset.state = state;
    },

    fields(map) { Object.assign(inputs, map); },

    /**
     * The order fields to ask for: `ORDER_FIELDS` with `ORDER_EXTRAS` where the service has them
     * (the sandbox; any other service is asked once, by a one-row probe), else `ORDER_FIELDS`
     * alone, so every panel works against a service without the extras (their cells show "—").
     * Through the server proxy, `ORDER_FIELDS` alone: the package's proxy lets through only
     * the selections the package knows. Remembered per connection.
     * @returns {Promise<string[]>}
     */
    async orderFields() {
      const key = `${ctx.conn.endpoint || ""} ${ctx.conn.baseUrl} ${!!sandbox.info}`;
      if (extras.key !== key) {
        extras.key = key;
        extras.answer = ctx.conn.endpoint ? Promise.resolve(false)
          : sandbox.info ? Promise.resolve(true) : probeExtras();
      }
      return (await extras.answer) ? [...ORDER_FIELDS, ...ORDER_EXTRAS] : ORDER_FIELDS;
    },

    /** Mark the input an `invalid_input` error names (aria-invalid) and focus it; clear the rest. */
    markInvalid(err) {
      for (const input of Object.values(inputs)) input.removeAttribute("aria-invalid");
      if (!err || err.code !== "invalid_input" || !err.field) return;
      const input = inputs[err.field];
      if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
    },

    /**
     * Run one client call with its own BotClient (so its attempts are traced to its own activity
     * entry, and a simulation's fault headers apply to it alone). `fn` may return
     * `{ __note: "..." }` (or a result with such a field) to annotate the activity entry.
     */
    async call(op, fn) {
      const sim = sandbox.take();
      const entry = activity.add(op, sim);
      let client = null;
      try {
        const headers = sim ? { "x-sandbox-fault": sim.fault, "x-sandbox-tag": sim.tag } : undefined;
        // Through the server proxy: its endpoint, and no key (the server adds it).
        const where = ctx.conn.endpoint
          ? { endpoint: ctx.conn.endpoint }
          : { baseUrl: ctx.conn.baseUrl, apiKey: ctx.conn.apiKey || undefined };
        client = new ctx.mod.BotClient({
          ...where,
          headers,
          ...(sim && sim.client),
        });
        activity.trace(entry, client);
        const result = await fn(client, entry);
        entry.done(null, typeof result?.__note === "string" ? result.__note : "");
        return result;
      } catch (err) {
        entry.done(err);
        throw err;
      } finally {
        if (client && typeof client.free === "function") { try { client.free(); } catch { /* already freed */ } }
        if (sim) sandbox.report(sim, entry, ctx.conn.baseUrl);
      }
    },
  };
  return ctx;
}
