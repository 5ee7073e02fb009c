use std::sync::{Arc, Mutex};

use futures::executor::block_on;

use super::*;
use crate::bot::BotClient;
use crate::config::BotOptions;
use crate::testing::FakeTransport;
use crate::transport::TransportError;
use crate::types::FieldOptions;

const KEY: &str = "XYZ-SECK_q7Zr9Vx2secret";
const PROFILE: &str = r#"{"data":{"profile":{"id":"agent-1"}}}"#;

fn client() -> BotClient<FakeTransport> {
    let options = BotOptions {
        base_url: Some("https://api.example.com/".into()),
        api_key: Some(KEY.into()),
        ..Default::default()
    };
    BotClient::with_transport(options, FakeTransport::new(7)).expect("valid options")
}

/// Every event the client emits, of every type, in order.
fn record(c: &BotClient<FakeTransport>) -> Arc<Mutex<Vec<Event>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let listener: Listener = Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone()));
    for t in EventType::ALL {
        c.on(t, Arc::clone(&listener));
    }
    seen
}

fn names(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(|e| e.event_type().name()).collect()
}

#[test]
fn a_503_then_200_is_two_requests_a_retry_two_responses_and_done_sharing_the_id() {
    let c = client();
    c.transport().http(503, "").http(200, PROFILE);
    let seen = record(&c);
    let p = block_on(c.profile(FieldOptions::default())).unwrap();
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    let events = seen.lock().unwrap();
    assert_eq!(
        names(&events),
        ["request", "response", "retry", "request", "response", "done"]
    );
    let id = &events[0].call().id;
    assert!(events.iter().all(|e| &e.call().id == id));
    assert_eq!(events[0].call().operation, "profile");
    assert_eq!(events[0].call().kind, "query");
    assert_eq!(events[0].call().source, Source::Call);
    match (&events[1], &events[2], &events[4], &events[5]) {
        (
            Event::Response {
                response: first,
                attempt: 1,
                ..
            },
            Event::Retry {
                backoff,
                attempt: 1,
                ..
            },
            Event::Response {
                response: second,
                attempt: 2,
                ..
            },
            Event::Done { attempts: 2, .. },
        ) => {
            assert_eq!((first.status, second.status), (503, 200));
            assert_eq!(backoff.reason, RetryReason::Status);
            assert_eq!(backoff.status, Some(503));
            assert_eq!(c.transport().sleeps.borrow()[0], backoff.delay_ms);
        }
        _ => panic!("unexpected events {events:?}"),
    }
    match &events[3] {
        Event::Request {
            attempt: 2, url, ..
        } => assert_eq!(url, "https://api.example.com/service/bot/graphql"),
        e => panic!("unexpected {e:?}"),
    }
}

#[test]
fn retry_reasons_name_the_cause() {
    let c = client();
    c.transport()
        .http_retry_after(429, "0", "")
        .fail(TransportError::Timeout)
        .http(200, PROFILE)
        .fail(TransportError::Network("reset".into()))
        .http(200, PROFILE);
    let seen = record(&c);
    block_on(c.profile(FieldOptions::default())).unwrap();
    block_on(c.profile(FieldOptions::default())).unwrap();
    let reasons: Vec<_> = seen
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            Event::Retry { backoff, .. } => Some(backoff.reason.name()),
            _ => None,
        })
        .collect();
    assert_eq!(reasons, ["retry-after", "timeout", "network"]);
}

#[test]
fn a_401_ends_in_an_error_event_then_done() {
    let c = client();
    c.transport()
        .http(401, r#"{"errors":[{"message":"bad key"}]}"#);
    let seen = record(&c);
    let e = block_on(c.profile(FieldOptions::default())).unwrap_err();
    assert_eq!(e.code_str(), "unauthorized");
    let events = seen.lock().unwrap();
    assert_eq!(names(&events), ["request", "response", "error", "done"]);
    match &events[2] {
        Event::Error { error, .. } => assert_eq!(error.code_str(), "unauthorized"),
        e => panic!("unexpected {e:?}"),
    }
}

#[test]
fn an_echoed_key_never_reaches_an_event_a_log_line_or_the_error() {
    let c = client();
    *c.transport().response_headers.borrow_mut() = vec![
        ("X-Echo".into(), format!("Bearer {KEY}")),
        ("x-piece".into(), "..q7Zr9Vx2..".into()),
        ("Set-Cookie".into(), "session=abc".into()),
        ("X-Request-Id".into(), "req-42".into()),
    ];
    c.transport()
        .http(503, "")
        .http(401, &format!(r#"{{"errors":[{{"message":"bad {KEY}"}}]}}"#));
    let seen = record(&c);
    let e = block_on(c.profile(FieldOptions::default())).unwrap_err();
    let events = seen.lock().unwrap();
    let mut text = format!("{e:?}");
    for event in events.iter() {
        text.push_str(&format!("{event:?}"));
        if let Some((_, line)) = event.log_line() {
            text.push_str(&line);
        }
    }
    for start in 0..=KEY.len() - 8 {
        let piece = &KEY[start..start + 8];
        assert!(!text.contains(piece), "{piece} leaked: {text}");
    }
    assert!(!text.to_ascii_lowercase().contains("set-cookie"), "{text}");
    // The npm build's errors get them from its shell instead.
    #[cfg(not(feature = "npm-base"))]
    {
        assert_eq!(e.request_id.as_deref(), Some("req-42"));
        assert!(e.headers.iter().any(|(n, _)| n == "x-echo"));
    }
}

#[test]
fn a_panicking_listener_leaves_the_result_and_off_stops_delivery() {
    let c = client();
    c.transport().http(200, PROFILE).http(200, PROFILE);
    let count = Arc::new(Mutex::new(0));
    let counter = Arc::clone(&count);
    let listener: Listener = Arc::new(move |_: &Event| {
        *counter.lock().unwrap() += 1;
        panic!("listener bug");
    });
    c.on(EventType::Request, Arc::clone(&listener));
    c.on(EventType::Request, Arc::clone(&listener));
    let p = block_on(c.profile(FieldOptions::default())).unwrap();
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert_eq!(*count.lock().unwrap(), 1, "added once");
    c.off(EventType::Request, &listener);
    block_on(c.profile(FieldOptions::default())).unwrap();
    assert_eq!(*count.lock().unwrap(), 1, "no delivery after off");
}

#[test]
fn the_response_behind_a_result_comes_from_the_same_request() {
    let c = client();
    *c.transport().response_headers.borrow_mut() = vec![("request-id".into(), " r-7 ".into())];
    c.transport().http(200, PROFILE);
    let call = c
        .prepare_request("{ profile { id } }", None, Default::default())
        .unwrap();
    let (value, response) = block_on(c.execute_with_response(&call)).unwrap();
    assert_eq!(value["profile"]["id"], "agent-1");
    assert_eq!(response.status, 200);
    assert_eq!(response.request_id.as_deref(), Some("r-7"));
    assert_eq!(c.transport().sent(), 1);
}

#[test]
fn with_response_gives_a_typed_value_and_the_response_of_the_first_call_its_client_made() {
    let c = client();
    *c.transport().response_headers.borrow_mut() = vec![
        ("x-request-id".into(), "r-9".into()),
        ("set-cookie".into(), "s=1".into()),
    ];
    c.transport().http(503, "").http(200, PROFILE);
    let (profile, response) = block_on(
        c.with_response(|scoped| async move { scoped.profile(FieldOptions::default()).await }),
    )
    .unwrap();
    assert_eq!(profile.id.as_deref(), Some("agent-1"));
    // The answer behind the value (after the retry), not the 503 before it.
    assert_eq!(response.status, 200);
    assert_eq!(response.request_id.as_deref(), Some("r-9"));
    assert!(response.headers.iter().all(|(n, _)| n != "set-cookie"));
    assert_eq!(c.transport().sent(), 2, "no second request");

    // Only the first call of the scope is observed; the second's answer is not the response.
    c.transport().http(200, PROFILE).http(201, PROFILE);
    let (_, response) = block_on(c.with_response(|scoped| async move {
        scoped.profile(FieldOptions::default()).await?;
        scoped.profile(FieldOptions::default()).await
    }))
    .unwrap();
    assert_eq!(response.status, 200);
}

#[test]
fn with_response_without_a_call_is_invalid_input_naming_call_and_a_failed_call_keeps_its_error() {
    let c = client();
    let e = block_on(c.with_response(|_scoped| async { Ok::<_, Error>(1) })).unwrap_err();
    assert_eq!(
        (e.code_str(), e.field.as_deref()),
        ("invalid_input", Some("call"))
    );
    assert_eq!(c.transport().sent(), 0);

    *c.transport().response_headers.borrow_mut() = vec![("x-request-id".into(), "r-401".into())];
    c.transport().http(401, "");
    let e = block_on(
        c.with_response(|scoped| async move { scoped.profile(FieldOptions::default()).await }),
    )
    .unwrap_err();
    assert_eq!(e.code_str(), "unauthorized");
    // The npm build's shell sets an error's headers and request id itself.
    #[cfg(not(feature = "npm-base"))]
    assert_eq!(e.request_id.as_deref(), Some("r-401"));
}

#[test]
fn event_types_and_sources_round_trip_by_name() {
    for t in EventType::ALL {
        assert_eq!(EventType::parse(t.name()), Some(t));
    }
    assert_eq!(EventType::parse("Request"), None);
    assert_eq!(EventType::parse(""), None);
    assert_eq!(Source::parse("watchOrders"), Some(Source::WatchOrders));
    assert_eq!(Source::parse("x"), None);
}

#[test]
fn header_blocks_are_read_line_by_line() {
    let pairs: Vec<_> =
        header_lines("a: 1\nB:two: 2\r\nno colon\n\n x-request-id :  r  ").collect();
    assert_eq!(pairs, [("a", "1"), ("B", "two: 2"), ("x-request-id", "r")]);
}

#[test]
fn response_info_filters_cookies_and_prefers_x_request_id() {
    let options = crate::config::ClientOptions {
        endpoint: Some("https://settlement.invalid/graphql".into()),
        api_key: Some(KEY.into()),
        ..Default::default()
    };
    let config = Config::new(&options, "/unused").unwrap();
    let info = ResponseInfo::new(
        200,
        [
            ("request-id", "second"),
            ("SET-COOKIE2", "a"),
            ("set-cookie", "b"),
            ("X-Request-ID", "first"),
        ],
        &config,
    );
    assert_eq!(info.request_id.as_deref(), Some("first"));
    assert_eq!(info.headers.len(), 2);
}

proptest::proptest! {
    #[test]
    fn no_piece_of_the_key_survives_in_headers(pre in "[a-zA-Z0-9 ]{0,6}", a in 9usize..16, len in 8usize..24) {
        let options = crate::config::ClientOptions {
            endpoint: Some("https://settlement.invalid/graphql".into()),
            api_key: Some(KEY.into()),
            ..Default::default()
        };
        let config = Config::new(&options, "/unused").unwrap();
        let end = (a + len).min(KEY.len());
        let piece = &KEY[a.min(end)..end];
        let value = format!("{pre}{piece}");
        let info = ResponseInfo::new(200, [("x-request-id", value.as_str()), (piece, "v")], &config);
        let text = format!("{info:?}");
        // The secret part (after `XYZ-SECK_`): the kind prefix is public.
        for s in 9..KEY.len().saturating_sub(7) {
            proptest::prop_assert!(!text.contains(&KEY[s..s + 8]));
        }
    }
}

#[test]
fn log_lines_are_one_per_answer_retry_and_failure_with_whole_milliseconds() {
    let c = client();
    *c.transport().response_headers.borrow_mut() = vec![("X-Request-Id".into(), "req-7".into())];
    c.transport()
        .http(503, "")
        .http(401, r#"{"errors":[{"message":"bad key"}]}"#);
    let seen = record(&c);
    let _ = block_on(c.profile(FieldOptions::default())).unwrap_err();
    let events = seen.lock().unwrap();
    let lines: Vec<(Level, String)> = events.iter().filter_map(Event::log_line).collect();
    let id = &events[0].call().id;
    let head = format!("settlement-wasm {id} query profile (call): ");
    let Event::Retry { backoff, .. } = &events[2] else {
        panic!("{events:?}")
    };
    let expected = [
        (
            Level::Debug,
            format!("{head}attempt 1: 503 in 0 ms, request id req-7"),
        ),
        (
            Level::Warn,
            format!(
                "{head}attempt 1 failed (status 503), retry in {} ms",
                backoff.delay_ms
            ),
        ),
        (
            Level::Debug,
            format!("{head}attempt 2: 401 in 0 ms, request id req-7"),
        ),
        (
            Level::Error,
            format!("{head}failed: unauthorized bad key (HTTP 401)."),
        ),
    ];
    assert_eq!(lines, expected);
    assert_eq!(
        lines.iter().map(|(l, _)| l.name()).collect::<Vec<_>>(),
        ["debug", "warn", "debug", "error"]
    );
}

#[test]
fn durations_are_whole_milliseconds_rounded() {
    let info = CallInfo {
        id: "call-1".into(),
        operation: "profile",
        kind: "query",
        source: Source::Call,
    };
    let mut t = Trace::new(info, 100.0);
    let _ = t.request(client().config(), 100.0);
    let Event::Response { duration_ms, .. } = t.response(ResponseInfo::default(), 112.6) else {
        panic!()
    };
    assert_eq!(duration_ms, 13);
    let Event::Done { duration_ms, .. } = t.done(f64::NAN) else {
        panic!()
    };
    assert_eq!(duration_ms, 0, "a clock that is not a number");
}

#[test]
fn a_watch_poll_emits_the_watch_backoff_as_retry_and_its_end_as_error_tagged_watch_orders() {
    let c = client();
    c.transport().sleeps_advance_clock.set(true);
    let page =
        r#"{"data":{"orderHistory":{"data":[],"pagination":{"page":1,"perPage":25,"total":0}}}}"#;
    c.transport()
        .http(200, page)
        .http(503, "")
        .http(401, r#"{"errors":[{"message":"bad key"}]}"#);
    let seen = record(&c);
    let mut w = c
        .watch_orders(crate::types::WatchOrdersArgs {
            interval_ms: Some(1_000),
            ..Default::default()
        })
        .unwrap();
    assert!(block_on(w.next()).unwrap().is_some());
    let e = block_on(w.next()).unwrap_err();
    assert_eq!(e.code_str(), "unauthorized");
    let events = seen.lock().unwrap();
    assert_eq!(
        names(&events),
        [
            "request", "response", "done", // the first poll
            "request", "response", "retry", "done", // a 503: the watch backs off
            "request", "response", "error", "done", // a 401 ends it
        ]
    );
    assert!(events
        .iter()
        .all(|e| e.call().source == Source::WatchOrders));
    assert_ne!(
        events[0].call().id,
        events[3].call().id,
        "one call per poll"
    );
    match &events[5] {
        Event::Retry { backoff, .. } => {
            assert_eq!(
                (backoff.reason, backoff.status),
                (RetryReason::Status, Some(503))
            );
            assert_eq!(
                c.transport().sleeps.borrow().last(),
                Some(&backoff.delay_ms)
            );
        }
        e => panic!("unexpected {e:?}"),
    }
}

/// The Rust API's logger: the `log` facade, target `settlement_wasm`. What it received, with
/// the thread that wrote it (each test runs on its own thread).
struct Capture;

type Captured = (std::thread::ThreadId, log::Level, String);
static LINES: Mutex<Vec<Captured>> = Mutex::new(Vec::new());
static CAPTURE: Capture = Capture;

impl log::Log for Capture {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.target() == LOG_TARGET
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            let line = (
                std::thread::current().id(),
                record.level(),
                record.args().to_string(),
            );
            LINES.lock().unwrap().push(line);
        }
    }
    fn flush(&self) {}
}

#[test]
fn the_log_facade_gets_one_line_per_answer_retry_and_failure_without_any_listener() {
    let _ = log::set_logger(&CAPTURE);
    log::set_max_level(log::LevelFilter::Debug);
    let c = client();
    let echoed = format!(r#"{{"errors":[{{"message":"bad key {KEY}"}}]}}"#);
    c.transport().http(503, "").http(401, &echoed);
    let err = block_on(c.profile(FieldOptions::default())).unwrap_err();
    assert_eq!(err.code, crate::error::Code::Unauthorized);
    let me = std::thread::current().id();
    let lines: Vec<(log::Level, String)> = LINES
        .lock()
        .unwrap()
        .iter()
        .filter(|(t, ..)| *t == me)
        .map(|(_, level, line)| (*level, line.clone()))
        .collect();
    let levels: Vec<log::Level> = lines.iter().map(|(l, _)| *l).collect();
    use log::Level::{Debug, Error, Warn};
    assert_eq!(levels, [Debug, Warn, Debug, Error], "{lines:?}");
    assert!(lines[0].1.starts_with("settlement-wasm call-"), "{lines:?}");
    assert!(
        lines[0]
            .1
            .contains(" query profile (call): attempt 1: 503 in "),
        "{lines:?}"
    );
    assert!(
        lines[1]
            .1
            .contains("attempt 1 failed (status 503), retry in "),
        "{lines:?}"
    );
    assert!(lines[3].1.contains("failed: unauthorized "), "{lines:?}");
    for (_, line) in &lines {
        for piece in KEY.as_bytes().windows(8) {
            assert!(
                !line.contains(std::str::from_utf8(piece).unwrap()),
                "{line}"
            );
        }
    }
}
