//! Shared state, the axum router and its handlers.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_graphql::{PathSegment, ServerError};
use async_graphql_axum::{rejection::GraphQLRejection, GraphQLRequest, GraphQLResponse};
use axum::body::{to_bytes, Body};
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{json, Value};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};
use tower_http::services::ServeDir;

use crate::data::{Store, KEY_NAMES, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};
use crate::fault::{BodyKind, FaultSpec};
use crate::net::ConnControl;
use crate::schema::{
    build_bot_schema, build_merchant_schema, AgentIdentity, BotSchema, MerchantIdentity,
    MerchantSchema, SchemaConfig,
};

pub const TAG_HEADER: &str = "x-sandbox-tag";
pub const FAULT_HEADER: &str = "x-sandbox-fault";
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

pub struct AppState {
    pub store: Arc<Store>,
    pub config: Config,
    bot: BotSchema,
    merchant: MerchantSchema,
    /// Non-null root fields of each schema (for null propagation at the root).
    bot_non_null: HashSet<(String, String)>,
    merchant_non_null: HashSet<(String, String)>,
    log: Mutex<RequestLog>,
    fail_counts: Mutex<HashMap<String, u64>>,
}

impl AppState {
    pub fn new(config: Config) -> Arc<AppState> {
        let store = Arc::new(Store::seeded());
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

/// Builds the whole app: GraphQL endpoints, hosted ramp page, coin icons and static files
/// behind a permissive CORS layer (any origin may call the service, as with the real one),
/// and the sandbox control routes (`/__sandbox/info`, `/orders`, `/requests`, `/state`) behind a CORS
/// layer that only admits loopback origins (`http://127.0.0.1`, `http://localhost`,
/// `http://[::1]`, any port: the sandbox's own pages and local test runners such as
/// wasm-bindgen-test's): they hand out every key and can clear the log, so no web page
/// from elsewhere may read or call them.
pub fn build_router(state: Arc<AppState>) -> Router {
    let statics = Router::new()
        .nest_service("/pkg", ServeDir::new(state.config.static_root.join("pkg")))
        .fallback_service(ServeDir::new(state.config.static_root.join("www")))
        .layer(middleware::from_fn(static_headers));
    let open_cors = CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::POST, Method::GET, Method::OPTIONS, Method::DELETE])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([header::RETRY_AFTER])
        .allow_private_network(true)
        .max_age(Duration::from_secs(600));
    let control_cors = CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(|origin, _| {
            is_loopback_origin(origin.as_bytes())
        }))
        .allow_methods([Method::GET, Method::OPTIONS, Method::DELETE, Method::POST])
        .allow_headers(AllowHeaders::mirror_request())
        .max_age(Duration::from_secs(600));
    let control = Router::new()
        .route("/__sandbox/info", get(info))
        .route("/__sandbox/orders", get(orders).post(create_order))
        .route(
            "/__sandbox/requests",
            get(list_requests).delete(clear_requests),
        )
        .route("/__sandbox/state", get(agent_state).delete(reset_state))
        .route("/__sandbox/transfer", post(transfer))
        .route("/__sandbox/ramp/complete", post(complete))
        .route("/__sandbox/ramp/expire-quote", post(expire_quote))
        .route("/__sandbox/onchain/settle", post(settle_withdrawal))
        .with_state(state.clone())
        .layer(control_cors);
    let open = Router::new()
        .route("/service/bot/graphql", post(bot_graphql))
        .route("/service/api/graphql", post(merchant_graphql))
        .route("/__sandbox/icons/{file}", get(icon))
        .route("/hosted/ramp", get(ramp_page))
        .route("/hosted/ramp/payment-request", post(ramp_payment_request))
        .with_state(state)
        .merge(statics)
        .layer(open_cors);
    control.merge(open)
}

/// Whether an `Origin` is a loopback one: `http://127.0.0.1`, `http://localhost` or
/// `http://[::1]`, with or without a port (the control routes admit these only).
pub fn is_loopback_origin(origin: &[u8]) -> bool {
    ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        .iter()
        .any(|host| match origin.strip_prefix(host.as_bytes()) {
            Some([]) => true,
            Some([b':', port @ ..]) => !port.is_empty() && port.iter().all(u8::is_ascii_digit),
            _ => false,
        })
}

/// Exact content types for the wasm-pack output, and no caching of dev builds.
async fn static_headers(req: Request, next: Next) -> Response {
    let path = req.uri().path().to_ascii_lowercase();
    let mut resp = next.run(req).await;
    if resp.status().is_success() {
        let ct = if path.ends_with(".wasm") {
            Some("application/wasm")
        } else if path.ends_with(".js") || path.ends_with(".mjs") {
            Some("text/javascript; charset=utf-8")
        } else {
            None
        };
        if let Some(ct) = ct {
            resp.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(ct));
        }
        resp.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    resp
}

/// `{"data":null,"errors":[{"message":..,"extensions":{"code":..}}]}` with a status.
pub fn graphql_error_response(status: u16, message: &str, code: &str) -> Response {
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
    let body = serde_json::to_string(&Body {
        data: None,
        errors: [Error {
            message,
            extensions: Code { code },
        }],
    })
    .unwrap_or_default();
    let mut resp = (
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        body,
    )
        .into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, json_content_type());
    resp
}

fn json_content_type() -> HeaderValue {
    HeaderValue::from_static("application/json; charset=utf-8")
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
fn fault_response(status: u16, kind: BodyKind) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let reason = code.canonical_reason().unwrap_or("Error");
    let message = format!("sandbox injected fault: HTTP {status} {reason}");
    match kind {
        BodyKind::Json => graphql_error_response(status, &message, status_code_name(status)),
        BodyKind::Html => {
            let page = format!(
                "<!DOCTYPE html>\n<html><head><title>{status} {reason}</title></head>\
                 <body><h1>{status} {reason}</h1><p>{message}</p><hr><p>sandbox-proxy</p></body></html>\n"
            );
            let mut resp = (code, page).into_response();
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            resp
        }
        BodyKind::Empty => {
            let mut resp = Response::new(Body::empty());
            *resp.status_mut() = code;
            resp
        }
        BodyKind::Truncated => {
            let full = json!({"data": {"sandbox": {"message": message, "note": "this body is cut off on purpose"}}})
                .to_string();
            let cut = full[..full.len() / 2].to_string();
            let mut resp = (code, cut).into_response();
            resp.headers_mut()
                .insert(header::CONTENT_TYPE, json_content_type());
            resp
        }
    }
}

enum Identity {
    Agent(usize),
    Merchant { secret: bool },
}

/// Checks `Authorization: Bearer <key>` for an endpoint. Errors never contain the key.
fn authenticate(
    headers: &HeaderMap,
    endpoint: Endpoint,
    store: &Store,
) -> Result<Identity, &'static str> {
    let Some(raw) = headers.get(header::AUTHORIZATION) else {
        return Err("Missing API key: send Authorization: Bearer <key>");
    };
    let raw = raw
        .to_str()
        .map_err(|_| "Malformed Authorization header")?
        .trim();
    let key = match raw.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => return Err("Malformed Authorization header: expected 'Bearer <key>'"),
    };
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

async fn bot_graphql(State(state): State<Arc<AppState>>, req: Request) -> Response {
    graphql_endpoint(state, Endpoint::Bot, req).await
}

async fn merchant_graphql(State(state): State<Arc<AppState>>, req: Request) -> Response {
    graphql_endpoint(state, Endpoint::Merchant, req).await
}

fn header_text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .map(|v| match v.to_str() {
            Ok(s) => s.trim().to_string(),
            Err(_) => String::from_utf8_lossy(v.as_bytes()).trim().to_string(),
        })
        .filter(|s| !s.is_empty())
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
struct PendingLog {
    state: Arc<AppState>,
    entry: Option<LogEntry>,
}

impl PendingLog {
    fn record(&mut self, status: u16) {
        if let Some(mut entry) = self.entry.take() {
            entry.status = status;
            self.state.record(entry);
        }
    }

    fn finish(mut self, resp: Response) -> Response {
        self.record(resp.status().as_u16());
        resp
    }
}

impl Drop for PendingLog {
    fn drop(&mut self) {
        self.record(STATUS_CLIENT_GONE);
    }
}

/// The GraphQL endpoints: fault handling, auth, execution, logging.
async fn graphql_endpoint(state: Arc<AppState>, endpoint: Endpoint, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let conn = parts.extensions.get::<Arc<ConnControl>>().cloned();
    let tag = header_text(&parts.headers, TAG_HEADER);
    let fault_text = header_text(&parts.headers, FAULT_HEADER);
    let body = to_bytes(body, MAX_BODY_BYTES).await;

    // What the log records about the request, read leniently from the JSON body.
    let peek: Value = body
        .as_ref()
        .ok()
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null);
    let entry = LogEntry {
        seq: 0,
        endpoint,
        operation_name: peek
            .get("operationName")
            .and_then(Value::as_str)
            .map(redact_keys),
        query: peek.get("query").and_then(Value::as_str).map(redact_keys),
        variables: redact_value(peek.get("variables").cloned().unwrap_or(Value::Null)),
        has_authorization: parts.headers.contains_key(header::AUTHORIZATION),
        header_names: {
            let mut names: Vec<String> = parts
                .headers
                .keys()
                .map(|n| n.as_str().to_owned())
                .collect();
            names.sort();
            names.dedup();
            names
        },
        tag: tag.as_deref().map(redact_keys),
        fault: fault_text.as_deref().map(redact_keys),
        fault_applied: false,
        status: 0,
    };
    let mut log = PendingLog {
        state: state.clone(),
        entry: Some(entry),
    };

    // 1. Fault spec.
    let mut fault = match fault_text.as_deref().map(FaultSpec::parse) {
        None => FaultSpec::default(),
        Some(Ok(f)) => f,
        Some(Err(e)) => {
            return log.finish(graphql_error_response(
                400,
                &e.to_string(),
                "BAD_FAULT_SPEC",
            ))
        }
    };
    if let Some(n) = fault.fail_first {
        let Some(tag) = tag.as_deref() else {
            return log.finish(graphql_error_response(
                400,
                "malformed x-sandbox-fault header: fail-first needs an x-sandbox-tag header",
                "BAD_FAULT_SPEC",
            ));
        };
        if state.count_tagged(tag) > n {
            fault = FaultSpec::default();
        }
    }
    if let Some(e) = log.entry.as_mut() {
        e.fault_applied = !fault.is_noop();
    }

    // 2. Delay, drop, substituted responses (a proxy in front of the service: before auth).
    if let Some(ms) = fault.delay_ms {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if fault.drop {
        return drop_connection(log, conn).await;
    }
    let retry_after = fault
        .retry_after
        .as_deref()
        .and_then(|v| HeaderValue::from_str(v).ok());
    let with_retry_after = |mut resp: Response| {
        if let Some(v) = &retry_after {
            resp.headers_mut().insert(header::RETRY_AFTER, v.clone());
        }
        resp
    };
    if fault.replaces_response() {
        let resp = fault_response(fault.replacement_status(), fault.body_kind());
        return log.finish(with_retry_after(resp));
    }

    // 3.-5. Authentication, parsing, execution.
    let resp = with_retry_after(serve_graphql(&state, endpoint, parts, body, &fault).await);
    if fault.drop_after {
        // The request took effect (a mutation is applied); its answer is lost.
        return drop_connection(log, conn).await;
    }
    log.finish(resp)
}

/// Ends a request with a connection reset and no response (the `drop` and `drop-after`
/// faults), logged with status 0. In-process calls (no TCP connection) get a 502 instead.
async fn drop_connection(mut log: PendingLog, conn: Option<Arc<ConnControl>>) -> Response {
    if let Some(conn) = conn {
        log.record(0);
        conn.abort();
        // The connection task drops the socket now; this future is never resumed.
        return std::future::pending::<Response>().await;
    }
    let resp = graphql_error_response(
        502,
        "sandbox drop fault: no TCP connection to drop (in-process call)",
        "SANDBOX_FAULT",
    );
    log.finish(resp)
}

/// Authentication, then the GraphQL request parsed by async-graphql's own HTTP layer and
/// executed (with the `partial` fault's extra error when asked).
async fn serve_graphql(
    state: &AppState,
    endpoint: Endpoint,
    parts: axum::http::request::Parts,
    body: Result<axum::body::Bytes, axum::Error>,
    fault: &FaultSpec,
) -> Response {
    // 3. Authentication.
    let identity = match authenticate(&parts.headers, endpoint, &state.store) {
        Ok(id) => id,
        Err(message) => {
            let mut resp = graphql_error_response(401, message, "UNAUTHENTICATED");
            resp.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            return resp;
        }
    };

    // 4. The GraphQL request, parsed by async-graphql's own HTTP layer.
    let Ok(body) = body else {
        return graphql_error_response(413, "Request body too large", "BAD_REQUEST");
    };
    let http_req = Request::from_parts(parts, Body::from(body));
    let gql = match GraphQLRequest::<GraphQLRejection>::from_request(http_req, &()).await {
        Ok(r) => r.into_inner(),
        Err(rejection) => {
            return graphql_error_response(
                400,
                &format!("Invalid GraphQL request: {}", rejection.0),
                "BAD_REQUEST",
            );
        }
    };

    // 5. Execute.
    let partial_field = fault
        .partial
        .then(|| first_top_level_field(&gql.query, gql.operation_name.as_deref()));
    let query = gql.query.clone();
    let operation_name = gql.operation_name.clone();
    let mut response = match identity {
        Identity::Agent(i) => state.bot.execute(gql.data(AgentIdentity(i))).await,
        Identity::Merchant { secret } => {
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
        match endpoint {
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
    let mut resp = GraphQLResponse::from(response).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, json_content_type());
    if let Some(status) = fault.status {
        *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    }
    resp
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

/// The chosen operation's root type (`Query`/`Mutation`/`Subscription`) and its top-level
/// fields as `(response key, field name)`, fragments included.
fn root_fields(
    query: &str,
    operation_name: Option<&str>,
) -> Option<(&'static str, Vec<(String, String)>)> {
    use async_graphql::parser::types::{
        DocumentOperations, ExecutableDocument, OperationType, Selection, SelectionSet,
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
    let op = match (&doc.operations, operation_name) {
        (DocumentOperations::Single(op), _) => op,
        (DocumentOperations::Multiple(ops), Some(name)) => {
            ops.iter().find(|(n, _)| n.as_str() == name)?.1
        }
        (DocumentOperations::Multiple(ops), None) => ops.values().next()?,
    };
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
    use async_graphql::parser::types::{
        DocumentOperations, ExecutableDocument, Selection, SelectionSet,
    };
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
    let op = match (&doc.operations, operation_name) {
        (DocumentOperations::Single(op), _) => op,
        (DocumentOperations::Multiple(ops), Some(name)) => {
            ops.iter().find(|(n, _)| n.as_str() == name)?.1
        }
        (DocumentOperations::Multiple(ops), None) => ops.values().next()?,
    };
    first(&doc, &op.node.selection_set.node, 0)
}

async fn info(State(state): State<Arc<AppState>>) -> Json<Value> {
    let keys: serde_json::Map<String, Value> = KEY_NAMES
        .iter()
        .map(|(name, key)| (name.to_string(), Value::from(*key)))
        .collect();
    Json(json!({
        "keys": keys,
        "maxPerPage": state.config.max_per_page,
        "rampUrl": state.config.ramp_url,
        "sandboxUrl": state.config.base_url,
        "rampPagePath": "/hosted/ramp",
    }))
}

/// The `?agent=` of a control route (`1`, `2`, `3` or `agent-1`…) as an agent index:
/// `Ok(None)` when absent, `Err` for an unknown agent (answered with [`unknown_agent`]).
fn agent_param(state: &AppState, q: &HashMap<String, String>) -> Result<Option<usize>, ()> {
    let Some(agent) = q.get("agent") else {
        return Ok(None);
    };
    let n: Option<usize> = agent.trim().trim_start_matches("agent-").parse().ok();
    n.and_then(|n| n.checked_sub(1))
        .filter(|i| *i < state.store.agents.len())
        .map(Some)
        .ok_or(())
}

fn unknown_agent() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"error": "unknown agent (use 1, 2 or 3)"})),
    )
        .into_response()
}

fn missing_agent() -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({"error": "missing ?agent=1|2|3"})),
    )
        .into_response()
}

async fn orders(
    State(state): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    match agent_param(&state, &q) {
        Ok(Some(i)) => Json(&state.store.agents[i].state().orders).into_response(),
        Ok(None) => missing_agent(),
        Err(()) => unknown_agent(),
    }
}

/// `POST /__sandbox/orders?agent=N[&type=withdrawal|deposit]`: a new `pending` order for
/// that agent, at the head of its list (201, the order). Refused from a non-loopback
/// `Origin` (403), like the reset.
async fn create_order(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Some(origin) = headers.get(header::ORIGIN) {
        if !is_loopback_origin(origin.as_bytes()) {
            return (
                StatusCode::FORBIDDEN,
                Json(json!({"error": "orders can only be created from a loopback origin"})),
            )
                .into_response();
        }
    }
    let payment_type = match q.get("type").map(String::as_str) {
        None => None,
        Some("withdrawal") => Some(crate::data::PaymentType::Withdrawal),
        Some("deposit") => Some(crate::data::PaymentType::Deposit),
        Some(_) => {
            return (
                StatusCode::BAD_REQUEST,
                Json(json!({"error": "type must be withdrawal or deposit"})),
            )
                .into_response()
        }
    };
    match agent_param(&state, &q) {
        Ok(Some(i)) => {
            let order = state
                .store
                .create_pending_order(i, payment_type, unix_now());
            (StatusCode::CREATED, Json(order)).into_response()
        }
        Ok(None) => missing_agent(),
        Err(()) => unknown_agent(),
    }
}

/// The current time in Unix seconds.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// `GET /__sandbox/state?agent=N`: what the bot mutations changed that no query shows whole:
/// the agent's rates and margins and its payment methods (with liquidity).
async fn agent_state(
    State(state): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    match agent_param(&state, &q) {
        Ok(Some(i)) => {
            let s = state.store.agents[i].state();
            Json(json!({
                "agent": format!("agent-{}", i + 1),
                "rates": s.rates,
                "paymentMethods": s.payment_methods,
            }))
            .into_response()
        }
        Ok(None) => missing_agent(),
        Err(()) => unknown_agent(),
    }
}

/// `DELETE /__sandbox/state[?agent=N]`: puts orders, profile counters, rates and payment
/// methods of every agent (or of agent N) back to the seed (204). The request log is not
/// touched (`DELETE /__sandbox/requests` clears that). A DELETE carrying a non-loopback
/// `Origin` is refused (403) on top of the CORS preflight refusing it.
async fn reset_state(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Some(origin) = headers.get(header::ORIGIN) {
        if !is_loopback_origin(origin.as_bytes()) {
            return (
                StatusCode::FORBIDDEN,
                Json(
                    json!({"error": "the sandbox state can only be reset from a loopback origin"}),
                ),
            )
                .into_response();
        }
    }
    match agent_param(&state, &q) {
        Ok(agent) => {
            state.store.reset(agent);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(()) => unknown_agent(),
    }
}

async fn list_requests(
    State(state): State<Arc<AppState>>,
    Query(q): Query<HashMap<String, String>>,
) -> Json<Vec<LogEntry>> {
    Json(state.log_entries(q.get("tag").map(String::as_str)))
}

async fn clear_requests(State(state): State<Arc<AppState>>) -> StatusCode {
    state.clear_log();
    StatusCode::NO_CONTENT
}

async fn icon(Path(file): Path<String>, State(state): State<Arc<AppState>>) -> Response {
    let symbol = file.strip_suffix(".svg").unwrap_or("");
    let Some(w) = state
        .store
        .withdrawal_infos
        .iter()
        .find(|w| w.symbol.eq_ignore_ascii_case(symbol))
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" viewBox=\"0 0 64 64\">\
         <circle cx=\"32\" cy=\"32\" r=\"30\" fill=\"#2775ca\"/>\
         <text x=\"32\" y=\"38\" font-family=\"sans-serif\" font-size=\"14\" text-anchor=\"middle\" fill=\"#fff\">{}</text></svg>",
        w.symbol
    );
    ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()
}

/// A JSON error body `{"error": message}` with `status`.
fn control_error(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// `POST /hosted/ramp/payment-request` (the hosted ramp page, when it opens): the payment
/// request its parameters describe (`paymentType`, `coin`, `network`, `amount`, `currency`,
/// `reference`), found by `reference` or created; answers `{id, reference, status, amount,
/// coin, network}`. The page's `crypto.requested` message carries it.
async fn ramp_payment_request(
    State(state): State<Arc<AppState>>,
    body: axum::body::Bytes,
) -> Response {
    let Ok(request) = serde_json::from_slice::<crate::payments::RampRequest>(&body) else {
        return control_error(
            StatusCode::BAD_REQUEST,
            "expected a JSON object of ramp parameters",
        );
    };
    match state.store.merchant().open_ramp_request(&request) {
        Ok(p) => Json(json!({
            "id": p.id.as_str(),
            "reference": p.reference,
            "status": crate::payments::status_name(p.status),
            "amount": p.amount.0,
            "coin": p.coin,
            "network": p.network,
        }))
        .into_response(),
        Err(message) => control_error(StatusCode::BAD_REQUEST, &message),
    }
}

/// `POST /__sandbox/transfer` with `{"paymentRequest": id}`: a simulated onchain transfer
/// paying that request; answers `{"transactionHash": "0x…"}` for `confirmTransaction`. A
/// request carrying a non-loopback `Origin` is refused (403), as the state reset is.
async fn transfer(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    if headers
        .get(header::ORIGIN)
        .is_some_and(|o| !is_loopback_origin(o.as_bytes()))
    {
        return control_error(
            StatusCode::FORBIDDEN,
            "transfers can only be made from a loopback origin",
        );
    }
    let id = serde_json::from_slice::<Value>(&body).ok().and_then(|v| {
        v.get("paymentRequest")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    let Some(id) = id else {
        return control_error(
            StatusCode::BAD_REQUEST,
            "expected {\"paymentRequest\": \"<id>\"}",
        );
    };
    match state.store.merchant().transfer(&id) {
        Ok(hash) => Json(json!({ "transactionHash": hash })).into_response(),
        Err(e) if e.code == crate::mutations::NOT_FOUND => {
            control_error(StatusCode::NOT_FOUND, &e.message)
        }
        Err(e) => control_error(StatusCode::CONFLICT, &e.message),
    }
}

/// The string member `key` of a control route's JSON body, from a request without a
/// non-loopback `Origin`; else the answer refusing it (403, 400).
fn control_id(headers: &HeaderMap, body: &[u8], key: &str) -> Result<String, Box<Response>> {
    if headers
        .get(header::ORIGIN)
        .is_some_and(|o| !is_loopback_origin(o.as_bytes()))
    {
        return Err(Box::new(control_error(
            StatusCode::FORBIDDEN,
            "the sandbox's control routes take requests from a loopback origin only",
        )));
    }
    serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get(key).and_then(Value::as_str).map(str::to_owned))
        .ok_or_else(|| {
            Box::new(control_error(
                StatusCode::BAD_REQUEST,
                &format!("expected {{\"{key}\": \"<id>\"}}"),
            ))
        })
}

/// A refused control action: 404 for an unknown id, else 409.
fn control_refusal(e: crate::mutations::MutationError) -> Response {
    let status = if e.code == crate::mutations::NOT_FOUND {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::CONFLICT
    };
    control_error(status, &e.message)
}

/// `POST /__sandbox/ramp/complete` with `{"paymentRequest": id}`: the sandbox's agent confirms
/// a paid direct-ramp deposit's fiat arrived (paid → completed); answers
/// `{"id", "status", "agent"}`. 404 unknown, 409 not a `paid` deposit.
async fn complete(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let id = match control_id(&headers, &body, "paymentRequest") {
        Ok(id) => id,
        Err(refused) => return *refused,
    };
    match state.store.merchant().ramp.complete(&id) {
        Ok(p) => Json(json!({
            "id": p.id.as_str(),
            "status": p.status.as_str(),
            "agent": p.agent,
        }))
        .into_response(),
        Err(e) => control_refusal(e),
    }
}

/// `POST /__sandbox/ramp/expire-quote` with `{"rampQuote": id}`: makes a direct-ramp quote
/// expired now (so a test need not wait 180 s); answers `{"id", "expiresAt"}`. 404 unknown.
async fn expire_quote(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let id = match control_id(&headers, &body, "rampQuote") {
        Ok(id) => id,
        Err(refused) => return *refused,
    };
    match state.store.merchant().ramp.expire_quote(&id, unix_now()) {
        Ok(q) => Json(json!({ "id": q.id.as_str(), "expiresAt": q.expires_at })).into_response(),
        Err(e) => control_refusal(e),
    }
}

/// `POST /__sandbox/onchain/settle` with `{"withdrawal": id, "status": "completed" |
/// "failed"}` (default `completed`): the sandbox's chain settles a pending onchain withdrawal;
/// answers `{"id", "status", "txhash"}`. 404 unknown, 409 not `pending`.
async fn settle_withdrawal(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let id = match control_id(&headers, &body, "withdrawal") {
        Ok(id) => id,
        Err(refused) => return *refused,
    };
    let status = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("status").and_then(Value::as_str).map(str::to_owned));
    let completed = match status.as_deref() {
        None | Some("completed") => true,
        Some("failed") => false,
        Some(_) => {
            return control_error(
                StatusCode::BAD_REQUEST,
                "status must be \"completed\" or \"failed\"",
            )
        }
    };
    let settled = state
        .store
        .merchant()
        .settle_withdrawal(&id, completed, &state.config.base_url);
    match settled {
        Ok(w) => Json(json!({ "id": w.id.as_str(), "status": w.status, "txhash": w.txhash }))
            .into_response(),
        Err(e) => control_refusal(e),
    }
}

async fn ramp_page() -> Html<&'static str> {
    Html(crate::ramp::RAMP_PAGE_HTML)
}
