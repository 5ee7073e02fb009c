//! The Rust API off the web: `BotClient` and `MerchantClient` over `ReqwestTransport` against
//! the sandbox (started in-process, listening on 127.0.0.1), called from `tokio::spawn`ed
//! tasks (which needs `Send` futures and `Send + Sync` clients), with cancellation by a
//! `Signal` and by dropping a call's future (the sandbox logs such a request as 499, "the
//! client went away", where a request left running is logged 200).
#![cfg(not(target_arch = "wasm32"))]

use std::time::Duration;

use futures_util::StreamExt;
use serde_json::Value as Json;
use settlement_sandbox::data::{AGENT_KEY, MERCHANT_SECRET_KEY};
use settlement_wasm::{
    BotClient, BotOptions, ClientOptions, Code, FieldOptions, MerchantClient, MerchantOptions,
    OrdersArgs, ReqwestTransport, Signal,
};

async fn sandbox() -> settlement_sandbox::Running {
    settlement_sandbox::start(settlement_sandbox::Options {
        port: 0,
        log_to_stderr: false,
        ..settlement_sandbox::Options::default()
    })
    .await
    .expect("the sandbox starts")
}

fn bot(url: &str, headers: &[(&str, &str)]) -> BotClient<ReqwestTransport> {
    BotClient::new(BotOptions {
        base_url: Some(url.to_owned()),
        api_key: Some(AGENT_KEY.to_owned()),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..BotOptions::default()
    })
    .expect("valid options")
}

/// The sandbox's request log entries with tag `tag`.
async fn logged(url: &str, tag: &str) -> Vec<Json> {
    let text = reqwest::get(format!("{url}/__sandbox/requests?tag={tag}"))
        .await
        .expect("the request log")
        .text()
        .await
        .expect("its body");
    let log: Json = serde_json::from_str(&text).expect("the log is JSON");
    log.as_array().cloned().unwrap_or_default()
}

/// The status the sandbox logged for the one request tagged `tag`, waiting (up to 30 s) for
/// the entry, which is written when the request ends.
async fn logged_status(url: &str, tag: &str) -> u64 {
    for _ in 0..300 {
        if let Some(entry) = logged(url, tag).await.first() {
            return entry["status"].as_u64().expect("a status");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no request tagged {tag} was logged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clients_work_from_spawned_tasks_with_the_secret_key() {
    let sb = sandbox().await;
    let bot = bot(&sb.url, &[]);
    let merchant = MerchantClient::new(MerchantOptions {
        client: ClientOptions {
            base_url: Some(sb.url.clone()),
            api_key: Some(MERCHANT_SECRET_KEY.to_owned()),
            ..ClientOptions::default()
        },
        ..MerchantOptions::default()
    })
    .expect("a secret key is accepted natively");

    // Clones move into tasks: the futures are Send, the clients Send + Sync.
    let profile = tokio::spawn({
        let bot = bot.clone();
        async move { bot.profile(FieldOptions::default()).await }
    });
    let account = tokio::spawn({
        let merchant = merchant.clone();
        async move { merchant.account(FieldOptions::default()).await }
    });
    let orders = tokio::spawn({
        let bot = bot.clone();
        async move {
            let args = OrdersArgs {
                per_page: Some(4),
                ..OrdersArgs::default()
            };
            let stream = bot.orders(args).expect("valid arguments").into_stream();
            stream.take(10).collect::<Vec<_>>().await
        }
    });
    let raw = tokio::spawn({
        let bot = bot.clone();
        async move {
            let vars = serde_json::json!({ "page": 1 });
            let q = "query P($page: Int!) { orderHistory(page: $page, perPage: 2) { pagination { total } } }";
            bot.request(q, Some(&vars), Default::default()).await
        }
    });

    let profile = profile.await.unwrap().expect("the profile");
    assert!(profile.id.as_deref().is_some_and(|id| !id.is_empty()));
    let account = account.await.unwrap().expect("the account");
    assert!(account.id.as_deref().is_some_and(|id| !id.is_empty()));
    let orders = orders.await.unwrap();
    assert_eq!(orders.len(), 10, "ten orders across three pages of four");
    let ids: std::collections::HashSet<_> = orders
        .iter()
        .map(|o| o.as_ref().expect("an order").id.clone().expect("an id"))
        .collect();
    assert_eq!(ids.len(), 10, "ten distinct orders");
    let raw = raw.await.unwrap().expect("the raw request");
    assert_eq!(raw["orderHistory"]["pagination"]["total"], 1600);
    sb.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_the_same_type_natively() {
    let sb = sandbox().await;
    let mut options = BotOptions {
        base_url: Some(sb.url.clone()),
        api_key: Some("SBX-SECK_notarealkeyatall".to_owned()),
        ..BotOptions::default()
    };
    options.max_retries = Some(0);
    let bot = BotClient::new(options).unwrap();
    let err = tokio::spawn(async move { bot.profile(FieldOptions::default()).await })
        .await
        .unwrap()
        .expect_err("an unknown key is refused");
    assert_eq!(err.code, Code::Unauthorized);
    assert!(!err.to_string().contains("notarealkey"), "{err}");
    sb.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_call_cancels_its_request() {
    let sb = sandbox().await;
    let tag = "native-drop";
    let bot = bot(
        &sb.url,
        &[("x-sandbox-tag", tag), ("x-sandbox-fault", "delay=3000")],
    );
    let call = tokio::spawn(async move { bot.profile(FieldOptions::default()).await });
    tokio::time::sleep(Duration::from_millis(500)).await;
    call.abort(); // drops the call's future
    assert!(call.await.unwrap_err().is_cancelled());
    assert_eq!(
        logged_status(&sb.url, tag).await,
        499,
        "the request went on"
    );
    sb.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_cancels_the_request_in_flight() {
    let sb = sandbox().await;
    let tag = "native-signal";
    let bot = bot(
        &sb.url,
        &[("x-sandbox-tag", tag), ("x-sandbox-fault", "delay=3000")],
    );
    let signal = Signal::new();
    let options = FieldOptions {
        signal: Some(signal.clone()),
        ..FieldOptions::default()
    };
    let call = tokio::spawn(async move { bot.profile(options).await });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let aborted_at = std::time::Instant::now();
    signal.abort();
    let err = call.await.unwrap().expect_err("aborted");
    assert_eq!(err.code, Code::Aborted);
    // Well before the 3 s delay would have answered.
    assert!(aborted_at.elapsed() < Duration::from_millis(2500));
    assert_eq!(
        logged_status(&sb.url, tag).await,
        499,
        "the request went on"
    );
    sb.shutdown().await;
}
