//! The watch's schedule and diff, driven with a fake clock and scripted responses.

use super::*;
use crate::config::ClientOptions;
use crate::transport::{HttpResponse, TransportError};
use crate::types::OrderHistoryFilter;
use serde_json::json;

fn config() -> Config {
    let options = ClientOptions {
        endpoint: Some("https://settlement.invalid/graphql".into()),
        api_key: Some("SBX-SECK_q7Zr9Vx2secret".into()),
        ..ClientOptions::default()
    };
    Config::new(&options, "/unused").unwrap()
}

fn watch(interval: i64, max: i64) -> Watch {
    Watch::new(WatchOrdersArgs {
        interval_ms: Some(interval),
        max_interval_ms: Some(max),
        ..Default::default()
    })
    .unwrap()
}

fn row(id: &str, status: &str) -> Json {
    json!({"id": id, "status": status})
}

fn page(rows: &[Json], total: i64) -> Result<HttpResponse, TransportError> {
    let body = json!({"data": {"orderHistory": {"data": rows, "pagination": {"page": 1, "perPage": 25, "total": total}}}});
    Ok(HttpResponse {
        status: 200,
        retry_after: None,
        headers: Vec::new(),
        body: body.to_string(),
    })
}

fn status(code: u16, retry_after: Option<&str>) -> Result<HttpResponse, TransportError> {
    Ok(HttpResponse {
        status: code,
        retry_after: retry_after.map(str::to_owned),
        headers: Vec::new(),
        body: String::new(),
    })
}

fn attempt(sent: Result<HttpResponse, TransportError>, random: f64) -> Attempt {
    Attempt {
        number: 0,
        sent,
        aborted: false,
        now_ms: 0.0,
        random,
    }
}

/// Sends the poll due at `now` (asserting it is due) and settles it with `sent`.
fn poll(w: &mut Watch, now: f64, sent: Result<HttpResponse, TransportError>) {
    assert_eq!(w.step(now), Command::Send, "a poll is due at {now}");
    let _ = w.settle(&config(), attempt(sent, 0.5), now);
}

fn ids(rows: &[Json]) -> Vec<&str> {
    rows.iter().map(|r| r["id"].as_str().unwrap()).collect()
}

#[test]
fn options_are_checked_and_defaulted() {
    let w = Watch::new(WatchOrdersArgs::default()).unwrap();
    assert_eq!(
        w.schedule(),
        Schedule {
            interval_ms: 10_000,
            max_interval_ms: 300_000,
            pause_when_hidden: true
        }
    );
    let body: Json = serde_json::from_str(w.call().body()).unwrap();
    assert_eq!(body["variables"]["perPage"], 25);
    assert_eq!(body["variables"]["page"], 1);
    assert!(w.call().is_retryable());
    let long = Schedule::new(Some(600_000), None, Some(false)).unwrap();
    assert_eq!(long.max_interval_ms, 600_000);
    assert!(!long.pause_when_hidden);
    for (interval, max, field) in [
        (Some(999), None, "intervalMs"),
        (Some(2_147_483_648), None, "intervalMs"),
        (Some(5_000), Some(4_999), "maxIntervalMs"),
    ] {
        let e = Schedule::new(interval, max, None).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{interval:?} {max:?}");
    }
    let e = Watch::new(WatchOrdersArgs {
        per_page: Some(0),
        ..Default::default()
    })
    .err()
    .unwrap();
    assert_eq!(e.field.as_deref(), Some("perPage"));
}

#[test]
fn id_and_status_are_always_selected() {
    let w = Watch::new(WatchOrdersArgs {
        fields: Some(vec!["amount".into()]),
        filter: OrderHistoryFilter {
            status: Some("pending".into()),
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap();
    let body: Json = serde_json::from_str(w.call().body()).unwrap();
    let query = body["query"].as_str().unwrap();
    assert!(query.contains("data { amount id status }"), "{query}");
    assert_eq!(body["variables"]["filter"], json!({"status": "pending"}));
}

#[test]
fn one_poll_at_a_time_then_the_interval_after_it_settled() {
    let mut w = watch(1_000, 8_000);
    assert_eq!(w.step(0.0), Command::Send);
    // In flight: nothing else is sent, however late it gets.
    assert_eq!(w.step(50_000.0), Command::Idle);
    assert_eq!(w.status(50_000.0).state, State::Polling);
    assert_eq!(w.status(50_000.0).next_poll_in_ms, None);
    let _ = w.settle(&config(), attempt(page(&[], 0), 0.5), 60_000.0);
    // Next: interval after it settled, not after it started.
    assert_eq!(w.step(60_000.0), Command::Sleep(1_000));
    assert_eq!(w.step(60_400.0), Command::Sleep(600));
    assert_eq!(w.status(60_400.0).next_poll_in_ms, Some(600));
    assert_eq!(w.step(61_000.0), Command::Send);
}

#[test]
fn retryable_failures_back_off_doubling_with_jitter_up_to_the_cap() {
    let mut w = watch(1_000, 8_000);
    let mut now = 0.0;
    let mut waits = vec![];
    for _ in 0..6 {
        assert_eq!(w.step(now), Command::Send);
        let backoff = w.settle(&config(), attempt(status(503, None), 0.0), now);
        let Command::Sleep(ms) = w.step(now) else {
            panic!("expected a wait")
        };
        // What the poll's `retry` event shows: the wait the watch chose, and why.
        let expected = crate::events::Backoff {
            delay_ms: ms,
            reason: crate::events::RetryReason::Status,
            status: Some(503),
        };
        assert_eq!(backoff.unwrap(), Some(expected));
        assert_eq!(w.status(now).state, State::Retrying);
        assert_eq!(w.status(now).error.unwrap().status, Some(503));
        waits.push(ms);
        now += ms as f64;
    }
    // Lowest jitter: half of interval * 2^failures, capped at 8 s.
    assert_eq!(waits, [1_000, 2_000, 4_000, 4_000, 4_000, 4_000]);
    // Highest jitter: the ceiling itself.
    let s = w.schedule();
    assert_eq!(s.backoff_ms(1, None, 1.0), 2_000);
    assert_eq!(s.backoff_ms(2, None, 1.0), 4_000);
    assert_eq!(s.backoff_ms(3, None, 1.0), 8_000);
    assert_eq!(s.backoff_ms(40, None, 1.0), 8_000);
    assert_eq!(s.backoff_ms(u32::MAX, None, f64::NAN), 4_000);
    // A success: the interval again, and polling.
    assert_eq!(w.step(now), Command::Send);
    assert_eq!(
        w.settle(&config(), attempt(page(&[], 0), 0.0), now)
            .unwrap(),
        None
    );
    assert_eq!(w.step(now), Command::Sleep(1_000));
    assert_eq!(w.status(now).state, State::Polling);
    assert!(w.status(now).error.is_none());
}

#[test]
fn network_errors_timeouts_and_429_are_retried_with_retry_after_honoured() {
    let mut w = watch(1_000, 60_000);
    poll(&mut w, 0.0, Err(TransportError::Network("down".into())));
    assert!(matches!(w.step(0.0), Command::Sleep(_)));
    let mut now = 100_000.0;
    poll(&mut w, now, Err(TransportError::Timeout));
    assert!(matches!(w.step(now), Command::Sleep(_)));
    now = 200_000.0;
    poll(&mut w, now, status(429, Some("30")));
    assert_eq!(w.step(now), Command::Sleep(30_000));
    assert_eq!(w.status(now).error.unwrap().code, Code::RateLimited);
    // Retry-After above the cap: the cap.
    now = 300_000.0;
    poll(&mut w, now, status(429, Some("600")));
    assert_eq!(w.step(now), Command::Sleep(60_000));
}

#[test]
fn a_failure_that_is_not_retryable_ends_the_watch_with_its_error_redacted() {
    for sent in [
        status(401, None),
        status(403, None),
        Ok(HttpResponse {
            status: 200,
            retry_after: None,
            headers: Vec::new(),
            body: r#"{"errors":[{"message":"bad key SBX-SECK_q7Zr9Vx2secret"}]}"#.into(),
        }),
    ] {
        let mut w = watch(1_000, 8_000);
        assert_eq!(w.step(0.0), Command::Send);
        // What the poll's `error` event shows: the error the watch ends with, redacted.
        let ended = w.settle(&config(), attempt(sent, 0.5), 0.0).unwrap_err();
        assert!(!format!("{ended:?}").contains("q7Zr9Vx2"), "{ended:?}");
        assert_eq!(w.step(0.0), Command::Stop);
        assert_eq!(w.status(0.0).state, State::Stopped);
        let e = w.take_error().expect("the error");
        assert!(!format!("{e:?}").contains("q7Zr9Vx2"), "{e:?}");
        assert!(w.take_error().is_none(), "given once");
        assert!(w.status(0.0).error.is_some(), "the status keeps it");
    }
}

#[test]
fn stop_and_abort_end_the_watch_and_nothing_more_is_sent() {
    let mut w = watch(1_000, 8_000);
    assert_eq!(w.step(0.0), Command::Send);
    w.stop();
    // What the aborted poll brings is ignored.
    let _ = w.settle(
        &config(),
        attempt(page(&[row("a", "pending")], 1), 0.5),
        10.0,
    );
    assert!(w.take_update().is_none());
    assert_eq!(w.step(99_999.0), Command::Stop);
    assert_eq!(w.status(0.0).state, State::Stopped);
    assert!(w.take_error().is_none());

    let mut w = watch(1_000, 8_000);
    assert_eq!(w.step(0.0), Command::Send);
    let mut aborted = attempt(page(&[], 0), 0.5);
    aborted.aborted = true;
    let _ = w.settle(&config(), aborted, 10.0);
    assert_eq!(w.step(99_999.0), Command::Stop);
    assert!(
        w.take_error().is_none(),
        "an abort is an end, not a failure"
    );
}

#[test]
fn a_hidden_page_pauses_and_polls_at_once_when_visible() {
    let mut w = watch(10_000, 80_000);
    poll(&mut w, 0.0, page(&[], 0));
    w.set_hidden(true, 1_000.0);
    assert_eq!(w.step(1_000.0), Command::Idle);
    // Long past the due time: still nothing while hidden.
    assert_eq!(w.step(600_000.0), Command::Idle);
    assert_eq!(w.status(600_000.0).state, State::Paused);
    assert_eq!(w.status(600_000.0).next_poll_in_ms, None);
    w.set_hidden(false, 600_000.0);
    poll(&mut w, 600_000.0, page(&[], 0));
    assert_eq!(w.step(600_000.0), Command::Sleep(10_000));
    // Hidden for a moment before the poll was due: visible again polls at once.
    w.set_hidden(true, 601_000.0);
    w.set_hidden(false, 602_000.0);
    assert_eq!(w.step(602_000.0), Command::Send);
}

#[test]
fn visible_again_waits_for_a_retry_after() {
    let mut w = watch(1_000, 60_000);
    poll(&mut w, 0.0, status(429, Some("30")));
    w.set_hidden(true, 1_000.0);
    w.set_hidden(false, 2_000.0);
    assert_eq!(w.step(2_000.0), Command::Sleep(28_000));
}

#[test]
fn without_pause_when_hidden_the_page_visibility_is_ignored() {
    let mut w = Watch::new(WatchOrdersArgs {
        pause_when_hidden: Some(false),
        ..Default::default()
    })
    .unwrap();
    w.set_hidden(true, 0.0);
    assert_eq!(w.step(0.0), Command::Send);
}

#[test]
fn the_first_update_adds_every_row_then_only_changes_are_delivered() {
    let mut w = watch(1_000, 8_000);
    poll(
        &mut w,
        0.0,
        page(&[row("a", "pending"), row("b", "pending")], 2),
    );
    let u = w.take_update().expect("the first update");
    assert_eq!(ids(&u.rows), ["a", "b"]);
    assert_eq!(ids(&u.added), ["a", "b"]);
    assert!(u.changed.is_empty() && u.removed.is_empty());
    assert_eq!(u.total, Some(2.0));
    // The same page: no update.
    poll(
        &mut w,
        1_000.0,
        page(&[row("a", "pending"), row("b", "pending")], 2),
    );
    assert!(w.take_update().is_none());
    // One changed, one removed, one added.
    poll(
        &mut w,
        2_000.0,
        page(&[row("c", "pending"), row("a", "picked_up")], 2),
    );
    let u = w.take_update().expect("an update");
    assert_eq!(ids(&u.rows), ["c", "a"]);
    assert_eq!(ids(&u.added), ["c"]);
    assert_eq!(ids(&u.removed), ["b"]);
    assert_eq!(u.changed.len(), 1);
    assert_eq!(u.changed[0].before, row("a", "pending"));
    assert_eq!(u.changed[0].after, row("a", "picked_up"));
    // Only the total moved (a row beyond the first page): an update with no row lists.
    poll(
        &mut w,
        3_000.0,
        page(&[row("c", "pending"), row("a", "picked_up")], 3),
    );
    let u = w.take_update().expect("an update");
    assert!(u.added.is_empty() && u.changed.is_empty() && u.removed.is_empty());
    assert_eq!(u.total, Some(3.0));
}

#[test]
fn an_empty_first_page_is_still_a_first_update() {
    let mut w = watch(1_000, 8_000);
    assert!(w.take_update().is_none(), "nothing polled yet");
    poll(&mut w, 0.0, page(&[], 0));
    let u = w.take_update().expect("the first update");
    assert!(u.rows.is_empty() && u.added.is_empty());
    assert_eq!(u.total, Some(0.0));
}

#[test]
fn polls_missed_by_a_slow_consumer_are_coalesced_against_the_last_delivered() {
    let mut w = watch(1_000, 8_000);
    poll(&mut w, 0.0, page(&[row("a", "pending")], 1));
    w.take_update().unwrap();
    // Three polls before the consumer asks again: b came and went, a changed twice.
    poll(
        &mut w,
        1_000.0,
        page(&[row("a", "picked_up"), row("b", "pending")], 2),
    );
    poll(
        &mut w,
        2_000.0,
        page(&[row("a", "paid"), row("b", "pending")], 2),
    );
    poll(
        &mut w,
        3_000.0,
        page(&[row("a", "paid"), row("c", "pending")], 2),
    );
    let u = w.take_update().expect("one coalesced update");
    assert_eq!(
        ids(&u.added),
        ["c"],
        "b was never delivered, so never removed"
    );
    assert!(u.removed.is_empty());
    assert_eq!(u.changed.len(), 1);
    assert_eq!(u.changed[0].before["status"], "pending");
    assert_eq!(u.changed[0].after["status"], "paid");
    assert!(w.take_update().is_none());
    // A change undone before it was delivered is no change.
    poll(
        &mut w,
        4_000.0,
        page(&[row("a", "canceled"), row("c", "pending")], 2),
    );
    poll(
        &mut w,
        5_000.0,
        page(&[row("a", "paid"), row("c", "pending")], 2),
    );
    assert!(w.take_update().is_none());
}

#[test]
fn a_failed_poll_keeps_the_undelivered_snapshot() {
    let mut w = watch(1_000, 8_000);
    poll(&mut w, 0.0, page(&[row("a", "pending")], 1));
    poll(&mut w, 1_000.0, status(502, None));
    let u = w.take_update().expect("the snapshot before the failure");
    assert_eq!(ids(&u.added), ["a"]);
    // And a fatal failure after a success: the update first, then the error.
    poll(&mut w, 10_000.0, page(&[row("b", "pending")], 1));
    poll(&mut w, 20_000.0, status(401, None));
    assert_eq!(ids(&w.take_update().unwrap().added), ["b"]);
    assert_eq!(w.take_error().unwrap().code, Code::Unauthorized);
}

#[test]
fn a_500_no_longer_ends_the_watch() {
    for code in [500, 501, 503, 505, 599] {
        let mut w = watch(1_000, 8_000);
        poll(&mut w, 0.0, status(code, None));
        assert!(matches!(w.step(0.0), Command::Sleep(_)), "{code}");
        assert_eq!(w.status(0.0).state, State::Retrying);
        assert_eq!(w.status(0.0).error.unwrap().status, Some(code));
        assert!(w.take_error().is_none());
    }
    // Other 4xx cannot be cured by polling again: they end it, as 401 and 403 do.
    let mut w = watch(1_000, 8_000);
    poll(&mut w, 0.0, status(404, None));
    assert_eq!(w.step(0.0), Command::Stop);
}

/// Ten minutes of 503s, connection failures and 500s on a virtual clock, with the defaults
/// (`intervalMs` 10 s, `maxIntervalMs` 300 s): the backoff's waits are at least half their
/// ceiling, 10, 20, 40, 80, 150, 150, … s, so at most 8 polls go in 600 s (at 0, 10, 30, 70,
/// 150, 300, 450 and 600 s); after recovery the first poll comes within one cap of the last
/// failure, delivers one update, and the interval is 10 s again.
#[test]
fn a_ten_minute_outage_sends_no_more_than_the_backoff_allows() {
    const OUTAGE_MS: f64 = 600_000.0;
    const MOST_POLLS: usize = 8;
    for seed in 0..64u64 {
        let mut w = Watch::new(WatchOrdersArgs::default()).unwrap();
        let cap = w.schedule().max_interval_ms as f64;
        let mut rng = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut random = move || {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut now = 0.0;
        let mut sent = 0;
        let mut last_failure = 0.0;
        let first_after = loop {
            match w.step(now) {
                Command::Send if now <= OUTAGE_MS => {
                    sent += 1;
                    let failure = match sent % 3 {
                        0 => status(503, None),
                        1 => Err(TransportError::Network("connection refused".into())),
                        _ => status(500, None),
                    };
                    let _ = w.settle(&config(), attempt(failure, random()), now);
                    assert_eq!(w.status(now).state, State::Retrying);
                    assert!(w.status(now).error.is_some());
                    last_failure = now;
                }
                Command::Send => break now,
                Command::Sleep(ms) => now += ms as f64,
                other => panic!("the watch went {other:?} during the outage"),
            }
        };
        assert!(
            sent <= MOST_POLLS,
            "seed {seed}: {sent} polls in 10 minutes"
        );
        assert!(sent >= 6, "seed {seed}: {sent} polls");
        assert!(first_after - last_failure <= cap, "seed {seed}");
        assert!(first_after - OUTAGE_MS <= cap, "seed {seed}");
        assert!(w.take_update().is_none());
        let _ = w.settle(
            &config(),
            attempt(page(&[row("a", "paid")], 1), 0.5),
            first_after,
        );
        assert_eq!(w.status(first_after).state, State::Polling);
        assert!(w.status(first_after).error.is_none());
        assert_eq!(ids(&w.take_update().expect("one update").rows), ["a"]);
        assert!(w.take_update().is_none(), "one update");
        assert_eq!(
            w.step(first_after),
            Command::Sleep(10_000),
            "the interval again"
        );
    }
}
