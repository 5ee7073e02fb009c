//! One GraphQL call: send the body, decode the response, retry when the policy allows;
//! and [`Client`], the core every client (`BotClient`, `MerchantClient`) is built on: one
//! validated [`Config`], one [`Transport`], and [`PreparedCall`]s to run through them.

use std::cell::RefCell;

use crate::config::{ClientOptions, Config};
use crate::error::{Code, Error};
use crate::graphql::{self, decode_response, Expect, Text};
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
        variables: &[(&'static str, Value)],
        signal: Option<Signal>,
    ) -> Result<PreparedCall, Error> {
        let prefix = graphql::Prefix::new(document, op.name).ok_or_else(unwritable)?;
        PreparedCall::with_prefix(op, &prefix, variables, signal)
    }

    /// The call of `op` with checked variables, its body completing `prefix`.
    fn with_prefix(
        op: &Operation,
        prefix: &graphql::Prefix,
        variables: &[(&'static str, Value)],
        signal: Option<Signal>,
    ) -> Result<PreparedCall, Error> {
        Ok(PreparedCall {
            body: prefix.body(variables).ok_or_else(unwritable)?,
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
    /// The body prefix of each built-in operation called with its default selection, by
    /// operation name, written on its first call (see [`graphql::Prefix`]).
    prefixes: RefCell<Vec<(&'static str, graphql::Prefix)>>,
}

impl<T: Transport> Client<T> {
    /// Validates `options` for the endpoint at `path` under `baseUrl`.
    pub fn new(options: &ClientOptions, path: &str, transport: T) -> Result<Self, Error> {
        let config = Config::new(options, path)?;
        Ok(Client {
            config,
            transport,
            prefixes: RefCell::default(),
        })
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
        if options.fields.is_some() {
            return self.redact(prepare(endpoint, op, values, options));
        }
        // The default selection: the body from this client's prefix of `op`.
        self.redact(check(endpoint, op, values).and_then(|variables| {
            PreparedCall::with_prefix(op, &self.prefix(op)?, &variables, options.signal)
        }))
    }

    /// This client's body prefix of `op` with its default selection, written on first use.
    fn prefix(&self, op: &Operation) -> Result<graphql::Prefix, Error> {
        let mut prefixes = self.prefixes.borrow_mut();
        if let Some((_, p)) = prefixes.iter().find(|(name, _)| *name == op.name) {
            return Ok(p.clone());
        }
        let p = graphql::Prefix::new(&op.document(op.fields), op.name).ok_or_else(unwritable)?;
        prefixes.push((op.name, p.clone()));
        Ok(p)
    }

    /// Redacts the key from an error result.
    pub fn redact<R>(&self, r: Result<R, Error>) -> Result<R, Error> {
        r.map_err(|e| self.config.redact(e))
    }
}

fn unwritable() -> Error {
    Error::invalid("arguments", "the request body could not be written")
}

/// Refuses an operation of the other endpoint; checks the values: the variables.
fn check(
    endpoint: Endpoint,
    op: &Operation,
    values: Vec<Value>,
) -> Result<Vec<(&'static str, Value)>, Error> {
    if op.endpoint != endpoint {
        let mut m = String::from(op.field);
        m.push_str(" is not an operation of this client's endpoint");
        return Err(Error::invalid("operation", m));
    }
    op.variables(values)
}

/// Builds the call of `op` on a client of `endpoint`: refuses an operation of the other
/// endpoint, checks the values and `options.fields`, writes the body.
pub fn prepare(
    endpoint: Endpoint,
    op: &Operation,
    values: Vec<Value>,
    options: FieldOptions,
) -> Result<PreparedCall, Error> {
    let variables = check(endpoint, op, values)?;
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
            // The clock only dates a `Retry-After` (one crossing less per call on wasm32).
            match response.retry_after {
                Some(_) => transport.now_ms(),
                None => 0.0,
            },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{Arg, Check, ALL};
    use crate::testing::FakeTransport;
    use crate::types::OrderHistoryFilter;

    /// A valid value for `arg`.
    fn value(arg: &Arg) -> Value {
        match arg.check {
            Check::Page | Check::PerPage => Value::Int(2),
            Check::Filter => Value::Filter(OrderHistoryFilter {
                status: Some("completed".into()),
                ..OrderHistoryFilter::default()
            }),
            Check::CountryCode => Value::Str("NG".into()),
            Check::Decimal | Check::OptDecimal => Value::Str("1.5".into()),
            Check::OptHttpsUrl => Value::Str("https://receipts.example/1".into()),
            _ => Value::Str("a1".into()),
        }
    }

    fn client() -> Client<FakeTransport> {
        let options = ClientOptions {
            endpoint: Some("https://settlement.invalid/graphql".into()),
            ..ClientOptions::default()
        };
        Client::new(&options, "/unused", FakeTransport::new(1)).unwrap()
    }

    fn json(body: &Text) -> serde_json::Value {
        serde_json::from_str(body).unwrap()
    }

    #[test]
    fn default_selection_bodies_come_from_one_prefix_per_operation() {
        let client = client();
        let mut checked = 0;
        for op in ALL {
            // Every argument given; each one alone; each one left out; none: with and without
            // variables, where the operation's rules allow.
            let given: Vec<Value> = op.args.iter().map(value).collect();
            let mut sets = vec![given.clone(), op.args.iter().map(|_| Value::Null).collect()];
            for i in 0..op.args.len() {
                let mut one: Vec<Value> = op.args.iter().map(|_| Value::Null).collect();
                one[i] = given[i].clone();
                sets.push(one);
                let mut but_one = given.clone();
                but_one[i] = Value::Null;
                sets.push(but_one);
            }
            let mut valid = 0;
            for values in sets {
                let Ok(expected) =
                    prepare(op.endpoint, op, values.clone(), FieldOptions::default())
                else {
                    continue;
                };
                for _ in 0..2 {
                    let call = client
                        .prepare_on(op.endpoint, op, values.clone(), FieldOptions::default())
                        .unwrap();
                    assert_eq!(json(&call.body), json(&expected.body), "{}", op.name);
                    assert_eq!(call.retryable, expected.retryable);
                    checked += 1;
                }
                valid += 1;
            }
            assert!(valid > 0, "no valid values for {}", op.name);
        }
        assert!(checked >= 2 * ALL.len(), "{checked}");
        // One prefix per operation, written on its first call.
        let names: Vec<&str> = client.prefixes.borrow().iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), ALL.len(), "{names:?}");
    }

    #[test]
    fn a_selection_of_fields_is_written_per_call_and_refused_like_before() {
        let client = client();
        let op = crate::operations::PROFILE;
        let fields = FieldOptions {
            fields: Some(vec!["id".into()]),
            signal: None,
        };
        let call = client.prepare_on(op.endpoint, &op, vec![], fields).unwrap();
        assert!(json(&call.body)["query"]
            .as_str()
            .unwrap()
            .contains("{ id }"));
        assert!(client.prefixes.borrow().is_empty());
        let other = crate::operations::ALL
            .iter()
            .find(|o| o.endpoint != op.endpoint)
            .unwrap();
        let e = client
            .prepare_on(op.endpoint, other, vec![], FieldOptions::default())
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("operation"));
    }
}
