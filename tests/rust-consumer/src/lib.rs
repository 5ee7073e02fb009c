//! A Rust consumer of settlement-wasm (see Cargo.toml): one export of its own, which builds a
//! `BotClient` so the crate's code is linked into this module.

use settlement_wasm::{BotClient, BotOptions};
use wasm_bindgen::prelude::wasm_bindgen;

/// This crate's own allocator: a second `#[global_allocator]` in the dependency (the npm
/// layer's talc) would fail the build.
#[global_allocator]
static ALLOCATOR: std::alloc::System = std::alloc::System;

/// Builds a bot client for `base_url`: its configuration (key redacted) or the error message.
#[wasm_bindgen]
pub fn consumer_bot_config(base_url: String, api_key: Option<String>) -> String {
    let options = BotOptions {
        base_url: Some(base_url),
        api_key,
        ..BotOptions::default()
    };
    match BotClient::new(options) {
        Ok(client) => format!("{:?}", client.config()),
        Err(e) => format!("error: {e}"),
    }
}
