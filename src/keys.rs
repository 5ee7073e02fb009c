//! API keys: classification (public / secret / unknown) and the browser guard. Redaction
//! lives in [`crate::redact`].
//!
//! Keys look like `<service prefix>PUBK_<suffix>` (public, safe in a browser) or
//! `<service prefix>SECK_<suffix>` (secret, server side only), e.g. `XYZ-PUBK_abc123`.
//! Agent (bot) keys are secret-class: nothing may log, persist or echo them.

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

/// Whether `marker` occurs in `key` with something after it. Its first occurrence decides:
/// a later one would end later still.
fn has_marker(key: &str, marker: &str) -> bool {
    crate::text::find(key, marker).is_some_and(|i| i + marker.len() < key.len())
}

/// The browser guard of the merchant client: a secret key where page visitors can read it
/// (`browser_like`: a page or browser worker, see [`crate::host`]) is refused with
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

#[cfg(all(test, not(target_arch = "wasm32")))]
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
}
