use super::*;
use crate::call::PreparedCall;
use crate::operations::ALL;
use crate::testing::{sample, VariablesInOrder};

/// The bypass corpus the JS layer also sends through a real server.
const CORPUS: &str = include_str!("../../tests/proxy/bypass.json");

const BASE: &str = "https://service.example";

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn endpoint_name(op: &Operation) -> &'static str {
    match op.endpoint {
        Endpoint::Bot => "bot",
        Endpoint::Merchant => "merchant",
    }
}

/// The body the package's client sends for `op` with `fields` (its default selection when
/// `None`): built by the client's own code.
fn client_body(op: &Operation, fields: Option<&[String]>) -> String {
    let values = op.args.iter().map(|a| sample(op, a)).collect();
    let variables = op.variables_in_order(values).unwrap();
    let document = op.document(&selection(fields, op.fields).unwrap());
    PreparedCall::new(op, &document, &variables, None)
        .unwrap()
        .body()
        .clone()
}

fn policy_for(op: &Operation) -> Policy {
    Policy::new(endpoint_name(op), BASE, &strings(&[op.method]), None).unwrap()
}

#[test]
fn every_client_body_is_forwarded_as_it_is() {
    for op in ALL {
        let body = client_body(op, None);
        if op.parent.is_some() {
            // `account { merchantCustomers(after: $after) { … } }`: the proxy forwards root
            // fields with arguments only; this one is refused, never forwarded changed.
            let refused = policy_for(op).check(&body).err();
            assert_eq!(refused.map(|r| r.status), Some(403), "{}", op.method);
            continue;
        }
        let forward = policy_for(op).check(&body).unwrap_or_else(|r| {
            panic!("{}: {r:?}", op.method);
        });
        assert_eq!(forward.body, body, "{}", op.method);
        assert_eq!(forward.operation.method, op.method);
    }
}

#[test]
fn client_bodies_with_chosen_fields_are_forwarded() {
    let cases: &[(&Operation, &[&str])] = &[
        (&operations::PROFILE, &["id", "email"]),
        (&operations::ORDER_HISTORY, &["id", "status"]),
        (
            &operations::AVAILABLE_COUNTRIES,
            &["id", "currency.isoCode"],
        ),
        (&operations::AVAILABLE_COUNTRIES, &["currency"]),
        (
            &operations::UPDATE_PAYMENT_METHOD_LIQUIDITY,
            &["id", "deleted"],
        ),
    ];
    for (op, fields) in cases {
        let body = client_body(op, Some(&strings(fields)));
        assert_eq!(
            policy_for(op).check(&body).unwrap().body,
            body,
            "{fields:?}"
        );
    }
}

#[test]
fn a_body_is_forwarded_in_the_clients_form() {
    // The same operation written differently (spacing, commas, a comment, variables in
    // another order, a selection repeated): what goes upstream is the client's body.
    let policy = Policy::new("bot", BASE, &strings(&["orderHistory"]), None).unwrap();
    let written = r##"{"operationName":"OrderHistory","variables":{"perPage":10,"page":1,"filter":null},
      "query":"# the page\nquery OrderHistory($filter: OrderHistoryFilter, $page: Int!, $perPage: Int) {\n orderHistory(perPage: $perPage, page: $page, filter: $filter) { pagination { total page perPage } data { status, id id } } }"}"##;
    let forward = policy.check(written).unwrap();
    let op = &operations::ORDER_HISTORY;
    let variables = op
        .variables_in_order(vec![Value::Int(1), Value::Int(10), Value::Null])
        .unwrap();
    let document = op.document(&selection(Some(&strings(&["status", "id"])), "").unwrap());
    let expected = PreparedCall::new(op, &document, &variables, None)
        .unwrap()
        .body()
        .clone();
    assert_eq!(forward.body, expected);
}

#[test]
fn the_bypass_corpus_is_refused() {
    let corpus: serde_json::Value = serde_json::from_str(CORPUS).unwrap();
    let allow = |endpoint: &str| -> Vec<String> {
        corpus["allow"][endpoint]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let attempts = corpus["attempts"].as_array().unwrap();
    assert!(attempts.len() >= 40, "{} attempts", attempts.len());
    for attempt in attempts {
        let endpoint = attempt["endpoint"].as_str().unwrap();
        let policy = Policy::new(endpoint, BASE, &allow(endpoint), None).unwrap();
        let refusal = policy.check(attempt["body"].as_str().unwrap()).unwrap_err();
        assert_eq!(
            (refusal.status, refusal.code),
            (403, FORBIDDEN_OPERATION),
            "{}: {refusal:?}",
            attempt["name"]
        );
    }
}

#[test]
fn the_corpus_allow_lists_let_the_clients_bodies_through() {
    // So that the corpus's refusals come from what each attempt changed, not from an
    // allow list that refuses everything.
    let allow = strings(&[
        "profile",
        "orderHistory",
        "withdrawalInfo",
        "acceptWithdrawal",
    ]);
    let policy = Policy::new("bot", BASE, &allow, None).unwrap();
    for method in &allow {
        let op = operations::by_method(Endpoint::Bot, method).unwrap();
        assert!(policy.check(&client_body(op, None)).is_ok(), "{method}");
    }
}

#[test]
fn the_api_key_field_is_never_forwardable() {
    // Not even with every profile method allowed, and whatever else is selected.
    let policy = Policy::new("bot", BASE, &strings(&["profile"]), None).unwrap();
    for query in [
        "query Profile { profile { apiKey } }",
        "query Profile { profile { id apiKey } }",
    ] {
        let body = serde_json::json!({ "query": query, "operationName": "Profile" }).to_string();
        assert_eq!(policy.check(&body).unwrap_err().status, 403);
    }
    // The known fields come from the default selection, which leaves `apiKey` out.
    assert!(!operations::PROFILE_FIELDS.split(' ').any(|f| f == "apiKey"));
}

#[test]
fn other_refusals() {
    let policy = Policy::new("bot", BASE, &strings(&["profile"]), Some(100.0)).unwrap();
    assert_eq!(policy.check_method("POST"), Ok(()));
    assert_eq!(policy.check_method("GET").unwrap_err().status, 405);
    assert_eq!(policy.check_method("post").unwrap_err().status, 405);
    assert_eq!(policy.check("{not json").unwrap_err().status, 400);
    assert_eq!(policy.check("").unwrap_err().status, 400);
    let big = format!("{{\"query\":\"{}\"}}", " ".repeat(100));
    assert_eq!(policy.check(&big).unwrap_err().status, 413);
    assert_eq!(policy.max_body_bytes(), 100);
    assert_eq!(
        Policy::new("bot", BASE, &strings(&["profile"]), None)
            .unwrap()
            .max_body_bytes(),
        65_536
    );
    for (r, status, code) in [
        (Refusal::unauthorized(), 401, "UNAUTHENTICATED"),
        (Refusal::unreachable(), 502, "BAD_GATEWAY"),
        (Refusal::too_large(100), 413, "PAYLOAD_TOO_LARGE"),
        (Refusal::no_key(), 500, "PROXY_MISCONFIGURED"),
    ] {
        assert_eq!((r.status, r.code), (status, code));
        let body: serde_json::Value = serde_json::from_str(&r.body()).unwrap();
        assert_eq!(body["errors"][0]["extensions"]["code"], code);
        assert_eq!(body["errors"][0]["message"], r.message.as_str());
    }
}

#[test]
fn options_are_checked() {
    let policy = Policy::new(
        "merchant",
        "https://service.example/",
        &strings(&["account"]),
        None,
    );
    assert_eq!(
        policy.unwrap().upstream(),
        "https://service.example/service/api/graphql"
    );
    let e = Policy::new("bot", "ftp://x", &strings(&["profile"]), None).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("baseUrl"));
    let e = Policy::new("admin", BASE, &strings(&["profile"]), None).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("endpoint"));
    let e = Policy::new("bot", BASE, &[], None).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("allow"));
    // A merchant method on the bot endpoint, and a name that is no method.
    for bad in ["account", "apiKey", "Profile"] {
        let e = Policy::new("bot", BASE, &strings(&[bad]), None).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("allow"), "{bad}");
    }
    for bad in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
        let e = Policy::new("bot", BASE, &strings(&["profile"]), Some(bad)).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("maxBodyBytes"), "{bad}");
    }
}

#[test]
fn responses_are_redacted() {
    let key = "SBX-SECK_abcdefghijklmnop";
    let body = r#"{"errors":[{"message":"bad key SBX-SECK_abcdefghijklmnop","extensions":{"hint":"cdefghijkl"}}],"data":null}"#;
    let out = redact_response(body, key);
    assert!(
        !out.contains("abcdefgh") && !out.contains("cdefghijkl"),
        "{out}"
    );
    assert!(out.contains("[redacted]"));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("bad key"));
    // JSON escapes cannot hide the key; a body that is not JSON is redacted as text.
    let escaped = r#"{"m":"\u0053BX-SECK_abcdefghijklmnop"}"#;
    assert!(!redact_response(escaped, key).contains("abcdefgh"));
    // In `data`, the answer: the whole key and secret part only (not 8-character runs).
    let data = r#"{"data":{"account":{"id":"abcdefghij-1","k":"SBX-SECK_abcdefghijklmnop","s":"abcdefghijklmnop"}}}"#;
    assert_eq!(
        redact_response(data, key),
        r#"{"data":{"account":{"id":"abcdefghij-1","k":"[redacted]","s":"[redacted]"}}}"#
    );
    let html = "<p>key SBX-SECK_abcdefghijklmnop</p>";
    assert_eq!(redact_response(html, key), "<p>key [redacted]</p>");
}
