//! The `fetch` transport (wasm32 only): the one place that calls `fetch`.
//!
//! Uses the global object's `fetch` (looked up on every call, so polyfills and test mocks
//! installed later are honoured; never `window`, so Node 18+ and workers work) or the
//! function given in the options. Each attempt gets its own `AbortController`; a timer and
//! the caller's signal reject a "cancel" promise that is raced against the response and
//! the body, so even a `fetch` that ignores its signal cannot hang a call. No Rust closures
//! are created: the promise's own `reject` function is the timer callback and the abort
//! listener.

use js_sys::{Array, Function, JsString, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, RequestInit};

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
}

/// The wasm32 transport over `fetch`.
#[derive(Clone, Default)]
pub struct FetchTransport {
    fetch: Option<Function>,
}

impl FetchTransport {
    /// Uses `fetch` when given, else the global `fetch` at call time.
    pub fn new(fetch: Option<Function>) -> Self {
        FetchTransport { fetch }
    }

    /// Whether the global object has a `fetch` function.
    pub fn has_global_fetch() -> bool {
        global_fn("fetch").is_some()
    }

    fn fetch_fn(&self) -> Option<Function> {
        self.fetch.clone().or_else(|| global_fn("fetch"))
    }
}

/// The global object (`js_sys::global()`, which the futures queue links anyway).
pub fn global() -> JsValue {
    js_sys::global().into()
}

fn global_fn(name: &str) -> Option<Function> {
    Reflect::get(&global(), &JsValue::from_str(name))
        .ok()?
        .dyn_into::<Function>()
        .ok()
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// Awaits `p`, or the rejection of `cancel`, whichever settles first.
async fn race(p: &JsValue, cancel: &Promise) -> Result<JsValue, JsValue> {
    let both = Array::new();
    both.push(p);
    both.push(cancel);
    JsFuture::from(Promise::race(&both)).await
}

/// `f.call(this, arg)` (one binding for every call the transport makes: fewer imports).
fn call(f: &Function, this: &JsValue, arg: &JsValue) -> Result<JsValue, JsValue> {
    f.call2(this, arg, &JsValue::UNDEFINED)
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

fn read_header(response: &JsValue, name: &str) -> Option<String> {
    let headers = get(response, "headers");
    let getter = get(&headers, "get").dyn_into::<Function>().ok()?;
    call(&getter, &headers, &JsValue::from_str(name))
        .ok()?
        .as_string()
}

async fn attempt(
    fetch: &Function,
    url: &str,
    init: &RequestInit,
    cancel: &Promise,
) -> Result<HttpResponse, JsValue> {
    let pending = fetch.call2(&global(), &JsValue::from_str(url), init)?;
    let response = race(&pending, cancel).await?;
    let status = get(&response, "status")
        .as_f64()
        .ok_or_else(|| JsValue::from_str("fetch did not return a Response"))?;
    let retry_after = read_header(&response, "retry-after");
    let text = get(&response, "text")
        .dyn_into::<Function>()
        .map_err(|_| JsValue::from_str("fetch did not return a Response"))?;
    let body = race(&call(&text, &response, &JsValue::UNDEFINED)?, cancel).await?;
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
        let Some(fetch) = self.fetch_fn() else {
            return Err(TransportError::Network(
                "no fetch implementation is available; pass the fetch option".into(),
            ));
        };
        let controller = AbortController::new().ok();
        let headers = Object::new();
        for (name, value) in request.headers {
            set(&headers, name, &JsValue::from_str(value));
        }
        let init = RequestInit::new();
        init.set_method("POST");
        init.set_headers(&headers);
        init.set_body(&JsValue::from_str(request.body));
        init.set_signal(controller.as_ref().map(AbortController::signal).as_ref());

        let mut reject_slot: Option<Function> = None;
        let cancel = Promise::new(&mut |_resolve, reject| reject_slot = Some(reject));
        let Some(reject) = reject_slot else {
            return Err(TransportError::Network(
                "could not set up the request".into(),
            ));
        };
        // The timer rejects `cancel` with `marker`, so a timeout is told apart from a failure.
        let marker: JsValue = Object::new().into();
        let timer = set_timeout(&reject, f64::from(request.timeout_ms), &marker);
        if let Some(s) = signal {
            let _ = s.add_event_listener_with_callback("abort", &reject);
        }

        let result = attempt(&fetch, request.url, &init, &cancel).await;

        clear_timeout(&timer);
        if let Some(s) = signal {
            let _ = s.remove_event_listener_with_callback("abort", &reject);
        }
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
        let mut slot: Option<(Function, Function)> = None;
        let done = Promise::new(&mut |resolve, reject| slot = Some((resolve, reject)));
        let Some((resolve, reject)) = slot else {
            return Ok(());
        };
        let timer = set_timeout(&resolve, ms.min(2_147_483_647) as f64, &JsValue::UNDEFINED);
        if let Some(s) = signal {
            let _ = s.add_event_listener_with_callback("abort", &reject);
        }
        let r = JsFuture::from(done).await;
        clear_timeout(&timer);
        if let Some(s) = signal {
            let _ = s.remove_event_listener_with_callback("abort", &reject);
        }
        r.map(|_| ()).map_err(|_| TransportError::Aborted)
    }

    fn random(&self) -> f64 {
        js_sys::Math::random()
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    /// A `window`, `document` or `WorkerGlobalScope` global (looked up on every call).
    fn browser_like(&self) -> bool {
        let g = global();
        ["window", "document", "WorkerGlobalScope"]
            .iter()
            .any(|name| !get(&g, name).is_undefined())
    }
}
