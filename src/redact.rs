//! Redaction, in one place: nothing that reaches an error message, a thrown value or a log
//! may carry the API key. Plain text ([`redact`]) and parsed JSON ([`redact_value`]: GraphQL
//! error paths, extensions, partial data) are both cleaned here; [`crate::error::Error::redact`]
//! applies them to every text of an error.

use std::borrow::Cow;

use crate::json::JsonValue;

/// What replaces a key wherever it would otherwise appear in an error.
pub const REDACTED: &str = "[redacted]";

/// The byte index of the first occurrence of `needle` in `haystack` at or after `from`.
/// (A plain search: these texts are short, and it keeps the wasm small.)
pub fn find(haystack: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.is_empty() || h.len() < n.len() {
        return None;
    }
    (from..=h.len() - n.len()).find(|&i| h.get(i..i + n.len()) == Some(n))
}

/// Whether `needle` (non-empty) occurs in `haystack`.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle, 0).is_some()
}

/// Replaces every occurrence of `needle` (non-empty) in `haystack` with `with`.
pub fn replace_all<'a>(haystack: &'a str, needle: &str, with: &str) -> Cow<'a, str> {
    let Some(mut at) = find(haystack, needle, 0) else {
        return Cow::Borrowed(haystack);
    };
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    loop {
        // Matches of a UTF-8 needle start and end on character boundaries.
        out.push_str(haystack.get(last..at).unwrap_or(""));
        out.push_str(with);
        last = at + needle.len();
        match find(haystack, needle, last) {
            Some(next) => at = next,
            None => break,
        }
    }
    out.push_str(haystack.get(last..).unwrap_or(""));
    Cow::Owned(out)
}

/// Replaces every occurrence of `key` in `text` with `"[redacted]"`. An empty key redacts
/// nothing.
pub fn redact<'a>(text: &'a str, key: &str) -> Cow<'a, str> {
    replace_all(text, key, REDACTED)
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
    if !contains(&text, escaped) && !contains(&text, secret) {
        return value.clone();
    }
    let mut cleaned = replace_all(&text, escaped, REDACTED).into_owned();
    if contains(&cleaned, secret) {
        cleaned = replace_all(&cleaned, secret, REDACTED).into_owned();
    }
    // A secret that matches JSON punctuation could break the text; never hand back the
    // original in that case.
    J::parse_text(&cleaned)
        .unwrap_or_else(|| J::parse_text("\"[redacted]\"").unwrap_or_else(J::null))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn search() {
        assert_eq!(find("abcabc", "bc", 0), Some(1));
        assert_eq!(find("abcabc", "bc", 2), Some(4));
        assert_eq!(find("abcabc", "bc", 5), None);
        assert_eq!(find("ab", "abc", 0), None);
        assert_eq!(find("abc", "", 0), None);
        assert_eq!(find("abc", "c", 9), None);
        assert_eq!(replace_all("aaa", "aa", "b"), "ba");
        assert_eq!(replace_all("é-é", "é", "e"), "e-e");
        assert_eq!(replace_all("xyz", "q", "e"), "xyz");
        assert!(contains("hello", "ll") && !contains("hello", "lo!"));
    }

    proptest::proptest! {
        #[test]
        fn search_matches_std(h in "[ab€]{0,12}", n in "[ab€]{1,3}") {
            proptest::prop_assert_eq!(find(&h, &n, 0), h.find(n.as_str()));
            proptest::prop_assert_eq!(replace_all(&h, &n, "[r]").into_owned(), h.replace(n.as_str(), "[r]"));
        }
    }

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
