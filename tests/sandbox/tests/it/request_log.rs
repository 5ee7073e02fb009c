use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use settlement_sandbox::data::{AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};
use settlement_sandbox::server::LOG_CAPACITY;

use crate::util::*;

#[tokio::test]
async fn every_graphql_request_is_logged_without_keys() {
    let sb = sandbox();
    let q = "query History($page: Int!) { orderHistory(page: $page) { pagination { total } } }";
    sb.gql_with(
        BOT,
        Some(AGENT_KEY),
        json!({"query": q, "variables": {"page": 2}, "operationName": "History"}),
        &[("x-sandbox-tag", "t1")],
    )
    .await;
    sb.gql(BOT, None, "{ profile { id } }", Value::Null).await; // 401
    sb.gql(
        MERCHANT,
        Some("SBX-SECK_wrongwrongwrong"),
        "{ account { id } }",
        Value::Null,
    )
    .await; // 401
    sb.gql(
        MERCHANT,
        Some(MERCHANT_PUBLIC_KEY),
        "{ account { id } }",
        Value::Null,
    )
    .await; // FORBIDDEN
    sb.gql_with(
        MERCHANT,
        Some(MERCHANT_SECRET_KEY),
        json!({"query": "{ account { id } }"}),
        &[("x-sandbox-fault", "status=503"), ("x-sandbox-tag", "t2")],
    )
    .await;
    // Not logged: preflight, static files, control routes.
    sb.send(
        Request::options(BOT)
            .header("origin", "http://localhost:9999")
            .header("access-control-request-method", "POST")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    sb.get("/hosted/ramp").await;
    sb.get("/__sandbox/info").await;

    let r = sb.get("/__sandbox/requests").await;
    assert_eq!(r.status, StatusCode::OK);
    let raw = r.text();
    for key in ALL_KEYS.iter().chain(&["SBX-SECK_wrongwrongwrong"]) {
        assert!(!raw.contains(key), "the request log contains a key");
    }
    let log = r.json();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 5, "{raw}");
    // Header names only (lower-case, sorted), never values.
    let names = log[0]["headerNames"].as_array().unwrap();
    assert!(names.contains(&json!("authorization")) && names.contains(&json!("x-sandbox-tag")));
    let mut first = log[0].clone();
    first.as_object_mut().unwrap().remove("headerNames");
    assert_eq!(
        first,
        json!({"seq": 1, "endpoint": "bot", "operationName": "History", "query": q, "variables": {"page": 2},
               "hasAuthorization": true, "keyClass": "agent", "tag": "t1", "fault": null, "faultApplied": false,
               "status": 200})
    );
    assert_eq!(log[1]["status"], 401);
    assert_eq!(log[1]["hasAuthorization"], false);
    assert_eq!(log[1]["keyClass"], "none");
    assert_eq!(log[1]["variables"], Value::Null);
    assert_eq!(log[2]["status"], 401);
    assert_eq!(log[2]["endpoint"], "merchant");
    assert_eq!(log[2]["hasAuthorization"], true);
    assert_eq!(log[2]["keyClass"], "unknown");
    assert_eq!(log[3]["status"], 200);
    assert_eq!(log[3]["keyClass"], "merchantPublic");
    assert_eq!(log[4]["status"], 503);
    assert_eq!(log[4]["keyClass"], "merchantSecret");
    assert_eq!(log[4]["fault"], "status=503");
    assert_eq!(log[4]["faultApplied"], true);
    let seqs: Vec<u64> = log.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5]);

    // ?tag= filters.
    let t2 = sb.get("/__sandbox/requests?tag=t2").await.json();
    assert_eq!(t2.as_array().unwrap().len(), 1);
    assert_eq!(t2[0]["seq"], 5);
    assert_eq!(
        sb.get("/__sandbox/requests?tag=none").await.json(),
        json!([])
    );

    // DELETE clears; seq keeps counting.
    let r = sb
        .send(
            Request::delete("/__sandbox/requests")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(sb.get("/__sandbox/requests").await.json(), json!([]));
    sb.gql(BOT, Some(AGENT_KEY), "{ profile { id } }", Value::Null)
        .await;
    assert_eq!(sb.get("/__sandbox/requests").await.json()[0]["seq"], 6);
}

#[tokio::test]
async fn malformed_and_unparsable_requests_are_logged() {
    let sb = sandbox();
    sb.gql_with(
        BOT,
        Some(AGENT_KEY),
        json!({"query": "{ profile { id } }"}),
        &[("x-sandbox-fault", "nonsense")],
    )
    .await;
    let r = sb
        .send(
            Request::post(BOT)
                .header("authorization", format!("Bearer {AGENT_KEY}"))
                .header("content-type", "application/json")
                .body(Body::from("{not json"))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(first_code(&r.json()), "BAD_REQUEST");
    r.assert_no_key();
    let log = sb.get("/__sandbox/requests").await.json();
    assert_eq!(log[0]["status"], 400);
    assert_eq!(log[0]["fault"], "nonsense");
    assert_eq!(log[1]["status"], 400);
    assert_eq!(log[1]["query"], Value::Null);
}

#[tokio::test]
async fn the_log_is_bounded() {
    let sb = sandbox();
    for _ in 0..LOG_CAPACITY + 25 {
        sb.gql(BOT, None, "{ profile { id } }", Value::Null).await;
    }
    let log = sb.get("/__sandbox/requests").await.json();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), LOG_CAPACITY);
    assert_eq!(log[0]["seq"], 26);
    assert_eq!(log.last().unwrap()["seq"], (LOG_CAPACITY + 25) as u64);
}

#[tokio::test]
async fn info_lists_keys_and_settings() {
    let sb = sandbox();
    let v = sb.get("/__sandbox/info").await.json();
    assert_eq!(
        v["keys"],
        json!({
            "AGENT_KEY": "SBX-SECK_agent1demo0001",
            "AGENT2_KEY": "SBX-SECK_agent2demo0002",
            "AGENT3_KEY": "SBX-SECK_agent3demo0003",
            "MERCHANT_PUBLIC_KEY": "SBX-PUBK_merchantdemo01",
            "MERCHANT_SECRET_KEY": "SBX-SECK_merchantdemo01"
        })
    );
    assert_eq!(v["maxPerPage"], 100);
    assert_eq!(v["rampUrl"], Value::Null);
    assert_eq!(v["sandboxUrl"], "http://127.0.0.1:8787");
}

#[tokio::test]
async fn orders_dump_per_agent() {
    let sb = sandbox();
    assert_eq!(
        sb.get("/__sandbox/orders?agent=1")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1600
    );
    assert_eq!(
        sb.get("/__sandbox/orders?agent=2")
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        35
    );
    assert_eq!(
        sb.get("/__sandbox/orders?agent=agent-3").await.json(),
        json!([])
    );
    assert_eq!(
        sb.get("/__sandbox/orders?agent=9").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        sb.get("/__sandbox/orders").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn a_request_abandoned_during_a_delay_is_logged_as_499() {
    let sb = sandbox();
    let abandoned = tokio::time::timeout(
        std::time::Duration::from_millis(150),
        sb.gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": "{ profile { id } }"}),
            &[("x-sandbox-fault", "delay=3000"), ("x-sandbox-tag", "slow")],
        ),
    )
    .await;
    assert!(abandoned.is_err(), "the client gave up first");
    let log = sb.get("/__sandbox/requests?tag=slow").await.json();
    assert_eq!(log.as_array().unwrap().len(), 1, "{log}");
    assert_eq!(
        log[0]["status"],
        settlement_sandbox::server::STATUS_CLIENT_GONE
    );
    assert_eq!(log[0]["faultApplied"], true);
}
