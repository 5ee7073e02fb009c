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

/// A stack as small as the parser's recursion finds in a wasm instance (its frames are larger
/// there than natively): 5,000 levels of the parser's recursion overflow it, the bounded
/// checks fit in it many times over.
const WASM_LIKE_STACK: usize = 256 << 10;

/// On a thread with [`WASM_LIKE_STACK`]: a body that reached a recursion the bounds missed
/// (the parser's, on 5,000 nested selections) overflows it and fails the test.
#[test]
fn the_bypass_corpus_is_refused() {
    std::thread::Builder::new()
        .stack_size(WASM_LIKE_STACK)
        .spawn(bypass_corpus_is_refused)
        .unwrap()
        .join()
        .expect("no panic and no stack overflow");
}

fn bypass_corpus_is_refused() {
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
        let expected = match attempt["status"].as_u64() {
            None => (403, FORBIDDEN_OPERATION),
            Some(400) => (400, "BAD_REQUEST"),
            Some(other) => panic!("{}: status {other}", attempt["name"]),
        };
        assert_eq!(
            (refusal.status, refusal.code),
            expected,
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

/// Found by the generated bodies: a `metadata` number is forwarded as the very double the
/// client wrote, not a neighbouring one (the body is read with serde_json's exact float
/// parsing).
#[test]
fn metadata_numbers_are_forwarded_exactly() {
    let op = &operations::WITHDRAW_ONCHAIN;
    for n in [
        "4.8002263763045795e+143",
        "0.1",
        "1.7976931348623157e+308",
        "5e-324",
        "-0.0",
    ] {
        let mut body: serde_json::Value = serde_json::from_str(&client_body(op, None)).unwrap();
        body["variables"]["metadata"] = serde_json::json!({ "A": 0 });
        let text = body
            .to_string()
            .replace(r#"{"A":0}"#, &format!(r#"{{"A":{n}}}"#));
        let forward = policy_for(op).check(&text).unwrap();
        let sent: serde_json::Value = serde_json::from_str(&forward.body).unwrap();
        let wrote: f64 = n.parse().unwrap();
        assert_eq!(
            sent["variables"]["metadata"]["A"]
                .as_f64()
                .unwrap()
                .to_bits(),
            wrote.to_bits(),
            "{n}"
        );
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

/// A client body of `op` whose query is `query` (its variables and name the client's).
fn body_with_query(op: &Operation, query: &str) -> String {
    let mut body: serde_json::Value = serde_json::from_str(&client_body(op, None)).unwrap();
    body["query"] = query.into();
    body.to_string()
}

fn message(r: Result<Forward, Refusal>) -> String {
    let r = r.unwrap_err();
    assert_eq!((r.status, r.code), (403, FORBIDDEN_OPERATION), "{r:?}");
    r.message
}

#[test]
fn the_query_length_is_bounded_before_the_query_is_read() {
    let op = &operations::PROFILE;
    let query = op.document(op.fields);
    let pad = |n: usize| format!("{query}#{}", "x".repeat(n - query.len() - 1));
    // At the bound: forwarded (the comment is not the client's, and is not sent).
    let at = pad(MAX_QUERY_LEN);
    assert_eq!(at.len(), MAX_QUERY_LEN);
    let forward = policy_for(op).check(&body_with_query(op, &at)).unwrap();
    assert_eq!(forward.body, client_body(op, None));
    let past = pad(MAX_QUERY_LEN + 1);
    assert!(
        message(policy_for(op).check(&body_with_query(op, &past))).contains("longer than 16384")
    );
}

#[test]
fn the_query_depth_is_bounded_before_it_is_parsed() {
    let op = &operations::PROFILE;
    let nested = |levels: usize| {
        // `query Profile { profile { a { a … } } }`: the operation and root field are 2 levels.
        format!(
            "query Profile {{ profile {}{}}}",
            "{ a ".repeat(levels - 1),
            "} ".repeat(levels - 1)
        )
    };
    assert_eq!(
        limits::measure(&nested(limits::MAX_DEPTH)).depth,
        limits::MAX_DEPTH
    );
    // At the bound the document is parsed (and refused for what it selects).
    let at = message(policy_for(op).check(&body_with_query(op, &nested(limits::MAX_DEPTH))));
    assert!(at.contains("not one the client selects"), "{at}");
    let past = message(policy_for(op).check(&body_with_query(op, &nested(limits::MAX_DEPTH + 1))));
    assert!(past.contains("nests deeper than 32"), "{past}");
    // 5,000 of each bracket, which would overflow the parser's stack.
    for open in ["{", "(", "["] {
        let q = format!("query Profile {{ profile {} }}", open.repeat(5_000));
        assert!(message(policy_for(op).check(&body_with_query(op, &q))).contains("deeper"));
    }
}

#[test]
fn the_query_tokens_are_bounded_before_it_is_parsed() {
    let op = &operations::PROFILE;
    let query = "query Profile { profile { id } }";
    let base = limits::measure(query).tokens;
    let with = |n: usize| format!("{query} {}", "!".repeat(n - base));
    let at = message(policy_for(op).check(&body_with_query(op, &with(limits::MAX_TOKENS))));
    assert!(at.contains("not a GraphQL document"), "{at}");
    let past = message(policy_for(op).check(&body_with_query(op, &with(limits::MAX_TOKENS + 1))));
    assert!(past.contains("more than 10000"), "{past}");
}

#[test]
fn the_body_depth_is_bounded_before_it_is_parsed() {
    let policy = policy_for(&operations::PROFILE);
    let body = |levels: usize| {
        format!(
            r#"{{"query":"query Profile {{ profile {{ id }} }}","operationName":"Profile","variables":{{"a":{}{}}}}}"#,
            "[".repeat(levels - 2),
            "]".repeat(levels - 2)
        )
    };
    assert_eq!(json_depth(&body(MAX_BODY_DEPTH)), MAX_BODY_DEPTH);
    // At the bound: parsed (and refused for the variable it names).
    let at = policy.check(&body(MAX_BODY_DEPTH)).unwrap_err();
    assert_eq!(at.status, 403, "{at:?}");
    let past = policy.check(&body(MAX_BODY_DEPTH + 1)).unwrap_err();
    assert_eq!((past.status, past.code), (400, "BAD_REQUEST"));
    assert!(past.message.contains("deeper than 64"), "{past:?}");
    // Brackets in strings do not count.
    let quoted = format!(
        r#"{{"query":"query Profile {{ profile {{ id }} }}","operationName":"Profile","variables":{{"a":"{}\"{}"}}}}"#,
        "[".repeat(100),
        "{".repeat(100)
    );
    assert_eq!(json_depth(&quoted), 2);
}

/// The client's own length bounds, argument by argument: one past each is a 403 naming the
/// argument; at the bound the client's other checks decide.
#[test]
fn the_clients_length_bounds_are_applied_to_every_forwarded_argument() {
    let withdrawal = &operations::WITHDRAWAL_INFO;
    let with_symbol = |symbol: &str| {
        let mut body: serde_json::Value =
            serde_json::from_str(&client_body(withdrawal, None)).unwrap();
        body["variables"]["symbol"] = symbol.into();
        body.to_string()
    };
    let past = message(policy_for(withdrawal).check(&with_symbol(&"U".repeat(5_000))));
    assert!(past.contains("symbol is longer than 4096"), "{past}");
    let past = message(policy_for(withdrawal).check(&with_symbol(&"U".repeat(4_097))));
    assert!(past.contains("symbol"), "{past}");
    assert!(policy_for(withdrawal)
        .check(&with_symbol(&"U".repeat(4_096)))
        .is_ok());
    // UTF-16 units, as JavaScript counts: 2,049 characters outside the BMP are 4,098 units.
    assert!(policy_for(withdrawal)
        .check(&with_symbol(&"😀".repeat(2_049)))
        .is_err());
    assert!(policy_for(withdrawal)
        .check(&with_symbol(&"😀".repeat(2_048)))
        .is_ok());

    // Every string argument of every operation, one past the bound. An operation whose field
    // sits under a parent (`account { merchantCustomers }`) is refused whole, whatever its
    // values (a test below), so it has no argument to bound.
    for op in ALL.iter().filter(|op| op.parent.is_none()) {
        for arg in op.args {
            let mut body: serde_json::Value = serde_json::from_str(&client_body(op, None)).unwrap();
            let slot = &mut body["variables"][arg.name];
            if !slot.is_string() {
                continue;
            }
            *slot = "a".repeat(inputs::MAX_TEXT_LEN as usize + 1).into();
            let m = message(policy_for(op).check(&body.to_string()));
            assert!(
                m.contains(arg.caller) && m.contains("longer than"),
                "{}: {m}",
                op.method
            );
        }
    }

    // A filter member: 256 at most.
    let history = &operations::ORDER_HISTORY;
    let with_status = |n: usize| {
        let mut body: serde_json::Value =
            serde_json::from_str(&client_body(history, None)).unwrap();
        body["variables"]["filter"] = serde_json::json!({ "status": "s".repeat(n) });
        body.to_string()
    };
    assert!(policy_for(history).check(&with_status(256)).is_ok());
    let m = message(policy_for(history).check(&with_status(257)));
    assert!(m.contains("filter.status is longer than 256"), "{m}");
}

/// Generated hostile bodies: GraphQL-ish documents from the grammar's pieces (deep and wide
/// nesting, long names, many aliases, fragments, directives, comments, escapes, huge strings
/// and numbers) around the client's own operations, with random variables.
pub(crate) mod generated {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::BoxedStrategy;

    /// A GraphQL name, at times far longer than any of the schema's.
    fn name() -> BoxedStrategy<String> {
        prop_oneof![
            4 => "[A-Za-z_][A-Za-z0-9_]{0,12}",
            1 => (1usize..3_000).prop_map(|n| format!("n{}", "x".repeat(n))),
            2 => proptest::sample::select(vec![
                "profile", "orderHistory", "withdrawalInfo", "acceptWithdrawal", "account",
                "marketRate", "id", "email", "apiKey", "data", "pagination", "__schema",
                "__typename", "query", "mutation", "fragment", "on", "Profile", "OrderHistory",
            ]).prop_map(str::to_owned),
        ]
        .boxed()
    }

    /// One piece of a document's text.
    fn piece() -> BoxedStrategy<String> {
        prop_oneof![
            6 => name(),
            3 => proptest::sample::select(vec!["{", "}", "(", ")", "[", "]", ":", "$", "!", "=", "@", "...", "|", "&", ","])
                .prop_map(str::to_owned),
            1 => (1usize..6_000, proptest::sample::select(vec!["{", "(", "[", "{ a ", "[[", "{a:"]))
                .prop_map(|(n, open)| open.repeat(n)),
            1 => (1usize..6_000, proptest::sample::select(vec!["}", ")", "]"]))
                .prop_map(|(n, close)| close.repeat(n)),
            1 => (name(), 1usize..2_000).prop_map(|(n, k)| (0..k).map(|i| format!("a{i}: {n} ")).collect()),
            1 => name().prop_map(|n| format!("fragment F on {n} {{ id }} ...F")),
            1 => name().prop_map(|n| format!("@{n}(if: true) @skip(if: $x)")),
            1 => "[^\n]{0,40}".prop_map(|c| format!("# {c}\n")),
            1 => "(\\\\[nrtbf\"\\\\/]|\\\\u[0-9a-fA-F]{4}|[^\"\\\\]){0,40}".prop_map(|s| format!("\"{s}\"")),
            1 => (1usize..20_000).prop_map(|n| format!("\"{}\"", "s".repeat(n))),
            1 => "[^\"]{0,60}".prop_map(|s| format!("\"\"\"{s}\\\"\"\"{s}\"\"\"")),
            1 => (1usize..400).prop_map(|n| format!("-{}.{}e+{}", "9".repeat(n), "1".repeat(n), "7".repeat(n))),
            1 => Just("\u{feff}".to_owned()),
            1 => "\\PC{0,8}",
        ]
        .boxed()
    }

    /// A document: pieces alone, or pieces inside the header and selection of one of the
    /// client's own operations (so the checks past the parser are reached too).
    pub fn document() -> BoxedStrategy<String> {
        let pieces = proptest::collection::vec(piece(), 0..12).prop_map(|p| p.join(" "));
        let op = proptest::sample::select(ALL.to_vec());
        prop_oneof![
            pieces.clone(),
            (op, pieces.clone(), pieces).prop_map(|(op, a, b)| {
                let doc = op.document(op.fields);
                match doc.find('{') {
                    Some(at) => format!("{} {a} {} {b}", &doc[..at], &doc[at..]),
                    None => doc,
                }
            }),
        ]
        .boxed()
    }

    /// A JSON value: scalars (long strings, huge numbers), objects and arrays, nested.
    fn json() -> BoxedStrategy<serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>().prop_map(|f| serde_json::Number::from_f64(f)
                .map_or(serde_json::Value::Null, serde_json::Value::Number)),
            "\\PC{0,20}".prop_map(serde_json::Value::from),
            (1usize..10_000).prop_map(|n| serde_json::Value::from("U".repeat(n))),
            proptest::sample::select(vec![
                "BTC",
                "usdc",
                "NG",
                "ng",
                "p2p_1",
                "1",
                "2026-01-01",
                "15.55",
                "",
                " "
            ])
            .prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 24, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
                proptest::collection::btree_map("[a-zA-Z]{1,12}", inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
    }

    /// Variables: the names of the client's arguments (and others) with random values.
    fn variables() -> BoxedStrategy<serde_json::Value> {
        let key = prop_oneof![
            proptest::sample::select(
                ALL.iter()
                    .flat_map(|op| op.args.iter().map(|a| a.name))
                    .collect::<Vec<_>>()
            )
            .prop_map(str::to_owned),
            "[a-z]{1,8}",
        ];
        proptest::collection::btree_map(key, json(), 0..5)
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect()))
            .boxed()
    }

    /// A whole body: mostly `{ query, variables, operationName }`, at times another shape, or
    /// a deep JSON nesting.
    pub fn body() -> BoxedStrategy<(String, String)> {
        let op_name = prop_oneof![
            proptest::sample::select(ALL.iter().map(|op| op.name).collect::<Vec<_>>())
                .prop_map(str::to_owned),
            name(),
        ];
        prop_oneof![
            8 => (document(), variables(), op_name).prop_map(|(q, v, n)| {
                let body = serde_json::json!({ "query": q, "variables": v, "operationName": n });
                (q, body.to_string())
            }),
            1 => (1usize..6_000, document()).prop_map(|(n, q)| {
                let deep = format!("{}{}", "[".repeat(n), "]".repeat(n));
                (q.clone(), format!(r#"{{"query":{},"variables":{{"a":{deep}}}}}"#, serde_json::Value::from(q)))
            }),
            1 => ("\\PC{0,200}", document()).prop_map(|(junk, q)| (q, junk)),
            // The client's own body with some of its values replaced (kept, a random value,
            // or a string around the client's length bound), and a comment at times: the
            // bodies that reach the checks past the parser, and are forwarded when they pass.
            4 => (
                proptest::sample::select(ALL.to_vec()),
                proptest::collection::vec(proptest::option::weighted(0.5, prop_oneof![
                    json(),
                    (4_090usize..4_100).prop_map(|n| serde_json::Value::from("a".repeat(n))),
                ]), 4),
                proptest::option::of("[^\n]{0,30}"),
            )
                .prop_map(|(op, replace, comment)| {
                    let mut body: serde_json::Value =
                        serde_json::from_str(&client_body(op, None)).unwrap();
                    for (arg, value) in op.args.iter().zip(replace) {
                        if let Some(v) = value {
                            body["variables"][arg.name] = v;
                        }
                    }
                    if let Some(c) = comment {
                        let q = format!("# {c}\n{}", body["query"].as_str().unwrap());
                        body["query"] = q.into();
                    }
                    (body["query"].as_str().unwrap().to_owned(), body.to_string())
                }),
        ]
        .boxed()
    }

    /// The property, for one body: no panic (proptest reports one), a refusal is one of the
    /// proxy's ordinary answers (never a 500), and a forwarded body is exactly what the
    /// client sends for what passed: the checks accept it again unchanged, and no string in
    /// its variables is longer than the client's bound. The scan behind `request()` takes
    /// the same document without panicking, within its bounds.
    pub fn holds(policy: &Policy, query: &str, body: &str) -> Result<bool, TestCaseError> {
        let forwarded = match policy.check(body) {
            Ok(forward) => {
                let again = policy.check(&forward.body);
                prop_assert!(again.is_ok(), "forwarded, then refused: {:?}", again.err());
                prop_assert_eq!(&again.unwrap().body, &forward.body);
                let sent: serde_json::Value = serde_json::from_str(&forward.body).unwrap();
                for (_, v) in sent["variables"].as_object().into_iter().flatten() {
                    if let Some(s) = v.as_str() {
                        prop_assert!(s.encode_utf16().count() <= inputs::MAX_TEXT_LEN as usize);
                    }
                }
                true
            }
            Err(r) => {
                prop_assert!(matches!(r.status, 400 | 403 | 413), "{r:?}");
                prop_assert!(r.message.len() < 300, "{r:?}");
                false
            }
        };
        if let Ok(call) = crate::call::prepare_request(query, None, None) {
            let m = limits::measure(query);
            prop_assert!(m.depth <= limits::MAX_DEPTH && m.tokens <= limits::MAX_TOKENS);
            let _ = call;
        }
        Ok(forwarded)
    }

    /// Runs `cases` generated bodies against a proxy allowing every method of each endpoint,
    /// on a thread with [`super::WASM_LIKE_STACK`]: a recursion the bounds missed overflows it
    /// and fails the run. Returns how many bodies ran, and how many of them were
    /// forwarded (by either proxy).
    pub fn run(cases: u32) -> (usize, usize) {
        std::thread::Builder::new()
            .stack_size(super::WASM_LIKE_STACK)
            .spawn(move || {
                let allow = |e: Endpoint| -> Vec<String> {
                    operations::of(e).map(|op| op.method.to_owned()).collect()
                };
                let bot = Policy::new("bot", BASE, &allow(Endpoint::Bot), None).unwrap();
                let merchant =
                    Policy::new("merchant", BASE, &allow(Endpoint::Merchant), Some(1e6)).unwrap();
                let config = proptest::test_runner::Config {
                    cases,
                    failure_persistence: None,
                    ..proptest::test_runner::Config::default()
                };
                let mut runner = proptest::test_runner::TestRunner::new(config);
                let ran = std::cell::Cell::new(0usize);
                let forwarded = std::cell::Cell::new(0usize);
                runner
                    .run(&body(), |(query, body)| {
                        ran.set(ran.get() + 1);
                        let sent = holds(&bot, &query, &body)? | holds(&merchant, &query, &body)?;
                        forwarded.set(forwarded.get() + usize::from(sent));
                        Ok(())
                    })
                    .unwrap();
                (ran.get(), forwarded.get())
            })
            .unwrap()
            .join()
            .expect("no panic and no stack overflow")
    }
}

/// Generated bodies: a modest count here (`SETTLEMENT_GENERATED_BODIES`, default 1,000);
/// `make stress` runs 100,000.
#[test]
fn generated_hostile_bodies_are_refused_or_forwarded_as_the_client_sends_them() {
    let cases = std::env::var("SETTLEMENT_GENERATED_BODIES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000);
    let started = std::time::Instant::now();
    let (ran, forwarded) = generated::run(cases);
    eprintln!(
        "generated bodies: {ran} (each against both endpoints), {forwarded} forwarded, 0 traps, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(ran >= cases as usize);
}
