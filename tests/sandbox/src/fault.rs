//! Parsing of the `x-sandbox-fault` request header.
//!
//! Syntax: `;`-separated items, whitespace around items ignored, item names
//! case-insensitive, each item at most once:
//! `status=NNN`, `retry-after=V`, `body=json|html|empty|truncated`, `delay=MS`,
//! `partial`, `drop`, `drop-after`, `hang`, `fail-first=N`.

use std::fmt;

/// Largest accepted `delay=` in milliseconds.
pub const MAX_DELAY_MS: u64 = 120_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    Html,
    Empty,
    Truncated,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultSpec {
    pub status: Option<u16>,
    pub retry_after: Option<String>,
    pub body: Option<BodyKind>,
    pub delay_ms: Option<u64>,
    pub partial: bool,
    pub drop: bool,
    /// Serve the request for real (a mutation takes effect), then drop the connection
    /// with a reset instead of answering.
    pub drop_after: bool,
    /// Never answer: the request waits until the client gives up (a timeout, an abort).
    pub hang: bool,
    pub fail_first: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultSpecError(pub String);

impl fmt::Display for FaultSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed x-sandbox-fault header: {}", self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, FaultSpecError> {
    Err(FaultSpecError(msg.into()))
}

impl FaultSpec {
    pub fn parse(spec: &str) -> Result<FaultSpec, FaultSpecError> {
        let mut out = FaultSpec::default();
        let mut seen: Vec<String> = Vec::new();
        for raw in spec.split(';') {
            let item = raw.trim();
            if item.is_empty() {
                continue;
            }
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim().to_ascii_lowercase(), Some(v.trim())),
                None => (item.to_ascii_lowercase(), None),
            };
            if seen.contains(&name) {
                return err(format!("item '{name}' given more than once"));
            }
            seen.push(name.clone());
            let need = |v: Option<&str>| -> Result<String, FaultSpecError> {
                match v {
                    Some(v) if !v.is_empty() => Ok(v.to_string()),
                    _ => err(format!("item '{name}' needs a value ({name}=...)")),
                }
            };
            match name.as_str() {
                "status" => {
                    let v = need(value)?;
                    match v.parse::<u16>() {
                        Ok(n) if (200..=599).contains(&n) && v.len() == 3 => out.status = Some(n),
                        _ => return err(format!("status must be an HTTP status code 200..599, got '{v}'")),
                    }
                }
                "retry-after" => {
                    let v = need(value)?;
                    if v.len() > 100 || !v.bytes().all(|b| (0x20..0x7f).contains(&b)) {
                        return err("retry-after must be printable ASCII, at most 100 characters");
                    }
                    out.retry_after = Some(v);
                }
                "body" => {
                    let v = need(value)?.to_ascii_lowercase();
                    out.body = Some(match v.as_str() {
                        "json" => BodyKind::Json,
                        "html" => BodyKind::Html,
                        "empty" => BodyKind::Empty,
                        "truncated" => BodyKind::Truncated,
                        _ => return err(format!("body must be json, html, empty or truncated, got '{v}'")),
                    });
                }
                "delay" => {
                    let v = need(value)?;
                    match v.parse::<u64>() {
                        Ok(ms) if ms <= MAX_DELAY_MS => out.delay_ms = Some(ms),
                        _ => return err(format!("delay must be milliseconds 0..={MAX_DELAY_MS}, got '{v}'")),
                    }
                }
                "fail-first" => {
                    let v = need(value)?;
                    match v.parse::<u64>() {
                        Ok(n) if (1..=1_000_000).contains(&n) => out.fail_first = Some(n),
                        _ => return err(format!("fail-first must be a count 1..=1000000, got '{v}'")),
                    }
                }
                "partial" | "drop" | "drop-after" | "hang" => {
                    if value.is_some() {
                        return err(format!("item '{name}' takes no value"));
                    }
                    match name.as_str() {
                        "partial" => out.partial = true,
                        "drop" => out.drop = true,
                        "hang" => out.hang = true,
                        _ => out.drop_after = true,
                    }
                }
                _ => {
                    return err(format!(
                        "unknown item '{name}' (known: status=NNN, retry-after=V, body=json|html|empty|truncated, delay=MS, partial, drop, drop-after, hang, fail-first=N)"
                    ))
                }
            }
        }
        if out.drop
            && (out.status.is_some()
                || out.body.is_some()
                || out.retry_after.is_some()
                || out.partial)
        {
            return err("drop sends no response, so it cannot be combined with status, body, retry-after or partial");
        }
        if out.drop_after
            && (out.drop
                || out.status.is_some()
                || out.body.is_some()
                || out.retry_after.is_some()
                || out.partial)
        {
            return err("drop-after sends no response, so it cannot be combined with drop, status, body, retry-after or partial");
        }
        if out.hang
            && !(FaultSpec {
                hang: false,
                fail_first: None,
                ..out.clone()
            })
            .is_noop_strict()
        {
            return err(
                "hang sends no response, so it cannot be combined with anything but fail-first",
            );
        }
        if out.partial
            && matches!(
                out.body,
                Some(BodyKind::Html | BodyKind::Empty | BodyKind::Truncated)
            )
        {
            return err("partial answers with real JSON data, so it cannot be combined with body=html|empty|truncated");
        }
        Ok(out)
    }

    /// True when the fault replaces the whole response (no query execution).
    pub fn replaces_response(&self) -> bool {
        !self.partial
            && !self.drop
            && !self.drop_after
            && (self.status.is_some() || self.body.is_some())
    }

    /// HTTP status of a replaced response: `status=`, else 200 for `body=truncated`, else 500.
    pub fn replacement_status(&self) -> u16 {
        self.status
            .unwrap_or(if self.body == Some(BodyKind::Truncated) {
                200
            } else {
                500
            })
    }

    pub fn body_kind(&self) -> BodyKind {
        self.body.unwrap_or(BodyKind::Json)
    }

    /// True when nothing at all was given.
    fn is_noop_strict(&self) -> bool {
        *self == FaultSpec::default()
    }

    /// True when nothing but `fail-first` (or nothing at all) was given.
    pub fn is_noop(&self) -> bool {
        FaultSpec {
            fail_first: None,
            ..self.clone()
        } == FaultSpec::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_items() {
        let f = FaultSpec::parse(" status=503 ; Retry-After=7;body=html; delay=20 ;fail-first=2;")
            .unwrap();
        assert_eq!(f.status, Some(503));
        assert_eq!(f.retry_after.as_deref(), Some("7"));
        assert_eq!(f.body, Some(BodyKind::Html));
        assert_eq!(f.delay_ms, Some(20));
        assert_eq!(f.fail_first, Some(2));
        assert!(f.replaces_response());
        let f = FaultSpec::parse("retry-after=Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        assert_eq!(
            f.retry_after.as_deref(),
            Some("Wed, 21 Oct 2015 07:28:00 GMT")
        );
        assert!(!f.replaces_response());
        assert!(FaultSpec::parse("partial").unwrap().partial);
        assert!(FaultSpec::parse("drop;delay=5").unwrap().drop);
        let f = FaultSpec::parse(" Drop-After ; delay=5; fail-first=1").unwrap();
        assert!(f.drop_after && !f.drop && !f.replaces_response() && !f.is_noop());
        assert_eq!(
            FaultSpec::parse("body=truncated")
                .unwrap()
                .replacement_status(),
            200
        );
        assert_eq!(
            FaultSpec::parse("body=empty").unwrap().replacement_status(),
            500
        );
        assert!(FaultSpec::parse("").unwrap().is_noop());
        assert!(FaultSpec::parse("fail-first=3").unwrap().is_noop());
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "status",
            "status=abc",
            "status=99",
            "status=600",
            "status=0200",
            "body=xml",
            "delay=-1",
            "delay=999999999",
            "fail-first=0",
            "fail-first=x",
            "partial=1",
            "drop=yes",
            "bogus",
            "status=500;status=502",
            "drop;status=500",
            "drop-after=1",
            "drop-after;drop",
            "drop-after;status=503",
            "drop-after;body=json",
            "drop-after;retry-after=1",
            "drop-after;partial",
            "drop-after;drop-after",
            "partial;body=html",
            "retry-after=",
            "retry-after=a\u{7f}",
        ] {
            assert!(FaultSpec::parse(bad).is_err(), "{bad:?} should be rejected");
        }
    }
}
