//! What the wasm-bindgen-test suites (`tests/wasm_*.rs`) share: the JavaScript globals they
//! reach (`fetch`, `setTimeout`, `Date.now`), and the sandbox's control routes (reset an
//! agent, read the request log by `x-sandbox-tag`). Each suite includes it with
//! `mod wasm_support;`; a suite uses only some of it.
#![allow(dead_code)]

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The sandbox's URL, read at compile time (scripts/with-sandbox.sh exports it).
pub const SANDBOX_URL: &str = env!("SANDBOX_URL");

/// `v[key]`, or `undefined` when reading it throws.
pub fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The global function `name` (`fetch`, `setTimeout`); panics when there is none.
pub fn global_fn(name: &str) -> Function {
    get(&js_sys::global(), name)
        .dyn_into::<Function>()
        .unwrap_or_else(|_| panic!("global {name}"))
}

/// Whether the suite runs in a page (Chromium) rather than in Node: a `document` exists.
pub fn in_browser() -> bool {
    !get(&js_sys::global(), "document").is_undefined()
}

/// `Date.now()`, in milliseconds.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// Resolves after `ms` milliseconds (`setTimeout`).
pub async fn sleep_ms(ms: f64) {
    let set_timeout = global_fn("setTimeout");
    let p = Promise::new(&mut |resolve, _reject| {
        set_timeout
            .call2(&js_sys::global(), &resolve, &JsValue::from_f64(ms))
            .expect("setTimeout");
    });
    JsFuture::from(p).await.expect("timer");
}

/// `method url` with the global `fetch`: the status and, for a 200 or 201, the parsed JSON body
/// (else `null`).
pub async fn control(method: &str, url: &str) -> (u16, JsValue) {
    let init = Object::new();
    Reflect::set(&init, &"method".into(), &method.into()).unwrap();
    let pending = global_fn("fetch")
        .call2(&js_sys::global(), &url.into(), &init)
        .expect("fetch");
    let response = JsFuture::from(pending.unchecked_into::<Promise>())
        .await
        .expect("control route answered");
    let status = get(&response, "status").as_f64().unwrap_or(0.0) as u16;
    if status != 200 && status != 201 {
        return (status, JsValue::NULL);
    }
    let json = get(&response, "json").dyn_into::<Function>().unwrap();
    let body = JsFuture::from(json.call0(&response).unwrap().unchecked_into::<Promise>())
        .await
        .expect("JSON body");
    (status, body)
}

/// Puts agent `n`'s orders back as the sandbox seeded them.
pub async fn reset_agent(n: u8) {
    let url = format!("{SANDBOX_URL}/__sandbox/state?agent={n}");
    let (status, _) = control("DELETE", &url).await;
    assert_eq!(status, 204, "reset agent {n}");
}

/// The requests the sandbox logged with `x-sandbox-tag: tag`.
pub async fn logged(tag: &str) -> Array {
    let url = format!("{SANDBOX_URL}/__sandbox/requests?tag={tag}");
    let (_, log) = control("GET", &url).await;
    Array::from(&log)
}

/// A tag no other test run uses: `<prefix>-<name>-<random>`.
pub fn tag(prefix: &str, name: &str) -> String {
    format!("{prefix}-{name}-{}", (js_sys::Math::random() * 1e12) as u64)
}
