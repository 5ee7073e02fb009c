//! One GraphQL call: send the body, decode the response, retry when the policy allows.
//! Shared by every client.

use crate::config::Config;
use crate::error::Error;
use crate::graphql::{decode_response, Expect};
use crate::json::Json;
use crate::retry;
use crate::transport::{is_aborted, HttpRequest, Signal, Transport, TransportError};

/// A successful call: the HTTP status and the value `expect` selected.
pub struct Success {
    /// The HTTP status of the response.
    pub status: u16,
    /// The value selected from `data`.
    pub value: Json,
}

/// Posts `body` to the configured endpoint. `retryable` says whether the operation is
/// read-only (only those are retried). The caller's `signal` is checked before every
/// attempt and cancels sends and backoff sleeps; aborts are never retried.
pub async fn run<T: Transport>(
    transport: &T,
    config: &Config,
    body: &str,
    retryable: bool,
    expect: Expect,
    signal: Option<&Signal>,
) -> Result<Success, Error> {
    let request = HttpRequest {
        url: config.endpoint(),
        headers: config.headers(),
        body,
        timeout_ms: config.timeout_ms(),
    };
    let mut attempt: u32 = 0;
    loop {
        if is_aborted(signal) {
            return Err(Error::aborted());
        }
        let outcome = match transport.send(&request, signal).await {
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
            Err(TransportError::Aborted) => return Err(Error::aborted()),
            Err(TransportError::Timeout) => Err(Error::timeout(config.timeout_ms())),
            Err(TransportError::Network(reason)) => Err(Error::network(&reason)),
        };
        let err = match outcome {
            Ok(success) => return Ok(success),
            Err(err) => err,
        };
        if !retryable || attempt >= config.max_retries() || !retry::is_retryable(&err) {
            return Err(err);
        }
        let delay = retry::delay_ms(attempt, err.retry_after_ms, transport.random());
        if transport.sleep(delay, signal).await.is_err() || is_aborted(signal) {
            return Err(Error::aborted());
        }
        attempt += 1;
    }
}
