// An abort that arrives before a call settles wins: also when the attempt's result (a
// response, or an error status) came in before the abort, but the call had not decided yet.
// The response's body is read by `text()`; these fetches abort the caller's signal from inside
// it, so the result arrives with the signal already aborted, every time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BotClient, SettlementError } from "settlement-wasm";

const ENDPOINT = "https://settlement.invalid/graphql";

/** A fetch answering `status` and `body`, whose `text()` aborts `controller` first. */
function abortingWhileReading(controller, status, body) {
  const calls = [];
  const fetch = async (request) => {
    calls.push(request);
    return {
      status,
      headers: { get: () => null },
      text: async () => {
        controller.abort();
        return body;
      },
    };
  };
  return { fetch, calls };
}

async function rejection(p) {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail("the call resolved after its signal aborted");
}

test("a query whose success arrives with its signal aborted rejects with aborted", async () => {
  const controller = new AbortController();
  const { fetch, calls } = abortingWhileReading(controller, 200, '{"data":{"profile":{"id":"a"}}}');
  const bot = new BotClient({ endpoint: ENDPOINT, fetch });
  const e = await rejection(bot.profile({ signal: controller.signal }));
  assert.ok(e instanceof SettlementError);
  assert.equal(e.code, "aborted");
  assert.equal(calls.length, 1);
});

test("an error status that arrives with the signal aborted is aborted, not http, and is not retried", async () => {
  for (const status of [500, 503, 429, 401]) {
    const controller = new AbortController();
    const { fetch, calls } = abortingWhileReading(controller, status, "");
    const bot = new BotClient({ endpoint: ENDPOINT, fetch, maxRetries: 3 });
    const e = await rejection(bot.profile({ signal: controller.signal }));
    assert.equal(e.code, "aborted", `status ${status}`);
    assert.equal(calls.length, 1, `status ${status}: no retry after the abort`);
  }
});

test("a mutation whose answer arrives with its signal aborted is outcome_unknown", async () => {
  const controller = new AbortController();
  const { fetch } = abortingWhileReading(controller, 200, '{"data":{"acceptWithdrawal":true}}');
  const bot = new BotClient({ endpoint: ENDPOINT, fetch });
  const e = await rejection(bot.acceptWithdrawal("p2p_1", { signal: controller.signal }));
  assert.equal(e.code, "outcome_unknown");
});

test("an abort during a retry's backoff ends the call as aborted with no further attempt", async () => {
  const controller = new AbortController();
  let calls = 0;
  const fetch = async () => {
    calls++;
    setTimeout(() => controller.abort(), 0); // before any backoff timer the call sets
    return new Response("", { status: 503 });
  };
  const bot = new BotClient({ endpoint: ENDPOINT, fetch, maxRetries: 5 });
  const e = await rejection(bot.profile({ signal: controller.signal }));
  assert.equal(e.code, "aborted");
  assert.equal(calls, 1);
});
