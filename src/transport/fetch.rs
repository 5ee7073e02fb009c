//! The `fetch` transport (wasm32 only): the one place that sends requests.
//!
//! gloo-net builds each client's base request (`POST`, URL, headers) once; every attempt is
//! one `new Request(base, { body, signal })` (this call's body, the attempt's abort signal),
//! given, as the single argument, to the `fetch` option or else to the global `fetch` (looked up at call time, never `window`: Node 18+ and
//! workers work, and polyfills and mocks installed later are honoured). The same request goes
//! out either way. Not gloo-net's `send`: it panics (a trap, here) when a replaced global
//! `fetch` resolves to anything but a native `Response` or rejects with anything but an
//! `Error`, and it drops the error's `cause`. Each attempt gets its own `AbortController`; a timer and the caller's signal reject a
//! "cancel" promise that is raced against the response and the body, so even a `fetch` that
//! ignores its signal cannot hang a call. The body is read as a JavaScript string
//! (`Response.text()`), so rows never cross into wasm memory; for a native `Response`,
//! `text()` is chained on the `fetch` promise, so the call resumes once for headers and
//! body together. No Rust closures are created: the promise's own `reject` function is the
//! timer callback and the abort listener.

use std::cell::RefCell;

use js_sys::{Array, Function, JsString, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

use super::{is_aborted, HttpRequest, HttpResponse, Signal, Transport, TransportError};

// web-sys has `setTimeout`/`clearTimeout` only as methods of `Window` and `WorkerGlobalScope`,
// with a numeric id; these are the globals, reachable from a page, a worker and Node (whose
// timer id is an object).
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &Function, ms: f64, arg: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
    // For `call_later`: `Function.prototype.call`, its `bind`, and a promise's `then` with a
    // function (none of which throws on these arguments; js-sys's are typed for closures).
    #[wasm_bindgen(js_name = Function)]
    type Callable;
    #[wasm_bindgen(thread_local_v2, js_namespace = ["Function", "prototype"], js_name = call)]
    static FUNCTION_CALL: Callable;
    #[wasm_bindgen(method, js_name = bind)]
    fn bind_to(this: &Callable, f: &Function, this_arg: &JsValue) -> Function;
    #[wasm_bindgen(method, js_name = bind)]
    fn bind_this(this: &Callable, f: &Function) -> Function;
    #[wasm_bindgen(js_name = Promise)]
    type Thenable;
    #[wasm_bindgen(method, js_name = then)]
    fn then_call(this: &Thenable, f: &Function) -> Promise;
    #[wasm_bindgen(method, js_name = catch)]
    fn catch_with(this: &Thenable, f: &Function) -> Promise;
    // `Array.of`: the chained `text()`'s rejection handler, so its error arrives as `[error]`.
    #[wasm_bindgen(thread_local_v2, js_namespace = Array, js_name = of)]
    static ARRAY_OF: Function;
}

/// `f.call(this_arg, arg)`, made by a promise's `then`, so that a synchronous throw of `f` (a
/// caller's `fetch`, a Response-like object's `text` or `headers.get`) is a rejection, and
/// nothing throws into wasm. (A catching import that returns a value, like js-sys's
/// `Function::call1`, leaks an externref slot each time it throws in wasm-bindgen 0.2.130:
/// measured, 3 slots and ~95 B of wasm memory per call with a throwing `fetch`.)
fn call_later(f: &Function, this_arg: &JsValue, arg: &JsValue) -> Promise {
    let bound = FUNCTION_CALL.with(|call| call.bind_to(f, this_arg));
    Promise::resolve(arg)
        .unchecked_into::<Thenable>()
        .then_call(&bound)
}

/// The wasm32 transport over `fetch`.
#[derive(Clone, Default)]
pub struct FetchTransport {
    fetch: Option<Function>,
    base: RefCell<Option<Base>>,
    /// `Function.prototype.call.bind(Response.prototype.text)`, looked up once per client:
    /// chained on the `fetch` promise, it reads a native `Response`'s body with no return
    /// into wasm between the headers and the body (one wake-up of the call instead of two).
    read_text: Option<Function>,
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
        let text = ["Response", "prototype", "text"]
            .iter()
            .fold(global(), |v, k| get(&v, k));
        FetchTransport {
            fetch,
            base: RefCell::default(),
            read_text: text
                .dyn_into::<Function>()
                .ok()
                .map(|t| FUNCTION_CALL.with(|call| call.bind_this(&t))),
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

/// Awaits `p` (any value: `Promise.race` adopts it), or the rejection of `cancel`, whichever
/// settles first.
fn race(p: &JsValue, cancel: &Promise) -> JsFuture {
    JsFuture::from(Promise::race(&Array::of2(p, cancel)))
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

/// A gloo-net error as the `JsValue` [`describe`] reads (its message).
fn gloo_error(e: gloo_net::Error) -> JsValue {
    JsValue::from_str(&match e {
        gloo_net::Error::JsError(e) => e.message,
        gloo_net::Error::GlooError(m) => m,
    })
}

impl FetchTransport {
    /// The request: `POST`, the URL and every header from the base gloo-net built for this
    /// URL and these headers (built on the first call, again only if they change), plus this
    /// call's body and the attempt's signal. One `Request` constructed per call: gloo-net's
    /// builder makes two, and parses the URL to merge query parameters, on every build
    /// (measured in Chromium, 10-row calls: from `AbortController` to the timer, ~170 µs per
    /// call with the builder, ~85 µs this way).
    fn build(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&AbortSignal>,
    ) -> Result<web_sys::Request, JsValue> {
        let mut slot = self.base.borrow_mut();
        let key = key(request);
        let base = match slot.take() {
            Some(b) if b.key == key => b,
            _ => {
                let mut builder = gloo_net::http::Request::post(request.url);
                for (name, value) in request.headers {
                    builder = builder.header(name, value);
                }
                Base {
                    key,
                    request: builder.build().map_err(gloo_error)?.into(),
                }
            }
        };
        let init = web_sys::RequestInit::new();
        init.set_body(request.body);
        init.set_signal(signal);
        let built = web_sys::Request::new_with_request_and_init(&base.request, &init);
        *slot = Some(base);
        built
    }
}

/// A promise settled by a timer (after `ms`, its resolve or, if not `resolve_on_timer`, its
/// reject is called with `arg`) or rejected when `signal` aborts; [`Armed::disarm`] clears
/// both. One helper for the request's cancel promise and the backoff sleep.
struct Armed<'a> {
    promise: Promise,
    reject: Function,
    timer: JsValue,
    signal: Option<&'a Signal>,
}

fn arm<'a>(
    ms: f64,
    resolve_on_timer: bool,
    arg: &JsValue,
    signal: Option<&'a Signal>,
) -> Option<Armed<'a>> {
    let mut slot = None;
    let promise = Promise::new(&mut |resolve, reject| slot = Some((resolve, reject)));
    let (resolve, reject) = slot?;
    let timer = set_timeout(if resolve_on_timer { &resolve } else { &reject }, ms, arg);
    if let Some(s) = signal {
        let _ = s.add_event_listener_with_callback("abort", &reject);
    }
    Some(Armed {
        promise,
        reject,
        timer,
        signal,
    })
}

impl Armed<'_> {
    fn disarm(&self) {
        clear_timeout(&self.timer);
        if let Some(s) = self.signal {
            let _ = s.remove_event_listener_with_callback("abort", &self.reject);
        }
    }
}

/// Sends with `fetch` (one `Request` argument); reads the Response-like object it resolves to
/// (`status`, `headers.get(name)`, `text()`) through `Reflect` and catching calls: a caller's
/// `fetch`, or a replaced global one, may return any object, whose getters may throw.
async fn send(
    fetch: &Function,
    request: web_sys::Request,
    cancel: &Promise,
    read_text: Option<&Function>,
) -> Result<HttpResponse, JsValue> {
    let fetched = call_later(fetch, &global(), &request);
    // Headers and body in one wait when `fetch` gives a native `Response`: its `text()` is
    // chained on the `fetch` promise. Anything else (a Response-like object: the chained
    // call rejects) takes the steps below; a native `Response` whose body failed keeps
    // that failure. Measured in Chromium (tests/bench/marks.mjs, three runs, 10-row calls):
    // from the response headers to the body read and the timer cleared, 30-42 µs less.
    let second = match read_text {
        Some(read) => fetched
            .unchecked_ref::<Thenable>()
            .then_call(read)
            .unchecked_into::<Thenable>()
            .catch_with(&ARRAY_OF.with(Clone::clone))
            .into(),
        None => JsValue::UNDEFINED,
    };
    let both: Array = race(&Promise::all(&Array::of2(&fetched, &second)), cancel)
        .await?
        .unchecked_into();
    let (response, body) = (both.get(0), both.get(1));
    let not_a_response = || JsValue::from_str("fetch did not return a Response");
    let status = get(&response, "status")
        .as_f64()
        .ok_or_else(not_a_response)?;
    // Only an error status uses Retry-After: a 2xx skips four crossings into JavaScript.
    let retry_after = if (200.0..300.0).contains(&status) {
        None
    } else {
        let headers = get(&response, "headers");
        match get(&headers, "get").dyn_into::<Function>() {
            Ok(f) => {
                let name = JsValue::from_str("retry-after");
                race(&call_later(&f, &headers, &name), cancel).await.ok()
            }
            Err(_) => None,
        }
        .and_then(|v| v.as_string())
    };
    let body = match body {
        b if b.is_string() => b,
        // The chained `text()` failed on a native `Response`: that failure (e.g. the body's
        // network error), caught as `[error]`.
        b if response.is_instance_of::<web_sys::Response>() => {
            return Err(b.unchecked_into::<Array>().get(0))
        }
        _ => {
            let text = get(&response, "text")
                .dyn_into::<Function>()
                .map_err(|_| not_a_response())?;
            race(&call_later(&text, &response, &JsValue::UNDEFINED), cancel).await?
        }
    };
    let body = body
        .dyn_into::<JsString>()
        .map_err(|_| JsValue::from_str("the response body could not be read as text"))?;
    Ok(HttpResponse {
        status: status.clamp(0.0, 999.0) as u16,
        retry_after,
        body,
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
        // The caller's `fetch`, else the global one, looked up on every call.
        let Some(fetch) = self
            .fetch
            .clone()
            .or_else(|| get(&global(), "fetch").dyn_into::<Function>().ok())
        else {
            return Err(TransportError::Network(
                "no fetch implementation is available; pass the fetch option".into(),
            ));
        };
        let controller = AbortController::new().ok();
        let built = self.build(
            request,
            controller.as_ref().map(AbortController::signal).as_ref(),
        );

        // The timer rejects `cancel` with `marker`, so a timeout is told apart from a failure.
        let marker: JsValue = Object::new().into();
        let Some(cancel) = arm(f64::from(request.timeout_ms), false, &marker, signal) else {
            return Err(TransportError::Network(
                "could not set up the request".into(),
            ));
        };

        let result = match built {
            Ok(r) => send(&fetch, r, &cancel.promise, self.read_text.as_ref()).await,
            Err(e) => Err(e),
        };
        cancel.disarm();
        result.map_err(|e| {
            if let Some(c) = &controller {
                c.abort();
            }
            if is_aborted(signal) {
                TransportError::Aborted
            } else if e == marker {
                TransportError::Timeout
            } else {
                TransportError::Network(describe(&e))
            }
        })
    }

    async fn sleep(&self, ms: u64, signal: Option<&Signal>) -> Result<(), TransportError> {
        if is_aborted(signal) {
            return Err(TransportError::Aborted);
        }
        let Some(done) = arm(
            ms.min(2_147_483_647) as f64,
            true,
            &JsValue::UNDEFINED,
            signal,
        ) else {
            return Ok(());
        };
        let r = JsFuture::from(done.promise.clone()).await;
        done.disarm();
        r.map(|_| ()).map_err(|_| TransportError::Aborted)
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
