//! wasm-bindgen-test suite: the Rust API's order watch (`BotClient::watch_orders`, driven by
//! `OrderWatch::next`) over the real `fetch` transport, against the sandbox, in Node and in
//! headless Chromium. Agent 3 (no seeded orders) receives the orders created here through
//! `POST /__sandbox/orders`; its state is reset before and after. Requests are counted in the
//! sandbox's log by each watch's own `x-sandbox-tag`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Object, Promise, Reflect};
use settlement_wasm::transport::{AbortSignal, FetchTransport};
use settlement_wasm::types::WatchOrdersArgs;
use settlement_wasm::watch::State;
use settlement_wasm::{BotClient, BotOptions};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

const SANDBOX_URL: &str = env!("SANDBOX_URL");
const AGENT3_KEY: &str = env!("AGENT3_KEY");

fn client(headers: &[(&str, &str)]) -> BotClient<FetchTransport> {
    BotClient::new(BotOptions {
        base_url: Some(SANDBOX_URL.to_string()),
        api_key: Some(AGENT3_KEY.to_string()),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..BotOptions::default()
    })
    .expect("valid options")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn global_fn(name: &str) -> Function {
    get(&js_sys::global(), name)
        .dyn_into::<Function>()
        .unwrap_or_else(|_| panic!("global {name}"))
}

fn now() -> f64 {
    js_sys::Date::now()
}

async fn sleep_ms(ms: f64) {
    let set_timeout = global_fn("setTimeout");
    let p = Promise::new(&mut |resolve, _reject| {
        set_timeout
            .call2(&js_sys::global(), &resolve, &JsValue::from_f64(ms))
            .expect("setTimeout");
    });
    JsFuture::from(p).await.expect("timer");
}

/// `method url` with the global `fetch`: the status and the parsed JSON body (or null).
async fn control(method: &str, url: &str) -> (u16, JsValue) {
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

async fn reset_agent3() {
    let (status, _) = control("DELETE", &format!("{SANDBOX_URL}/__sandbox/state?agent=3")).await;
    assert_eq!(status, 204);
}

/// How many requests with tag `tag` the sandbox logged.
async fn logged(tag: &str) -> u32 {
    let (_, log) = control(
        "GET",
        &format!("{SANDBOX_URL}/__sandbox/requests?tag={tag}"),
    )
    .await;
    Array::from(&log).length()
}

fn tag(name: &str) -> String {
    format!("watch-{name}-{}", (js_sys::Math::random() * 1e9) as u64)
}

fn abort_controller() -> JsValue {
    let ctor = get(&js_sys::global(), "AbortController")
        .dyn_into::<Function>()
        .unwrap();
    Reflect::construct(&ctor, &Array::new()).unwrap()
}

/// Aborts `controller` after `ms` (from a timer, while the watch awaits).
fn abort_later(controller: &JsValue, ms: f64) {
    let abort = get(controller, "abort").dyn_into::<Function>().unwrap();
    let bound = abort.bind0(controller);
    global_fn("setTimeout")
        .call2(&js_sys::global(), &bound, &JsValue::from_f64(ms))
        .unwrap();
}

#[wasm_bindgen_test]
async fn the_rust_watch_delivers_a_new_order_without_asking_again_and_ends_on_its_signal() {
    reset_agent3().await;
    let t = tag("new");
    let bot = client(&[("x-sandbox-tag", &t)]);
    let controller = abort_controller();
    let signal: AbortSignal = get(&controller, "signal").unchecked_into();
    let mut watch = bot
        .watch_orders(WatchOrdersArgs {
            interval_ms: Some(1_000),
            fields: Some(vec!["orderId".into()]),
            signal: Some(signal),
            ..Default::default()
        })
        .expect("valid options");
    let first = watch
        .next()
        .await
        .expect("a page")
        .expect("the first update");
    assert!(first.rows.is_empty() && first.added.is_empty());
    assert_eq!(first.total, Some(0.0));

    let (status, created) =
        control("POST", &format!("{SANDBOX_URL}/__sandbox/orders?agent=3")).await;
    assert_eq!(status, 201);
    let id = get(&created, "id").as_string().unwrap();
    let second = watch.next().await.expect("a page").expect("an update");
    assert_eq!(second.added.len(), 1);
    assert_eq!(get(&second.added[0], "id").as_string(), Some(id));
    assert_eq!(
        get(&second.added[0], "status").as_string().as_deref(),
        Some("pending")
    );
    assert_eq!(second.total, Some(1.0));

    // No change: next() keeps polling until the signal aborts (during a sleep), then None.
    let sent = logged(&t).await;
    abort_later(&controller, 300.0);
    assert!(watch.next().await.expect("no failure").is_none());
    assert_eq!(watch.status().state, State::Stopped);
    sleep_ms(2_500.0).await;
    assert_eq!(logged(&t).await, sent, "nothing sent after the abort");
    reset_agent3().await;
}

#[wasm_bindgen_test]
async fn the_rust_watch_backs_off_after_retryable_failures_then_recovers() {
    let t = tag("backoff");
    let bot = client(&[
        ("x-sandbox-tag", &t),
        ("x-sandbox-fault", "status=503; fail-first=2"),
    ]);
    let mut watch = bot
        .watch_orders(WatchOrdersArgs {
            interval_ms: Some(1_000),
            max_interval_ms: Some(4_000),
            ..Default::default()
        })
        .expect("valid options");
    let start = now();
    let first = watch
        .next()
        .await
        .expect("recovered")
        .expect("the first update");
    let elapsed = now() - start;
    assert!(first.rows.is_empty());
    assert_eq!(logged(&t).await, 3, "two 503s, then the page");
    // The waits after the two failures: 1 to 2 s, then 2 to 4 s (each at least its half).
    assert!(elapsed >= 2_900.0, "backed off for only {elapsed} ms");
    assert_eq!(watch.status().state, State::Polling);
    watch.stop();
    assert!(watch.next().await.unwrap().is_none());
    assert_eq!(logged(&t).await, 3);
}
