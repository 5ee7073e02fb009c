//! The JavaScript binding (wasm32 only): `#[wasm_bindgen]` classes and functions that
//! convert arguments, forward to the Rust API and map errors to `SettlementError`. No logic
//! of their own.
//!
//! Exports: `__Client` (behind `BotClient` and `MerchantClient`), `classifyKey`, `onchainRampUrl`,
//! `parseAmount`, `__registerErrorClass`, and `__rampListener` / `__rampAccepts` (used by
//! `listenForRampEvents` in the package entries).

mod bot;
mod error;
mod merchant;
mod options;
mod ramp;

use wasm_bindgen::prelude::*;

/// The one wasm class behind both JavaScript clients: pkg-template/compose.js defines the
/// classes `BotClient` and `MerchantClient`, each holding one of these (one constructor,
/// `__call` and glue class instead of two: 0.5 KB gzip less, measured). Their TypeScript is
/// in bot.rs and merchant.rs.
#[wasm_bindgen(js_name = __Client, skip_typescript)]
pub struct JsClient(Inner);

/// The `n` of `__call` that runs `orders()`'s checks (compose.js passes the same number).
const ORDERS_CHECK: u32 = 99;

enum Inner {
    Bot(bot::JsBotClient),
    Merchant(merchant::JsMerchantClient),
}

#[wasm_bindgen(js_class = __Client)]
impl JsClient {
    /// A bot client, or a merchant client when `merchant`; throws `SettlementError`.
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue, merchant: bool) -> Result<JsClient, JsValue> {
        Ok(JsClient(if merchant {
            Inner::Merchant(merchant::JsMerchantClient::new(&options)?)
        } else {
            Inner::Bot(bot::JsBotClient::new(&options)?)
        }))
    }

    /// Method `n` of the client's class (numbered as `BOT_CALLS` or `MERCHANT_CALLS`): its
    /// promise. `n = ORDERS_CHECK`: `BotClient.orders()`'s checks, the error to throw or
    /// `undefined` (one export for both: each export costs its shim and glue).
    #[wasm_bindgen(js_name = __call)]
    pub fn call(&self, n: u32, a: JsValue, b: JsValue, c: JsValue) -> JsValue {
        match &self.0 {
            Inner::Bot(x) if n == ORDERS_CHECK => x.check_orders(a),
            Inner::Bot(x) => x.call(n, a, b, c).into(),
            Inner::Merchant(x) => x.call_n(n, a, b).into(),
        }
    }
}

/// Installs (once) a tiny panic hook that reports the panic's location on `console.error`.
/// A panic is a bug; the report never carries caller data. Called by the client constructor
/// rather than at instantiation, so the module exports no `start` function.
pub(crate) fn install_panic_hook() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::Relaxed) {
        return;
    }
    std::panic::set_hook(Box::new(|info| {
        let mut m = String::from("settlement-wasm: internal error (panic)");
        if let Some(loc) = info.location() {
            m.push_str(" at ");
            m.push_str(loc.file());
            m.push(':');
            crate::json::push_int(&mut m, i64::from(loc.line()));
        }
        web_sys::console::error_1(&JsValue::from_str(&m));
    }));
}

/// What both client constructors do, in one place: read the options, pick the `fetch`,
/// apply the merchant browser guard (when `merchant`), validate. Errors are redacted.
pub(crate) fn new_client(
    options: &JsValue,
    path: &str,
    merchant: bool,
) -> Result<crate::call::Client<crate::transport::FetchTransport>, JsValue> {
    use crate::transport::Transport;
    install_panic_hook();
    let (opts, fetch) = options::client_options(options).map_err(|e| error::to_js(&e))?;
    options::transport(fetch)
        .and_then(|t| {
            if merchant {
                let allow = options::allow_browser(options)?;
                crate::keys::browser_guard(opts.api_key.as_deref(), t.browser_like(), allow)?;
            }
            crate::call::Client::new(&opts, path, t)
        })
        .map_err(|e| error::to_js(&e.redact(opts.api_key.as_deref())))
}

/// A key's class by its `PUBK_` / `SECK_` marker; the key is not kept.
#[wasm_bindgen(js_name = classifyKey, skip_jsdoc, unchecked_return_type = "\"public\" | \"secret\" | \"unknown\"")]
pub fn classify_key(#[wasm_bindgen(unchecked_param_type = "string")] key: JsValue) -> JsValue {
    let kind = match options::text(&key, "key", crate::inputs::MAX_TEXT_LEN) {
        Ok(Some(k)) => crate::keys::classify(&k),
        _ => crate::keys::KeyKind::Unknown,
    };
    JsValue::from_str(kind.as_str())
}

/// Sets the class errors are built with (the package entry calls it once).
#[wasm_bindgen(js_name = __registerErrorClass, skip_typescript)]
pub fn register_error_class(
    #[wasm_bindgen(unchecked_param_type = "SettlementErrorConstructor")] ctor: JsValue,
) -> Result<(), JsValue> {
    error::register(ctor)
}
