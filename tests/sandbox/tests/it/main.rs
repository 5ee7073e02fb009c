//! Integration tests for the settlement sandbox: one test binary, one module per concern.
//! Most tests drive the axum router in-process (`tower::ServiceExt::oneshot`); the few that
//! need a real TCP socket (drop fault, start-up contract, browser) start real listeners.

mod auth;
mod bot;
mod cli_binary;
mod core;
mod cors_static;
mod customers;
mod direct_ramp;
mod faults;
mod merchant;
mod mutations;
mod request_log;
mod util;
