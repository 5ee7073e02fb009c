//! API keys: classification (public / secret / unknown) and redaction.
//!
//! Keys look like `<service prefix>PUBK_<suffix>` (public, safe in a browser) or
//! `<service prefix>SECK_<suffix>` (secret, server side only), e.g. `XYZ-PUBK_abc123`.
//! Agent (bot) keys are secret-class: nothing may log, persist or echo them.

use std::borrow::Cow;

/// What replaces a key wherever it would otherwise appear in an error.
pub const REDACTED: &str = "[redacted]";

const PUBLIC_MARKER: &str = "PUBK_";
const SECRET_MARKER: &str = "SECK_";

/// The class of an API key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyKind {
    /// Carries the `PUBK_` marker: safe in a browser, read-only calls.
    Public,
    /// Carries the `SECK_` marker: server side only.
    Secret,
    /// Neither marker (or nothing after it).
    Unknown,
}

impl KeyKind {
    /// `"public"`, `"secret"` or `"unknown"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Public => "public",
            KeyKind::Secret => "secret",
            KeyKind::Unknown => "unknown",
        }
    }
}

/// Classifies a key by its `PUBK_` / `SECK_` marker, which may follow any prefix and must be
/// followed by a non-empty suffix. A key carrying a secret marker anywhere is secret, even
/// if it also carries a public one (the safe answer for a browser).
pub fn classify(key: &str) -> KeyKind {
    let key = key.trim_ascii();
    if has_marker(key, SECRET_MARKER) {
        KeyKind::Secret
    } else if has_marker(key, PUBLIC_MARKER) {
        KeyKind::Public
    } else {
        KeyKind::Unknown
    }
}

fn has_marker(key: &str, marker: &str) -> bool {
    let mut from = 0;
    while let Some(i) = find(key, marker, from) {
        if i + marker.len() < key.len() {
            return true;
        }
        from = i + 1;
    }
    false
}

/// The browser guard of the merchant client: a secret key where page visitors can read it
/// (`browser_like`: a `window`, `document` or worker global scope) is refused with
/// `secret_key_in_browser`, unless `dangerously_allow_browser`. Public keys, unknown keys,
/// no key (a proxy adds it) and any key off the browser (Node, servers) pass.
pub fn browser_guard(
    key: Option<&str>,
    browser_like: bool,
    dangerously_allow_browser: bool,
) -> Result<(), crate::error::Error> {
    if browser_like && !dangerously_allow_browser && key.map(classify) == Some(KeyKind::Secret) {
        let mut e = crate::error::Error::new(
            crate::error::Code::SecretKeyInBrowser,
            "A secret key (SECK_) must not be used in a browser, where anyone can read it: use \
the public key (PUBK_) here, and make secret-key calls on a server or through a proxy endpoint \
that adds the key (dangerouslyAllowBrowser: true overrides this check).",
        );
        e.field = Some("apiKey".into());
        return Err(e);
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        assert_eq!(classify("XYZ-PUBK_abc123"), KeyKind::Public);
        assert_eq!(classify("XYZ-SECK_abc123"), KeyKind::Secret);
        assert_eq!(classify("PUBK_x"), KeyKind::Public);
        assert_eq!(classify("SECK_x"), KeyKind::Secret);
        assert_eq!(classify("long_prefix-with-dashes_SECK_x"), KeyKind::Secret);
        assert_eq!(classify("  XYZ-PUBK_abc  "), KeyKind::Public);
        assert_eq!(classify("XYZ-PUBK_"), KeyKind::Unknown);
        assert_eq!(classify("XYZ-SECK_"), KeyKind::Unknown);
        assert_eq!(classify("xyz-pubk_abc"), KeyKind::Unknown);
        assert_eq!(classify("abc123"), KeyKind::Unknown);
        assert_eq!(classify(""), KeyKind::Unknown);
        // Secret wins when both markers appear.
        assert_eq!(classify("PUBK_aSECK_b"), KeyKind::Secret);
        assert_eq!(classify("SECK_aPUBK_b"), KeyKind::Secret);
        assert_eq!(KeyKind::Public.as_str(), "public");
        assert_eq!(KeyKind::Secret.as_str(), "secret");
        assert_eq!(KeyKind::Unknown.as_str(), "unknown");
    }

    #[test]
    fn browser_guard_decision_table() {
        use crate::error::Code;
        let keys = [
            (Some("XYZ-SECK_abc"), KeyKind::Secret),
            (Some("XYZ-PUBK_abc"), KeyKind::Public),
            (Some("abc123"), KeyKind::Unknown),
            (None, KeyKind::Unknown),
        ];
        for (key, kind) in keys {
            for browser in [false, true] {
                for allow in [false, true] {
                    let r = browser_guard(key, browser, allow);
                    let refused = kind == KeyKind::Secret && browser && !allow;
                    assert_eq!(
                        r.is_err(),
                        refused,
                        "{key:?} browser={browser} allow={allow}"
                    );
                    if let Err(e) = r {
                        assert_eq!(e.code, Code::SecretKeyInBrowser);
                        assert_eq!(e.code_str(), "secret_key_in_browser");
                        assert_eq!(e.field.as_deref(), Some("apiKey"));
                        assert!(!e.message.contains("abc"), "{}", e.message);
                        for why in ["server", "proxy", "public key", "dangerouslyAllowBrowser"] {
                            assert!(e.message.contains(why), "message says {why}: {}", e.message);
                        }
                    }
                }
            }
        }
    }

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
}
