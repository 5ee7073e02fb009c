//! `/hosted/ramp`: a stand-in for the service's hosted onchain ramp page.
//!
//! It shows its query parameters (the key only masked), opens the payment request they
//! describe (`POST /hosted/ramp/payment-request` on its own origin: found by `reference`,
//! or created), and posts
//! `{event: "crypto.requested", payload: {amountCents, destinationAddress, paymentRequest}}`
//! to `window.parent` (when framed) or `window.opener`, with targetOrigin "*", once the
//! request is open and when the button is clicked. `paymentRequest` is `{id, reference,
//! amount, coin, network}`: its `id` is what `confirmTransaction` takes.

pub const RAMP_PAGE_HTML: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox onchain ramp</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1f24; }
  h1 { font-size: 1.2rem; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { text-align: left; padding: .25rem .75rem; border-bottom: 1px solid #ddd; font-size: .9rem; }
  th { color: #555; font-weight: 600; }
  .warn { color: #a40000; font-weight: 600; }
  #status { margin-top: .75rem; font-size: .9rem; color: #333; }
  button { padding: .5rem 1rem; font-size: 1rem; }
</style>
</head>
<body>
<h1>Settlement sandbox &mdash; hosted onchain ramp</h1>
<p>This page stands in for the service's hosted ramp. It posts <code>crypto.requested</code> to its opener or parent.</p>
<table id="params"><tbody></tbody></table>
<p id="keywarn" class="warn" hidden>A secret key (SECK_) was put in this URL. Only public keys belong here.</p>
<p>Payment request: <span id="request">(opening…)</span></p>
<button id="send" type="button">Send crypto.requested</button>
<div id="status" role="status"></div>
<script>
(function () {
  "use strict";
  var NAMES = ["key", "paymentType", "coin", "network", "address", "amount", "reference",
               "redirectUrl", "currency", "phone", "hideAddress", "isWalletContext"];
  var DESTINATION = "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D";
  var params = new URLSearchParams(window.location.search);

  function mask(key) {
    var i = key.indexOf("_");
    var head = i >= 0 ? key.slice(0, i + 1) : "";
    return head + "****" + (key.length > head.length + 4 ? key.slice(-4) : "");
  }

  var tbody = document.querySelector("#params tbody");
  NAMES.forEach(function (name) {
    var tr = document.createElement("tr");
    var th = document.createElement("th");
    var td = document.createElement("td");
    th.textContent = name;
    var v = params.get(name);
    td.textContent = v === null ? "(not given)" : (name === "key" ? mask(v) : v);
    td.id = "param-" + name;
    tr.appendChild(th); tr.appendChild(td); tbody.appendChild(tr);
  });
  if ((params.get("key") || "").indexOf("SECK_") >= 0) {
    document.getElementById("keywarn").hidden = false;
  }

  function amountCents(text) {
    var n = Number(text);
    return isFinite(n) && text !== null && text !== "" ? Math.round(n * 100) : 0;
  }

  var request = null; // the open payment request, once the sandbox has answered

  function message() {
    return {
      event: "crypto.requested",
      payload: {
        amountCents: amountCents(params.get("amount")),
        destinationAddress: DESTINATION,
        paymentRequest: {
          id: request.id,
          reference: request.reference,
          amount: params.get("amount"),
          coin: params.get("coin"),
          network: params.get("network")
        }
      }
    };
  }

  function open() {
    var asked = {};
    ["paymentType", "coin", "network", "amount", "currency", "reference"].forEach(function (name) {
      if (params.get(name) !== null) asked[name] = params.get(name);
    });
    return fetch("/hosted/ramp/payment-request", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(asked)
    }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (p) {
      request = p;
      document.getElementById("request").textContent = p.id + " (" + p.reference + ", " + p.status + ")";
    });
  }

  function target() {
    if (window.parent && window.parent !== window) return { win: window.parent, name: "parent" };
    if (window.opener) return { win: window.opener, name: "opener" };
    return null;
  }

  var sent = 0;
  function send() {
    var status = document.getElementById("status");
    if (!request) { status.textContent = "The payment request is not open yet."; return; }
    var t = target();
    if (!t) { status.textContent = "No parent frame or opener to post to."; return; }
    t.win.postMessage(message(), "*");
    sent += 1;
    status.textContent = "Posted crypto.requested to " + t.name + " (" + sent + ")";
  }
  window.sandboxRampMessage = message;
  document.getElementById("send").addEventListener("click", send);
  function start() {
    open().then(send, function (e) {
      document.getElementById("status").textContent = "The payment request could not be opened: " + e.message;
    });
  }
  if (document.readyState === "complete") { start(); } else { window.addEventListener("load", start); }
})();
</script>
</body>
</html>
"##;
