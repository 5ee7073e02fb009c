//! The Rust shell of `watchOrders`: [`OrderWatch`], which drives the core's
//! [`crate::watch::Watch`] over the client's [`Transport`] (its sends, sleeps and clock).
//!
//! It is pulled: polls run while [`OrderWatch::next`] is awaited, which returns at the first
//! poll that brings a change (so there is nothing to coalesce). The Rust shell does not see a
//! page's visibility: `pause_when_hidden` has no effect here. The options' `signal` ends the
//! watch (the poll in flight or the sleep is cancelled; `next` then returns `None`).

use super::BotClient;
use crate::call::{send_once, unless_aborted};
use crate::error::Error;
use crate::events::Source;
use crate::json::to_value;
use crate::transport::Transport;
use crate::types::WatchOrdersArgs;
use crate::watch::{Command, Status, Update, Watch};

/// One update of an [`OrderWatch`], as JSON rows (`serde_json::Value` on every target).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderUpdate {
    /// The page as it is now.
    pub rows: Vec<serde_json::Value>,
    /// Rows whose `id` was not on the previous page (every row, in the first update).
    pub added: Vec<serde_json::Value>,
    /// Rows whose content changed.
    pub changed: Vec<OrderChange>,
    /// Rows of the previous page that are gone.
    pub removed: Vec<serde_json::Value>,
    /// `pagination.total`, when the page had it.
    pub total: Option<f64>,
}

/// A row of an [`OrderUpdate`] whose content changed.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderChange {
    /// The row as it was.
    pub before: serde_json::Value,
    /// The row as it is.
    pub after: serde_json::Value,
}

impl OrderUpdate {
    /// The core's update as the Rust API's (on wasm32, the JavaScript rows read into JSON).
    fn from_core(update: Update) -> Result<Self, Error> {
        let rows = |list: Vec<crate::json::Json>| -> Result<Vec<serde_json::Value>, Error> {
            list.iter().map(|row| to_value(row, 200)).collect()
        };
        Ok(OrderUpdate {
            rows: rows(update.rows)?,
            added: rows(update.added)?,
            changed: update
                .changed
                .iter()
                .map(|c| {
                    Ok(OrderChange {
                        before: to_value(&c.before, 200)?,
                        after: to_value(&c.after, 200)?,
                    })
                })
                .collect::<Result<_, Error>>()?,
            removed: rows(update.removed)?,
            total: update.total,
        })
    }
}

impl<T: Transport> BotClient<T> {
    /// Watches the first page of the order history: see [`OrderWatch`]. The options are
    /// checked here, before any request (`per_page` defaults to 25; `id` and `status` are
    /// always selected; `interval_ms` from 1000, default 10000; `max_interval_ms` default
    /// 300000).
    pub fn watch_orders(&self, args: WatchOrdersArgs) -> Result<OrderWatch<'_, T>, Error> {
        let watch = self.redact(Watch::new(args))?;
        Ok(OrderWatch {
            client: self,
            watch,
        })
    }
}

/// The watch returned by [`BotClient::watch_orders`]: `while let Some(update) =
/// watch.next().await? { … }`.
pub struct OrderWatch<'a, T: Transport> {
    client: &'a BotClient<T>,
    watch: Watch,
}

impl<T: Transport> OrderWatch<'_, T> {
    /// The next update: polls (one request at a time, `interval_ms` after the previous one
    /// settled, backing off after retryable failures) until one brings a change. The first
    /// update has every row in `added`. `None` once the watch is over (stopped, or its signal
    /// aborted); the error of a failure that is not retryable, once, after which it is over.
    pub async fn next(&mut self) -> Result<Option<OrderUpdate>, Error> {
        let transport = self.client.transport();
        let config = self.client.config();
        loop {
            if let Some(update) = self.watch.take_update() {
                return OrderUpdate::from_core(update).map(Some);
            }
            if let Some(err) = self.watch.take_error() {
                return Err(err);
            }
            let signal = self.watch.call().signal().cloned();
            match self.watch.step(transport.now_ms()) {
                Command::Stop => return Ok(None),
                Command::Send => {
                    let call = self.watch.call().clone();
                    let watch = &mut self.watch;
                    let listeners = self.client.listeners();
                    // A failure that ends the watch is kept for `take_error` (the next turn).
                    let _ = send_once(
                        transport,
                        config,
                        &call,
                        listeners,
                        Source::WatchOrders,
                        |a| watch.settle(config, a, transport.now_ms()),
                    )
                    .await;
                }
                Command::Sleep(ms) => {
                    let slept =
                        unless_aborted(signal.as_ref(), transport.sleep(ms, signal.as_ref())).await;
                    if slept.is_err() {
                        self.watch.stop();
                    }
                }
                // Never paused here (no visibility is given), and no poll is left in flight
                // between awaits: nothing can wake an idle watch, so it ends.
                Command::Idle => self.watch.stop(),
            }
        }
    }

    /// The watch's status now.
    pub fn status(&self) -> Status {
        self.watch.status(self.client.transport().now_ms())
    }

    /// Ends the watch: nothing more is sent; `next` returns `None`.
    pub fn stop(&mut self) {
        self.watch.stop();
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::config::BotOptions;
    use crate::error::Code;
    use crate::testing::{FakeTransport, Reply};
    use crate::transport::{Signal, TransportError};
    use futures::executor::block_on;
    use serde_json::json;

    fn client() -> BotClient<FakeTransport> {
        let options = BotOptions {
            base_url: Some("https://api.example.com/".into()),
            api_key: Some("XYZ-SECK_s3cr3t".into()),
            ..Default::default()
        };
        let t = FakeTransport::new(7);
        t.sleeps_advance_clock.set(true);
        BotClient::with_transport(options, t).unwrap()
    }

    fn page(rows: &[(&str, &str)], total: i64) -> String {
        let rows: Vec<_> = rows
            .iter()
            .map(|(id, status)| json!({"id": id, "status": status}))
            .collect();
        json!({"data": {"orderHistory": {"data": rows, "pagination": {"page": 1, "perPage": 25, "total": total}}}})
            .to_string()
    }

    fn args(signal: Option<Signal>) -> WatchOrdersArgs {
        WatchOrdersArgs {
            interval_ms: Some(2_000),
            signal,
            ..Default::default()
        }
    }

    #[test]
    fn next_polls_until_a_change_and_waits_the_interval_between_polls() {
        let bot = client();
        let t = bot.transport();
        t.http(200, &page(&[("a", "pending")], 1))
            .http(200, &page(&[("a", "pending")], 1))
            .fail(TransportError::Timeout)
            .http(200, &page(&[("a", "paid")], 1));
        let mut w = bot.watch_orders(args(None)).unwrap();
        let first = block_on(w.next()).unwrap().unwrap();
        assert_eq!(first.added.len(), 1);
        assert_eq!(t.sent(), 1);
        let second = block_on(w.next()).unwrap().unwrap();
        assert_eq!(second.changed.len(), 1);
        assert_eq!(second.changed[0].after["status"], "paid");
        assert_eq!(t.sent(), 4, "an unchanged poll and a timeout in between");
        let sleeps = t.sleeps.borrow().clone();
        assert_eq!(sleeps[..2], [2_000, 2_000]);
        assert!((2_000..=4_000).contains(&sleeps[2]), "backoff {sleeps:?}");
        let body = t.request(0).json();
        assert_eq!(body["variables"]["perPage"], 25);
        w.stop();
        assert!(block_on(w.next()).unwrap().is_none());
        assert_eq!(t.sent(), 4, "nothing sent after stop");
        assert_eq!(w.status().state, crate::watch::State::Stopped);
    }

    #[test]
    fn a_failure_that_is_not_retryable_is_returned_once_then_the_watch_is_over() {
        let bot = client();
        bot.transport()
            .http(200, &page(&[("a", "pending")], 1))
            .http(401, "");
        let mut w = bot.watch_orders(args(None)).unwrap();
        assert!(block_on(w.next()).unwrap().is_some());
        assert_eq!(block_on(w.next()).unwrap_err().code, Code::Unauthorized);
        assert!(block_on(w.next()).unwrap().is_none());
        assert_eq!(bot.transport().sent(), 2);
    }

    #[test]
    fn the_signal_ends_the_watch_during_a_poll_or_a_sleep() {
        let bot = client();
        let flag = Signal::new();
        bot.transport()
            .http(200, &page(&[], 0))
            .push(Reply::AbortCaller(flag.clone()));
        let mut w = bot.watch_orders(args(Some(flag))).unwrap();
        assert!(block_on(w.next()).unwrap().is_some());
        assert!(block_on(w.next()).unwrap().is_none());
        assert_eq!(bot.transport().sent(), 2);

        let bot = client();
        let flag = Signal::new();
        bot.transport().http(200, &page(&[], 0));
        *bot.transport().abort_during_sleep.borrow_mut() = Some(flag.clone());
        let mut w = bot.watch_orders(args(Some(flag))).unwrap();
        assert!(block_on(w.next()).unwrap().is_some());
        assert!(block_on(w.next()).unwrap().is_none());
        assert_eq!(bot.transport().sent(), 1);
    }

    #[test]
    fn options_are_checked_before_any_request() {
        let bot = client();
        let e = bot
            .watch_orders(WatchOrdersArgs {
                interval_ms: Some(10),
                ..Default::default()
            })
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("intervalMs"));
        assert_eq!(bot.transport().sent(), 0);
    }
}
