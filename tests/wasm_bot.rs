//! wasm-bindgen-test suite: the Rust API of `BotClient` over the real `fetch` transport,
//! against the sandbox, in Node and in headless Chromium (scripts/test-wasm.sh runs both).
//! The sandbox URL and keys are read at compile time (scripts/with-sandbox.sh exports them).
#![cfg(target_arch = "wasm32")]

use settlement_wasm::error::Code;
use settlement_wasm::types::{FieldOptions, OrderHistoryArgs, OrderHistoryFilter};
use settlement_wasm::{BotClient, BotOptions};
use wasm_bindgen_test::*;

const SANDBOX_URL: &str = env!("SANDBOX_URL");
const AGENT_KEY: &str = env!("AGENT_KEY");

fn options(key: Option<&str>, headers: &[(&str, &str)]) -> BotOptions {
    BotOptions {
        base_url: Some(SANDBOX_URL.to_string()),
        api_key: key.map(str::to_string),
        headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ..BotOptions::default()
    }
}

fn bot() -> BotClient<settlement_wasm::transport::FetchTransport> {
    BotClient::new(options(Some(AGENT_KEY), &[])).expect("valid options")
}

#[wasm_bindgen_test]
async fn profile_has_the_seeded_values() {
    let p = bot().profile(FieldOptions::default()).await.expect("profile");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert_eq!(p.email.as_deref(), Some("amara.okafor@example.com"));
    assert_eq!(p.account_balance.as_deref(), Some("12500.50"));
    assert_eq!(p.escrow_balance.as_deref(), Some("830.00"));
    assert_eq!(p.used_credit_line.as_deref(), Some("1250.00"));
    assert_eq!(p.deposits_completed, Some(1024));
}

#[wasm_bindgen_test]
async fn profile_with_chosen_fields_selects_only_those() {
    let opts = FieldOptions { fields: Some(vec!["id".into(), "email".into()]), ..Default::default() };
    let p = bot().profile(opts).await.expect("profile");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert_eq!(p.account_balance, None, "not selected, so not returned");
}

#[wasm_bindgen_test]
async fn order_history_filters_and_paginates() {
    let args = OrderHistoryArgs {
        page: 2,
        per_page: Some(25),
        filter: OrderHistoryFilter { status: Some("completed".into()), ..Default::default() },
        ..Default::default()
    };
    let page = bot().order_history(args).await.expect("orderHistory");
    assert_eq!(page.data.len(), 25);
    assert!(page.data.iter().all(|o| o.status.as_deref() == Some("completed")));
    assert_eq!(page.pagination.page, 2);
    assert_eq!(page.pagination.per_page, 25);
    assert!(page.pagination.total > 25 && page.pagination.total < 1600, "total {}", page.pagination.total);
}

#[wasm_bindgen_test]
async fn invalid_page_is_refused_without_a_request() {
    let args = OrderHistoryArgs { page: 0, ..Default::default() };
    let err = bot().order_history(args).await.expect_err("page 0");
    assert_eq!(err.code, Code::InvalidInput);
    assert_eq!(err.field.as_deref(), Some("page"));
}

#[wasm_bindgen_test]
async fn withdrawal_info_for_usdc() {
    let w = bot().withdrawal_info("USDC", FieldOptions::default()).await.expect("call").expect("known symbol");
    assert_eq!(w.symbol.as_deref(), Some("USDC"));
    assert!(w.networks.as_ref().is_some_and(|n| n.iter().any(|x| x == "BASE")), "{:?}", w.networks);
    let none = bot().withdrawal_info("NOPE", FieldOptions::default()).await.expect("call");
    assert!(none.is_none());
}

#[wasm_bindgen_test]
async fn wrong_key_is_unauthorized_and_never_echoed() {
    let key = "SBX-SECK_wasm-wrong-key-7c1d";
    let err = BotClient::new(options(Some(key), &[])).unwrap().profile(FieldOptions::default()).await.unwrap_err();
    assert_eq!(err.code, Code::Unauthorized);
    assert_eq!(err.status, Some(401));
    let text = format!("{err} {err:?}");
    assert!(!text.contains(key), "key leaked into {text}");
}

#[wasm_bindgen_test]
async fn retries_a_503_then_succeeds() {
    let tag = format!("wasm-retry-{}", js_sys::Math::random());
    let c = BotClient::new(options(
        Some(AGENT_KEY),
        &[("x-sandbox-fault", "status=503;retry-after=0;fail-first=2"), ("x-sandbox-tag", &tag)],
    ))
    .unwrap();
    let p = c.profile(FieldOptions { fields: Some(vec!["id".into()]), ..Default::default() }).await.expect("retried");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
}

#[wasm_bindgen_test]
async fn server_error_html_is_http_500_not_retried() {
    let c = BotClient::new(options(Some(AGENT_KEY), &[("x-sandbox-fault", "status=500;body=html")])).unwrap();
    let err = c.profile(FieldOptions::default()).await.unwrap_err();
    assert_eq!(err.code, Code::Http);
    assert_eq!(err.status, Some(500));
}

#[wasm_bindgen_test]
async fn timeout_per_attempt() {
    let mut o = options(Some(AGENT_KEY), &[("x-sandbox-fault", "delay=3000")]);
    o.timeout_ms = Some(150);
    o.max_retries = Some(0);
    let err = BotClient::new(o).unwrap().profile(FieldOptions::default()).await.unwrap_err();
    assert_eq!(err.code, Code::Timeout);
}

#[wasm_bindgen_test]
async fn dropped_connection_is_a_network_error() {
    let mut o = options(Some(AGENT_KEY), &[("x-sandbox-fault", "drop")]);
    o.max_retries = Some(0);
    let err = BotClient::new(o).unwrap().profile(FieldOptions::default()).await.unwrap_err();
    assert_eq!(err.code, Code::Network);
}
