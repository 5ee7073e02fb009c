//! wasm-bindgen-test suite: the bot mutations of the Rust API over the real `fetch`
//! transport, against the sandbox, in Node and in headless Chromium. Agent 2 owns
//! the orders moved here (agent 1's data is the other suites' oracle); its state is reset
//! first. The sandbox URL and keys are read at compile time (scripts/with-sandbox.sh).
//!
//! Chromium resends a request by itself when a reused keep-alive connection is reset before
//! any response byte, so a `drop-after` attempt may be logged twice there (the resend of an
//! order mutation is refused by the sandbox and changes nothing); the tests allow for it.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Object, Promise, Reflect};
use settlement_wasm::Code;
use settlement_wasm::{BotClient, BotOptions, Error};
use settlement_wasm::{CallOptions, FieldOptions, P2PPayment, UpdateRatesArgs};
use settlement_wasm::{FetchTransport, Signal};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::AbortSignal;

const SANDBOX_URL: &str = env!("SANDBOX_URL");
const AGENT2_KEY: &str = env!("AGENT2_KEY");

fn client(headers: &[(&str, &str)], timeout_ms: Option<u32>) -> BotClient<FetchTransport> {
    BotClient::new(BotOptions {
        base_url: Some(SANDBOX_URL.to_string()),
        api_key: Some(AGENT2_KEY.to_string()),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        timeout_ms,
        max_retries: Some(3),
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

fn in_browser() -> bool {
    !get(&js_sys::global(), "document").is_undefined()
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

/// `method url` with the global `fetch`: the status and, for a 200, the parsed JSON body.
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
    if status != 200 {
        return (status, JsValue::NULL);
    }
    let json = get(&response, "json").dyn_into::<Function>().unwrap();
    let body = JsFuture::from(json.call0(&response).unwrap().unchecked_into::<Promise>())
        .await
        .expect("JSON body");
    (status, body)
}

async fn reset() {
    let (status, _) = control("DELETE", &format!("{SANDBOX_URL}/__sandbox/state?agent=2")).await;
    assert_eq!(status, 204, "reset agent 2");
}

async fn log_len(tag: &str) -> usize {
    let (_, log) = control(
        "GET",
        &format!("{SANDBOX_URL}/__sandbox/requests?tag={tag}"),
    )
    .await;
    Array::from(&log).length() as usize
}

fn tag(name: &str) -> String {
    format!("wasm-mut-{name}-{}", js_sys::Math::random().to_bits())
}

/// The first of agent 2's orders with this status and type, as `orderHistory` returns it.
async fn pick(status: &str, payment_type: &str) -> P2PPayment {
    let (_, orders) = control("GET", &format!("{SANDBOX_URL}/__sandbox/orders?agent=2")).await;
    let found = Array::from(&orders)
        .iter()
        .find(|o| {
            get(o, "status").as_string().as_deref() == Some(status)
                && get(o, "paymentType").as_string().as_deref() == Some(payment_type)
        })
        .unwrap_or_else(|| panic!("agent 2 has a {status} {payment_type}"));
    P2PPayment {
        id: get(&found, "id").as_string(),
        order_id: get(&found, "orderId").as_string(),
        status: get(&found, "status").as_string(),
        ..P2PPayment::default()
    }
}

fn assert_no_key(e: &Error) {
    let text = format!("{:?} {}", &**e, e.message);
    assert!(!text.contains(AGENT2_KEY), "{text}");
}

#[wasm_bindgen_test]
async fn drop_after_is_outcome_unknown_and_reconcile_finds_the_applied_status() {
    reset().await;
    let order = pick("pending", "withdrawal").await;
    let id = order.id.clone().unwrap();
    let t = tag("drop-after");
    let dropping = client(
        &[("x-sandbox-fault", "drop-after"), ("x-sandbox-tag", &t)],
        None,
    );
    let e = dropping
        .accept_withdrawal(&id, CallOptions::default())
        .await
        .expect_err("the answer was dropped");
    assert_eq!(e.code, Code::OutcomeUnknown, "{}", e.message);
    assert_no_key(&e);
    let logged = log_len(&t).await;
    let allowed = if in_browser() { 1..=2 } else { 1..=1 };
    assert!(allowed.contains(&logged), "{logged} log entries");

    let now = client(&[], None)
        .reconcile(&order, FieldOptions::default())
        .await
        .expect("reconciled")
        .expect("the order is there");
    assert_eq!(now.id.as_deref(), Some(id.as_str()));
    assert_eq!(now.status.as_deref(), Some("picked_up"));
    reset().await;
}

#[wasm_bindgen_test]
async fn mutations_are_sent_once_on_503_and_timeout() {
    let rates = || UpdateRatesArgs {
        deposit_rate: Some("15.55".into()),
        ..UpdateRatesArgs::default()
    };
    let t = tag("503");
    let c = client(
        &[("x-sandbox-fault", "status=503"), ("x-sandbox-tag", &t)],
        None,
    );
    let e = c.update_rates(rates()).await.unwrap_err();
    assert_eq!((e.code, e.status), (Code::Http, Some(503)));
    let e = c
        .accept_withdrawal("p2p_999999", CallOptions::default())
        .await
        .unwrap_err();
    assert_eq!(e.code, Code::Http);
    sleep_ms(300.0).await;
    assert_eq!(log_len(&t).await, 2, "one request per mutation");

    let t = tag("timeout");
    let c = client(
        &[("x-sandbox-fault", "delay=1200"), ("x-sandbox-tag", &t)],
        Some(200),
    );
    let e = c.update_rates(rates()).await.unwrap_err();
    assert_eq!(e.code, Code::OutcomeUnknown, "{}", e.message);
    assert_no_key(&e);
    sleep_ms(1500.0).await;
    assert_eq!(log_len(&t).await, 1, "a timed-out mutation is not retried");
}

#[wasm_bindgen_test]
async fn an_illegal_transition_is_graphql_with_its_code() {
    reset().await;
    let order = pick("pending", "deposit").await;
    let id = order.id.clone().unwrap();
    let c = client(&[], None);
    assert!(c
        .mark_deposit_as_received(&id, CallOptions::default())
        .await
        .unwrap());
    let e = c
        .mark_deposit_as_received(&id, CallOptions::default())
        .await
        .expect_err("twice");
    assert_eq!(e.code, Code::Graphql);
    assert_eq!(
        e.graphql_errors[0].extension_code().as_deref(),
        Some("INVALID_TRANSITION")
    );
    assert_no_key(&e);
    reset().await;
}

#[wasm_bindgen_test]
async fn an_abort_before_sending_stays_aborted() {
    let ctor = global_fn("AbortController");
    let controller = Reflect::construct(&ctor, &Array::new()).unwrap();
    let signal = Signal::from(get(&controller, "signal").unchecked_into::<AbortSignal>());
    get(&controller, "abort")
        .dyn_into::<Function>()
        .unwrap()
        .call0(&controller)
        .unwrap();
    let t = tag("abort");
    let c = client(&[("x-sandbox-tag", &t)], None);
    let e = c
        .cancel_withdrawal(
            "p2p_999999",
            CallOptions {
                signal: Some(signal),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    sleep_ms(200.0).await;
    assert_eq!(log_len(&t).await, 0, "nothing was sent");
}
