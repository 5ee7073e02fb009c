use super::*;
use crate::operations::{Operation, ORDER_HISTORY, PROFILE, WITHDRAWAL_INFO};
use crate::testing::VariablesInOrder;
use crate::types::OrderHistoryFilter;
use proptest::prelude::*;
use serde_json::{json, Value as J};

fn text(query: &str, variables: Variables<'_>, operation_name: Option<&str>) -> String {
    Body {
        query,
        variables,
        operation_name,
    }
    .to_text()
    .expect("a body is always written")
}

fn parsed(s: &str) -> J {
    serde_json::from_str(s).expect("the body is JSON")
}

/// The body of `op` with `values`, as the clients build it.
fn op_body(op: &Operation, values: Vec<Value>) -> J {
    let vars = op.variables_in_order(values).unwrap();
    parsed(&text(
        &op.document(op.fields),
        Variables::Named(&vars),
        Some(op.name),
    ))
}

/// A string as a variable, a member name and the document comes back exactly.
fn roundtrip(s: &str) -> String {
    let vars = [("v", Value::Str(s.to_owned()))];
    let t = text(s, Variables::Named(&vars), Some(s));
    let v = parsed(&t);
    assert_eq!(v["query"].as_str(), Some(s), "text: {t}");
    assert_eq!(v["variables"]["v"].as_str(), Some(s), "text: {t}");
    assert_eq!(v["operationName"].as_str(), Some(s), "text: {t}");
    t
}

#[test]
fn hostile_strings_round_trip() {
    for s in [
        "",
        "\"",
        "\\",
        "\\\"",
        "{}",
        "}\"},\"variables\":{\"x\":1",
        "query { __schema { types { name } } }",
        "line\nbreak\r\ttab",
        "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}",
        "é ü 中文 🚀 \u{2028}\u{2029}",
        "</script><script>alert(1)</script>",
        "a\"b\\c\u{1}d",
    ] {
        roundtrip(s);
    }
}

#[test]
fn control_characters_are_escaped() {
    let t = roundtrip("\u{1}\n\u{1f}");
    assert!(t.contains("\\u0001\\n\\u001f"), "{t}");
    assert!(!t.bytes().any(|b| b < 0x20));
}

#[test]
fn built_in_bodies() {
    let doc = ORDER_HISTORY.document(ORDER_HISTORY.fields);
    assert_eq!(
        op_body(
            &ORDER_HISTORY,
            vec![
                Value::Int(2),
                Value::Int(50),
                Value::Filter(OrderHistoryFilter::default())
            ]
        ),
        json!({"query": doc, "variables": {"page": 2, "perPage": 50}, "operationName": "OrderHistory"})
    );
    let f = OrderHistoryFilter {
        order_id: Some("o\"1}".into()),
        status: Some("paid".into()),
        date_from: Some("2024-01-01".into()),
        date_to: Some("2024-02-29".into()),
        payment_method: Some("M-Pesa \u{1}".into()),
    };
    let v = op_body(
        &ORDER_HISTORY,
        vec![Value::Int(1), Value::Null, Value::Filter(f)],
    );
    assert_eq!(
        v["variables"],
        json!({"page": 1, "filter": {"orderId": "o\"1}", "status": "paid", "dateFrom": "2024-01-01",
            "dateTo": "2024-02-29", "paymentMethod": "M-Pesa \u{1}"}})
    );
    // Unset filter members are left out, not sent as null.
    let f = OrderHistoryFilter {
        date_to: Some("2024-02-29".into()),
        ..Default::default()
    };
    let v = op_body(
        &ORDER_HISTORY,
        vec![Value::Int(7), Value::Null, Value::Filter(f)],
    );
    assert_eq!(
        v["variables"],
        json!({"page": 7, "filter": {"dateTo": "2024-02-29"}})
    );
    let v = op_body(&WITHDRAWAL_INFO, vec![Value::Str(" US\"DC ".into())]);
    assert_eq!(
        v,
        json!({"query": WITHDRAWAL_INFO.document(WITHDRAWAL_INFO.fields),
            "variables": {"symbol": "US\"DC"}, "operationName": "WithdrawalInfo"})
    );
    // No arguments: no variables member at all.
    let v = op_body(&PROFILE, vec![]);
    assert_eq!(
        v,
        json!({"query": PROFILE.document(PROFILE.fields), "operationName": "Profile"})
    );
}

#[test]
fn caller_variables_go_in_as_they_are() {
    let vars = json!({"x": [1, "}"], "n": {"deep": [null, true, 1.5]}, "s": "a\"b\u{1}"});
    let v = parsed(&text("{ a }", Variables::Caller(&vars), None));
    assert_eq!(v, json!({"query": "{ a }", "variables": vars}));
    let v = parsed(&text("{ a }", Variables::None, None));
    assert_eq!(v, json!({"query": "{ a }"}));
    // An empty object is still sent (the caller gave it).
    let empty = json!({});
    let v = parsed(&text("{ a }", Variables::Caller(&empty), None));
    assert_eq!(v, json!({"query": "{ a }", "variables": {}}));
}

proptest! {
    #[test]
    fn any_string_round_trips(s in any::<String>()) {
        roundtrip(&s);
    }

    #[test]
    fn any_page_is_sent_as_a_number(page in 1i64..=2_147_483_647) {
        let v = op_body(&ORDER_HISTORY, vec![Value::Int(page), Value::Null, Value::Null]);
        prop_assert_eq!(&v["variables"], &json!({"page": page}));
    }
}
