//! settlement-wasm: browser and Node client (Rust + WebAssembly) for the Stablecoin
//! Settlement Service.
//!
//! # Design: a sans-I/O core and the shells that drive it
//! The core is plain Rust that never awaits and never touches JavaScript: validation,
//! documents, request bodies, retry decisions, decoding, redaction, the pager. It is tested
//! natively. Two shells drive it, each doing I/O only:
//!
//! ```text
//! caller (JS or Rust)
//!  └─ shell: the npm package's TypeScript (pkg-template/src) or the Rust async API (bot, merchant)
//!       1. prepare(operation, arguments, options)         ── core ─────────────────────┐
//!            validate · document · variables · body                                   │
//!          → PreparedCall (url, headers, body, timeout, signal, retryable)            │
//!       2. the shell sends it: fetch + AbortSignal + timer (TS), or a Transport (Rust)│
//!       3. PreparedCall::decide(attempt, outcome, aborted)                            │
//!          → Done(value) | Fail(error, redacted) | Retry(after ms)                    │
//!       4. the shell waits (abortable) and goes to 2, or settles                     ─┘
//! ```
//!
//! `orders()` and `reconcile` are drivers of the core's [`pager::Search`] in the same way:
//! it says which page call to run, hands out rows, and decides when to stop.
//!
//! # Where things live
//! | module | concern |
//! |---|---|
//! | [`operations`] | one declaration per built-in operation: endpoint, kind, root field, arguments (GraphQL type, caller name, check), default selection, result type, client method; documents, the schema test and both shells' method lists derive from it |
//! | [`call`] | one call, sans I/O: [`call::prepare`], [`PreparedCall::decide`] (retry, `outcome_unknown`, abort wins); [`call::run`], the Rust shell's loop; [`Client`], the Rust clients' shared part |
//! | [`pager`] | the order history page by page: [`pager::Pager`], [`PageQuery`], [`Search`] (`orders()` and `reconcile`'s matching) |
//! | [`watch`] | `watchOrders`: [`watch::Watch`], the polls' schedule (interval, backoff, `Retry-After`, pause while hidden, stop) and the diff of their snapshots, coalesced against the last delivered one |
//! | [`inputs`] | argument validation, before any I/O |
//! | [`graphql`] | `selection` (validated field paths), `body` (the serde request body), `scan` (read-only check of caller documents), `response` (the envelope) |
//! | [`retry`] | which failures retry, backoff with jitter, `Retry-After` |
//! | [`error`] | [`Error`], its codes, classification by HTTP status |
//! | [`redact`] | every redaction of the key: in text and in parsed JSON |
//! | [`config`] | client options: endpoint from `baseUrl`/`endpoint`, key, timeout, retries, headers |
//! | [`keys`] | key classification (public / secret / unknown), the browser guard decision |
//! | [`json`] | the JSON read trait (`JsValue` on wasm32, `serde_json::Value` elsewhere) |
//! | [`ramp`] | the onchain ramp link and the check of the ramp page's events |
//! | [`amount`] | exact decimal amounts (`parse_amount`) |
//! | [`types`] | option, argument and typed result structs; their TypeScript declarations are derived with tsify |
//! | [`bot`], [`merchant`] | the Rust shell: [`BotClient`] and [`MerchantClient`], typed async methods over a [`Transport`] |
//! | [`transport`] | the transport seam; on wasm32 `FetchTransport` (gloo-net builds each request, `transport/send.js` sends one attempt with its timeout and the caller's signal) |
//! | `js` | feature `npm` only: the named wasm exports the npm package's TypeScript shell drives (`Core`, `PreparedCall`, `OrderSearch` and a few functions); conversion only |
//!
//! The feature `npm` (off by default) builds the npm package's layer: the `js` exports and
//! the wasm32 global allocator. A Rust app that depends on this crate gets neither.
//!
//! # Notes for callers
//! * The default `P2PPayment` selection includes `paymentMethod`, `amountLocal`, `amountUsd`
//!   and `currency`, which are not in the service's observed schema. If the service rejects
//!   them, pass `fields` with the fields it has.
//! * Timeouts are per attempt and are retried like network errors (for read-only
//!   operations only).
//! * Under CORS, `Retry-After` is only visible when the service exposes it
//!   (`Access-Control-Expose-Headers: Retry-After`); otherwise backoff applies.

#![warn(missing_docs)]

pub mod amount;
pub mod bot;
pub mod call;
pub mod config;
pub mod error;
pub mod graphql;
pub mod host;
pub mod inputs;
pub mod json;
pub mod keys;
pub mod merchant;
pub mod operations;
pub mod pager;
pub mod ramp;
pub mod redact;
pub mod retry;
pub mod transport;
pub mod types;
pub mod watch;

#[cfg(all(target_arch = "wasm32", feature = "npm"))]
mod js;

/// The wasm32 global allocator: talc (smaller than std's dlmalloc on wasm32; measured in
/// scripts/build-pkg.sh's sizes).
#[cfg(all(
    target_arch = "wasm32",
    feature = "npm",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(all(test, not(target_arch = "wasm32")))]
mod testing;

pub use amount::{parse_amount, ParsedAmount};
pub use bot::{BotClient, OrderWatch, Orders};
pub use call::{Client, PreparedCall};
pub use config::{BotOptions, ClientOptions, MerchantOptions};
pub use error::{Code, Error, ErrorDetails, GraphqlError};
pub use json::Json;
pub use keys::{classify as classify_key, KeyKind};
pub use merchant::MerchantClient;
pub use operations::{Operation, Value};
pub use pager::{PageQuery, Search, SearchStep};
pub use ramp::{onchain_ramp_url, OnchainRampOptions};
pub use transport::{Signal, Transport};
pub use types::*;
