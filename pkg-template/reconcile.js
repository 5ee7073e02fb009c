// `BotClient.prototype.reconcile` for both entries (the browser entry bundles it; the Node
// entry has its CommonJS twin generated from it by scripts/build-pkg.sh). It is composed from
// the public `orders()`: the filter, paging, retries, abort and every check of `fields` and
// `signal` are the Rust core's. Written here rather than exported from the .wasm: the export
// cost 1.2 KB gzip of wasm for what these lines do (the Rust API keeps `BotClient::reconcile`).

const TRIM = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g; // ASCII whitespace, as the core's trim_ascii

/**
 * The order's current record: `order.orderId` read back through `bot.orders()`, and the row
 * whose `id` is `order.id`; `null` when none has it. Rejects with a SettlementError:
 * `invalid_input` (`order.id`, `order.orderId`, `order`, `options`) before any request, or
 * whatever `orders()` rejects with.
 */
export async function reconcileWith(bot, order, options, SettlementError) {
  const invalid = (field, what) => new SettlementError(`${field} ${what}`, { code: "invalid_input", field });
  let id, orderId, fields, signal;
  try {
    [id, orderId] = ["id", "orderId"].map((k) => {
      const v = typeof order === "object" && order !== null ? order[k] : undefined;
      const t = typeof v === "string" ? v.replace(TRIM, "") : "";
      if (!t) throw invalid(`order.${k}`, "must not be empty");
      return t;
    });
    if (options !== undefined && options !== null) {
      if (typeof options !== "object" || Array.isArray(options)) throw invalid("options", "must be an object");
      ({ fields, signal } = options);
    }
    // Rows are matched by `id`, so a `fields` list gets it (a long list is left to the core's checks).
    if (Array.isArray(fields) && fields.length <= 1000 && !fields.includes("id")) fields = [...fields, "id"];
  } catch (e) {
    // A Proxy or getter that throws: the caller's error becomes the cause, never escapes raw.
    if (e instanceof SettlementError) throw e;
    throw Object.assign(invalid(orderId === undefined ? "order" : "options", "could not be read"), { cause: e });
  }
  const query = { filter: { orderId } };
  if (fields !== undefined) query.fields = fields;
  if (signal !== undefined) query.signal = signal;
  let rows;
  try {
    rows = bot.orders(query);
  } catch (e) {
    // orders() refuses bad options with a SettlementError; anything else means `this` is not
    // a BotClient (reconcile called on another object).
    if (e instanceof SettlementError) throw e;
    throw Object.assign(invalid("this", "must be a BotClient"), { cause: e });
  }
  for await (const row of rows) {
    if (row && row.id === id) return row;
  }
  return null;
}
