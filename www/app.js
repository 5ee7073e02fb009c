// The settlement-wasm demo dashboard: the bootstrap. Plain ES modules, no build step; the page
// uses only the package's public API: init, BotClient (reads, the live queue's watchOrders, the
// agent actions and reconcile) and SettlementError (errors are read by name and code), and for the onchain-ramp panel onchainRampUrl, listenForRampEvents and
// classifyKey; the Payments panel uses the demo server's routes (a hosted payment made with the
// secret key there, its webhooks relayed). Each panel is a module in panels/ whose init binds its part of index.html and
// returns a small API; this file builds the shared context (lib/context.js), wires the panels
// to each other, loads the package and connects.
import { $, h } from "./lib/dom.js";
import { describe } from "./lib/errors.js";
import { createContext } from "./lib/context.js";
import { initActivity } from "./panels/activity.js";
import { initSandbox } from "./panels/sandbox.js";
import { initConnection } from "./panels/connection.js";
import { initProfile } from "./panels/profile.js";
import { initOrders } from "./panels/orders.js";
import { initWithdrawal } from "./panels/withdrawal.js";
import { initRamp } from "./panels/ramp.js";
import { initActions } from "./panels/actions.js";
import { initEditors } from "./panels/editors.js";
import { initQueue } from "./panels/queue.js";
import { initPayments } from "./panels/payments.js";

const PKG_URL = new URL("../pkg/index.js", import.meta.url).href;

// Every call goes through the context (ctx.call), which traces it in the activity log and
// applies the fault armed in the sandbox's simulate menu.
const activity = initActivity();
const sandbox = initSandbox();
const ctx = createContext({ activity, sandbox });
let probedBase; // the base URL last probed for the sandbox (see detectSandbox)

const profile = initProfile(ctx);
// Order actions reload the page of orders they changed (and poll the live queue at once); the
// editors reload the profile.
const actions = initActions(ctx, { reload: () => { queue.refresh(); return orders.reload(); } });
const orders = initOrders(ctx, { rowActions: actions.rowActions });
const queue = initQueue(ctx, { activity, rowActions: actions.rowActions });
const editors = initEditors(ctx, { reloadProfile: () => profile.load() });
const withdrawal = initWithdrawal(ctx);
const ramp = initRamp(ctx);
// The Payments panel talks to the demo server only (its routes hold the secret key).
const payments = initPayments();
const connection = initConnection(ctx, {
  checkSandbox: async (baseUrl) => { if (baseUrl !== probedBase) await detectSandbox(baseUrl); },
  connected: () => {
    queue.connected();
    return Promise.all([profile.connected(), orders.connected(), withdrawal.connected(), editors.connected()]);
  },
});
const el = { pkgStatus: $("pkg-status"), pkgExports: $("pkg-exports") };

/** Is `base` the sandbox? Shows the sandbox controls, and prefills what its info offers. */
async function detectSandbox(base) {
  probedBase = base;
  const info = base ? await sandbox.probe(base) : null;
  sandbox.apply(info);
  if (info) {
    ramp.prefill(info);
    orders.limitPerPage(info.maxPerPage);
  }
  return info;
}

async function boot() {
  connection.restore();
  void payments.start();

  // The package: loaded dynamically so a missing build is a readable message, not a blank page.
  try {
    const mod = await import(PKG_URL);
    await mod.default();
    ctx.mod = mod;
    el.pkgStatus.replaceChildren(h("span", { class: "pkg-name" }, "settlement-wasm "), "ready");
    el.pkgStatus.dataset.state = "ok";
    const names = Object.keys(mod).filter((n) => n !== "default" && !n.startsWith("__")).sort();
    el.pkgExports.textContent = `Exports: ${names.join(", ")}.`;
  } catch (err) {
    el.pkgStatus.textContent = "Package not loaded";
    el.pkgStatus.dataset.state = "error";
    ctx.status(`Could not load the settlement-wasm package from ${PKG_URL} (${describe(err).message}). Build it with “make pkg”.`, "error");
    ramp.ready();
    return;
  }
  ramp.ready();

  const info = await detectSandbox(connection.baseUrl());
  if (info) connection.suggestKey(info.keys.AGENT_KEY);
  connection.enable();
  document.body.dataset.ready = "true";
  if (connection.apiKey() || connection.viaProxy()) {
    await connection.connect();
  } else {
    ctx.status("Enter the agent API key to connect.");
    connection.focusKey();
  }
  document.body.dataset.loaded = "true";
}

boot().catch((err) => {
  ctx.status(`The dashboard failed to start: ${describe(err).message}`, "error");
});
