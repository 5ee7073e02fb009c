//! The native transport (feature `reqwest`): each attempt is one reqwest `POST` with the
//! attempt's timeout; backoff sleeps are tokio timers. Its futures are `Send`, so a client
//! over it can be moved into `tokio::spawn` or kept in a server's state. Dropping a send
//! drops reqwest's request, which closes its connection: the request is cancelled.

use std::time::Duration;

use super::{HttpRequest, HttpResponse, Signal, Transport, TransportError};

/// The native transport over a [`reqwest::Client`]. Needs a tokio runtime (with its timer).
///
/// Plain HTTP unless the application enables a TLS feature of reqwest (e.g. `rustls-tls`):
/// cargo unifies features, so the client here gets it too; or pass a configured client to
/// [`ReqwestTransport::with_client`].
#[derive(Clone, Debug, Default)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// A transport over a default `reqwest::Client`.
    pub fn new() -> Self {
        Self::default()
    }

    /// A transport over `client` (its proxy, TLS and pool settings; the clients set each
    /// attempt's timeout and headers themselves).
    pub fn with_client(client: reqwest::Client) -> Self {
        ReqwestTransport { client }
    }
}

/// A reqwest failure as the message of a network failure: its text and its sources'.
fn describe(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

fn failure(e: reqwest::Error) -> TransportError {
    if e.is_timeout() {
        TransportError::Timeout
    } else {
        TransportError::Network(describe(&e))
    }
}

impl Transport for ReqwestTransport {
    async fn send(
        &self,
        request: &HttpRequest<'_>,
        _signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError> {
        let mut builder = self
            .client
            .post(request.url)
            .timeout(Duration::from_millis(u64::from(request.timeout_ms)))
            .body(request.body.clone());
        for (name, value) in request.headers {
            builder = builder.header(name, value);
        }
        let response = builder.send().await.map_err(failure)?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let headers = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
            })
            .collect();
        let body = response.text().await.map_err(failure)?;
        Ok(HttpResponse {
            status,
            retry_after,
            headers,
            body,
        })
    }

    async fn sleep(&self, ms: u64, _signal: Option<&Signal>) -> Result<(), TransportError> {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok(())
    }

    fn random(&self) -> f64 {
        fastrand::f64()
    }

    fn now_ms(&self) -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }
}
