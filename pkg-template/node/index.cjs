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

const ready = Promise.resolve();
function init() { return ready; }
function initSync() {}

module.exports = Object.assign({}, glue, { SettlementError, init, initSync, default: init });
