use super::*;
use crate::error::Code;
use crate::graphql::{is_read_only, selection};
use serde_json::{json, Value};

#[test]
fn list_shapes() {
    let v = decode(
        200,
        None,
        r#"{"data":{"rampableAssets":[{"symbol":"USDC"}]}}"#,
        Expect::List("rampableAssets"),
    )
    .unwrap();
    assert_eq!(v, json!([{"symbol": "USDC"}]));
    let v = decode(
        200,
        None,
        r#"{"data":{"rampableAssets":[]}}"#,
        Expect::List("rampableAssets"),
    )
    .unwrap();
    assert_eq!(v, json!([]));
    for body in [
        r#"{"data":{"rampableAssets":null}}"#,
        r#"{"data":{"rampableAssets":{}}}"#,
        r#"{"data":{}}"#,
        r#"{"data":{"rampableAssets":"x"}}"#,
    ] {
        let e = decode_err(200, None, body, Expect::List("rampableAssets"));
        assert_eq!(e.code, Code::Decode, "{body}");
    }
}

proptest::proptest! {
    #[test]
    fn scanners_and_decoding_never_panic(doc in ".{0,60}", body in ".{0,60}", status in 0u16..700) {
        let _ = is_read_only(&doc);
        let _ = selection(Some(std::slice::from_ref(&doc)), "");
        for expect in [Expect::Data, Expect::Object("a"), Expect::ObjectOrNull("a"), Expect::Page("a"), Expect::List("a")] {
            let _ = decode_response(status, Some(&doc), &body, 0.0, expect);
        }
    }
}

fn decode(
    status: u16,
    retry_after: Option<&str>,
    body: &str,
    expect: Expect,
) -> Result<Json, Error> {
    decode_response(
        status,
        retry_after,
        &body.to_owned(),
        1_445_412_470_000.0,
        expect,
    )
}

#[test]
fn decode_success_shapes() {
    let v = decode(
        200,
        None,
        r#"{"data":{"profile":{"id":"1"}}}"#,
        Expect::Object("profile"),
    )
    .unwrap();
    assert_eq!(v, json!({"id": "1"}));
    let v = decode(
        200,
        None,
        r#"{"data":{"withdrawalInfo":null}}"#,
        Expect::ObjectOrNull("withdrawalInfo"),
    )
    .unwrap();
    assert_eq!(v, Value::Null);
    let page = r#"{"data":{"orderHistory":{"data":[{"id":"1"}],"pagination":{"page":1,"perPage":10,"total":1}}},"errors":[]}"#;
    let v = decode(200, None, page, Expect::Page("orderHistory")).unwrap();
    assert_eq!(v["data"][0]["id"], "1");
    let v = decode(
        200,
        None,
        r#"{"data":{"x":1},"extensions":{}}"#,
        Expect::Data,
    )
    .unwrap();
    assert_eq!(v, json!({"x": 1}));
}

fn decode_err(status: u16, retry_after: Option<&str>, body: &str, expect: Expect) -> Error {
    decode(status, retry_after, body, expect).expect_err("an error")
}

#[test]
fn decode_wrong_shapes() {
    for (body, expect) in [
        (r#"{"data":{"profile":null}}"#, Expect::Object("profile")),
        (r#"{"data":{"profile":[1]}}"#, Expect::Object("profile")),
        (r#"{"data":{}}"#, Expect::ObjectOrNull("withdrawalInfo")),
        (
            r#"{"data":{"withdrawalInfo":"USDC"}}"#,
            Expect::ObjectOrNull("withdrawalInfo"),
        ),
        (
            r#"{"data":{"orderHistory":{"data":{},"pagination":{"page":1,"perPage":1,"total":1}}}}"#,
            Expect::Page("orderHistory"),
        ),
        (
            r#"{"data":{"orderHistory":{"data":[],"pagination":{"page":"1","perPage":1,"total":1}}}}"#,
            Expect::Page("orderHistory"),
        ),
        (
            r#"{"data":{"orderHistory":{"data":[]}}}"#,
            Expect::Page("orderHistory"),
        ),
        (r#"{"data":null}"#, Expect::Data),
        (r#"{}"#, Expect::Data),
        (r#"[{"data":{}}]"#, Expect::Data),
        (r#""data""#, Expect::Data),
        (r#"{"data":{},"errors":{"message":"x"}}"#, Expect::Data),
        (r#"{"data":{},"errors":["x"]}"#, Expect::Data),
        ("", Expect::Data),
        ("   ", Expect::Data),
        (
            r#"{"data":{"profile":{"id":"1"}"#,
            Expect::Object("profile"),
        ),
        ("<html>oops</html>", Expect::Data),
    ] {
        let e = decode_err(200, None, body, expect);
        assert_eq!((e.code, e.status), (Code::Decode, Some(200)), "{body}");
    }
    assert!(decode_err(200, None, "", Expect::Data)
        .message
        .contains("empty"));
    assert!(decode_err(200, None, "{\"da", Expect::Data)
        .message
        .contains("not valid JSON"));
}

#[test]
fn decode_graphql_errors() {
    let body = r#"{"data":{"profile":{"id":"1","email":null}},"errors":[
        {"message":"email hidden","path":["profile","email"],"locations":[{"line":1,"column":30}],"extensions":{"code":"INTERNAL"}},
        {"message":"second"}]}"#;
    let e = decode_err(200, None, body, Expect::Object("profile"));
    assert_eq!(e.code, Code::Graphql);
    assert_eq!(e.status, Some(200));
    assert_eq!(e.message, "email hidden (and 1 more error)");
    assert_eq!(e.graphql_errors.len(), 2);
    assert_eq!(e.graphql_errors[0].path, Some(json!(["profile", "email"])));
    assert_eq!(
        e.graphql_errors[0].locations,
        Some(json!([{"line": 1, "column": 30}]))
    );
    assert_eq!(
        e.graphql_errors[0].extensions,
        Some(json!({"code": "INTERNAL"}))
    );
    assert_eq!(e.graphql_errors[1].path, None);
    assert_eq!(e.data, Some(json!({"profile": {"id": "1", "email": null}})));

    let e = decode_err(
        200,
        None,
        r#"{"data":null,"errors":[{"message":"nope","extensions":{"code":"FORBIDDEN"}}]}"#,
        Expect::Data,
    );
    assert_eq!(e.code, Code::Forbidden);
    assert_eq!(e.data, None);
    assert_eq!(e.message, "nope");
    let e = decode_err(200, None, r#"{"errors":[{"extensions":{}}]}"#, Expect::Data);
    assert_eq!(e.code, Code::Graphql);
    assert!(!e.message.is_empty());
}

#[test]
fn decode_statuses() {
    let e = decode_err(
        401,
        None,
        r#"{"errors":[{"message":"Invalid API key"}]}"#,
        Expect::Data,
    );
    assert_eq!((e.code, e.status), (Code::Unauthorized, Some(401)));
    assert_eq!(e.message, "Invalid API key (HTTP 401).");
    assert_eq!(e.graphql_errors.len(), 1);
    let e = decode_err(401, None, "Unauthorized", Expect::Data);
    assert_eq!((e.code, e.status), (Code::Unauthorized, Some(401)));
    assert!(e.graphql_errors.is_empty());
    let e = decode_err(403, None, "", Expect::Data);
    assert_eq!((e.code, e.status), (Code::Forbidden, Some(403)));
    let e = decode_err(429, Some("7"), "", Expect::Data);
    assert_eq!(
        (e.code, e.status, e.retry_after_ms),
        (Code::RateLimited, Some(429), Some(7_000))
    );
    let e = decode_err(429, Some("Wed, 21 Oct 2015 07:28:00 GMT"), "", Expect::Data);
    assert_eq!(e.retry_after_ms, Some(10_000));
    let e = decode_err(429, None, "slow down", Expect::Data);
    assert_eq!((e.code, e.retry_after_ms), (Code::RateLimited, None));
    let e = decode_err(429, Some("whenever"), "", Expect::Data);
    assert_eq!(e.retry_after_ms, None);
    let e = decode_err(
        500,
        None,
        "<html><body>Internal Server Error</body></html>",
        Expect::Data,
    );
    assert_eq!((e.code, e.status), (Code::Http, Some(500)));
    assert!(!e.message.contains("<html>"));
    let e = decode_err(502, None, "", Expect::Data);
    assert_eq!((e.code, e.status), (Code::Http, Some(502)));
    let e = decode_err(
        503,
        Some("2"),
        r#"{"data":{"a":1},"errors":[{"message":"down"}]}"#,
        Expect::Data,
    );
    assert_eq!(
        (e.code, e.status, e.retry_after_ms),
        (Code::Http, Some(503), Some(2_000))
    );
    assert_eq!(e.data, Some(json!({"a": 1})));
    assert_eq!(e.message, "down (HTTP 503); retry after 2000 ms.");
    // Malformed errors in a non-2xx body are ignored, not fatal.
    let e = decode_err(400, None, r#"{"errors":"bad"}"#, Expect::Data);
    assert_eq!(
        (e.code, e.status, e.graphql_errors.len()),
        (Code::Http, Some(400), 0)
    );
}

#[test]
fn a_connection_is_checked_under_its_parent() {
    let ok = r#"{"data":{"account":{"merchantCustomers":{"nodes":[{"id":"c"}],"pageInfo":{"endCursor":"x","hasNextPage":true}}}}}"#;
    let expect = Expect::Connection("account", "merchantCustomers");
    let v = decode(200, None, ok, expect).unwrap();
    assert_eq!(v["nodes"][0]["id"], "c");
    let null_nodes = r#"{"data":{"account":{"merchantCustomers":{"nodes":null,"pageInfo":{"endCursor":null,"hasNextPage":false}}}}}"#;
    assert!(decode(200, None, null_nodes, expect).is_ok());
    for bad in [
        r#"{"data":{"account":null}}"#,
        r#"{"data":{"account":{}}}"#,
        r#"{"data":{"account":{"merchantCustomers":{"nodes":{},"pageInfo":{"endCursor":null,"hasNextPage":false}}}}}"#,
        r#"{"data":{"account":{"merchantCustomers":{"nodes":[]}}}}"#,
        r#"{"data":{"account":{"merchantCustomers":{"nodes":[],"pageInfo":{"endCursor":3,"hasNextPage":false}}}}}"#,
        r#"{"data":{"account":{"merchantCustomers":{"nodes":[],"pageInfo":{"endCursor":null,"hasNextPage":"no"}}}}}"#,
    ] {
        let e = decode_err(200, None, bad, expect);
        assert_eq!(e.code, crate::error::Code::Decode, "{bad}");
        assert!(
            e.message.contains("data.account.merchantCustomers"),
            "{}",
            e.message
        );
    }
}
