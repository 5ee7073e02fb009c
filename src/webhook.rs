//! Webhooks: the checks of a delivery from the service to a merchant's server, and its typed
//! events (native Rust and the npm server entries; never the browser build).
//!
//! The service POSTs a JSON body `{ "event_type": …, "data": { … } }` with a static token, set
//! in its dashboard, in the request header `X-CASHRAMP-TOKEN`. There is no signature, no
//! timestamp and no event id, and the service retries any non-2xx answer or a timeout, so a
//! receiver:
//! - compares the token in constant time ([`Verifier::check_token`]; several tokens are
//!   accepted at once, to rotate without downtime);
//! - reads at most a bounded body ([`DEFAULT_MAX_BODY_BYTES`]; over it: [`crate::Code::TooLarge`]);
//! - de-duplicates with the event's [`WebhookEvent::key`] (its type, id and status: the same
//!   for a retried or replayed delivery);
//! - reads the state back from the API before releasing value (the service's documentation
//!   says so; the npm package's `merchant.confirmEvent(event)` does it).
//!
//! The browser build compiles only the event types (their TypeScript declarations are shared
//! by every entry of the npm package); the checks are native and server-only.
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

/// The header the service sends its token in (compared without regard to case).
pub const DEFAULT_HEADER: &str = "x-cashramp-token";
/// The default largest delivery body read, in bytes (64 KiB).
pub const DEFAULT_MAX_BODY_BYTES: u32 = 65_536;
/// The most tokens accepted at once (rotation needs two).
pub const MAX_TOKENS: usize = 16;
/// The longest token, in bytes; a longer presented header value is refused unread.
pub const MAX_TOKEN_LEN: usize = 1024;

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
    /// `payment_request.updated` (boxed: the largest of the data types).
    PaymentRequestUpdated(Box<PaymentRequestData>),
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

// The checks (not in the browser build, which has no receiver: only the declarations above
// reach its TypeScript).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
mod verify;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub use verify::{read_back, verify, Answer, ReadBack, Verifier};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
