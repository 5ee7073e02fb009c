//! The transport seam: one POST, a cancellable sleep, a random source and a clock.
//!
//! [`Transport`] is implemented by `FetchTransport` on wasm32 (the single place that calls
//! `fetch`), by `ReqwestTransport` natively (feature `reqwest`), and, in the native tests, by
//! a recording fake. The trait does not require `Send` futures (on wasm32 everything runs on
//! one thread); a call's future is `Send` whenever its transport's futures are, as
//! `ReqwestTransport`'s are.
//!
//! Cancellation: [`crate::call::run`] races every send and backoff sleep with the call's
//! [`Signal`] and drops the loser, so a transport must stop its request when its future is
//! dropped (both built-in transports do).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::json::Body;

#[cfg(target_arch = "wasm32")]
mod fetch;
#[cfg(target_arch = "wasm32")]
pub(crate) use fetch::global;
#[cfg(target_arch = "wasm32")]
pub use fetch::FetchTransport;
#[cfg(all(target_arch = "wasm32", feature = "npm-base"))]
pub(crate) use fetch::{is_browser_like, outcome};

#[cfg(all(feature = "reqwest", not(target_arch = "wasm32")))]
mod native;
#[cfg(all(feature = "reqwest", not(target_arch = "wasm32")))]
pub use native::ReqwestTransport;

/// The transport of `BotClient::new` and `MerchantClient::new` on this target: `fetch`.
#[cfg(target_arch = "wasm32")]
pub type DefaultTransport = FetchTransport;
/// The transport of `BotClient::new` and `MerchantClient::new` on this target: reqwest.
#[cfg(all(feature = "reqwest", not(target_arch = "wasm32")))]
pub type DefaultTransport = ReqwestTransport;

/// A cancellation signal, the same type on every target: clone it into the options of one or
/// more calls, then [`Signal::abort`] cancels them all (a call not yet sent ends in
/// `aborted`; a mutation already sent in `outcome_unknown`). Dropping a call's future cancels
/// that call too, without a signal.
///
/// ```
/// use settlement_wasm::{FieldOptions, Signal};
///
/// let signal = Signal::new();
/// let options = FieldOptions { signal: Some(signal.clone()), ..FieldOptions::default() };
/// signal.abort();
/// assert!(signal.is_aborted());
/// # drop(options);
/// ```
#[derive(Clone, Default)]
pub struct Signal {
    shared: Arc<Shared>,
    /// A JavaScript `AbortSignal` this signal follows (wasm32: [`Signal::from`]).
    #[cfg(target_arch = "wasm32")]
    js: Option<web_sys::AbortSignal>,
}

#[derive(Default)]
struct Shared {
    aborted: AtomicBool,
    /// Wakes the calls waiting in [`Signal::aborted`].
    event: event_listener::Event,
}

impl std::fmt::Debug for Signal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signal")
            .field("aborted", &self.is_aborted())
            .finish()
    }
}

impl Signal {
    /// A signal not yet aborted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Aborts every call using this signal (and its clones).
    pub fn abort(&self) {
        self.shared.aborted.store(true, Ordering::SeqCst);
        self.shared.event.notify(usize::MAX);
    }

    /// Whether [`Signal::abort`] was called (or, on wasm32, the JavaScript `AbortSignal` it
    /// follows is aborted).
    pub fn is_aborted(&self) -> bool {
        if self.shared.aborted.load(Ordering::SeqCst) {
            return true;
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(js) = &self.js {
            // Read with `Reflect` (which catches), not web-sys's `aborted` getter: the signal
            // is the caller's object and its getter may throw.
            return js_sys::Reflect::get(js, &wasm_bindgen::JsValue::from_str("aborted"))
                .is_ok_and(|v| v.is_truthy());
        }
        false
    }

    /// Completes when [`Signal::abort`] is called (at once if it was).
    pub async fn aborted(&self) {
        loop {
            if self.shared.aborted.load(Ordering::SeqCst) {
                return;
            }
            let listener = self.shared.event.listen();
            if self.shared.aborted.load(Ordering::SeqCst) {
                return;
            }
            listener.await;
        }
    }

    /// The JavaScript `AbortSignal` this signal follows, if it was made from one.
    #[cfg(target_arch = "wasm32")]
    #[cfg_attr(docsrs, doc(cfg(target_arch = "wasm32")))]
    pub fn as_web_sys(&self) -> Option<&web_sys::AbortSignal> {
        self.js.as_ref()
    }
}

/// A signal that follows a JavaScript `AbortSignal` (an `AbortController`'s, in a web app):
/// aborting either aborts the call.
#[cfg(target_arch = "wasm32")]
#[cfg_attr(docsrs, doc(cfg(target_arch = "wasm32")))]
impl From<web_sys::AbortSignal> for Signal {
    fn from(js: web_sys::AbortSignal) -> Self {
        Signal {
            shared: Arc::default(),
            js: Some(js),
        }
    }
}

/// Whether the caller's signal (if any) has been aborted.
pub(crate) fn is_aborted(signal: Option<&Signal>) -> bool {
    signal.is_some_and(Signal::is_aborted)
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
    /// Every header (name, value) the transport could read (for observers; a transport may
    /// leave it empty).
    pub headers: Vec<(String, String)>,
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
    /// Sends one request; [`TransportError::Timeout`] when `request.timeout_ms` elapses.
    /// Dropping the future must stop the request (the call was cancelled). `signal` is the
    /// call's, for a transport that hands it on (the fetch transport gives a JavaScript
    /// `AbortSignal` to `fetch`); the caller also drops this future when it aborts.
    async fn send(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError>;
    /// Waits `ms` milliseconds ([`TransportError::Aborted`] if the transport sees `signal`
    /// abort; the caller also drops this future when it aborts).
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
