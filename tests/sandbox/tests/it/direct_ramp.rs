//! The direct ramp over GraphQL (secret key): customer → payment method → quote → a deposit
//! (pending → paid → completed by the agent, a control route; or canceled) or a withdrawal
//! (picked_up → completed); expired quotes, illegal transitions and the public key refused
//! with typed errors. Every document is the service's own shape (`docs/service.graphql`).

use serde_json::{json, Value};
use settlement_sandbox::data::{MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};

use crate::util::*;

const CUSTOMER: &str = "mutation C($e: String!, $f: String!, $l: String!, $c: ID!) { createCustomer(email: $e, firstName: $f, lastName: $l, country: $c) { id country { id name code } } }";
const METHOD: &str = "mutation M($c: ID!, $t: String!, $f: [P2PPaymentMethodFieldInput!]!, $o: P2PPaymentMethodOwnership) { addPaymentMethod(customer: $c, paymentMethodType: $t, fields: $f, ownership: $o) { id value fields { identifier value } displayValue ownership } }";
const QUOTE: &str = "query Q($c: ID!, $a: Decimal!, $cur: P2PPaymentCurrency!, $t: PaymentTypeType, $m: String!) { rampQuote(customer: $c, amount: $a, currency: $cur, paymentType: $t, paymentMethodType: $m, country: \"KE\") { id exchangeRate paymentType amountUsd expiresAt } }";
const REFRESH: &str = "query R($q: ID!) { refreshRampQuote(rampQuote: $q) { id expiresAt } }";
const DEPOSIT: &str = "mutation D($q: ID!, $r: String, $p: String) { initiateRampQuoteDeposit(rampQuote: $q, reference: $r, phoneNumber: $p, onchainTransferInfo: {address: \"0x742d35Cc6634C0532925a3b844Bc454e4438f44e\", cryptocurrency: \"usd_tether\", network: \"celo\"}) { id status agent paymentDetails exchangeRate amountLocal amountUsd expiresAt } }";
const WITHDRAWAL: &str = "mutation W($q: ID!, $m: ID!) { initiateRampQuoteWithdrawal(rampQuote: $q, paymentMethod: $m) { id status agent } }";
const PAID: &str =
    "mutation P($p: ID!) { markDepositAsPaid(paymentRequest: $p, receipt: \"RCPT-2024-0042\") }";
const RECEIVED: &str = "mutation R($p: ID!) { markWithdrawalAsReceived(paymentRequest: $p) }";
const CANCEL: &str = "mutation X($p: ID!) { cancelDeposit(paymentRequest: $p) }";

async fn secret(sb: &Sandbox, query: &str, variables: Value) -> Value {
    sb.merchant(MERCHANT_SECRET_KEY, query, variables).await
}

async fn control(sb: &Sandbox, path: &str, body: Value, origin: Option<&str>) -> Resp {
    let mut req = axum::http::Request::post(path).header("content-type", "application/json");
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    sb.send(req.body(axum::body::Body::from(body.to_string())).unwrap())
        .await
}

/// A Kenyan customer with an M-Pesa wallet: (customer id, payment method id).
async fn customer_with_mpesa(sb: &Sandbox) -> (String, String) {
    let v = secret(
        sb,
        CUSTOMER,
        json!({"e": "wanjiru@example.com", "f": "Wanjiru", "l": "Kamau", "c": "2"}),
    )
    .await;
    assert_eq!(v["data"]["createCustomer"]["country"]["code"], "KE", "{v}");
    let customer = v["data"]["createCustomer"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let fields = json!([{"identifier": "phone_number", "value": "+254712345678"}, {"identifier": "account_name", "value": "Wanjiru Kamau"}]);
    let v = secret(
        sb,
        METHOD,
        json!({"c": customer, "t": "mpesa", "f": fields, "o": "first_party"}),
    )
    .await;
    let m = &v["data"]["addPaymentMethod"];
    assert_eq!(
        (&m["value"], &m["displayValue"], &m["ownership"]),
        (
            &json!("+254712345678"),
            &json!("•••• 5678"),
            &json!("first_party")
        ),
        "{v}"
    );
    assert_eq!(
        m["fields"][0],
        json!({"identifier": "phone_number", "value": "+254712345678"})
    );
    // `third_party` is a value too.
    let v = secret(
        sb,
        METHOD,
        json!({"c": customer, "t": "mpesa", "f": fields, "o": "third_party"}),
    )
    .await;
    assert!(v["errors"].is_null(), "{v}");
    let method = v["data"]["addPaymentMethod"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (customer, method)
}

async fn quote(sb: &Sandbox, customer: &str, payment_type: &str) -> Value {
    let v = secret(
        sb,
        QUOTE,
        json!({"c": customer, "a": "1294.00", "cur": "local_currency", "t": payment_type, "m": "mpesa"}),
    )
    .await;
    assert!(v["errors"].is_null(), "{v}");
    v["data"]["rampQuote"].clone()
}

#[tokio::test]
async fn a_deposit_from_customer_to_paid_then_completed() {
    let sb = sandbox();
    let (customer, _) = customer_with_mpesa(&sb).await;
    let q = quote(&sb, &customer, "deposit").await;
    assert_eq!(
        (&q["exchangeRate"], &q["paymentType"], &q["amountUsd"]),
        (&json!("129.40"), &json!("deposit"), &json!("10.00"))
    );
    let v = secret(
        &sb,
        DEPOSIT,
        json!({"q": q["id"], "r": "dep-it-1", "p": "+254712345678"}),
    )
    .await;
    let d = &v["data"]["initiateRampQuoteDeposit"];
    assert_eq!(
        (&d["status"], &d["agent"], &d["amountLocal"]),
        (
            &json!("pending"),
            &json!("Sandbox Agent 1"),
            &json!("1294.00")
        ),
        "{v}"
    );
    assert_eq!(d["paymentDetails"]["paymentMethodType"], "mpesa");
    let id = d["id"].as_str().unwrap().to_owned();
    // Not paid yet: the agent has nothing to confirm (control route; a foreign origin is
    // refused).
    let foreign = control(
        &sb,
        "/__sandbox/ramp/complete",
        json!({"paymentRequest": id}),
        Some("https://evil.example"),
    )
    .await;
    assert_eq!(foreign.status, 403);
    let complete = |id: Value| {
        let sb = &sb;
        async move {
            control(
                sb,
                "/__sandbox/ramp/complete",
                json!({"paymentRequest": id}),
                None,
            )
            .await
        }
    };
    assert_eq!(complete(json!(id)).await.status, 409);
    assert_eq!(
        secret(&sb, RECEIVED, json!({"p": id})).await["errors"][0]["extensions"]["code"],
        "INVALID_TRANSITION"
    );
    // pending → paid, with a receipt reference.
    assert_eq!(
        secret(&sb, PAID, json!({"p": id})).await,
        json!({"data": {"markDepositAsPaid": true}})
    );
    let v = secret(&sb, CANCEL, json!({"p": id})).await;
    assert_eq!(
        first_code(&v),
        "INVALID_TRANSITION",
        "a paid deposit is not canceled"
    );
    // paid → completed by the agent.
    let r = complete(json!(id)).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "completed");
    assert_eq!(complete(json!(id)).await.status, 409);
    assert_eq!(complete(json!("rpr_9999")).await.status, 404);
    // The quote is used.
    let v = secret(&sb, DEPOSIT, json!({"q": q["id"], "p": "+254712345678"})).await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION");
    // A mobile-money deposit needs the phone number.
    let q2 = quote(&sb, &customer, "deposit").await;
    let v = secret(&sb, DEPOSIT, json!({"q": q2["id"]})).await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT");
    // Canceled before it is paid.
    let v = secret(&sb, DEPOSIT, json!({"q": q2["id"], "p": "+254712345678"})).await;
    let id2 = v["data"]["initiateRampQuoteDeposit"]["id"].clone();
    assert_eq!(
        secret(&sb, CANCEL, json!({"p": id2})).await,
        json!({"data": {"cancelDeposit": true}})
    );
    assert_eq!(
        first_code(&secret(&sb, CANCEL, json!({"p": id2})).await),
        "INVALID_TRANSITION"
    );
    assert_eq!(
        first_code(&secret(&sb, CANCEL, json!({"p": "rpr_9999"})).await),
        "NOT_FOUND"
    );
}

#[tokio::test]
async fn a_withdrawal_to_the_customers_wallet_is_received() {
    let sb = sandbox();
    let (customer, method) = customer_with_mpesa(&sb).await;
    let q = quote(&sb, &customer, "withdrawal").await;
    assert_eq!(q["exchangeRate"], "127.85");
    let v = secret(&sb, WITHDRAWAL, json!({"q": q["id"], "m": method})).await;
    let w = &v["data"]["initiateRampQuoteWithdrawal"];
    assert_eq!(w["status"], "picked_up", "an agent has it at once: {v}");
    let id = w["id"].as_str().unwrap().to_owned();
    assert_eq!(
        first_code(&secret(&sb, CANCEL, json!({"p": id})).await),
        "INVALID_TRANSITION",
        "not a deposit"
    );
    assert_eq!(
        secret(&sb, RECEIVED, json!({"p": id})).await,
        json!({"data": {"markWithdrawalAsReceived": true}})
    );
    assert_eq!(
        first_code(&secret(&sb, RECEIVED, json!({"p": id})).await),
        "INVALID_TRANSITION"
    );
}

#[tokio::test]
async fn an_expired_quote_is_refused_until_refreshed() {
    let sb = sandbox();
    let (customer, _) = customer_with_mpesa(&sb).await;
    let q = quote(&sb, &customer, "deposit").await;
    let r = control(
        &sb,
        "/__sandbox/ramp/expire-quote",
        json!({"rampQuote": q["id"]}),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    let expired_at = r.json()["expiresAt"].as_str().unwrap().to_owned();
    let v = secret(&sb, DEPOSIT, json!({"q": q["id"], "p": "+254712345678"})).await;
    assert_eq!(first_code(&v), "QUOTE_EXPIRED", "{v}");
    let v = secret(&sb, REFRESH, json!({"q": q["id"]})).await;
    let fresh = &v["data"]["refreshRampQuote"];
    assert_eq!(fresh["id"], q["id"]);
    assert!(
        fresh["expiresAt"].as_str().unwrap() > expired_at.as_str(),
        "{v}"
    );
    let v = secret(&sb, DEPOSIT, json!({"q": q["id"], "p": "+254712345678"})).await;
    assert_eq!(
        v["data"]["initiateRampQuoteDeposit"]["status"], "pending",
        "{v}"
    );
}

#[tokio::test]
async fn the_public_key_and_bad_arguments_are_refused() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            CUSTOMER,
            json!({"e": "a@example.com", "f": "A", "l": "B", "c": "2"}),
        )
        .await;
    assert_eq!(first_code(&v), "FORBIDDEN");
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            QUOTE,
            json!({"c": "cus_1", "a": "1", "cur": "usd", "m": "mpesa"}),
        )
        .await;
    assert_eq!(first_code(&v), "FORBIDDEN");
    let (customer, _) = customer_with_mpesa(&sb).await;
    // A field the type lacks; a required one missing; an unknown customer.
    let v = secret(
        &sb,
        METHOD,
        json!({"c": customer, "t": "mpesa", "f": [{"identifier": "phone_number", "value": "1"}]}),
    )
    .await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT");
    let v = secret(&sb, METHOD, json!({"c": "cus_9999", "t": "mpesa", "f": []})).await;
    assert_eq!(first_code(&v), "NOT_FOUND");
    // A currency that is not a value of P2PPaymentCurrency (an ISO code); `country` (KE in
    // the document) not the customer's.
    let v = secret(
        &sb,
        QUOTE,
        json!({"c": customer, "a": "1", "cur": "KES", "m": "mpesa"}),
    )
    .await;
    assert!(!v["errors"].is_null(), "{v}");
    let ng = secret(
        &sb,
        CUSTOMER,
        json!({"e": "ada@example.com", "f": "Ada", "l": "Obi", "c": "NG"}),
    )
    .await;
    let v = secret(&sb, QUOTE, json!({"c": ng["data"]["createCustomer"]["id"], "a": "1", "cur": "usd", "m": "bank_transfer"})).await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT");
}
