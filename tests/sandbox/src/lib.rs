//! Settlement sandbox: a local stand-in for the Stablecoin Settlement Service.
//!
//! See `tests/sandbox/README.md` for the contract (CLI, keys, data, faults, request log).
#![forbid(unsafe_code)]

#[cfg(feature = "http")]
pub mod cli;
pub mod clock;
pub mod data;
pub mod dates;
pub mod direct_ramp;
#[cfg(feature = "fake")]
pub mod fake;
pub mod fault;
pub mod mutations;
#[cfg(feature = "http")]
pub mod net;
pub mod observed;
pub mod payments;
pub mod ramp;
pub mod scalars;
pub mod schema;
#[cfg(feature = "http")]
pub mod server;
pub mod service;
pub mod webhook_events;
#[cfg(feature = "http")]
pub mod webhooks;

#[cfg(feature = "http")]
mod http_server;
#[cfg(feature = "http")]
pub use http_server::*;

pub use service::{AppState, Config, ServiceOptions};

/// SDL of both schemas (used by `--print-schema` style tooling and the tests).
pub fn schema_sdl() -> (String, String) {
    let state = AppState::new(Config::for_tests());
    (state.bot_schema().sdl(), state.merchant_schema().sdl())
}
