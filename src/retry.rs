//! Retry policy: which failures are retried, exponential backoff with full jitter, and
//! `Retry-After` parsing (delta seconds or HTTP-date).
//!
//! Only read-only operations (GraphQL queries) are retried, and only after network errors,
//! timeouts, 429, 502, 503 and 504. Everything else (other 4xx, GraphQL errors, decode
//! errors, aborts) is final.

use crate::error::{Code, Error};

/// Backoff base: the first retry waits up to this long.
pub const BASE_DELAY_MS: u64 = 200;
/// Backoff cap.
pub const MAX_DELAY_MS: u64 = 5_000;
/// The longest a `Retry-After` is honoured for.
pub const MAX_RETRY_AFTER_MS: u64 = 60_000;

/// Whether a failed attempt may be retried (for an operation that may be retried at all).
pub fn is_retryable(err: &Error) -> bool {
    match err.code {
        Code::Network | Code::Timeout | Code::RateLimited => true,
        Code::Http => matches!(err.status, Some(502..=504)),
        _ => false,
    }
}

/// Whether a failed poll is transient for a loop that polls on its own schedule (the order
/// watch, `confirmUntilSettled`): it waits and polls again rather than end. Network errors,
/// timeouts, 429 and every 5xx are transient; so, for a confirmation (a mutation sent again
/// by its loop anyway), is `outcome_unknown` that no abort caused. Everything else ends the
/// loop: 401 and 403, GraphQL errors, other 4xx, decode errors, aborts.
pub fn is_transient(err: &Error) -> bool {
    match err.code {
        Code::Network | Code::Timeout | Code::RateLimited | Code::OutcomeUnknown => true,
        Code::Http => matches!(err.status, Some(500..=599)),
        _ => false,
    }
}

/// The wait of a polling loop after its `failures`-th transient failure in a row (from 1): a
/// ceiling of `interval * 2^failures` (at most `max`), jittered within its upper half, so the
/// first failure waits 1 to 2 intervals and each next one about twice as long; never less
/// than the server's `Retry-After`, and never more than `max`.
pub fn poll_backoff_ms(
    interval: u64,
    max: u64,
    failures: u32,
    retry_after_ms: Option<u64>,
    random: f64,
) -> u64 {
    let ceiling = ceiling_ms(interval, max, failures);
    let jittered = ceiling / 2 + ((ceiling / 2) as f64 * unit(random)) as u64;
    jittered.max(retry_after_ms.unwrap_or(0)).min(max)
}

/// The wait before retry number `attempt + 1` (`attempt` counts from 0).
///
/// With a server-given `retry_after_ms`, that (capped at 60 s). Otherwise full jitter:
/// `random * min(5000, 200 * 2^attempt)`, with `random` in `[0, 1)`.
pub fn delay_ms(attempt: u32, retry_after_ms: Option<u64>, random: f64) -> u64 {
    if let Some(ms) = retry_after_ms {
        return ms.min(MAX_RETRY_AFTER_MS);
    }
    let ceiling = ceiling_ms(BASE_DELAY_MS, MAX_DELAY_MS, attempt);
    ((ceiling as f64) * unit(random)) as u64 % (ceiling + 1)
}

/// The exponential backoff's ceiling: `base * 2^doublings`, at most `cap`.
pub fn ceiling_ms(base: u64, cap: u64, doublings: u32) -> u64 {
    base.checked_shl(doublings)
        .filter(|c| c >> doublings == base)
        .map_or(cap, |c| c.min(cap))
}

/// A jitter source's value clamped to `[0, 1]` (0 when it is not a finite number).
pub fn unit(random: f64) -> f64 {
    if random.is_finite() {
        random.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Parses a `Retry-After` value: delta seconds (`"120"`) or an HTTP-date
/// (`"Wed, 21 Oct 2015 07:28:00 GMT"`, also the obsolete RFC 850 and asctime forms, read by
/// the `httpdate` crate), given the current time in ms since the Unix epoch. A date in the
/// past means 0. `None` when the value is neither (`httpdate` also refuses a date before
/// 1970, a weekday that does not match the date, and a second of 60).
pub fn parse_retry_after(value: &str, now_ms: f64) -> Option<u64> {
    let v = value.trim_ascii();
    if v.is_empty() {
        return None;
    }
    if v.bytes().all(|b| b.is_ascii_digit()) {
        let secs = if v.len() > 12 {
            u64::MAX / 1000
        } else {
            crate::inputs::digits(v)?
        };
        return Some(secs.saturating_mul(1000));
    }
    let at = httpdate::parse_http_date(v).ok()?;
    let at_ms = at.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs() as f64 * 1000.0;
    let now = if now_ms.is_finite() { now_ms } else { 0.0 };
    Some(if at_ms <= now {
        0
    } else {
        (at_ms - now).ceil() as u64
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn err(code: Code, status: Option<u16>) -> Error {
        let mut e = Error::new(code, "x");
        e.status = status;
        e
    }

    #[test]
    fn which_failures_retry() {
        assert!(is_retryable(&err(Code::Network, None)));
        assert!(is_retryable(&err(Code::Timeout, None)));
        assert!(is_retryable(&err(Code::RateLimited, Some(429))));
        for s in [502, 503, 504] {
            assert!(is_retryable(&err(Code::Http, Some(s))), "{s}");
        }
        for s in [400, 404, 409, 422, 500, 501, 505] {
            assert!(!is_retryable(&err(Code::Http, Some(s))), "{s}");
        }
        for c in [
            Code::Unauthorized,
            Code::Forbidden,
            Code::Graphql,
            Code::Decode,
            Code::Aborted,
            Code::InvalidInput,
        ] {
            assert!(!is_retryable(&err(c, Some(200))), "{c:?}");
        }
    }

    #[test]
    fn transient_failures_of_a_polling_loop() {
        assert!(is_transient(&err(Code::Network, None)));
        assert!(is_transient(&err(Code::Timeout, None)));
        assert!(is_transient(&err(Code::RateLimited, Some(429))));
        assert!(is_transient(&err(Code::OutcomeUnknown, None)));
        for s in [500, 501, 502, 503, 504, 505, 599] {
            assert!(is_transient(&err(Code::Http, Some(s))), "{s}");
        }
        for s in [400, 404, 409, 422] {
            assert!(!is_transient(&err(Code::Http, Some(s))), "{s}");
        }
        for c in [
            Code::Unauthorized,
            Code::Forbidden,
            Code::Graphql,
            Code::Decode,
            Code::Aborted,
            Code::InvalidInput,
        ] {
            assert!(!is_transient(&err(c, Some(200))), "{c:?}");
        }
    }

    #[test]
    fn backoff_bounds() {
        assert_eq!(delay_ms(0, None, 0.0), 0);
        assert!(delay_ms(0, None, 0.999_999) <= 200);
        assert_eq!(delay_ms(0, None, 0.5), 100);
        assert_eq!(delay_ms(1, None, 0.5), 200);
        assert_eq!(delay_ms(2, None, 0.5), 400);
        assert_eq!(delay_ms(4, None, 0.5), 1600);
        assert_eq!(delay_ms(5, None, 0.5), 2500); // capped at 5000
        assert_eq!(delay_ms(60, None, 0.5), 2500);
        assert_eq!(delay_ms(u32::MAX, None, 0.999), 4995);
        assert_eq!(delay_ms(3, None, f64::NAN), 0);
        assert!(delay_ms(3, None, 7.0) <= 1600);
    }

    #[test]
    fn retry_after_wins_and_is_capped() {
        assert_eq!(delay_ms(0, Some(3_000), 0.9), 3_000);
        assert_eq!(delay_ms(0, Some(0), 0.9), 0);
        assert_eq!(delay_ms(5, Some(120_000), 0.9), 60_000);
        assert_eq!(delay_ms(5, Some(u64::MAX), 0.9), 60_000);
    }

    #[test]
    fn retry_after_values() {
        let now = 1_445_412_470_000.0; // 2015-10-21T07:27:50Z
        assert_eq!(parse_retry_after("120", now), Some(120_000));
        assert_eq!(parse_retry_after(" 0 ", now), Some(0));
        assert_eq!(
            parse_retry_after("99999999999999999999", now),
            Some((u64::MAX / 1000) * 1000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(10_000)
        );
        assert_eq!(
            parse_retry_after("Wednesday, 21-Oct-15 07:28:00 GMT", now),
            Some(10_000)
        );
        assert_eq!(
            parse_retry_after("Wed Oct 21 07:28:00 2015", now),
            Some(10_000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(0)
        );
        for bad in [
            "",
            "soon",
            "-5",
            "1.5",
            "Wed, 32 Oct 2015 07:28:00 GMT",
            "Wed, 21 Foo 2015 07:28:00 GMT",
            "Wed, 21 Oct 2015 25:28:00 GMT",
            "Wed, 21 Oct 2015 GMT",
            "Wed, 21 Oct 2015 07:28:00 +0200",
        ] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn http_date_forms() {
        // With `now` at the epoch, a date's wait is its time since the epoch.
        let at = |v: &str| parse_retry_after(v, 0.0);
        assert_eq!(
            parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT", -1_000.0),
            Some(1_000)
        );
        assert_eq!(at("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777_000));
        assert_eq!(at("Sunday, 06-Nov-94 08:49:37 GMT"), Some(784_111_777_000));
        assert_eq!(at("Sun Nov  6 08:49:37 1994"), Some(784_111_777_000));
        assert_eq!(
            parse_retry_after("Thursday, 01-Jan-70 00:00:00 GMT", -1_000.0),
            Some(1_000)
        );
        assert_eq!(
            at("Saturday, 01-Jan-00 00:00:00 GMT"),
            Some(946_684_800_000)
        );
        for bad in [
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 994 08:49:37 GMT",
            "Sun, 006 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37:01 GMT",
            "Sun, 06 Nov 1994 08:49:371 GMT",
            "Sun, 06 1994 08:49:37 GMT",
            // Refused by httpdate: a weekday that does not match, an abbreviated one in the
            // RFC 850 form, a year before 1970.
            "Mon, 06 Nov 1994 08:49:37 GMT",
            "Sat, 01-Jan-00 00:00:00 GMT",
            "Thu, 01 Jan 1960 00:00:00 GMT",
        ] {
            assert_eq!(at(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn backoff_never_exceeds_bounds(attempt in 0u32..100, r in 0.0f64..1.0) {
            let d = delay_ms(attempt, None, r);
            let ceiling = if attempt >= 16 { MAX_DELAY_MS } else { (BASE_DELAY_MS << attempt).min(MAX_DELAY_MS) };
            prop_assert!(d <= ceiling);
            prop_assert_eq!(ceiling, ceiling_ms(BASE_DELAY_MS, MAX_DELAY_MS, attempt));
        }

        #[test]
        fn retry_after_never_panics(s in ".{0,40}", now in any::<f64>()) {
            let _ = parse_retry_after(&s, now);
        }
    }
}
