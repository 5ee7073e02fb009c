use proptest::prelude::*;

use super::verify::constant_time_eq;
use super::*;
use crate::error::{Code, Error};

const TOKEN: &str = "whk_live_7f3a9c2e41b84d6f";

fn body(event_type: &str, data: &str) -> Vec<u8> {
    format!(r#"{{"event_type":"{event_type}","data":{data}}}"#).into_bytes()
}

fn ok(headers: &[(&str, &str)], body: &[u8], tokens: &[&str]) -> WebhookEvent {
    verify(headers.iter().copied(), body, tokens).expect("verified")
}

fn err(headers: &[(&str, &str)], body: &[u8], tokens: &[&str]) -> Error {
    verify(headers.iter().copied(), body, tokens).expect_err("refused")
}

/// No error text holds the token or an 8-character piece of it.
fn assert_no_piece(text: &str) {
    for i in 0..=TOKEN.len() - 8 {
        assert!(!text.contains(&TOKEN[i..i + 8]), "{text}");
    }
}

#[test]
fn each_observed_type_is_typed() {
    let h = [("X-CASHRAMP-TOKEN", TOKEN)];
    let e = ok(
        &h,
        &body(
            "payment_request.updated",
            r#"{"id":"pr1","reference":"order-9","status":"COMPLETED","customer":{"id":"c1","email":"a@b.c","wallet_address":"0xab","country":"NG","currency":"NGN"},"p2p_payment":{"id":"p1","exchange_rate":"1500.5","amount":159000,"amount_usd":"106.0","fee":1},"onchain_address":null,"onchain_cryptocurrency":null,"onchain_txhash":null,"created_at":"2026-01-01T00:00:00Z","payment_link":"https://pay/x","metadata":{"order":9}}"#,
        ),
        &[TOKEN],
    );
    let EventData::PaymentRequestUpdated(d) = &e.data else {
        panic!("{e:?}")
    };
    assert_eq!(d.reference.as_deref(), Some("order-9"));
    let p2p = d.p2p_payment.as_ref().unwrap();
    assert_eq!(p2p.exchange_rate, Some(Amount::Text("1500.5".into())));
    assert_eq!(p2p.amount, Some(Amount::Number(159000.into())));
    assert_eq!(
        d.customer.as_ref().unwrap().wallet_address.as_deref(),
        Some("0xab")
    );
    assert_eq!(e.key, r#"["payment_request.updated","pr1","COMPLETED"]"#);
    // The npm shape keeps snake_case in data and the amounts as sent.
    let j = e.to_json();
    assert_eq!(j["type"], "payment_request.updated");
    assert_eq!(j["data"]["p2p_payment"]["amount"], 159000);
    assert_eq!(j["data"]["p2p_payment"]["amount_usd"], "106.0");
    assert_eq!(j["data"]["metadata"]["order"], 9);

    let e = ok(
        &h,
        &body(
            "onchain_tx.updated",
            r#"{"id":"tx1","address":"0x1","status":"CONFIRMED","quantity":"10.5","fee":0.1,"symbol":"USDT","network":"CELO","txhash":"0xh"}"#,
        ),
        &[TOKEN],
    );
    let EventData::OnchainTxUpdated(d) = &e.data else {
        panic!()
    };
    assert_eq!(d.quantity, Some(Amount::Text("10.5".into())));
    assert_eq!(d.network.as_deref(), Some("CELO"));

    let e = ok(
        &h,
        &body(
            "fiat_payout.updated",
            r#"{"id":"f1","payment_type":"WITHDRAWAL","amount_usd":100,"amount":"159.0","reference":"r","status":"PAID"}"#,
        ),
        &[TOKEN],
    );
    let EventData::FiatPayoutUpdated(d) = &e.data else {
        panic!()
    };
    assert_eq!(d.amount_usd, Some(Amount::Number(100.into())));

    let e = ok(
        &h,
        &body(
            "chargeback.initiated",
            r#"{"id":"cb1","status":"OPEN","reason":"fraud","payment_request":{"id":"pr1","reference":"order-9","amount":"5","currency":"USD"}}"#,
        ),
        &[TOKEN],
    );
    let EventData::ChargebackInitiated(d) = &e.data else {
        panic!()
    };
    assert_eq!(
        d.payment_request.as_ref().unwrap().reference.as_deref(),
        Some("order-9")
    );
    assert_eq!(e.event_type(), "chargeback.initiated");
}

#[test]
fn unknown_type_is_kept_raw() {
    let raw = body("refund.created", r#"{"id":7,"anything":[1,2]}"#);
    let e = ok(&[("x-cashramp-token", TOKEN)], &raw, &[TOKEN]);
    assert_eq!(
        e.data,
        EventData::Unknown {
            event_type: "refund.created".into(),
            data: serde_json::json!({"id":7,"anything":[1,2]})
        }
    );
    assert_eq!(e.key, r#"["refund.created","7",""]"#);
    assert_eq!(e.raw.as_bytes(), &raw[..]);
    let j = e.to_json();
    assert_eq!(j["type"], "unknown");
    assert_eq!(j["eventType"], "refund.created");
}

#[test]
fn a_replay_has_the_same_key_and_a_new_status_another() {
    let b1 = body("onchain_tx.updated", r#"{"id":"tx1","status":"PENDING"}"#);
    let b2 = body(
        "onchain_tx.updated",
        r#"{"status":"PENDING","id":"tx1","fee":"1"}"#,
    );
    let b3 = body("onchain_tx.updated", r#"{"id":"tx1","status":"CONFIRMED"}"#);
    let h = [("x-cashramp-token", TOKEN)];
    assert_eq!(ok(&h, &b1, &[TOKEN]).key, ok(&h, &b1, &[TOKEN]).key);
    assert_eq!(ok(&h, &b1, &[TOKEN]).key, ok(&h, &b2, &[TOKEN]).key);
    assert_ne!(ok(&h, &b1, &[TOKEN]).key, ok(&h, &b3, &[TOKEN]).key);
}

#[test]
fn wrong_missing_and_near_tokens_are_unauthorized_saying_nothing() {
    let b = body("onchain_tx.updated", r#"{"id":"tx1","status":"PENDING"}"#);
    let mut last = TOKEN.to_owned();
    last.pop();
    last.push('g');
    let same_len = "x".repeat(TOKEN.len());
    let prefix = &TOKEN[..TOKEN.len() - 1];
    let longer = format!("{TOKEN}x");
    for h in [
        vec![],
        vec![("x-cashramp-token", last.as_str())],
        vec![("x-cashramp-token", same_len.as_str())],
        vec![("x-cashramp-token", prefix)],
        vec![("x-cashramp-token", longer.as_str())],
        vec![("x-cashramp-token", "")],
        vec![("authorization", TOKEN)],
        // Twice, even with the right one.
        vec![("x-cashramp-token", TOKEN), ("x-cashramp-token", TOKEN)],
    ] {
        let e = err(&h, &b, &[TOKEN]);
        assert_eq!(e.code, Code::Unauthorized, "{h:?}");
        assert_eq!(e.message, "Not authorized");
        assert_eq!(e.field, None);
        assert_no_piece(&format!("{e:?} {}", Answer::for_error(&e).body));
        assert_eq!(Answer::for_error(&e).status, 401);
    }
}

#[test]
fn rotation_accepts_each_token() {
    let b = body("x.y", "{}");
    let old = "old-token-aaaaaaaaaaaa";
    for t in [old, TOKEN] {
        ok(&[("x-cashramp-token", t)], &b, &[old, TOKEN]);
    }
    assert_eq!(
        err(&[("x-cashramp-token", "other")], &b, &[old, TOKEN]).code,
        Code::Unauthorized
    );
}

#[test]
fn bad_token_lists_are_invalid_input() {
    let b = body("x.y", "{}");
    let long = "a".repeat(MAX_TOKEN_LEN + 1);
    let many = vec!["t"; MAX_TOKENS + 1];
    for tokens in [vec![], vec![""], vec![long.as_str()], many] {
        let e = err(&[("x-cashramp-token", "t")], &b, &tokens);
        assert_eq!(e.code, Code::InvalidInput);
        assert_eq!(e.field.as_deref(), Some("token"));
    }
}

#[test]
fn a_custom_header_is_read() {
    let v = Verifier::new(Some("X-My-Token"), None).unwrap();
    assert_eq!(v.header(), "x-my-token");
    let b = body("x.y", "{}");
    v.verify([("x-my-token", TOKEN)], &b, &[TOKEN]).unwrap();
    assert_eq!(
        v.verify([("x-cashramp-token", TOKEN)], &b, &[TOKEN])
            .unwrap_err()
            .code,
        Code::Unauthorized
    );
    for bad in ["", "a b", "x:y", &"h".repeat(65)] {
        assert_eq!(
            Verifier::new(Some(bad), None).unwrap_err().field.as_deref(),
            Some("header")
        );
    }
    for bad in [0.0, -1.0, 1.5, f64::NAN, 2e9] {
        assert_eq!(
            Verifier::new(None, Some(bad)).unwrap_err().field.as_deref(),
            Some("maxBodyBytes")
        );
    }
}

#[test]
fn malformed_bodies_are_invalid_input() {
    let h = [("x-cashramp-token", TOKEN)];
    for (b, field) in [
        (&b"not json"[..], "body"),
        (b"", "body"),
        (b"\xff\xfe", "body"),
        (b"[1]", "body"),
        (b"null", "body"),
        (br#"{"data":{}}"#, "event_type"),
        (br#"{"event_type":5,"data":{}}"#, "event_type"),
        (br#"{"event_type":"","data":{}}"#, "event_type"),
        (br#"{"event_type":"a.b"}"#, "data"),
        (br#"{"event_type":"a.b","data":[]}"#, "data"),
        (
            br#"{"event_type":"onchain_tx.updated","data":{"id":5}}"#,
            "data",
        ),
        (
            br#"{"event_type":"onchain_tx.updated","data":{"quantity":true}}"#,
            "data",
        ),
    ] {
        let e = err(&h, b, &[TOKEN]);
        assert_eq!(e.code, Code::InvalidInput, "{b:?}");
        assert_eq!(e.field.as_deref(), Some(field), "{b:?}");
        assert_eq!(Answer::for_error(&e).status, 400);
    }
    // Deeply nested JSON is refused by serde_json's depth limit, not a stack overflow.
    let deep = format!(
        r#"{{"event_type":"a.b","data":{{"x":{}{}}}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_eq!(err(&h, deep.as_bytes(), &[TOKEN]).code, Code::InvalidInput);
}

#[test]
fn a_body_over_the_limit_is_too_large() {
    let v = Verifier::new(None, Some(64.0)).unwrap();
    let b = body(
        "onchain_tx.updated",
        r#"{"id":"a-long-enough-id-to-pass-64-bytes","status":"X"}"#,
    );
    assert!(b.len() > 64);
    let e = v
        .verify([("x-cashramp-token", TOKEN)], &b, &[TOKEN])
        .unwrap_err();
    assert_eq!(e.code, Code::TooLarge);
    assert_eq!(Answer::for_error(&e).status, 413);
    assert_eq!(v.too_large().code_str(), "too_large");
}

#[test]
fn answers_never_show_a_stack_or_a_token() {
    assert_eq!(Answer::method_not_allowed().status, 405);
    assert_eq!(Answer::handler_failed().status, 500);
    assert_eq!(Answer::ok().status, 200);
    for a in [
        Answer::method_not_allowed(),
        Answer::handler_failed(),
        Answer::ok(),
    ] {
        serde_json::from_str::<JsonValue>(&a.body).unwrap();
    }
}

#[test]
fn constant_time_eq_is_equality() {
    assert_eq!(constant_time_eq(b"abc", b"abc"), 1);
    assert_eq!(constant_time_eq(b"abc", b"abd"), 0);
    assert_eq!(constant_time_eq(b"abc", b"ab"), 0);
    assert_eq!(constant_time_eq(b"ab", b"abc"), 0);
    assert_eq!(constant_time_eq(b"", b""), 0);
    // A presented value that repeats the token (the index wraps) is not equal.
    assert_eq!(constant_time_eq(b"abab", b"ab"), 0);
}

#[test]
fn read_back_is_the_api_read_of_the_event() {
    let h = [("x-cashramp-token", TOKEN)];
    let pr = ok(
        &h,
        &body(
            "payment_request.updated",
            r#"{"id":"pr1","reference":"order-9","status":"completed"}"#,
        ),
        &[TOKEN],
    );
    assert_eq!(
        pr.read_back().unwrap(),
        ReadBack::PaymentRequest {
            reference: "order-9".into()
        }
    );
    let tx = ok(
        &h,
        &body("onchain_tx.updated", r#"{"id":"tx1","status":"completed"}"#),
        &[TOKEN],
    );
    assert_eq!(
        tx.read_back().unwrap(),
        ReadBack::OnchainWithdrawal { id: "tx1".into() }
    );
    for (b, field) in [
        (
            body("payment_request.updated", r#"{"id":"pr1"}"#),
            "event.data.reference",
        ),
        (
            body("payment_request.updated", r#"{"reference":" "}"#),
            "event.data.reference",
        ),
        (
            body("onchain_tx.updated", r#"{"status":"x"}"#),
            "event.data.id",
        ),
        (body("fiat_payout.updated", r#"{"id":"f1"}"#), "event"),
        (body("chargeback.initiated", r#"{"id":"c1"}"#), "event"),
        (body("refund.created", r#"{"id":"r1"}"#), "event"),
    ] {
        let e = ok(&h, &b, &[TOKEN]).read_back().unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field))
        );
    }
    // As the npm package shows the type: "unknown" has no read-back either.
    assert_eq!(
        read_back(Some("unknown"), Some("r"), Some("i"))
            .unwrap_err()
            .field
            .as_deref(),
        Some("event")
    );
    assert_eq!(
        read_back(None, Some("r"), Some("i"))
            .unwrap_err()
            .field
            .as_deref(),
        Some("event")
    );
}

proptest! {
    #[test]
    fn only_an_exact_token_passes(presented in proptest::collection::vec(any::<u8>(), 0..40), token in "[ -~]{1,40}") {
        let b = body("x.y", "{}");
        let r = Verifier::default().verify([("x-cashramp-token", presented.as_slice())], &b, &[token.as_str()]);
        prop_assert_eq!(r.is_ok(), presented == token.as_bytes());
    }

    #[test]
    fn a_token_with_any_one_byte_changed_fails(token in "[!-~]{1,64}", at in any::<prop::sample::Index>(), delta in 1u8..=255) {
        let mut near = token.clone().into_bytes();
        let i = at.index(near.len());
        near[i] = near[i].wrapping_add(delta);
        let b = body("x.y", "{}");
        let v = Verifier::default();
        prop_assert!(v.verify([("x-cashramp-token", near.as_slice())], &b, &[token.as_str()]).is_err());
        prop_assert!(v.verify([("x-cashramp-token", token.as_bytes())], &b, &[token.as_str()]).is_ok());
    }

    #[test]
    fn any_body_is_an_event_or_a_clean_refusal(raw in proptest::collection::vec(any::<u8>(), 0..200)) {
        match Verifier::default().parse(&raw) {
            Ok(e) => prop_assert_eq!(e.raw.as_bytes(), &raw[..]),
            Err(e) => prop_assert_eq!(e.code, Code::InvalidInput),
        }
    }

    #[test]
    fn any_object_data_with_any_type_is_never_a_panic(t in "[a-z_.]{1,20}", id in "[a-zA-Z0-9]{0,12}", status in "[A-Z]{0,10}") {
        let b = body(&t, &format!(r#"{{"id":"{id}","status":"{status}"}}"#));
        let e = Verifier::default().parse(&b).unwrap();
        prop_assert_eq!(e.key, serde_json::json!([t, id, status]).to_string());
    }
}
