//! Client options shared by every client: endpoint (from `baseUrl` or `endpoint`), key,
//! timeout, retries and extra headers, validated once at construction.

use crate::error::Error;
#[cfg(feature = "typescript")]
use tsify::Tsify;

/// The bot (agent) endpoint's path under `baseUrl`.
pub const BOT_PATH: &str = "/service/bot/graphql";
/// The merchant endpoint's path under `baseUrl`.
pub const MERCHANT_PATH: &str = "/service/api/graphql";
/// Default per-attempt timeout.
pub const DEFAULT_TIMEOUT_MS: u32 = 30_000;
/// Default number of retries after the first attempt.
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// The longest timeout a JavaScript timer can express.
pub const MAX_TIMEOUT_MS: u32 = 2_147_483_647;

/// The message for an out-of-range `timeoutMs`.
pub const TIMEOUT_MESSAGE: &str = "timeoutMs must be an integer from 1 to 2147483647 (ms)";

/// Options of both clients: exactly one of `baseUrl` and `endpoint`. `BotClientOptions` and
/// `MerchantClientOptions` are these and a few more.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
pub struct ClientOptions {
    /// The service's base URL (absolute http/https); the endpoint path is appended
    /// (`/service/bot/graphql`, `/service/api/graphql`).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub base_url: Option<String>,
    /// A full endpoint URL instead, or a same-origin path starting with `/` (e.g. a proxy).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub endpoint: Option<String>,
    /// The key, sent as `Authorization: Bearer <key>`: the agent key of a `BotClient`; a
    /// merchant key, public in browsers and secret on servers, of a `MerchantClient`. Omit it
    /// behind a proxy that adds it.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub api_key: Option<String>,
    /// Per-attempt timeout in ms. Default 30000.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub timeout_ms: Option<u32>,
    /// Retries after the first attempt, for read-only calls. Default 2.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub max_retries: Option<u32>,
    /// Extra headers: a plain object of string (Latin-1) values; may not set Authorization or Content-Type.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "Record<string, string>")
    )]
    pub headers: Vec<(String, String)>,
}

/// Options of `new BotClient(…)`: exactly one of `baseUrl` and `endpoint`. Invalid options
/// throw a `SettlementError` (`invalid_input`, `field` naming the option) synchronously.
///
/// Read-only calls are retried after network errors, timeouts, 429, 502, 503 and 504, up to
/// `maxRetries` times, with exponential backoff and full jitter (200 ms base, 5 s cap), or
/// after the server's `Retry-After` (capped at 60 s). Mutations are never retried.
// The JavaScript example, in the TypeScript declarations only.
#[cfg_attr(feature = "typescript", doc = "")]
#[cfg_attr(feature = "typescript", doc = " @example")]
#[cfg_attr(feature = "typescript", doc = " ```js")]
#[cfg_attr(
    feature = "typescript",
    doc = " const bot = new BotClient({ baseUrl: \"https://api.example.com\", apiKey });"
)]
#[cfg_attr(feature = "typescript", doc = " ```")]
// Declaration only: [`ClientOptions`] and the `fetch` function the binding reads beside them
// (no Rust value carries a JavaScript function).
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[allow(dead_code)]
struct BotClientOptions {
    #[cfg_attr(feature = "typescript", serde(flatten))]
    options: ClientOptions,
    /// A fetch implementation to use instead of the global one.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "FetchLike"))]
    fetch: (),
    /// Where to write one line per attempt and per retry (and per failed call), redacted:
    /// `console`, or any object with `debug`, `info`, `warn` and `error` functions. Off by
    /// default.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "LoggerLike"))]
    logger: (),
}

// What the `fetch` option is: a function and the methods of what it returns, which tsify's
// derive (data members only) cannot declare.
#[cfg(feature = "typescript")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const FETCH_TS: &'static str = r#"
/** What the client needs from a `fetch` response. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** A `fetch` implementation, called with one built `Request` (the global `fetch` fits). */
export type FetchLike = (input: Request) => Promise<FetchResponseLike>;

/** The `logger` option: `console`, or any object with these four functions. */
export interface LoggerLike {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}
"#;

/// Options of a `BotClient`.
pub type BotOptions = ClientOptions;

/// Options of `new MerchantClient(…)`: those of `BotClientOptions`, with a merchant key;
/// requests go to `${baseUrl}/service/api/graphql`.
///
/// Front-end apps hold the merchant **public** key (`PUBK_`); servers hold the **secret** key
/// (`SECK_`). Where page visitors can read the key — a `window` or `document` global, or a
/// worker — a secret key makes the constructor throw a `SettlementError` with code
/// `secret_key_in_browser`: use the public key there, and make secret-key calls on a server
/// or through a proxy `endpoint` of yours that adds the key. In Node a secret key is normal.
// The JavaScript example, in the TypeScript declarations only.
#[cfg_attr(feature = "typescript", doc = "")]
#[cfg_attr(feature = "typescript", doc = " @example")]
#[cfg_attr(feature = "typescript", doc = " ```js")]
#[cfg_attr(
    feature = "typescript",
    doc = " // Browser: public key, public-key-safe reads."
)]
#[cfg_attr(
    feature = "typescript",
    doc = " const merchant = new MerchantClient({ baseUrl: \"https://api.example.com\", apiKey: publicKey });"
)]
#[cfg_attr(
    feature = "typescript",
    doc = " // Browser, through your proxy (your server adds the secret key): no apiKey here."
)]
#[cfg_attr(
    feature = "typescript",
    doc = " const viaProxy = new MerchantClient({ endpoint: \"/api/merchant\" });"
)]
#[cfg_attr(feature = "typescript", doc = " ```")]
#[derive(Clone, Default, Debug)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "MerchantClientOptions"))]
pub struct MerchantOptions {
    /// Endpoint, key, timeout, retries, headers (the endpoint path is `/service/api/graphql`);
    /// in JavaScript, with `fetch` too.
    #[cfg_attr(feature = "typescript", serde(flatten))]
    #[cfg_attr(feature = "typescript", tsify(type = "BotClientOptions"))]
    pub client: ClientOptions,
    /// Accept a secret key in a browser anyway: anyone who opens the page can then read it.
    /// Default `false`. See [`crate::keys::browser_guard`].
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub dangerously_allow_browser: bool,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientOptions")
            .field("base_url", &self.base_url)
            .field("endpoint", &self.endpoint)
            .field(
                "api_key",
                &self.api_key.as_ref().map(|_| crate::redact::REDACTED),
            )
            .field("timeout_ms", &self.timeout_ms)
            .field("max_retries", &self.max_retries)
            .field("headers", &self.headers)
            .finish()
    }
}

/// Validated options, ready for requests.
#[derive(Clone)]
pub struct Config {
    endpoint: String,
    api_key: Option<String>,
    timeout_ms: u32,
    max_retries: u32,
    headers: Vec<(String, String)>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("endpoint", &self.endpoint)
            .field(
                "api_key",
                &self.api_key.as_ref().map(|_| crate::redact::REDACTED),
            )
            .field("timeout_ms", &self.timeout_ms)
            .field("max_retries", &self.max_retries)
            .finish()
    }
}

impl Config {
    /// Validates `options` for an endpoint at `path` under `baseUrl`.
    pub fn new(options: &ClientOptions, path: &str) -> Result<Config, Error> {
        let api_key = match options.api_key.as_deref() {
            None => None,
            Some(k) => {
                check_key(k)?;
                Some(k.to_owned())
            }
        };
        // A key-shaped token where no key belongs is refused before any check could echo it.
        refuse_key_token("baseUrl", options.base_url.as_deref())?;
        refuse_key_token("endpoint", options.endpoint.as_deref())?;
        for (name, value) in &options.headers {
            refuse_key_token("headers", Some(name))?;
            if !name.eq_ignore_ascii_case("authorization") {
                refuse_key_token("headers", Some(value))?;
            }
        }
        let endpoint = match (options.base_url.as_deref(), options.endpoint.as_deref()) {
            (Some(_), Some(_)) => {
                return Err(Error::invalid(
                    "endpoint",
                    "Pass either baseUrl or endpoint, not both",
                ))
            }
            (None, None) => {
                return Err(Error::invalid(
                    "baseUrl",
                    "Either baseUrl or endpoint is required",
                ))
            }
            (Some(base), None) => {
                check_absolute_url("baseUrl", base, false)?;
                let mut url = base.trim_end_matches('/').to_owned();
                url.push_str(path);
                url
            }
            (None, Some(ep)) => {
                if ep.starts_with('/') {
                    check_chars("endpoint", ep)?;
                    if ep.starts_with("//") || ep.starts_with("/\\") {
                        return Err(not_absolute("endpoint", true));
                    }
                } else if strip_prefix_ci(ep, "https://")
                    .or_else(|| strip_prefix_ci(ep, "http://"))
                    .is_none()
                {
                    // The one option that also takes a path says so.
                    return Err(not_absolute("endpoint", true));
                } else {
                    check_absolute_url("endpoint", ep, true)?;
                }
                ep.to_owned()
            }
        };
        if let Some(k) = &api_key {
            if !k.is_empty() && crate::text::contains(&endpoint, k) {
                let field = if options.endpoint.is_some() {
                    "endpoint"
                } else {
                    "baseUrl"
                };
                let mut m = String::from(field);
                m.push_str(" must not contain the API key; pass it as apiKey");
                return Err(Error::invalid(field, m));
            }
        }
        let timeout_ms = options.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        if timeout_ms == 0 || timeout_ms > MAX_TIMEOUT_MS {
            return Err(Error::invalid("timeoutMs", TIMEOUT_MESSAGE));
        }
        let max_retries = options.max_retries.unwrap_or(DEFAULT_MAX_RETRIES);

        let mut headers = Vec::with_capacity(options.headers.len() + 2);
        headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
        if let Some(k) = &api_key {
            let mut v = String::with_capacity(k.len() + 7);
            v.push_str("Bearer ");
            v.push_str(k);
            headers.push(("Authorization".to_owned(), v));
        }
        for (name, value) in &options.headers {
            check_header(name, value)?;
            headers.push((name.clone(), value.clone()));
        }
        Ok(Config {
            endpoint,
            api_key,
            timeout_ms,
            max_retries,
            headers,
        })
    }

    /// The endpoint URL requests go to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }
    /// The per-attempt timeout.
    pub fn timeout_ms(&self) -> u32 {
        self.timeout_ms
    }
    /// Retries after the first attempt.
    pub fn max_retries(&self) -> u32 {
        self.max_retries
    }
    /// Every request header (`Content-Type`, `Authorization` when a key is set, extras).
    pub(crate) fn headers(&self) -> &[(String, String)] {
        &self.headers
    }
    /// Whether a key is configured (without revealing it).
    pub fn has_api_key(&self) -> bool {
        self.api_key.is_some()
    }
    /// Removes the key from an error about to leave the client.
    pub fn redact(&self, err: Error) -> Error {
        err.redact(self.api_key.as_deref())
    }

    /// `text` with the key and every piece of it redacted (see [`crate::redact::redact`]).
    pub fn redact_text<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        match self.api_key.as_deref() {
            Some(key) => crate::redact::redact(text, key),
            None => std::borrow::Cow::Borrowed(text),
        }
    }
}

/// ASCII whitespace and control characters (non-ASCII ones are left to `fetch`, which
/// percent-encodes URLs; keys are ASCII in practice).
fn is_space_or_control(b: u8) -> bool {
    b <= b' ' || b == 0x7f
}

fn refuse_key_token(field: &str, value: Option<&str>) -> Result<(), Error> {
    // Key-shaped: a `PUBK_`/`SECK_` marker with a suffix (what `classify` recognises).
    if value.is_some_and(|v| crate::keys::classify(v) != crate::keys::KeyKind::Unknown) {
        let mut m = String::from(field);
        m.push_str(" must not carry an API key (a PUBK_/SECK_ token); pass it as apiKey");
        return Err(Error::invalid(field, m));
    }
    Ok(())
}

fn check_key(key: &str) -> Result<(), Error> {
    if key.is_empty() {
        return Err(Error::invalid("apiKey", "apiKey must not be empty"));
    }
    if key.bytes().any(|b| is_space_or_control(b) || b >= 0x80) {
        return Err(Error::invalid(
            "apiKey",
            "apiKey must be the bare key (visible ASCII), without \"Bearer \", spaces or line breaks",
        ));
    }
    Ok(())
}

fn check_chars(field: &str, url: &str) -> Result<(), Error> {
    if url.bytes().any(is_space_or_control) {
        let mut m = String::from(field);
        m.push_str(" must not contain spaces or control characters");
        return Err(Error::invalid(field, m));
    }
    Ok(())
}

pub(crate) fn check_absolute_url(field: &str, url: &str, allow_query: bool) -> Result<(), Error> {
    check_chars(field, url)?;
    let rest = if let Some(r) = strip_prefix_ci(url, "https://") {
        r
    } else if let Some(r) = strip_prefix_ci(url, "http://") {
        r
    } else {
        return Err(not_absolute(field, false));
    };
    let authority_end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority = rest.get(..authority_end).unwrap_or("");
    if authority.is_empty() || authority.starts_with(':') {
        let mut m = String::from(field);
        m.push_str(" must name a host");
        return Err(Error::invalid(field, m));
    }
    if authority.bytes().any(|b| b == b'@') {
        let mut m = String::from(field);
        m.push_str(" must not contain credentials (user:password@)");
        return Err(Error::invalid(field, m));
    }
    if !allow_query && rest.bytes().any(|b| b == b'?' || b == b'#') {
        let mut m = String::from(field);
        m.push_str(" must not contain a query (?) or fragment (#)");
        return Err(Error::invalid(field, m));
    }
    Ok(())
}

fn not_absolute(field: &str, path_allowed: bool) -> Error {
    let mut m = String::from(field);
    m.push_str(" must be an absolute http(s) URL");
    if path_allowed {
        m.push_str(" or a same-origin path starting with a single /");
    }
    Error::invalid(field, m)
}

pub(crate) fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    if head.eq_ignore_ascii_case(prefix) {
        s.get(prefix.len()..)
    } else {
        None
    }
}

fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn check_header(name: &str, value: &str) -> Result<(), Error> {
    if name.is_empty() || !name.bytes().all(is_token_char) {
        // Not a token: the name is not echoed, so the field is the option itself.
        return Err(Error::invalid(
            "headers",
            "headers: every name must be a valid HTTP header name",
        ));
    }
    // From here the name is a valid token, so it can name the field: `headers.x-trace`.
    let refuse = |what: &str| {
        let mut field = String::from("headers.");
        field.push_str(name);
        let mut m = field.clone();
        m.push_str(what);
        Error::invalid(&field, m)
    };
    if name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("content-type") {
        return Err(refuse(
            " may not be set: the client sets Authorization and Content-Type (use apiKey for the key)",
        ));
    }
    // fetch refuses the rest (and would on every retry): line breaks, NUL, beyond Latin-1.
    if value
        .chars()
        .any(|c| c == '\r' || c == '\n' || c == '\0' || c > '\u{ff}')
    {
        return Err(refuse(
            " may not contain line breaks, NUL or characters beyond Latin-1",
        ));
    }
    Ok(())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn opts(base: Option<&str>, endpoint: Option<&str>) -> ClientOptions {
        ClientOptions {
            base_url: base.map(Into::into),
            endpoint: endpoint.map(Into::into),
            ..Default::default()
        }
    }

    fn field(r: Result<Config, Error>) -> String {
        let e = r.expect_err("refused");
        assert_eq!(e.code, crate::error::Code::InvalidInput);
        e.field.clone().expect("names a field")
    }

    #[test]
    fn key_shaped_tokens_are_refused_unechoed() {
        let token = "LEAK-SECK_q7Zr9Vx2";
        for (base, ep, want) in [
            (Some("https://x.example/SECK_q7Zr9Vx2"), None, "baseUrl"),
            (None, Some("/proxy/LEAK-SECK_q7Zr9Vx2/bot"), "endpoint"),
            (None, Some("https://x.example/?k=PUBK_abc"), "endpoint"),
        ] {
            let e = Config::new(&opts(base, ep), BOT_PATH).expect_err("refused");
            assert_eq!(e.field.as_deref(), Some(want));
            assert!(!e.message.contains("q7Zr9Vx2") && !e.message.contains("PUBK_abc"));
        }
        let mut o = opts(None, Some("/proxy"));
        o.headers = vec![("x-key".into(), token.into())];
        let e = Config::new(&o, BOT_PATH).expect_err("refused");
        assert_eq!(e.field.as_deref(), Some("headers"));
        assert!(!e.message.contains("q7Zr9Vx2"), "{}", e.message);
        // A marker without a suffix is not a key.
        assert!(Config::new(&opts(None, Some("/x/SECK_")), BOT_PATH).is_ok());
    }

    #[test]
    fn base_url_and_trailing_slashes() {
        for base in [
            "https://api.example.com",
            "https://api.example.com/",
            "https://api.example.com///",
        ] {
            let c = Config::new(&opts(Some(base), None), BOT_PATH).unwrap();
            assert_eq!(c.endpoint(), "https://api.example.com/service/bot/graphql");
        }
        let c = Config::new(&opts(Some("http://localhost:8080/prefix/"), None), BOT_PATH).unwrap();
        assert_eq!(
            c.endpoint(),
            "http://localhost:8080/prefix/service/bot/graphql"
        );
        let c = Config::new(&opts(Some("HTTPS://X.example"), None), BOT_PATH).unwrap();
        assert_eq!(c.endpoint(), "HTTPS://X.example/service/bot/graphql");
    }

    #[test]
    fn endpoint_forms() {
        let c = Config::new(&opts(None, Some("/api/bot-proxy")), BOT_PATH).unwrap();
        assert_eq!(c.endpoint(), "/api/bot-proxy");
        let c = Config::new(
            &opts(None, Some("https://proxy.example/graphql?x=1")),
            BOT_PATH,
        )
        .unwrap();
        assert_eq!(c.endpoint(), "https://proxy.example/graphql?x=1");
        assert_eq!(
            field(Config::new(&opts(None, Some("//evil.example/x")), BOT_PATH)),
            "endpoint"
        );
        assert_eq!(
            field(Config::new(&opts(None, Some("/\\evil.example")), BOT_PATH)),
            "endpoint"
        );
        assert_eq!(
            field(Config::new(&opts(None, Some("api/graphql")), BOT_PATH)),
            "endpoint"
        );
        assert_eq!(
            field(Config::new(&opts(None, Some("ftp://x.example")), BOT_PATH)),
            "endpoint"
        );
    }

    #[test]
    fn only_endpoint_offers_a_path_in_its_message() {
        let e = Config::new(&opts(None, Some("api/graphql")), BOT_PATH).unwrap_err();
        assert!(e.message.contains("same-origin path"), "{}", e.message);
        let e = Config::new(&opts(Some("api.example.com"), None), BOT_PATH).unwrap_err();
        assert_eq!(e.message, "baseUrl must be an absolute http(s) URL");
    }

    #[test]
    fn exactly_one_of_base_url_and_endpoint() {
        let e = Config::new(&opts(None, None), BOT_PATH).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("baseUrl"));
        assert!(e.message.contains("baseUrl") && e.message.contains("endpoint"));
        let e = Config::new(&opts(Some("https://a.example"), Some("/x")), BOT_PATH).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("endpoint"));
        assert!(e.message.contains("not both"));
    }

    #[test]
    fn bad_base_urls() {
        for bad in [
            "",
            "api.example.com",
            "https://",
            "https:///x",
            "https://:443",
            "javascript:alert(1)",
            "https://a.example/?q=1",
            "https://a.example#x",
            "https://user:pw@a.example",
            "https://a .example",
            "https://a.example/\n",
            "file:///etc/passwd",
        ] {
            assert_eq!(
                field(Config::new(&opts(Some(bad), None), BOT_PATH)),
                "baseUrl",
                "{bad:?}"
            );
        }
    }

    #[test]
    fn keys_and_headers() {
        let mut o = opts(Some("https://a.example"), None);
        let c = Config::new(&o, BOT_PATH).unwrap();
        assert!(!c.has_api_key());
        assert_eq!(
            c.headers(),
            &[("Content-Type".to_owned(), "application/json".to_owned())]
        );

        o.api_key = Some("XYZ-SECK_abc".into());
        o.headers = vec![("X-Trace".into(), "1".into())];
        let c = Config::new(&o, BOT_PATH).unwrap();
        assert!(c.has_api_key());
        assert_eq!(
            c.headers()[1],
            ("Authorization".to_owned(), "Bearer XYZ-SECK_abc".to_owned())
        );
        assert_eq!(c.headers()[2], ("X-Trace".to_owned(), "1".to_owned()));
        let dbg = format!("{c:?} {o:?}");
        assert!(!dbg.contains("XYZ-SECK_abc"), "{dbg}");

        for (name, value) in [
            ("authorization", "x"),
            ("AUTHORIZATION", "x"),
            ("Content-Type", "text/plain"),
            ("content-type", "x"),
            ("Bad Name", "x"),
            ("", "x"),
            ("X-Ok", "a\r\nInjected: 1"),
            ("X-Ok", "caf\u{e9} \u{20ac}"),
        ] {
            o.headers = vec![(name.into(), value.into())];
            // A valid name names the field (`headers.X-Ok`); an invalid one is not echoed.
            let want = if name.is_empty() || name.contains(' ') {
                "headers".to_owned()
            } else {
                format!("headers.{name}")
            };
            assert_eq!(field(Config::new(&o, BOT_PATH)), want, "{name}");
        }
        // Latin-1 is what fetch takes in a header value.
        o.headers = vec![("X-Ok".into(), "caf\u{e9}".into())];
        assert!(Config::new(&o, BOT_PATH).is_ok());
        o.headers.clear();

        for bad in [
            "",
            "Bearer XYZ-SECK_abc",
            "XYZ-SECK_abc\n",
            " k",
            "XYZ-SECK_\u{e9}",
        ] {
            o.api_key = Some(bad.into());
            assert_eq!(field(Config::new(&o, BOT_PATH)), "apiKey", "{bad:?}");
        }
        o.api_key = Some("SECK_abc".into());
        o.base_url = Some("https://a.example/SECK_abc".into());
        let e = Config::new(&o, BOT_PATH).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("baseUrl"));
        assert!(!e.message.contains("SECK_abc"));
    }

    #[test]
    fn timeouts_and_retries() {
        let mut o = opts(Some("https://a.example"), None);
        let c = Config::new(&o, BOT_PATH).unwrap();
        assert_eq!((c.timeout_ms(), c.max_retries()), (30_000, 2));
        o.timeout_ms = Some(0);
        assert_eq!(field(Config::new(&o, BOT_PATH)), "timeoutMs");
        o.timeout_ms = Some(MAX_TIMEOUT_MS + 1);
        assert_eq!(field(Config::new(&o, BOT_PATH)), "timeoutMs");
        o.timeout_ms = Some(5);
        o.max_retries = Some(0);
        let c = Config::new(&o, BOT_PATH).unwrap();
        assert_eq!((c.timeout_ms(), c.max_retries()), (5, 0));
    }
}
