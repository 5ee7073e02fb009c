//! One GraphQL call, sans I/O: [`prepare`] validates the arguments and writes the body;
//! [`PreparedCall::decide`] takes what one attempt brought back and says what follows (the
//! value, the error, or a retry after a delay). The shells drive it: [`run`] over a
//! [`Transport`] for the Rust API, and the npm package's TypeScript over `fetch`.
//!
//! [`Client`] is what the Rust clients (`BotClient`, `MerchantClient`) are built on: one
//! validated [`Config`], one [`Transport`], and prepared calls to run through them.

use crate::config::{ClientOptions, Config};
use crate::error::{Code, Error};
use crate::events::{
    Backoff, CallInfo, Event, EventType, Listener, Listeners, ResponseInfo, RetryReason, Source,
    Trace,
};
use crate::graphql::{self, decode_response, Expect, Text};
use crate::json::{Json, JsonValue};
use crate::operations::{Arguments, Endpoint, Operation, Value};
use crate::retry;
use crate::transport::{is_aborted, HttpRequest, HttpResponse, Signal, Transport, TransportError};
use crate::types::{from_json, FieldOptions};

/// A validated call, ready to send: the JSON body, whether it may be retried, what the
/// response's `data` must look like, and the caller's signal. Built by [`prepare`] (which
/// does all validation, before any I/O) and driven attempt by attempt with
/// [`PreparedCall::before_attempt`] and [`PreparedCall::decide`].
#[derive(Clone)]
pub struct PreparedCall {
    pub(crate) body: Text,
    pub(crate) retryable: bool,
    pub(crate) expect: Expect,
    pub(crate) signal: Option<Signal>,
    /// The operation's field name, e.g. `"profile"` (`"request"` for a caller's own document).
    pub(crate) operation: &'static str,
}

/// What a shell observed of one attempt, with what the decision needs from its environment.
pub struct Attempt {
    /// The attempt's number: 0 for the first.
    pub number: u32,
    /// The response, or why there was none.
    pub sent: Result<HttpResponse, TransportError>,
    /// Whether the caller's signal was aborted when the result arrived: an abort wins over
    /// any result that came before the decision.
    pub aborted: bool,
    /// The current time in ms since the Unix epoch (dates an HTTP-date `Retry-After`).
    pub now_ms: f64,
    /// A random number in `[0, 1)` (the backoff's jitter).
    pub random: f64,
}

/// What follows one attempt.
pub enum Next {
    /// The call succeeded.
    Done(Success),
    /// The call failed; the error is redacted.
    Fail(Error),
    /// Wait (the backoff's delay), then send the call again (the next attempt).
    Retry(Backoff),
}

/// A successful call: the HTTP status and the value the operation's expectation selected.
pub struct Success {
    /// The HTTP status of the response.
    pub status: u16,
    /// The value selected from `data`.
    pub value: Json,
}

impl PreparedCall {
    /// The call of `op` with its document and checked variables.
    pub fn new(
        op: &Operation,
        document: &str,
        variables: &[(&'static str, Value)],
        signal: Option<Signal>,
    ) -> Result<PreparedCall, Error> {
        let body = graphql::Body {
            query: document,
            variables: graphql::Variables::Named(variables),
            operation_name: Some(op.name),
        };
        Ok(PreparedCall {
            body: body.to_text().ok_or_else(unwritable)?,
            retryable: op.retryable(),
            expect: op.expect(),
            signal,
            operation: op.field,
        })
    }

    /// What every event of this call carries, with a new call id; `source`: what made it.
    pub fn call_info(&self, source: Source) -> CallInfo {
        CallInfo {
            id: crate::events::next_call_id(),
            operation: self.operation,
            kind: if self.retryable { "query" } else { "mutation" },
            source,
        }
    }

    /// The JSON request body (a JavaScript string on wasm32).
    pub fn body(&self) -> &Text {
        &self.body
    }

    /// Whether the call may be retried (read-only operations only).
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }

    /// The caller's signal, if any.
    pub fn signal(&self) -> Option<&Signal> {
        self.signal.as_ref()
    }

    /// Before each attempt: `aborted` when the caller's signal already is. A call aborted
    /// before it was sent is `aborted`, a mutation's too: it cannot have taken effect.
    pub fn before_attempt(&self, aborted: bool) -> Result<(), Error> {
        if aborted {
            Err(Error::aborted())
        } else {
            Ok(())
        }
    }

    /// What follows `attempt`: the decoded value, the error (redacted with `config`), or a
    /// retry after a backoff delay.
    ///
    /// Only read-only calls are retried, and only after a retryable failure ([`retry`]),
    /// up to `config.max_retries()`. A call that is not read-only (a mutation) is sent once:
    /// a network error, timeout or abort after it was sent ends in `outcome_unknown`. An abort
    /// that arrived before this decision wins over the attempt's result.
    pub fn decide(&self, config: &Config, attempt: Attempt) -> Next {
        let number = attempt.number;
        let random = attempt.random;
        let err = match self.outcome(config, attempt) {
            Ok(success) => return Next::Done(success),
            Err(err) => err,
        };
        if err.code == Code::Aborted
            || !self.retryable
            || number >= config.max_retries()
            || !retry::is_retryable(&err)
        {
            return Next::Fail(self.ended(config, err));
        }
        Next::Retry(Backoff {
            delay_ms: retry::delay_ms(number, err.retry_after_ms, random),
            reason: RetryReason::of(&err),
            status: err.status,
        })
    }

    /// The error a call ends with after the failure `err`, redacted: a call that is not
    /// read-only (a mutation) is sent once, and without an answer (network error, timeout,
    /// abort after sending) its effect is unknown (`outcome_unknown`).
    fn ended(&self, config: &Config, err: Error) -> Error {
        if !self.retryable && matches!(err.code, Code::Network | Code::Timeout | Code::Aborted) {
            config.redact(Error::outcome_unknown(&err))
        } else {
            config.redact(err)
        }
    }

    /// What the one attempt of a call that is sent once amounts to (the proxy's upstream
    /// call: the client behind the proxy decides on retries): the value, or the error the
    /// call ends with, as [`PreparedCall::decide`] would end it.
    #[cfg(feature = "server")]
    pub fn once(&self, config: &Config, attempt: Attempt) -> Result<Success, Error> {
        self.outcome(config, attempt)
            .map_err(|err| self.ended(config, err))
    }

    /// The call the proxy forwards for `op`: its `body` as the proxy wrote it, sent once.
    #[cfg(feature = "server")]
    pub fn forwarded(op: &Operation, body: Text) -> PreparedCall {
        PreparedCall {
            body,
            retryable: op.retryable(),
            expect: op.expect(),
            signal: None,
            operation: op.field,
        }
    }

    /// What one attempt amounts to, before any retry decision: the decoded value, or the
    /// error it is (not yet redacted). An abort that arrived before this wins over the
    /// attempt's result. [`PreparedCall::decide`] and the order watch
    /// ([`crate::watch::Watch::settle`]) both start here.
    pub fn outcome(&self, config: &Config, attempt: Attempt) -> Result<Success, Error> {
        let sent = if attempt.aborted {
            Err(TransportError::Aborted)
        } else {
            attempt.sent
        };
        match sent {
            Ok(response) => decode_response(
                response.status,
                response.retry_after.as_deref(),
                &response.body,
                attempt.now_ms,
                self.expect,
            )
            .map(|value| Success {
                status: response.status,
                value,
            }),
            Err(TransportError::Aborted) => Err(Error::aborted()),
            Err(TransportError::Timeout) => Err(Error::timeout(config.timeout_ms())),
            Err(TransportError::Network(reason)) => Err(Error::network(&reason)),
        }
    }
}

/// What a client's `with_response` collects while its function runs: the response behind the
/// value of the first call the scoped client it was given made (the npm shell's `withResponse`
/// does the same with the first call its function starts).
#[derive(Debug, Default)]
pub(crate) struct Capture {
    /// Whether a call already took this capture: only the first one is observed.
    taken: std::sync::atomic::AtomicBool,
    /// The response behind that call's value, once it succeeded.
    response: std::sync::Mutex<Option<ResponseInfo>>,
}

impl Capture {
    /// Whether the call starting now is the first of the scope (and so the one observed).
    fn take(&self) -> bool {
        !self.taken.swap(true, std::sync::atomic::Ordering::SeqCst)
    }

    /// The scope's value with the response behind it; `invalid_input` (`call`) when the
    /// function made no call with the client it was given.
    pub(crate) fn finish<R>(&self, data: R) -> Result<(R, ResponseInfo), Error> {
        let response = self.response.lock().ok().and_then(|mut slot| slot.take());
        match response {
            Some(response) => Ok((data, response)),
            None => Err(Error::invalid(
                "call",
                "call: must make one call with the client it is given, e.g. |c| async move { c.profile(Default::default()).await }",
            )),
        }
    }
}

/// A client's `with_response`: runs `start` with `scoped` (a clone of the client whose calls
/// offer their response to `capture`) and returns its value with the response behind it.
pub(crate) async fn with_response<C, R, Fut>(
    scoped: C,
    capture: &Capture,
    start: impl FnOnce(C) -> Fut,
) -> Result<(R, ResponseInfo), Error>
where
    Fut: std::future::Future<Output = Result<R, Error>>,
{
    let data = start(scoped).await?;
    capture.finish(data)
}

/// The response behind a value: the one the transport gave, or the status alone.
fn response_or_status(response: Option<ResponseInfo>, status: u16) -> ResponseInfo {
    response.unwrap_or(ResponseInfo {
        status,
        ..ResponseInfo::default()
    })
}

/// The shared core of the Rust clients: configuration, transport, and running prepared
/// calls. `BotClient` and `MerchantClient` dereference to it, so `client.execute(&call)`,
/// `client.config()` and `client.transport()` work on both.
pub struct Client<T: Transport> {
    config: Config,
    transport: T,
    listeners: Listeners,
}

impl<T: Transport> Client<T> {
    /// Validates `options` for the endpoint at `path` under `baseUrl`.
    pub fn new(options: &ClientOptions, path: &str, transport: T) -> Result<Self, Error> {
        let config = Config::new(options, path)?;
        Ok(Client {
            config,
            transport,
            listeners: Listeners::default(),
        })
    }

    /// Calls `listener` with every event of `event_type` of this client's calls, after the
    /// fact (it cannot change the call; a panic in it is reported once and ignored). The same
    /// `Arc` is added once; keep a clone to remove it with [`Client::off`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use settlement_wasm::events::{Event, EventType, Listener};
    /// let listener: Listener = Arc::new(|event: &Event| println!("{}", event.call().id));
    /// # let _ = (listener, EventType::Request);
    /// ```
    pub fn on(&self, event_type: EventType, listener: Listener) {
        self.listeners.on(event_type, listener);
    }

    /// Stops calling `listener` (an `Arc` given to [`Client::on`]) for `event_type`.
    pub fn off(&self, event_type: EventType, listener: &Listener) {
        self.listeners.off(event_type, listener);
    }

    /// The validated configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The listeners of the client's events.
    pub(crate) fn listeners(&self) -> &Listeners {
        &self.listeners
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// Sends a prepared call (with retries when allowed) and returns the value its
    /// expectation selects, as JSON. Errors are redacted.
    pub async fn execute(&self, call: &PreparedCall) -> Result<serde_json::Value, Error> {
        let s = self.execute_raw(call).await?;
        crate::json::to_value(&s.value, s.status)
    }

    /// [`Client::execute`], with the value as decoded (on wasm32, the JavaScript value).
    pub(crate) async fn execute_raw(&self, call: &PreparedCall) -> Result<Success, Error> {
        self.execute_from(call, Source::Call, false)
            .await
            .map(|(s, _)| s)
    }

    /// [`Client::execute_raw`] for a call `source` made, with the response behind the value
    /// when `want_response` (`None` when the transport gave none). Events go to the client's listeners.
    pub(crate) async fn execute_from(
        &self,
        call: &PreparedCall,
        source: Source,
        want_response: bool,
    ) -> Result<(Success, Option<ResponseInfo>), Error> {
        let listeners = &self.listeners;
        run_observed(
            &self.transport,
            &self.config,
            call,
            listeners,
            source,
            want_response,
        )
        .await
    }

    /// [`Client::execute`], with the response behind the value (status, headers without
    /// `set-cookie`, the service's request id), read from the same request.
    pub async fn execute_with_response(
        &self,
        call: &PreparedCall,
    ) -> Result<(serde_json::Value, ResponseInfo), Error> {
        let (s, response) = self.execute_from(call, Source::Call, true).await?;
        let response = response_or_status(response, s.status);
        Ok((crate::json::to_value(&s.value, s.status)?, response))
    }

    /// [`Client::execute_raw`] in a `with_response` scope: the scope's first call keeps the
    /// response behind its value in `capture`.
    async fn execute_in(
        &self,
        call: &PreparedCall,
        capture: Option<&Capture>,
    ) -> Result<Success, Error> {
        match capture.filter(|c| c.take()) {
            None => self.execute_raw(call).await,
            Some(capture) => {
                let (s, response) = self.execute_from(call, Source::Call, true).await?;
                if let Ok(mut slot) = capture.response.lock() {
                    *slot = Some(response_or_status(response, s.status));
                }
                Ok(s)
            }
        }
    }

    /// [`Client::execute`] in a `with_response` scope (see [`Client::execute_in`]).
    pub(crate) async fn execute_json_in(
        &self,
        call: &PreparedCall,
        capture: Option<&Capture>,
    ) -> Result<serde_json::Value, Error> {
        let s = self.execute_in(call, capture).await?;
        crate::json::to_value(&s.value, s.status)
    }

    /// [`Client::execute_typed`] in a `with_response` scope (see [`Client::execute_in`]).
    pub(crate) async fn execute_typed_in<R: serde::de::DeserializeOwned>(
        &self,
        call: Result<PreparedCall, Error>,
        capture: Option<&Capture>,
    ) -> Result<R, Error> {
        let s = self.execute_in(&call?, capture).await?;
        from_json(&s.value, s.status)
    }

    /// Runs a call (or returns its validation error) and converts the result into `R` (any
    /// type serde can read the operation's result into).
    pub async fn execute_typed<R: serde::de::DeserializeOwned>(
        &self,
        call: Result<PreparedCall, Error>,
    ) -> Result<R, Error> {
        let s = self.execute_raw(&call?).await?;
        from_json(&s.value, s.status)
    }

    /// Validates `values` (by the names callers know `op`'s arguments by) and
    /// `options.fields`, and builds the call (see [`prepare`]). Errors are redacted.
    pub(crate) fn prepare_on(
        &self,
        endpoint: Endpoint,
        op: &Operation,
        values: Arguments,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.redact(prepare(endpoint, op, values, options))
    }

    /// Redacts the key from an error result.
    pub fn redact<R>(&self, r: Result<R, Error>) -> Result<R, Error> {
        r.map_err(|e| self.config.redact(e))
    }
}

fn unwritable() -> Error {
    Error::invalid("arguments", "the request body could not be written")
}

/// Builds the call of `op` on a client of `endpoint`: refuses an operation of the other
/// endpoint, checks the values (by the names callers know the arguments by) and
/// `options.fields`, writes the body with the selection from `options.fields` or the
/// operation's default.
pub fn prepare(
    endpoint: Endpoint,
    op: &Operation,
    values: Arguments,
    options: FieldOptions,
) -> Result<PreparedCall, Error> {
    if op.endpoint != endpoint {
        let m = [op.field, " is not an operation of this client's endpoint"].concat();
        return Err(Error::invalid("operation", m));
    }
    let variables = op.variables(values)?;
    if op.fields.is_empty() && options.fields.is_some() {
        let m = [
            op.field,
            " returns a Boolean: there are no fields to select",
        ]
        .concat();
        return Err(Error::invalid("fields", m));
    }
    let selection = graphql::selection(options.fields.as_deref(), op.fields)?;
    PreparedCall::new(op, &op.document(&selection), &variables, options.signal)
}

/// Builds the call of a caller's own document (`request`): `variables` must be a JSON object
/// (it is sent as it is); the value is the whole `data`. Retryable only when every operation
/// in `document` is a query.
pub fn prepare_request(
    document: &str,
    variables: Option<&Json>,
    signal: Option<Signal>,
) -> Result<PreparedCall, Error> {
    crate::inputs::document(document)?;
    let bad = || {
        Error::invalid(
            "variables",
            "variables must be a plain object that JSON can represent",
        )
    };
    let variables = match variables.filter(|v| !v.is_null()) {
        None => graphql::Variables::None,
        Some(v) => match v.to_text() {
            Some(t) if v.is_object() && t.starts_with('{') => graphql::Variables::Caller(v),
            _ => return Err(bad()),
        },
    };
    let body = graphql::Body {
        query: document,
        variables,
        operation_name: None,
    };
    Ok(PreparedCall {
        body: body.to_text().ok_or_else(bad)?,
        retryable: graphql::is_read_only(document),
        expect: Expect::Data,
        signal,
        operation: "request",
    })
}

/// The request of every attempt of a call on `config`'s endpoint.
pub fn request<'a>(config: &'a Config, body: &'a Text) -> HttpRequest<'a> {
    HttpRequest {
        url: config.endpoint(),
        headers: config.headers(),
        body,
        timeout_ms: config.timeout_ms(),
    }
}

/// `work`, unless `signal` aborts first: then `work` is dropped (which cancels a send) and
/// the result is [`TransportError::Aborted`].
pub(crate) async fn unless_aborted<R>(
    signal: Option<&Signal>,
    work: impl std::future::Future<Output = Result<R, TransportError>>,
) -> Result<R, TransportError> {
    let Some(signal) = signal else {
        return work.await;
    };
    let work = std::pin::pin!(work);
    let aborted = std::pin::pin!(signal.aborted());
    match futures_util::future::select(work, aborted).await {
        futures_util::future::Either::Left((result, _)) => result,
        futures_util::future::Either::Right(((), _)) => Err(TransportError::Aborted),
    }
}

/// The Rust shell of a call: sends `call` over `transport`, attempt after attempt as
/// [`PreparedCall::decide`] says. The caller's signal is checked before every attempt, and
/// a send or backoff sleep in progress is dropped (cancelled) as soon as it aborts. Delivers
/// the call's events to `listeners` (tagged with `source`) when any is
/// registered (else no event is built), and returning the last response's info.
pub(crate) async fn run_observed<T: Transport>(
    transport: &T,
    config: &Config,
    call: &PreparedCall,
    listeners: &Listeners,
    source: Source,
    want_response: bool,
) -> Result<(Success, Option<ResponseInfo>), Error> {
    let request = request(config, &call.body);
    let signal = call.signal.as_ref();
    let mut trace = listeners
        .observed()
        .then(|| Trace::new(call.call_info(source), transport.now_ms()));
    let emit = |event: Event| listeners.emit(&event);
    let mut last: Option<(u16, Vec<(String, String)>)> = None;
    let mut number: u32 = 0;
    let result = loop {
        if let Err(e) = call.before_attempt(is_aborted(signal)) {
            break Err(e);
        }
        if let Some(t) = trace.as_mut() {
            emit(t.request(config, transport.now_ms()));
        }
        let sent = unless_aborted(signal, transport.send(&request, signal)).await;
        let mut sent = sent;
        if let Ok(response) = &mut sent {
            // Moved out (the decision does not read them): read only when observed or failed.
            let headers = std::mem::take(&mut response.headers);
            if let Some(t) = trace.as_mut() {
                let pairs = headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
                let info = ResponseInfo::new(response.status, pairs, config);
                emit(t.response(info, transport.now_ms()));
            }
            last = Some((response.status, headers));
        }
        let attempt = Attempt {
            number,
            sent,
            aborted: is_aborted(signal),
            now_ms: transport.now_ms(),
            random: transport.random(),
        };
        match call.decide(config, attempt) {
            Next::Done(success) => break Ok(success),
            Next::Fail(err) => break Err(err),
            // An abort during the sleep is seen before the next attempt.
            Next::Retry(backoff) => {
                if let Some(t) = trace.as_ref() {
                    emit(t.retry(backoff));
                }
                let _ = unless_aborted(signal, transport.sleep(backoff.delay_ms, signal)).await;
            }
        }
        number += 1;
    };
    let info = |(status, headers): &(u16, Vec<(String, String)>)| {
        let pairs = headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        ResponseInfo::new(*status, pairs, config)
    };
    #[cfg(not(feature = "npm-base"))]
    let result = result.map_err(|e| match &last {
        Some(raw) => e.with_response(&info(raw)),
        None => e,
    });
    if let Some(t) = trace.as_ref() {
        if let Err(e) = &result {
            emit(t.error(config, e));
        }
        emit(t.done(transport.now_ms()));
    }
    result.map(|s| (s, last.as_ref().filter(|_| want_response).map(info)))
}

/// The Rust shell of one attempt of a loop's call, sent once (a poll of `watch_orders`, a
/// confirmation of `confirm_until_settled`: the loop has its own backoff). `settle` is the
/// loop's core taking the attempt in: the backoff it chose after a transient failure, or the
/// error it ends with. Delivers the attempt's events to `listeners` (tagged with `source`)
/// when any is registered: `request`, `response` (when an answer came), `retry` (the loop's
/// backoff) or `error`, then `done`. The error carries the response's headers and request id.
pub(crate) async fn send_once<T: Transport>(
    transport: &T,
    config: &Config,
    call: &PreparedCall,
    listeners: &Listeners,
    source: Source,
    settle: impl FnOnce(Attempt) -> Result<Option<Backoff>, Error>,
) -> Result<Option<Backoff>, Error> {
    let signal = call.signal.as_ref();
    let mut trace = listeners
        .observed()
        .then(|| Trace::new(call.call_info(source), transport.now_ms()));
    let emit = |event: Event| listeners.emit(&event);
    if let Some(t) = trace.as_mut() {
        emit(t.request(config, transport.now_ms()));
    }
    let request = request(config, &call.body);
    let mut sent = unless_aborted(signal, transport.send(&request, signal)).await;
    let mut last = None;
    if let Ok(response) = &mut sent {
        let headers = std::mem::take(&mut response.headers);
        let pairs = headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        let info = ResponseInfo::new(response.status, pairs, config);
        if let Some(t) = trace.as_mut() {
            emit(t.response(info.clone(), transport.now_ms()));
        }
        last = Some(info);
    }
    let attempt = Attempt {
        number: 0,
        sent,
        aborted: is_aborted(signal),
        now_ms: transport.now_ms(),
        random: transport.random(),
    };
    let settled = settle(attempt).map_err(|e| {
        let e = config.redact(e);
        // The npm shell sets the response's headers on its errors itself.
        #[cfg(not(feature = "npm-base"))]
        let e = match &last {
            Some(info) => e.with_response(info),
            None => e,
        };
        #[cfg(feature = "npm-base")]
        let _ = &last;
        e
    });
    if let Some(t) = trace.as_ref() {
        match &settled {
            Ok(Some(backoff)) => emit(t.retry(*backoff)),
            Ok(None) => {}
            Err(e) => emit(t.error(config, e)),
        }
        emit(t.done(transport.now_ms()));
    }
    settled
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::operations::{Kind, ACCEPT_WITHDRAWAL, ALL, PROFILE};
    use crate::testing::sample;

    fn config() -> Config {
        let options = ClientOptions {
            endpoint: Some("https://settlement.invalid/graphql".into()),
            api_key: Some("SBX-SECK_q7Zr9Vx2secret".into()),
            ..ClientOptions::default()
        };
        Config::new(&options, "/unused").unwrap()
    }

    fn call(op: &Operation) -> PreparedCall {
        let values = op
            .args
            .iter()
            .map(|arg| (arg.caller, sample(op, arg)))
            .collect();
        prepare(op.endpoint, op, values, FieldOptions::default()).unwrap()
    }

    fn attempt(number: u32, sent: Result<HttpResponse, TransportError>, aborted: bool) -> Attempt {
        Attempt {
            number,
            sent,
            aborted,
            now_ms: 0.0,
            random: 0.5,
        }
    }

    fn ok_profile() -> Result<HttpResponse, TransportError> {
        Ok(HttpResponse {
            status: 200,
            retry_after: None,
            headers: Vec::new(),
            body: r#"{"data":{"profile":{"id":"a"}}}"#.into(),
        })
    }

    fn code(next: Next) -> String {
        match next {
            Next::Done(_) => "done".into(),
            Next::Fail(e) => e.code_str().into(),
            Next::Retry(b) => format!("retry {}", b.delay_ms),
        }
    }

    #[test]
    fn an_abort_before_the_decision_wins_over_the_result() {
        let config = config();
        let query = call(&PROFILE);
        assert_eq!(
            code(query.decide(&config, attempt(0, ok_profile(), false))),
            "done"
        );
        assert_eq!(
            code(query.decide(&config, attempt(0, ok_profile(), true))),
            "aborted"
        );
        let http = Ok(HttpResponse {
            status: 503,
            retry_after: None,
            headers: Vec::new(),
            body: String::new(),
        });
        assert_eq!(
            code(query.decide(&config, attempt(0, http, true))),
            "aborted"
        );
        // A mutation that was sent: its effect is unknown, whatever came back.
        let mutation = call(&ACCEPT_WITHDRAWAL);
        assert_eq!(
            code(mutation.decide(&config, attempt(0, ok_profile(), true))),
            "outcome_unknown"
        );
    }

    #[test]
    fn an_abort_before_sending_is_aborted_even_for_a_mutation() {
        let mutation = call(&ACCEPT_WITHDRAWAL);
        assert_eq!(
            mutation.before_attempt(true).unwrap_err().code_str(),
            "aborted"
        );
        assert!(mutation.before_attempt(false).is_ok());
    }

    #[test]
    fn retries_only_read_only_calls_and_only_up_to_max_retries() {
        let config = config();
        let failed = || Err(TransportError::Network("down".into()));
        let query = call(&PROFILE);
        assert!(code(query.decide(&config, attempt(0, failed(), false))).starts_with("retry "));
        let last = config.max_retries();
        assert_eq!(
            code(query.decide(&config, attempt(last, failed(), false))),
            "network"
        );
        let mutation = call(&ACCEPT_WITHDRAWAL);
        assert_eq!(
            code(mutation.decide(&config, attempt(0, failed(), false))),
            "outcome_unknown"
        );
    }

    #[test]
    fn failures_are_redacted_by_the_decision() {
        let config = config();
        let echo = Ok(HttpResponse {
            status: 401,
            retry_after: None,
            headers: Vec::new(),
            body: r#"{"errors":[{"message":"bad key SBX-SECK_q7Zr9Vx2secret"}]}"#.into(),
        });
        match call(&PROFILE).decide(&config, attempt(0, echo, false)) {
            Next::Fail(e) => {
                let text = format!("{} {:?}", e.message, e.graphql_errors);
                assert!(!text.contains("q7Zr9Vx2"), "{text}");
            }
            _ => panic!("expected a failure"),
        }
    }

    #[test]
    fn every_operation_is_retryable_exactly_when_it_is_a_query() {
        for op in ALL {
            assert_eq!(
                call(op).is_retryable(),
                op.kind == Kind::Query,
                "{}",
                op.name
            );
        }
    }

    #[test]
    fn an_operation_of_the_other_endpoint_is_refused() {
        let other = ALL.iter().find(|o| o.endpoint != PROFILE.endpoint).unwrap();
        let e = prepare(PROFILE.endpoint, other, vec![], FieldOptions::default())
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("operation"));
    }
}
