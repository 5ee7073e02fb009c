//! The sandbox's core: one GraphQL request in, one answer out, with no I/O.
//!
//! Everything the service's rules decide lives here (and in the schema, data and fault
//! modules it uses): authentication, fault decisions (`x-sandbox-fault`, and the faults queued
//! with [`AppState::fail_next`]), parsing and executing the document, the error codes, root
//! null propagation, the observed-schema check (when [`ServiceOptions::extras`] is off) and
//! the request log. The clock is passed in ([`crate::clock::Clock`]); nothing here sleeps,
//! opens a socket or reads a file. Two shells use it: the HTTP server (`server.rs`, what
//! `make demo` and the tests run) and the in-process fake of the npm package's testing entry
//! (the wasm build of this crate without its `http` feature).

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_graphql::{PathSegment, ServerError};
use serde::Serialize;
use serde_json::{json, Value};

use crate::clock::Clock;
use crate::data::{Store, KEY_NAMES, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};
use crate::fault::{BodyKind, FaultSpec};
use crate::schema::{
    build_bot_schema, build_merchant_schema, AgentIdentity, BotSchema, MerchantIdentity,
    MerchantSchema, SchemaConfig,
};

/// Largest GraphQL request body accepted.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// The request log keeps this many most recent entries.
pub const LOG_CAPACITY: usize = 10_000;
/// fail-first counters are forgotten wholesale beyond this many distinct tags.
const MAX_FAIL_TAGS: usize = 10_000;

/// Runtime settings of one sandbox instance.
#[derive(Clone, Debug)]
pub struct Config {
    pub max_per_page: i32,
    /// `http://127.0.0.1:<port>` of the main listener.
    pub base_url: String,
    /// `http://127.0.0.1:<ramp-port>` when `--ramp-port` was given.
    pub ramp_url: Option<String>,
    pub static_root: PathBuf,
    /// Print one line per GraphQL request to stderr (never a key).
    pub log_to_stderr: bool,
}

impl Config {
    /// Settings for in-process tests: default port URL, no ramp port, no stderr noise.
    pub fn for_tests() -> Config {
        Config {
            max_per_page: 100,
            base_url: "http://127.0.0.1:8787".into(),
            ramp_url: None,
            static_root: default_static_root(),
            log_to_stderr: false,
        }
    }
}

/// The repository root, fixed at compile time (`CARGO_MANIFEST_DIR/../..`).
pub fn default_static_root() -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    p.canonicalize().unwrap_or(p)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Endpoint {
    Bot,
    Merchant,
}

/// One recorded GraphQL request. Never contains a key.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub seq: u64,
    pub endpoint: Endpoint,
    pub operation_name: Option<String>,
    pub query: Option<String>,
    pub variables: Value,
    pub has_authorization: bool,
    /// Which class of key came (never the key).
    pub key_class: KeyClass,
    /// The names of the request's headers, lower-case and sorted (what a proxy in front of
    /// the sandbox forwarded); never their values.
    pub header_names: Vec<String>,
    pub tag: Option<String>,
    pub fault: Option<String>,
    /// Whether the fault header actually changed this request (false past fail-first).
    pub fault_applied: bool,
    /// HTTP status sent; 0 when the connection was dropped without a response.
    pub status: u16,
}

#[derive(Default)]
struct RequestLog {
    entries: VecDeque<LogEntry>,
    next_seq: u64,
}

/// How the core serves, beyond the HTTP server's [`Config`].
#[derive(Debug)]
pub struct ServiceOptions {
    /// Serve the sandbox's own fields and enum values (its schema whole). Off: a document
    /// must keep to the observed schema (`docs/service.graphql`), as against the service.
    pub extras: bool,
    /// Where "now" comes from.
    pub clock: Clock,
    /// The data set it is seeded with ([`crate::data::DataSeed`]; 0: the default data).
    pub seed: crate::data::DataSeed,
}

impl Default for ServiceOptions {
    /// The HTTP server's: the sandbox's schema whole, on the system clock, the default data.
    fn default() -> Self {
        ServiceOptions {
            extras: true,
            clock: Clock::System,
            seed: 0,
        }
    }
}

/// A fault applied to the next requests, whatever their headers ([`AppState::fail_next`]).
#[derive(Debug)]
struct QueuedFault {
    /// The spec's text, as the request log shows it.
    text: String,
    spec: FaultSpec,
    /// How many more requests it applies to.
    left: u64,
}

pub struct AppState {
    pub store: Arc<Store>,
    pub config: Config,
    /// The observed schemas a document is checked against; `None` with extras on.
    observed: Option<crate::observed::Observed>,
    queued: Mutex<VecDeque<QueuedFault>>,
    bot: BotSchema,
    merchant: MerchantSchema,
    /// Non-null root fields of each schema (for null propagation at the root).
    bot_non_null: HashSet<(String, String)>,
    merchant_non_null: HashSet<(String, String)>,
    log: Mutex<RequestLog>,
    fail_counts: Mutex<HashMap<String, u64>>,
}

impl AppState {
    /// The HTTP server's core: extras on, the system clock.
    pub fn new(config: Config) -> Arc<AppState> {
        AppState::with_options(config, ServiceOptions::default())
    }

    /// A core serving as `options` say.
    pub fn with_options(config: Config, options: ServiceOptions) -> Arc<AppState> {
        let store = Arc::new(Store::seeded_with(options.clock, options.seed));
        let schema_config = SchemaConfig {
            max_per_page: config.max_per_page,
            base_url: config.base_url.clone(),
        };
        let bot = build_bot_schema(store.clone(), schema_config.clone());
        let merchant = build_merchant_schema(store.clone(), schema_config);
        Arc::new(AppState {
            bot_non_null: non_null_root_fields(&bot.sdl()),
            merchant_non_null: non_null_root_fields(&merchant.sdl()),
            bot,
            merchant,
            store,
            config,
            log: Mutex::new(RequestLog {
                entries: VecDeque::new(),
                next_seq: 1,
            }),
            fail_counts: Mutex::new(HashMap::new()),
            observed: (!options.extras).then(crate::observed::Observed::load),
            queued: Mutex::new(VecDeque::new()),
        })
    }

    pub fn bot_schema(&self) -> &BotSchema {
        &self.bot
    }

    pub fn merchant_schema(&self) -> &MerchantSchema {
        &self.merchant
    }

    fn record(&self, mut entry: LogEntry) {
        let mut log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        entry.seq = log.next_seq;
        log.next_seq += 1;
        if self.config.log_to_stderr {
            eprintln!(
                "[sandbox] #{} {:?} status={} op={} tag={} fault={}{}",
                entry.seq,
                entry.endpoint,
                entry.status,
                entry.operation_name.as_deref().unwrap_or("-"),
                entry.tag.as_deref().unwrap_or("-"),
                entry.fault.as_deref().unwrap_or("-"),
                if entry.fault.is_some() && !entry.fault_applied {
                    " (not applied)"
                } else {
                    ""
                },
            );
        }
        log.entries.push_back(entry);
        while log.entries.len() > LOG_CAPACITY {
            log.entries.pop_front();
        }
    }

    pub fn log_entries(&self, tag: Option<&str>) -> Vec<LogEntry> {
        let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.entries
            .iter()
            .filter(|e| tag.is_none_or(|t| e.tag.as_deref() == Some(t)))
            .cloned()
            .collect()
    }

    pub fn clear_log(&self) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entries
            .clear();
        self.fail_counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Counts a fail-first request for `tag`; returns its 1-based number.
    fn count_tagged(&self, tag: &str) -> u64 {
        let mut counts = self.fail_counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= MAX_FAIL_TAGS && !counts.contains_key(tag) {
            counts.clear();
        }
        let c = counts.entry(tag.to_string()).or_insert(0);
        *c += 1;
        *c
    }
}

enum Identity {
    Agent(usize),
    Merchant { secret: bool },
}

/// The key of an `Authorization: Bearer <key>` header. Errors never contain the key.
fn bearer_key(authorization: Option<&[u8]>) -> Result<&str, &'static str> {
    let Some(raw) = authorization else {
        return Err("Missing API key: send Authorization: Bearer <key>");
    };
    // Visible ASCII and tabs only, as an HTTP header value's text.
    let raw = raw
        .iter()
        .all(|b| *b == b'\t' || (0x20..0x7f).contains(b))
        .then(|| std::str::from_utf8(raw).ok())
        .flatten()
        .ok_or("Malformed Authorization header")?
        .trim();
    match raw.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => Ok(rest.trim()),
        _ => Err("Malformed Authorization header: expected 'Bearer <key>'"),
    }
}

/// Which class of key a request carried (the request log's, never the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum KeyClass {
    /// No `Authorization` header.
    None,
    /// An agent's key.
    Agent,
    /// The merchant's public key.
    MerchantPublic,
    /// The merchant's secret key.
    MerchantSecret,
    /// A malformed header or a key the sandbox does not have.
    Unknown,
}

impl KeyClass {
    fn of(authorization: Option<&[u8]>, store: &Store) -> KeyClass {
        if authorization.is_none() {
            return KeyClass::None;
        }
        match bearer_key(authorization) {
            Ok(MERCHANT_PUBLIC_KEY) => KeyClass::MerchantPublic,
            Ok(MERCHANT_SECRET_KEY) => KeyClass::MerchantSecret,
            Ok(key) if store.agent_by_key(key).is_some() => KeyClass::Agent,
            _ => KeyClass::Unknown,
        }
    }
}

/// Checks `Authorization: Bearer <key>` for an endpoint. Errors never contain the key.
fn authenticate(
    authorization: Option<&[u8]>,
    endpoint: Endpoint,
    store: &Store,
) -> Result<Identity, &'static str> {
    let key = bearer_key(authorization)?;
    let agent = store.agent_by_key(key);
    let merchant = match key {
        MERCHANT_PUBLIC_KEY => Some(false),
        MERCHANT_SECRET_KEY => Some(true),
        _ => None,
    };
    match (endpoint, agent, merchant) {
        (Endpoint::Bot, Some(i), _) => Ok(Identity::Agent(i)),
        (Endpoint::Bot, None, Some(_)) => {
            Err("A merchant key is not valid on the bot endpoint: use an agent API key")
        }
        (Endpoint::Merchant, _, Some(secret)) => Ok(Identity::Merchant { secret }),
        (Endpoint::Merchant, Some(_), _) => {
            Err("An agent key is not valid on the merchant endpoint: use a merchant key")
        }
        _ => Err("Invalid API key"),
    }
}

/// Text for the request log with every sandbox key in it replaced by `[redacted]`: a client
/// that (wrongly) sends a key in a variable, the query, a tag or a fault header must not get
/// it written to the log or stderr.
fn redact_keys(text: &str) -> String {
    KEY_NAMES
        .iter()
        .fold(text.to_string(), |t, (_, key)| t.replace(key, "[redacted]"))
}

/// [`redact_keys`] on every string (object keys included) of a JSON value.
fn redact_value(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(redact_keys(&s)),
        Value::Array(a) => Value::Array(a.into_iter().map(redact_value).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, v)| (redact_keys(&k), redact_value(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Status logged for a request whose client went away before it was answered (for example
/// it timed out during `delay=`), as nginx does.
pub const STATUS_CLIENT_GONE: u16 = 499;

/// A request-log entry that is written exactly once: with the response's status, with 0 for
/// a dropped connection, or, if the handler is cancelled first, with 499.
pub struct PendingLog {
    state: Arc<AppState>,
    entry: Option<LogEntry>,
}

impl PendingLog {
    /// Writes the entry with `status` (0: the connection was dropped), once.
    pub fn record(&mut self, status: u16) {
        if let Some(mut entry) = self.entry.take() {
            entry.status = status;
            self.state.record(entry);
        }
    }

    fn finish(mut self, resp: CoreResponse) -> Answer {
        self.record(resp.status);
        Answer::Respond(resp)
    }
}

impl Drop for PendingLog {
    fn drop(&mut self) {
        self.record(STATUS_CLIENT_GONE);
    }
}

/// One request to a GraphQL endpoint, as the core needs it (a shell reads it off HTTP, or off
/// a `fetch` call).
#[derive(Clone, Debug)]
pub struct CoreRequest {
    pub endpoint: Endpoint,
    /// The `Authorization` header's bytes, when sent.
    pub authorization: Option<Vec<u8>>,
    /// The `Content-Type` header, when sent.
    pub content_type: Option<String>,
    /// The names of every header sent (any case; the log keeps them lower-case and sorted).
    pub header_names: Vec<String>,
    /// `x-sandbox-tag`, trimmed, when sent and not empty.
    pub tag: Option<String>,
    /// `x-sandbox-fault`, trimmed, when sent and not empty.
    pub fault: Option<String>,
    /// The body; `None` when it was longer than [`MAX_BODY_BYTES`].
    pub body: Option<Vec<u8>>,
}

/// An HTTP response, as the core answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreResponse {
    pub status: u16,
    /// Header names (lower-case) and values: `content-type`, `retry-after`,
    /// `www-authenticate`.
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl CoreResponse {
    fn new(status: u16, content_type: Option<&str>, body: Vec<u8>) -> CoreResponse {
        CoreResponse {
            status,
            headers: content_type
                .map(|c| ("content-type", c.to_owned()))
                .into_iter()
                .collect(),
            body,
        }
    }

    /// The value of header `name` (lower-case), when set.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    fn set_header(&mut self, name: &'static str, value: String) {
        self.headers.retain(|(n, _)| *n != name);
        self.headers.push((name, value));
    }
}

/// What the shell does with a request.
pub enum Answer {
    /// Send this response.
    Respond(CoreResponse),
    /// Send nothing: reset the connection (the `drop` and `drop-after` faults). With
    /// `drop-after` the request took effect first. The shell records the log entry
    /// ([`PendingLog::record`] with 0 once the connection is gone).
    Drop(Box<PendingLog>),
}

/// The JSON media type of every GraphQL answer.
pub const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// `{"data":null,"errors":[{"message":..,"extensions":{"code":..}}]}` with a status.
pub fn graphql_error_response(status: u16, message: &str, code: &str) -> CoreResponse {
    // A struct, not json!, so "message" comes before "extensions" as in the usual GraphQL shape.
    #[derive(Serialize)]
    struct Code<'a> {
        code: &'a str,
    }
    #[derive(Serialize)]
    struct Error<'a> {
        message: &'a str,
        extensions: Code<'a>,
    }
    #[derive(Serialize)]
    struct Body<'a> {
        data: Option<()>,
        errors: [Error<'a>; 1],
    }
    let body = serde_json::to_vec(&Body {
        data: None,
        errors: [Error {
            message,
            extensions: Code { code },
        }],
    })
    .unwrap_or_default();
    CoreResponse::new(status, Some(JSON_CONTENT_TYPE), body)
}

fn status_code_name(status: u16) -> &'static str {
    match status {
        400 => "BAD_REQUEST",
        401 => "UNAUTHENTICATED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        408 => "REQUEST_TIMEOUT",
        429 => "RATE_LIMITED",
        500 => "INTERNAL_SERVER_ERROR",
        502 => "BAD_GATEWAY",
        503 => "SERVICE_UNAVAILABLE",
        504 => "GATEWAY_TIMEOUT",
        _ => "SANDBOX_FAULT",
    }
}

/// The response a status/body fault substitutes for the real one.
fn fault_response(status: u16, kind: BodyKind) -> CoreResponse {
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|c| c.canonical_reason())
        .unwrap_or("Error");
    let message = format!("sandbox injected fault: HTTP {status} {reason}");
    match kind {
        BodyKind::Json => graphql_error_response(status, &message, status_code_name(status)),
        BodyKind::Html => {
            let page = format!(
                "<!DOCTYPE html>\n<html><head><title>{status} {reason}</title></head>\
                 <body><h1>{status} {reason}</h1><p>{message}</p><hr><p>sandbox-proxy</p></body></html>\n"
            );
            CoreResponse::new(status, Some("text/html; charset=utf-8"), page.into_bytes())
        }
        BodyKind::Empty => CoreResponse::new(status, None, Vec::new()),
        BodyKind::Truncated => {
            let full = json!({"data": {"sandbox": {"message": message, "note": "this body is cut off on purpose"}}})
                .to_string();
            let cut = full.as_bytes()[..full.len() / 2].to_vec();
            CoreResponse::new(status, Some(JSON_CONTENT_TYPE), cut)
        }
    }
}

/// A request the core has admitted: its fault decided, its log entry pending. The shell
/// waits [`Admitted::delay_ms`] (dropping it meanwhile logs the client as gone), then calls
/// [`Admitted::answer`].
pub struct Admitted {
    state: Arc<AppState>,
    request: CoreRequest,
    fault: FaultSpec,
    log: PendingLog,
}

impl AppState {
    /// Applies `spec` (the `x-sandbox-fault` syntax, `fail-first` excepted) to the next
    /// `times` GraphQL requests that carry no fault header of their own, after any already
    /// queued. A malformed spec is refused with the header's message.
    pub fn fail_next(&self, times: u64, spec: &str) -> Result<(), crate::fault::FaultSpecError> {
        let parsed = FaultSpec::parse(spec)?;
        if parsed.fail_first.is_some() {
            return Err(crate::fault::FaultSpecError(
                "fail-first needs a tag: give the number of requests instead".into(),
            ));
        }
        if times > 0 {
            self.queued
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_back(QueuedFault {
                    text: spec.trim().to_owned(),
                    spec: parsed,
                    left: times,
                });
        }
        Ok(())
    }

    /// Forgets every fault queued with [`AppState::fail_next`].
    pub fn clear_faults(&self) {
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The next queued fault (its text and spec), counted as used once.
    fn take_queued(&self) -> Option<(String, FaultSpec)> {
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        let front = queued.front_mut()?;
        front.left -= 1;
        let out = (front.text.clone(), front.spec.clone());
        if front.left == 0 {
            queued.pop_front();
        }
        Some(out)
    }

    /// Logs `request` (never a key) and decides its fault: an answer now (a malformed fault
    /// spec, a dropped connection, a substituted response), or the request admitted.
    pub fn admit(self: &Arc<Self>, mut request: CoreRequest) -> Result<Admitted, Answer> {
        let queued = if request.fault.is_none() {
            self.take_queued()
        } else {
            None
        };
        let fault_text = request
            .fault
            .clone()
            .or_else(|| queued.as_ref().map(|(t, _)| t.clone()));
        // What the log records about the request, read leniently from the JSON body.
        let peek: Value = request
            .body
            .as_deref()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or(Value::Null);
        let entry = LogEntry {
            seq: 0,
            endpoint: request.endpoint,
            operation_name: peek
                .get("operationName")
                .and_then(Value::as_str)
                .map(redact_keys),
            query: peek.get("query").and_then(Value::as_str).map(redact_keys),
            variables: redact_value(peek.get("variables").cloned().unwrap_or(Value::Null)),
            has_authorization: request.authorization.is_some(),
            key_class: KeyClass::of(request.authorization.as_deref(), &self.store),
            header_names: {
                let mut names: Vec<String> = request
                    .header_names
                    .iter()
                    .map(|n| n.to_ascii_lowercase())
                    .collect();
                names.sort();
                names.dedup();
                names
            },
            tag: request.tag.as_deref().map(redact_keys),
            fault: fault_text.as_deref().map(redact_keys),
            fault_applied: false,
            status: 0,
        };
        let mut log = PendingLog {
            state: self.clone(),
            entry: Some(entry),
        };

        // 1. Fault spec.
        let mut fault = match (queued, request.fault.as_deref().map(FaultSpec::parse)) {
            (Some((_, spec)), _) => spec,
            (None, None) => FaultSpec::default(),
            (None, Some(Ok(f))) => f,
            (None, Some(Err(e))) => {
                return Err(log.finish(graphql_error_response(
                    400,
                    &e.to_string(),
                    "BAD_FAULT_SPEC",
                )))
            }
        };
        if let Some(n) = fault.fail_first {
            let Some(tag) = request.tag.as_deref() else {
                return Err(log.finish(graphql_error_response(
                    400,
                    "malformed x-sandbox-fault header: fail-first needs an x-sandbox-tag header",
                    "BAD_FAULT_SPEC",
                )));
            };
            if self.count_tagged(tag) > n {
                fault = FaultSpec::default();
            }
        }
        if let Some(e) = log.entry.as_mut() {
            e.fault_applied = !fault.is_noop();
        }
        request.fault = None;
        Ok(Admitted {
            state: self.clone(),
            request,
            fault,
            log,
        })
    }
}

impl Admitted {
    /// How long the shell waits before [`Admitted::answer`] (the `delay=` fault).
    pub fn delay_ms(&self) -> Option<u64> {
        self.fault.delay_ms
    }

    /// Whether the request is never answered (the `hang` fault): the shell waits until its
    /// client gives up, then drops this (logged as the client gone).
    pub fn hangs(&self) -> bool {
        self.fault.hang
    }

    /// The answer: a dropped connection or substituted response (a proxy in front of the
    /// service: before authentication), else authentication, parsing and execution (then
    /// dropped for `drop-after`: the request took effect, its answer is lost).
    pub async fn answer(self) -> Answer {
        let Admitted {
            state,
            request,
            fault,
            log,
        } = self;
        // 2. Drop, substituted responses.
        if fault.drop {
            return Answer::Drop(Box::new(log));
        }
        let retry_after = fault
            .retry_after
            .clone()
            .filter(|v| http::HeaderValue::from_str(v).is_ok());
        let with_retry_after = |mut resp: CoreResponse| {
            if let Some(v) = &retry_after {
                resp.set_header("retry-after", v.clone());
            }
            resp
        };
        if fault.replaces_response() {
            let resp = fault_response(fault.replacement_status(), fault.body_kind());
            return log.finish(with_retry_after(resp));
        }
        // 3.-5. Authentication, parsing, execution.
        let resp = with_retry_after(serve_graphql(&state, request, &fault).await);
        if fault.drop_after {
            return Answer::Drop(Box::new(log));
        }
        log.finish(resp)
    }
}

/// Authentication, then the GraphQL request parsed by async-graphql's own HTTP layer and
/// executed (with the `partial` fault's extra error when asked).
async fn serve_graphql(state: &AppState, request: CoreRequest, fault: &FaultSpec) -> CoreResponse {
    // 3. Authentication.
    let identity = match authenticate(
        request.authorization.as_deref(),
        request.endpoint,
        &state.store,
    ) {
        Ok(id) => id,
        Err(message) => {
            let mut resp = graphql_error_response(401, message, "UNAUTHENTICATED");
            resp.set_header("www-authenticate", "Bearer".into());
            return resp;
        }
    };

    // 4. The GraphQL request, parsed by async-graphql's own HTTP layer.
    let Some(body) = request.body else {
        return graphql_error_response(413, "Request body too large", "BAD_REQUEST");
    };
    let gql = match async_graphql::http::receive_body(
        request.content_type.as_deref(),
        futures_util::io::Cursor::new(body),
        async_graphql::http::MultipartOptions::default(),
    )
    .await
    {
        Ok(r) => r,
        Err(e) => {
            return graphql_error_response(
                400,
                &format!("Invalid GraphQL request: {e}"),
                "BAD_REQUEST",
            );
        }
    };

    // 5. Execute (after the observed-schema check, extras off).
    let partial_field = fault
        .partial
        .then(|| first_top_level_field(&gql.query, gql.operation_name.as_deref()));
    let query = gql.query.clone();
    let operation_name = gql.operation_name.clone();
    let refused = state.observed.as_ref().and_then(|o| {
        o.check(
            request.endpoint,
            &query,
            operation_name.as_deref(),
            &gql.variables,
        )
    });
    let mut response = match (refused, identity) {
        (Some(errors), _) => async_graphql::Response::from_errors(errors),
        (None, Identity::Agent(i)) => state.bot.execute(gql.data(AgentIdentity(i))).await,
        (None, Identity::Merchant { secret }) => {
            state
                .merchant
                .execute(gql.data(MerchantIdentity { secret }))
                .await
        }
    };
    add_error_codes(&mut response);
    propagate_root_nulls(
        &mut response,
        &query,
        operation_name.as_deref(),
        match request.endpoint {
            Endpoint::Bot => &state.bot_non_null,
            Endpoint::Merchant => &state.merchant_non_null,
        },
    );
    if let Some(field) = partial_field {
        let mut err = ServerError::new("sandbox partial failure", None);
        err.path = field.map(PathSegment::Field).into_iter().collect();
        let mut ext = async_graphql::ErrorExtensionValues::default();
        ext.set("code", "PARTIAL");
        err.extensions = Some(ext);
        response.errors.push(err);
    }
    let body = serde_json::to_vec(&response).unwrap_or_default();
    let status = fault.status.unwrap_or(200);
    CoreResponse::new(status, Some(JSON_CONTENT_TYPE), body)
}

/// Gives every engine error an `extensions.code`, like the real service's server does:
/// bad argument/variable values → BAD_USER_INPUT, unparsable documents →
/// GRAPHQL_PARSE_FAILED, other document errors → GRAPHQL_VALIDATION_FAILED.
fn add_error_codes(response: &mut async_graphql::Response) {
    for err in &mut response.errors {
        if err
            .extensions
            .as_ref()
            .is_some_and(|e| e.get("code").is_some())
        {
            continue;
        }
        let m = err.message.as_str();
        let code = if m.starts_with("Failed to parse")
            || m.starts_with("Invalid value for argument")
            || (m.starts_with("Variable") && !err.path.is_empty())
        {
            "BAD_USER_INPUT"
        } else if m.contains("-->") && err.path.is_empty() {
            "GRAPHQL_PARSE_FAILED"
        } else if err.path.is_empty() {
            "GRAPHQL_VALIDATION_FAILED"
        } else {
            "INTERNAL_SERVER_ERROR"
        };
        err.extensions
            .get_or_insert_with(Default::default)
            .set("code", code);
    }
}

/// GraphQL null propagation at the root, which async-graphql skips: when a root field's
/// resolver fails, async-graphql leaves its key out of `data`. The spec (and the real
/// service) then answer `"field": null` for a nullable field (every mutation here), and
/// `data: null` for a non-null one (`orderHistory`, `account`, …). `non_null` lists the
/// non-null root fields as `(root type, field name)`; a key that cannot be matched to a
/// field counts as non-null (the conservative answer).
fn propagate_root_nulls(
    response: &mut async_graphql::Response,
    query: &str,
    operation_name: Option<&str>,
    non_null: &HashSet<(String, String)>,
) {
    let failed_root_keys = || {
        response.errors.iter().filter_map(|e| match e.path.first() {
            Some(PathSegment::Field(key)) => Some(key.clone()),
            _ => None,
        })
    };
    // When every root field failed, async-graphql answers `data: null` instead of `{}`.
    let mut data = match &response.data {
        async_graphql::Value::Object(data) => data.clone(),
        async_graphql::Value::Null if failed_root_keys().next().is_some() => Default::default(),
        _ => return,
    };
    let missing: Vec<String> = failed_root_keys()
        .filter(|key| !data.contains_key(key.as_str()))
        .collect();
    if missing.is_empty() {
        return;
    }
    let Some((root, fields)) = root_fields(query, operation_name) else {
        response.data = async_graphql::Value::Null;
        return;
    };
    let nullable = |key: &String| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .is_some_and(|(_, name)| !non_null.contains(&(root.to_string(), name.clone())))
    };
    if !missing.iter().all(nullable) {
        response.data = async_graphql::Value::Null;
        return;
    }
    // Rebuild in selection order, the failed nullable fields as null.
    let mut out = async_graphql::indexmap::IndexMap::new();
    for (key, _) in &fields {
        let name = async_graphql::Name::new(key);
        if out.contains_key(&name) {
            continue;
        }
        if let Some(v) = data.shift_remove(&name) {
            out.insert(name, v);
        } else if missing.contains(key) {
            out.insert(name, async_graphql::Value::Null);
        }
    }
    out.extend(data);
    response.data = async_graphql::Value::Object(out);
}

/// `(root type, field name)` of every non-null field of the schema's `Query` and
/// `Mutation` types, read from its SDL.
pub fn non_null_root_fields(sdl: &str) -> HashSet<(String, String)> {
    use async_graphql::parser::types::{TypeKind, TypeSystemDefinition};
    let Ok(doc) = async_graphql::parser::parse_schema(sdl) else {
        return HashSet::new();
    };
    let mut out = HashSet::new();
    for def in doc.definitions {
        let TypeSystemDefinition::Type(t) = def else {
            continue;
        };
        let name = t.node.name.node.to_string();
        if name != "Query" && name != "Mutation" {
            continue;
        }
        if let TypeKind::Object(o) = &t.node.kind {
            for f in &o.fields {
                if !f.node.ty.node.nullable {
                    out.insert((name.clone(), f.node.name.node.to_string()));
                }
            }
        }
    }
    out
}

/// The operation a request runs: the document's only one, the one named `operation_name`, or
/// (several and no name) the first; `None` when the name matches none.
fn chosen_operation<'a>(
    doc: &'a async_graphql::parser::types::ExecutableDocument,
    operation_name: Option<&str>,
) -> Option<&'a async_graphql::Positioned<async_graphql::parser::types::OperationDefinition>> {
    use async_graphql::parser::types::DocumentOperations;
    match (&doc.operations, operation_name) {
        (DocumentOperations::Single(op), _) => Some(op),
        (DocumentOperations::Multiple(ops), Some(name)) => ops
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, op)| op),
        (DocumentOperations::Multiple(ops), None) => ops.values().next(),
    }
}

/// The chosen operation's root type (`Query`/`Mutation`/`Subscription`) and its top-level
/// fields as `(response key, field name)`, fragments included.
fn root_fields(
    query: &str,
    operation_name: Option<&str>,
) -> Option<(&'static str, Vec<(String, String)>)> {
    use async_graphql::parser::types::{
        ExecutableDocument, OperationType, Selection, SelectionSet,
    };
    fn collect(
        doc: &ExecutableDocument,
        set: &SelectionSet,
        depth: usize,
        out: &mut Vec<(String, String)>,
    ) {
        if depth > 16 {
            return;
        }
        for sel in &set.items {
            match &sel.node {
                Selection::Field(f) => out.push((
                    f.node.response_key().node.to_string(),
                    f.node.name.node.to_string(),
                )),
                Selection::InlineFragment(i) => {
                    collect(doc, &i.node.selection_set.node, depth + 1, out)
                }
                Selection::FragmentSpread(s) => {
                    if let Some(frag) = doc.fragments.get(&s.node.fragment_name.node) {
                        collect(doc, &frag.node.selection_set.node, depth + 1, out);
                    }
                }
            }
        }
    }
    let doc = async_graphql::parser::parse_query(query).ok()?;
    let op = chosen_operation(&doc, operation_name)?;
    let root = match op.node.ty {
        OperationType::Query => "Query",
        OperationType::Mutation => "Mutation",
        OperationType::Subscription => "Subscription",
    };
    let mut out = Vec::new();
    collect(&doc, &op.node.selection_set.node, 0, &mut out);
    Some((root, out))
}

/// Response key (alias or name) of the first field the chosen operation selects.
pub fn first_top_level_field(query: &str, operation_name: Option<&str>) -> Option<String> {
    use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
    fn first(doc: &ExecutableDocument, set: &SelectionSet, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        set.items.iter().find_map(|sel| match &sel.node {
            Selection::Field(f) => Some(f.node.response_key().node.to_string()),
            Selection::InlineFragment(i) => first(doc, &i.node.selection_set.node, depth + 1),
            Selection::FragmentSpread(s) => doc
                .fragments
                .get(&s.node.fragment_name.node)
                .and_then(|frag| first(doc, &frag.node.selection_set.node, depth + 1)),
        })
    }
    let doc = async_graphql::parser::parse_query(query).ok()?;
    let op = chosen_operation(&doc, operation_name)?;
    first(&doc, &op.node.selection_set.node, 0)
}
