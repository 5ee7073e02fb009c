//! One GraphQL call: send the body, decode the response, retry when the policy allows;
//! and [`Client`], the core every client (`BotClient`, `MerchantClient`) is built on: one
//! validated [`Config`], one [`Transport`], and [`PreparedCall`]s to run through them.

use crate::config::{ClientOptions, Config};
use crate::error::{Code, Error};
use crate::graphql::{self, decode_response, Body, Expect, Text, Variables};
use crate::json::Json;
use crate::operations::{Endpoint, Operation, Value};
use crate::retry;
use crate::transport::{is_aborted, HttpRequest, Signal, Transport, TransportError};
use crate::types::{from_json, FieldOptions};

/// A validated call, ready to send: the JSON body, whether it may be retried, what the
/// response's `data` must look like, and the caller's signal. Built by the clients'
/// `prepare` (which does all validation, before any I/O) and run by [`Client::execute`].
#[derive(Clone)]
pub struct PreparedCall {
    pub(crate) body: Text,
    pub(crate) retryable: bool,
    pub(crate) expect: Expect,
    pub(crate) signal: Option<Signal>,
}

impl PreparedCall {
    /// The call of `op` with its document and checked variables.
    pub fn new(
        op: &Operation,
        document: &str,
        variables: &[(&str, Value)],
        signal: Option<Signal>,
    ) -> Result<PreparedCall, Error> {
        let body = Body {
            query: document,
            variables: Variables::Named(variables),
            operation_name: Some(op.name),
        };
        Ok(PreparedCall {
            body: body.to_text().ok_or_else(|| {
                Error::invalid("arguments", "the request body could not be written")
            })?,
            retryable: op.retryable(),
            expect: op.expect(),
            signal,
        })
    }

    /// The JSON request body (a JavaScript string on wasm32).
    pub fn body(&self) -> &Text {
        &self.body
    }
    /// Whether the call may be retried (read-only operations only).
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }
}

/// The shared core of the clients: configuration, transport, and running prepared calls.
/// `BotClient` and `MerchantClient` dereference to it, so `client.execute(&call)`,
/// `client.config()` and `client.transport()` work on both.
pub struct Client<T: Transport> {
    config: Config,
    transport: T,
}

impl<T: Transport> Client<T> {
    /// Validates `options` for the endpoint at `path` under `baseUrl`.
    pub fn new(options: &ClientOptions, path: &str, transport: T) -> Result<Self, Error> {
        let config = Config::new(options, path)?;
        Ok(Client { config, transport })
    }

    /// The validated configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// Sends a prepared call (with retries when allowed) and returns the value its
    /// expectation selects, untouched. Errors are redacted.
    pub async fn execute(&self, call: &PreparedCall) -> Result<Json, Error> {
        self.execute_inner(call).await.map(|s| s.value)
    }

    async fn execute_inner(&self, call: &PreparedCall) -> Result<Success, Error> {
        run(
            &self.transport,
            &self.config,
            &call.body,
            call.retryable,
            call.expect,
            call.signal.as_ref(),
        )
        .await
        .map_err(|e| self.config.redact(e))
    }

    /// Runs a call (or returns its validation error) and converts the result into `R`.
    pub async fn execute_typed<R: serde::de::DeserializeOwned>(
        &self,
        call: Result<PreparedCall, Error>,
    ) -> Result<R, Error> {
        let s = self.execute_inner(&call?).await?;
        from_json(&s.value, s.status)
    }

    /// Validates `values` (one per argument of `op`, in declaration order) and
    /// `options.fields`, and builds the call: the selection from `options.fields` (checked)
    /// or `op`'s default. Refuses an operation of the other endpoint. Errors are redacted.
    pub(crate) fn prepare_on(
        &self,
        endpoint: Endpoint,
        op: &Operation,
        values: Vec<Value>,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.redact(prepare(endpoint, op, values, options))
    }

    /// Redacts the key from an error result.
    pub fn redact<R>(&self, r: Result<R, Error>) -> Result<R, Error> {
        r.map_err(|e| self.config.redact(e))
    }
}

/// Builds the call of `op` on a client of `endpoint`: refuses an operation of the other
/// endpoint, checks the values and `options.fields`, writes the body.
pub fn prepare(
    endpoint: Endpoint,
    op: &Operation,
    values: Vec<Value>,
    options: FieldOptions,
) -> Result<PreparedCall, Error> {
    if op.endpoint != endpoint {
        let mut m = String::from(op.field);
        m.push_str(" is not an operation of this client's endpoint");
        return Err(Error::invalid("operation", m));
    }
    let variables = op.variables(values)?;
    if op.fields.is_empty() && options.fields.is_some() {
        let mut m = String::from(op.field);
        m.push_str(" returns a Boolean: there are no fields to select");
        return Err(Error::invalid("fields", m));
    }
    let selection = graphql::selection(options.fields.as_deref(), op.fields)?;
    PreparedCall::new(op, &op.document(&selection), &variables, options.signal)
}

/// A successful call: the HTTP status and the value `expect` selected.
pub struct Success {
    /// The HTTP status of the response.
    pub status: u16,
    /// The value selected from `data`.
    pub value: Json,
}

/// What follows one attempt: [`step`], the sans-I/O core of [`run`] (the JavaScript binding
/// drives the same steps from pkg-template/compose.js, with no Rust future per call).
pub enum Next {
    /// The call succeeded.
    Done(Success),
    /// The call failed (not redacted yet).
    Fail(Error),
    /// Wait this many ms, then send the call again (attempt + 1).
    Retry(u64),
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

/// Decides what follows attempt number `attempt` (from 0) of a call, given what the
/// transport returned: the decoded value, the error, or a retry after a backoff delay.
/// `retryable` says whether the operation is read-only (only those are retried). A call that
/// is not (a mutation) is sent once, and a network error, timeout or abort after it was handed
/// to the transport ends in `outcome_unknown`. Aborts are never retried.
pub fn step<T: Transport>(
    transport: &T,
    config: &Config,
    retryable: bool,
    expect: Expect,
    attempt: u32,
    sent: Result<crate::transport::HttpResponse, TransportError>,
) -> Next {
    let outcome = match sent {
        Ok(response) => decode_response(
            response.status,
            response.retry_after.as_deref(),
            &response.body,
            transport.now_ms(),
            expect,
        )
        .map(|value| Success {
            status: response.status,
            value,
        }),
        // The request was handed to the transport, so a mutation's outcome is unknown from
        // here on (`outcome_unknown` below).
        Err(TransportError::Aborted) => Err(Error::aborted()),
        Err(TransportError::Timeout) => Err(Error::timeout(config.timeout_ms())),
        Err(TransportError::Network(reason)) => Err(Error::network(&reason)),
    };
    let err = match outcome {
        Ok(success) => return Next::Done(success),
        Err(err) => err,
    };
    // Not read-only (a mutation): sent once, and without an answer its effect is unknown.
    if !retryable && matches!(err.code, Code::Network | Code::Timeout | Code::Aborted) {
        return Next::Fail(Error::outcome_unknown(&err));
    }
    if err.code == Code::Aborted
        || !retryable
        || attempt >= config.max_retries()
        || !retry::is_retryable(&err)
    {
        return Next::Fail(err);
    }
    Next::Retry(retry::delay_ms(
        attempt,
        err.retry_after_ms,
        transport.random(),
    ))
}

/// Posts `body` to the configured endpoint, attempt after attempt as [`step`] decides. The
/// caller's `signal` is checked before every attempt (an abort before sending stays
/// `aborted`, even for a mutation) and cancels sends and backoff sleeps.
pub async fn run<T: Transport>(
    transport: &T,
    config: &Config,
    body: &Text,
    retryable: bool,
    expect: Expect,
    signal: Option<&Signal>,
) -> Result<Success, Error> {
    let request = request(config, body);
    let mut attempt: u32 = 0;
    loop {
        if is_aborted(signal) {
            return Err(Error::aborted());
        }
        let sent = transport.send(&request, signal).await;
        match step(transport, config, retryable, expect, attempt, sent) {
            Next::Done(success) => return Ok(success),
            Next::Fail(err) => return Err(err),
            Next::Retry(delay) => {
                if transport.sleep(delay, signal).await.is_err() || is_aborted(signal) {
                    return Err(Error::aborted());
                }
            }
        }
        attempt += 1;
    }
}
