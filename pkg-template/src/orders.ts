// `OrderIterator`: the I/O side of an order search (`BotClient.orders()` and `reconcile()`).
// The search itself (which page to ask for, when to stop, which row matches) is the Rust core's
// `OrderSearch`: the iterator asks it for the next step, runs the page calls it prepares
// through the one driver (call.ts), and hands each page back.
import type { OrderSearch, P2PPayment } from "./glue/settlement_wasm.js";
import { run } from "./call.js";
import { fromGlue, notLive } from "./errors.js";
import { release } from "./wasm.js";

const WHAT = "OrderIterator made by BotClient.orders()";
/** What only this module passes to the constructor: `new OrderIterator()` elsewhere is refused. */
const TOKEN = Symbol();
let make: <Row>(search: OrderSearch, fetchImpl: Function | undefined) => OrderIterator<Row>;

/**
 * The async iterator of `BotClient.orders()` (pages of `orderHistory`, row by row), and of the
 * server `MerchantClient.customers()` (`OrderIterator<MerchantCustomer>`: pages of
 * `merchantCustomers`, node by node); over after an error.
 */
export class OrderIterator<Row = P2PPayment> {
  /** The core's search; null once the iteration is over. */
  #search: OrderSearch | null = null;
  /** The client's `fetch` option. */
  #fetch: Function | undefined;
  /** The last `next()`: each waits for the one before it. */
  #tail: Promise<unknown> = Promise.resolve();

  static {
    make = <Row>(search: OrderSearch, fetchImpl: Function | undefined) => {
      const it = new OrderIterator<Row>(TOKEN);
      it.#search = search;
      it.#fetch = fetchImpl;
      return it;
    };
  }

  private constructor(token?: unknown) {
    if (token !== TOKEN) throw notLive(WHAT);
  }

  static #is(o: unknown): o is OrderIterator<unknown> {
    return typeof o === "object" && o !== null && #search in o;
  }

  /** The next row; calls are served in order. */
  next(): Promise<IteratorResult<Row, undefined>> {
    if (!OrderIterator.#is(this)) return Promise.reject(notLive(WHAT));
    const step = (): Promise<IteratorResult<Row, undefined>> => this.#step();
    const next = this.#tail.then(step, step);
    this.#tail = next;
    return next;
  }

  /** One `next()`: the core's next row, after the page call it asks for when it has none. */
  async #step(): Promise<IteratorResult<Row, undefined>> {
    for (;;) {
      const search = this.#search;
      if (!search) return { done: true, value: undefined };
      try {
        const step = search.next();
        if (step.kind === "row") return { done: false, value: step.row as Row };
        if (step.kind === "done") {
          this.#end();
          return { done: true, value: undefined };
        }
        const page = await run(this.#fetch, step.call);
        // After return() while the page was on its way, the search is over: the loop says so.
        if (this.#search === search) search.receive(page);
      } catch (e) {
        this.#end();
        throw fromGlue(e, WHAT);
      }
    }
  }

  /** Ends the search (if not over yet) and releases its wasm memory. */
  #end(): void {
    const search = this.#search;
    if (!search) return;
    this.#search = null;
    try {
      search.finish();
    } catch {
      // Only a core bug throws here; the memory is released all the same.
    }
    release(search);
  }

  /** Ends the iteration (`for await` calls it on `break`). */
  return(): Promise<IteratorReturnResult<undefined>> {
    if (!OrderIterator.#is(this)) return Promise.reject(notLive(WHAT));
    this.#end();
    return Promise.resolve({ done: true, value: undefined });
  }

  /** Ends the iteration, like `return()`, and releases its wasm memory at once. */
  free(): void {
    if (!OrderIterator.#is(this)) throw notLive(WHAT);
    this.#end();
  }

  /** The iterator itself: `for await` asks for it. */
  [Symbol.asyncIterator](): OrderIterator<Row> {
    return this;
  }
}

/** An iterator over `search`, its page calls made with `fetchImpl` (the client's option). @internal */
export function iterate<Row = P2PPayment>(search: OrderSearch, fetchImpl: Function | undefined): OrderIterator<Row> {
  return make<Row>(search, fetchImpl);
}

/** The first row of `it` (reconcile's match), or null; the search is over either way. @internal */
export async function first(it: OrderIterator): Promise<P2PPayment | null> {
  const r = await it.next();
  it.free();
  return r.done ? null : r.value;
}
