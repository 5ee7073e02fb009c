use serde_json::{json, Value};
use settlement_sandbox::data::{MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};

use crate::util::*;

#[tokio::test]
async fn available_countries() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ availableCountries { id name code currency { isoCode name } } }",
            Value::Null,
        )
        .await;
    assert_eq!(
        v["data"]["availableCountries"],
        json!([
            {"id": "1", "name": "Nigeria", "code": "NG", "currency": {"isoCode": "NGN", "name": "Nigerian Naira"}},
            {"id": "2", "name": "Kenya", "code": "KE", "currency": {"isoCode": "KES", "name": "Kenyan Shilling"}},
            {"id": "3", "name": "Ghana", "code": "GH", "currency": {"isoCode": "GHS", "name": "Ghanaian Cedi"}}
        ])
    );
}

#[tokio::test]
async fn payment_method_types_by_id_or_code() {
    let sb = sandbox();
    let q = "query M($c: ID!) { p2pPaymentMethodTypes(country: $c) { id identifier label fields { label identifier required } } }";
    let by_code = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "KE"}))
        .await;
    let by_id = sb.merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "2"})).await;
    let lower = sb
        .merchant(MERCHANT_SECRET_KEY, q, json!({"c": "ke"}))
        .await;
    assert_eq!(by_code, by_id);
    assert_eq!(by_code, lower);
    let methods = by_code["data"]["p2pPaymentMethodTypes"].as_array().unwrap();
    let ids: Vec<&str> = methods
        .iter()
        .map(|m| m["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["mpesa", "airtel_money", "bank_transfer"]);
    assert_eq!(
        methods[0]["fields"][0],
        json!({"label": "Phone number", "identifier": "phone_number", "required": true})
    );
    let ng = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "NG"}))
        .await;
    let bank = &ng["data"]["p2pPaymentMethodTypes"][0];
    assert_eq!(bank["identifier"], "bank_transfer");
    assert!(bank["fields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["required"] == false));
    let gh = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "GH"}))
        .await;
    assert_eq!(
        gh["data"]["p2pPaymentMethodTypes"][0]["identifier"],
        "mtn_momo"
    );
    // Unknown country: NOT_FOUND error, data null (the list is non-null).
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "ZZ"}))
        .await;
    assert_eq!(v["data"], Value::Null);
    assert_eq!(first_code(&v), "NOT_FOUND");
    assert_eq!(v["errors"][0]["path"], json!(["p2pPaymentMethodTypes"]));
}

#[tokio::test]
async fn market_rate_and_unknown_country() {
    let sb = sandbox();
    let q = "query R($c: String!) { marketRate(countryCode: $c) { countryCode currency depositRate withdrawalRate } }";
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "NG"}))
        .await;
    assert_eq!(
        v["data"]["marketRate"],
        json!({"countryCode": "NG", "currency": "NGN", "depositRate": "1545.50", "withdrawalRate": "1512.25"})
    );
    for c in ["KE", "gh"] {
        let v = sb.merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": c})).await;
        assert!(v["data"]["marketRate"]["depositRate"].is_string());
    }
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"c": "US"}))
        .await;
    assert_eq!(v, json!({"data": {"marketRate": null}}));
}

#[tokio::test]
async fn ramp_limits_and_assets() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ rampLimits { minimumDepositUsd maximumDepositUsd minimumWithdrawalUsd maximumWithdrawalUsd dailyLimitUsd } \
               rampableAssets { name symbol networks contractAddress } }",
            Value::Null,
        )
        .await;
    assert_eq!(
        v["data"]["rampLimits"],
        json!({"minimumDepositUsd": "5.00", "maximumDepositUsd": "5000.00", "minimumWithdrawalUsd": "10.00",
               "maximumWithdrawalUsd": "2500.00", "dailyLimitUsd": "10000.00"})
    );
    let assets = v["data"]["rampableAssets"].as_array().unwrap();
    let symbols: Vec<&str> = assets
        .iter()
        .map(|a| a["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["USDC", "USDT", "CUSD"]);
    assert_eq!(
        assets[0]["networks"],
        json!(["ETHEREUM", "BASE", "CELO", "OP"])
    );
    assert!(assets
        .iter()
        .all(|a| a["contractAddress"].as_str().unwrap().len() == 42));
}

#[tokio::test]
async fn merchant_payment_requests() {
    let sb = sandbox();
    let q = "query P($r: String!) { merchantPaymentRequest(reference: $r) { id paymentType hostedLink amount currency reference status } }";
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"r": "REF-1001"}))
        .await;
    let p = &v["data"]["merchantPaymentRequest"];
    assert_eq!(p["id"], "mpr_1001");
    assert_eq!(p["paymentType"], "deposit");
    assert_eq!(p["amount"], "25000.00");
    assert_eq!(p["currency"], "NGN");
    assert_eq!(p["reference"], "REF-1001");
    assert_eq!(p["status"], "created");
    let link = p["hostedLink"].as_str().unwrap();
    assert!(
        link.starts_with("http://127.0.0.1:8787/hosted/ramp?"),
        "{link}"
    );
    assert!(
        link.contains("reference=REF-1001")
            && link.contains("coin=USDC")
            && link.contains("network=CELO")
    );
    assert!(!link.contains("key="), "hosted links never carry a key");
    let statuses: Vec<String> = {
        let mut out = Vec::new();
        for r in ["REF-1002", "REF-1003", "REF-1004"] {
            let v = sb.merchant(MERCHANT_SECRET_KEY, q, json!({"r": r})).await;
            out.push(
                v["data"]["merchantPaymentRequest"]["status"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            );
        }
        out
    };
    assert_eq!(statuses, ["completed", "picked_up", "canceled"]);
    for unknown in ["REF-9999", "ref-1001"] {
        let v = sb
            .merchant(MERCHANT_PUBLIC_KEY, q, json!({"r": unknown}))
            .await;
        assert_eq!(v, json!({"data": {"merchantPaymentRequest": null}}));
    }
}

#[tokio::test]
async fn merchant_introspection_lists_the_queries() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ __schema { queryType { name fields { name } } } }",
            Value::Null,
        )
        .await;
    let fields: Vec<&str> = v["data"]["__schema"]["queryType"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "account",
            "availableCountries",
            "p2pPaymentMethodTypes",
            "marketRate",
            "rampLimits",
            "rampableAssets",
            "rampQuote",
            "refreshRampQuote",
            "onchainWithdrawal",
            "merchantCustomer",
            "virtualBankAccount",
            "merchantPaymentRequest"
        ]
    );
}

/// The status of the payment request with `reference`.
async fn request_status(sb: &Sandbox, reference: &str) -> String {
    let q = "query P($r: String!) { merchantPaymentRequest(reference: $r) { id status } }";
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"r": reference}))
        .await;
    v["data"]["merchantPaymentRequest"]["status"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// POSTs JSON to a sandbox route (not GraphQL), with an optional `Origin`.
async fn post_json(sb: &Sandbox, path: &str, body: Value, origin: Option<&str>) -> Resp {
    let mut req = axum::http::Request::post(path).header("content-type", "application/json");
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    sb.send(req.body(axum::body::Body::from(body.to_string())).unwrap())
        .await
}

#[tokio::test]
async fn the_onchain_ramp_request_is_confirmed_and_settled() {
    let sb = sandbox();
    // The hosted ramp page opens the request its link describes.
    let opened = post_json(
        &sb,
        "/hosted/ramp/payment-request",
        json!({"paymentType": "deposit", "coin": "USDC", "network": "CELO", "amount": "25.00", "reference": "ramp-it-1"}),
        None,
    )
    .await;
    assert_eq!(opened.status, 200);
    let p = opened.json();
    assert_eq!(
        (p["reference"].as_str(), p["status"].as_str()),
        (Some("ramp-it-1"), Some("created"))
    );
    let id = p["id"].as_str().unwrap().to_owned();
    assert_eq!(request_status(&sb, "ramp-it-1").await, "created");

    let confirm = "mutation C($p: ID!, $h: String!) { confirmTransaction(paymentRequest: $p, transactionHash: $h) }";
    // Before the transfer: not settled, nothing changes.
    let unknown = format!("0x{}", "12".repeat(32));
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, confirm, json!({"p": id, "h": unknown}))
        .await;
    assert_eq!(v, json!({"data": {"confirmTransaction": false}}));

    // The simulated transfer; from a foreign origin it is refused.
    let foreign = post_json(
        &sb,
        "/__sandbox/transfer",
        json!({"paymentRequest": id}),
        Some("https://evil.example"),
    )
    .await;
    assert_eq!(foreign.status, 403);
    let t = post_json(
        &sb,
        "/__sandbox/transfer",
        json!({"paymentRequest": id}),
        None,
    )
    .await;
    assert_eq!(t.status, 200);
    let hash = t.json()["transactionHash"].as_str().unwrap().to_owned();
    assert!(hash.starts_with("0x") && hash.len() == 66, "{hash}");

    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, confirm, json!({"p": id, "h": hash}))
        .await;
    assert_eq!(v, json!({"data": {"confirmTransaction": false}}));
    assert_eq!(request_status(&sb, "ramp-it-1").await, "picked_up");
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, confirm, json!({"p": id, "h": hash}))
        .await;
    assert_eq!(v, json!({"data": {"confirmTransaction": true}}));
    assert_eq!(request_status(&sb, "ramp-it-1").await, "completed");

    // Illegal transitions and bad arguments are typed errors.
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, confirm, json!({"p": id, "h": unknown}))
        .await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION");
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            confirm,
            json!({"p": "mpr_1004", "h": hash}),
        )
        .await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION", "a canceled request");
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            confirm,
            json!({"p": "mpr_nope", "h": hash}),
        )
        .await;
    assert_eq!(first_code(&v), "NOT_FOUND");
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, confirm, json!({"p": id, "h": "0xabc"}))
        .await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT");
    let t = post_json(
        &sb,
        "/__sandbox/transfer",
        json!({"paymentRequest": id}),
        None,
    )
    .await;
    assert_eq!(t.status, 409, "a completed request takes no transfer");

    // The reset puts the seeded requests back and forgets the ramp's.
    let reset = sb
        .send(
            axum::http::Request::delete("/__sandbox/state")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reset.status, 204);
    let q = "query P($r: String!) { merchantPaymentRequest(reference: $r) { id } }";
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, q, json!({"r": "ramp-it-1"}))
        .await;
    assert_eq!(v, json!({"data": {"merchantPaymentRequest": null}}));
}

#[tokio::test]
async fn hosted_payments_need_the_secret_key_are_unique_by_reference_and_cancel_once() {
    let sb = sandbox();
    let initiate = "mutation I($a: Decimal!, $c: P2PPaymentCurrency, $cc: String!, $e: String!, $t: P2PPaymentTypeType!, $r: String!, $f: String!, $l: String!, $u: String, $m: JSON) { initiateHostedPayment(amount: $a, currency: $c, countryCode: $cc, email: $e, paymentType: $t, reference: $r, firstName: $f, lastName: $l, redirectUrl: $u, metadata: $m) { id hostedLink status reference amount currency metadata } }";
    let vars = json!({"a": "25000.00", "c": "local_currency", "cc": "NG", "e": "ada@example.com", "t": "deposit", "r": "hp-it-1", "f": "Ada", "l": "Obi", "u": "https://shop.example/done", "m": {"order": 42}});
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, initiate, vars.clone())
        .await;
    assert_eq!(first_code(&v), "FORBIDDEN", "the public key cannot");
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, initiate, vars.clone())
        .await;
    let p = &v["data"]["initiateHostedPayment"];
    assert_eq!(p["status"], "created", "{v}");
    assert_eq!(p["reference"], "hp-it-1");
    assert_eq!(
        (p["amount"].as_str(), p["currency"].as_str()),
        (Some("25000.00"), Some("NGN"))
    );
    assert_eq!(
        p["metadata"],
        json!({"order": 42}),
        "kept and answered as given"
    );
    assert!(p["hostedLink"].as_str().unwrap().contains("/hosted/ramp?"));
    let id = p["id"].as_str().unwrap().to_owned();
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, initiate, vars.clone())
        .await;
    assert_eq!(first_code(&v), "DUPLICATE_REFERENCE");
    assert_eq!(request_status(&sb, "hp-it-1").await, "created");
    let mut bad = vars.clone();
    bad["e"] = json!("not-an-email");
    bad["r"] = json!("hp-it-2");
    assert_eq!(
        first_code(&sb.merchant(MERCHANT_SECRET_KEY, initiate, bad).await),
        "BAD_USER_INPUT"
    );
    // `usd` (also the default) and `local_currency` are the values; an ISO code is not one.
    let mut usd = vars.clone();
    usd["c"] = json!("usd");
    usd["r"] = json!("hp-it-usd");
    let v = sb.merchant(MERCHANT_SECRET_KEY, initiate, usd).await;
    assert_eq!(v["data"]["initiateHostedPayment"]["currency"], "USD", "{v}");
    let mut bad = vars.clone();
    bad["c"] = json!("NGN");
    bad["r"] = json!("hp-it-3");
    assert!(!sb.merchant(MERCHANT_SECRET_KEY, initiate, bad).await["errors"].is_null());

    let cancel = "mutation C($p: ID!) { cancelHostedPayment(paymentRequest: $p) }";
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, cancel, json!({"p": id}))
        .await;
    assert_eq!(first_code(&v), "FORBIDDEN");
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, cancel, json!({"p": id}))
        .await;
    assert_eq!(v, json!({"data": {"cancelHostedPayment": true}}));
    assert_eq!(request_status(&sb, "hp-it-1").await, "canceled");
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, cancel, json!({"p": id}))
        .await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION");
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, cancel, json!({"p": "mpr_1002"}))
        .await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION", "a completed request");
    // Cancellable only while `created`: a picked-up request is not.
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, cancel, json!({"p": "mpr_1003"}))
        .await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION", "a picked-up request");
    let v = sb
        .merchant(MERCHANT_SECRET_KEY, cancel, json!({"p": "mpr_nope"}))
        .await;
    assert_eq!(first_code(&v), "NOT_FOUND");
}
