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

use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::call::{Next, PreparedCall};
use crate::error::Error;
use crate::graphql::Expect;
use crate::operations::{Operation, BOT_CALLS, MERCHANT_CALLS};
use crate::transport::{is_aborted, FetchTransport, Signal};

/// The one wasm class behind both JavaScript clients: pkg-template/compose.js defines the
/// classes `BotClient` and `MerchantClient`, each holding one of these (one constructor,
/// `__call` and glue class instead of two: 0.5 KB gzip less, measured). Their TypeScript is
/// in bot.rs and merchant.rs.
#[wasm_bindgen(js_name = __Client, skip_typescript)]
pub struct JsClient(Inner);

/// The `n` of `__call` that runs `orders()`'s checks (compose.js passes the same number).
const ORDERS_CHECK: u32 = 99;
/// The `n` of `__call` that takes one attempt's result (compose.js' `drive`): `a` the call's
/// context (from [`start`]), `b` the attempt's number (from 0), `c` its result.
const STEP: u32 = 98;

type Core = crate::call::Client<FetchTransport>;

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

    /// Method `n` of the client's class (numbered as `BOT_CALLS` or `MERCHANT_CALLS`): see
    /// [`start`]. `n = STEP`: one attempt's result, see [`JsClient::step`]. `n = ORDERS_CHECK`:
    /// `BotClient.orders()`'s checks, the error to throw or `undefined` (one export for all:
    /// each export costs its shim and glue).
    #[wasm_bindgen(js_name = __call)]
    pub fn call(&self, n: u32, a: JsValue, b: JsValue, c: JsValue) -> JsValue {
        match &self.0 {
            _ if n == STEP => self.step(&a, &b, &c),
            Inner::Bot(x) if n == ORDERS_CHECK => x.check_orders(a),
            Inner::Bot(x) => x.call(n, a, b, c),
            Inner::Merchant(x) => x.call_n(n, a, b),
        }
    }
}

impl JsClient {
    /// What follows attempt `attempt` of the call whose context is `ctx`, given its `result`
    /// (`crate::call::step`): the value, the `SettlementError` to reject with (redacted), or
    /// the promise of the next attempt's result (sent after its backoff delay).
    fn step(&self, ctx: &JsValue, attempt: &JsValue, result: &JsValue) -> JsValue {
        let ctx: &Array = ctx.unchecked_ref();
        let code = ctx.get(1).as_f64().unwrap_or(0.0) as u32;
        let (client, calls): (&Core, &[&Operation]) = match &self.0 {
            Inner::Bot(x) => (x.core(), &BOT_CALLS),
            Inner::Merchant(x) => (x.core(), &MERCHANT_CALLS),
        };
        // `request` (after the operations) selects the whole `data`.
        let expect = calls
            .get(code as usize / 2)
            .map_or(Expect::Data, |op| op.expect());
        let signal = ctx.get(3);
        let signal: Option<&Signal> = (!signal.is_undefined()).then(|| signal.unchecked_ref());
        let attempt = attempt.as_f64().unwrap_or(0.0) as u32;
        let sent = FetchTransport::result(result, signal);
        let (config, transport) = (client.config(), client.transport());
        match crate::call::step(transport, config, code % 2 == 1, expect, attempt, sent) {
            Next::Done(success) => success.value,
            Next::Fail(e) => error::to_js(&config.redact(e)),
            Next::Retry(delay) => {
                let body = ctx.get(2).unchecked_into();
                let request = crate::call::request(config, &body);
                transport.start(&request, signal, Some(delay)).into()
            }
        }
    }
}

/// Starts call `call` of method `n` on `client`, its first attempt sent at once: the
/// `SettlementError` to reject with (invalid arguments, or an already aborted signal;
/// redacted), or the call's context `[first attempt's result (a promise), n * 2 + retryable,
/// body, signal]`, which compose.js' `drive` awaits and hands back to `__call(STEP, ...)`
/// with each result. No Rust future per call: its awaits are the driver's.
fn start(client: &Core, n: u32, call: Result<PreparedCall, Error>) -> JsValue {
    let call = match client.redact(call) {
        Ok(call) if !is_aborted(call.signal.as_ref()) => call,
        Ok(_) => return error::to_js(&Error::aborted()),
        Err(e) => return error::to_js(&e),
    };
    let request = crate::call::request(client.config(), &call.body);
    let code = n * 2 + u32::from(call.retryable);
    let transport = client.transport();
    transport
        .start_first(&request, call.signal.as_ref(), code)
        .into()
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
