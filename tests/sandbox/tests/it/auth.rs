use axum::http::StatusCode;
use serde_json::{json, Value};
use settlement_sandbox::data::{AGENT2_KEY, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};

use crate::util::*;

fn assert_unauthenticated(r: &Resp) {
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text());
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("application/json"));
    assert!(
        r.text()
            .starts_with(r#"{"data":null,"errors":[{"message":""#),
        "{}",
        r.text()
    );
    let v = r.json();
    assert!(v["data"].is_null() && v.as_object().unwrap().contains_key("data"));
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(errors[0]["message"].as_str().unwrap().len() > 5);
    assert_eq!(first_code(&v), "UNAUTHENTICATED");
    r.assert_no_key();
}

#[tokio::test]
async fn missing_key_is_401_on_both_endpoints() {
    let sb = sandbox();
    assert_unauthenticated(&sb.gql(BOT, None, "{ profile { id } }", Value::Null).await);
    assert_unauthenticated(
        &sb.gql(
            MERCHANT,
            None,
            "{ rampLimits { dailyLimitUsd } }",
            Value::Null,
        )
        .await,
    );
}

#[tokio::test]
async fn unknown_or_malformed_key_is_401() {
    let sb = sandbox();
    let unknown = "SBX-SECK_doesnotexist999";
    let r = sb
        .gql(BOT, Some(unknown), "{ profile { id } }", Value::Null)
        .await;
    assert_unauthenticated(&r);
    assert!(
        !r.text().contains(unknown),
        "must not echo the presented key"
    );
    assert_unauthenticated(
        &sb.gql(
            MERCHANT,
            Some(unknown),
            "{ rampLimits { dailyLimitUsd } }",
            Value::Null,
        )
        .await,
    );
    // Not a Bearer scheme.
    let r = sb
        .gql_with(
            BOT,
            None,
            json!({"query": "{ profile { id } }"}),
            &[("authorization", &format!("Basic {AGENT_KEY}"))],
        )
        .await;
    assert_unauthenticated(&r);
    // Empty bearer.
    let r = sb
        .gql_with(
            BOT,
            None,
            json!({"query": "{ profile { id } }"}),
            &[("authorization", "Bearer ")],
        )
        .await;
    assert_unauthenticated(&r);
}

#[tokio::test]
async fn keys_on_the_wrong_endpoint_are_401() {
    let sb = sandbox();
    for key in [MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY] {
        assert_unauthenticated(
            &sb.gql(BOT, Some(key), "{ profile { id } }", Value::Null)
                .await,
        );
    }
    for key in [AGENT_KEY, AGENT2_KEY] {
        assert_unauthenticated(
            &sb.gql(
                MERCHANT,
                Some(key),
                "{ availableCountries { id } }",
                Value::Null,
            )
            .await,
        );
    }
}

#[tokio::test]
async fn bearer_scheme_is_case_insensitive() {
    let sb = sandbox();
    let r = sb
        .gql_with(
            BOT,
            None,
            json!({"query": "{ profile { id } }"}),
            &[("authorization", &format!("bearer {AGENT_KEY}"))],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["data"]["profile"]["id"], "agent-1");
}

#[tokio::test]
async fn public_key_asking_for_account_is_forbidden_with_null_data() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ account { id accountBalance } }",
            Value::Null,
        )
        .await;
    assert_eq!(v["data"], Value::Null);
    assert_eq!(first_code(&v), "FORBIDDEN");
    assert_eq!(v["errors"][0]["path"], json!(["account"]));
    // Together with a public-safe field: account is non-null at the root, so data is null.
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ availableCountries { code } account { id } }",
            Value::Null,
        )
        .await;
    assert_eq!(v["data"], Value::Null, "{v}");
    assert_eq!(first_code(&v), "FORBIDDEN");
}

#[tokio::test]
async fn public_key_may_read_public_safe_queries() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_PUBLIC_KEY,
            "{ availableCountries { code } rampLimits { dailyLimitUsd } rampableAssets { symbol } marketRate(countryCode: \"NG\") { depositRate } }",
            Value::Null,
        )
        .await;
    assert!(v.get("errors").is_none(), "{v}");
    assert_eq!(v["data"]["availableCountries"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn secret_key_reads_account() {
    let sb = sandbox();
    let v = sb
        .merchant(
            MERCHANT_SECRET_KEY,
            "{ account { id accountBalance depositAddress } }",
            Value::Null,
        )
        .await;
    assert!(v.get("errors").is_none(), "{v}");
    assert_eq!(v["data"]["account"]["id"], "merchant-1");
    assert_eq!(v["data"]["account"]["accountBalance"], "1520.00");
    assert!(v["data"]["account"]["depositAddress"]
        .as_str()
        .unwrap()
        .starts_with("0x"));
}
