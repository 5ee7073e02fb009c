//! wasm-bindgen-test suite: the Rust API's order watch (`BotClient::watch_orders`, driven by
//! `OrderWatch::next`) over the real `fetch` transport, against the sandbox, in Node and in
//! headless Chromium. Agent 3 (no seeded orders) receives the orders created here through
//! `POST /__sandbox/orders`; its state is reset before and after. Requests are counted in the
//! sandbox's log by each watch's own `x-sandbox-tag`.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Reflect};
use settlement_wasm::WatchState as State;
use settlement_wasm::{BotClient, BotOptions};
use settlement_wasm::{FetchTransport, Signal, WatchOrdersArgs};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::AbortSignal;

mod wasm_support;
use wasm_support::{control, get, global_fn, logged, now, reset_agent, sleep_ms, tag, SANDBOX_URL};

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
    reset_agent(3).await;
    let t = tag("watch", "new");
    let bot = client(&[("x-sandbox-tag", &t)]);
    let controller = abort_controller();
    let signal: AbortSignal = get(&controller, "signal").unchecked_into();
    let mut watch = bot
        .watch_orders(WatchOrdersArgs {
            interval_ms: Some(1_000),
            fields: Some(vec!["orderId".into()]),
            signal: Some(Signal::from(signal)),
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
    assert_eq!(second.added[0]["id"].as_str(), Some(id.as_str()));
    assert_eq!(second.added[0]["status"].as_str(), Some("pending"));
    assert_eq!(second.total, Some(1.0));

    // No change: next() keeps polling until the signal aborts (during a sleep), then None.
    let sent = logged(&t).await.length();
    abort_later(&controller, 300.0);
    assert!(watch.next().await.expect("no failure").is_none());
    assert_eq!(watch.status().state, State::Stopped);
    sleep_ms(2_500.0).await;
    assert_eq!(
        logged(&t).await.length(),
        sent,
        "nothing sent after the abort"
    );
    reset_agent(3).await;
}

#[wasm_bindgen_test]
async fn the_rust_watch_backs_off_after_retryable_failures_then_recovers() {
    let t = tag("watch", "backoff");
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
    assert_eq!(logged(&t).await.length(), 3, "two 503s, then the page");
    // The waits after the two failures: 1 to 2 s, then 2 to 4 s (each at least its half).
    assert!(elapsed >= 2_900.0, "backed off for only {elapsed} ms");
    assert_eq!(watch.status().state, State::Polling);
    watch.stop();
    assert!(watch.next().await.unwrap().is_none());
    assert_eq!(logged(&t).await.length(), 3);
}
