//! Webhooks: the checks of a delivery from the service to a merchant's server, and its typed
//! events (native Rust and the npm server entries; never the browser build).
//!
//! The service POSTs a JSON body `{ "event_type": …, "data": { … } }` with a static token, set
//! in its dashboard, in the request header `X-CASHRAMP-TOKEN`. There is no signature, no
//! timestamp and no event id, and the service retries any non-2xx answer or a timeout, so a
//! receiver:
//! - compares the token in constant time ([`Verifier::check_token`]; several tokens are
//!   accepted at once, to rotate without downtime);
//! - reads at most a bounded body ([`DEFAULT_MAX_BODY_BYTES`]; over it: [`Code::TooLarge`]);
//! - de-duplicates with the event's [`WebhookEvent::key`] (its type, id and status: the same
//!   for a retried or replayed delivery);
//! - reads the state back from the API before releasing value (the service's documentation
//!   says so; the npm package's `merchant.confirmEvent(event)` does it).
//!
//! The four event types the service documents are typed ([`EventData`]); their `data` keeps
//! the service's snake_case keys, and amounts arrive as the service sends them, a string or a
//! number ([`Amount`]). Any other `event_type` is [`EventData::Unknown`], never an error.
//!
//! No error or answer of this module holds a token, the presented header value, or any piece
//! of either: a wrong token is `unauthorized` with nothing else said.
//!
//! ```
//! use settlement_wasm::webhook;
//! let body = br#"{"event_type":"onchain_tx.updated","data":{"id":"tx1","status":"CONFIRMED","quantity":"10.5"}}"#;
//! let event = webhook::verify([("x-cashramp-token", "s3cret-token")], body, &["s3cret-token"]).unwrap();
//! assert_eq!(event.event_type(), "onchain_tx.updated");
//! assert_eq!(event.key, r#"["onchain_tx.updated","tx1","CONFIRMED"]"#);
//! let wrong = webhook::verify([("x-cashramp-token", "s3cret-tokem")], body, &["s3cret-token"]);
//! assert_eq!(wrong.unwrap_err().code, settlement_wasm::Code::Unauthorized);
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value as JsonValue;
#[cfg(feature = "typescript")]
use tsify::Tsify;

use crate::error::{Code, Error};

/// The header the service sends its token in (compared without regard to case).
pub const DEFAULT_HEADER: &str = "x-cashramp-token";
/// The default largest delivery body read, in bytes (64 KiB).
pub const DEFAULT_MAX_BODY_BYTES: u32 = 65_536;
/// The most tokens accepted at once (rotation needs two).
pub const MAX_TOKENS: usize = 16;
/// The longest token, in bytes; a longer presented header value is refused unread.
pub const MAX_TOKEN_LEN: usize = 1024;
/// The longest header name option.
const MAX_HEADER_NAME_LEN: usize = 64;
/// The largest `maxBodyBytes` accepted (16 MiB).
const MAX_MAX_BODY_BYTES: u32 = 16 * 1024 * 1024;

/// An amount as the service sends it in a webhook: sometimes text (`"159.0"`), sometimes a
/// JSON number (`100`). Kept as sent; `parse_amount` reads the text form exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// A decimal sent as a JSON string.
    Text(String),
    /// A JSON number, exactly as sent.
    Number(serde_json::Number),
}

/// The `customer` of a `payment_request.updated` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "WebhookCustomer"))]
pub struct WebhookCustomer {
    /// The customer's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The customer's email.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub email: Option<String>,
    /// The customer's wallet address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub wallet_address: Option<String>,
    /// The customer's country.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub country: Option<String>,
    /// The customer's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub currency: Option<String>,
}

/// The `p2p_payment` of a `payment_request.updated` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
pub struct WebhookP2PPayment {
    /// The P2P payment's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The exchange rate applied, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub exchange_rate: Option<Amount>,
    /// The amount in local currency, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub amount: Option<Amount>,
    /// The amount in USD, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub amount_usd: Option<Amount>,
    /// The fee, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub fee: Option<Amount>,
}

/// The `data` of a `payment_request.updated` event (a hosted payment's request).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "PaymentRequestEventData"))]
pub struct PaymentRequestData {
    /// The payment request's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The merchant's reference (what `merchantPaymentRequest(reference)` reads back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// The request's status, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub status: Option<String>,
    /// The paying customer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub customer: Option<WebhookCustomer>,
    /// The P2P payment that settles it, once there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub p2p_payment: Option<WebhookP2PPayment>,
    /// The onchain deposit address, for a crypto payment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub onchain_address: Option<String>,
    /// The onchain cryptocurrency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub onchain_cryptocurrency: Option<String>,
    /// The onchain transaction hash, once sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub onchain_txhash: Option<String>,
    /// When the request was created, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub created_at: Option<String>,
    /// The hosted payment page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub payment_link: Option<String>,
    /// The `metadata` given to `initiateHostedPayment`, echoed as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "unknown"))]
    pub metadata: Option<JsonValue>,
}

/// The `data` of an `onchain_tx.updated` event (an onchain withdrawal or deposit).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "OnchainTxEventData"))]
pub struct OnchainTxData {
    /// The transaction's id (what `onchainWithdrawal(id)` reads back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The address sent to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub address: Option<String>,
    /// Its status, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub status: Option<String>,
    /// The quantity, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub quantity: Option<Amount>,
    /// The network fee, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub fee: Option<Amount>,
    /// The token's symbol, e.g. `USDT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub symbol: Option<String>,
    /// The network, e.g. `CELO`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub network: Option<String>,
    /// The transaction hash, once sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub txhash: Option<String>,
}

/// The `data` of a `fiat_payout.updated` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "FiatPayoutEventData"))]
pub struct FiatPayoutData {
    /// The payout's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The payment type, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub payment_type: Option<String>,
    /// The amount in USD, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub amount_usd: Option<Amount>,
    /// The amount in local currency, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub amount: Option<Amount>,
    /// The merchant's reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// Its status, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub status: Option<String>,
}

/// The `payment_request` of a `chargeback.initiated` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "ChargebackPaymentRequest"))]
pub struct ChargebackPaymentRequest {
    /// The payment request's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// The merchant's reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// The amount, as sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | number"))]
    pub amount: Option<Amount>,
    /// The currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub currency: Option<String>,
}

/// The `data` of a `chargeback.initiated` event.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "ChargebackEventData"))]
pub struct ChargebackData {
    /// The chargeback's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub id: Option<String>,
    /// Its status, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub status: Option<String>,
    /// The reason given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reason: Option<String>,
    /// The payment request charged back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub payment_request: Option<ChargebackPaymentRequest>,
}

/// An event's type and its `data`.
#[derive(Clone, Debug, PartialEq)]
pub enum EventData {
    /// `payment_request.updated`.
    PaymentRequestUpdated(PaymentRequestData),
    /// `onchain_tx.updated`.
    OnchainTxUpdated(OnchainTxData),
    /// `fiat_payout.updated`.
    FiatPayoutUpdated(FiatPayoutData),
    /// `chargeback.initiated`.
    ChargebackInitiated(ChargebackData),
    /// Any other `event_type`, with its `data` as sent.
    Unknown {
        /// The `event_type` as sent.
        event_type: String,
        /// The `data` as sent.
        data: JsonValue,
    },
}

/// The observed event types, as the service names them.
pub const PAYMENT_REQUEST_UPDATED: &str = "payment_request.updated";
/// See [`PAYMENT_REQUEST_UPDATED`].
pub const ONCHAIN_TX_UPDATED: &str = "onchain_tx.updated";
/// See [`PAYMENT_REQUEST_UPDATED`].
pub const FIAT_PAYOUT_UPDATED: &str = "fiat_payout.updated";
/// See [`PAYMENT_REQUEST_UPDATED`].
pub const CHARGEBACK_INITIATED: &str = "chargeback.initiated";

// The event as the npm package shows it (`WebhookEvent::to_json`): a union over the derived
// `data` types, declared in both npm builds (declarations only: the browser build links no code
// of this module).
#[cfg(feature = "typescript")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const WEBHOOK_EVENT_TS: &'static str = r#"
/** What every event has: the de-duplication `key` and the body as received. */
export interface WebhookEventBase {
  /** `[event_type, id, status]` as JSON text: the same for a retried or replayed delivery. */
  key: string;
  /** The body as received, for logging. */
  raw: string;
}

/**
 * A verified webhook delivery, discriminated on `type`; `data` keeps the service's snake_case
 * keys and its amounts as sent (a string or a number). Any other `event_type` is `"unknown"`.
 */
export type WebhookEvent =
  | (WebhookEventBase & { type: "payment_request.updated"; eventType: "payment_request.updated"; data: PaymentRequestEventData })
  | (WebhookEventBase & { type: "onchain_tx.updated"; eventType: "onchain_tx.updated"; data: OnchainTxEventData })
  | (WebhookEventBase & { type: "fiat_payout.updated"; eventType: "fiat_payout.updated"; data: FiatPayoutEventData })
  | (WebhookEventBase & { type: "chargeback.initiated"; eventType: "chargeback.initiated"; data: ChargebackEventData })
  | (WebhookEventBase & { type: "unknown"; eventType: string; data: Record<string, unknown> });
"#;

/// One verified delivery.
#[derive(Clone, Debug, PartialEq)]
pub struct WebhookEvent {
    /// Its type and `data`.
    pub data: EventData,
    /// `[event_type, id, status]` as JSON text (`id` and `status` from `data`, `""` when
    /// absent): the same for every delivery of one change (a retry, a replay), so a receiver
    /// de-duplicates with it.
    pub key: String,
    /// The body as received, for logging.
    pub raw: String,
}

impl WebhookEvent {
    /// The `event_type` as sent.
    pub fn event_type(&self) -> &str {
        match &self.data {
            EventData::PaymentRequestUpdated(_) => PAYMENT_REQUEST_UPDATED,
            EventData::OnchainTxUpdated(_) => ONCHAIN_TX_UPDATED,
            EventData::FiatPayoutUpdated(_) => FIAT_PAYOUT_UPDATED,
            EventData::ChargebackInitiated(_) => CHARGEBACK_INITIATED,
            EventData::Unknown { event_type, .. } => event_type,
        }
    }

    /// The event as the npm package shows it: `{ type, eventType, data, key, raw }`, where
    /// `type` is the observed type or `"unknown"`, `eventType` the type as sent.
    pub fn to_json(&self) -> JsonValue {
        let (kind, data) = match &self.data {
            EventData::PaymentRequestUpdated(d) => (PAYMENT_REQUEST_UPDATED, to_json(d)),
            EventData::OnchainTxUpdated(d) => (ONCHAIN_TX_UPDATED, to_json(d)),
            EventData::FiatPayoutUpdated(d) => (FIAT_PAYOUT_UPDATED, to_json(d)),
            EventData::ChargebackInitiated(d) => (CHARGEBACK_INITIATED, to_json(d)),
            EventData::Unknown { data, .. } => ("unknown", data.clone()),
        };
        serde_json::json!({
            "type": kind,
            "eventType": self.event_type(),
            "data": data,
            "key": self.key,
            "raw": self.raw,
        })
    }
}

fn to_json<T: Serialize>(value: &T) -> JsonValue {
    // The data types hold strings, numbers and JSON values only: always serializable.
    serde_json::to_value(value).unwrap_or(JsonValue::Null)
}

/// The answer a webhook receiver gives of its own: an HTTP status and a JSON body
/// `{"error":{"code":…,"message":…}}` that never holds a token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

impl Answer {
    fn new(status: u16, code: &str, message: &str) -> Answer {
        Answer {
            status,
            body: serde_json::json!({ "error": { "code": code, "message": message } }).to_string(),
        }
    }

    /// 200: the delivery was handled.
    pub fn ok() -> Answer {
        Answer {
            status: 200,
            body: r#"{"received":true}"#.to_owned(),
        }
    }

    /// 405: anything but `POST`.
    pub fn method_not_allowed() -> Answer {
        Answer::new(
            405,
            "method_not_allowed",
            "This endpoint only accepts POST requests",
        )
    }

    /// 500: the receiver's `onEvent` threw or rejected (the service retries), or its `token`
    /// option gave no usable token. What was thrown is never shown.
    pub fn handler_failed() -> Answer {
        Answer::new(500, "internal", "The event could not be handled")
    }

    /// The answer to an error of [`Verifier::check_token`] or [`Verifier::parse`]: 401
    /// (`unauthorized`, nothing else said), 413 (`too_large`), 400 (`invalid_input`), or
    /// 500 for anything else.
    pub fn for_error(err: &Error) -> Answer {
        match err.code {
            Code::Unauthorized => Answer::new(401, "unauthorized", "Not authorized"),
            Code::TooLarge => Answer::new(413, "too_large", &err.message),
            Code::InvalidInput => Answer::new(400, "invalid_input", &err.message),
            _ => Answer::handler_failed(),
        }
    }
}

/// A receiver's checked options: the header carrying the token and the largest body read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verifier {
    header: String,
    max_body_bytes: u32,
}

impl Default for Verifier {
    fn default() -> Self {
        Verifier {
            header: DEFAULT_HEADER.to_owned(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}

/// `unauthorized`, with nothing said about what was presented or expected.
fn unauthorized() -> Error {
    let mut e = Error::new(Code::Unauthorized, "Not authorized");
    e.status = Some(401);
    e
}

impl Verifier {
    /// Checks the options: `header` (absent: `x-cashramp-token`) an HTTP header name of at
    /// most 64 characters; `max_body_bytes` (absent: 65536) an integer from 1 to 16 MiB.
    pub fn new(header: Option<&str>, max_body_bytes: Option<f64>) -> Result<Verifier, Error> {
        let header = match header {
            None => DEFAULT_HEADER.to_owned(),
            Some(h) => {
                let ok = !h.is_empty()
                    && h.len() <= MAX_HEADER_NAME_LEN
                    && h.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
                    });
                if !ok {
                    return Err(Error::invalid(
                        "header",
                        "header must be an HTTP header name (letters, digits, `-`; at most 64)",
                    ));
                }
                h.to_ascii_lowercase()
            }
        };
        let max_body_bytes = match max_body_bytes {
            None => DEFAULT_MAX_BODY_BYTES,
            Some(n) if n.fract() == 0.0 && (1.0..=f64::from(MAX_MAX_BODY_BYTES)).contains(&n) => {
                n as u32
            }
            Some(_) => {
                return Err(Error::invalid(
                    "maxBodyBytes",
                    "maxBodyBytes must be an integer from 1 to 16777216",
                ))
            }
        };
        Ok(Verifier {
            header,
            max_body_bytes,
        })
    }

    /// The header carrying the token, in lower case.
    pub fn header(&self) -> &str {
        &self.header
    }

    /// The largest body read, in bytes.
    pub fn max_body_bytes(&self) -> u32 {
        self.max_body_bytes
    }

    /// Checks the receiver's tokens: 1 to 16 non-empty strings of at most 1024 bytes. The
    /// error names `token` and never holds one.
    pub fn check_tokens<T: AsRef<str>>(tokens: &[T]) -> Result<(), Error> {
        if tokens.is_empty() || tokens.len() > MAX_TOKENS {
            return Err(Error::invalid(
                "token",
                "token must be a non-empty string or an array of 1 to 16 of them",
            ));
        }
        if tokens
            .iter()
            .any(|t| t.as_ref().is_empty() || t.as_ref().len() > MAX_TOKEN_LEN)
        {
            return Err(Error::invalid(
                "token",
                "every token must be a non-empty string of at most 1024 bytes",
            ));
        }
        Ok(())
    }

    /// Whether `presented` (the header's value; `None` when absent) is one of `tokens`.
    /// Every token is compared, each in time that depends only on the presented value's
    /// length, so neither which token matched nor how much of one did shows in the time
    /// taken. `unauthorized` (nothing else said) when absent or wrong; `invalid_input`
    /// naming `token` when `tokens` is not a valid list (a receiver's fault).
    pub fn check_token<T: AsRef<str>>(
        &self,
        presented: Option<&[u8]>,
        tokens: &[T],
    ) -> Result<(), Error> {
        Verifier::check_tokens(tokens)?;
        let presented = match presented {
            Some(p) if !p.is_empty() && p.len() <= MAX_TOKEN_LEN => p,
            _ => return Err(unauthorized()),
        };
        let mut matched = 0u8;
        for token in tokens {
            matched |= constant_time_eq(presented, token.as_ref().as_bytes());
        }
        if std::hint::black_box(matched) == 1 {
            Ok(())
        } else {
            Err(unauthorized())
        }
    }

    /// The 413 error (the body went over [`Verifier::max_body_bytes`]; the rest is not read).
    pub fn too_large(&self) -> Error {
        let mut e = Error::new(
            Code::TooLarge,
            format!("The body is over {} bytes", self.max_body_bytes),
        );
        e.status = Some(413);
        e
    }

    /// Reads a delivery's body: UTF-8 JSON, an object with a string `event_type` and an
    /// object `data`; the four observed types typed, any other one [`EventData::Unknown`].
    /// A body over the limit is `too_large`; anything else wrong is `invalid_input` naming
    /// `body` (or the `data` field whose type is wrong), never echoing the body.
    pub fn parse(&self, body: &[u8]) -> Result<WebhookEvent, Error> {
        if body.len() > self.max_body_bytes as usize {
            return Err(self.too_large());
        }
        let raw = std::str::from_utf8(body)
            .map_err(|_| Error::invalid("body", "The body is not UTF-8 text"))?;
        let value: JsonValue = serde_json::from_str(raw)
            .map_err(|_| Error::invalid("body", "The body is not JSON"))?;
        let JsonValue::Object(mut object) = value else {
            return Err(Error::invalid("body", "The body is not a JSON object"));
        };
        let event_type = match object.remove("event_type") {
            Some(JsonValue::String(t)) if !t.is_empty() && t.len() <= 128 => t,
            _ => {
                return Err(Error::invalid(
                    "event_type",
                    "The body has no event_type (a non-empty string of at most 128 characters)",
                ))
            }
        };
        let data = match object.remove("data") {
            Some(d @ JsonValue::Object(_)) => d,
            _ => return Err(Error::invalid("data", "The body has no data object")),
        };
        let (id, status) = (key_part(&data, "id"), key_part(&data, "status"));
        let data = match event_type.as_str() {
            PAYMENT_REQUEST_UPDATED => EventData::PaymentRequestUpdated(typed(data)?),
            ONCHAIN_TX_UPDATED => EventData::OnchainTxUpdated(typed(data)?),
            FIAT_PAYOUT_UPDATED => EventData::FiatPayoutUpdated(typed(data)?),
            CHARGEBACK_INITIATED => EventData::ChargebackInitiated(typed(data)?),
            _ => EventData::Unknown {
                event_type: event_type.clone(),
                data,
            },
        };
        let key = serde_json::json!([event_type, id, status]).to_string();
        Ok(WebhookEvent {
            data,
            key,
            raw: raw.to_owned(),
        })
    }

    /// The whole check of a delivery: the token among `headers` (compared in constant time
    /// against each of `tokens`), then the body.
    pub fn verify<K, V, T>(
        &self,
        headers: impl IntoIterator<Item = (K, V)>,
        body: &[u8],
        tokens: &[T],
    ) -> Result<WebhookEvent, Error>
    where
        K: AsRef<str>,
        V: AsRef<[u8]>,
        T: AsRef<str>,
    {
        let mut presented: Option<V> = None;
        for (name, value) in headers {
            if name.as_ref().eq_ignore_ascii_case(&self.header) {
                // A header sent twice is refused: which one counts would be ambiguous.
                if presented.is_some() {
                    Verifier::check_tokens(tokens)?;
                    return Err(unauthorized());
                }
                presented = Some(value);
            }
        }
        self.check_token(presented.as_ref().map(|v| v.as_ref()), tokens)?;
        self.parse(body)
    }
}

/// `data[name]` as text for the key: a string as is, a number as written, else `""`.
fn key_part(data: &JsonValue, name: &str) -> String {
    match data.get(name) {
        Some(JsonValue::String(s)) => s.clone(),
        Some(JsonValue::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

/// `data` as `T`; a field of the wrong type is `invalid_input` naming `data.<field>`.
fn typed<T: for<'de> Deserialize<'de>>(data: JsonValue) -> Result<T, Error> {
    T::deserialize(data).map_err(|e| {
        // serde names the field in "invalid type: …" only as a message; the field path is
        // not exposed, so the message says what kind of value was expected, never the value.
        let what = e.to_string();
        let expected = what
            .split_once("expected ")
            .map(|(_, x)| x)
            .unwrap_or("another type");
        Error::invalid(
            "data",
            format!("A field of data has the wrong type (expected {expected})"),
        )
    })
}

/// 1 when `a == b`, else 0, in time that depends only on `a.len()` (never on where the
/// first difference is, nor on `b`'s content).
fn constant_time_eq(a: &[u8], b: &[u8]) -> u8 {
    let mut diff = (a.len() ^ b.len()) as u64;
    if b.is_empty() {
        return 0;
    }
    for (i, x) in a.iter().enumerate() {
        diff |= u64::from(x ^ b[i % b.len()]);
    }
    let diff = std::hint::black_box(diff);
    u8::from(diff == 0)
}

/// Verifies a delivery with the default options (header `x-cashramp-token`, 64 KiB): the
/// token among `headers` compared in constant time with each of `tokens` (several while
/// rotating), then the body read as a typed event. Errors: `unauthorized` (a missing, wrong
/// or repeated token header; nothing else said), `too_large`, `invalid_input` (a body that is
/// not a JSON object with a string `event_type` and an object `data`, or `tokens` not 1 to
/// 16 non-empty strings).
pub fn verify<K, V, T>(
    headers: impl IntoIterator<Item = (K, V)>,
    body: &[u8],
    tokens: &[T],
) -> Result<WebhookEvent, Error>
where
    K: AsRef<str>,
    V: AsRef<[u8]>,
    T: AsRef<str>,
{
    Verifier::default().verify(headers, body, tokens)
}

#[cfg(test)]
mod tests;
