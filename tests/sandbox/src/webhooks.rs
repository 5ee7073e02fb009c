//! Webhook deliveries, as the service sends them: a `POST` of `{ "event_type", "data" }` (the
//! service's snake_case keys) with the token in the header `X-CASHRAMP-TOKEN`, to the URL given
//! with `--webhook-url` (and `--webhook-token`), or set at run time with
//! `POST /__sandbox/webhooks/target`.
//!
//! An observer compares the merchant's state every [`OBSERVE_EVERY`] with what it saw last and
//! sends one event per change it models: a hosted payment's request (`payment_request.updated`),
//! an onchain withdrawal (`onchain_tx.updated`), a direct-ramp deposit (`payment_request.updated`)
//! or withdrawal (`fiat_payout.updated`), created or with a new status. A delivery answered with
//! a non-2xx status (or not answered within [`TIMEOUT`]) is retried after a growing delay, at
//! most [`ATTEMPTS`] times in all. Every attempt is logged (stderr, and `GET /__sandbox/webhooks`):
//! what, when, which answer; never the token.
//!
//! Control routes: `POST /__sandbox/webhooks/send` `{ event_type, data }` sends any event
//! (`chargeback.initiated` too); `POST /__sandbox/webhooks/replay` sends the last one again;
//! `DELETE /__sandbox/webhooks` forgets the target and the log; `GET /__sandbox/webhooks` lists
//! the attempts. A request carrying a non-loopback `Origin` is refused (403), as on every
//! control route.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::data::Store;

/// How often the observer compares the merchant's state.
pub const OBSERVE_EVERY: Duration = Duration::from_millis(100);
/// The most attempts of one delivery (the first and its retries).
pub const ATTEMPTS: u32 = 4;
/// The delay before the first retry; doubled before each next one.
pub const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// How long one attempt may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// The most log entries kept.
const MAX_LOG: usize = 1000;

/// Where deliveries go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `http://host:port/path` (plain HTTP: the sandbox is local).
    pub url: String,
    /// Sent in `X-CASHRAMP-TOKEN`; never logged.
    pub token: String,
}

/// One attempt of one delivery, as logged.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Attempt {
    pub event_type: String,
    pub id: String,
    pub status: String,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The receiver's HTTP status, when it answered.
    pub answer: Option<u16>,
    /// Why there was no answer (connection refused, timeout, …).
    pub error: Option<String>,
}

/// The sandbox's webhook sender: its target, the last event sent, and the log.
pub struct Webhooks {
    target: Mutex<Option<Target>>,
    last: Mutex<Option<Value>>,
    log: Mutex<Vec<Attempt>>,
    queue: mpsc::UnboundedSender<Value>,
    log_to_stderr: bool,
}

impl Webhooks {
    /// A sender to `target` (none: events are dropped until one is set), and its delivery
    /// task (one delivery at a time, in order).
    pub fn start(target: Option<Target>, log_to_stderr: bool) -> Arc<Webhooks> {
        let (queue, mut rx) = mpsc::unbounded_channel::<Value>();
        let hooks = Arc::new(Webhooks {
            target: Mutex::new(target),
            last: Mutex::new(None),
            log: Mutex::new(Vec::new()),
            queue,
            log_to_stderr,
        });
        let weak = Arc::downgrade(&hooks);
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                let Some(hooks) = weak.upgrade() else { return };
                hooks.deliver(&event).await;
            }
        });
        hooks
    }

    /// Queues `{ event_type, data }` for delivery (when there is a target) and keeps it as the
    /// last event.
    pub fn send(&self, event: Value) {
        *lock(&self.last) = Some(event.clone());
        if lock(&self.target).is_some() {
            let _ = self.queue.send(event);
        }
    }

    /// Sends the last event again (a replay): false when there was none.
    pub fn replay(&self) -> bool {
        let last = lock(&self.last).clone();
        match last {
            Some(e) => {
                self.send(e);
                true
            }
            None => false,
        }
    }

    /// Every attempt so far.
    pub fn log(&self) -> Vec<Attempt> {
        lock(&self.log).clone()
    }

    async fn deliver(&self, event: &Value) {
        let Some(target) = lock(&self.target).clone() else {
            return;
        };
        let body = event.to_string();
        let text = |name: &str| match &event["data"][name] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        let event_type = event["event_type"].as_str().unwrap_or_default().to_owned();
        let mut delay = FIRST_BACKOFF;
        for attempt in 1..=ATTEMPTS {
            let result = tokio::time::timeout(TIMEOUT, post_once(&target, &body)).await;
            let (answer, error) = match result {
                Ok(Ok(status)) => (Some(status), None),
                Ok(Err(e)) => (None, Some(e)),
                Err(_) => (None, Some("timeout".to_owned())),
            };
            let entry = Attempt {
                event_type: event_type.clone(),
                id: text("id"),
                status: text("status"),
                attempt,
                at_ms: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64),
                answer,
                error,
            };
            if self.log_to_stderr {
                eprintln!(
                    "webhook {} {} {} attempt {attempt}/{ATTEMPTS}: {}",
                    entry.event_type,
                    entry.id,
                    entry.status,
                    match (&entry.answer, &entry.error) {
                        (Some(s), _) => format!("answered {s}"),
                        (None, Some(e)) => format!("no answer ({e})"),
                        _ => String::new(),
                    }
                );
            }
            {
                let mut log = lock(&self.log);
                if log.len() >= MAX_LOG {
                    log.remove(0);
                }
                log.push(entry);
            }
            if matches!(answer, Some(s) if (200..300).contains(&s)) || attempt == ATTEMPTS {
                return;
            }
            tokio::time::sleep(delay).await;
            delay *= 2;
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One HTTP/1.1 `POST` of `body` to `target` (plain HTTP); its status.
async fn post_once(target: &Target, body: &str) -> Result<u16, String> {
    let rest = target
        .url
        .strip_prefix("http://")
        .ok_or("the webhook URL must start with http://")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let mut stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| format!("connect: {}", e.kind()))?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nX-CASHRAMP-TOKEN: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        target.token,
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .await
        .map_err(|e| format!("write: {}", e.kind()))?;
    stream
        .write_all(body.as_bytes())
        .await
        .map_err(|e| format!("write: {}", e.kind()))?;
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    // The status line is all that is needed.
    while !answer.windows(2).any(|w| w == b"\r\n") && answer.len() < 4096 {
        let n = stream
            .read(&mut buf)
            .await
            .map_err(|e| format!("read: {}", e.kind()))?;
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&answer);
    line.split(' ')
        .nth(1)
        .and_then(|s| s.trim().parse::<u16>().ok())
        .ok_or_else(|| "no HTTP status".to_owned())
}

/// Sends an event for every object created or with a new status since the last look, every
/// [`OBSERVE_EVERY`], until `shutdown`. What exists at start is seen, not sent.
pub async fn observe(
    store: Arc<Store>,
    hooks: Arc<Webhooks>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let mut watch = crate::webhook_events::EventWatch::new(&store);
    let mut ticks = tokio::time::interval(OBSERVE_EVERY);
    loop {
        tokio::select! {
            _ = ticks.tick() => {
                for event in watch.changes(&store) {
                    hooks.send(event);
                }
            }
            _ = shutdown.changed() => return,
        }
    }
}

/// The control routes (`/__sandbox/webhooks…`).
pub fn routes(hooks: Arc<Webhooks>) -> Router {
    Router::new()
        .route("/__sandbox/webhooks", get(list).delete(forget))
        .route("/__sandbox/webhooks/target", post(set_target))
        .route("/__sandbox/webhooks/send", post(send))
        .route("/__sandbox/webhooks/replay", post(replay))
        .route_layer(axum::middleware::from_fn(loopback_only))
        .with_state(hooks)
}

/// As every control route: a request carrying a non-loopback `Origin` is refused (403).
async fn loopback_only(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let foreign = request
        .headers()
        .get(axum::http::header::ORIGIN)
        .is_some_and(|o| !crate::server::is_loopback_origin(o.as_bytes()));
    if foreign {
        return (
            StatusCode::FORBIDDEN,
            "the sandbox's control routes take requests from a loopback origin only",
        )
            .into_response();
    }
    next.run(request).await
}

async fn list(State(hooks): State<Arc<Webhooks>>) -> Json<Value> {
    let target = lock(&hooks.target).as_ref().map(|t| t.url.clone());
    Json(json!({ "target": target, "deliveries": hooks.log() }))
}

async fn forget(State(hooks): State<Arc<Webhooks>>) -> StatusCode {
    *lock(&hooks.target) = None;
    *lock(&hooks.last) = None;
    lock(&hooks.log).clear();
    StatusCode::NO_CONTENT
}

/// `{ url, token }`: where the next deliveries go.
async fn set_target(State(hooks): State<Arc<Webhooks>>, Json(body): Json<Value>) -> StatusCode {
    match (body["url"].as_str(), body["token"].as_str()) {
        (Some(url), Some(token)) if url.starts_with("http://") && !token.is_empty() => {
            *lock(&hooks.target) = Some(Target {
                url: url.to_owned(),
                token: token.to_owned(),
            });
            StatusCode::NO_CONTENT
        }
        _ => StatusCode::BAD_REQUEST,
    }
}

/// `{ event_type, data }`: sent as is.
async fn send(State(hooks): State<Arc<Webhooks>>, Json(body): Json<Value>) -> StatusCode {
    if body["event_type"].is_string() && body["data"].is_object() {
        hooks.send(json!({ "event_type": body["event_type"], "data": body["data"] }));
        StatusCode::ACCEPTED
    } else {
        StatusCode::BAD_REQUEST
    }
}

async fn replay(State(hooks): State<Arc<Webhooks>>) -> StatusCode {
    if hooks.replay() {
        StatusCode::ACCEPTED
    } else {
        StatusCode::NOT_FOUND
    }
}
