use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{json, Value};
use settlement_sandbox::data::{AGENT_KEY, MERCHANT_PUBLIC_KEY};
use settlement_sandbox::Options;

use crate::util::*;

const PROFILE: &str = "query Me { profile { id email } }";

async fn faulted(sb: &Sandbox, key: Option<&str>, fault: &str, tag: Option<&str>) -> Resp {
    let mut headers = vec![("x-sandbox-fault", fault)];
    if let Some(t) = tag {
        headers.push(("x-sandbox-tag", t));
    }
    sb.gql_with(
        BOT,
        key,
        json!({"query": PROFILE, "operationName": "Me"}),
        &headers,
    )
    .await
}

#[tokio::test]
async fn status_with_retry_after_seconds_and_date() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "status=503;retry-after=7", None).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.header("retry-after").as_deref(), Some("7"));
    let v = r.json();
    assert_eq!(v["data"], Value::Null);
    assert_eq!(first_code(&v), "SERVICE_UNAVAILABLE");
    r.assert_no_key();
    let date = "Wed, 21 Oct 2037 07:28:00 GMT";
    let r = faulted(
        &sb,
        Some(AGENT_KEY),
        &format!("status=429; retry-after={date}"),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.header("retry-after").as_deref(), Some(date));
    assert_eq!(first_code(&r.json()), "RATE_LIMITED");
    // 429 without Retry-After.
    let r = faulted(&sb, Some(AGENT_KEY), "status=429", None).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(r.header("retry-after").is_none());
    // Retry-After alone decorates a normal answer.
    let r = faulted(&sb, Some(AGENT_KEY), "retry-after=2", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.header("retry-after").as_deref(), Some("2"));
    assert_eq!(r.json()["data"]["profile"]["id"], "agent-1");
}

#[tokio::test]
async fn faults_apply_before_auth_like_a_proxy() {
    let sb = sandbox();
    let r = faulted(&sb, None, "status=502;body=html", None).await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY);
}

#[tokio::test]
async fn html_body() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "status=502;body=html", None).await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let t = r.text();
    assert!(t.starts_with("<!DOCTYPE html>") && t.contains("502"), "{t}");
    assert!(serde_json::from_str::<Value>(&t).is_err());
    // body=html without status: 500.
    assert_eq!(
        faulted(&sb, Some(AGENT_KEY), "body=html", None)
            .await
            .status,
        StatusCode::INTERNAL_SERVER_ERROR
    );
}

#[tokio::test]
async fn empty_body() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "status=504;body=empty", None).await;
    assert_eq!(r.status, StatusCode::GATEWAY_TIMEOUT);
    assert!(r.body.is_empty());
    let r = faulted(&sb, Some(AGENT_KEY), "body=empty", None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(r.body.is_empty());
}

#[tokio::test]
async fn truncated_body() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "body=truncated", None).await;
    assert_eq!(r.status, StatusCode::OK, "truncated defaults to 200");
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("application/json"));
    let t = r.text();
    assert!(t.starts_with("{\"data\""), "{t}");
    assert!(t.len() > 10);
    let err = serde_json::from_str::<Value>(&t).unwrap_err();
    assert!(err.is_eof(), "cut off, not garbage: {err}");
    let r = faulted(&sb, Some(AGENT_KEY), "status=500;body=truncated", None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(serde_json::from_slice::<Value>(&r.body)
        .unwrap_err()
        .is_eof());
}

#[tokio::test]
async fn explicit_json_body() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "status=500;body=json", None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(first_code(&r.json()), "INTERNAL_SERVER_ERROR");
}

#[tokio::test]
async fn partial_keeps_real_data_and_adds_an_error() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "partial", None).await;
    assert_eq!(r.status, StatusCode::OK);
    let v = r.json();
    assert_eq!(
        v["data"]["profile"],
        json!({"id": "agent-1", "email": "amara.okafor@example.com"})
    );
    let errors = v["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0],
        json!({"message": "sandbox partial failure", "path": ["profile"], "extensions": {"code": "PARTIAL"}})
    );
    // Alias and fragments: the path is the first top-level response key of the chosen operation.
    let body = json!({
        "query": "query A { x: withdrawalInfo(symbol: \"ETH\") { symbol } } query B { ...F profile { id } } fragment F on Query { w: withdrawalInfo(symbol: \"USDC\") { symbol } }",
        "operationName": "B"
    });
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            body,
            &[("x-sandbox-fault", "partial")],
        )
        .await;
    let v = r.json();
    assert_eq!(v["data"]["w"]["symbol"], "USDC");
    assert_eq!(v["errors"][0]["path"], json!(["w"]));
    // partial with a status: real data, that status.
    let r = faulted(&sb, Some(AGENT_KEY), "partial;status=500", None).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(r.json()["data"]["profile"]["id"], "agent-1");
}

#[tokio::test]
async fn partial_on_merchant_endpoint() {
    let sb = sandbox();
    let r = sb
        .gql_with(
            MERCHANT,
            Some(MERCHANT_PUBLIC_KEY),
            json!({"query": "{ rampLimits { dailyLimitUsd } availableCountries { code } }"}),
            &[("x-sandbox-fault", "partial")],
        )
        .await;
    let v = r.json();
    assert_eq!(v["data"]["rampLimits"]["dailyLimitUsd"], "10000.00");
    assert_eq!(v["errors"][0]["path"], json!(["rampLimits"]));
}

#[tokio::test]
async fn delay_waits_then_answers_normally() {
    let sb = sandbox();
    let t = Instant::now();
    let r = faulted(&sb, Some(AGENT_KEY), "delay=300", None).await;
    let waited = t.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_secs(5));
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["data"]["profile"]["id"], "agent-1");
    let t = Instant::now();
    let r = faulted(&sb, Some(AGENT_KEY), "delay=200;status=503", None).await;
    assert!(t.elapsed() >= Duration::from_millis(200));
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
}

#[tokio::test]
async fn drop_closes_the_real_tcp_connection_without_a_response() {
    let running = settlement_sandbox::start(Options {
        port: 0,
        log_to_stderr: false,
        ..Options::default()
    })
    .await
    .unwrap();
    let addr = running.url.trim_start_matches("http://").to_string();
    let body = json!({"query": PROFILE}).to_string();
    let req = post_request(
        &addr,
        BOT,
        Some(AGENT_KEY),
        &[("x-sandbox-fault", "drop"), ("x-sandbox-tag", "dropper")],
        &body,
    );
    let (bytes, err) = raw_http(&addr, &req).await;
    assert!(
        bytes.is_empty(),
        "no HTTP response may be sent, got {:?}",
        String::from_utf8_lossy(&bytes)
    );
    // A reset (SO_LINGER 0), not an orderly end of stream: the client sees a network error.
    assert_eq!(
        err.as_ref().map(std::io::Error::kind),
        Some(std::io::ErrorKind::ConnectionReset),
        "expected a connection reset, got {err:?}"
    );
    // drop after a delay, too.
    let req = post_request(
        &addr,
        BOT,
        Some(AGENT_KEY),
        &[("x-sandbox-fault", "delay=50;drop")],
        &body,
    );
    let (bytes, err) = raw_http(&addr, &req).await;
    assert!(bytes.is_empty());
    assert_eq!(
        err.as_ref().map(std::io::Error::kind),
        Some(std::io::ErrorKind::ConnectionReset),
        "expected a connection reset after the delay, got {err:?}"
    );
    // The server keeps serving.
    let req = post_request(&addr, BOT, Some(AGENT_KEY), &[], &body);
    let (bytes, err) = raw_http(&addr, &req).await;
    assert!(err.is_none());
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("agent-1"));
    // The log records the dropped request with status 0.
    let log = running.state.log_entries(Some("dropper"));
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].status, 0);
    assert_eq!(log[0].fault.as_deref(), Some("drop"));
    running.shutdown().await;
}

#[tokio::test]
async fn fail_first_counts_per_tag() {
    let sb = sandbox();
    let spec = "fail-first=2;status=503;retry-after=1";
    let statuses = |rs: &[Resp]| rs.iter().map(|r| r.status.as_u16()).collect::<Vec<_>>();
    let mut a = Vec::new();
    for _ in 0..4 {
        a.push(faulted(&sb, Some(AGENT_KEY), spec, Some("tag-a")).await);
    }
    assert_eq!(statuses(&a), [503, 503, 200, 200]);
    assert_eq!(a[3].json()["data"]["profile"]["id"], "agent-1");
    assert!(
        a[3].header("retry-after").is_none(),
        "a request past fail-first is served normally"
    );
    // Another tag has its own count.
    let b = faulted(&sb, Some(AGENT_KEY), spec, Some("tag-b")).await;
    assert_eq!(b.status.as_u16(), 503);
    // The log shows which requests were faulted.
    let log = sb.get("/__sandbox/requests?tag=tag-a").await.json();
    let applied: Vec<bool> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["faultApplied"].as_bool().unwrap())
        .collect();
    assert_eq!(applied, [true, true, false, false]);
    // Clearing the log resets the counters.
    assert_eq!(
        sb.send(
            axum::http::Request::delete("/__sandbox/requests")
                .body(axum::body::Body::empty())
                .unwrap()
        )
        .await
        .status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        faulted(&sb, Some(AGENT_KEY), spec, Some("tag-a"))
            .await
            .status
            .as_u16(),
        503
    );
    // fail-first with drop-free kinds, e.g. partial.
    let p = faulted(&sb, Some(AGENT_KEY), "fail-first=1;partial", Some("tag-p")).await;
    assert!(p.json()["errors"].is_array());
    let p = faulted(&sb, Some(AGENT_KEY), "fail-first=1;partial", Some("tag-p")).await;
    assert!(p.json().get("errors").is_none());
}

#[tokio::test]
async fn fail_first_needs_a_tag() {
    let sb = sandbox();
    let r = faulted(&sb, Some(AGENT_KEY), "fail-first=1;status=500", None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let v = r.json();
    assert_eq!(first_code(&v), "BAD_FAULT_SPEC");
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("x-sandbox-tag"));
}

#[tokio::test]
async fn malformed_specs_are_400_with_a_clear_message() {
    let sb = sandbox();
    for (spec, needle) in [
        ("status=abc", "status"),
        ("status=700", "status"),
        ("body=xml", "body"),
        ("delay=soon", "delay"),
        ("explode", "unknown item 'explode'"),
        ("drop;status=500", "drop"),
        ("status=500;status=502", "more than once"),
    ] {
        let r = faulted(&sb, Some(AGENT_KEY), spec, None).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{spec}");
        let v = r.json();
        assert_eq!(v["data"], Value::Null);
        assert_eq!(first_code(&v), "BAD_FAULT_SPEC");
        let msg = v["errors"][0]["message"].as_str().unwrap();
        assert!(
            msg.contains("x-sandbox-fault") && msg.contains(needle),
            "{spec}: {msg}"
        );
    }
}
