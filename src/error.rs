//! The one error type, its codes, and classification of an HTTP status into a code.

use crate::json::Json;
use crate::redact::{redact, redact_value};
#[cfg(feature = "typescript")]
use tsify::Tsify;

/// What went wrong, as a stable machine-readable code: the `code` of a `SettlementError`.
// Its TypeScript union (`SettlementErrorCode`) is derived from the variants; the names are
// those of `Code::as_str` (a test checks that the two agree).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "snake_case"))]
#[cfg_attr(feature = "typescript", tsify(rename = "SettlementErrorCode"))]
pub enum Code {
    /// An argument or option was refused before anything was sent; see [`ErrorDetails::field`].
    InvalidInput,
    /// HTTP 401: the key is missing, invalid or revoked.
    Unauthorized,
    /// HTTP 403, or a GraphQL error with `extensions.code == "FORBIDDEN"`.
    Forbidden,
    /// HTTP 429; see [`ErrorDetails::retry_after_ms`].
    RateLimited,
    /// Any other non-2xx status; see [`ErrorDetails::status`].
    Http,
    /// The response carried GraphQL errors; see [`ErrorDetails::graphql_errors`] and [`ErrorDetails::data`].
    Graphql,
    /// The request could not be sent or the response could not be read.
    Network,
    /// An attempt took longer than the configured timeout.
    Timeout,
    /// The caller's signal aborted the call (before a mutation was sent, or any query).
    Aborted,
    /// A mutation was sent, and then no answer came (network error, timeout, or an abort
    /// after sending): it may or may not have taken effect. Read the state back (`reconcile`)
    /// before resending.
    OutcomeUnknown,
    /// The body was not JSON, or not shaped as expected.
    Decode,
    /// `MerchantClient` was given a secret key where page visitors can read it (a browser or
    /// worker) without `dangerously_allow_browser`; see [`crate::keys::browser_guard`].
    SecretKeyInBrowser,
    /// `init()` could not load the WebAssembly module (HTTP 404, a Content-Security-Policy
    /// block, a wrong file or MIME type). Raised by the JS entries, never by the Rust core.
    WasmLoad,
    /// The WebAssembly instance failed (trapped) during the call: a bug of this package, not
    /// of the input. A server entry (Node, Bun, Deno, workerd/edge) has replaced the instance,
    /// so the next call runs on a fresh one; a page keeps its instance until it reloads.
    /// Raised by the JS entries, never by the Rust core.
    Internal,
    /// A webhook delivery's body went over the receiver's `maxBodyBytes` (HTTP 413); the rest
    /// was not read. Not in the browser build, which has no webhook receiver (so its size is
    /// unchanged); the package's shared declarations have it (from the server build).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    TooLarge,
}

impl Code {
    /// The code as JavaScript sees it, e.g. `"rate_limited"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidInput => "invalid_input",
            Code::Unauthorized => "unauthorized",
            Code::Forbidden => "forbidden",
            Code::RateLimited => "rate_limited",
            Code::Http => "http",
            Code::Graphql => "graphql",
            Code::Network => "network",
            Code::Timeout => "timeout",
            Code::Aborted => "aborted",
            Code::OutcomeUnknown => "outcome_unknown",
            Code::Decode => "decode",
            Code::SecretKeyInBrowser => "secret_key_in_browser",
            Code::WasmLoad => "wasm_load",
            Code::Internal => "internal",
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            Code::TooLarge => "too_large",
        }
    }
}

// tsify derives data shapes (`SettlementErrorDetails` below); an interface that extends the
// built-in `Error`, and the type of a class constructor, are not data: hand-written.
#[cfg(feature = "typescript")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const SETTLEMENT_ERROR_TS: &'static str = r#"
/** Every failure rejects (or throws) with a SettlementError. Messages never contain the key. */
export interface SettlementError extends Error, SettlementErrorDetails {
  name: "SettlementError";
}

/** The class `__registerErrorClass` expects. */
export type SettlementErrorConstructor = new (message: string, details: SettlementErrorDetails) => SettlementError;
"#;

/// One entry of a GraphQL response's `errors`, kept whole, as the service sent it.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "GraphQLErrorInfo"))]
pub struct GraphqlError {
    /// The error's `message` (empty when the server sent none).
    pub message: String,
    /// `path`, as sent.
    // Read in Rust with `GraphqlError::path()` (the TypeScript declarations show the field).
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "ReadonlyArray<string | number>")
    )]
    pub(crate) path: Option<Json>,
    /// `locations`, as sent.
    // Read in Rust with `GraphqlError::locations()` (the TypeScript declarations show the field).
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "ReadonlyArray<GraphQLErrorLocation>")
    )]
    pub(crate) locations: Option<Json>,
    /// `extensions`, as sent.
    // Read in Rust with `GraphqlError::extensions()` (the TypeScript declarations show the field).
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "{ [key: string]: unknown }")
    )]
    pub(crate) extensions: Option<Json>,
}

/// Where a GraphQL error occurred in the document.
// Declaration only: one entry of [`GraphqlError::locations`], which keeps them as sent.
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "GraphQLErrorLocation"))]
#[allow(dead_code)]
struct GraphqlErrorLocation {
    line: u32,
    column: u32,
}

impl GraphqlError {
    /// `path`, as sent (e.g. `["orderHistory", "data", 0]`).
    pub fn path(&self) -> Option<serde_json::Value> {
        self.path.as_ref().and_then(crate::json::to_value_opt)
    }

    /// `locations`, as sent (e.g. `[{"line": 1, "column": 3}]`).
    pub fn locations(&self) -> Option<serde_json::Value> {
        self.locations.as_ref().and_then(crate::json::to_value_opt)
    }

    /// `extensions`, as sent (e.g. `{"code": "FORBIDDEN"}`).
    pub fn extensions(&self) -> Option<serde_json::Value> {
        self.extensions.as_ref().and_then(crate::json::to_value_opt)
    }

    /// `extensions.code`, when it is a string.
    pub fn extension_code(&self) -> Option<String> {
        use crate::json::JsonValue;
        self.extensions.as_ref()?.member("code")?.string()
    }
}

/// Every failure of this crate. Messages are plain English and never contain the key.
///
/// Boxed, so results stay small; its fields ([`ErrorDetails`]) are reached through `Deref`
/// (`err.code`, `err.status`, …).
#[derive(Clone, Debug)]
pub struct Error(Box<ErrorDetails>);

impl std::ops::Deref for Error {
    type Target = ErrorDetails;
    fn deref(&self) -> &ErrorDetails {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorDetails {
        &mut self.0
    }
}

/// What an `Error` carries: the structured part of a `SettlementError` (in JavaScript,
/// the message is the `Error`'s own). Absent members are omitted.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "SettlementErrorDetails"))]
pub struct ErrorDetails {
    /// The stable code.
    #[cfg_attr(feature = "typescript", tsify(type = "SettlementErrorCode"))]
    pub code: Code,
    /// A human-readable message.
    #[cfg_attr(feature = "typescript", serde(skip))]
    pub message: String,
    /// For `invalid_input`: the argument or option at fault, e.g. `"filter.dateFrom"`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub field: Option<String>,
    /// The HTTP status, whenever a response was received.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub status: Option<u16>,
    /// How long the server asked to wait (`Retry-After`, as sent, before the 60 s cap the
    /// client applies to its own waits), in ms. Set on non-2xx responses that carried it.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub retry_after_ms: Option<u64>,
    /// Every GraphQL error of the response (also read from non-2xx GraphQL bodies); omitted
    /// when there is none.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "GraphQLErrorInfo[]"))]
    pub graphql_errors: Vec<GraphqlError>,
    /// Partial `data` of a response that also had errors.
    // Read in Rust with `ErrorDetails::data()` (the TypeScript declarations show the field).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "unknown"))]
    pub(crate) data: Option<Json>,
    /// The headers of the response the error came from (names in lower case, `set-cookie`
    /// left out, the key redacted); omitted when there was no response. (The npm package's
    /// shell sets them on its errors itself, from the core's `response` event: not here.)
    #[cfg(not(feature = "npm-base"))]
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "Record<string, string>")
    )]
    pub headers: Vec<(String, String)>,
    /// The service's request id, when a header of the response carried one.
    #[cfg(not(feature = "npm-base"))]
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub request_id: Option<String>,
}

impl ErrorDetails {
    /// Partial `data` of a response that also had errors, as JSON.
    pub fn data(&self) -> Option<serde_json::Value> {
        self.data.as_ref().and_then(crate::json::to_value_opt)
    }
}

impl Error {
    /// An error with a code and message only.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self::with_message(code, message.into())
    }

    // Not inlined into each caller (the generic `new`/`invalid` are instantiated per argument
    // type and called from dozens of places): measured in the wasm's size.
    #[inline(never)]
    fn with_message(code: Code, message: String) -> Self {
        Error(Box::new(ErrorDetails {
            code,
            message,
            field: None,
            status: None,
            retry_after_ms: None,
            graphql_errors: Vec::new(),
            #[cfg(not(feature = "npm-base"))]
            headers: Vec::new(),
            #[cfg(not(feature = "npm-base"))]
            request_id: None,
            data: None,
        }))
    }

    /// An `invalid_input` error naming `field`.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::invalid_field(field.into(), message.into())
    }

    #[inline(never)]
    fn invalid_field(field: String, message: String) -> Self {
        let mut e = Error::with_message(Code::InvalidInput, message);
        e.field = Some(field);
        e
    }

    /// A `decode` error for a response with `status`.
    pub fn decode(status: u16, message: &str) -> Self {
        let mut e = Error::new(Code::Decode, message);
        e.status = Some(status);
        e
    }

    /// An `aborted` error.
    pub fn aborted() -> Self {
        Error::new(Code::Aborted, "The request was aborted.")
    }

    /// A `timeout` error for an attempt that took longer than `timeout_ms`.
    pub fn timeout(timeout_ms: u32) -> Self {
        let mut m = String::from("The request timed out after ");
        crate::text::push_unsigned(&mut m, timeout_ms.into());
        m.push_str(" ms.");
        Error::new(Code::Timeout, m)
    }

    /// A `network` error with the underlying reason.
    pub fn network(reason: &str) -> Self {
        let mut m = String::from("Network error");
        if !reason.is_empty() {
            m.push_str(": ");
            m.push_str(reason);
        }
        Error::new(Code::Network, m)
    }

    /// An `outcome_unknown` error: a mutation was sent and `cause` (a `network`, `timeout`
    /// or `aborted` error) left its outcome unknown; the cause's message is kept.
    pub fn outcome_unknown(cause: &Error) -> Self {
        let mut m = String::from(
            "The mutation was sent but no answer came, so it may have taken effect; \
read the state back before resending. ",
        );
        m.push_str(&cause.message);
        Error::new(Code::OutcomeUnknown, m)
    }

    /// The code as a string, e.g. `"graphql"`.
    pub fn code_str(&self) -> &'static str {
        self.code.as_str()
    }

    /// The error with the headers and request id of `response` (the one it came from).
    #[cfg(not(feature = "npm-base"))]
    pub fn with_response(mut self, response: &crate::events::ResponseInfo) -> Self {
        self.headers.clone_from(&response.headers);
        self.request_id.clone_from(&response.request_id);
        self
    }

    /// Removes every occurrence of `key` from every text this error carries.
    pub fn redact(mut self, key: Option<&str>) -> Self {
        let Some(key) = key.filter(|k| !k.is_empty()) else {
            return self;
        };
        self.message = redact(&self.message, key).into_owned();
        if let Some(f) = self.field.take() {
            self.field = Some(redact(&f, key).into_owned());
        }
        for g in &mut self.graphql_errors {
            g.message = redact(&g.message, key).into_owned();
            for part in [&mut g.path, &mut g.locations, &mut g.extensions] {
                if let Some(v) = part.take() {
                    *part = Some(redact_value(&v, key));
                }
            }
        }
        if let Some(d) = self.data.take() {
            self.data = Some(redact_value(&d, key));
        }
        self
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The error for a non-2xx response. `graphql_errors` and `data` are those of the body when
/// it was a GraphQL response; the message is then taken from the first GraphQL error.
pub fn from_status(
    status: u16,
    retry_after_ms: Option<u64>,
    graphql_errors: Vec<GraphqlError>,
    data: Option<Json>,
) -> Error {
    let (code, default_message) = match status {
        401 => (
            Code::Unauthorized,
            "Unauthorized: the service rejected the API key (or its absence)",
        ),
        429 => (Code::RateLimited, "Rate limited: too many requests"),
        _ if status == 403 || any_forbidden(&graphql_errors) => {
            (Code::Forbidden, "Forbidden: the key may not make this call")
        }
        _ => (Code::Http, "The service answered with an error status"),
    };
    let mut message = String::with_capacity(96);
    match graphql_errors.first() {
        Some(first) if !first.message.is_empty() => message.push_str(&first.message),
        _ => message.push_str(default_message),
    }
    message.push_str(" (HTTP ");
    crate::text::push_unsigned(&mut message, status.into());
    message.push(')');
    if let Some(ms) = retry_after_ms {
        message.push_str("; retry after ");
        crate::text::push_unsigned(&mut message, ms);
        message.push_str(" ms");
    }
    message.push('.');
    let mut e = Error::new(code, message);
    e.status = Some(status);
    e.retry_after_ms = retry_after_ms;
    e.graphql_errors = graphql_errors;
    e.data = data;
    e
}

/// Whether any GraphQL error carries `extensions.code == "FORBIDDEN"`.
fn any_forbidden(errors: &[GraphqlError]) -> bool {
    errors
        .iter()
        .any(|g| g.extension_code().as_deref() == Some("FORBIDDEN"))
}

/// The error for a 2xx response whose `errors` is non-empty: `forbidden` when any error has
/// `extensions.code == "FORBIDDEN"`, `graphql` otherwise. The message is the first error's.
pub fn from_graphql(status: u16, graphql_errors: Vec<GraphqlError>, data: Option<Json>) -> Error {
    let forbidden = any_forbidden(&graphql_errors);
    let mut message = String::with_capacity(96);
    match graphql_errors.first() {
        Some(first) if !first.message.is_empty() => message.push_str(&first.message),
        _ => message.push_str("The service returned a GraphQL error"),
    }
    if graphql_errors.len() > 1 {
        message.push_str(" (and ");
        crate::text::push_unsigned(&mut message, (graphql_errors.len() - 1) as u64);
        message.push_str(if graphql_errors.len() == 2 {
            " more error)"
        } else {
            " more errors)"
        });
    }
    let mut e = Error::new(
        if forbidden {
            Code::Forbidden
        } else {
            Code::Graphql
        },
        message,
    );
    e.status = Some(status);
    e.graphql_errors = graphql_errors;
    e.data = data;
    e
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "typescript")]
    fn typescript_code_union_is_every_code() {
        use tsify::Tsify;
        let all = [
            Code::InvalidInput,
            Code::Unauthorized,
            Code::Forbidden,
            Code::RateLimited,
            Code::Http,
            Code::Graphql,
            Code::Network,
            Code::Timeout,
            Code::Aborted,
            Code::OutcomeUnknown,
            Code::Decode,
            Code::SecretKeyInBrowser,
            Code::WasmLoad,
            Code::Internal,
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            Code::TooLarge,
        ];
        let decl = <Code as Tsify>::DECL;
        let union = decl
            .split_once("export type SettlementErrorCode = ")
            .map(|(_, u)| u.trim_end_matches(';'))
            .unwrap_or_default();
        let members: Vec<&str> = union.split(" | ").collect();
        let codes: Vec<String> = all.iter().map(|c| format!("\"{}\"", c.as_str())).collect();
        // The derived union holds every variant, so a variant missing from `all`, or named
        // differently by `as_str`, fails here.
        assert_eq!(members, codes, "{decl}");
    }
    use serde_json::json;

    fn gql(message: &str, extensions: Option<Json>) -> GraphqlError {
        GraphqlError {
            message: message.into(),
            path: None,
            locations: None,
            extensions,
        }
    }

    #[test]
    fn codes() {
        let all = [
            (Code::InvalidInput, "invalid_input"),
            (Code::Unauthorized, "unauthorized"),
            (Code::Forbidden, "forbidden"),
            (Code::RateLimited, "rate_limited"),
            (Code::Http, "http"),
            (Code::Graphql, "graphql"),
            (Code::Network, "network"),
            (Code::Timeout, "timeout"),
            (Code::Aborted, "aborted"),
            (Code::OutcomeUnknown, "outcome_unknown"),
            (Code::Decode, "decode"),
            (Code::SecretKeyInBrowser, "secret_key_in_browser"),
            (Code::WasmLoad, "wasm_load"),
            (Code::Internal, "internal"),
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            (Code::TooLarge, "too_large"),
        ];
        for (c, s) in all {
            assert_eq!(c.as_str(), s);
        }
    }

    #[test]
    fn status_classification() {
        let e = from_status(401, None, vec![], None);
        assert_eq!(e.code, Code::Unauthorized);
        assert_eq!(e.status, Some(401));
        assert!(e.message.contains("HTTP 401"), "{}", e.message);
        assert_eq!(from_status(403, None, vec![], None).code, Code::Forbidden);
        let e = from_status(429, Some(1500), vec![], None);
        assert_eq!(e.code, Code::RateLimited);
        assert_eq!(e.retry_after_ms, Some(1500));
        assert!(e.message.contains("1500 ms"), "{}", e.message);
        let e = from_status(503, Some(1500), vec![], None);
        assert_eq!(
            (e.code, e.status, e.retry_after_ms),
            (Code::Http, Some(503), Some(1500))
        );
        let e = from_status(500, None, vec![gql("boom", None)], None);
        assert_eq!(e.message, "boom (HTTP 500).");
        assert_eq!(e.graphql_errors.len(), 1);
        // A non-2xx body whose GraphQL errors say FORBIDDEN is `forbidden` (not `http`),
        // except for 401 and 429, whose status says more.
        let forbidden = || {
            vec![
                gql("boom", None),
                gql("no", Some(json!({"code": "FORBIDDEN"}))),
            ]
        };
        let e = from_status(400, None, forbidden(), None);
        assert_eq!(
            (e.code, e.status, e.graphql_errors.len()),
            (Code::Forbidden, Some(400), 2)
        );
        assert_eq!(
            from_status(401, None, forbidden(), None).code,
            Code::Unauthorized
        );
        assert_eq!(
            from_status(429, None, forbidden(), None).code,
            Code::RateLimited
        );
    }

    #[test]
    fn graphql_classification() {
        let e = from_graphql(
            200,
            vec![gql("a", None), gql("b", None)],
            Some(json!({"x": 1})),
        );
        assert_eq!(e.code, Code::Graphql);
        assert_eq!(e.message, "a (and 1 more error)");
        assert_eq!(e.status, Some(200));
        assert_eq!(e.data, Some(json!({"x": 1})));
        let e = from_graphql(
            200,
            vec![
                gql("a", None),
                gql("no", Some(json!({"code": "FORBIDDEN"}))),
            ],
            None,
        );
        assert_eq!(e.code, Code::Forbidden);
        assert_eq!(e.graphql_errors.len(), 2);
    }

    #[test]
    fn redaction_covers_every_text() {
        let key = "XYZ-SECK_abc";
        let mut e = from_graphql(
            200,
            vec![GraphqlError {
                message: "bad key XYZ-SECK_abc".into(),
                path: Some(json!(["XYZ-SECK_abc"])),
                locations: None,
                extensions: Some(json!({"echo": "Bearer XYZ-SECK_abc"})),
            }],
            Some(json!({"profile": {"apiKey": "XYZ-SECK_abc"}})),
        );
        e.field = Some("XYZ-SECK_abc".into());
        let e = e.redact(Some(key));
        assert_eq!(e.message, "bad key [redacted]");
        assert_eq!(e.field.as_deref(), Some("[redacted]"));
        let all = format!("{e:?}");
        assert!(!all.contains(key), "{all}");
        assert_eq!(
            e.graphql_errors[0].extensions,
            Some(json!({"echo": "Bearer [redacted]"}))
        );
        // No key configured: unchanged.
        let e2 = Error::network("x XYZ-SECK_abc").redact(None);
        assert!(e2.message.contains(key));
    }
}
