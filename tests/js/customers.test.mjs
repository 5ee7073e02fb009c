// The merchant's customers (one page, every page, one by email), an onchain withdrawal read
// back, and USD virtual bank accounts, with the secret key through the package's Node (server)
// entry imported by name. Refusals reach no server; requestVirtualBankAccount (it charges a
// fee) is sent once and its lost answer is outcome_unknown; the reads are retried. The sandbox
// pages its customers 2 at a time. Each test makes its own customers: no reset.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MerchantClient, SettlementError } from "settlement-wasm";
import {
  SANDBOX_URL, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY, uniqueTag, expectCode, settledLog, serializeError,
} from "./helpers.mjs";

const server = (tag, fault, key = MERCHANT_SECRET_KEY) => new MerchantClient({
  baseUrl: SANDBOX_URL,
  apiKey: key,
  headers: fault ? { "x-sandbox-tag": tag, "x-sandbox-fault": fault } : { "x-sandbox-tag": tag },
});

/** A new customer of Kenya (country id "2") with a unique email. */
async function newCustomer(m, name) {
  return m.createCustomer({ email: `${uniqueTag(name)}@example.com`, firstName: name, lastName: "Otieno", country: "2" });
}

/** The sandbox's chain settles a pending onchain withdrawal. */
async function settle(id, status) {
  const res = await fetch(`${SANDBOX_URL}/__sandbox/onchain/settle`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ withdrawal: id, status }),
  });
  assert.equal(res.status, 200);
}

const ADDRESS = "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D";

describe("customers, onchain withdrawals and virtual bank accounts (secret key, server entry)", () => {
  test("an onchain withdrawal is read back by its id: pending, then completed or failed; unknown is null", async () => {
    const tag = uniqueTag("onchain");
    const m = server(tag);
    const sent = await m.withdrawOnchain({ address: ADDRESS, amountUsd: "25.00", network: "CELO" });
    const pending = await m.onchainWithdrawal(` ${sent.id} `);
    assert.deepEqual(Object.keys(pending).sort(),
      ["address", "createdAt", "fee", "network", "quantity", "status", "symbol", "txhash", "txhashUrl"]);
    assert.equal(pending.status, "pending");
    assert.equal(pending.quantity, "25.00");
    assert.equal(pending.address, ADDRESS);
    assert.equal(pending.txhash, null);
    await settle(sent.id, "completed");
    const done = await m.onchainWithdrawal(sent.id, { fields: ["status", "txhash", "txhashUrl"] });
    assert.equal(done.status, "completed");
    assert.match(done.txhash, /^0x[0-9a-f]{64}$/);
    assert.ok(done.txhashUrl.endsWith(done.txhash));
    const other = await m.withdrawOnchain({ address: ADDRESS, amountUsd: "30.00" });
    await settle(other.id, "failed");
    assert.equal((await m.onchainWithdrawal(other.id)).status, "failed");
    assert.equal(await m.onchainWithdrawal("ow_unknown"), null);
    const log = await settledLog(tag, 6, { settleMs: 0 });
    const reads = log.filter((e) => e.operationName === "OnchainWithdrawal");
    assert.deepEqual(reads[0].variables, { id: sent.id }, "the id is sent trimmed, as the variable id");
  });

  test("every customer, page by page; one page; one by email (case-insensitive), or null", async () => {
    const tag = uniqueTag("customers");
    const m = server(tag);
    const made = [];
    for (const name of ["Achieng", "Baraka", "Chebet"]) made.push(await newCustomer(m, name));
    const first = await m.merchantCustomers();
    assert.deepEqual(Object.keys(first).sort(), ["nodes", "pageInfo"]);
    assert.ok(first.nodes.length <= 2);
    assert.deepEqual(Object.keys(first.nodes[0]).sort(), ["email", "firstName", "id", "lastName"]);
    assert.equal(typeof first.pageInfo.hasNextPage, "boolean");
    const second = await m.merchantCustomers({ after: first.pageInfo.endCursor, fields: ["email"] });
    assert.deepEqual(Object.keys(second.nodes[0]), ["email"]);
    // customers(): every page, fetched only as the loop needs it; the three made, in order
    // (other suites may add customers meanwhile).
    const all = [];
    for await (const c of m.customers()) all.push(c);
    const ids = all.map((c) => c.id);
    const at = made.map((c) => ids.indexOf(c.id));
    assert.ok(at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1])), `${at}`);
    assert.equal(new Set(all.map((c) => c.id)).size, all.length, "no customer twice");
    const log = await settledLog(tag, 5, { settleMs: 0 });
    const pages = log.filter((e) => e.operationName === "MerchantCustomers");
    assert.equal(pages.length, 2 + Math.ceil(all.length / 2), "one request per page");
    assert.deepEqual(pages[1].variables, { after: first.pageInfo.endCursor });
    // Stopping early asks for no more pages.
    const early = server(uniqueTag("customers-early"));
    for await (const c of early.customers({ fields: ["id"] })) { assert.deepEqual(Object.keys(c), ["id"]); break; }
    const found = await m.merchantCustomer(made[1].email.toUpperCase());
    assert.deepEqual(found, { id: made[1].id, email: made[1].email, firstName: "Baraka", lastName: "Otieno" });
    assert.equal(await m.merchantCustomer("nobody-at-all@example.com"), null);
  });

  test("a virtual bank account: requested once (a fee), then read back whole; unknown is null", async () => {
    const m = server(uniqueTag("vba"));
    const customer = await newCustomer(m, "Dalia");
    const requested = await m.requestVirtualBankAccount(customer.id);
    assert.deepEqual(Object.keys(requested).sort(), ["id", "status"]);
    const account = await m.virtualBankAccount(requested.id);
    assert.deepEqual(Object.keys(account).sort(), ["accountName", "accountNumber", "bankName", "city", "country", "createdAt",
      "id", "line1", "postalCode", "routingNumber", "state", "status"]);
    assert.equal(account.accountName, "Dalia Otieno");
    assert.equal(account.country, "US");
    assert.equal(await m.virtualBankAccount("vba_unknown"), null);
    // The sandbox gives a customer one account: a second request is refused, typed.
    const again = await expectCode(assert, SettlementError, () => m.requestVirtualBankAccount(customer.id), "graphql");
    assert.equal(again.graphqlErrors[0].extensions.code, "INVALID_TRANSITION");
  });

  test("refused before anything is sent, naming the argument or option", async () => {
    const tag = uniqueTag("customers-refused");
    const m = server(tag);
    for (const [call, field] of [
      [() => m.onchainWithdrawal(" "), "id"],
      [() => m.onchainWithdrawal(7), "id"],
      [() => m.merchantCustomer("not an email"), "email"],
      [() => m.merchantCustomers({ after: " " }), "after"],
      [() => m.merchantCustomers({ after: 3 }), "after"],
      [() => m.merchantCustomers({ aftr: "x" }), "aftr"],
      [() => m.merchantCustomers({ fields: ["a b"] }), "fields"],
      [() => m.requestVirtualBankAccount(""), "customer"],
      [() => m.virtualBankAccount(undefined), "id"],
      [() => m.customers({ fields: [] }), "fields"],
    ]) {
      const e = await expectCode(assert, SettlementError, call, "invalid_input");
      assert.equal(e.field, field, e.message);
    }
    assert.equal((await settledLog(tag, 0)).length, 0, "nothing was sent");
    // A public key is refused by the service.
    const pub = server(uniqueTag("customers-public"), undefined, MERCHANT_PUBLIC_KEY);
    await expectCode(assert, SettlementError, () => pub.merchantCustomer("a@example.com"), "forbidden");
  });

  test("requestVirtualBankAccount's lost answer is outcome_unknown after one request; the reads are retried", async () => {
    const m = server(uniqueTag("vba-setup"));
    const customer = await newCustomer(m, "Eshe");
    const tag = uniqueTag("vba-lost");
    const e = await expectCode(assert, SettlementError, () => server(tag, "drop-after").requestVirtualBankAccount(customer.id), "outcome_unknown");
    assert.ok(!serializeError(e).includes(MERCHANT_SECRET_KEY));
    assert.equal((await settledLog(tag, 1)).length, 1, "sent once, never retried");
    const sent = await m.withdrawOnchain({ address: ADDRESS, amountUsd: "40.00" });
    for (const [name, call] of [
      ["OnchainWithdrawal", (c) => c.onchainWithdrawal(sent.id)],
      ["MerchantCustomers", (c) => c.merchantCustomers()],
      ["MerchantCustomer", (c) => c.merchantCustomer("x@example.com")],
      ["VirtualBankAccount", (c) => c.virtualBankAccount("vba_1")],
    ]) {
      const retried = uniqueTag(`read-retry-${name}`);
      await call(server(retried, "status=503;fail-first=1"));
      assert.equal((await settledLog(retried, 2)).filter((x) => x.operationName === name).length, 2, `${name}: a read, retried`);
    }
  });
});

describe("the browser bundle has none of them", () => {
  const pkgDir = new URL("./node_modules/settlement-wasm/", import.meta.url);
  test("neither the methods nor the declarations are in index.js or the browser .wasm", async () => {
    const browser = await import(new URL("index.js", pkgDir).href);
    for (const name of ["onchainWithdrawal", "merchantCustomers", "merchantCustomer", "requestVirtualBankAccount",
      "virtualBankAccount", "customers"]) {
      assert.equal(typeof browser.MerchantClient.prototype[name], "undefined", `browser MerchantClient.${name}`);
      assert.equal(typeof MerchantClient.prototype[name], "function", `server MerchantClient.${name}`);
      if (name === "customers") continue; // a common word: the names below are the operations'
      for (const file of ["index.js", "web/settlement_wasm_bg.wasm"]) {
        assert.ok(!readFileSync(new URL(file, pkgDir)).includes(name), `${name} in ${file}`);
      }
      assert.ok(readFileSync(new URL("edge/settlement_wasm_bg.wasm", pkgDir)).includes(name), `${name} in the server .wasm`);
    }
  });
});
