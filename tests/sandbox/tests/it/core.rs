//! The core without its HTTP shell (what the in-process fake runs): requests answered by
//! `AppState::admit` and `Admitted::answer`, the observed-schema check with extras off, faults
//! queued with `fail_next` (and `hang`), and the hand-moved clock.

use std::sync::Arc;

use futures_util::FutureExt;
use serde_json::{json, Value};
use settlement_sandbox::clock::Clock;
use settlement_sandbox::data::{AGENT_KEY, MERCHANT_SECRET_KEY};
use settlement_sandbox::service::{Answer, CoreRequest, Endpoint};
use settlement_sandbox::{AppState, Config, ServiceOptions};

fn core(extras: bool, now_ms: i64) -> Arc<AppState> {
    AppState::with_options(
        Config::for_tests(),
        ServiceOptions {
            extras,
            clock: Clock::manual(now_ms),
            seed: 0,
        },
    )
}

fn request(endpoint: Endpoint, key: &str, body: Value) -> CoreRequest {
    CoreRequest {
        endpoint,
        authorization: Some(format!("Bearer {key}").into_bytes()),
        content_type: Some("application/json".into()),
        header_names: vec!["authorization".into(), "content-type".into()],
        tag: None,
        fault: None,
        body: Some(body.to_string().into_bytes()),
    }
}

/// The answer, the core's future being ready at once (it does no I/O); `None` for a drop.
fn answer(state: &Arc<AppState>, req: CoreRequest) -> Option<(u16, Value)> {
    let answer = match state.admit(req) {
        Err(a) => a,
        Ok(admitted) => admitted.answer().now_or_never().expect("ready at once"),
    };
    match answer {
        Answer::Respond(r) => Some((r.status, serde_json::from_slice(&r.body).unwrap())),
        Answer::Drop(mut log) => {
            log.record(0);
            None
        }
    }
}

#[test]
fn extras_off_refuses_what_the_service_does_not_show_and_extras_on_serves_it() {
    let strict = core(false, 1_790_000_000_000);
    let demo = core(true, 1_790_000_000_000);
    let totp = json!({"query": "{ profile { id totp { enabled } } }"});
    let (status, body) = answer(&strict, request(Endpoint::Bot, AGENT_KEY, totp.clone())).unwrap();
    assert_eq!(status, 200);
    assert_eq!(body["data"], Value::Null);
    assert_eq!(
        body["errors"][0]["message"],
        "Unknown field \"totp\" on type \"AgentProfile\"."
    );
    assert_eq!(
        body["errors"][0]["extensions"]["code"],
        "GRAPHQL_VALIDATION_FAILED"
    );
    let (_, body) = answer(&demo, request(Endpoint::Bot, AGENT_KEY, totp)).unwrap();
    assert!(
        body["data"]["profile"]["totp"]["enabled"].is_boolean(),
        "{body}"
    );

    let canceled = json!({
        "query": "query H($f: OrderHistoryFilter) { orderHistory(page: 1, filter: $f) { data { id } } }",
        "variables": {"f": {"status": "canceled"}}
    });
    let (_, body) = answer(&strict, request(Endpoint::Bot, AGENT_KEY, canceled.clone())).unwrap();
    assert_eq!(body["data"], Value::Null);
    assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT");
    let (_, body) = answer(&demo, request(Endpoint::Bot, AGENT_KEY, canceled)).unwrap();
    assert!(!body["data"]["orderHistory"]["data"]
        .as_array()
        .unwrap()
        .is_empty());

    // An observed document is served the same either way.
    let completed = json!({
        "query": "query H($f: OrderHistoryFilter) { orderHistory(page: 1, filter: $f) { data { id status } } }",
        "variables": {"f": {"status": "completed"}}
    });
    assert_eq!(
        answer(
            &strict,
            request(Endpoint::Bot, AGENT_KEY, completed.clone())
        ),
        answer(&demo, request(Endpoint::Bot, AGENT_KEY, completed))
    );
}

#[test]
fn fail_next_applies_to_the_next_requests_only_and_drop_after_acts() {
    let state = core(false, 1_790_000_000_000);
    let profile = json!({"query": "{ profile { id } }"});
    state.fail_next(2, "status=503; retry-after=3").unwrap();
    for _ in 0..2 {
        let (status, body) =
            answer(&state, request(Endpoint::Bot, AGENT_KEY, profile.clone())).unwrap();
        assert_eq!(status, 503);
        assert_eq!(
            body["errors"][0]["extensions"]["code"],
            "SERVICE_UNAVAILABLE"
        );
    }
    assert_eq!(
        answer(&state, request(Endpoint::Bot, AGENT_KEY, profile.clone()))
            .unwrap()
            .0,
        200
    );
    assert!(state.fail_next(1, "fail-first=2").is_err());
    assert!(state.fail_next(1, "nonsense").is_err());

    // drop-after: the mutation takes effect, no answer.
    let order = state.store.create_pending_order(
        0,
        Some(settlement_sandbox::data::PaymentType::Withdrawal),
        1_790_000_000,
    );
    state.fail_next(1, "drop-after").unwrap();
    let accept = json!({
        "query": "mutation A($p: ID!) { acceptWithdrawal(p2pPayment: $p) }",
        "variables": {"p": order.id.as_str()}
    });
    assert_eq!(
        answer(&state, request(Endpoint::Bot, AGENT_KEY, accept)),
        None
    );
    let orders = &state.store.agents[0].state().orders;
    let moved = orders.iter().find(|o| o.id == order.id).unwrap();
    assert_eq!(format!("{:?}", moved.status), "PickedUp");
    let log = state.log_entries(None);
    let statuses: Vec<u16> = log.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [503, 503, 200, 0]);
    assert_eq!(log[0].fault.as_deref(), Some("status=503; retry-after=3"));
}

#[test]
fn hang_is_a_decision_for_the_shell_and_a_dropped_admission_is_logged_as_gone() {
    let state = core(false, 1_790_000_000_000);
    state.fail_next(1, "hang").unwrap();
    let admitted = state
        .admit(request(
            Endpoint::Bot,
            AGENT_KEY,
            json!({"query": "{ profile { id } }"}),
        ))
        .ok()
        .unwrap();
    assert!(admitted.hangs());
    drop(admitted);
    assert_eq!(state.log_entries(None)[0].status, 499);
    assert!(settlement_sandbox::fault::FaultSpec::parse("hang; status=500").is_err());
    assert!(settlement_sandbox::fault::FaultSpec::parse("hang; fail-first=1").is_ok());
}

#[test]
fn the_clock_is_the_one_given_and_moves_when_told() {
    let start = 1_790_000_000_000; // 2026-09-21T...
    let state = core(false, start);
    let w = json!({
        "query": "mutation W($a: String!, $u: Decimal!) { withdrawOnchain(address: $a, amountUsd: $u) { id createdAt } }",
        "variables": {"a": format!("0x{}", "ab".repeat(20)), "u": "25.00"}
    });
    let (_, body) = answer(
        &state,
        request(Endpoint::Merchant, MERCHANT_SECRET_KEY, w.clone()),
    )
    .unwrap();
    let first = body["data"]["withdrawOnchain"]["createdAt"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(state.store.clock.advance_ms(86_400_000), start + 86_400_000);
    let (_, body) = answer(&state, request(Endpoint::Merchant, MERCHANT_SECRET_KEY, w)).unwrap();
    let second = body["data"]["withdrawOnchain"]["createdAt"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        first,
        settlement_sandbox::dates::format_datetime(start / 1000)
    );
    assert_eq!(
        second,
        settlement_sandbox::dates::format_datetime(start / 1000 + 86_400)
    );
}
