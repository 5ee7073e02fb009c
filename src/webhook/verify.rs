//! The checks of a delivery: its token (constant time), its size, its body (see the parent
//! module).

use serde::Deserialize;
use serde_json::Value as JsonValue;

use super::{
    EventData, WebhookEvent, CHARGEBACK_INITIATED, DEFAULT_HEADER, DEFAULT_MAX_BODY_BYTES,
    FIAT_PAYOUT_UPDATED, MAX_TOKENS, MAX_TOKEN_LEN, ONCHAIN_TX_UPDATED, PAYMENT_REQUEST_UPDATED,
};
use crate::error::{Code, Error};

/// The longest header name option.
const MAX_HEADER_NAME_LEN: usize = 64;
/// The largest `maxBodyBytes` accepted (16 MiB).
const MAX_MAX_BODY_BYTES: u32 = 16 * 1024 * 1024;

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
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
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
            PAYMENT_REQUEST_UPDATED => EventData::PaymentRequestUpdated(Box::new(typed(data)?)),
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
pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> u8 {
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

/// What `confirmEvent` reads back from the API for an event: the current state of what the
/// event is about, so value is released on the API's word rather than the webhook's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadBack {
    /// `merchantPaymentRequest(reference)`: a `payment_request.updated` event.
    PaymentRequest {
        /// The payment's reference (`data.reference`).
        reference: String,
    },
    /// `onchainWithdrawal(id)`: an `onchain_tx.updated` event.
    OnchainWithdrawal {
        /// The transaction's id (`data.id`).
        id: String,
    },
}

/// The read-back of an event of type `kind` (`type` as the npm package shows it: an observed
/// type or `"unknown"`), given its `data.reference` and `data.id` when they are strings. The
/// API has no read of a fiat payout or a chargeback by id: those, `unknown`, and an event
/// without the member needed are `invalid_input` (naming `event`, `event.data.reference` or
/// `event.data.id`), before anything is sent.
pub fn read_back(
    kind: Option<&str>,
    reference: Option<&str>,
    id: Option<&str>,
) -> Result<ReadBack, Error> {
    match kind {
        Some(PAYMENT_REQUEST_UPDATED) => match reference {
            Some(r) if !r.trim().is_empty() => Ok(ReadBack::PaymentRequest {
                reference: r.to_owned(),
            }),
            _ => Err(Error::invalid(
                "event.data.reference",
                "event.data.reference must be the payment's reference (a non-empty string)",
            )),
        },
        Some(ONCHAIN_TX_UPDATED) => match id {
            Some(i) if !i.trim().is_empty() => Ok(ReadBack::OnchainWithdrawal { id: i.to_owned() }),
            _ => Err(Error::invalid(
                "event.data.id",
                "event.data.id must be the transaction's id (a non-empty string)",
            )),
        },
        Some(_) => Err(Error::invalid(
            "event",
            "event: the API has no read-back for this event type (only payment_request.updated and onchain_tx.updated)",
        )),
        None => Err(Error::invalid("event", "event: not a webhook event (no type)")),
    }
}

impl WebhookEvent {
    /// What to read back from the API for this event ([`read_back`]).
    pub fn read_back(&self) -> Result<ReadBack, Error> {
        match &self.data {
            EventData::PaymentRequestUpdated(d) => {
                read_back(Some(PAYMENT_REQUEST_UPDATED), d.reference.as_deref(), None)
            }
            EventData::OnchainTxUpdated(d) => {
                read_back(Some(ONCHAIN_TX_UPDATED), None, d.id.as_deref())
            }
            _ => read_back(Some(self.event_type()), None, None),
        }
    }
}
