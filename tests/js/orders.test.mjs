// orders() and OrderIterator (pkg-template/src/orders.ts driving the Rust core's order search:
// orderHistory's pages, row by row, by the core's pager rules) against scripted pages from a
// caller's `fetch`: no sandbox needed, and every page request is seen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BotClient, OrderIterator, SettlementError } from "settlement-wasm";

/** A client whose fetch answers page `n` with `pages[n - 1]` (`{ ids, total }` or an HTTP status). */
function scripted(pages, gate) {
  const seen = [];
  const fetch = async (request) => {
    const body = JSON.parse(await request.text());
    const v = body.variables;
    seen.push(v);
    if (gate) await gate;
    const p = pages[v.page - 1] ?? { ids: [], total: 0 };
    if (p.status) return new Response("{}", { status: p.status, headers: { "content-type": "application/json" } });
    const data = p.ids.map((id) => ({ id: String(id), orderId: `o-${id}` }));
    const orderHistory = { data, pagination: { page: v.page, perPage: v.perPage ?? 10, total: p.total } };
    return new Response(JSON.stringify({ data: { orderHistory } }), { headers: { "content-type": "application/json" } });
  };
  return { bot: new BotClient({ baseUrl: "https://api.example", apiKey: "test-key-1", fetch, maxRetries: 0 }), seen };
}

const ids = async (it) => {
  const out = [];
  for await (const o of it) out.push(o.id);
  return out;
};

test("stops after pagination.total rows, mid-page, without another fetch", async () => {
  const { bot, seen } = scripted([{ ids: [1, 2], total: 3 }, { ids: [3, 4], total: 3 }]);
  assert.deepEqual(await ids(bot.orders({ perPage: 2 })), ["1", "2", "3"]);
  assert.deepEqual(seen.map((v) => v.page), [1, 2]);
  assert.ok(seen.every((v) => v.perPage === 2));
});

test("an empty page ends the iteration", async () => {
  const { bot, seen } = scripted([{ ids: [1, 2], total: 100 }, { ids: [], total: 100 }]);
  assert.deepEqual(await ids(bot.orders()), ["1", "2"]);
  assert.equal(seen.length, 2);
});

test("an error rejects that next() and ends the iteration: no further fetch", async () => {
  const { bot, seen } = scripted([{ ids: [1], total: 5 }, { status: 500 }]);
  const it = bot.orders();
  assert.deepEqual(await it.next(), { done: false, value: { id: "1", orderId: "o-1" } });
  await assert.rejects(it.next(), (e) => e instanceof SettlementError && e.code === "http" && e.status === 500);
  assert.deepEqual(await it.next(), { done: true, value: undefined });
  assert.equal(seen.length, 2);
});

test("concurrent next() calls are served in order", async () => {
  const { bot } = scripted([{ ids: [1, 2], total: 4 }, { ids: [3, 4], total: 4 }]);
  const it = bot.orders();
  const r = await Promise.all([it.next(), it.next(), it.next(), it.next(), it.next()]);
  assert.deepEqual(r.map((x) => x.done ? "done" : x.value.id), ["1", "2", "3", "4", "done"]);
});

test("return() while a page is on its way ends the iteration", async () => {
  let release;
  const gate = new Promise((r) => { release = r; });
  const { bot, seen } = scripted([{ ids: [1, 2], total: 10 }, { ids: [3, 4], total: 10 }], gate);
  const it = bot.orders();
  const pending = it.next();
  while (seen.length === 0) await new Promise((r) => setTimeout(r, 1));
  assert.deepEqual(await it.return(), { done: true, value: undefined });
  release();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.deepEqual(await it.next(), { done: true, value: undefined });
  assert.equal(seen.length, 1);
});

test("invalid options throw synchronously (the core's checks) and send nothing", () => {
  const { bot, seen } = scripted([]);
  for (const [options, field] of [[{ perPage: 0 }, "perPage"], [{ filter: { dateFrom: "nope" } }, "filter.dateFrom"],
    [{ fields: ["a b"] }, "fields"], [{ signal: {} }, "signal"], ["x", "options"]]) {
    assert.throws(() => bot.orders(options), (e) => e instanceof SettlementError && e.code === "invalid_input" && e.field === field,
      JSON.stringify(options));
  }
  assert.equal(seen.length, 0);
});

test("the options are copied when orders() is called", async () => {
  const { bot, seen } = scripted([{ ids: [1], total: 1 }]);
  const filter = { status: "pending" };
  const fields = ["id", "orderId"];
  const it = bot.orders({ filter, fields });
  filter.status = "paid";
  fields.push("amount");
  await ids(it);
  assert.equal(seen[0].filter.status, "pending");
  assert.equal(seen.length, 1);
});

test("OrderIterator is made by orders() only; its methods refuse other receivers", async () => {
  assert.throws(() => new OrderIterator(), (e) => e instanceof SettlementError && e.field === "this");
  const { bot } = scripted([]);
  for (const m of ["next", "return"]) {
    await assert.rejects(OrderIterator.prototype[m].call(bot), (e) => e instanceof SettlementError && e.field === "this");
  }
  assert.throws(() => OrderIterator.prototype.free.call({}), (e) => e instanceof SettlementError && e.field === "this");
  const it = bot.orders();
  assert.equal(it[Symbol.asyncIterator](), it);
  it.free();
  assert.deepEqual(await it.next(), { done: true, value: undefined });
});
