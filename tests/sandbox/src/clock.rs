//! The sandbox's clock: the system's (the HTTP server) or one a caller moves by hand (the
//! in-process fake, whose tests move time with `advance`). Every "now" a rule needs (new
//! orders, quote expiry, withdrawal dates) is read here, so the core does no I/O of its own.

use std::sync::atomic::{AtomicI64, Ordering};

/// Where "now" comes from.
#[derive(Debug)]
pub enum Clock {
    /// The system's wall clock (not available on `wasm32-unknown-unknown`: the fake passes a
    /// [`Clock::Manual`] one).
    System,
    /// Milliseconds since the Unix epoch, set and moved only by [`Clock::set_ms`] and
    /// [`Clock::advance_ms`].
    Manual(AtomicI64),
}

impl Clock {
    /// A hand-moved clock starting at `start_ms` (milliseconds since the Unix epoch).
    pub fn manual(start_ms: i64) -> Clock {
        Clock::Manual(AtomicI64::new(start_ms))
    }

    /// Now, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
            Clock::Manual(ms) => ms.load(Ordering::Relaxed),
        }
    }

    /// Now, in Unix seconds.
    pub fn now_secs(&self) -> i64 {
        self.now_ms().div_euclid(1000)
    }

    /// Moves a hand-moved clock forward by `ms` (never backward: a negative `ms` is 0); the
    /// system clock is not moved. Answers the new time in milliseconds.
    pub fn advance_ms(&self, ms: i64) -> i64 {
        match self {
            Clock::System => self.now_ms(),
            Clock::Manual(now) => {
                now.fetch_add(ms.max(0), Ordering::Relaxed);
                now.load(Ordering::Relaxed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Clock;

    #[test]
    fn a_manual_clock_moves_only_forward_and_only_when_told() {
        let c = Clock::manual(1_700_000_000_500);
        assert_eq!(c.now_secs(), 1_700_000_000);
        assert_eq!(c.advance_ms(1_500), 1_700_000_002_000);
        assert_eq!(c.advance_ms(-10_000), 1_700_000_002_000);
        assert_eq!(c.now_secs(), 1_700_000_002);
    }

    #[test]
    fn the_system_clock_is_near_the_system_time() {
        let secs = Clock::System.now_secs();
        assert!(secs > 1_700_000_000, "{secs}");
    }
}
