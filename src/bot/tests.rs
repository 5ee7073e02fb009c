use super::*;
use crate::error::Code;
use crate::testing::{FakeTransport, Reply};
use crate::transport::{Signal, TransportError};
use crate::types::OrderHistoryFilter;
use futures::executor::block_on;
use serde_json::{json, Value};

use crate::operations::Value as Arg;

/// The JSON forms, through the generic path (as the JS binding runs them).
impl BotClient<FakeTransport> {
    async fn profile_json(&self, options: FieldOptions) -> Result<Json, Error> {
        self.call_json(&PROFILE, vec![], options).await
    }
    async fn order_history_json(&self, args: OrderHistoryArgs) -> Result<Json, Error> {
        let values = order_history_values(args.page, args.per_page, args.filter);
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.call_json(&ORDER_HISTORY, values, options).await
    }
    async fn withdrawal_info_json(
        &self,
        symbol: &str,
        options: FieldOptions,
    ) -> Result<Json, Error> {
        self.call_json(
            &WITHDRAWAL_INFO,
            vec![("symbol", Arg::Str(symbol.into()))],
            options,
        )
        .await
    }
}

const KEY: &str = "XYZ-SECK_s3cr3t";

fn client_with(options: BotOptions, seed: u64) -> BotClient<FakeTransport> {
    BotClient::with_transport(options, FakeTransport::new(seed)).expect("valid options")
}

fn client() -> BotClient<FakeTransport> {
    client_with(
        BotOptions {
            base_url: Some("https://api.example.com/".into()),
            api_key: Some(KEY.into()),
            ..Default::default()
        },
        7,
    )
}

fn page_body(ids: &[i64], page: i64, per_page: i64, total: i64) -> String {
    json!({"data": {"orderHistory": {
        "data": ids.iter().map(|i| json!({"id": i.to_string(), "status": "paid"})).collect::<Vec<_>>(),
        "pagination": {"page": page, "perPage": per_page, "total": total}}}})
    .to_string()
}

const PROFILE_OK: &str =
    r#"{"data":{"profile":{"id":"a1","email":"a@example.com","accountBalance":"12.50"}}}"#;

#[test]
fn profile_request_and_result() {
    let c = client();
    c.transport().http(200, PROFILE_OK);
    let v = block_on(c.profile_json(FieldOptions::default())).unwrap();
    assert_eq!(
        v,
        json!({"id": "a1", "email": "a@example.com", "accountBalance": "12.50"})
    );
    let r = c.transport().request(0);
    assert_eq!(r.url, "https://api.example.com/service/bot/graphql");
    assert_eq!(r.header("authorization"), Some("Bearer XYZ-SECK_s3cr3t"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.timeout_ms, 30_000);
    assert_eq!(
        r.json(),
        json!({"query": PROFILE.document(PROFILE.fields), "operationName": "Profile"})
    );
    assert!(!r.url.contains(KEY) && !r.body.contains(KEY));
}

#[test]
fn typed_profile() {
    let c = client();
    c.transport().http(200, PROFILE_OK);
    let p = block_on(c.profile(FieldOptions::default())).unwrap();
    assert_eq!(p.id.as_deref(), Some("a1"));
    assert_eq!(p.account_balance.as_deref(), Some("12.50"));
}

#[test]
fn proxy_mode_sends_no_authorization() {
    let c = client_with(
        BotOptions {
            endpoint: Some("/api/bot".into()),
            headers: vec![("X-Csrf".into(), "t".into())],
            ..Default::default()
        },
        1,
    );
    c.transport().http(200, PROFILE_OK);
    block_on(c.profile_json(FieldOptions::default())).unwrap();
    let r = c.transport().request(0);
    assert_eq!(r.url, "/api/bot");
    assert_eq!(r.header("authorization"), None);
    assert_eq!(r.header("x-csrf"), Some("t"));
}

#[test]
fn profile_fields() {
    let c = client();
    c.transport().http(
        200,
        r#"{"data":{"profile":{"id":"a1","totp":{"enabled":true}}}}"#,
    );
    let fields = Some(vec!["id".into(), "totp.enabled".into()]);
    let v = block_on(c.profile_json(FieldOptions {
        fields,
        signal: None,
    }))
    .unwrap();
    assert_eq!(v["totp"]["enabled"], true);
    assert_eq!(
        c.transport().request(0).json()["query"],
        "query Profile { profile { id totp { enabled } } }"
    );

    for bad in [vec![], vec!["id".to_owned(), "x { y }".to_owned()]] {
        let e = block_on(c.profile_json(FieldOptions {
            fields: Some(bad),
            signal: None,
        }))
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some("fields"))
        );
    }
    assert_eq!(
        c.transport().sent(),
        1,
        "invalid input is refused before sending"
    );
}

#[test]
fn order_history_variables_and_validation() {
    let c = client();
    c.transport().http(200, &page_body(&[1, 2], 2, 2, 10));
    let args = OrderHistoryArgs {
        page: 2,
        per_page: Some(2),
        filter: OrderHistoryFilter {
            status: Some("completed".into()),
            date_from: Some("2024-02-29".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let page = block_on(c.order_history(args)).unwrap();
    assert_eq!(page.data.len(), 2);
    assert_eq!(page.pagination.total, 10);
    let sent = c.transport().request(0).json();
    assert_eq!(
        sent["variables"],
        json!({"page": 2, "perPage": 2, "filter": {"status": "completed", "dateFrom": "2024-02-29"}})
    );
    assert_eq!(sent["operationName"], "OrderHistory");
    assert_eq!(sent["query"], ORDER_HISTORY.document(ORDER_HISTORY.fields));

    let cases: Vec<(OrderHistoryArgs, &str)> = vec![
        (
            OrderHistoryArgs {
                page: 0,
                ..Default::default()
            },
            "page",
        ),
        (
            OrderHistoryArgs {
                page: 1,
                per_page: Some(0),
                ..Default::default()
            },
            "perPage",
        ),
        (
            OrderHistoryArgs {
                page: 1,
                filter: OrderHistoryFilter {
                    date_to: Some("2025-02-29".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
            "filter.dateTo",
        ),
        (
            OrderHistoryArgs {
                page: 1,
                filter: OrderHistoryFilter {
                    date_from: Some("2025-03-02".into()),
                    date_to: Some("2025-03-01".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
            "filter.dateFrom",
        ),
        (
            OrderHistoryArgs {
                page: 1,
                fields: Some(vec![]),
                ..Default::default()
            },
            "fields",
        ),
    ];
    for (args, field) in cases {
        let e = block_on(c.order_history_json(args)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field))
        );
    }
    assert_eq!(c.transport().sent(), 1);
}

#[test]
fn order_history_wrong_shape_is_decode() {
    let c = client();
    c.transport().http(
        200,
        r#"{"data":{"orderHistory":{"data":null,"pagination":{"page":1,"perPage":1,"total":1}}}}"#,
    );
    let e = block_on(c.order_history_json(OrderHistoryArgs {
        page: 1,
        ..Default::default()
    }))
    .unwrap_err();
    assert_eq!((e.code, e.status), (Code::Decode, Some(200)));
    assert_eq!(c.transport().sent(), 1, "decode errors are not retried");
}

#[test]
fn orders_iterate_every_page() {
    let c = client();
    let t = c.transport();
    t.http(200, &page_body(&[1, 2], 1, 2, 5));
    t.http(200, &page_body(&[3, 4], 2, 2, 5));
    t.http(200, &page_body(&[5], 3, 2, 5));
    let args = OrdersArgs {
        per_page: Some(2),
        filter: OrderHistoryFilter {
            status: Some("paid".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut it = c.orders(args).unwrap();
    let mut ids = vec![];
    while let Some(row) = block_on(it.next_json()).unwrap() {
        ids.push(row["id"].as_str().unwrap().to_owned());
        // Lazy: no page is fetched before it is needed.
        assert_eq!(t.sent(), ids.len().div_ceil(2));
    }
    assert_eq!(ids, ["1", "2", "3", "4", "5"]);
    assert_eq!(t.sent(), 3, "stops at total without fetching page 4");
    for i in 0..3 {
        let v = t.request(i).json()["variables"].clone();
        assert_eq!(
            v,
            json!({"page": i + 1, "perPage": 2, "filter": {"status": "paid"}})
        );
    }
    assert_eq!(block_on(it.next_json()).unwrap(), None);
    assert_eq!(t.sent(), 3);
}

#[test]
fn orders_stop_on_empty_page_and_typed_rows() {
    let c = client();
    let t = c.transport();
    t.http(200, &page_body(&[1], 1, 10, 50));
    t.http(200, &page_body(&[], 2, 10, 50));
    let mut it = c.orders(OrdersArgs::default()).unwrap();
    let first = block_on(it.next()).unwrap().unwrap();
    assert_eq!(first.id.as_deref(), Some("1"));
    assert_eq!(first.status.as_deref(), Some("paid"));
    assert_eq!(block_on(it.next()).unwrap(), None);
    assert_eq!(t.sent(), 2);
    assert_eq!(t.request(0).json()["variables"], json!({"page": 1}));
}

#[test]
fn orders_validate_up_front_and_end_after_errors() {
    let c = client();
    let bad = OrdersArgs {
        per_page: Some(-1),
        ..Default::default()
    };
    let e = c.orders(bad).expect_err("refused synchronously");
    assert_eq!(e.field.as_deref(), Some("perPage"));
    let bad = OrdersArgs {
        filter: OrderHistoryFilter {
            order_id: Some(String::new()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        c.orders(bad).err().unwrap().field.as_deref(),
        Some("filter.orderId")
    );
    assert_eq!(c.transport().sent(), 0);

    c.transport()
        .http(200, &page_body(&[1], 1, 1, 3))
        .http(401, "nope");
    let mut it = c.orders(OrdersArgs::default()).unwrap();
    assert!(block_on(it.next_json()).unwrap().is_some());
    assert_eq!(
        block_on(it.next_json()).unwrap_err().code,
        Code::Unauthorized
    );
    assert_eq!(
        block_on(it.next_json()).unwrap(),
        None,
        "over after an error"
    );
    assert_eq!(c.transport().sent(), 2);

    let mut it = c.orders(OrdersArgs::default()).unwrap();
    it.close();
    assert_eq!(block_on(it.next_json()).unwrap(), None);
    assert_eq!(c.transport().sent(), 2);
}

#[test]
fn withdrawal_info() {
    let c = client();
    c.transport()
        .http(
            200,
            r#"{"data":{"withdrawalInfo":{"symbol":"USDC","networks":["CELO","BASE"]}}}"#,
        )
        .http(200, r#"{"data":{"withdrawalInfo":null}}"#);
    let w = block_on(c.withdrawal_info("  USDC ", FieldOptions::default()))
        .unwrap()
        .unwrap();
    assert_eq!(w.networks, Some(vec!["CELO".to_owned(), "BASE".to_owned()]));
    let sent = c.transport().request(0).json();
    assert_eq!(sent["variables"], json!({"symbol": "USDC"}));
    assert_eq!(
        sent["query"],
        "query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { symbol networks addressRegex memoRegex } }"
    );
    assert_eq!(
        block_on(c.withdrawal_info_json("ETH", FieldOptions::default())).unwrap(),
        Value::Null
    );
    let e = block_on(c.withdrawal_info_json("   ", FieldOptions::default())).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("symbol"));
    assert_eq!(c.transport().sent(), 2);
}

#[test]
fn request_passes_variables_and_returns_data() {
    let c = client();
    c.transport()
        .http(200, r#"{"data":{"rampLimits":{"dailyLimitUsd":"100"}}}"#);
    let vars = json!({"a": "x\"}", "n": [1, null]});
    let v = block_on(c.request(
        "query R($a: String) { rampLimits { dailyLimitUsd } }",
        Some(&vars),
        CallOptions::default(),
    ))
    .unwrap();
    assert_eq!(v, json!({"rampLimits": {"dailyLimitUsd": "100"}}));
    let sent = c.transport().request(0).json();
    assert_eq!(sent["variables"], vars);
    assert!(sent.get("operationName").is_none());

    for bad in [json!([1]), json!("s"), json!(3)] {
        let e = block_on(c.request("{ a }", Some(&bad), CallOptions::default())).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("variables"));
    }
    let e = block_on(c.request(" ", None, CallOptions::default())).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("document"));
    assert_eq!(c.transport().sent(), 1);
    // null variables are omitted.
    c.transport().http(200, r#"{"data":{}}"#);
    block_on(c.request("{ a }", Some(&Value::Null), CallOptions::default())).unwrap();
    assert!(c.transport().request(1).json().get("variables").is_none());
}

#[test]
fn mutations_are_never_retried_queries_are() {
    let c = client();
    c.transport()
        .http(503, "")
        .http(200, r#"{"data":{"pay":true}}"#);
    let e = block_on(c.request("mutation { pay }", None, CallOptions::default())).unwrap_err();
    assert_eq!((e.code, e.status), (Code::Http, Some(503)));
    assert_eq!(c.transport().sent(), 1);
    assert!(c.transport().sleeps.borrow().is_empty());

    let c = client();
    c.transport()
        .fail(TransportError::Network("reset".into()))
        .http(200, r#"{"data":{"a":1}}"#);
    let e = block_on(c.request("subscription { a }", None, CallOptions::default())).unwrap_err();
    // Not read-only, sent once, no answer: its effect is unknown.
    assert_eq!(e.code, Code::OutcomeUnknown);
    assert!(e.message.contains("reset"), "{}", e.message);
    assert_eq!(c.transport().sent(), 1);

    let c = client();
    c.transport().http(503, "").http(200, r#"{"data":{"a":1}}"#);
    let v = block_on(c.request("{ a }", None, CallOptions::default())).unwrap();
    assert_eq!(v, json!({"a": 1}));
    assert_eq!(c.transport().sent(), 2);
}

#[test]
fn retryable_failures_are_retried_up_to_max() {
    for status in [429u16, 502, 503, 504] {
        let c = client();
        c.transport()
            .http(status, "")
            .http(status, "")
            .http(status, "")
            .http(200, PROFILE_OK);
        let e = block_on(c.profile_json(FieldOptions::default())).unwrap_err();
        assert_eq!(e.status, Some(status));
        assert_eq!(
            c.transport().sent(),
            3,
            "1 attempt + maxRetries 2 ({status})"
        );
        assert_eq!(c.transport().sleeps.borrow().len(), 2);
    }
    let c = client();
    c.transport()
        .fail(TransportError::Network("ECONNRESET".into()))
        .fail(TransportError::Timeout)
        .http(200, PROFILE_OK);
    assert!(block_on(c.profile_json(FieldOptions::default())).is_ok());
    assert_eq!(c.transport().sent(), 3);

    let c = client();
    c.transport()
        .fail(TransportError::Timeout)
        .fail(TransportError::Timeout)
        .fail(TransportError::Timeout);
    let e = block_on(c.profile_json(FieldOptions::default())).unwrap_err();
    assert_eq!((e.code, e.status), (Code::Timeout, None));
    assert!(e.message.contains("30000 ms"), "{}", e.message);
    assert_eq!(c.transport().sent(), 3);

    let c = client_with(
        BotOptions {
            base_url: Some("https://a.example".into()),
            max_retries: Some(0),
            ..Default::default()
        },
        3,
    );
    c.transport().http(503, "").http(200, PROFILE_OK);
    assert!(block_on(c.profile_json(FieldOptions::default())).is_err());
    assert_eq!(c.transport().sent(), 1);

    let c = client_with(
        BotOptions {
            base_url: Some("https://a.example".into()),
            max_retries: Some(5),
            ..Default::default()
        },
        3,
    );
    for _ in 0..5 {
        c.transport().fail(TransportError::Network("x".into()));
    }
    c.transport().http(200, PROFILE_OK);
    assert!(block_on(c.profile_json(FieldOptions::default())).is_ok());
    assert_eq!(c.transport().sent(), 6);
}

#[test]
fn final_failures_are_not_retried() {
    let bodies: [(u16, &str, Code); 7] = [
        (400, "", Code::Http),
        (
            401,
            r#"{"errors":[{"message":"bad key"}]}"#,
            Code::Unauthorized,
        ),
        (403, "forbidden", Code::Forbidden),
        (404, "", Code::Http),
        (500, "<html>oops</html>", Code::Http),
        (
            200,
            r#"{"data":null,"errors":[{"message":"boom"}]}"#,
            Code::Graphql,
        ),
        (200, "{truncated", Code::Decode),
    ];
    for (status, body, code) in bodies {
        let c = client();
        c.transport().http(status, body).http(200, PROFILE_OK);
        let e = block_on(c.profile_json(FieldOptions::default())).unwrap_err();
        assert_eq!((e.code, e.status), (code, Some(status)), "{status} {body}");
        assert_eq!(c.transport().sent(), 1, "{status} {body}");
        assert!(c.transport().sleeps.borrow().is_empty());
    }
}

#[test]
fn backoff_is_jittered_within_bounds_and_seeded() {
    let run = |seed: u64| {
        let c = client_with(
            BotOptions {
                base_url: Some("https://a.example".into()),
                max_retries: Some(8),
                ..Default::default()
            },
            seed,
        );
        for _ in 0..9 {
            c.transport().http(502, "");
        }
        let _ = block_on(c.profile_json(FieldOptions::default()));
        let sleeps = c.transport().sleeps.borrow().clone();
        sleeps
    };
    let a = run(42);
    assert_eq!(a.len(), 8);
    for (i, d) in a.iter().enumerate() {
        let ceiling = (200u64 << i).min(5_000);
        assert!(*d <= ceiling, "retry {i}: {d} > {ceiling}");
    }
    assert_eq!(a, run(42), "same seed, same delays");
    assert_ne!(a, run(1234), "jitter depends on the random source");
}

#[test]
fn retry_after_is_honoured_and_capped() {
    let c = client();
    c.transport()
        .http_retry_after(429, "3", "")
        .http_retry_after(503, "120", "")
        .http(200, PROFILE_OK);
    assert!(block_on(c.profile_json(FieldOptions::default())).is_ok());
    assert_eq!(*c.transport().sleeps.borrow(), vec![3_000, 60_000]);

    let c = client();
    c.transport()
        .http_retry_after(429, "Wed, 21 Oct 2015 07:28:00 GMT", "")
        .http(200, PROFILE_OK);
    assert!(block_on(c.profile_json(FieldOptions::default())).is_ok());
    assert_eq!(*c.transport().sleeps.borrow(), vec![10_000]);

    let c = client();
    c.transport()
        .http_retry_after(429, "9", "")
        .http_retry_after(429, "9", "")
        .http_retry_after(429, "90", r#"{"errors":[{"message":"slow down"}]}"#);
    let e = block_on(c.profile_json(FieldOptions::default())).unwrap_err();
    assert_eq!(
        (e.code, e.status, e.retry_after_ms),
        (Code::RateLimited, Some(429), Some(90_000))
    );
    assert_eq!(e.graphql_errors.len(), 1);
    assert!(e.message.starts_with("slow down"));
}

#[test]
fn aborts() {
    // Already aborted: no request at all.
    let c = client();
    c.transport().http(200, PROFILE_OK);
    let flag = Signal::new();
    flag.abort();
    let e = block_on(c.profile_json(FieldOptions {
        fields: None,
        signal: Some(flag),
    }))
    .unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    assert_eq!(c.transport().sent(), 0);

    // Aborted in flight: not retried.
    let c = client();
    let flag = Signal::new();
    c.transport()
        .push(Reply::AbortCaller(flag.clone()))
        .http(200, PROFILE_OK);
    let e = block_on(c.profile_json(FieldOptions {
        fields: None,
        signal: Some(flag),
    }))
    .unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    assert_eq!(c.transport().sent(), 1);
    assert!(c.transport().sleeps.borrow().is_empty());

    // Aborted during the backoff sleep: the sleep ends the call.
    let c = client();
    let flag = Signal::new();
    *c.transport().abort_during_sleep.borrow_mut() = Some(flag.clone());
    c.transport().http(503, "").http(200, PROFILE_OK);
    let e = block_on(c.profile_json(FieldOptions {
        fields: None,
        signal: Some(flag),
    }))
    .unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    assert_eq!(c.transport().sent(), 1);
    assert_eq!(c.transport().sleeps.borrow().len(), 1);
    assert_eq!(c.transport().remaining(), 1);
}

#[test]
fn key_never_reaches_an_error() {
    let echo = format!(
        r#"{{"data":{{"profile":{{"id":"1","apiKey":"{KEY}"}}}},"errors":[{{"message":"key {KEY} is bad","path":["{KEY}"],"extensions":{{"code":"X","key":"Bearer {KEY}"}}}}]}}"#
    );
    let c = client();
    c.transport()
        .http(
            401,
            &format!(r#"{{"errors":[{{"message":"Invalid key {KEY}"}}]}}"#),
        )
        .http(200, &echo)
        .fail(TransportError::Network(format!(
            "could not reach host with {KEY}"
        )))
        .fail(TransportError::Network(String::new()))
        .fail(TransportError::Network(String::new()));
    let mut errors = vec![];
    for _ in 0..3 {
        errors.push(block_on(c.profile_json(FieldOptions::default())).unwrap_err());
    }
    assert_eq!(errors[0].code, Code::Unauthorized);
    assert_eq!(errors[0].message, "Invalid key [redacted] (HTTP 401).");
    assert_eq!(errors[1].code, Code::Graphql);
    assert_eq!(errors[1].message, "key [redacted] is bad");
    assert_eq!(
        errors[1].data,
        Some(json!({"profile": {"id": "1", "apiKey": "[redacted]"}}))
    );
    assert_eq!(
        errors[1].graphql_errors[0].path,
        Some(json!(["[redacted]"]))
    );
    assert_eq!(errors[2].code, Code::Network);
    for e in &errors {
        let everything = format!("{e:?} {e}");
        assert!(!everything.contains(KEY), "{everything}");
        assert!(!everything.contains("s3cr3t"), "{everything}");
    }
    // Validation errors echoing caller input are redacted too.
    let e = block_on(c.order_history_json(OrderHistoryArgs {
        page: 1,
        filter: OrderHistoryFilter {
            date_from: Some("2025-01-02".into()),
            date_to: Some("2025-01-01".into()),
            ..Default::default()
        },
        ..Default::default()
    }))
    .unwrap_err();
    assert!(e.message.contains("2025-01-02"));
}

#[test]
fn a_declared_mutation_is_sent_once_never_retried() {
    use crate::operations::Kind;
    // The bot mutations are declarations like this one: the same generic path, but a
    // failure that a query would retry ends the call after one request.
    let mutation = Operation {
        kind: Kind::Mutation,
        ..WITHDRAWAL_INFO
    };
    let c = client();
    c.transport()
        .http(503, "")
        .http(200, r#"{"data":{"withdrawalInfo":null}}"#);
    let call = c
        .prepare(
            &mutation,
            vec![("symbol", Arg::Str("USDC".into()))],
            FieldOptions::default(),
        )
        .unwrap();
    assert!(!call.is_retryable());
    let e = block_on(c.execute(&call)).unwrap_err();
    assert_eq!((e.code, e.status), (Code::Http, Some(503)));
    assert_eq!(c.transport().sent(), 1);
    assert!(c.transport().sleeps.borrow().is_empty());
    assert!(c.transport().request(0).json()["query"]
        .as_str()
        .unwrap()
        .starts_with("mutation WithdrawalInfo("));
    // The same declaration as a query is retried.
    let c = client();
    c.transport()
        .http(503, "")
        .http(200, r#"{"data":{"withdrawalInfo":null}}"#);
    let v = block_on(c.withdrawal_info_json("USDC", FieldOptions::default())).unwrap();
    assert_eq!(v, Value::Null);
    assert_eq!(c.transport().sent(), 2);
}
