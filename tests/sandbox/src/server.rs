//! The HTTP shell of the sandbox: the axum router, its handlers and the control routes. A
//! GraphQL request is read off HTTP, answered by the core (`service.rs`) and written back;
//! only the waiting (`delay=`) and the connection reset (`drop`, `drop-after`) happen here.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};
use tower_http::services::ServeDir;

use crate::data::KEY_NAMES;
use crate::net::ConnControl;
pub use crate::service::{
    default_static_root, first_top_level_field, non_null_root_fields, AppState, Config, Endpoint,
    LogEntry, PendingLog, LOG_CAPACITY, MAX_BODY_BYTES, STATUS_CLIENT_GONE,
};
use crate::service::{Answer, CoreRequest, CoreResponse};

pub const TAG_HEADER: &str = "x-sandbox-tag";
pub const FAULT_HEADER: &str = "x-sandbox-fault";

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
    to_http(crate::service::graphql_error_response(
        status, message, code,
    ))
}

/// The core's response as an HTTP one.
fn to_http(core: CoreResponse) -> Response {
    let mut resp = Response::new(Body::from(core.body));
    *resp.status_mut() = StatusCode::from_u16(core.status).unwrap_or(StatusCode::OK);
    for (name, value) in core.headers {
        if let Ok(v) = HeaderValue::from_str(&value) {
            resp.headers_mut().insert(name, v);
        }
    }
    resp
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

/// The GraphQL endpoints: the request read off HTTP, admitted by the core, delayed as its
/// fault says (a client leaving meanwhile is logged as gone), answered by the core.
async fn graphql_endpoint(state: Arc<AppState>, endpoint: Endpoint, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let conn = parts.extensions.get::<Arc<ConnControl>>().cloned();
    let request = CoreRequest {
        endpoint,
        authorization: parts
            .headers
            .get(header::AUTHORIZATION)
            .map(|v| v.as_bytes().to_vec()),
        content_type: parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        header_names: parts
            .headers
            .keys()
            .map(|n| n.as_str().to_owned())
            .collect(),
        tag: header_text(&parts.headers, TAG_HEADER),
        fault: header_text(&parts.headers, FAULT_HEADER),
        body: to_bytes(body, MAX_BODY_BYTES)
            .await
            .ok()
            .map(|b| b.to_vec()),
    };
    let answer = match state.admit(request) {
        Err(answer) => answer,
        Ok(admitted) => {
            if admitted.hangs() {
                // Until the client goes away, which drops this future (logged as gone).
                return std::future::pending::<Response>().await;
            }
            if let Some(ms) = admitted.delay_ms() {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            admitted.answer().await
        }
    };
    match answer {
        Answer::Respond(resp) => to_http(resp),
        Answer::Drop(log) => drop_connection(*log, conn).await,
    }
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
    log.record(502);
    graphql_error_response(
        502,
        "sandbox drop fault: no TCP connection to drop (in-process call)",
        "SANDBOX_FAULT",
    )
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
            let order =
                state
                    .store
                    .create_pending_order(i, payment_type, state.store.clock.now_secs());
            (StatusCode::CREATED, Json(order)).into_response()
        }
        Ok(None) => missing_agent(),
        Err(()) => unknown_agent(),
    }
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
    match state
        .store
        .merchant()
        .ramp
        .expire_quote(&id, state.store.clock.now_secs())
    {
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
