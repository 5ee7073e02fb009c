//! Confirming an onchain payment until the service reports it settled, with no I/O of its
//! own: the state machine behind `confirmUntilSettled`, in both shells.
//!
//! * [`Poll`]: a bounded poll, how long to wait between tries and how many tries at most.
//!   Its defaults are the service's own mini-app's (every 5 s, 10 tries at most). A piece of
//!   its own so that any other "ask again until" loop can share the same decision.
//! * [`Confirmation`]: `confirmTransaction` sent again and again, as the poll says. Its
//!   [`Confirmation::step`] says what to do: send a confirmation (a prepared call; the
//!   driver runs it to its end and gives its value to [`Confirmation::receive`]), wait, or
//!   stop with the [`ConfirmOutcome`].
//!
//! Each confirmation is a mutation sent once, never retried by the call itself
//! ([`crate::call`]): the loop is what sends `confirmTransaction` again, and it does after a
//! "not yet" (`false`) and after a transient failure alike. A transient failure
//! ([`crate::retry::is_transient`]: every 5xx, 429, timeout, network failure, and the
//! `outcome_unknown` they leave on a mutation) counts as a try and backs off, as the order
//! watch does: the interval (at least [`MIN_BACKOFF_MS`]) doubling with jitter up to
//! [`MAX_BACKOFF_MS`], never less than a `Retry-After`. When the tries run out after one,
//! the loop ends with that failure. Any other error (401, 403, GraphQL errors) ends the loop
//! with it at once. The caller's signal stops the loop between confirmations (`aborted`) as
//! well as during one.

use crate::call::{Attempt, Next, PreparedCall};
use crate::config::Config;
use crate::error::Error;
use crate::events::{Backoff, RetryReason};
use crate::json::JsonValue;
use crate::retry;

/// The first wait after a transient failure, when `intervalMs` is shorter.
pub const MIN_BACKOFF_MS: u64 = 1_000;
/// The longest wait after transient failures in a row (or `intervalMs`, when longer).
pub const MAX_BACKOFF_MS: u64 = 60_000;

/// The service's own mini-app confirms every 5 s...
pub const DEFAULT_INTERVAL_MS: u32 = 5_000;
/// ...10 times at most.
pub const DEFAULT_MAX_TRIES: u32 = 10;
/// The longest wait between two tries a caller may ask for (10 minutes).
pub const MAX_INTERVAL_MS: u32 = 600_000;
/// The most tries a caller may ask for.
pub const MAX_TRIES: u32 = 100;

/// A bounded poll: at most `max_tries` tries, `interval_ms` apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poll {
    interval_ms: u32,
    max_tries: u32,
}

/// `<head><max>`: the message of an option outside `0..=max` or `1..=max`.
fn limit_message(head: &str, max: u32) -> String {
    let mut m = String::from(head);
    crate::text::push_unsigned(&mut m, max.into());
    m
}

impl Default for Poll {
    fn default() -> Poll {
        Poll {
            interval_ms: DEFAULT_INTERVAL_MS,
            max_tries: DEFAULT_MAX_TRIES,
        }
    }
}

impl Poll {
    /// Checks a caller's `intervalMs` (0 to [`MAX_INTERVAL_MS`]) and `maxTries` (1 to
    /// [`MAX_TRIES`]); absent ones take the defaults. A bad value is `invalid_input` naming
    /// it.
    pub fn new(interval_ms: Option<i64>, max_tries: Option<i64>) -> Result<Poll, Error> {
        let d = Poll::default();
        let interval_ms = match interval_ms {
            None => d.interval_ms,
            Some(n) if (0..=i64::from(MAX_INTERVAL_MS)).contains(&n) => n as u32,
            Some(_) => {
                return Err(Error::invalid(
                    "intervalMs",
                    limit_message("intervalMs must be an integer from 0 to ", MAX_INTERVAL_MS),
                ))
            }
        };
        let max_tries = match max_tries {
            None => d.max_tries,
            Some(n) if (1..=i64::from(MAX_TRIES)).contains(&n) => n as u32,
            Some(_) => {
                return Err(Error::invalid(
                    "maxTries",
                    limit_message("maxTries must be an integer from 1 to ", MAX_TRIES),
                ))
            }
        };
        Ok(Poll {
            interval_ms,
            max_tries,
        })
    }

    /// After `tries` tries that each answered "not yet": the wait before the next one, or
    /// `None` when the cap is reached.
    pub fn after(&self, tries: u32) -> Option<u64> {
        (tries < self.max_tries).then_some(u64::from(self.interval_ms))
    }
}

/// How a confirmation loop ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "typescript", derive(tsify::Tsify, serde::Serialize))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
pub struct ConfirmOutcome {
    /// `true`: the service reported the payment request settled. `false`: it still had not
    /// after the last try (the cap); the transfer may settle later: read the request back
    /// (`paymentRequest(reference)`) or confirm again.
    pub settled: bool,
    /// How many confirmations were sent (each answered).
    pub tries: u32,
}

/// What a [`Confirmation`]'s driver does next.
pub enum ConfirmStep {
    /// Run this call (a `confirmTransaction`) to its end, then give its value to
    /// [`Confirmation::receive`]; if it fails, the loop ends with its error.
    Send(PreparedCall),
    /// Wait this many ms, then ask for the next step.
    Wait(u64),
    /// Stop: the outcome.
    Done(ConfirmOutcome),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The next step sends a confirmation.
    Ready,
    /// A confirmation is out; [`Confirmation::receive`] is next.
    Sent,
    /// The last answer was "not yet": the next step waits.
    NotYet,
    /// Over, with this outcome.
    Over(ConfirmOutcome),
}

/// `confirmTransaction` until settled (see the module's description).
pub struct Confirmation {
    call: PreparedCall,
    poll: Poll,
    tries: u32,
    state: State,
    /// Transient failures in a row.
    failures: u32,
    /// The wait after the last try's transient failure (instead of the interval).
    backoff: Option<u64>,
}

impl Confirmation {
    /// The loop over a prepared `confirmTransaction` call.
    pub fn new(call: PreparedCall, poll: Poll) -> Confirmation {
        Confirmation {
            call,
            poll,
            tries: 0,
            state: State::Ready,
            failures: 0,
            backoff: None,
        }
    }

    /// The call's signal (the driver's waits honour it too).
    pub fn signal(&self) -> Option<&crate::transport::Signal> {
        self.call.signal()
    }

    /// The next step. `aborted`: whether the caller's signal is aborted now; between
    /// confirmations nothing is in flight, so that is `aborted`.
    pub fn step(&mut self, aborted: bool) -> Result<ConfirmStep, Error> {
        if let State::Over(outcome) = self.state {
            return Ok(ConfirmStep::Done(outcome));
        }
        if aborted {
            return Err(Error::aborted());
        }
        match self.state {
            State::Ready => {
                self.tries += 1;
                self.state = State::Sent;
                Ok(ConfirmStep::Send(self.call.clone()))
            }
            State::NotYet => match self.poll.after(self.tries) {
                Some(ms) => {
                    self.state = State::Ready;
                    Ok(ConfirmStep::Wait(self.backoff.take().unwrap_or(ms)))
                }
                None => {
                    let outcome = ConfirmOutcome {
                        settled: false,
                        tries: self.tries,
                    };
                    self.state = State::Over(outcome);
                    Ok(ConfirmStep::Done(outcome))
                }
            },
            State::Sent => Err(Error::invalid(
                "confirmation",
                "the confirmation's answer was not received before the next step",
            )),
            State::Over(_) => unreachable!("handled above"),
        }
    }

    /// Takes in the one attempt of a `Send` step's call (a confirmation is sent once): its
    /// value goes to [`Confirmation::receive`], its failure to [`Confirmation::fail`]. What
    /// what both shells drive. For the confirmation's observers: the backoff after a
    /// transient failure (`Ok(Some)`); `Err` is the error the loop ends with.
    pub fn settle(&mut self, config: &Config, attempt: Attempt) -> Result<Option<Backoff>, Error> {
        let (aborted, random) = (attempt.aborted, attempt.random);
        match self.call.decide(config, attempt) {
            Next::Done(success) => self.receive(success.value.boolean()).map(|()| None),
            Next::Fail(err) => self.fail(err, aborted, random),
            // A mutation is never retried by its call: only a driver bug gets here.
            Next::Retry(_) => self.receive(None).map(|()| None),
        }
    }

    /// Takes in the failure of a `Send` step's call. `aborted`: whether the caller's signal
    /// is aborted now; `random`: the jitter, in `[0, 1)`. A transient failure
    /// ([`retry::is_transient`]) with tries left schedules the next confirmation after the
    /// backoff (returned, with why); otherwise the loop ends with `err` (returned).
    pub fn fail(
        &mut self,
        err: Error,
        aborted: bool,
        random: f64,
    ) -> Result<Option<Backoff>, Error> {
        if self.state != State::Sent {
            return Err(Error::invalid(
                "confirmation",
                "no confirmation is waiting for its answer",
            ));
        }
        if aborted || !retry::is_transient(&err) || self.poll.after(self.tries).is_none() {
            self.state = State::Over(ConfirmOutcome {
                settled: false,
                tries: self.tries,
            });
            return Err(err);
        }
        self.failures = self.failures.saturating_add(1);
        let base = u64::from(self.poll.interval_ms).max(MIN_BACKOFF_MS);
        let cap = MAX_BACKOFF_MS.max(base);
        let delay_ms = retry::poll_backoff_ms(base, cap, self.failures, err.retry_after_ms, random);
        self.backoff = Some(delay_ms);
        self.state = State::NotYet;
        Ok(Some(Backoff {
            delay_ms,
            reason: RetryReason::of(&err),
            status: err.status,
        }))
    }

    /// Takes in the value of a `Send` step's call, as a boolean: `Some(true)` (settled) or
    /// `Some(false)` (not yet). `None` (not a boolean) ends the loop with a `decode` error (a
    /// `Boolean` call's value has been checked already, so only a driver bug gets here).
    pub fn receive(&mut self, value: Option<bool>) -> Result<(), Error> {
        if self.state != State::Sent {
            return Err(Error::invalid(
                "confirmation",
                "no confirmation is waiting for its answer",
            ));
        }
        match value {
            Some(true) => {
                self.state = State::Over(ConfirmOutcome {
                    settled: true,
                    tries: self.tries,
                });
                Ok(())
            }
            Some(false) => {
                self.failures = 0;
                self.backoff = None;
                self.state = State::NotYet;
                Ok(())
            }
            None => {
                self.state = State::Over(ConfirmOutcome {
                    settled: false,
                    tries: self.tries,
                });
                Err(Error::decode(
                    200,
                    "confirmTransaction answered neither true nor false",
                ))
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::call::prepare;
    use crate::error::Code;
    use crate::operations::{Endpoint, Value, CONFIRM_TRANSACTION};
    use crate::types::FieldOptions;

    fn call() -> PreparedCall {
        let hash = format!("0x{}", "ab".repeat(32));
        let values = vec![
            ("paymentRequest", Value::Str("mpr_1".into())),
            ("transactionHash", Value::Str(hash)),
        ];
        prepare(
            Endpoint::Merchant,
            &CONFIRM_TRANSACTION,
            values,
            FieldOptions::default(),
        )
        .unwrap()
    }

    fn json(v: bool) -> Option<bool> {
        Some(v)
    }

    /// Drives a confirmation with the answers given, one per confirmation; returns the
    /// steps as text and the outcome.
    fn drive(poll: Poll, answers: &[bool]) -> (Vec<String>, ConfirmOutcome) {
        let mut c = Confirmation::new(call(), poll);
        let mut steps = vec![];
        let mut answers = answers.iter();
        loop {
            match c.step(false).unwrap() {
                ConfirmStep::Send(_) => {
                    steps.push("send".to_owned());
                    c.receive(json(*answers.next().expect("an answer")))
                        .unwrap();
                }
                ConfirmStep::Wait(ms) => steps.push(format!("wait {ms}")),
                ConfirmStep::Done(o) => return (steps, o),
            }
        }
    }

    #[test]
    fn the_defaults_are_the_mini_apps() {
        assert_eq!(Poll::new(None, None).unwrap(), Poll::default());
        assert_eq!(Poll::default().after(0), Some(5_000));
        assert_eq!(Poll::default().after(9), Some(5_000));
        assert_eq!(Poll::default().after(10), None);
    }

    #[test]
    fn it_confirms_until_settled() {
        let poll = Poll::new(Some(250), Some(5)).unwrap();
        let (steps, outcome) = drive(poll, &[false, false, true]);
        assert_eq!(
            steps,
            ["send", "wait 250", "send", "wait 250", "send"].map(String::from)
        );
        assert_eq!(
            outcome,
            ConfirmOutcome {
                settled: true,
                tries: 3
            }
        );
    }

    #[test]
    fn it_stops_at_the_cap_unsettled() {
        let poll = Poll::new(Some(0), Some(3)).unwrap();
        let (steps, outcome) = drive(poll, &[false, false, false]);
        assert_eq!(
            steps,
            ["send", "wait 0", "send", "wait 0", "send"].map(String::from)
        );
        assert_eq!(
            outcome,
            ConfirmOutcome {
                settled: false,
                tries: 3
            }
        );
        let (steps, outcome) = drive(Poll::new(None, Some(1)).unwrap(), &[false]);
        assert_eq!(steps, ["send"]);
        assert!(!outcome.settled);
    }

    #[test]
    fn an_abort_between_confirmations_stops_it() {
        let mut c = Confirmation::new(call(), Poll::default());
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        c.receive(json(false)).unwrap();
        assert_eq!(c.step(true).err().unwrap().code, Code::Aborted);
        let mut c = Confirmation::new(call(), Poll::default());
        assert_eq!(c.step(true).err().unwrap().code, Code::Aborted);
    }

    #[test]
    fn a_driver_out_of_order_is_refused() {
        let mut c = Confirmation::new(call(), Poll::default());
        assert!(c.receive(json(true)).is_err());
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        assert!(c.step(false).is_err());
        let e = c.receive(None).unwrap_err();
        assert_eq!(e.code, Code::Decode);
        assert!(matches!(
            c.step(false),
            Ok(ConfirmStep::Done(ConfirmOutcome { settled: false, .. }))
        ));
    }

    fn failure(code: Code, status: Option<u16>) -> Error {
        let mut e = Error::new(code, "down");
        e.status = status;
        e
    }

    /// Ten minutes of 503s and connection failures (`intervalMs` 5 s, `maxTries` 100): each
    /// counts as a try and backs off (waits of at least 5, 10, 20, 30, 30, … s), so at most
    /// 22 confirmations go in 600 s; after recovery the next one comes within the cap (60 s)
    /// and its answer ends the loop settled.
    #[test]
    fn a_ten_minute_outage_backs_off_and_the_loop_goes_on() {
        for random in [0.0, 0.37, 0.999] {
            let mut c = Confirmation::new(call(), Poll::new(Some(5_000), Some(100)).unwrap());
            let (mut now, mut sent, mut last) = (0u64, 0, 0u64);
            let after = loop {
                match c.step(false).unwrap() {
                    ConfirmStep::Send(_) if now <= 600_000 => {
                        sent += 1;
                        last = now;
                        let e = if sent % 2 == 0 {
                            failure(Code::Http, Some(503))
                        } else {
                            failure(Code::OutcomeUnknown, None)
                        };
                        c.fail(e, false, random).unwrap();
                    }
                    ConfirmStep::Send(_) => break now,
                    ConfirmStep::Wait(ms) => {
                        assert!(ms <= MAX_BACKOFF_MS, "{ms}");
                        now += ms;
                    }
                    ConfirmStep::Done(o) => panic!("ended during the outage: {o:?}"),
                }
            };
            assert!(sent <= 22, "{sent} confirmations at jitter {random}");
            assert!(after - last <= MAX_BACKOFF_MS);
            c.receive(Some(true)).unwrap();
            assert!(matches!(
                c.step(false),
                Ok(ConfirmStep::Done(ConfirmOutcome { settled: true, .. }))
            ));
        }
    }

    #[test]
    fn backoff_honours_retry_after_and_resets_after_an_answer() {
        let mut c = Confirmation::new(call(), Poll::new(Some(2_000), Some(10)).unwrap());
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        let mut e = failure(Code::RateLimited, Some(429));
        e.retry_after_ms = Some(45_000);
        // What the confirmation's `retry` event shows: the wait chosen, and why.
        let backoff = c.fail(e, false, 0.0).unwrap().unwrap();
        assert_eq!(
            (backoff.delay_ms, backoff.reason),
            (45_000, RetryReason::RetryAfter)
        );
        assert_eq!(backoff.status, Some(429));
        assert!(matches!(c.step(false), Ok(ConfirmStep::Wait(45_000))));
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        let backoff = c
            .fail(failure(Code::Timeout, None), false, 0.0)
            .unwrap()
            .unwrap();
        assert_eq!(
            (backoff.delay_ms, backoff.reason),
            (4_000, RetryReason::Timeout)
        );
        // The second failure in a row: a ceiling of 2 s * 4, at least half of it.
        assert!(matches!(c.step(false), Ok(ConfirmStep::Wait(4_000))));
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        c.receive(Some(false)).unwrap();
        assert!(matches!(c.step(false), Ok(ConfirmStep::Wait(2_000))));
    }

    #[test]
    fn final_failures_end_the_loop_and_transient_ones_end_it_when_tries_run_out() {
        for e in [
            failure(Code::Unauthorized, Some(401)),
            failure(Code::Forbidden, Some(403)),
            failure(Code::Graphql, Some(200)),
        ] {
            let mut c = Confirmation::new(call(), Poll::default());
            assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
            assert_eq!(c.fail(e.clone(), false, 0.5).unwrap_err().code, e.code);
        }
        // An abort during a confirmation ends it, whatever the failure.
        let mut c = Confirmation::new(call(), Poll::default());
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        let e = c
            .fail(failure(Code::OutcomeUnknown, None), true, 0.5)
            .unwrap_err();
        assert_eq!(e.code, Code::OutcomeUnknown);
        // The last try's 503: the loop ends with it.
        let mut c = Confirmation::new(call(), Poll::new(Some(0), Some(2)).unwrap());
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        c.fail(failure(Code::Http, Some(503)), false, 0.5).unwrap();
        assert!(matches!(c.step(false), Ok(ConfirmStep::Wait(_))));
        assert!(matches!(c.step(false), Ok(ConfirmStep::Send(_))));
        let e = c
            .fail(failure(Code::Http, Some(503)), false, 0.5)
            .unwrap_err();
        assert_eq!(e.status, Some(503));
    }

    #[test]
    fn poll_options_are_checked() {
        for (interval, tries, field) in [
            (Some(-1), None, "intervalMs"),
            (Some(600_001), None, "intervalMs"),
            (None, Some(0), "maxTries"),
            (None, Some(101), "maxTries"),
        ] {
            let e = Poll::new(interval, tries).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field));
        }
        assert!(Poll::new(Some(0), Some(100)).is_ok());
    }
}
