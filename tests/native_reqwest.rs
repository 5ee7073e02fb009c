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

/// One webhook delivery as received: its headers and its body.
type Delivery = (Vec<(String, String)>, Vec<u8>);

/// A webhook receiver on 127.0.0.1 (plain `std::net`, one thread): answers every POST 200 and
/// hands over each delivery. Its URL, and the deliveries.
fn webhook_receiver() -> (String, std::sync::mpsc::Receiver<Delivery>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}/webhooks", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut headers = Vec::new();
            let mut line = String::new();
            reader.read_line(&mut line).unwrap(); // the request line
            loop {
                line.clear();
                reader.read_line(&mut line).unwrap();
                let Some((name, value)) = line.trim_end().split_once(':') else {
                    break;
                };
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
            let length = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0);
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            if tx.send((headers, body)).is_err() {
                return;
            }
        }
    });
    (url, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirm_event_reads_back_what_a_delivered_webhook_is_about() {
    use settlement_wasm::{webhook, EventState, InitiateHostedPaymentArgs, WithdrawOnchainArgs};
    const TOKEN: &str = "native-webhook-token-7f3a";
    let (url, deliveries) = webhook_receiver();
    let sb = settlement_sandbox::start(settlement_sandbox::Options {
        port: 0,
        log_to_stderr: false,
        webhook: Some(settlement_sandbox::webhooks::Target {
            url,
            token: TOKEN.to_owned(),
        }),
        ..settlement_sandbox::Options::default()
    })
    .await
    .expect("the sandbox starts");
    let merchant = MerchantClient::new(MerchantOptions {
        client: ClientOptions {
            base_url: Some(sb.url.clone()),
            api_key: Some(MERCHANT_SECRET_KEY.to_owned()),
            ..ClientOptions::default()
        },
        ..MerchantOptions::default()
    })
    .expect("a secret key is accepted natively");
    // The next delivery, verified as a receiver would.
    let next = || {
        let (headers, body) = deliveries
            .recv_timeout(Duration::from_secs(20))
            .expect("a delivery within 20 s");
        webhook::verify(headers, &body, &[TOKEN]).expect("a delivery the token verifies")
    };

    // A hosted payment: created, then picked up as the agent accepts the order carrying it.
    let created = merchant
        .initiate_hosted_payment(InitiateHostedPaymentArgs {
            amount: "25.00".into(),
            country_code: "NG".into(),
            email: "ada@example.com".into(),
            payment_type: "withdrawal".into(),
            reference: "native-confirm-1".into(),
            first_name: "Ada".into(),
            last_name: "Obi".into(),
            ..InitiateHostedPaymentArgs::default()
        })
        .await
        .expect("the hosted payment");
    let event = next();
    assert_eq!(event.event_type(), "payment_request.updated");
    let Some(EventState::PaymentRequest(p)) = merchant.confirm_event(&event).await.unwrap() else {
        panic!("a payment request read back");
    };
    assert_eq!(p.reference.as_deref(), Some("native-confirm-1"));
    assert_eq!(p.id, created.id);
    assert_eq!(p.status.as_deref(), Some("created"));

    let order = sb.state.store.agents[0]
        .state()
        .orders
        .iter()
        .find(|o| o.order_id.as_deref() == Some("native-confirm-1"))
        .map(|o| o.id.to_string())
        .expect("the order carrying the payment");
    bot(&sb.url, &[])
        .accept_withdrawal(&order, Default::default())
        .await
        .expect("accepted");
    let event = next();
    let state = merchant
        .confirm_event(&event)
        .await
        .unwrap()
        .expect("known");
    assert_eq!(state.status(), Some("picked_up"));

    // An onchain withdrawal: its event reads back the withdrawal by id.
    let sent = merchant
        .withdraw_onchain(WithdrawOnchainArgs {
            address: "0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B".into(),
            amount_usd: "12.00".into(),
            ..WithdrawOnchainArgs::default()
        })
        .await
        .expect("the withdrawal");
    let event = next();
    assert_eq!(event.event_type(), "onchain_tx.updated");
    let Some(EventState::OnchainWithdrawal(w)) = merchant.confirm_event(&event).await.unwrap()
    else {
        panic!("an onchain withdrawal read back");
    };
    // (`onchainWithdrawal`'s default selection has no `id`: the one read is the one sent.)
    assert!(sent.id.is_some());
    assert_eq!(
        w.address.as_deref(),
        Some("0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B")
    );
    assert_eq!(w.status.as_deref(), Some("pending"));

    // A reference the service does not know: `None`.
    let body = br#"{"event_type":"payment_request.updated","data":{"id":"x","reference":"no-such-ref","status":"completed"}}"#;
    let forged = webhook::verify([("x-cashramp-token", TOKEN)], body, &[TOKEN]).unwrap();
    assert_eq!(merchant.confirm_event(&forged).await.unwrap(), None);

    // No read-back for a fiat payout, a chargeback or an unknown type, nor without the
    // reference: invalid_input naming the argument, before anything is sent.
    for (body, field) in [
        (
            &br#"{"event_type":"fiat_payout.updated","data":{"id":"f1","status":"completed"}}"#[..],
            "event",
        ),
        (
            &br#"{"event_type":"chargeback.initiated","data":{"id":"c1"}}"#[..],
            "event",
        ),
        (&br#"{"event_type":"something.new","data":{}}"#[..], "event"),
        (
            &br#"{"event_type":"payment_request.updated","data":{"id":"p1","status":"completed"}}"#
                [..],
            "event.data.reference",
        ),
        (
            &br#"{"event_type":"onchain_tx.updated","data":{"status":"completed"}}"#[..],
            "event.data.id",
        ),
    ] {
        let event = webhook::verify([("x-cashramp-token", TOKEN)], body, &[TOKEN]).unwrap();
        let err = merchant.confirm_event(&event).await.unwrap_err();
        assert_eq!(err.code, Code::InvalidInput, "{field}");
        assert_eq!(err.field.as_deref(), Some(field));
    }
    sb.shutdown().await;
}
