//! The JavaScript binding (wasm32 only): `#[wasm_bindgen]` classes and functions that
//! convert arguments, forward to the Rust API and map errors to `SettlementError`. No logic
//! of their own.
//!
//! Exports: `__Client` (behind `BotClient` and `MerchantClient`) and `__fn` (behind
//! `classifyKey`, `onchainRampUrl`, `parseAmount` and `listenForRampEvents`); the package's
//! classes and functions are defined around them in pkg-template/compose.js.

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

/// `classifyKey(key)`: the key's class by its `PUBK_` / `SECK_` marker; the key is not kept.
fn classify_key(key: &JsValue) -> JsValue {
    let kind = match options::text(key, "key", crate::inputs::MAX_TEXT_LEN) {
        Ok(Some(k)) => crate::keys::classify(&k),
        _ => crate::keys::KeyKind::Unknown,
    };
    JsValue::from_str(kind.as_str())
}

/// The package's functions behind one export (each export costs its shim and glue: ~0.3 KB
/// gzip for one returning a `Result`, measured): `n` = 0 `classifyKey(a)`, 1
/// `onchainRampUrl(a)`, 2 `parseAmount(a)`, 3 `listenForRampEvents`' option checks (`a`
/// allowedOrigin, `b` onCryptoRequested, `c` target), 4 whether a ramp message reaches the
/// callback (`a` allowedOrigin, `b` origin, `c` data), 5 the error class to build errors with.
/// A failure is returned as the `SettlementError` to throw (pkg-template/compose.js throws
/// it), so nothing unwinds through wasm; no success value is one.
#[wasm_bindgen(js_name = __fn, skip_typescript)]
pub fn function(n: u32, a: JsValue, b: JsValue, c: JsValue) -> JsValue {
    let result = match n {
        0 => Ok(classify_key(&a)),
        1 => ramp::onchain_ramp_url(&a),
        2 => ramp::parse_amount(&a),
        3 => ramp::ramp_listener(&a, &b, &c),
        4 => Ok(JsValue::from_bool(crate::ramp::accepts(&a, &b, &c))),
        _ => error::register(a).map(|()| JsValue::UNDEFINED),
    };
    result.unwrap_or_else(|e| e)
}

// The functions of `__fn`, declared for TypeScript (defined in pkg-template/compose.js).
#[wasm_bindgen(typescript_custom_section)]
const FUNCTIONS_TS: &'static str = r#"
/** A key's class by its `PUBK_` / `SECK_` marker; the key is not kept. */
export function classifyKey(key: string): "public" | "secret" | "unknown";
/** The hosted onchain ramp link; throws `SettlementError` (`invalid_input`); see `OnchainRampOptions`. */
export function onchainRampUrl(options: OnchainRampOptions): string;
/** Decimal text as `{ minorUnits, scale }`; throws `SettlementError` (`invalid_input`) when malformed. */
export function parseAmount(text: string): ParsedAmount;
"#;
