//! The `fetch` transport (wasm32 only): the one place that sends requests.
//!
//! gloo-net builds each client's base request (`POST`, URL, headers) once; every attempt is
//! one `new Request(base, { body, signal })` (this call's body, the attempt's abort signal),
//! given, as the single argument, to the `fetch` option or else to the global `fetch` (looked
//! up at call time, never `window`: Node 18+ and workers work, and polyfills and mocks
//! installed later are honoured). Not gloo-net's `send`: it panics (a trap, here) when a
//! replaced global `fetch` resolves to anything but a native `Response` or rejects with
//! anything but an `Error`, and it drops the error's `cause`.
//!
//! The attempt itself (the abort controller, the request, a timer and the caller's signal
//! raced against the response and the body, so even a `fetch` that ignores its signal cannot
//! hang a call; `status`, `Retry-After`, `text()`) runs in `send.js`, the transport's
//! JavaScript half, as one promise: the call crosses into wasm once per attempt. The body is
//! read as a JavaScript string, so rows never cross into wasm memory.

use std::cell::RefCell;

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::{is_aborted, HttpRequest, HttpResponse, Signal, Transport, TransportError};

#[wasm_bindgen(module = "/src/transport/send.js")]
extern "C" {
    /// One attempt: its result (see [`FetchTransport::result`]); never rejects.
    #[wasm_bindgen(js_name = send)]
    fn send_attempt(
        fetch: Option<&Function>,
        base: &web_sys::Request,
        body: &JsValue,
        ms: f64,
        signal: Option<&Signal>,
    ) -> Promise;
    /// The first attempt of a call of the npm classes and the call's context `[result
    /// (a promise), code, body, signal]` (see `crate::js`).
    #[wasm_bindgen(js_name = start)]
    fn start_call(
        fetch: Option<&Function>,
        base: &web_sys::Request,
        body: &JsValue,
        ms: f64,
        signal: Option<&Signal>,
        code: f64,
    ) -> Array;
    /// A backoff sleep, then (unless `signal` aborted) one attempt; never rejects.
    #[wasm_bindgen(js_name = retry)]
    fn retry_attempt(
        delay: f64,
        fetch: Option<&Function>,
        base: &web_sys::Request,
        body: &JsValue,
        ms: f64,
        signal: Option<&Signal>,
    ) -> Promise;
    /// A backoff sleep: `[0]`, or `[ABORTED]` when `signal` aborts first.
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_for(ms: f64, signal: Option<&Signal>) -> Promise;
}

/// `send.js`' failure kinds (the first element of a failure result).
const TIMEOUT: f64 = -1.0;
const ABORTED: f64 = -2.0;
const FAILED: f64 = -3.0;

/// The wasm32 transport over `fetch`.
#[derive(Clone, Default)]
pub struct FetchTransport {
    fetch: Option<Function>,
    base: RefCell<Option<Base>>,
}

/// The per-client part of every request (`POST`, URL, headers), built once by gloo-net, and
/// [`key`] of what it was built from (a client sends every call with the same URL and
/// headers).
#[derive(Clone)]
struct Base {
    key: String,
    request: web_sys::Request,
}

/// The URL and every header name and value, each preceded by its length: equal keys mean
/// equal URL and headers. One string compared per call rather than a copy of the headers
/// kept and compared pair by pair (about 300 B gzip less).
fn key(request: &HttpRequest<'_>) -> String {
    let mut key = String::new();
    let mut push = |part: &str| {
        crate::json::push_int(&mut key, part.len() as i64);
        key.push(':');
        key.push_str(part);
    };
    push(request.url);
    for (name, value) in request.headers {
        push(name);
        push(value);
    }
    key
}

impl FetchTransport {
    /// Sends with `fetch` when given, else with the global `fetch` at call time (either is
    /// called with one `Request`).
    pub fn new(fetch: Option<Function>) -> Self {
        FetchTransport {
            fetch,
            base: RefCell::default(),
        }
    }

    /// Whether the global object has a `fetch` function.
    pub fn has_global_fetch() -> bool {
        get(&global(), "fetch").is_function()
    }
}

/// The global object (`js_sys::global()`, which the futures queue links anyway).
pub fn global() -> JsValue {
    js_sys::global().into()
}

/// `target[key]`, catching (the caller's objects may have throwing getters, which must not
/// cost an externref slot: see `json::js_impl::read`); `undefined` when it throws.
fn get(target: &JsValue, key: &str) -> JsValue {
    crate::json::js_impl::read(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// A short description of a fetch failure, e.g. `"fetch failed (ECONNREFUSED)"`.
fn describe(e: &JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    let mut out = get(e, "message").as_string().unwrap_or_default();
    let cause = get(e, "cause");
    let detail = get(&cause, "code")
        .as_string()
        .or_else(|| get(&cause, "message").as_string());
    if let Some(d) = detail.filter(|d| !d.is_empty()) {
        out.push_str(if out.is_empty() { "" } else { " " });
        out.push('(');
        out.push_str(&d);
        out.push(')');
    }
    if out.is_empty() {
        out.push_str("fetch failed");
    }
    out
}

/// The result of an attempt whose request could not be made (`error`: why), as `send.js`
/// reports a failed one.
fn unsent(error: &JsValue) -> Promise {
    let failed: JsValue = Array::of3(&FAILED.into(), &JsValue::UNDEFINED, error).into();
    Promise::resolve(&failed)
}

/// A gloo-net error as the `JsValue` [`describe`] reads (its message).
fn gloo_error(e: gloo_net::Error) -> JsValue {
    JsValue::from_str(&match e {
        gloo_net::Error::JsError(e) => e.message,
        gloo_net::Error::GlooError(m) => m,
    })
}

impl FetchTransport {
    /// The base request (`POST`, the URL and every header) gloo-net built for this URL and
    /// these headers: built on the first call, again only if they change. Each attempt is one
    /// `new Request(base, { body, signal })` (in `send.js`): gloo-net's builder makes two
    /// `Request`s, and parses the URL to merge query parameters, on every build (measured in
    /// Chromium, 10-row calls: from `AbortController` to the timer, ~170 µs per call with the
    /// builder, ~85 µs with a base request).
    fn base(&self, request: &HttpRequest<'_>) -> Result<web_sys::Request, JsValue> {
        let mut slot = self.base.borrow_mut();
        let key = key(request);
        if let Some(b) = slot.as_ref().filter(|b| b.key == key) {
            return Ok(Clone::clone(&b.request));
        }
        let mut builder = gloo_net::http::Request::post(request.url);
        for (name, value) in request.headers {
            builder = builder.header(name, value);
        }
        let built: web_sys::Request = builder.build().map_err(gloo_error)?.into();
        *slot = Some(Base {
            key,
            request: Clone::clone(&built),
        });
        Ok(built)
    }
}

impl FetchTransport {
    /// Starts one attempt of `request` (after `delay_ms` of backoff, when given): the promise
    /// of its result, which [`FetchTransport::result`] reads. Never rejects.
    pub fn start(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
        delay_ms: Option<u64>,
    ) -> Promise {
        let base = match self.base(request) {
            Ok(base) => base,
            Err(e) => return unsent(&e),
        };
        let (fetch, ms) = (self.fetch.as_ref(), f64::from(request.timeout_ms));
        match delay_ms {
            None => send_attempt(fetch, &base, request.body, ms, signal),
            Some(d) => retry_attempt(
                d.min(2_147_483_647) as f64,
                fetch,
                &base,
                request.body,
                ms,
                signal,
            ),
        }
    }

    /// Starts the first attempt of a call of the npm classes (`crate::js`): the call's
    /// context, `[the attempt's result (a promise), code, body, signal]`.
    pub fn start_first(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
        code: u32,
    ) -> Array {
        match self.base(request) {
            Ok(base) => {
                let ms = f64::from(request.timeout_ms);
                let code = f64::from(code);
                start_call(self.fetch.as_ref(), &base, request.body, ms, signal, code)
            }
            Err(e) => {
                let signal = signal.map_or(JsValue::UNDEFINED, |s| s.into());
                Array::of4(&unsent(&e), &code.into(), request.body, &signal)
            }
        }
    }

    /// An attempt's result as the transport returns it: `[status, retryAfter, body]`, or
    /// `[kind, undefined, error]` for a timeout, an abort or a failure.
    pub fn result(
        value: &JsValue,
        signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError> {
        let r: &Array = value.unchecked_ref();
        let status = r.get(0).as_f64().unwrap_or(FAILED);
        if status >= 0.0 {
            return Ok(HttpResponse {
                status: status.min(999.0) as u16,
                retry_after: r.get(1).as_string(),
                body: r.get(2).unchecked_into(),
            });
        }
        Err(if status == ABORTED || is_aborted(signal) {
            TransportError::Aborted
        } else if status == TIMEOUT {
            TransportError::Timeout
        } else {
            TransportError::Network(describe(&r.get(2)))
        })
    }
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
        let sent = JsFuture::from(self.start(request, signal, None)).await;
        Self::result(&sent.unwrap_or_default(), signal)
    }

    async fn sleep(&self, ms: u64, signal: Option<&Signal>) -> Result<(), TransportError> {
        if is_aborted(signal) {
            return Err(TransportError::Aborted);
        }
        let slept = JsFuture::from(sleep_for(ms.min(2_147_483_647) as f64, signal))
            .await
            .unwrap_or_default();
        match slept.unchecked_ref::<Array>().get(0).as_f64() {
            Some(0.0) => Ok(()),
            _ => Err(TransportError::Aborted),
        }
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    /// A `window`, `document` or `WorkerGlobalScope` global (looked up on every call). By
    /// name, not by `instanceof Window`: environments that define these globals (jsdom, the
    /// tests' simulation) count as browsers too.
    fn browser_like(&self) -> bool {
        let g = global();
        ["window", "document", "WorkerGlobalScope"]
            .iter()
            .any(|name| !get(&g, name).is_undefined())
    }
}
