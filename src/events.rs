//! Observing calls, sans I/O: what the events a client delivers to its listeners hold
//! (`request`, `response`, `retry`, `error`, `done`), the response behind a result, and the
//! logger's lines. Every rule of what an observer may see lives here: a response's headers
//! lose `set-cookie` and every piece of the key, the service's request id is read from the
//! headers that carry one, a URL or message is redacted. (A logger's line is written by the
//! shell from these members only, so it is as clean as they are.) The shells (the Rust API's
//! [`crate::call::run`], the npm package's `call.ts`) only measure time, read headers and
//! deliver what a [`Trace`] builds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::config::Config;
use crate::error::{Code, Error};

/// The kinds of event a client emits, by the names `on` and `off` take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Before each attempt.
    Request,
    /// After each attempt that got an answer.
    Response,
    /// Before the backoff sleep of a retry.
    Retry,
    /// When a call ends with an error.
    Error,
    /// When a call ends, whatever its outcome.
    Done,
}

impl EventType {
    /// Every type, in the order a call emits them.
    pub const ALL: [EventType; 5] = [
        EventType::Request,
        EventType::Response,
        EventType::Retry,
        EventType::Error,
        EventType::Done,
    ];

    /// The type named `name` (`"request"`, `"response"`, `"retry"`, `"error"`, `"done"`).
    pub fn parse(name: &str) -> Option<EventType> {
        Some(match name {
            "request" => EventType::Request,
            "response" => EventType::Response,
            "retry" => EventType::Retry,
            "error" => EventType::Error,
            "done" => EventType::Done,
            _ => return None,
        })
    }

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            EventType::Request => "request",
            EventType::Response => "response",
            EventType::Retry => "retry",
            EventType::Error => "error",
            EventType::Done => "done",
        }
    }
}

/// An unknown event type or a listener that is not a function: `invalid_input` naming it.
pub fn invalid_type() -> Error {
    Error::invalid(
        "type",
        "type: not an event type (request, response, retry, error, done)",
    )
}

/// Why a call is sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryReason {
    /// The response asked for a wait (`Retry-After`), which is the delay.
    RetryAfter,
    /// A retryable status (429, 502, 503, 504) without `Retry-After`.
    Status,
    /// The attempt timed out.
    Timeout,
    /// The attempt failed before an answer (connection, DNS, reset).
    Network,
}

impl RetryReason {
    /// Why the failure `err` (a retryable one) is retried.
    pub fn of(err: &Error) -> RetryReason {
        match err.code {
            _ if err.retry_after_ms.is_some() => RetryReason::RetryAfter,
            Code::Timeout => RetryReason::Timeout,
            Code::Network => RetryReason::Network,
            _ => RetryReason::Status,
        }
    }

    /// The reason's name in events: `"retry-after"`, `"status"`, `"timeout"`, `"network"`.
    pub fn name(self) -> &'static str {
        match self {
            RetryReason::RetryAfter => "retry-after",
            RetryReason::Status => "status",
            RetryReason::Timeout => "timeout",
            RetryReason::Network => "network",
        }
    }
}

/// A retry the core decided: the wait before the next attempt and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The wait before the next attempt, in ms.
    pub delay_ms: u64,
    /// Why the call is retried.
    pub reason: RetryReason,
    /// The status of the failed attempt's response, if it had one.
    pub status: Option<u16>,
}

/// The `(name, value)` pairs of a header block: `name: value` lines (as the npm shell writes
/// the headers it read); a line without `:` is skipped.
// A closure, not the `char` pattern clippy suggests: that pattern's searcher adds to the wasm.
#[allow(clippy::manual_pattern_char_comparison)]
pub fn header_lines(block: &str) -> impl Iterator<Item = (&str, &str)> {
    block.split_terminator(|c| c == '\n').filter_map(|line| {
        let at = line.bytes().position(|b| b == b':')?;
        let (name, value) = (line.get(..at)?, line.get(at + 1..)?);
        Some((name.trim_ascii(), value.trim_ascii()))
    })
}

/// The headers a request id is read from, in order of preference (lower case).
pub const REQUEST_ID_HEADERS: [&str; 3] = ["x-request-id", "request-id", "x-correlation-id"];

/// The response behind an attempt, as events, results and errors show it: the status, the
/// headers (names in lower case, `set-cookie` left out, every piece of the key redacted) and
/// the service's request id when one of [`REQUEST_ID_HEADERS`] carries it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ResponseInfo {
    /// The HTTP status.
    pub status: u16,
    /// The headers, in the order received, `set-cookie` and `set-cookie2` left out.
    pub headers: Vec<(String, String)>,
    /// The service's request id, if a header carries one.
    pub request_id: Option<String>,
}

impl ResponseInfo {
    /// The response info of `status` and the raw `headers`, redacted with `config`'s key.
    pub fn new<'a>(
        status: u16,
        headers: impl IntoIterator<Item = (&'a str, &'a str)>,
        config: &Config,
    ) -> ResponseInfo {
        let mut kept: Vec<(String, String)> = Vec::new();
        for (name, value) in headers {
            let cookie = ["set-cookie", "set-cookie2"];
            if !cookie.iter().any(|c| name.eq_ignore_ascii_case(c)) {
                let name = config.redact_text(name).to_ascii_lowercase();
                kept.push((name, config.redact_text(value).into_owned()));
            }
        }
        let headers = kept;
        let request_id = REQUEST_ID_HEADERS.iter().find_map(|wanted| {
            headers
                .iter()
                .find(|(name, value)| name == wanted && !value.trim_ascii().is_empty())
                .map(|(_, value)| value.trim_ascii().to_owned())
        });
        ResponseInfo {
            status,
            headers,
            request_id,
        }
    }
}

/// What made a call: the client's method itself, or one of the helpers that make calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A method of the client (`profile()`, `request()`...).
    Call,
    /// A page of `orders()`.
    Orders,
    /// A search of `reconcile`.
    Reconcile,
    /// A poll of `watchOrders`.
    WatchOrders,
    /// A confirmation of `confirmUntilSettled`.
    ConfirmUntilSettled,
    /// An upstream call of the server proxy (`createProxyHandler`).
    Proxy,
}

impl Source {
    /// The source's name in events (`"call"`, `"orders"`, `"reconcile"`, `"watchOrders"`,
    /// `"confirmUntilSettled"`, `"proxy"`).
    pub fn name(self) -> &'static str {
        match self {
            Source::Call => "call",
            Source::Orders => "orders",
            Source::Reconcile => "reconcile",
            Source::WatchOrders => "watchOrders",
            Source::ConfirmUntilSettled => "confirmUntilSettled",
            Source::Proxy => "proxy",
        }
    }

    /// The source named `name`, as [`Source::name`] writes it.
    pub fn parse(name: &str) -> Option<Source> {
        Some(match name {
            "call" => Source::Call,
            "orders" => Source::Orders,
            "reconcile" => Source::Reconcile,
            "watchOrders" => Source::WatchOrders,
            "confirmUntilSettled" => Source::ConfirmUntilSettled,
            "proxy" => Source::Proxy,
            _ => return None,
        })
    }
}

/// What every event of one call carries: its id (the same across its attempts), its
/// operation's name and kind, and what made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallInfo {
    /// The call's id, unique in this process: `"call-1"`, `"call-2"`...
    pub id: String,
    /// The operation's name (`"profile"`), or `"request"` for a caller's own document.
    pub operation: &'static str,
    /// `"query"` or `"mutation"`.
    pub kind: &'static str,
    /// What made the call.
    pub source: Source,
}

/// A new call id, unique in this process.
pub fn next_call_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let mut id = Line(String::from("call-"));
    id.number(NEXT.fetch_add(1, Ordering::Relaxed));
    id.0
}

/// One event of a call. Every text in it is redacted; its headers never hold `set-cookie`.
#[derive(Clone, Debug)]
pub enum Event {
    /// Before attempt `attempt` (1 for the first).
    Request {
        /// The call.
        call: CallInfo,
        /// The attempt's number, from 1.
        attempt: u32,
        /// The endpoint URL (never a key).
        url: String,
    },
    /// After an attempt that got an answer.
    Response {
        /// The call.
        call: CallInfo,
        /// The attempt's number, from 1.
        attempt: u32,
        /// The time from the attempt's start to its answer, in whole ms.
        duration_ms: u64,
        /// The response.
        response: ResponseInfo,
    },
    /// Before the backoff sleep of a retry.
    Retry {
        /// The call.
        call: CallInfo,
        /// The attempt that failed, from 1.
        attempt: u32,
        /// The delay and why.
        backoff: Backoff,
    },
    /// The call ended with `error` (redacted).
    Error {
        /// The call.
        call: CallInfo,
        /// The error the call ends with.
        error: Error,
    },
    /// The call ended (after `error`, when it failed).
    Done {
        /// The call.
        call: CallInfo,
        /// The time from the first attempt's start to the end, in whole ms.
        duration_ms: u64,
        /// How many attempts were sent.
        attempts: u32,
    },
}

impl Event {
    /// The event's type.
    pub fn event_type(&self) -> EventType {
        match self {
            Event::Request { .. } => EventType::Request,
            Event::Response { .. } => EventType::Response,
            Event::Retry { .. } => EventType::Retry,
            Event::Error { .. } => EventType::Error,
            Event::Done { .. } => EventType::Done,
        }
    }

    /// The call the event is about.
    pub fn call(&self) -> &CallInfo {
        match self {
            Event::Request { call, .. }
            | Event::Response { call, .. }
            | Event::Retry { call, .. }
            | Event::Error { call, .. }
            | Event::Done { call, .. } => call,
        }
    }
}

/// The logger method a line goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// An attempt that got an answer.
    Debug,
    /// A retry.
    Warn,
    /// A call that failed.
    Error,
}

impl Level {
    /// The logger method's name: `"debug"`, `"warn"` or `"error"`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

impl Event {
    /// The logger's line for this event, and its level: one per attempt that got an answer
    /// (`debug`), per retry (`warn`) and per failed call (`error`); none for `request` and
    /// `done`. Written from the event's members only (already redacted); every number in it
    /// is an integer. For example
    /// `settlement-wasm call-3 query profile (call): attempt 1: 503 in 12 ms, request id r-1`.
    pub fn log_line(&self) -> Option<(Level, String)> {
        let call = self.call();
        let mut line = Line(String::from("settlement-wasm "));
        let source = call.source.name();
        line.text(&[
            &call.id,
            " ",
            call.kind,
            " ",
            call.operation,
            " (",
            source,
            "): ",
        ]);
        let level = match self {
            Event::Response {
                attempt,
                duration_ms,
                response,
                ..
            } => {
                line.text(&["attempt "]);
                line.number(u64::from(*attempt));
                line.text(&[": "]);
                line.number(u64::from(response.status));
                line.text(&[" in "]);
                line.number(*duration_ms);
                line.text(&[" ms"]);
                if let Some(id) = &response.request_id {
                    line.text(&[", request id ", id]);
                }
                Level::Debug
            }
            Event::Retry {
                attempt, backoff, ..
            } => {
                line.text(&["attempt "]);
                line.number(u64::from(*attempt));
                line.text(&[" failed (", backoff.reason.name()]);
                if let Some(status) = backoff.status {
                    line.text(&[" "]);
                    line.number(u64::from(status));
                }
                line.text(&["), retry in "]);
                line.number(backoff.delay_ms);
                line.text(&[" ms"]);
                Level::Warn
            }
            Event::Error { error, .. } => {
                line.text(&["failed: ", error.code_str(), " ", &error.message]);
                Level::Error
            }
            Event::Request { .. } | Event::Done { .. } => return None,
        };
        Some((level, line.0))
    }
}

/// A logger line being written: texts and whole numbers, in order. (Numbers are written by
/// [`crate::text::push_unsigned`]: the `fmt` machinery is not needed for them.)
struct Line(String);

impl Line {
    /// Appends each of `parts`.
    fn text(&mut self, parts: &[&str]) {
        for part in parts {
            self.0.push_str(part);
        }
    }

    /// Appends `n` in decimal.
    fn number(&mut self, n: u64) {
        crate::text::push_unsigned(&mut self.0, n);
    }
}

/// One call's observation: builds its events in order, from the times and responses the shell
/// measured. The shell makes one per call (only when something listens) and delivers what each
/// method returns.
#[derive(Clone, Debug)]
pub struct Trace {
    call: CallInfo,
    started_ms: f64,
    attempt_started_ms: f64,
    attempts: u32,
}

impl Trace {
    /// The observation of the call `call`, from `now_ms`.
    pub fn new(call: CallInfo, now_ms: f64) -> Trace {
        Trace {
            call,
            started_ms: now_ms,
            attempt_started_ms: now_ms,
            attempts: 0,
        }
    }

    /// The call observed.
    pub fn call(&self) -> &CallInfo {
        &self.call
    }

    /// An attempt starts now: its `request` event.
    pub fn request(&mut self, config: &Config, now_ms: f64) -> Event {
        self.attempts += 1;
        self.attempt_started_ms = now_ms;
        Event::Request {
            call: self.call.clone(),
            attempt: self.attempts,
            url: config.redact_text(config.endpoint()).into_owned(),
        }
    }

    /// The current attempt was answered with `response` now: its `response` event.
    pub fn response(&mut self, response: ResponseInfo, now_ms: f64) -> Event {
        Event::Response {
            call: self.call.clone(),
            attempt: self.attempts,
            duration_ms: elapsed(self.attempt_started_ms, now_ms),
            response,
        }
    }

    /// The current attempt failed and the call is retried after `backoff`.
    pub fn retry(&self, backoff: Backoff) -> Event {
        Event::Retry {
            call: self.call.clone(),
            attempt: self.attempts,
            backoff,
        }
    }

    /// The call ends with `error` (already redacted; redacted again, cheaply, to be sure).
    pub fn error(&self, config: &Config, error: &Error) -> Event {
        Event::Error {
            call: self.call.clone(),
            error: config.redact(error.clone()),
        }
    }

    /// The call ends now.
    pub fn done(&self, now_ms: f64) -> Event {
        Event::Done {
            call: self.call.clone(),
            duration_ms: elapsed(self.started_ms, now_ms),
            attempts: self.attempts,
        }
    }
}

/// The whole milliseconds from `from` to `to` (rounded; 0 when the clock went back or is not
/// a number): every duration an observer sees is an integer.
fn elapsed(from: f64, to: f64) -> u64 {
    let d = to - from;
    if d.is_finite() && d > 0.0 {
        (d + 0.5) as u64
    } else {
        0
    }
}

/// The `log` target of the Rust API's lines: an application shows them by enabling it in its
/// logger (`RUST_LOG=settlement_wasm=debug` with `env_logger`, for example).
pub const LOG_TARGET: &str = "settlement_wasm";

/// A listener of the Rust API: called with each event of its type, after the fact.
pub type Listener = Arc<dyn Fn(&Event) + Send + Sync>;

/// The listeners of one Rust client. A listener that panics is reported once (on stderr) and
/// never breaks the call.
#[derive(Default)]
pub struct Listeners {
    list: Mutex<Vec<(EventType, Listener)>>,
    reported: std::sync::atomic::AtomicBool,
}

impl Listeners {
    /// Adds `listener` for events of `event_type` (the same listener twice is called once).
    pub fn on(&self, event_type: EventType, listener: Listener) {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        if !list
            .iter()
            .any(|(t, l)| *t == event_type && Arc::ptr_eq(l, &listener))
        {
            list.push((event_type, listener));
        }
    }

    /// Removes `listener` from events of `event_type`.
    pub fn off(&self, event_type: EventType, listener: &Listener) {
        let mut list = self.list.lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|(t, l)| !(*t == event_type && Arc::ptr_eq(l, listener)));
    }

    /// Whether any listener is registered (else a call builds no event at all).
    pub fn is_empty(&self) -> bool {
        self.list.lock().map_or(true, |l| l.is_empty())
    }

    /// Whether a call must be observed: a listener is registered, or the application's
    /// logger takes this crate's lines (target [`LOG_TARGET`], at `error` or more).
    pub fn observed(&self) -> bool {
        !self.is_empty() || log::log_enabled!(target: LOG_TARGET, log::Level::Error)
    }

    /// Delivers `event` to the listeners of its type, and its line ([`Event::log_line`]) to
    /// the `log` facade (target [`LOG_TARGET`]; `debug` for an answer, `warn` for a retry,
    /// `error` for a failed call).
    pub fn emit(&self, event: &Event) {
        // Nothing is written unless the application's logger takes this target at all.
        let logged = log::log_enabled!(target: LOG_TARGET, log::Level::Error);
        if let Some((level, line)) = logged.then(|| event.log_line()).flatten() {
            let level = match level {
                Level::Debug => log::Level::Debug,
                Level::Warn => log::Level::Warn,
                Level::Error => log::Level::Error,
            };
            log::log!(target: LOG_TARGET, level, "{line}");
        }
        let wanted = event.event_type();
        let listeners: Vec<Listener> = {
            let list = self.list.lock().unwrap_or_else(|e| e.into_inner());
            list.iter()
                .filter(|(t, _)| *t == wanted)
                .map(|(_, l)| Arc::clone(l))
                .collect()
        };
        for listener in listeners {
            let run = std::panic::AssertUnwindSafe(|| listener(event));
            if std::panic::catch_unwind(run).is_err()
                && !self.reported.swap(true, Ordering::Relaxed)
            {
                #[cfg(not(target_arch = "wasm32"))]
                eprintln!("settlement-wasm: an event listener panicked (reported once)");
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
