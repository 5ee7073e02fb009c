//! wasm-bindgen-test suite: `FetchTransport` on its own, over a recording `fetch` that
//! answers at once (no network), in Node and in headless Chromium (scripts/test-wasm.sh).
//!
//! The transport builds each request from a base (`POST`, URL, headers) it keeps between
//! calls: these tests check that a call never goes out with another call's URL, headers or
//! body, when they change from one call to the next on the same transport.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function};
use settlement_wasm::transport::{FetchTransport, HttpRequest, Transport};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

/// A `fetch` that records, for each `Request` it is given, `[method, url, headers, body]`
/// (headers as sorted `name: value` lines) and answers `status` with `{"data":{}}` and a
/// `retry-after: 7` header, and the array it records into.
fn recording_fetch(status: u16) -> (Function, Array) {
    let seen = Array::new();
    let make = Function::new_with_args(
        "seen, status",
        "return async function (request) { \
           const headers = [...request.headers].map(([k, v]) => k + ': ' + v).sort().join('\\n'); \
           seen.push([request.method, request.url, headers, await request.text()]); \
           return new Response('{\"data\":{}}', { status, headers: { 'retry-after': '7', 'x-request-id': 'req-42' } }); };",
    );
    let f = make
        .call2(&JsValue::NULL, &seen, &JsValue::from(status))
        .expect("wrapper")
        .dyn_into::<Function>()
        .expect("a function");
    (f, seen)
}

fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn recorded(seen: &Array, i: u32) -> Vec<String> {
    let entry: Array = seen.get(i).unchecked_into();
    entry
        .iter()
        .map(|v| v.as_string().unwrap_or_default())
        .collect()
}

async fn send(t: &FetchTransport, url: &str, h: &[(String, String)], body: &str) -> u16 {
    let body = js_sys::JsString::from(body);
    let request = HttpRequest {
        url,
        headers: h,
        body: &body,
        timeout_ms: 5_000,
    };
    let response = t.send(&request, None).await.expect("a response");
    assert_eq!(String::from(response.body), r#"{"data":{}}"#);
    // Retry-After is read for an error status only (a 2xx never uses it).
    let expected = (response.status >= 300).then(|| "7".to_string());
    assert_eq!(response.retry_after, expected);
    response.status
}

#[wasm_bindgen_test]
async fn retry_after_is_read_for_an_error_status() {
    let (fetch, seen) = recording_fetch(429);
    let t = FetchTransport::new(Some(fetch));
    let h = headers(&[("x-trace", "one")]);
    assert_eq!(send(&t, "https://a.test/", &h, "1").await, 429);
    assert_eq!(send(&t, "https://a.test/", &h, "2").await, 429);
    assert_eq!(seen.length(), 2);
}

#[wasm_bindgen_test]
async fn each_call_carries_its_own_url_headers_and_body() {
    let (fetch, seen) = recording_fetch(200);
    let t = FetchTransport::new(Some(fetch));
    let a = headers(&[("content-type", "application/json"), ("x-trace", "one")]);
    let b = headers(&[("content-type", "application/json"), ("x-trace", "two")]);
    // A shorter value and one more header: not the first call's headers either.
    let c = headers(&[
        ("content-type", "application/json"),
        ("x-trace", "on"),
        ("e", "x"),
    ]);
    type Headers = [(String, String)];
    let calls: [(&str, &Headers, &str); 6] = [
        ("https://a.test/graphql", &a, r#"{"n":1}"#),
        ("https://a.test/graphql", &a, r#"{"n":2}"#),
        ("https://a.test/graphql", &b, r#"{"n":3}"#),
        ("https://b.test/graphql", &b, r#"{"n":4}"#),
        ("https://b.test/graphql", &c, r#"{"n":5}"#),
        ("https://a.test/graphql", &a, r#"{"n":6}"#),
    ];
    for (url, h, body) in calls {
        assert_eq!(send(&t, url, h, body).await, 200);
    }
    assert_eq!(seen.length(), 6);
    for (i, (url, h, body)) in calls.iter().enumerate() {
        let mut lines: Vec<String> = h.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        lines.sort();
        assert_eq!(
            recorded(&seen, i as u32),
            vec![
                "POST".to_string(),
                url.to_string(),
                lines.join("\n"),
                body.to_string()
            ],
            "call {i}"
        );
    }
}

#[wasm_bindgen_test]
async fn the_response_headers_are_read_for_observers() {
    let (fetch, _seen) = recording_fetch(200);
    let t = FetchTransport::new(Some(fetch));
    let body = js_sys::JsString::from("{}");
    let request = HttpRequest {
        url: "https://a.test/graphql",
        headers: &[],
        body: &body,
        timeout_ms: 5_000,
    };
    let response = t.send(&request, None).await.expect("a response");
    let names: Vec<&str> = response.headers.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"retry-after"), "{names:?}");
    assert!(
        response
            .headers
            .iter()
            .any(|(n, v)| n == "x-request-id" && v == "req-42"),
        "{:?}",
        response.headers
    );
}
