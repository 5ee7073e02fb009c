//! The six bot mutations, `outcome_unknown` and `reconcile`, natively over the fake
//! transport.

use super::*;
use crate::error::Code;
use crate::testing::bot_mutations;
use crate::testing::{FakeTransport, Reply};
use crate::transport::{Signal, TransportError};
use futures::executor::block_on;
use serde_json::{json, Value as J};

const KEY: &str = "XYZ-SECK_s3cr3t";

fn client() -> BotClient<FakeTransport> {
    let options = BotOptions {
        base_url: Some("https://api.example.com".into()),
        api_key: Some(KEY.into()),
        ..Default::default()
    };
    BotClient::with_transport(options, FakeTransport::new(3)).expect("valid options")
}

fn signal(flag: &Signal) -> CallOptions {
    CallOptions {
        signal: Some(flag.clone()),
    }
}

fn ok(field: &str) -> String {
    json!({ "data": { field: true } }).to_string()
}

const METHOD: &str = r#"{"data":{"updatePaymentMethodLiquidity":{"id":"pm_100003","value":"+254712345678","localCurrencyAvailable":"150000.00","deleted":false,"instant":true}}}"#;

/// Runs mutation `i` of `bot_mutations()` once, with valid arguments and `flag` as its signal.
fn run_one(c: &BotClient<FakeTransport>, i: usize, flag: Option<&Signal>) -> Result<(), Error> {
    let opts = || CallOptions {
        signal: flag.cloned(),
    };
    let sig = || flag.cloned();
    block_on(async {
        match i {
            0 => c.accept_withdrawal("p2p_1", opts()).await.map(|_| ()),
            1 => c.cancel_withdrawal("p2p_1", opts()).await.map(|_| ()),
            2 => c
                .mark_deposit_as_received("p2p_1", opts())
                .await
                .map(|_| ()),
            3 => c
                .mark_withdrawal_as_paid(MarkWithdrawalAsPaidArgs {
                    p2p_payment: "p2p_1".into(),
                    payment_method: "pm_1".into(),
                    receipt: None,
                    signal: sig(),
                })
                .await
                .map(|_| ()),
            4 => c
                .update_rates(UpdateRatesArgs {
                    deposit_rate: Some("1540.00".into()),
                    signal: sig(),
                    ..Default::default()
                })
                .await
                .map(|_| ()),
            _ => c
                .update_payment_method_liquidity(UpdateLiquidityArgs {
                    payment_method_type: Some("mpesa".into()),
                    amount_local: "1.00".into(),
                    signal: sig(),
                    ..Default::default()
                })
                .await
                .map(|_| ()),
        }
    })
}

/// Each of the six, in declaration order.
fn run_each(c: &BotClient<FakeTransport>, flag: Option<&Signal>) -> Vec<Result<(), Error>> {
    (0..bot_mutations().len())
        .map(|i| run_one(c, i, flag))
        .collect()
}

#[test]
fn each_mutation_sends_its_document_and_variables_once() {
    let c = client();
    c.transport().http(200, &ok("acceptWithdrawal"));
    assert!(block_on(c.accept_withdrawal(" p2p_000123 ", CallOptions::default())).unwrap());
    let body = c.transport().request(0).json();
    assert_eq!(
        body,
        json!({
            "query": ACCEPT_WITHDRAWAL.document(""),
            "variables": {"p2pPayment": "p2p_000123"},
            "operationName": "AcceptWithdrawal"
        })
    );

    let c = client();
    c.transport()
        .http(200, &ok("cancelWithdrawal"))
        .http(200, &ok("markDepositAsReceived"))
        .http(200, &ok("markWithdrawalAsPaid"))
        .http(200, &ok("updateRates"))
        .http(200, METHOD);
    assert!(block_on(c.cancel_withdrawal("p2p_2", CallOptions::default())).unwrap());
    assert!(block_on(c.mark_deposit_as_received("p2p_3", CallOptions::default())).unwrap());
    let paid = MarkWithdrawalAsPaidArgs {
        p2p_payment: "p2p_4".into(),
        payment_method: "pm_100001".into(),
        receipt: Some("https://receipts.example/r/4?sig=x".into()),
        signal: None,
    };
    assert!(block_on(c.mark_withdrawal_as_paid(paid)).unwrap());
    let rates = UpdateRatesArgs {
        deposit_margin: Some("1.50".into()),
        withdrawal_rate: Some("1515".into()),
        ..Default::default()
    };
    assert!(block_on(c.update_rates(rates)).unwrap());
    let liquidity = UpdateLiquidityArgs {
        payment_method: Some("pm_100003".into()),
        amount_local: "150000.00".into(),
        ..Default::default()
    };
    let m = block_on(c.update_payment_method_liquidity(liquidity)).unwrap();
    assert_eq!(m.id.as_deref(), Some("pm_100003"));
    assert_eq!(m.local_currency_available.as_deref(), Some("150000.00"));
    assert_eq!(m.deleted, Some(false));

    let sent: Vec<J> = (0..5).map(|i| c.transport().request(i).json()).collect();
    let expect = [
        ("CancelWithdrawal", json!({"p2pPayment": "p2p_2"})),
        ("MarkDepositAsReceived", json!({"p2pPayment": "p2p_3"})),
        (
            "MarkWithdrawalAsPaid",
            json!({"p2pPayment": "p2p_4", "paymentMethod": "pm_100001", "receipt": "https://receipts.example/r/4?sig=x"}),
        ),
        (
            "UpdateRates",
            json!({"depositMargin": "1.50", "withdrawalRate": "1515"}),
        ),
        (
            "UpdatePaymentMethodLiquidity",
            json!({"paymentMethod": "pm_100003", "amountLocal": "150000.00"}),
        ),
    ];
    for (body, (name, vars)) in sent.iter().zip(expect) {
        assert_eq!(body["operationName"], name);
        assert_eq!(body["variables"], vars, "{name}");
        let op = bot_mutations()
            .into_iter()
            .find(|o| o.name == name)
            .unwrap();
        assert_eq!(body["query"], op.document(op.fields), "{name}");
        // Values travel only as variables: the document is the declaration's.
        assert!(!body["query"].as_str().unwrap().contains("p2p_"));
    }
    assert_eq!(c.transport().sent(), 5);
    assert!(c.transport().sleeps.borrow().is_empty());
}

#[test]
fn each_refusal_names_its_field_and_sends_nothing() {
    let c = client();
    let id = |s: &str| s.to_owned();
    let cases: Vec<(Result<bool, Error>, &str)> = block_on(async {
        vec![
            (
                c.accept_withdrawal("", CallOptions::default()).await,
                "p2pPayment",
            ),
            (
                c.cancel_withdrawal(" \t", CallOptions::default()).await,
                "p2pPayment",
            ),
            (
                c.mark_deposit_as_received("", CallOptions::default()).await,
                "p2pPayment",
            ),
            (
                c.mark_withdrawal_as_paid(MarkWithdrawalAsPaidArgs {
                    p2p_payment: id("p2p_1"),
                    payment_method: id(""),
                    ..Default::default()
                })
                .await,
                "paymentMethod",
            ),
            (
                c.mark_withdrawal_as_paid(MarkWithdrawalAsPaidArgs {
                    p2p_payment: id("p2p_1"),
                    payment_method: id("pm_1"),
                    receipt: Some(id("  ")),
                    signal: None,
                })
                .await,
                "receipt",
            ),
            (c.update_rates(UpdateRatesArgs::default()).await, "rates"),
            (
                c.update_rates(UpdateRatesArgs {
                    deposit_rate: Some(id("1.5e3")),
                    ..Default::default()
                })
                .await,
                "depositRate",
            ),
            (
                c.update_rates(UpdateRatesArgs {
                    withdrawal_margin: Some(id("-0.5")),
                    ..Default::default()
                })
                .await,
                "withdrawalMargin",
            ),
        ]
    });
    for (r, field) in cases {
        let e = r.unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{}",
            e.message
        );
    }
    let liquidity = |pm: Option<&str>, ty: Option<&str>, amount: &str| UpdateLiquidityArgs {
        payment_method: pm.map(id),
        payment_method_type: ty.map(id),
        amount_local: id(amount),
        ..Default::default()
    };
    for (args, field) in [
        (liquidity(None, None, "1"), "paymentMethod"),
        (liquidity(Some("pm_1"), Some("mpesa"), "1"), "paymentMethod"),
        (liquidity(None, Some("mpesa"), "1.0.0"), "amountLocal"),
        (liquidity(None, Some("mpesa"), ""), "amountLocal"),
        (liquidity(None, Some("mpesa"), "-1"), "amountLocal"),
        (
            UpdateLiquidityArgs {
                fields: Some(vec!["id".into(), "bad name".into()]),
                ..liquidity(None, Some("mpesa"), "1")
            },
            "fields",
        ),
    ] {
        let e = block_on(c.update_payment_method_liquidity(args)).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{}",
            e.message
        );
    }
    // A Boolean has no fields to select.
    let e = c
        .prepare(
            &ACCEPT_WITHDRAWAL,
            vec![("p2pPayment", Value::Str("p2p_1".into()))],
            FieldOptions {
                fields: Some(vec!["id".into()]),
                signal: None,
            },
        )
        .err()
        .expect("refused");
    assert_eq!(e.field.as_deref(), Some("fields"));
    assert_eq!(c.transport().sent(), 0, "no refusal sent a request");
}

#[test]
fn no_mutation_is_retried_on_503_429_timeout_or_network_errors() {
    type Script = fn(&FakeTransport);
    let failures: [(&str, Script, Code); 4] = [
        (
            "503",
            |t| {
                t.http(503, r#"{"errors":[{"message":"down"}]}"#);
            },
            Code::Http,
        ),
        (
            "429",
            |t| {
                t.http_retry_after(429, "1", "");
            },
            Code::RateLimited,
        ),
        (
            "timeout",
            |t| {
                t.fail(TransportError::Timeout);
            },
            Code::OutcomeUnknown,
        ),
        (
            "network",
            |t| {
                t.fail(TransportError::Network("connection reset".into()));
            },
            Code::OutcomeUnknown,
        ),
    ];
    for (what, script, code) in failures {
        for (i, op) in bot_mutations().into_iter().enumerate() {
            let c = client();
            script(c.transport());
            // A retry would get this answer and succeed.
            c.transport().http(200, r#"{"data":{}}"#);
            let e = run_one(&c, i, None).expect_err(what);
            assert_eq!(e.code, code, "{what}: {} ({})", op.name, e.message);
            assert_eq!(c.transport().sent(), 1, "{what}: {} sent once", op.name);
            assert_eq!(c.transport().request(0).json()["operationName"], op.name);
            assert!(
                c.transport().sleeps.borrow().is_empty(),
                "{what}: no backoff"
            );
        }
    }
    // A query still retries a timeout (unchanged).
    let c = client();
    c.transport()
        .fail(TransportError::Timeout)
        .http(200, r#"{"data":{"withdrawalInfo":null}}"#);
    block_on(c.withdrawal_info("USDC", FieldOptions::default())).unwrap();
    assert_eq!(c.transport().sent(), 2);
}

#[test]
fn outcome_unknown_only_after_sending() {
    // Aborted before sending: `aborted`, nothing sent.
    let c = client();
    let flag = Signal::new();
    flag.abort();
    for r in run_each(&c, Some(&flag)) {
        assert_eq!(r.unwrap_err().code, Code::Aborted);
    }
    assert_eq!(c.transport().sent(), 0);

    // Aborted while in flight: `outcome_unknown`, sent once.
    let c = client();
    let flag = Signal::new();
    c.transport().push(Reply::AbortCaller(flag.clone()));
    let e = block_on(c.accept_withdrawal("p2p_1", signal(&flag))).unwrap_err();
    assert_eq!(e.code, Code::OutcomeUnknown, "{}", e.message);
    assert!(e.message.contains("aborted"), "{}", e.message);
    assert_eq!(c.transport().sent(), 1);

    // A query aborted in flight stays `aborted`; a query's timeout after retries is `timeout`.
    let c = client();
    let flag = Signal::new();
    c.transport().push(Reply::AbortCaller(flag.clone()));
    let options = FieldOptions {
        fields: None,
        signal: Some(flag.clone()),
    };
    let e = block_on(c.profile(options)).unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    let c = client();
    for _ in 0..3 {
        c.transport().fail(TransportError::Timeout);
    }
    let e = block_on(c.profile(FieldOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Timeout);

    // Answers that arrived are what they are: a GraphQL refusal is `graphql` with its code.
    let c = client();
    c.transport().http(
        200,
        r#"{"data":{"acceptWithdrawal":null},"errors":[{"message":"Order p2p_1 is completed","path":["acceptWithdrawal"],"extensions":{"code":"INVALID_TRANSITION","status":"completed"}}]}"#,
    );
    let e = block_on(c.accept_withdrawal("p2p_1", CallOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Graphql);
    assert_eq!(
        e.graphql_errors[0].extension_code().as_deref(),
        Some("INVALID_TRANSITION")
    );
    // A Boolean that is neither true nor false, without an error, is not an answer.
    let c = client();
    c.transport()
        .http(200, r#"{"data":{"acceptWithdrawal":null}}"#);
    let e = block_on(c.accept_withdrawal("p2p_1", CallOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Decode);
    c.transport()
        .http(200, r#"{"data":{"acceptWithdrawal":false}}"#);
    assert!(!block_on(c.accept_withdrawal("p2p_1", CallOptions::default())).unwrap());
}

#[test]
fn the_key_is_in_no_mutation_error() {
    let c = client();
    c.transport()
        .fail(TransportError::Network(format!("reset by {KEY}")))
        .http(
            400,
            &format!(r#"{{"errors":[{{"message":"bad {KEY}","extensions":{{"code":"BAD_USER_INPUT","v":"{KEY}"}}}}]}}"#),
        )
        .http(
            200,
            &format!(r#"{{"data":{{"updateRates":null}},"errors":[{{"message":"no {KEY}","path":["updateRates"]}}]}}"#),
        );
    let e1 = block_on(c.accept_withdrawal("p2p_1", CallOptions::default())).unwrap_err();
    assert_eq!(e1.code, Code::OutcomeUnknown);
    let e2 = block_on(c.accept_withdrawal(KEY, CallOptions::default())).unwrap_err();
    let e3 = block_on(c.update_rates(UpdateRatesArgs {
        deposit_rate: Some("1".into()),
        ..Default::default()
    }))
    .unwrap_err();
    // Refusals before sending, with the key as the value.
    let e4 = block_on(c.update_rates(UpdateRatesArgs {
        deposit_rate: Some(KEY.into()),
        ..Default::default()
    }))
    .unwrap_err();
    let e5 = block_on(c.mark_withdrawal_as_paid(MarkWithdrawalAsPaidArgs {
        p2p_payment: "p".into(),
        payment_method: "pm".into(),
        receipt: Some(KEY.into()),
        signal: None,
    }))
    .unwrap_err();
    for e in [e1, e2, e3, e4, e5] {
        let all = format!("{e:?} {}", e.message);
        assert!(!all.contains(KEY) && !all.contains("s3cr3t"), "{all}");
    }
}

fn row(id: &str, order_id: &str, status: &str) -> J {
    json!({"id": id, "orderId": order_id, "status": status})
}

fn page(rows: Vec<J>, page: i64, per_page: i64, total: i64) -> String {
    json!({"data": {"orderHistory": {"data": rows, "pagination": {"page": page, "perPage": per_page, "total": total}}}})
    .to_string()
}

#[test]
fn reconcile_reads_the_order_back_by_order_id_on_every_page() {
    let c = client();
    c.transport()
        .http(
            200,
            &page(
                vec![row("p2p_9", "ORD-1", "paid"), row("p2p_8", "ORD-1", "paid")],
                1,
                2,
                3,
            ),
        )
        .http(
            200,
            &page(vec![row("p2p_7", "ORD-1", "picked_up")], 2, 2, 3),
        );
    let order = P2PPayment {
        id: Some("p2p_7".into()),
        order_id: Some("ORD-1".into()),
        status: Some("pending".into()),
        ..Default::default()
    };
    let now = block_on(c.reconcile(&order, FieldOptions::default()))
        .unwrap()
        .expect("found on page 2");
    assert_eq!(now.status.as_deref(), Some("picked_up"));
    assert_eq!(c.transport().sent(), 2);
    let first = c.transport().request(0).json();
    assert_eq!(first["operationName"], "OrderHistory");
    assert_eq!(
        first["variables"],
        json!({"page": 1, "filter": {"orderId": "ORD-1"}})
    );
    assert_eq!(c.transport().request(1).json()["variables"]["page"], 2);

    // Not there: null, after the last page.
    let c = client();
    c.transport()
        .http(200, &page(vec![row("p2p_1", "ORD-1", "paid")], 1, 10, 1));
    let json_order = json!({"id": "p2p_7", "orderId": "ORD-1"});
    assert_eq!(
        block_on(c.reconcile_json(&json_order, FieldOptions::default())).unwrap(),
        None
    );
    assert_eq!(c.transport().sent(), 1);

    // `fields` always includes `id` (rows are matched by it).
    let c = client();
    c.transport().http(
        200,
        &page(vec![json!({"id": "p2p_7", "status": "paid"})], 1, 10, 1),
    );
    let options = FieldOptions {
        fields: Some(vec!["status".into()]),
        signal: None,
    };
    let found = block_on(c.reconcile_json(&json_order, options)).unwrap();
    assert_eq!(found, Some(json!({"id": "p2p_7", "status": "paid"})));
    let q = c.transport().request(0).json()["query"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(q.contains("data { status id }"), "{q}");

    // It needs both ids: refused before any request.
    let c = client();
    for (order, field) in [
        (json!({"orderId": "ORD-1"}), "order.id"),
        (json!({"id": "p2p_1"}), "order.orderId"),
        (json!({"id": "", "orderId": "ORD-1"}), "order.id"),
        (json!({"id": "p2p_1", "orderId": 5}), "order.orderId"),
        (json!(null), "order.id"),
    ] {
        let e = block_on(c.reconcile_json(&order, FieldOptions::default())).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field))
        );
    }
    assert_eq!(c.transport().sent(), 0);
}

/// The JS reader takes a mutation's options from its declaration (`options::mutation_values`);
/// the TypeScript option types, derived from the Rust argument structs, must offer exactly
/// those keys: every argument under its caller name (required ones required), `fields` when
/// the result has fields, and `signal`.
#[test]
#[cfg(feature = "typescript")]
fn typescript_mutation_options_match_the_declarations() {
    use tsify::Tsify;
    fn members(decl: &str) -> Vec<String> {
        decl.lines()
            .filter_map(|l| l.strip_prefix("    ")?.split_once(": ").map(|(k, _)| k))
            .filter(|k| k.starts_with(|c: char| c.is_ascii_alphabetic()))
            .map(str::to_owned)
            .collect()
    }
    for (op, decl) in [
        (&MARK_WITHDRAWAL_AS_PAID, MarkWithdrawalAsPaidArgs::DECL),
        (&UPDATE_RATES, UpdateRatesArgs::DECL),
        (&UPDATE_PAYMENT_METHOD_LIQUIDITY, UpdateLiquidityArgs::DECL),
    ] {
        let mut want: Vec<String> = op
            .args
            .iter()
            .map(|a| {
                let optional = !a.ty.ends_with('!');
                format!("{}{}", a.caller, if optional { "?" } else { "" })
            })
            .collect();
        if !op.fields.is_empty() {
            want.push("fields?".into());
        }
        want.push("signal?".into());
        let mut have = members(decl);
        have.sort();
        want.sort();
        assert_eq!(have, want, "{decl}");
        assert!(
            decl.contains(&format!("export interface {}Options ", op.name)),
            "{decl}"
        );
    }
}
