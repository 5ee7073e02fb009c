//! wasm-bindgen-test suite: the bot mutations of the Rust API over the real `fetch`
//! transport, against the sandbox, in Node and in headless Chromium. Agent 2 owns
//! the orders moved here (agent 1's data is the other suites' oracle); its state is reset
//! first. The sandbox URL and keys are read at compile time (scripts/with-sandbox.sh).
//!
//! Chromium resends a request by itself when a reused keep-alive connection is reset before
//! any response byte, so a `drop-after` attempt may be logged twice there (the resend of an
//! order mutation is refused by the sandbox and changes nothing); the tests allow for it.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, Reflect};
use settlement_wasm::Code;
use settlement_wasm::{BotClient, BotOptions, Error};
use settlement_wasm::{CallOptions, FieldOptions, P2PPayment, UpdateRatesArgs};
use settlement_wasm::{FetchTransport, Signal};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::AbortSignal;

mod wasm_support;
use wasm_support::{
    control, get, global_fn, in_browser, logged, reset_agent, sleep_ms, tag, SANDBOX_URL,
};

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
    reset_agent(2).await;
    let order = pick("pending", "withdrawal").await;
    let id = order.id.clone().unwrap();
    let t = tag("wasm-mut", "drop-after");
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
    let entries = logged(&t).await.length();
    let allowed = if in_browser() { 1..=2 } else { 1..=1 };
    assert!(allowed.contains(&entries), "{entries} log entries");

    let now = client(&[], None)
        .reconcile(&order, FieldOptions::default())
        .await
        .expect("reconciled")
        .expect("the order is there");
    assert_eq!(now.id.as_deref(), Some(id.as_str()));
    assert_eq!(now.status.as_deref(), Some("picked_up"));
    reset_agent(2).await;
}

#[wasm_bindgen_test]
async fn mutations_are_sent_once_on_503_and_timeout() {
    let rates = || UpdateRatesArgs {
        deposit_rate: Some("15.55".into()),
        ..UpdateRatesArgs::default()
    };
    let t = tag("wasm-mut", "503");
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
    assert_eq!(logged(&t).await.length(), 2, "one request per mutation");

    let t = tag("wasm-mut", "timeout");
    let c = client(
        &[("x-sandbox-fault", "delay=1200"), ("x-sandbox-tag", &t)],
        Some(200),
    );
    let e = c.update_rates(rates()).await.unwrap_err();
    assert_eq!(e.code, Code::OutcomeUnknown, "{}", e.message);
    assert_no_key(&e);
    sleep_ms(1500.0).await;
    assert_eq!(
        logged(&t).await.length(),
        1,
        "a timed-out mutation is not retried"
    );
}

#[wasm_bindgen_test]
async fn an_illegal_transition_is_graphql_with_its_code() {
    reset_agent(2).await;
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
    reset_agent(2).await;
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
    let t = tag("wasm-mut", "abort");
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
    assert_eq!(logged(&t).await.length(), 0, "nothing was sent");
}
