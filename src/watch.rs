//! `watchOrders`: the first page of the order history, polled, with no I/O of its own. One
//! state machine, [`Watch`], that both shells drive (the npm package's `OrderWatch` with
//! timers and page visibility; the Rust API's [`crate::bot::OrderWatch`]):
//!
//! * what to do next ([`Watch::step`]): send the poll, sleep until it is due, or nothing
//!   (paused while the page is hidden, or over);
//! * what a poll's attempt means ([`Watch::settle`]): a new snapshot and the next poll
//!   `interval` later; a transient failure ([`crate::retry::is_transient`]: every 5xx, 429,
//!   timeout and network failure) and a wait that doubles with jitter up to `max_interval`,
//!   never shorter than a `Retry-After`, the watch going on however long it lasts; or the end
//!   (401, 403, GraphQL errors and other failures that retrying cannot cure, or an abort);
//! * what changed ([`Watch::take_update`]): the diff of the latest snapshot against the last
//!   *delivered* one, so a slow consumer gets the polls it missed coalesced into one update.
//!
//! The shell's clock is passed in (`now_ms`, any monotonic origin); the core never reads one.
//! The poll is the `orderHistory` call of [`PageQuery`], page 1, made once; each poll is one
//! attempt (the watch's own schedule is its retry policy).

use crate::call::{Attempt, PreparedCall};
use crate::config::Config;
use crate::error::{Code, Error};
use crate::events::{Backoff, RetryReason};
use crate::inputs;
use crate::json::{Json, JsonValue};
use crate::pager::PageQuery;
use crate::retry;
use crate::types::WatchOrdersArgs;

/// Rows per poll when `perPage` is not given.
pub const DEFAULT_PER_PAGE: i64 = 25;
/// The wait between polls when `intervalMs` is not given, in ms.
pub const DEFAULT_INTERVAL_MS: i64 = 10_000;
/// The shortest `intervalMs` accepted.
pub const MIN_INTERVAL_MS: i64 = 1_000;
/// The backoff's cap when `maxIntervalMs` is not given (or `intervalMs` when that is longer).
pub const DEFAULT_MAX_INTERVAL_MS: i64 = 300_000;

/// What the driver of a [`Watch`] does next.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// Send [`Watch::call`] now (one attempt), then give what came back to [`Watch::settle`].
    Send,
    /// Nothing is due yet: sleep this many ms (or until the page's visibility changes), then
    /// ask again.
    Sleep(u64),
    /// Nothing to do until the page is visible again ([`Watch::set_hidden`]), or a poll is
    /// already in flight.
    Idle,
    /// The watch is over: send nothing more.
    Stop,
}

/// The watch's state, for a "live · paused · retrying in 20 s" badge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Polling on schedule (a poll in flight, or the next one due `interval` after the last).
    Polling,
    /// The page is hidden: no poll is sent until it is visible again.
    Paused,
    /// The last poll failed with a transient failure; the next one is due after the backoff.
    Retrying,
    /// Over: stopped, aborted, or ended by a failure that is not retryable.
    Stopped,
}

impl State {
    /// The name JavaScript reads: `"polling"`, `"paused"`, `"retrying"`, `"stopped"`.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Polling => "polling",
            State::Paused => "paused",
            State::Retrying => "retrying",
            State::Stopped => "stopped",
        }
    }
}

/// The watch's status at a given time.
#[derive(Clone, Debug)]
pub struct Status {
    /// Where the watch is.
    pub state: State,
    /// `Retrying`: the failure of the last poll; `Stopped`: the failure that ended the watch.
    pub error: Option<Error>,
    /// When a poll is scheduled (not in flight, not paused, not over): the ms until it goes.
    pub next_poll_in_ms: Option<u64>,
}

/// A row that changed between two delivered snapshots.
#[derive(Clone, Debug)]
pub struct Change {
    /// The row as last delivered.
    pub before: Json,
    /// The row now.
    pub after: Json,
}

/// What changed since the last delivered update.
#[derive(Clone, Debug)]
pub struct Update {
    /// The current first page.
    pub rows: Vec<Json>,
    /// Rows whose `id` was not in the last delivered rows (every row, the first time).
    pub added: Vec<Json>,
    /// Rows whose selected fields differ from the last delivered ones.
    pub changed: Vec<Change>,
    /// Rows of the last delivered update that are no longer in `rows`.
    pub removed: Vec<Json>,
    /// `pagination.total` (`None` when the page had none).
    pub total: Option<f64>,
}

/// One row of a snapshot: its `id` (as JSON text), its JSON text, and the row itself.
#[derive(Clone, Debug)]
struct Row {
    key: String,
    // Rows are compared as JSON text: GraphQL answers each row's fields in the order of the
    // selection, and the selection is the same on every poll, so equal rows have equal text.
    text: String,
    value: Json,
}

/// One poll's page: its rows and total.
#[derive(Clone, Debug)]
struct Snapshot {
    rows: Vec<Row>,
    total: Option<f64>,
}

impl Snapshot {
    /// The rows and `pagination.total` of an `orderHistory` page (its shape checked by the call).
    fn of(page: &Json) -> Snapshot {
        let data = page.member("data");
        let len = data.as_ref().and_then(JsonValue::array_len).unwrap_or(0);
        let rows = (0..len)
            .filter_map(|i| data.as_ref().and_then(|d| d.at(i)))
            .map(|value| Row {
                key: value
                    .member("id")
                    .and_then(|id| id.to_text())
                    .unwrap_or_default(),
                text: value.to_text().unwrap_or_default(),
                value,
            })
            .collect();
        let total = page
            .member("pagination")
            .and_then(|p| p.member("total"))
            .and_then(|t| t.number());
        Snapshot { rows, total }
    }
}

/// Where the poll is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for the next poll's time.
    Waiting,
    /// A poll was sent; [`Watch::settle`] is awaited.
    InFlight,
    /// Over.
    Ended,
}

/// The options of a watch, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The wait after a successful poll, in ms.
    pub interval_ms: u64,
    /// The backoff's cap, in ms.
    pub max_interval_ms: u64,
    /// Whether a hidden page pauses the polls.
    pub pause_when_hidden: bool,
}

impl Schedule {
    /// Checks `intervalMs` (1000 to 2147483647, default 10000) and `maxIntervalMs`
    /// (`intervalMs` to 2147483647, default 300000 or `intervalMs` when longer).
    pub fn new(
        interval_ms: Option<i64>,
        max_interval_ms: Option<i64>,
        pause_when_hidden: Option<bool>,
    ) -> Result<Schedule, Error> {
        let interval = match interval_ms {
            Some(v) => inputs::wait_ms(v, "intervalMs", MIN_INTERVAL_MS)?,
            None => DEFAULT_INTERVAL_MS,
        };
        let max = match max_interval_ms {
            Some(v) => inputs::wait_ms(v, "maxIntervalMs", interval)?,
            None => DEFAULT_MAX_INTERVAL_MS.max(interval),
        };
        Ok(Schedule {
            interval_ms: interval as u64,
            max_interval_ms: max as u64,
            pause_when_hidden: pause_when_hidden.unwrap_or(true),
        })
    }

    /// The wait after the `failures`-th failure in a row (from 1): a ceiling of
    /// `interval * 2^failures` (at most `max_interval`), jittered within its upper half, so
    /// the first failure waits 1 to 2 intervals and each next one about twice as long; never
    /// less than the server's `Retry-After`, and never more than `max_interval`.
    pub fn backoff_ms(&self, failures: u32, retry_after_ms: Option<u64>, random: f64) -> u64 {
        retry::poll_backoff_ms(
            self.interval_ms,
            self.max_interval_ms,
            failures,
            retry_after_ms,
            random,
        )
    }
}

/// A watch of the order history's first page: the schedule of its polls and the diff of
/// what they bring. See the module documentation.
pub struct Watch {
    call: PreparedCall,
    schedule: Schedule,
    phase: Phase,
    /// When the next poll may be sent (shell's clock).
    due_at_ms: f64,
    /// The earliest a poll may go after a `Retry-After` (shell's clock).
    not_before_ms: f64,
    hidden: bool,
    /// Failed polls in a row.
    failures: u32,
    /// The last poll's transient failure, while retrying.
    last_error: Option<Error>,
    /// The failure that ended the watch, until the consumer takes it.
    fatal: Option<Error>,
    /// The failure that ended the watch (the status keeps showing it once it was taken).
    ended_by: Option<Error>,
    delivered: Option<Snapshot>,
    latest: Option<Snapshot>,
}

impl Watch {
    /// Checks the options (`perPage` defaults to 25; `id` and `status` are added to `fields`)
    /// and makes the poll's call. The first poll is due at once.
    pub fn new(args: WatchOrdersArgs) -> Result<Watch, Error> {
        let schedule = Schedule::new(
            args.interval_ms,
            args.max_interval_ms,
            args.pause_when_hidden,
        )?;
        let fields = args.fields.map(|mut f| {
            for required in ["id", "status"] {
                if !f.iter().any(|n| n == required) {
                    f.push(required.into());
                }
            }
            f
        });
        let per_page = Some(args.per_page.unwrap_or(DEFAULT_PER_PAGE));
        let query = PageQuery::new(per_page, args.filter, fields.as_deref(), args.signal)?;
        Ok(Watch {
            call: query.call(1)?,
            schedule,
            phase: Phase::Waiting,
            due_at_ms: f64::NEG_INFINITY,
            not_before_ms: f64::NEG_INFINITY,
            hidden: false,
            failures: 0,
            last_error: None,
            fatal: None,
            ended_by: None,
            delivered: None,
            latest: None,
        })
    }

    /// The poll: the `orderHistory` call of page 1 (the same on every poll).
    pub fn call(&self) -> &PreparedCall {
        &self.call
    }

    /// The checked schedule options.
    #[cfg_attr(
        not(all(target_arch = "wasm32", feature = "npm-bot")),
        allow(dead_code)
    )] // read by the npm binding's bot part (src/js) only
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// What to do at `now_ms`. [`Command::Send`] marks the poll in flight.
    pub fn step(&mut self, now_ms: f64) -> Command {
        match self.phase {
            Phase::Ended => Command::Stop,
            Phase::InFlight => Command::Idle,
            Phase::Waiting if self.paused() => Command::Idle,
            Phase::Waiting if now_ms >= self.due_at_ms => {
                self.phase = Phase::InFlight;
                Command::Send
            }
            Phase::Waiting => Command::Sleep((self.due_at_ms - now_ms).ceil() as u64),
        }
    }

    /// Takes in what the poll's attempt brought back, at `now_ms`, and schedules the next
    /// poll: `interval` after a success, the backoff after a transient failure; ends the watch
    /// on an abort or any other failure (kept for [`Watch::take_error`], redacted with
    /// `config`). Ignored unless a poll is in flight. For the poll's observers: the backoff
    /// after a transient failure (`Ok(Some)`), or the error the watch ends with (`Err`).
    pub fn settle(
        &mut self,
        config: &Config,
        attempt: Attempt,
        now_ms: f64,
    ) -> Result<Option<Backoff>, Error> {
        if self.phase != Phase::InFlight {
            return Ok(None);
        }
        let random = attempt.random;
        match self.call.outcome(config, attempt) {
            Ok(success) => {
                self.latest = Some(Snapshot::of(&success.value));
                self.failures = 0;
                self.last_error = None;
                self.phase = Phase::Waiting;
                self.due_at_ms = now_ms + self.schedule.interval_ms as f64;
                Ok(None)
            }
            Err(e) if e.code == Code::Aborted => {
                self.stop();
                Ok(None)
            }
            Err(e) if retry::is_transient(&e) => {
                self.failures = self.failures.saturating_add(1);
                let wait = self
                    .schedule
                    .backoff_ms(self.failures, e.retry_after_ms, random);
                self.not_before_ms = match e.retry_after_ms {
                    Some(_) => now_ms + wait as f64,
                    None => f64::NEG_INFINITY,
                };
                let backoff = Backoff {
                    delay_ms: wait,
                    reason: RetryReason::of(&e),
                    status: e.status,
                };
                self.last_error = Some(config.redact(e));
                self.phase = Phase::Waiting;
                self.due_at_ms = now_ms + wait as f64;
                Ok(Some(backoff))
            }
            Err(e) => {
                let e = config.redact(e);
                self.phase = Phase::Ended;
                self.ended_by = Some(e.clone());
                self.fatal = Some(e.clone());
                Err(e)
            }
        }
    }

    /// The page's visibility changed (`hidden`: `document.visibilityState === "hidden"`).
    /// When it becomes visible, a paused watch polls at once (not before a `Retry-After`),
    /// then on its interval again.
    #[cfg_attr(
        not(all(target_arch = "wasm32", feature = "npm-bot")),
        allow(dead_code)
    )] // read by the npm binding's bot part (src/js) only
    pub fn set_hidden(&mut self, hidden: bool, now_ms: f64) {
        let was_paused = self.paused();
        self.hidden = hidden;
        if was_paused && !self.paused() {
            self.due_at_ms = self.due_at_ms.min(now_ms.max(self.not_before_ms));
        }
    }

    /// Ends the watch: nothing more is sent (the shell aborts a poll in flight).
    pub fn stop(&mut self) {
        self.phase = Phase::Ended;
    }

    /// Whether the watch is over.
    #[allow(dead_code)] // no shell reads it now (the module was public, this its API)
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// The status at `now_ms`.
    pub fn status(&self, now_ms: f64) -> Status {
        let (state, error) = match self.phase {
            Phase::Ended => (State::Stopped, self.ended_by.clone()),
            Phase::Waiting if self.paused() => (State::Paused, None),
            _ if self.failures > 0 => (State::Retrying, self.last_error.clone()),
            _ => (State::Polling, None),
        };
        let next_poll_in_ms = (self.phase == Phase::Waiting && !self.paused())
            .then(|| (self.due_at_ms - now_ms).max(0.0).ceil() as u64);
        Status {
            state,
            error,
            next_poll_in_ms,
        }
    }

    /// What changed between the last delivered snapshot and the latest poll's, and makes the
    /// latest the delivered one; `None` when nothing did (or no poll succeeded since the last
    /// update). The first update has every row in `added`.
    pub fn take_update(&mut self) -> Option<Update> {
        let latest = self.latest.take()?;
        let update = diff(self.delivered.as_ref(), &latest);
        self.delivered = Some(latest);
        update
    }

    /// The failure that ended the watch, once (the consumer's iteration rejects with it).
    pub fn take_error(&mut self) -> Option<Error> {
        self.fatal.take()
    }

    fn paused(&self) -> bool {
        self.hidden && self.schedule.pause_when_hidden
    }
}

/// The update from `before` (the last delivered snapshot, if any) to `after`; `None` when no
/// row was added, changed or removed and the total is the same.
///
/// Rows are found by key with a linear search: a watched page has tens of rows, and a hash map
/// cost the wasm build more than the rest of the watch.
fn diff<'a>(before: Option<&'a Snapshot>, after: &'a Snapshot) -> Option<Update> {
    let old: &[Row] = before.map_or(&[], |b| &b.rows);
    let find = |rows: &'a [Row], key: &str| rows.iter().find(|r| r.key == key);
    let mut added = Vec::new();
    let mut changed = Vec::new();
    for row in &after.rows {
        match find(old, &row.key) {
            None => added.push(row.value.clone()),
            Some(was) if was.text != row.text => changed.push(Change {
                before: was.value.clone(),
                after: row.value.clone(),
            }),
            Some(_) => {}
        }
    }
    let removed: Vec<Json> = before
        .map(|b| {
            b.rows
                .iter()
                .filter(|r| find(&after.rows, &r.key).is_none())
                .map(|r| r.value.clone())
                .collect()
        })
        .unwrap_or_default();
    let same_total = before.is_some_and(|b| b.total == after.total);
    if before.is_some()
        && added.is_empty()
        && changed.is_empty()
        && removed.is_empty()
        && same_total
    {
        return None;
    }
    Some(Update {
        rows: after.rows.iter().map(|r| r.value.clone()).collect(),
        added,
        changed,
        removed,
        total: after.total,
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
