//! The webhook receiver's export (feature `server`): `WebhookPolicy`, what
//! `createWebhookHandler` and `verifyWebhook` (the TypeScript shell's `webhook.ts`) ask about
//! every delivery. Conversion only; every rule is [`crate::webhook`]'s.

use wasm_bindgen::prelude::*;

use super::{error, object};
use crate::error::Error;
use crate::json::js_impl;
use crate::webhook::{Answer, Verifier, MAX_TOKENS, MAX_TOKEN_LEN};

/// One receiver's checked options and its checks.
#[wasm_bindgen]
pub struct WebhookPolicy {
    verifier: Verifier,
    /// The tokens given as a string or an array; `None` when `token` is a function (the
    /// shell calls it for each delivery and passes what it returned).
    tokens: Option<Vec<String>>,
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
        match super::options::text(v, "token", max) {
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
    /// Checks the options of `createWebhookHandler` (`onEvent` a function) or, when
    /// `on_event` is not needed, of `verifyWebhook`: `header` (absent: `x-cashramp-token`),
    /// `maxBodyBytes` (absent: 65536), `token` (a non-empty string, an array of 1 to 16 of
    /// them, or a function). Throws `SettlementError` (`invalid_input` naming the option).
    #[wasm_bindgen(constructor)]
    pub fn new(
        header: JsValue,
        max_body_bytes: JsValue,
        token: JsValue,
        on_event: JsValue,
        on_event_needed: bool,
    ) -> Result<WebhookPolicy, JsValue> {
        super::install_panic_hook();
        Self::check(header, max_body_bytes, token, on_event, on_event_needed)
            .map_err(|e| error::to_js(&e))
    }

    fn check(
        header: JsValue,
        max_body_bytes: JsValue,
        token: JsValue,
        on_event: JsValue,
        on_event_needed: bool,
    ) -> Result<WebhookPolicy, Error> {
        let header = if header.is_undefined() || header.is_null() {
            None
        } else {
            match super::options::text(&header, "header", 64)? {
                Some(h) => Some(h),
                None => return Err(Error::invalid("header", "header must be a string")),
            }
        };
        let max = if max_body_bytes.is_undefined() || max_body_bytes.is_null() {
            None
        } else {
            Some(max_body_bytes.as_f64().unwrap_or(f64::NAN))
        };
        let verifier = Verifier::new(header.as_deref(), max)?;
        let tokens = if token.is_function() {
            None
        } else {
            Some(token_list(&token)?)
        };
        if on_event_needed && !on_event.is_function() {
            return Err(Error::invalid(
                "onEvent",
                "onEvent must be a function (called with each verified event)",
            ));
        }
        Ok(WebhookPolicy { verifier, tokens })
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

    /// Whether `token` was a function: the shell calls it for each delivery and passes its
    /// result to `checkToken`.
    #[wasm_bindgen(getter, js_name = tokenIsFunction)]
    pub fn token_is_function(&self) -> bool {
        self.tokens.is_none()
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
        let presented = super::options::text(&presented, "header", MAX_TOKEN_LEN as u32)
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
    Ok(super::options::text(&v, field, crate::inputs::MAX_TEXT_LEN)
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
