//! Custom scalars named like the real service's (graphql-ruby style): `Decimal`,
//! `ISO8601Date`, `ISO8601DateTime`.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};
use serde::Serialize;

use crate::dates;

/// A decimal number carried as a string, e.g. `"12500.50"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Decimal(pub String);

impl Decimal {
    /// Formats an amount in hundredths (cents) as a two-decimal string.
    pub fn cents(c: i64) -> Self {
        let sign = if c < 0 { "-" } else { "" };
        let a = c.unsigned_abs();
        Decimal(format!("{sign}{}.{:02}", a / 100, a % 100))
    }

    pub fn text(s: &str) -> Self {
        Decimal(s.to_string())
    }
}

fn is_decimal_text(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let mut parts = s.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    !int.is_empty()
        && int.bytes().all(|c| c.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
}

/// A decimal number, serialized as a string (e.g. `"1520.00"`) to keep its precision. Input
/// values may be strings (`"0.01"`) or JSON numbers (`1500`), as the service's SDKs send both.
#[Scalar(name = "Decimal")]
impl ScalarType for Decimal {
    fn parse(value: Value) -> InputValueResult<Self> {
        match value {
            Value::String(s) if is_decimal_text(&s) => Ok(Decimal(s)),
            // A JSON number, as the SDKs send amounts too: kept in its plain decimal form (an
            // exponent or a non-finite number is refused).
            Value::Number(n) if is_decimal_text(&n.to_string()) => Ok(Decimal(n.to_string())),
            Value::Number(_) => Err(InputValueError::custom(
                "not a decimal number (expected plain digits with an optional fraction, such as 12.5)",
            )),
            Value::String(_) => Err(InputValueError::custom(
                "not a decimal number (expected digits with an optional fraction, such as \"12.50\")",
            )),
            // The value is not repeated: it could be anything, a pasted key included.
            _ => Err(InputValueError::custom(
                "not a decimal number (expected a string such as \"12.50\" or a number)",
            )),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.clone())
    }
}

/// A calendar date `YYYY-MM-DD`; stored as days since 1970-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iso8601Date(pub i64);

/// An ISO 8601 calendar date, `YYYY-MM-DD`; it must be a real date (no 2025-02-30).
#[Scalar(name = "ISO8601Date")]
impl ScalarType for Iso8601Date {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => dates::parse_date(s).map(Iso8601Date).ok_or_else(|| {
                InputValueError::custom(format!(
                    "\"{s}\" is not a valid ISO 8601 date (expected a real calendar date as YYYY-MM-DD)"
                ))
            }),
            other => Err(InputValueError::custom(format!(
                "{other} is not a valid ISO 8601 date (expected a string YYYY-MM-DD)"
            ))),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(dates::format_date(self.0))
    }
}

/// A UTC timestamp, stored as Unix seconds, shown as RFC 3339 (`2025-09-01T08:15:30Z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iso8601DateTime(pub i64);

impl Serialize for Iso8601DateTime {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&dates::format_datetime(self.0))
    }
}

/// An ISO 8601 / RFC 3339 date-time in UTC, e.g. `2025-09-01T08:15:30Z`.
#[Scalar(name = "ISO8601DateTime")]
impl ScalarType for Iso8601DateTime {
    fn parse(value: Value) -> InputValueResult<Self> {
        if let Value::String(s) = &value {
            // Accept exactly the shape we emit: YYYY-MM-DDTHH:MM:SSZ.
            if s.len() == 20 && s.as_bytes()[10] == b'T' && s.ends_with('Z') {
                if let Some(days) = dates::parse_date(&s[..10]) {
                    let t = &s[11..19];
                    let hms: Vec<Option<i64>> = t.split(':').map(|p| p.parse().ok()).collect();
                    if let [Some(h), Some(m), Some(sec)] = hms[..] {
                        if h < 24 && m < 60 && sec < 60 {
                            return Ok(Iso8601DateTime(days * 86_400 + h * 3600 + m * 60 + sec));
                        }
                    }
                }
            }
        }
        Err(InputValueError::custom(
            "expected an RFC 3339 UTC timestamp like 2025-09-01T08:15:30Z",
        ))
    }

    fn to_value(&self) -> Value {
        Value::String(dates::format_datetime(self.0))
    }
}
