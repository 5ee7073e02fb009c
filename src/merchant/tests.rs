use super::*;
use crate::config::ClientOptions;
use crate::error::Code;
use crate::graphql;
use crate::testing::FakeTransport;
use crate::types::InitiateHostedPaymentArgs;
use futures::executor::block_on;
use serde_json::{json, Value};

const SECRET: &str = "XYZ-SECK_merchant5ecret";
const PUBLIC: &str = "XYZ-PUBK_merchantpub";

fn options(key: Option<&str>, allow: bool) -> MerchantOptions {
    MerchantOptions {
        client: ClientOptions {
            base_url: Some("https://api.example.com".into()),
            api_key: key.map(Into::into),
            ..Default::default()
        },
        dangerously_allow_browser: allow,
    }
}

fn transport(browser: bool) -> FakeTransport {
    let t = FakeTransport::new(5);
    t.browser.set(browser);
    t
}

fn client(key: &str) -> MerchantClient<FakeTransport> {
    MerchantClient::with_transport(options(Some(key), false), transport(false)).unwrap()
}

#[test]
fn guard_in_the_constructor() {
    // Browser + secret key: refused before anything else, the key nowhere in the error.
    let e = MerchantClient::with_transport(options(Some(SECRET), false), transport(true))
        .expect_err("refused in a browser");
    assert_eq!(e.code, Code::SecretKeyInBrowser);
    assert!(!format!("{e:?}").contains("5ecret"));
    // Even with other invalid options, the guard speaks first.
    let mut bad = options(Some(SECRET), false);
    bad.client.base_url = None;
    let e = MerchantClient::with_transport(bad, transport(true))
        .err()
        .unwrap();
    assert_eq!(e.code, Code::SecretKeyInBrowser);
    // Opt-out, public key, proxy mode (no key), Node: all allowed.
    assert!(MerchantClient::with_transport(options(Some(SECRET), true), transport(true)).is_ok());
    assert!(MerchantClient::with_transport(options(Some(PUBLIC), false), transport(true)).is_ok());
    assert!(MerchantClient::with_transport(options(None, false), transport(true)).is_ok());
    assert!(MerchantClient::with_transport(options(Some(SECRET), false), transport(false)).is_ok());
    // Other option errors are the usual invalid_input.
    let mut bad = options(Some(PUBLIC), false);
    bad.client.timeout_ms = Some(0);
    let e = MerchantClient::with_transport(bad, transport(true))
        .err()
        .unwrap();
    assert_eq!(e.field.as_deref(), Some("timeoutMs"));
}

#[test]
fn account_request_and_typed_result() {
    let c = client(SECRET);
    c.transport().http(
        200,
        r#"{"data":{"account":{"id":"merchant-1","accountBalance":"1520.00","depositAddress":"0x9F"}}}"#,
    );
    let a = block_on(c.account(FieldOptions::default())).unwrap();
    assert_eq!(a.account_balance.as_deref(), Some("1520.00"));
    let r = c.transport().request(0);
    assert_eq!(r.url, "https://api.example.com/service/api/graphql");
    assert_eq!(
        r.header("authorization"),
        Some("Bearer XYZ-SECK_merchant5ecret")
    );
    assert_eq!(
        r.json(),
        json!({"query": "query Account { account { id accountBalance depositAddress } }", "operationName": "Account"})
    );
}

#[test]
fn public_key_on_account_is_forbidden() {
    let c = client(PUBLIC);
    c.transport().http(
        200,
        r#"{"data":null,"errors":[{"message":"account needs the secret key","path":["account"],"extensions":{"code":"FORBIDDEN"}}]}"#,
    );
    let e = block_on(c.account(FieldOptions::default())).unwrap_err();
    assert_eq!((e.code, e.status), (Code::Forbidden, Some(200)));
    assert_eq!(e.graphql_errors[0].path, Some(json!(["account"])));
    assert_eq!(c.transport().sent(), 1, "forbidden is final, not retried");
}

#[test]
fn reads_send_variables_and_decode() {
    let c = client(PUBLIC);
    let t = c.transport();
    t.http(200, r#"{"data":{"availableCountries":[{"id":"1","name":"Nigeria","code":"NG","currency":{"isoCode":"NGN","name":"Nigerian Naira"}}]}}"#)
        .http(200, r#"{"data":{"p2pPaymentMethodTypes":[{"id":"9","identifier":"mpesa","label":"M-Pesa","fields":[]}]}}"#)
        .http(200, r#"{"data":{"marketRate":{"depositRate":"1545.50","withdrawalRate":"1512.25"}}}"#)
        .http(200, r#"{"data":{"marketRate":null}}"#)
        .http(200, r#"{"data":{"rampLimits":{"dailyLimitUsd":"10000.00"}}}"#)
        .http(200, r#"{"data":{"rampableAssets":[{"symbol":"USDC","networks":["CELO"]}]}}"#)
        .http(200, r#"{"data":{"merchantPaymentRequest":{"id":"mpr_1","status":"created","amount":"25000.00"}}}"#)
        .http(200, r#"{"data":{"merchantPaymentRequest":null}}"#);
    let d = FieldOptions::default;
    let countries = block_on(c.available_countries(d())).unwrap();
    assert_eq!(countries[0].code.as_deref(), Some("NG"));
    let methods = block_on(c.payment_method_types(" 2 ", d())).unwrap();
    assert_eq!(methods[0].identifier.as_deref(), Some("mpesa"));
    let rate = block_on(c.market_rate("ng", d())).unwrap().unwrap();
    assert_eq!(rate.deposit_rate.as_deref(), Some("1545.50"));
    assert_eq!(block_on(c.market_rate("ZZ", d())).unwrap(), None);
    let limits = block_on(c.ramp_limits(d())).unwrap();
    assert_eq!(limits.daily_limit_usd.as_deref(), Some("10000.00"));
    let assets = block_on(c.rampable_assets(d())).unwrap();
    assert_eq!(assets[0].networks, Some(vec!["CELO".to_owned()]));
    let pr = block_on(c.payment_request("REF-1001", d()))
        .unwrap()
        .unwrap();
    assert_eq!(pr.amount.as_deref(), Some("25000.00"));
    assert_eq!(block_on(c.payment_request("nope", d())).unwrap(), None);

    let sent: Vec<Value> = (0..t.sent()).map(|i| t.request(i).json()).collect();
    let ops: Vec<&str> = sent
        .iter()
        .map(|b| b["operationName"].as_str().unwrap())
        .collect();
    assert_eq!(
        ops,
        [
            "AvailableCountries",
            "PaymentMethodTypes",
            "MarketRate",
            "MarketRate",
            "RampLimits",
            "RampableAssets",
            "MerchantPaymentRequest",
            "MerchantPaymentRequest"
        ]
    );
    assert_eq!(sent[0].get("variables"), None);
    assert_eq!(sent[1]["variables"], json!({"country": "2"}));
    assert_eq!(sent[2]["variables"], json!({"countryCode": "NG"}));
    assert_eq!(sent[6]["variables"], json!({"reference": "REF-1001"}));
    for body in &sent {
        assert!(graphql::is_read_only(body["query"].as_str().unwrap()));
    }
}

#[test]
fn fields_and_hostile_arguments_travel_as_variables() {
    let c = client(PUBLIC);
    c.transport()
        .http(200, r#"{"data":{"merchantPaymentRequest":null}}"#);
    let hostile = "REF\") { id } mutation { x(\"";
    let opts = FieldOptions {
        fields: Some(vec!["id".into(), "status".into()]),
        signal: None,
    };
    block_on(c.payment_request(hostile, opts)).unwrap();
    let body = c.transport().request(0).json();
    assert_eq!(body["variables"]["reference"], hostile);
    assert_eq!(
        body["query"],
        "query MerchantPaymentRequest($reference: String!) { merchantPaymentRequest(reference: $reference) { id status } }"
    );
}

#[test]
fn arguments_refused_before_any_request() {
    let c = client(PUBLIC);
    let d = FieldOptions::default;
    for (r, field) in [
        (block_on(c.market_rate("NGA", d())).map(drop), "countryCode"),
        (block_on(c.market_rate("", d())).map(drop), "countryCode"),
        (
            block_on(c.payment_method_types("  ", d())).map(drop),
            "countryId",
        ),
        (block_on(c.payment_request("", d())).map(drop), "reference"),
        (
            block_on(c.rampable_assets(FieldOptions {
                fields: Some(vec!["a b".into()]),
                signal: None,
            }))
            .map(drop),
            "fields",
        ),
    ] {
        let e = r.unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field))
        );
    }
    assert_eq!(c.transport().sent(), 0);
}

#[test]
fn reads_are_retried_and_shapes_checked() {
    let c = client(PUBLIC);
    c.transport()
        .http(503, "")
        .http(200, r#"{"data":{"rampLimits":{"dailyLimitUsd":"1.00"}}}"#);
    assert!(block_on(c.ramp_limits(FieldOptions::default())).is_ok());
    assert_eq!(c.transport().sent(), 2);
    assert_eq!(c.transport().sleeps.borrow().len(), 1);

    c.transport()
        .http(200, r#"{"data":{"availableCountries":{"id":"1"}}}"#);
    let e = block_on(c.available_countries(FieldOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Decode);
    // A decimal may come as a number (the service's sources show both): read as its text.
    c.transport()
        .http(200, r#"{"data":{"account":{"accountBalance":1520.5}}}"#);
    let a = block_on(c.account(FieldOptions::default())).unwrap();
    assert_eq!(a.account_balance.as_deref(), Some("1520.5"));
    c.transport()
        .http(200, r#"{"data":{"account":{"accountBalance":true}}}"#);
    let e = block_on(c.account(FieldOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Decode, "a boolean is no decimal");
}

#[test]
fn key_never_reaches_an_error() {
    let c = client(SECRET);
    c.transport().http(
        401,
        &format!(r#"{{"errors":[{{"message":"bad key {SECRET}"}}]}}"#),
    );
    let e = block_on(c.account(FieldOptions::default())).unwrap_err();
    assert_eq!(e.code, Code::Unauthorized);
    assert!(!format!("{e:?} {e}").contains(SECRET));
}

#[test]
fn operations_of_the_other_endpoint_are_refused() {
    let c = client(PUBLIC);
    let e = block_on(c.call_json(&crate::operations::PROFILE, vec![], FieldOptions::default()))
        .unwrap_err();
    assert_eq!(
        (e.code, e.field.as_deref()),
        (Code::InvalidInput, Some("operation"))
    );
    // A missing value is refused naming its argument; a value under another name, naming
    // that name.
    let e = c
        .prepare(&MARKET_RATE, vec![], FieldOptions::default())
        .err()
        .unwrap();
    assert_eq!(e.field.as_deref(), Some("countryCode"));
    let e = c
        .prepare(
            &MARKET_RATE,
            vec![("country", crate::operations::Value::Str("NG".into()))],
            FieldOptions::default(),
        )
        .err()
        .unwrap();
    assert_eq!(e.field.as_deref(), Some("country"));
    assert!(
        e.message.contains("not an argument of marketRate"),
        "{}",
        e.message
    );
    let twice = vec![
        ("countryCode", crate::operations::Value::Str("NG".into())),
        ("countryCode", crate::operations::Value::Str("KE".into())),
    ];
    let e = c
        .prepare(&MARKET_RATE, twice, FieldOptions::default())
        .err()
        .unwrap();
    assert_eq!(e.field.as_deref(), Some("countryCode"));
    assert_eq!(c.transport().sent(), 0);
}

fn hash() -> String {
    format!("0x{}", "ab".repeat(32))
}

fn until_settled(interval_ms: Option<i64>, max_tries: Option<i64>) -> ConfirmUntilSettledArgs {
    ConfirmUntilSettledArgs {
        payment_request: "mpr_1".into(),
        transaction_hash: hash(),
        interval_ms,
        max_tries,
        signal: None,
    }
}

const NOT_YET: &str = r#"{"data":{"confirmTransaction":false}}"#;
const SETTLED: &str = r#"{"data":{"confirmTransaction":true}}"#;

#[test]
fn confirm_transaction_is_sent_once_and_a_lost_answer_is_outcome_unknown() {
    let c = client(PUBLIC);
    c.transport().http(200, SETTLED);
    let args = || ConfirmTransactionArgs {
        payment_request: " mpr_1 ".into(),
        transaction_hash: hash(),
        signal: None,
    };
    assert!(block_on(c.confirm_transaction(args())).unwrap());
    let body = c.transport().request(0).json();
    assert_eq!(body["operationName"], "ConfirmTransaction");
    assert_eq!(
        body["variables"],
        json!({"paymentRequest": "mpr_1", "transactionHash": hash()})
    );
    for failure in [
        crate::transport::TransportError::Timeout,
        crate::transport::TransportError::Network("reset".into()),
    ] {
        let c = client(PUBLIC);
        c.transport().fail(failure);
        c.transport().http(200, SETTLED); // what a retry would get
        let e = block_on(c.confirm_transaction(args())).unwrap_err();
        assert_eq!(e.code, Code::OutcomeUnknown);
        assert_eq!(c.transport().sent(), 1, "sent once");
        assert!(c.transport().sleeps.borrow().is_empty());
    }
    // A 503 is not retried either (a mutation).
    let c = client(PUBLIC);
    c.transport().http(503, "");
    c.transport().http(200, SETTLED);
    assert_eq!(
        block_on(c.confirm_transaction(args())).unwrap_err().code,
        Code::Http
    );
    assert_eq!(c.transport().sent(), 1);
    // A bad hash: refused before anything is sent.
    let c = client(PUBLIC);
    let e = block_on(c.confirm_transaction(ConfirmTransactionArgs {
        transaction_hash: "0x1234".into(),
        ..args()
    }))
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("transactionHash"));
    assert_eq!(c.transport().sent(), 0);
}

#[test]
fn confirm_until_settled_polls_at_the_interval_until_true() {
    let c = client(PUBLIC);
    c.transport()
        .http(200, NOT_YET)
        .http(200, NOT_YET)
        .http(200, SETTLED);
    let outcome = block_on(c.confirm_until_settled(until_settled(Some(1_500), None))).unwrap();
    assert_eq!(
        outcome,
        ConfirmOutcome {
            settled: true,
            tries: 3
        }
    );
    assert_eq!(c.transport().sent(), 3);
    assert_eq!(*c.transport().sleeps.borrow(), [1_500, 1_500]);
    for i in 0..3 {
        assert_eq!(
            c.transport().request(i).json()["operationName"],
            "ConfirmTransaction"
        );
    }
}

#[test]
fn confirm_until_settled_stops_at_its_cap_backs_off_on_transient_failures_and_ends_on_a_refusal() {
    // The defaults: 10 tries, 5 s apart.
    let c = client(PUBLIC);
    for _ in 0..11 {
        c.transport().http(200, NOT_YET);
    }
    let outcome = block_on(c.confirm_until_settled(until_settled(None, None))).unwrap();
    assert_eq!(
        outcome,
        ConfirmOutcome {
            settled: false,
            tries: 10
        }
    );
    assert_eq!(c.transport().sent(), 10);
    assert_eq!(*c.transport().sleeps.borrow(), [5_000; 9]);
    // A lost answer (outcome_unknown) and a 503 are transient: each counts as a try and backs
    // off (at least 1 s, doubling), and the loop goes on to settle.
    let c = client(PUBLIC);
    c.transport().http(200, NOT_YET);
    c.transport()
        .fail(crate::transport::TransportError::Timeout);
    c.transport().http(503, "");
    c.transport().http(200, SETTLED);
    let outcome = block_on(c.confirm_until_settled(until_settled(Some(10), Some(5)))).unwrap();
    assert_eq!(
        outcome,
        ConfirmOutcome {
            settled: true,
            tries: 4
        }
    );
    assert_eq!(c.transport().sent(), 4);
    let sleeps = c.transport().sleeps.borrow().clone();
    assert_eq!(sleeps[0], 10);
    assert!((1_000..=2_000).contains(&sleeps[1]), "{sleeps:?}");
    assert!((2_000..=4_000).contains(&sleeps[2]), "{sleeps:?}");
    // Out of tries on a lost answer: it ends with outcome_unknown.
    let c = client(PUBLIC);
    c.transport().http(200, NOT_YET);
    c.transport()
        .fail(crate::transport::TransportError::Timeout);
    let e = block_on(c.confirm_until_settled(until_settled(Some(10), Some(2)))).unwrap_err();
    assert_eq!(e.code, Code::OutcomeUnknown);
    assert_eq!(c.transport().sent(), 2);
    // A refusal by the service ends it too, with its error.
    let c = client(PUBLIC);
    c.transport().http(
        200,
        r#"{"data":{"confirmTransaction":null},"errors":[{"message":"canceled","extensions":{"code":"INVALID_TRANSITION"}}]}"#,
    );
    let e = block_on(c.confirm_until_settled(until_settled(Some(10), Some(5)))).unwrap_err();
    assert_eq!(e.code, Code::Graphql);
    assert_eq!(c.transport().sent(), 1);
    // Bad options: refused before anything is sent.
    let c = client(PUBLIC);
    for (args, field) in [
        (until_settled(Some(-5), None), "intervalMs"),
        (until_settled(None, Some(0)), "maxTries"),
        (
            ConfirmUntilSettledArgs {
                transaction_hash: "nope".into(),
                ..until_settled(None, None)
            },
            "transactionHash",
        ),
    ] {
        let e = block_on(c.confirm_until_settled(args)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field));
    }
    assert_eq!(c.transport().sent(), 0);
}

#[test]
fn confirm_until_settled_honours_the_signal_between_confirmations() {
    let c = client(PUBLIC);
    let flag = crate::transport::Signal::new();
    c.transport().http(200, NOT_YET).http(200, SETTLED);
    *c.transport().abort_during_sleep.borrow_mut() = Some(flag.clone());
    let e = block_on(c.confirm_until_settled(ConfirmUntilSettledArgs {
        signal: Some(flag),
        ..until_settled(Some(1_000), None)
    }))
    .unwrap_err();
    assert_eq!(e.code, Code::Aborted);
    assert_eq!(c.transport().sent(), 1, "nothing sent after the abort");
}

fn hosted() -> InitiateHostedPaymentArgs {
    InitiateHostedPaymentArgs {
        amount: "25000.00".into(),
        currency: Some("local_currency".into()),
        country_code: "ng".into(),
        email: "ada@example.com".into(),
        payment_type: "deposit".into(),
        reference: "order-42".into(),
        first_name: "Ada".into(),
        last_name: "Obi".into(),
        metadata: Some(json!({"cart": 42})),
        ..Default::default()
    }
}

#[test]
fn hosted_payments_are_sent_once_and_a_lost_answer_is_outcome_unknown() {
    let c = client(SECRET);
    c.transport().http(
        200,
        r#"{"data":{"initiateHostedPayment":{"id":"mpr_1","hostedLink":"https://h.example/p","status":"created"}}}"#,
    );
    let p = block_on(c.initiate_hosted_payment(hosted())).unwrap();
    assert_eq!(p.id.as_deref(), Some("mpr_1"));
    assert_eq!(p.status.as_deref(), Some("created"));
    let body = c.transport().request(0).json();
    assert_eq!(body["operationName"], "InitiateHostedPayment");
    assert_eq!(
        body["variables"],
        json!({"amount": "25000.00", "currency": "local_currency", "countryCode": "NG", "email": "ada@example.com",
            "paymentType": "deposit", "reference": "order-42", "firstName": "Ada", "lastName": "Obi",
            "metadata": {"cart": 42}})
    );
    for failure in [
        crate::transport::TransportError::Timeout,
        crate::transport::TransportError::Network("reset".into()),
    ] {
        let c = client(SECRET);
        c.transport().fail(failure.clone());
        c.transport()
            .http(200, r#"{"data":{"cancelHostedPayment":true}}"#);
        let e = block_on(c.initiate_hosted_payment(hosted())).unwrap_err();
        assert_eq!(e.code, Code::OutcomeUnknown);
        assert_eq!(c.transport().sent(), 1);
        let c = client(SECRET);
        c.transport().fail(failure);
        c.transport()
            .http(200, r#"{"data":{"cancelHostedPayment":true}}"#);
        let e = block_on(c.cancel_hosted_payment("mpr_1", Default::default())).unwrap_err();
        assert_eq!(e.code, Code::OutcomeUnknown);
        assert_eq!(c.transport().sent(), 1);
    }
    // Refused before sending.
    let c = client(SECRET);
    let e = block_on(c.initiate_hosted_payment(InitiateHostedPaymentArgs {
        email: "nope".into(),
        ..hosted()
    }))
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("email"));
    let e = block_on(c.cancel_hosted_payment(" ", Default::default())).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("paymentRequest"));
    assert_eq!(c.transport().sent(), 0);
}

#[test]
fn withdraw_onchain_is_sent_once() {
    let args = || crate::types::WithdrawOnchainArgs {
        address: " 0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D ".into(),
        amount_usd: "150.00".into(),
        network: Some("CELO".into()),
        ..Default::default()
    };
    let c = client(SECRET);
    c.transport().http(
        200,
        r#"{"data":{"withdrawOnchain":{"id":"ow_1","status":"pending"}}}"#,
    );
    let w = block_on(c.withdraw_onchain(args())).unwrap();
    assert_eq!(w.status.as_deref(), Some("pending"));
    assert_eq!(
        c.transport().request(0).json()["variables"],
        json!({"address": "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D", "amountUsd": "150.00", "network": "CELO"})
    );
    let c = client(SECRET);
    c.transport()
        .fail(crate::transport::TransportError::Timeout);
    c.transport().http(
        200,
        r#"{"data":{"withdrawOnchain":{"id":"ow_2","status":"pending"}}}"#,
    );
    let e = block_on(c.withdraw_onchain(args())).unwrap_err();
    assert_eq!(e.code, Code::OutcomeUnknown);
    assert_eq!(c.transport().sent(), 1);
}

/// The direct ramp through the Rust methods: the two quote reads are retried after a lost
/// answer; each of the seven mutations is sent once, and a lost answer is `outcome_unknown`.
#[test]
fn direct_ramp_reads_are_retried_and_mutations_sent_once() {
    use crate::types::*;
    use std::future::Future;
    use std::pin::Pin;
    type Call = Pin<Box<dyn Future<Output = Result<(), Error>>>>;
    type Method = Box<dyn Fn(MerchantClient<FakeTransport>) -> Call>;
    let reads: Vec<(&str, Method)> = vec![
        (
            "rampQuote",
            Box::new(|c| {
                Box::pin(async move {
                    c.ramp_quote(RampQuoteArgs {
                        customer: "cus_1".into(),
                        amount: "1294.00".into(),
                        currency: "local_currency".into(),
                        payment_type: Some("deposit".into()),
                        payment_method_type: "mpesa".into(),
                        country: Some("ke".into()),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "refreshRampQuote",
            Box::new(|c| {
                Box::pin(async move {
                    c.refresh_ramp_quote(RefreshRampQuoteArgs {
                        ramp_quote: "rq_1".into(),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
    ];
    for (field, call) in &reads {
        let c = client(SECRET);
        c.transport()
            .fail(crate::transport::TransportError::Timeout);
        let body = format!(
            r#"{{"data":{{"{field}":{{"id":"rq_1","exchangeRate":"129.40","paymentType":"deposit"}}}}}}"#
        );
        c.transport().http(200, &body);
        block_on(call(c.clone())).unwrap();
        assert_eq!(c.transport().sent(), 2, "{field} is retried");
    }
    // Each mutation: a lost answer, then an answer that must never be asked for.
    let request = "rpr_1";
    let mutations: Vec<(&str, Method)> = vec![
        (
            "createCustomer",
            Box::new(|c| {
                Box::pin(async move {
                    c.create_customer(CreateCustomerArgs {
                        email: "ada@example.com".into(),
                        first_name: "Ada".into(),
                        last_name: "Obi".into(),
                        country: "1".into(),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "addPaymentMethod",
            Box::new(|c| {
                Box::pin(async move {
                    c.add_payment_method(AddPaymentMethodArgs {
                        customer: "cus_1".into(),
                        payment_method_type: "mpesa".into(),
                        field_values: vec![PaymentMethodFieldInput {
                            identifier: "phone_number".into(),
                            value: "+254712345678".into(),
                        }],
                        ownership: Some("first_party".into()),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "initiateRampQuoteDeposit",
            Box::new(|c| {
                Box::pin(async move {
                    c.initiate_ramp_quote_deposit(InitiateRampQuoteDepositArgs {
                        ramp_quote: "rq_1".into(),
                        phone_number: Some("+254712345678".into()),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "initiateRampQuoteWithdrawal",
            Box::new(|c| {
                Box::pin(async move {
                    c.initiate_ramp_quote_withdrawal(InitiateRampQuoteWithdrawalArgs {
                        ramp_quote: "rq_1".into(),
                        payment_method: "cpm_1".into(),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "markDepositAsPaid",
            Box::new(move |c| {
                Box::pin(async move {
                    c.mark_deposit_as_paid(MarkDepositAsPaidArgs {
                        payment_request: request.into(),
                        ..Default::default()
                    })
                    .await
                    .map(drop)
                })
            }),
        ),
        (
            "markWithdrawalAsReceived",
            Box::new(move |c| {
                Box::pin(async move {
                    c.mark_withdrawal_as_received(request, Default::default())
                        .await
                        .map(drop)
                })
            }),
        ),
        (
            "cancelDeposit",
            Box::new(move |c| {
                Box::pin(async move {
                    c.cancel_deposit(request, Default::default())
                        .await
                        .map(drop)
                })
            }),
        ),
    ];
    for (field, call) in &mutations {
        let c = client(SECRET);
        c.transport()
            .fail(crate::transport::TransportError::Timeout);
        c.transport()
            .http(200, &format!(r#"{{"data":{{"{field}":true}}}}"#));
        let e = block_on(call(c.clone())).unwrap_err();
        assert_eq!(e.code, Code::OutcomeUnknown, "{field}");
        assert_eq!(c.transport().sent(), 1, "{field} is sent once");
        assert_eq!(
            c.transport().request(0).json()["operationName"]
                .as_str()
                .map(|n| n.to_ascii_lowercase()),
            Some(field.to_ascii_lowercase()),
        );
    }
    // The values sent, checked and normalised by the declaration (`fields` from
    // `field_values`).
    let c = client(SECRET);
    c.transport().http(
        200,
        r#"{"data":{"addPaymentMethod":{"id":"cpm_1","value":"+254712345678","fields":[{"identifier":"phone_number","value":"+254712345678"}]}}}"#,
    );
    let pm = block_on(c.add_payment_method(AddPaymentMethodArgs {
        customer: " cus_1 ".into(),
        payment_method_type: "mpesa".into(),
        field_values: vec![PaymentMethodFieldInput {
            identifier: " phone_number ".into(),
            value: "+254712345678".into(),
        }],
        ..Default::default()
    }))
    .unwrap();
    assert_eq!(pm.value.as_deref(), Some("+254712345678"));
    assert_eq!(
        pm.fields.as_ref().and_then(|f| f[0].identifier.as_deref()),
        Some("phone_number")
    );
    assert_eq!(
        c.transport().request(0).json()["variables"],
        json!({"customer": "cus_1", "paymentMethodType": "mpesa", "fields": [{"identifier": "phone_number", "value": "+254712345678"}]})
    );
    // A bad value: refused before anything is sent.
    let c = client(SECRET);
    let e = block_on(c.initiate_ramp_quote_deposit(InitiateRampQuoteDepositArgs {
        ramp_quote: "rq_1".into(),
        phone_number: Some("call me".into()),
        ..Default::default()
    }))
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("phoneNumber"));
    assert_eq!(c.transport().sent(), 0);
}

/// `customers()`: every page of `merchantCustomers`, each after the last one's `endCursor`,
/// fetched as the iteration needs it; the stream ends after the last page.
#[test]
fn customers_walk_the_connection_page_by_page() {
    use crate::types::{CustomersArgs, MerchantCustomersArgs};
    let c = client(SECRET);
    let page = |ids: &[&str], end: &str, more: bool| {
        let nodes: Vec<_> = ids
            .iter()
            .map(|i| json!({"id": i, "email": format!("{i}@x.co")}))
            .collect();
        json!({"data": {"account": {"merchantCustomers": {"nodes": nodes,
            "pageInfo": {"endCursor": end, "hasNextPage": more}}}}})
        .to_string()
    };
    c.transport()
        .http(200, &page(&["a", "b"], "c1", true))
        .http(200, &page(&["c"], "c2", false));
    let mut customers = c.customers(CustomersArgs::default()).unwrap();
    let mut ids = vec![];
    while let Some(customer) = block_on(customers.next()).unwrap() {
        ids.push(customer.id.unwrap());
        // The second page is asked for only once the first is handed out.
        assert_eq!(c.transport().sent(), if ids.len() < 3 { 1 } else { 2 });
    }
    assert_eq!(ids, ["a", "b", "c"]);
    assert_eq!(c.transport().sent(), 2);
    let second = c.transport().request(1).json();
    assert_eq!(second["variables"], json!({"after": "c1"}));
    assert_eq!(second["operationName"], "MerchantCustomers");
    // One page, typed.
    c.transport().http(200, &page(&["d"], "c9", true));
    let one = block_on(c.merchant_customers(MerchantCustomersArgs::default())).unwrap();
    assert_eq!(one.nodes[0].email.as_deref(), Some("d@x.co"));
    assert_eq!(
        (
            one.page_info.end_cursor.as_deref(),
            one.page_info.has_next_page
        ),
        (Some("c9"), true)
    );
    // A bad selection is refused before anything is sent.
    let e = c
        .customers(CustomersArgs {
            fields: Some(vec![]),
            signal: None,
        })
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("fields"));
}

#[test]
fn confirm_until_settled_emits_one_call_per_confirmation_tagged_with_its_backoff_as_retry() {
    use crate::events::{Event, EventType, Listener, RetryReason, Source};
    use std::sync::{Arc, Mutex};
    let c = client(PUBLIC);
    c.transport().http(503, "").http(200, SETTLED);
    let seen = Arc::new(Mutex::new(Vec::<Event>::new()));
    let sink = Arc::clone(&seen);
    let listener: Listener = Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone()));
    for t in EventType::ALL {
        c.on(t, Arc::clone(&listener));
    }
    let outcome = block_on(c.confirm_until_settled(until_settled(Some(10), Some(5)))).unwrap();
    assert!(outcome.settled);
    let events = seen.lock().unwrap();
    let names: Vec<_> = events.iter().map(|e| e.event_type().name()).collect();
    assert_eq!(
        names,
        ["request", "response", "retry", "done", "request", "response", "done"]
    );
    assert!(events
        .iter()
        .all(|e| e.call().source == Source::ConfirmUntilSettled));
    assert_eq!(events[0].call().kind, "mutation");
    match &events[2] {
        Event::Retry { backoff, .. } => {
            assert_eq!(
                (backoff.reason, backoff.status),
                (RetryReason::Status, Some(503))
            );
            assert_eq!(c.transport().sleeps.borrow()[0], backoff.delay_ms);
        }
        e => panic!("unexpected {e:?}"),
    }
}
