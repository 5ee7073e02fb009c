//! The onchain ramp: the hosted page's link ([`onchain_ramp_url`]) and the check of the
//! events it posts back ([`accepts`]).
//!
//! A link carries the merchant **public** key in its query string, so it reaches every log,
//! proxy and browser history it passes through: a secret key is refused. The page posts
//! `{event: "crypto.requested", payload: {amountCents, destinationAddress, paymentRequest}}`
//! to its opener or parent with target origin `"*"`, so a listener must check the sender's
//! origin; [`accepts`] is that whole filter (origin and shape), written against
//! [`JsonValue`] so it is tested natively.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::amount;
use crate::config::{check_absolute_url, strip_prefix_ci};
use crate::error::Error;
use crate::inputs;
use crate::json::JsonValue;
use crate::keys::{classify, KeyKind};
#[cfg(feature = "typescript")]
use tsify::Tsify;

/// The event name of the message the ramp page posts when the app must send crypto.
pub const CRYPTO_REQUESTED: &str = "crypto.requested";

/// Options of `onchainRampUrl`: the query parameters of the hosted onchain ramp page.
/// Refused with `invalid_input` (`field` naming the option): a `rampUrl` that is not absolute
/// `https` (`http` only for `localhost` / `127.0.0.1`) or that has a query or fragment; a
/// `key` that is not public (a link leaks its key to every log and history); a `paymentType`
/// other than `deposit` / `withdrawal`; an empty `coin` or `network`; an `amount` that is not
/// a positive decimal; a `currency` that is not 3 letters; a `redirectUrl` that is not
/// absolute http(s). Optional values that are absent or `""` are left out of the link.
// The JavaScript example, in the TypeScript declarations only.
#[cfg_attr(feature = "typescript", doc = "")]
#[cfg_attr(feature = "typescript", doc = " @example")]
#[cfg_attr(feature = "typescript", doc = " ```js")]
#[cfg_attr(
    feature = "typescript",
    doc = " const link = onchainRampUrl({ rampUrl, key: publicKey, paymentType: \"deposit\", coin: \"USDC\","
)]
#[cfg_attr(
    feature = "typescript",
    doc = "   network: \"CELO\", amount: \"25.00\", reference: \"order-42\" });"
)]
#[cfg_attr(feature = "typescript", doc = " ```")]
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
pub struct OnchainRampOptions {
    /// The environment's hosted ramp page, e.g. `"https://ramp.example/onramp"`: absolute
    /// `https` (`http` only for `localhost` and `127.0.0.1`), without credentials, query or
    /// fragment.
    pub ramp_url: String,
    /// The merchant public key (`PUBK_`). Anything else is refused.
    pub key: String,
    /// `deposit` or `withdrawal`.
    #[cfg_attr(feature = "typescript", tsify(type = "\"deposit\" | \"withdrawal\""))]
    pub payment_type: String,
    /// The coin, e.g. `"USDC"` (not empty).
    pub coin: String,
    /// The network, e.g. `"CELO"`, `"BASE"`, `"OP"` (not empty).
    pub network: String,
    /// The wallet address.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub address: Option<String>,
    /// A positive decimal, e.g. `"25.00"` (text, never a float).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub amount: Option<String>,
    /// Your reference.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// Where the page sends the user afterwards (absolute http(s)).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub redirect_url: Option<String>,
    /// ISO 4217, e.g. `"NGN"`: 3 letters.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub currency: Option<String>,
    /// The customer's phone number.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub phone: Option<String>,
    /// Hide the address on the page.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub hide_address: Option<bool>,
    /// The page is opened from a wallet.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub is_wallet_context: Option<bool>,
}

// The shapes [`is_crypto_requested`] checks and `listenForRampEvents` takes. Declaration only:
// the check reads the message as a JSON value (no copy into Rust), so no Rust value of these
// types is ever built.

/// The payment request a `crypto.requested` event refers to (an id, or an object with at least these).
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
#[allow(dead_code)]
struct RampPaymentRequest {
    #[cfg_attr(feature = "typescript", tsify(optional))]
    id: Option<String>,
    #[cfg_attr(feature = "typescript", serde(default))]
    reference: Option<String>,
    #[cfg_attr(feature = "typescript", serde(default))]
    amount: Option<String>,
}

/// The `payload` of a `crypto.requested` event: send `amountCents` of the coin to `destinationAddress`.
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[allow(dead_code)]
struct RampEventPayload {
    /// A whole number ≥ 0.
    amount_cents: u32,
    destination_address: String,
    #[cfg_attr(feature = "typescript", tsify(type = "RampPaymentRequest | string"))]
    payment_request: RampPaymentRequest,
}

/// The message the hosted ramp page posts to its opener or parent.
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[allow(dead_code)]
struct RampEvent {
    #[cfg_attr(feature = "typescript", tsify(type = "\"crypto.requested\""))]
    event: String,
    payload: RampEventPayload,
}

/// Options of `listenForRampEvents`. Only messages whose `origin` is exactly `allowedOrigin`
/// and whose data is a well-formed `crypto.requested` event reach `onCryptoRequested`;
/// everything else is ignored. Invalid options throw `invalid_input`.
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[allow(dead_code)]
struct RampListenerOptions {
    /// The ramp page's origin as browsers write it, e.g. `"https://ramp.example"`: lower case, no default port, no path, no trailing `/`.
    allowed_origin: String,
    /// Called once per accepted message with its payload and the `MessageEvent`.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "(payload: RampEventPayload, event: MessageEvent<RampEvent>) => void")
    )]
    on_crypto_requested: (),
    /// Default `globalThis` (the window); it must have `addEventListener`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "RampEventTarget"))]
    target: (),
}

// Method signatures (what `window`, a worker or any `EventTarget` has), and index signatures
// (the page may send more members than the derived ones; merged into those interfaces):
// tsify's derive declares named data members only.
#[cfg(feature = "typescript")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const RAMP_EVENT_TARGET_TS: &'static str = r#"
/** Where `listenForRampEvents` listens: `window` (the default, `globalThis`), a worker, or any `EventTarget`. */
export interface RampEventTarget {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

export interface RampPaymentRequest { [field: string]: unknown }
export interface RampEventPayload { [field: string]: unknown }
"#;

/// The bytes a query value keeps as they are: RFC 3986's unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`); every other byte of its UTF-8 form becomes `%XX`.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A link being written: the ramp page's URL, then `?name=value&…`.
struct Link(String);

impl Link {
    /// Appends `name=value`, the value percent-encoded.
    fn push(&mut self, name: &str, value: &str) {
        self.0.push(if self.0.contains('?') { '&' } else { '?' });
        self.0.push_str(name);
        self.0.push('=');
        self.0.extend(utf8_percent_encode(value, QUERY_VALUE));
    }

    /// An optional parameter: left out when absent or blank, else checked by `check` and
    /// appended.
    fn optional(
        &mut self,
        name: &str,
        value: Option<&str>,
        check: impl FnOnce(&str) -> Result<(), Error>,
    ) -> Result<(), Error> {
        match value {
            Some(v) if !v.trim_ascii().is_empty() => {
                check(v)?;
                self.push(name, v);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Checks `rampUrl` — an absolute URL without credentials, query or fragment, `https`, or
/// `http` for `localhost` / `127.0.0.1` (any port).
fn check_ramp_url(ramp_url: &str) -> Result<(), Error> {
    const FIELD: &str = "rampUrl";
    check_absolute_url(FIELD, ramp_url, false)?;
    if let Some(rest) = strip_prefix_ci(ramp_url, "http://") {
        let end = rest
            .bytes()
            .position(|b| b == b'/' || b == b':')
            .unwrap_or(rest.len());
        let host = rest.get(..end).unwrap_or("");
        if !host.eq_ignore_ascii_case("localhost") && host != "127.0.0.1" {
            return Err(Error::invalid(
                FIELD,
                "rampUrl must be https (http only for localhost or 127.0.0.1)",
            ));
        }
    }
    Ok(())
}

/// The hosted onchain ramp link: `rampUrl` with `key`, `paymentType`, `coin`, `network` and
/// the optional parameters appended in that order (`address`, `amount`, `reference`,
/// `redirectUrl`, `currency`, `phone`, `hideAddress`, `isWalletContext`), every value
/// percent-encoded, booleans as `true`/`false`, blank optional ones left out. Refused
/// (`invalid_input`, `field` naming the option): a `rampUrl` that is not absolute `https`
/// (`http` only for localhost), a key that is not public, a `paymentType` other than
/// `deposit`/`withdrawal`, an empty `coin` or `network`, an `amount` that is not a positive
/// decimal, a `currency` that is not 3 letters, a `redirectUrl` that is not absolute
/// `http(s)`.
pub fn onchain_ramp_url(o: &OnchainRampOptions) -> Result<String, Error> {
    check_ramp_url(&o.ramp_url)?;
    let mut link = Link(o.ramp_url.clone());
    if classify(&o.key) != KeyKind::Public {
        return Err(Error::invalid(
            "key",
            "key must be the public key (PUBK_): a link leaks its key to every log and history",
        ));
    }
    link.push("key", o.key.trim_ascii());
    if !matches!(o.payment_type.as_str(), "deposit" | "withdrawal") {
        return Err(Error::invalid(
            "paymentType",
            "paymentType must be \"deposit\" or \"withdrawal\"",
        ));
    }
    link.push("paymentType", &o.payment_type);
    for (name, value) in [("coin", &o.coin), ("network", &o.network)] {
        inputs::non_empty(name, value)?;
        link.push(name, value);
    }
    let any = |_: &str| Ok(());
    link.optional("address", o.address.as_deref(), any)?;
    link.optional("amount", o.amount.as_deref(), |v| {
        if amount::is_positive(v) {
            Ok(())
        } else {
            Err(Error::invalid(
                "amount",
                "amount must be a positive decimal such as \"25.00\"",
            ))
        }
    })?;
    link.optional("reference", o.reference.as_deref(), any)?;
    link.optional("redirectUrl", o.redirect_url.as_deref(), |v| {
        check_absolute_url("redirectUrl", v, true)
    })?;
    link.optional("currency", o.currency.as_deref(), |v| {
        if v.len() == 3 && v.bytes().all(|b| b.is_ascii_alphabetic()) {
            Ok(())
        } else {
            Err(Error::invalid(
                "currency",
                "currency must be a 3-letter ISO 4217 code",
            ))
        }
    })?;
    link.optional("phone", o.phone.as_deref(), any)?;
    let flag = |b: Option<bool>| b.map(|b| if b { "true" } else { "false" });
    link.optional("hideAddress", flag(o.hide_address), any)?;
    link.optional("isWalletContext", flag(o.is_wallet_context), any)?;
    Ok(link.0)
}

/// Checks a listener's `allowedOrigin`: an origin exactly as `MessageEvent.origin` reports
/// it, `scheme://host[:port]` in lower case, ASCII (punycode) host, no default port, without
/// path or trailing `/`. Anything else would never match, and the listener would stay silent.
pub fn check_origin(origin: &str) -> Result<(), Error> {
    const FIELD: &str = "allowedOrigin";
    check_absolute_url(FIELD, origin, false)?;
    let rest = strip_prefix_ci(origin, "https://")
        .or_else(|| strip_prefix_ci(origin, "http://"))
        .unwrap_or("");
    let default_port = if origin.starts_with("https:") {
        ":443"
    } else {
        ":80"
    };
    if rest.bytes().any(|b| b == b'/' || b >= 0x80)
        || origin.bytes().any(|b| b.is_ascii_uppercase())
        || rest.ends_with(default_port)
    {
        return Err(Error::invalid(
            FIELD,
            "allowedOrigin must be an origin as browsers report it, such as \"https://ramp.example\" \
(lower case, no default port, path or trailing /)",
        ));
    }
    Ok(())
}

/// Whether `data` is a `crypto.requested` message of the documented shape: `event` is
/// `"crypto.requested"`, and `payload` is an object with `amountCents` (a whole number
/// ≥ 0), `destinationAddress` (a non-empty string) and `paymentRequest` (an object or a
/// non-empty string). Values are compared as JSON values (no copies on wasm32).
pub fn is_crypto_requested<J: JsonValue>(data: &J) -> bool {
    let text = |v: &J| v.string().is_some_and(|s| !s.is_empty());
    if data.member("event") != Some(J::from_text(CRYPTO_REQUESTED)) {
        return false;
    }
    let Some(p) = data.member("payload").filter(JsonValue::is_object) else {
        return false;
    };
    let cents = p.member("amountCents").and_then(|v| v.number());
    cents.is_some_and(|n| n >= 0.0 && n.fract() == 0.0)
        && p.member("destinationAddress").is_some_and(|a| text(&a))
        && p.member("paymentRequest")
            .is_some_and(|r| r.is_object() || text(&r))
}

/// The whole listener filter: `origin` (a message's `origin`) is exactly the string
/// `allowed_origin`, and `data` is a `crypto.requested` message ([`is_crypto_requested`]).
pub fn accepts<J: JsonValue>(allowed_origin: &J, origin: &J, data: &J) -> bool {
    origin == allowed_origin && allowed_origin.string().is_some() && is_crypto_requested(data)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::error::Code;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    const PUBLIC: &str = "SBX-PUBK_merchantdemo01";

    fn opts() -> OnchainRampOptions {
        OnchainRampOptions {
            ramp_url: "https://ramp.example/onramp".into(),
            key: PUBLIC.into(),
            payment_type: "deposit".into(),
            coin: "USDC".into(),
            network: "CELO".into(),
            ..Default::default()
        }
    }

    fn field(o: &OnchainRampOptions) -> String {
        let e = onchain_ramp_url(o).expect_err("refused");
        assert_eq!(e.code, Code::InvalidInput);
        assert!(!e.message.contains("SECK_"), "{}", e.message);
        e.field.clone().expect("names a field")
    }

    /// Decodes a query string the way `URLSearchParams` does (`+` is a space).
    fn query_pairs(url: &str) -> Vec<(String, String)> {
        let q = url.split_once('?').map_or("", |(_, q)| q);
        let decode = |s: &str| {
            let b = s.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < b.len() {
                match b[i] {
                    b'%' => {
                        out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                        i += 3;
                    }
                    b'+' => {
                        out.push(b' ');
                        i += 1;
                    }
                    c => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            String::from_utf8(out).unwrap()
        };
        q.split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (decode(k), decode(v))
            })
            .collect()
    }

    #[test]
    fn minimal_link() {
        assert_eq!(
            onchain_ramp_url(&opts()).unwrap(),
            "https://ramp.example/onramp?key=SBX-PUBK_merchantdemo01&paymentType=deposit&coin=USDC&network=CELO"
        );
    }

    #[test]
    fn every_parameter_in_order_and_booleans() {
        let mut o = opts();
        o.payment_type = "withdrawal".into();
        o.address = Some("0xabc".into());
        o.amount = Some("25.00".into());
        o.reference = Some("REF-1".into());
        o.redirect_url = Some("https://shop.example/done?x=1".into());
        o.currency = Some("NGN".into());
        o.phone = Some("+234 800 000".into());
        o.hide_address = Some(true);
        o.is_wallet_context = Some(false);
        let url = onchain_ramp_url(&o).unwrap();
        let names: Vec<String> = query_pairs(&url).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            [
                "key",
                "paymentType",
                "coin",
                "network",
                "address",
                "amount",
                "reference",
                "redirectUrl",
                "currency",
                "phone",
                "hideAddress",
                "isWalletContext"
            ]
        );
        assert!(
            url.ends_with("&hideAddress=true&isWalletContext=false"),
            "{url}"
        );
        assert!(url.contains("&phone=%2B234%20800%20000&"), "{url}");
        assert!(
            url.contains("redirectUrl=https%3A%2F%2Fshop.example%2Fdone%3Fx%3D1&"),
            "{url}"
        );
    }

    #[test]
    fn optional_values_absent_or_empty_are_omitted() {
        let mut o = opts();
        o.address = Some(String::new());
        o.amount = Some(String::new());
        o.currency = Some(String::new());
        o.redirect_url = Some(String::new());
        o.reference = Some("  ".into());
        o.phone = Some("\t\n".into());
        assert_eq!(
            onchain_ramp_url(&o).unwrap(),
            onchain_ramp_url(&opts()).unwrap()
        );
    }

    #[test]
    fn hostile_values_round_trip() {
        let hostile = [
            "a b",
            "a&b=c",
            "#frag",
            "x=y",
            "100%",
            "+plus",
            "é ü 中文 🚀",
            "a/b?c",
            "\"quoted\" 'single'",
            "<script>",
            "line\nbreak",
            "tab\t",
            "&&==##",
            "%20",
            "~._-",
        ];
        for v in hostile {
            let mut o = opts();
            o.coin = v.into();
            o.network = v.into();
            o.address = Some(v.into());
            o.reference = Some(v.into());
            o.phone = Some(v.into());
            let url = onchain_ramp_url(&o).unwrap();
            assert!(!url.contains(' ') && !url.contains('#'), "{url}");
            assert_eq!(url.matches('?').count(), 1, "{url}");
            let pairs = query_pairs(&url);
            assert_eq!(pairs.len(), 7, "{url}");
            for (k, val) in &pairs[2..] {
                assert_eq!(val, v, "{k} in {url}");
            }
        }
    }

    #[test]
    fn ramp_urls() {
        for ok in [
            "https://ramp.example",
            "HTTPS://ramp.example/path",
            "http://localhost:8787/hosted/ramp",
            "http://LOCALHOST/hosted/ramp",
            "http://127.0.0.1:9000/hosted/ramp",
            "http://127.0.0.1",
        ] {
            let mut o = opts();
            o.ramp_url = ok.into();
            assert!(onchain_ramp_url(&o).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "ramp.example/onramp",
            "/hosted/ramp",
            "http://ramp.example/onramp",
            "http://localhost.evil.example/",
            "http://127.0.0.1.nip.io/",
            "http://127.0.0.2/",
            "ftp://ramp.example",
            "javascript:alert(1)",
            "https://ramp.example/r#x",
            "https://ramp.example/r?theme=dark",
            "https://ramp.example/r?",
            "https://user:pw@ramp.example",
            "https://ramp .example",
            "https://",
        ] {
            let mut o = opts();
            o.ramp_url = bad.into();
            assert_eq!(field(&o), "rampUrl", "{bad:?}");
        }
    }

    #[test]
    fn every_refusal_names_its_field() {
        type Change = Box<dyn Fn(&mut OnchainRampOptions)>;
        let cases: Vec<(&str, Change)> = vec![
            (
                "key",
                Box::new(|o| o.key = "SBX-SECK_merchantdemo01".into()),
            ),
            ("key", Box::new(|o| o.key = "plain".into())),
            ("key", Box::new(|o| o.key = String::new())),
            ("key", Box::new(|o| o.key = "XYZ-PUBK_aSECK_b".into())),
            (
                "paymentType",
                Box::new(|o| o.payment_type = "Deposit".into()),
            ),
            (
                "paymentType",
                Box::new(|o| o.payment_type = "refund".into()),
            ),
            ("paymentType", Box::new(|o| o.payment_type = String::new())),
            ("coin", Box::new(|o| o.coin = String::new())),
            ("coin", Box::new(|o| o.coin = "  ".into())),
            ("network", Box::new(|o| o.network = String::new())),
            ("amount", Box::new(|o| o.amount = Some("0".into()))),
            ("amount", Box::new(|o| o.amount = Some("-5".into()))),
            ("amount", Box::new(|o| o.amount = Some("1e3".into()))),
            ("amount", Box::new(|o| o.amount = Some("12,50".into()))),
            ("amount", Box::new(|o| o.amount = Some(" 5".into()))),
            ("currency", Box::new(|o| o.currency = Some("NG".into()))),
            ("currency", Box::new(|o| o.currency = Some("NGNN".into()))),
            ("currency", Box::new(|o| o.currency = Some("N1N".into()))),
            ("currency", Box::new(|o| o.currency = Some("ÑGN".into()))),
            (
                "redirectUrl",
                Box::new(|o| o.redirect_url = Some("/done".into())),
            ),
            (
                "redirectUrl",
                Box::new(|o| o.redirect_url = Some("javascript:alert(1)".into())),
            ),
            (
                "redirectUrl",
                Box::new(|o| o.redirect_url = Some("shop.example".into())),
            ),
        ];
        for (expected, change) in cases {
            let mut o = opts();
            change(&mut o);
            assert_eq!(field(&o), expected);
        }
        // redirectUrl takes no same-origin path, and its message does not offer one.
        let mut o = opts();
        o.redirect_url = Some("javascript:alert(1)".into());
        let m = onchain_ramp_url(&o).unwrap_err().message.clone();
        assert_eq!(m, "redirectUrl must be an absolute http(s) URL");
        let mut o = opts();
        o.currency = Some("ngn".into());
        o.redirect_url = Some("http://shop.example/back".into());
        o.amount = Some("0.01".into());
        assert!(onchain_ramp_url(&o).is_ok());
    }

    proptest! {
        #[test]
        fn any_values_round_trip(coin in ".{1,12}", reference in any::<String>(), phone in any::<String>()) {
            prop_assume!(!coin.trim_ascii().is_empty());
            let mut o = opts();
            o.coin = coin.clone();
            o.reference = Some(reference.clone());
            o.phone = Some(phone.clone());
            let url = onchain_ramp_url(&o).unwrap();
            prop_assert!(url.bytes().all(|b| b.is_ascii_graphic()), "{}", url);
            let pairs = query_pairs(&url);
            prop_assert_eq!(&pairs[2], &("coin".to_string(), coin));
            let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            // Blank (empty or ASCII-whitespace-only) optional values are left out.
            prop_assert_eq!(get("reference"), (!reference.trim_ascii().is_empty()).then_some(reference));
            prop_assert_eq!(get("phone"), (!phone.trim_ascii().is_empty()).then_some(phone));
        }

        #[test]
        fn refusals_never_panic(url in ".{0,30}", key in ".{0,20}", amount in ".{0,8}", currency in ".{0,4}") {
            let mut o = opts();
            o.ramp_url = url;
            o.key = key;
            o.amount = Some(amount);
            o.currency = Some(currency);
            if let Err(e) = onchain_ramp_url(&o) {
                prop_assert_eq!(e.code, Code::InvalidInput);
                prop_assert!(e.field.is_some());
            }
        }
    }

    #[test]
    fn origins() {
        for ok in [
            "https://ramp.example",
            "http://127.0.0.1:9000",
            "http://localhost:1",
        ] {
            assert!(check_origin(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            "*",
            "null",
            "https://ramp.example/",
            "https://ramp.example/path",
            "https://ramp.example?x",
            "ramp.example",
            "https://user@ramp.example",
            // Never what MessageEvent.origin reports, so the listener would never fire.
            "HTTPS://ramp.example",
            "https://Ramp.example",
            "https://ramp.example:443",
            "http://localhost:80",
            "https://b\u{fc}cher.example",
        ] {
            let e = check_origin(bad).expect_err(bad);
            assert_eq!(e.field.as_deref(), Some("allowedOrigin"), "{bad:?}");
        }
    }

    fn event() -> Value {
        json!({"event": "crypto.requested", "payload": {
            "amountCents": 2500, "destinationAddress": "0x5A4D",
            "paymentRequest": {"id": "sbx_pr_REF-1", "reference": "REF-1"}}})
    }

    #[test]
    fn event_shape() {
        assert!(is_crypto_requested(&event()));
        let mut e = event();
        e["payload"]["paymentRequest"] = json!("pr_1");
        assert!(is_crypto_requested(&e), "paymentRequest may be an id");
        e["payload"]["amountCents"] = json!(0);
        assert!(is_crypto_requested(&e), "0 cents (no amount given)");
        let mut extra = event();
        extra["payload"]["more"] = json!(1);
        extra["other"] = json!(true);
        assert!(is_crypto_requested(&extra), "extra members are tolerated");

        type Break = Box<dyn Fn(&mut Value)>;
        let broken: Vec<Break> = vec![
            Box::new(|e| e["event"] = json!("crypto.sent")),
            Box::new(|e| e["event"] = json!("CRYPTO.REQUESTED")),
            Box::new(|e| e["event"] = json!(null)),
            Box::new(|e| {
                e.as_object_mut().unwrap().remove("event");
            }),
            Box::new(|e| e["payload"] = json!(null)),
            Box::new(|e| e["payload"] = json!([1])),
            Box::new(|e| e["payload"] = json!("x")),
            Box::new(|e| e["payload"]["amountCents"] = json!("2500")),
            Box::new(|e| e["payload"]["amountCents"] = json!(25.5)),
            Box::new(|e| e["payload"]["amountCents"] = json!(-1)),
            Box::new(|e| e["payload"]["amountCents"] = json!(null)),
            Box::new(|e| e["payload"]["destinationAddress"] = json!("")),
            Box::new(|e| e["payload"]["destinationAddress"] = json!(42)),
            Box::new(|e| {
                e["payload"]
                    .as_object_mut()
                    .unwrap()
                    .remove("destinationAddress");
            }),
            Box::new(|e| e["payload"]["paymentRequest"] = json!(null)),
            Box::new(|e| e["payload"]["paymentRequest"] = json!("")),
            Box::new(|e| e["payload"]["paymentRequest"] = json!(7)),
            Box::new(|e| {
                e["payload"]
                    .as_object_mut()
                    .unwrap()
                    .remove("paymentRequest");
            }),
        ];
        for (i, change) in broken.iter().enumerate() {
            let mut e = event();
            change(&mut e);
            assert!(!is_crypto_requested(&e), "case {i}: {e}");
        }
        for not_object in [
            json!(null),
            json!("crypto.requested"),
            json!([event()]),
            json!(1),
        ] {
            assert!(!is_crypto_requested(&not_object));
        }
    }

    #[test]
    fn origin_filter() {
        let allowed = json!("http://127.0.0.1:9000");
        assert!(accepts(&allowed, &allowed.clone(), &event()));
        for other in [
            "http://127.0.0.1:9001",
            "http://localhost:9000",
            "http://127.0.0.1:9000/",
            "null",
            "",
        ] {
            assert!(!accepts(&allowed, &json!(other), &event()), "{other}");
        }
        assert!(!accepts(&allowed, &Value::Null, &event()));
        assert!(
            !accepts(&json!(null), &Value::Null, &event()),
            "an origin is a string"
        );
        assert!(!accepts(
            &allowed,
            &allowed.clone(),
            &json!({"event": "other"})
        ));
    }
}
