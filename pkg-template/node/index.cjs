"use strict";
// Node entry (CommonJS) of settlement-wasm. The module is instantiated synchronously on
// require, so init() is optional here (kept for code shared with the browser).
const glue = require("./settlement_wasm.js");

/** Every failure of this package is a SettlementError (see index.d.ts for its fields). */
class SettlementError extends Error {
  constructor(message, details) {
    super(message);
    this.name = "SettlementError";
    if (details) Object.assign(this, details);
  }
}

glue.__registerErrorClass(SettlementError);
glue.OrderIterator.prototype[Symbol.asyncIterator] = function () { return this; };

/** See index.d.ts (same as the browser entry's). */
function listenForRampEvents(options) {
  const { allowedOrigin, onCryptoRequested, target } = options ?? {};
  const t = glue.__rampListener(allowedOrigin, onCryptoRequested, target);
  const listener = (e) => {
    if (glue.__rampAccepts(allowedOrigin, e.origin, e.data)) onCryptoRequested(e.data.payload, e);
  };
  t.addEventListener("message", listener);
  return () => t.removeEventListener("message", listener);
}

const ready = Promise.resolve();
function init() { return ready; }
function initSync() {}

// The public names only (the glue's `__` functions are this entry's internals).
const { BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount } = glue;
module.exports = {
  BotClient, MerchantClient, OrderIterator, classifyKey, onchainRampUrl, parseAmount,
  SettlementError, listenForRampEvents, init, initSync, default: init,
};
