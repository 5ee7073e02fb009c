//! Redaction, in one place: nothing that reaches an error message, a thrown value or a log
//! may carry the API key. Plain text ([`redact`]) and parsed JSON ([`redact_value`]: GraphQL
//! error paths, extensions, partial data) are both cleaned here; [`crate::error::Error::redact`]
//! applies them to every text of an error.

use std::borrow::Cow;

use crate::json::JsonValue;

/// What replaces a key wherever it would otherwise appear in an error.
pub const REDACTED: &str = "[redacted]";

/// The shortest run of a key's secret part that is redacted wherever it appears.
pub const MIN_PIECE: usize = 8;

/// The part of `key` whose pieces are secret: what follows its first `PUBK_`/`SECK_` marker,
/// or the whole key when it has none.
pub fn secret_part(key: &str) -> &str {
    [
        crate::text::find(key, "PUBK_"),
        crate::text::find(key, "SECK_"),
    ]
    .into_iter()
    .flatten()
    .min()
    .and_then(|i| key.get(i + 5..))
    .filter(|s| !s.is_empty())
    .unwrap_or(key)
}

/// Replaces every run of [`MIN_PIECE`] or more bytes of `secret` in `text` (leftmost
/// first, each run as long as it goes) with `"[redacted]"`; `None` when there is none. After
/// it, no visible stretch of the text holds such a run. (Keys are ASCII, so matches start and
/// end on character boundaries.)
fn redact_pieces(text: &str, secret: &str) -> Option<String> {
    let s = secret.as_bytes();
    if s.len() < MIN_PIECE {
        return None;
    }
    // No slice indexing here: its bounds-check panic would link `core::fmt` into the wasm.
    let t = text.as_bytes();
    let (mut out, mut last, mut i) = (String::new(), 0, 0);
    while i + MIN_PIECE <= t.len() {
        // The longest run of `secret` that starts at `i`.
        let mut run = 0;
        for j in 0..s.len() {
            let mut n = 0;
            while t.get(i + n).is_some_and(|b| s.get(j + n) == Some(b)) {
                n += 1;
            }
            run = run.max(n);
        }
        if run >= MIN_PIECE {
            out.push_str(text.get(last..i).unwrap_or(""));
            out.push_str(REDACTED);
            i += run;
            last = i;
        } else {
            i += 1;
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(text.get(last..).unwrap_or(""));
    Some(out)
}

/// Redacts `key` from `text`: every occurrence of the whole key, and every run of
/// [`MIN_PIECE`] or more characters of its secret part ([`secret_part`]), becomes
/// `"[redacted]"`. An empty key redacts nothing.
pub fn redact<'a>(text: &'a str, key: &str) -> Cow<'a, str> {
    let whole = if !key.is_empty() && crate::text::contains(text, key) {
        Cow::Owned(crate::text::replace(text, key, REDACTED))
    } else {
        Cow::Borrowed(text)
    };
    match redact_pieces(&whole, secret_part(key)) {
        Some(cleaned) => Cow::Owned(cleaned),
        None => whole,
    }
}

/// Replaces every occurrence of `secret` anywhere in `value` (strings, object keys) with
/// `"[redacted]"`. Works on the serialised text, so it is one pass for any depth; the value
/// is returned unchanged when the secret does not occur.
pub fn redact_value<J: JsonValue>(value: &J, secret: &str) -> J {
    if secret.is_empty() {
        return value.clone();
    }
    let Some(text) = value.to_text() else {
        return value.clone();
    };
    // The secret as it appears inside a JSON string literal (the JSON serializer's own
    // escaping, quotes dropped).
    let quoted = J::from_text(secret).to_text().unwrap_or_default();
    let escaped = quoted
        .get(1..quoted.len().saturating_sub(1))
        .filter(|e| !e.is_empty())
        .unwrap_or(secret);
    let mut cleaned = redact(&text, escaped).into_owned();
    if escaped != secret {
        cleaned = redact(&cleaned, secret).into_owned();
    }
    if cleaned == text {
        return value.clone();
    }
    // A secret that matches JSON punctuation could break the text; never hand back the
    // original in that case.
    J::parse_text(&cleaned)
        .unwrap_or_else(|| J::parse_text("\"[redacted]\"").unwrap_or_else(J::null))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn redaction() {
        let key = "XYZ-SECK_abc123";
        assert_eq!(
            redact("invalid key XYZ-SECK_abc123", key),
            "invalid key [redacted]"
        );
        assert_eq!(
            redact("XYZ-SECK_abc123XYZ-SECK_abc123", key),
            "[redacted][redacted]"
        );
        assert_eq!(redact("nothing here", key), "nothing here");
        assert!(matches!(redact("nothing here", key), Cow::Borrowed(_)));
        assert_eq!(redact("anything", ""), "anything");
    }
    #[test]
    fn pieces() {
        let key = "LEAK-SECK_q7Zr9Vx2Kp4Wm8Tn3Hj6";
        assert_eq!(secret_part(key), "q7Zr9Vx2Kp4Wm8Tn3Hj6");
        assert_eq!(secret_part("PUBK_ab"), "ab");
        assert_eq!(secret_part("plainkey123"), "plainkey123");
        assert_eq!(secret_part("X-SECK_"), "X-SECK_");
        for (text, want) in [
            ("secret q7Zr9Vx2Kp4Wm8Tn3Hj6!", "secret [redacted]!"),
            ("LEAK-SECK_q7Zr9Vx2…", "LEAK-SECK_[redacted]…"),
            ("part Kp4Wm8Tn done", "part [redacted] done"),
            ("seven q7Zr9Vx only", "seven q7Zr9Vx only"),
            (
                "two q7Zr9Vx2 and Tn3Hj6Kp4Wm8Tn3Hj6",
                "two [redacted] and Tn3Hj6[redacted]",
            ),
            ("é q7Zr9Vx2Kp é", "é [redacted] é"),
            (key, "[redacted]"),
        ] {
            assert_eq!(redact(text, key), want, "{text}");
        }
        let v = json!({"m": "x Wm8Tn3Hj6 y", "q7Zr9Vx2Kp": [1]});
        let r = redact_value(&v, key).to_string();
        assert!(!r.contains("Wm8Tn3Hj") && !r.contains("q7Zr9Vx2"), "{r}");
    }

    proptest::proptest! {
        /// No run of 8 or more characters of the secret survives, wherever it sits.
        #[test]
        fn no_piece_survives(pre in "[a-zA-Z0-9 ]{0,12}", a in 0usize..20, len in 8usize..21, post in "[a-zA-Z0-9 ]{0,12}") {
            let secret = "q7Zr9Vx2Kp4Wm8Tn3Hj6";
            let key = "LEAK-SECK_q7Zr9Vx2Kp4Wm8Tn3Hj6";
            let end = (a + len).min(secret.len());
            proptest::prop_assume!(end - a >= 8);
            let text = format!("{pre}{}{post}", &secret[a..end]);
            let out = redact(&text, key).into_owned();
            for w in 0..=secret.len() - 8 {
                proptest::prop_assert!(!out.contains(&secret[w..w + 8]), "{} -> {}", text, out);
            }
        }
    }

    #[test]
    fn redaction_in_values() {
        let key = "XYZ-SECK_abc123";
        let v = json!({"message": "bad key XYZ-SECK_abc123!", "list": ["XYZ-SECK_abc123", 1], "XYZ-SECK_abc123": true});
        let r = redact_value(&v, key);
        let text = r.to_string();
        assert!(!text.contains(key), "{text}");
        assert_eq!(r["message"], "bad key [redacted]!");
        assert_eq!(r["list"][0], "[redacted]");
        assert_eq!(r["list"][1], 1);
        assert_eq!(r["[redacted]"], true);
        // Unchanged when absent.
        assert_eq!(redact_value(&v, "nope"), v);
        // Keys with characters JSON escapes.
        let odd = "k\"ey\\1";
        let v = json!({"m": "x k\"ey\\1 y"});
        assert_eq!(redact_value(&v, odd)["m"], "x [redacted] y");
        // A key that matches JSON punctuation never leaks the original.
        let v = json!([1, 2]);
        let r = redact_value(&v, "1,2");
        assert!(!r.to_string().contains("1,2"));
    }
}
