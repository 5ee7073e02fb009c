//! The transport seam: one POST, a cancellable sleep, a random source and a clock.
//!
//! [`Transport`] is implemented by `FetchTransport` on wasm32 (the single place that calls
//! `fetch`) and, in the native tests, by a recording fake. Futures are not `Send`: on wasm32
//! everything runs on one thread.

use crate::json::Body;

#[cfg(target_arch = "wasm32")]
mod fetch;
#[cfg(target_arch = "wasm32")]
pub use fetch::{global, is_browser_like, outcome, FetchTransport};
#[cfg(target_arch = "wasm32")]
pub use web_sys::AbortSignal;

/// The caller's cancellation signal: a JavaScript `AbortSignal` on wasm32.
#[cfg(target_arch = "wasm32")]
pub type Signal = web_sys::AbortSignal;
/// The caller's cancellation signal: an [`AbortFlag`] off the web.
#[cfg(not(target_arch = "wasm32"))]
pub type Signal = AbortFlag;

/// A cancellation flag shared between a caller and a call (the native stand-in for an
/// `AbortSignal`; a native [`Transport`] checks it).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Default, Debug)]
pub struct AbortFlag(std::rc::Rc<std::cell::Cell<bool>>);

#[cfg(not(target_arch = "wasm32"))]
impl AbortFlag {
    /// A flag not yet aborted.
    pub fn new() -> Self {
        Self::default()
    }
    /// Aborts every call using this flag.
    pub fn abort(&self) {
        self.0.set(true);
    }
    /// Whether [`AbortFlag::abort`] was called.
    pub fn is_aborted(&self) -> bool {
        self.0.get()
    }
}

/// Whether the caller's signal (if any) has been aborted. Read with `Reflect` (which catches),
/// not web-sys's `aborted` getter: the signal is the caller's object and its getter may throw.
#[cfg(target_arch = "wasm32")]
pub fn is_aborted(signal: Option<&Signal>) -> bool {
    signal.is_some_and(|s| {
        js_sys::Reflect::get(s, &wasm_bindgen::JsValue::from_str("aborted"))
            .is_ok_and(|v| v.is_truthy())
    })
}
/// Whether the caller's signal (if any) has been aborted.
#[cfg(not(target_arch = "wasm32"))]
pub fn is_aborted(signal: Option<&Signal>) -> bool {
    signal.is_some_and(AbortFlag::is_aborted)
}

/// One HTTP request: always a `POST` of a JSON body.
pub struct HttpRequest<'a> {
    /// The endpoint URL.
    pub url: &'a str,
    /// Every header, `Content-Type` and `Authorization` included.
    pub headers: &'a [(String, String)],
    /// The JSON body (a JavaScript string on wasm32).
    pub body: &'a crate::json::Body,
    /// Time allowed for this attempt (response headers and body), in ms.
    pub timeout_ms: u32,
}

/// One HTTP response.
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Retry-After` header, when present (and exposed to the page under CORS).
    pub retry_after: Option<String>,
    /// The body text.
    pub body: Body,
}

/// Why no response was received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportError {
    /// The request could not be sent or the response not read (the reason, for the message).
    Network(String),
    /// The attempt's timeout elapsed.
    Timeout,
    /// The caller's signal aborted the request.
    Aborted,
}

/// Sends requests. Implement it to run the clients over another HTTP stack.
#[allow(async_fn_in_trait)]
pub trait Transport {
    /// Sends one request. Must return [`TransportError::Aborted`] promptly when `signal` is
    /// aborted, and [`TransportError::Timeout`] when `request.timeout_ms` elapses.
    async fn send(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError>;
    /// Waits `ms` milliseconds; [`TransportError::Aborted`] as soon as `signal` aborts.
    async fn sleep(&self, ms: u64, signal: Option<&Signal>) -> Result<(), TransportError>;
    /// A random number in `[0, 1)` (backoff jitter).
    fn random(&self) -> f64;
    /// The current time in ms since the Unix epoch (`Retry-After` dates).
    fn now_ms(&self) -> f64;
    /// Whether this transport runs where page visitors can read the client's key (a browser
    /// page or worker). The merchant client refuses secret keys there
    /// ([`crate::keys::browser_guard`]). Default: `false`.
    fn browser_like(&self) -> bool {
        false
    }
}
