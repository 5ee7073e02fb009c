//! The webhook receiver's export (feature `server`): `WebhookPolicy`, what
//! `createWebhookHandler` and `verifyWebhook` (the TypeScript shell's `webhook.ts`) ask about
//! every delivery. Conversion only; every rule is [`crate::webhook`]'s.

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{error, object, options};
use crate::error::Error;
use crate::json::js_impl;
use crate::webhook::{Answer, Verifier, MAX_TOKENS, MAX_TOKEN_LEN};

/// The options `verifyWebhook` takes; any other key is refused, naming it.
const VERIFY_OPTIONS: [&str; 3] = ["header", "maxBodyBytes", "token"];

/// The options `createWebhookHandler` takes: `verifyWebhook`'s and `onEvent`.
const HANDLER_OPTIONS: [&str; 4] = ["header", "maxBodyBytes", "token", "onEvent"];

/// One receiver's checked options and its checks.
#[wasm_bindgen]
pub struct WebhookPolicy {
    verifier: Verifier,
    /// The tokens given as a string or an array; `None` when `token` is a function (the
    /// shell calls it for each delivery and passes what it returned).
    tokens: Option<Vec<String>>,
    /// `token` when it is a function.
    token_function: Option<Function>,
    /// `onEvent` (`createWebhookHandler`'s; `None` for `verifyWebhook`).
    on_event: Option<Function>,
}

/// `{ status, body }`.
fn answer(a: &Answer) -> JsValue {
    object(&[
        ("status", &JsValue::from(a.status)),
        ("body", &JsValue::from_str(&a.body)),
    ])
}

/// `{ status, body, error }`: the answer to `err`, and `err` as a `SettlementError`.
fn refusal(a: &Answer, err: &Error) -> JsValue {
    object(&[
        ("status", &JsValue::from(a.status)),
        ("body", &JsValue::from_str(&a.body)),
        ("error", &error::to_js(err)),
    ])
}

fn invalid_token() -> Error {
    Error::invalid(
        "token",
        "token must be a non-empty string, an array of 1 to 16 of them, or a function returning either",
    )
}

/// `token`'s value (a string or an array of strings), checked; never echoed in an error.
fn token_list(value: &JsValue) -> Result<Vec<String>, Error> {
    let max = MAX_TOKEN_LEN as u32;
    let one = |v: &JsValue| -> Result<String, Error> {
        match options::text(v, "token", max) {
            Ok(Some(t)) => Ok(t),
            _ => Err(invalid_token()),
        }
    };
    let tokens = if js_impl::is_array(value).unwrap_or(false) {
        let len = js_impl::length(value).map_err(|_| invalid_token())?;
        if !(1.0..=MAX_TOKENS as f64).contains(&len) {
            return Err(invalid_token());
        }
        let mut out = Vec::with_capacity(len as usize);
        for i in 0..len as u32 {
            let item = js_impl::read(value, &JsValue::from(i)).map_err(|_| invalid_token())?;
            out.push(one(&item)?);
        }
        out
    } else {
        vec![one(value)?]
    };
    Verifier::check_tokens(&tokens).map_err(|_| invalid_token())?;
    Ok(tokens)
}

#[wasm_bindgen]
impl WebhookPolicy {
    /// `createWebhookHandler`'s options, read once: `header` (absent: `x-cashramp-token`),
    /// `maxBodyBytes` (absent: 65536), `token` (a non-empty string, an array of 1 to 16 of
    /// them, or a function) and `onEvent` (a function); any other key is refused. Throws
    /// `SettlementError` (`invalid_input` naming the option).
    #[wasm_bindgen(js_name = forHandler)]
    pub fn for_handler(options: JsValue) -> Result<WebhookPolicy, JsValue> {
        super::install_panic_hook();
        Self::read_handler(&options).map_err(|e| error::to_js(&e))
    }

    /// `verifyWebhook`'s options, read once: those of [`WebhookPolicy::for_handler`] but
    /// `onEvent`.
    #[wasm_bindgen(js_name = forVerify)]
    pub fn for_verify(options: JsValue) -> Result<WebhookPolicy, JsValue> {
        super::install_panic_hook();
        Self::read(&options, &VERIFY_OPTIONS).map_err(|e| error::to_js(&e))
    }

    fn read_handler(value: &JsValue) -> Result<WebhookPolicy, Error> {
        let mut policy = Self::read(value, &HANDLER_OPTIONS)?;
        let on_event = match options::get(value, "onEvent", "onEvent")? {
            Some(f) => f.dyn_into::<Function>().ok(),
            None => None,
        };
        if on_event.is_none() {
            return Err(Error::invalid(
                "onEvent",
                "onEvent must be a function (called with each verified event)",
            ));
        }
        policy.on_event = on_event;
        Ok(policy)
    }

    /// The options common to both: `value` checked against `known`, then `header`,
    /// `maxBodyBytes` and `token`, each read once.
    fn read(value: &JsValue, known: &[&str]) -> Result<WebhookPolicy, Error> {
        let Some(o) = options::options_of(value, known)? else {
            return Err(invalid_token());
        };
        let header = match options::get(&o, "header", "header")? {
            None => None,
            Some(h) => match options::text(&h, "header", 64)? {
                Some(h) => Some(h),
                None => return Err(Error::invalid("header", "header must be a string")),
            },
        };
        let max = options::get(&o, "maxBodyBytes", "maxBodyBytes")?
            .map(|m| m.as_f64().unwrap_or(f64::NAN));
        let verifier = Verifier::new(header.as_deref(), max)?;
        let (tokens, token_function) = match options::get(&o, "token", "token")? {
            None => return Err(invalid_token()),
            Some(t) => match t.dyn_into::<Function>() {
                Ok(f) => (None, Some(f)),
                Err(t) => (Some(token_list(&t)?), None),
            },
        };
        Ok(WebhookPolicy {
            verifier,
            tokens,
            token_function,
            on_event: None,
        })
    }

    /// The header carrying the token, in lower case.
    #[wasm_bindgen(getter, js_name = headerName)]
    pub fn header_name(&self) -> String {
        self.verifier.header().to_owned()
    }

    /// The largest body read, in bytes.
    #[wasm_bindgen(getter, js_name = maxBodyBytes)]
    pub fn max_body_bytes(&self) -> u32 {
        self.verifier.max_body_bytes()
    }

    /// `token` when it was a function: the shell calls it for each delivery and passes its
    /// result to `checkToken`; `undefined` otherwise.
    #[wasm_bindgen(getter, js_name = tokenFunction)]
    pub fn token_function(&self) -> Option<Function> {
        self.token_function.clone()
    }

    /// `onEvent` (`createWebhookHandler`'s); `undefined` for `verifyWebhook`'s policy.
    #[wasm_bindgen(getter, js_name = onEvent)]
    pub fn on_event(&self) -> Option<Function> {
        self.on_event.clone()
    }

    /// The request's method: `undefined` for `POST`, else the 405 answer.
    #[wasm_bindgen(js_name = checkMethod, unchecked_return_type = "WebhookAnswer | undefined")]
    pub fn check_method(&self, method: &str) -> JsValue {
        if method.eq_ignore_ascii_case("POST") {
            JsValue::UNDEFINED
        } else {
            answer(&Answer::method_not_allowed())
        }
    }

    /// The header's value (`presented`: a string, or `null` when absent) against the tokens
    /// (`given`: what the `token` function returned, or `undefined` for the options' own):
    /// `undefined` when one matches (constant time), else `{ status, body, error }`: 401
    /// `unauthorized`, or 500 with `invalid_input` naming `token` when the function gave no
    /// valid token.
    #[wasm_bindgen(js_name = checkToken, unchecked_return_type = "WebhookRefusal | undefined")]
    pub fn check_token(&self, presented: JsValue, given: JsValue) -> JsValue {
        let from_function;
        let tokens: &[String] = match &self.tokens {
            Some(t) => t,
            None => match token_list(&given) {
                Ok(t) => {
                    from_function = t;
                    &from_function
                }
                Err(e) => return refusal(&Answer::handler_failed(), &e),
            },
        };
        // A value longer than any token is wrong: refused without being copied.
        let presented = options::text(&presented, "header", MAX_TOKEN_LEN as u32)
            .ok()
            .flatten();
        match self
            .verifier
            .check_token(presented.as_deref().map(str::as_bytes), tokens)
        {
            Ok(()) => JsValue::UNDEFINED,
            Err(e) => refusal(&Answer::for_error(&e), &e),
        }
    }

    /// The whole body (at most `maxBodyBytes`): `{ kind: "event", event }` (the event as JSON
    /// text: `{ type, eventType, data, key, raw }`), or `{ kind: "refuse", status, body, error }`
    /// (400 `invalid_input`, 413 `too_large`).
    #[wasm_bindgen(unchecked_return_type = "WebhookDecision")]
    pub fn parse(&self, body: &[u8]) -> JsValue {
        match self.verifier.parse(body) {
            Ok(event) => object(&[
                ("kind", &JsValue::from_str("event")),
                ("event", &JsValue::from_str(&event.to_json().to_string())),
            ]),
            Err(e) => {
                let r = refusal(&Answer::for_error(&e), &e);
                let _ = js_sys::Reflect::set(&r, &"kind".into(), &"refuse".into());
                r
            }
        }
    }

    /// The 413 refusal (the body went over `maxBodyBytes`; the shell stopped reading).
    #[wasm_bindgen(js_name = tooLarge, unchecked_return_type = "WebhookRefusal")]
    pub fn too_large(&self) -> JsValue {
        let e = self.verifier.too_large();
        refusal(&Answer::for_error(&e), &e)
    }

    /// The 400 refusal for a body that could not be read.
    #[wasm_bindgen(js_name = unreadable, unchecked_return_type = "WebhookRefusal")]
    pub fn unreadable(&self) -> JsValue {
        let e = Error::invalid("body", "The body could not be read");
        refusal(&Answer::for_error(&e), &e)
    }

    /// The 200 answer (`onEvent` resolved).
    #[wasm_bindgen(unchecked_return_type = "WebhookAnswer")]
    pub fn ok(&self) -> JsValue {
        answer(&Answer::ok())
    }

    /// The 500 answer (`onEvent` threw or rejected, or a value could not be read; what was
    /// thrown is never shown).
    #[wasm_bindgen(js_name = handlerFailed, unchecked_return_type = "WebhookAnswer")]
    pub fn handler_failed(&self) -> JsValue {
        answer(&Answer::handler_failed())
    }
}

/// `event[name]` as a string: `None` when absent or not a string; a throwing read is
/// `invalid_input` naming `field`.
fn member_text(target: &JsValue, name: &str, field: &str) -> Result<Option<String>, Error> {
    if !target.is_object() {
        return Ok(None);
    }
    let v = js_impl::read(target, &JsValue::from_str(name))
        .map_err(|_| Error::invalid(field, format!("{field} could not be read")))?;
    // At most the longest text the operations accept; longer is refused by the call itself.
    Ok(options::text(&v, field, crate::inputs::MAX_TEXT_LEN)
        .ok()
        .flatten())
}

/// What `merchant.confirmEvent(event)` reads back for `event` (the rule is
/// [`crate::webhook::read_back`]'s): `{ kind: "paymentRequest", reference }` or
/// `{ kind: "onchainWithdrawal", id }`. Throws `SettlementError` (`invalid_input` naming
/// `event`, `event.data.reference` or `event.data.id`).
#[wasm_bindgen(js_name = webhookReadBack, unchecked_return_type = "WebhookReadBack")]
pub fn webhook_read_back(event: JsValue) -> Result<JsValue, JsValue> {
    let read = || -> Result<crate::webhook::ReadBack, Error> {
        let kind = member_text(&event, "type", "event")?;
        let data = if event.is_object() {
            js_impl::read(&event, &JsValue::from_str("data"))
                .map_err(|_| Error::invalid("event", "event could not be read"))?
        } else {
            JsValue::UNDEFINED
        };
        let (reference, id) = match kind.as_deref() {
            Some(crate::webhook::PAYMENT_REQUEST_UPDATED) => (
                member_text(&data, "reference", "event.data.reference")?,
                None,
            ),
            Some(crate::webhook::ONCHAIN_TX_UPDATED) => {
                (None, member_text(&data, "id", "event.data.id")?)
            }
            _ => (None, None),
        };
        crate::webhook::read_back(kind.as_deref(), reference.as_deref(), id.as_deref())
    };
    match read() {
        Ok(crate::webhook::ReadBack::PaymentRequest { reference }) => Ok(object(&[
            ("kind", &JsValue::from_str("paymentRequest")),
            ("reference", &JsValue::from_str(&reference)),
        ])),
        Ok(crate::webhook::ReadBack::OnchainWithdrawal { id }) => Ok(object(&[
            ("kind", &JsValue::from_str("onchainWithdrawal")),
            ("id", &JsValue::from_str(&id)),
        ])),
        Err(e) => Err(error::to_js(&e)),
    }
}

#[wasm_bindgen(typescript_custom_section)]
const WEBHOOK_SHAPES: &'static str = r#"
/** An answer of the webhook handler's own: its HTTP status and JSON body. */
export type WebhookAnswer = { status: number; body: string };

/** A refused delivery: the answer, and the error `verifyWebhook` rejects with. */
export type WebhookRefusal = { status: number; body: string; error: SettlementError };

/** What `confirmEvent` reads back for an event. */
export type WebhookReadBack = { kind: "paymentRequest"; reference: string } | { kind: "onchainWithdrawal"; id: string };

/** A delivery's body: the event (as JSON text), or a refusal. */
export type WebhookDecision =
  | { kind: "event"; event: string }
  | { kind: "refuse"; status: number; body: string; error: SettlementError };

"#;
