//! The Rust API's `fetch` transport (wasm32): each attempt's request is built by gloo-net
//! (`POST`, URL, headers, body) and sent by `send.js`, its JavaScript half, with the
//! attempt's timeout and the caller's signal raced against the response and its body, so
//! even a `fetch` that ignores its signal cannot hang a call. The request goes, as the single
//! argument, to the `fetch` given to [`FetchTransport::new`] or else to the global `fetch`
//! (looked up at call time, never `window`: Node 18+ and workers work). gloo-net's own `send`
//! is not used: it panics (a trap, here) when a replaced global `fetch` resolves to anything
//! but a native `Response`.

use js_sys::{Function, JsString, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::{is_aborted, HttpRequest, HttpResponse, Signal, Transport, TransportError};

#[wasm_bindgen(module = "/src/transport/send.js")]
extern "C" {
    /// One attempt: its outcome (see [`outcome`]); never rejects.
    #[wasm_bindgen(js_name = send)]
    fn send_attempt(
        fetch: Option<&Function>,
        request: &web_sys::Request,
        ms: f64,
        signal: Option<&web_sys::AbortSignal>,
        dropped: &web_sys::AbortSignal,
    ) -> Promise;
    /// A backoff sleep: `true`, or `false` when `signal` aborts first; never rejects.
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_for(ms: f64, signal: Option<&web_sys::AbortSignal>) -> Promise;
}

/// The wasm32 transport over `fetch`.
#[derive(Clone, Default)]
pub struct FetchTransport {
    fetch: Option<Function>,
}

impl FetchTransport {
    /// Sends with `fetch` when given, else with the global `fetch` at call time (either is
    /// called with one `Request`).
    pub fn new(fetch: Option<Function>) -> Self {
        FetchTransport { fetch }
    }
}

/// Aborts its controller when dropped: a dropped attempt's `fetch` is aborted (cancel on
/// drop), and aborting one that already ended does nothing.
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = &self.0 {
            controller.abort();
        }
    }
}

/// The global object.
pub fn global() -> JsValue {
    js_sys::global().into()
}

use crate::json::js_impl::member_or_undefined as member;

/// Whether this runs where page visitors can read a client's key (a page or a browser
/// worker, not a server runtime): the rule of [`crate::host::HostGlobals::is_browser_like`],
/// on the globals read at each call.
pub fn is_browser_like() -> bool {
    crate::host::HostGlobals::observe().is_browser_like()
}

/// An attempt's outcome object (`{ kind: "response", status, retryAfter, body }`, or
/// `{ kind: "timeout" | "aborted" }`, or `{ kind: "failed", error }`) as the transport's
/// result. Anything unreadable is a network failure.
pub fn outcome(value: &JsValue) -> Result<HttpResponse, TransportError> {
    match member(value, "kind").as_string().as_deref() {
        Some("response") => Ok(HttpResponse {
            status: member(value, "status")
                .as_f64()
                .unwrap_or(0.0)
                .clamp(0.0, 999.0) as u16,
            retry_after: member(value, "retryAfter").as_string(),
            headers: Vec::new(),
            body: member(value, "body")
                .dyn_into::<JsString>()
                .unwrap_or_else(|_| JsString::from("")),
        }),
        Some("timeout") => Err(TransportError::Timeout),
        Some("aborted") => Err(TransportError::Aborted),
        _ => Err(TransportError::Network(describe(&member(value, "error")))),
    }
}

/// A short description of a fetch failure, e.g. `"fetch failed (ECONNREFUSED)"`: the
/// error's message and its cause's code (or message).
fn describe(e: &JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    let message = member(e, "message").as_string().unwrap_or_default();
    let cause = member(e, "cause");
    let detail = member(&cause, "code")
        .as_string()
        .or_else(|| member(&cause, "message").as_string())
        .filter(|d| !d.is_empty());
    match (message.is_empty(), detail) {
        (true, None) => "fetch failed".to_owned(),
        (true, Some(d)) => ["(", &d, ")"].concat(),
        (false, None) => message,
        (false, Some(d)) => [&message, " (", &d, ")"].concat(),
    }
}

/// A gloo-net error as the message of a network failure.
fn gloo_error(e: gloo_net::Error) -> TransportError {
    TransportError::Network(match e {
        gloo_net::Error::JsError(e) => e.message,
        gloo_net::Error::GlooError(m) => m,
        #[allow(unreachable_patterns)] // variants of gloo-net features other crates enable
        other => other.to_string(),
    })
}

impl Transport for FetchTransport {
    async fn send(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError> {
        if is_aborted(signal) {
            return Err(TransportError::Aborted);
        }
        let mut builder = gloo_net::http::Request::post(request.url);
        for (name, value) in request.headers {
            builder = builder.header(name, value);
        }
        let body: &JsValue = request.body;
        let built: web_sys::Request = builder.body(body.clone()).map_err(gloo_error)?.into();
        let ms = f64::from(request.timeout_ms);
        let dropped = AbortOnDrop(web_sys::AbortController::new().ok());
        let Some(dropped_signal) = dropped.0.as_ref().map(|c| c.signal()) else {
            return Err(TransportError::Network(
                "AbortController is not available".into(),
            ));
        };
        let js_signal = signal.and_then(Signal::as_web_sys);
        let attempt = send_attempt(self.fetch.as_ref(), &built, ms, js_signal, &dropped_signal);
        let sent = JsFuture::from(attempt).await.unwrap_or_default();
        let mut result = outcome(&sent);
        if let Ok(response) = &mut result {
            // The headers `send.js` read (`name: value` lines), for the call's observers.
            let block = member(&sent, "headers").as_string().unwrap_or_default();
            response.headers = crate::events::header_lines(&block)
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect();
        }
        match result {
            Err(_) if is_aborted(signal) => Err(TransportError::Aborted),
            other => other,
        }
    }

    async fn sleep(&self, ms: u64, signal: Option<&Signal>) -> Result<(), TransportError> {
        if is_aborted(signal) {
            return Err(TransportError::Aborted);
        }
        let ms = ms.min(2_147_483_647) as f64;
        let slept = JsFuture::from(sleep_for(ms, signal.and_then(Signal::as_web_sys))).await;
        match slept.ok().and_then(|v| v.as_bool()) {
            Some(true) => Ok(()),
            _ => Err(TransportError::Aborted),
        }
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn browser_like(&self) -> bool {
        is_browser_like()
    }
}
