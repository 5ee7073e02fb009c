//! settlement-wasm: the client of the Stablecoin Settlement Service, for Rust front ends
//! (wasm32) and Rust servers (native), and the core of the npm package of the same name.
//!
//! # The Rust API
//! The same types on every target: [`BotClient`] (the agent's bot endpoint) and
//! [`MerchantClient`] (the merchant endpoint), over the target's [`DefaultTransport`]:
//! `fetch` on wasm32, reqwest natively (feature `reqwest`, on by default; inside a tokio
//! runtime), or any [`Transport`] with `with_transport`. Results are typed structs
//! ([`AgentProfile`], [`P2PPayment`], …) or `serde_json::Value`; every failure is an
//! [`Error`] with a stable [`Code`], and no message carries the key.
//!
//! ```no_run
//! use settlement_wasm::{BotClient, BotOptions, FieldOptions, OrdersArgs};
//!
//! # async fn example() -> Result<(), settlement_wasm::Error> {
//! let bot = BotClient::new(BotOptions {
//!     base_url: Some("https://settlement.example".into()),
//!     api_key: Some("agent-key".into()),
//!     ..BotOptions::default()
//! })?;
//! let profile = bot.profile(FieldOptions::default()).await?;
//! let mut orders = bot.orders(OrdersArgs::default())?;
//! while let Some(order) = orders.next().await? {
//!     println!("{:?} {:?}", order.id, order.status);
//! }
//! # drop(profile);
//! # Ok(())
//! # }
//! ```
//!
//! * Clients are cheap to `Clone`. Natively they are `Send + Sync` and their futures `Send`
//!   (for `tokio::spawn` and a server's state, where the merchant secret key belongs).
//! * Cancellation: one [`Signal`] type on every target, and dropping a call's future cancels
//!   its request.
//! * [`Orders`] owns its client; [`Orders::into_stream`] makes it a `Stream`.
//! * Read-only calls are retried (network errors, timeouts, 429, 502–504, with backoff or
//!   the server's `Retry-After`); mutations are sent once, and a lost answer is
//!   [`Code::OutcomeUnknown`]: read the order back with [`BotClient::reconcile`].
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
//! `orders()` and `reconcile` drive the core's order search (`src/pager.rs`) the same way:
//! it says which page call to run, hands out rows, and decides when to stop.
//!
//! # Where things live
//! | file | concern |
//! |---|---|
//! | [`operations`] | one declaration per built-in operation: endpoint, kind, root field, arguments (GraphQL type, caller name, check), default selection, result type, client method; documents, the schema test and both shells' method lists derive from it |
//! | `call.rs` | one call, sans I/O: `prepare`, `PreparedCall::decide` (retry, `outcome_unknown`, abort wins); `run`, the Rust shell's loop; [`Client`], the Rust clients' shared part |
//! | `pager.rs` | the order history page by page (`orders()` and `reconcile`'s matching), and a cursor connection page by page (`customers()`) |
//! | `watch.rs` | `watchOrders`: the polls' schedule (interval, backoff, `Retry-After`, pause while hidden, stop) and the diff of their snapshots, coalesced against the last delivered one |
//! | `inputs.rs` | argument validation, before any I/O |
//! | `graphql/` | `selection` (validated field paths), `body` (the serde request body), `scan` (read-only check of caller documents), `response` (the envelope) |
//! | `retry.rs` | which failures retry, backoff with jitter, `Retry-After` |
//! | `error.rs` | [`Error`], its codes, classification by HTTP status |
//! | `redact.rs` | every redaction of the key: in text and in parsed JSON |
//! | `config.rs` | client options: endpoint from `baseUrl`/`endpoint`, key, timeout, retries, headers |
//! | `keys.rs` | key classification (public / secret / unknown), the browser guard decision |
//! | `json.rs` | the core's JSON read trait (`JsValue` on wasm32, where JavaScript parses; `serde_json::Value` elsewhere) and the conversion to `serde_json::Value` at the Rust API |
//! | `proxy.rs` | feature `server` only: the server proxy's checks (which bodies `createProxyHandler` forwards, its refusals, the redaction of the service's answers) |
//! | [`webhook`] | a webhook delivery's checks (the token in constant time, the body's limit) and its typed events (`webhook::verify`); the npm server entries use it, the browser build links none of it (only its TypeScript declarations are shared) |
//! | [`ramp`] | the onchain ramp link and the check of the ramp page's events |
//! | `amount.rs` | exact decimal amounts ([`parse_amount`]) |
//! | `types.rs` | option, argument and typed result structs; their TypeScript declarations are derived with tsify |
//! | `bot.rs`, `merchant.rs` | the Rust shell: [`BotClient`] and [`MerchantClient`], typed async methods over a [`Transport`] |
//! | [`transport`] | the transport seam and [`Signal`]; on wasm32 `FetchTransport` (gloo-net builds each request, `transport/send.js` sends one attempt with its timeout, the caller's signal, and an abort on drop); natively `ReqwestTransport` |
//! | `js/` | the npm features only (`npm-bot`, `npm-merchant`, both: `npm`): the named wasm exports the npm package's TypeScript shell drives (`Core`, `PreparedCall`, `OrderSearch` and a few functions); conversion only |
//!
//! The feature `npm` (off by default) builds the npm package's layer: the `js` exports and
//! the wasm32 global allocator. A Rust app that depends on this crate gets neither. The
//! features `npm-bot` and `npm-merchant` build the same layer with one client's exports only
//! (the `settlement-wasm/bot` and `settlement-wasm/merchant` entries; `npm` is both, and
//! `npm-base` what they share). The feature `server` adds the server-only code (`proxy`) to
//! the whole layer: the server entries' build, never the browser's.
//!
//! # Notes for callers
//! * Every default selection holds only fields the service's own sources show
//!   (`docs/service.graphql`): the 16 observed `P2PPayment` fields for orders, for instance.
//!   A field a deployment adds (the sandbox's `amountLocal`, say) is asked for by name with
//!   `fields`.
//! * Timeouts are per attempt and are retried like network errors (for read-only
//!   operations only).
//! * Under CORS, `Retry-After` is only visible when the service exposes it
//!   (`Access-Control-Expose-Headers: Retry-After`); otherwise backoff applies.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The public surface is the re-exports below and the modules `operations` (the operation
// declarations `call_json` takes), `transport` (the trait and types of a custom transport)
// and `ramp` (the onchain ramp link and the check of its page's events). Every other module
// is the core's or the npm binding's, and may change without notice.
mod amount;
mod bot;
mod call;
mod config;
mod confirm;
mod error;
pub mod events;
mod graphql;
mod host;
mod inputs;
mod json;
mod keys;
mod merchant;
pub mod operations;
mod pager;
#[cfg(feature = "server")]
mod proxy;
pub mod ramp;
mod redact;
mod retry;
mod text;
pub mod transport;
mod types;
mod watch;
pub mod webhook;

#[cfg(all(target_arch = "wasm32", feature = "npm-base"))]
mod js;

/// The wasm32 global allocator: talc (smaller than std's dlmalloc on wasm32; measured in
/// scripts/build-pkg.sh's sizes).
#[cfg(all(
    target_arch = "wasm32",
    feature = "npm-base",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(all(test, not(target_arch = "wasm32")))]
mod testing;

pub use amount::{parse_amount, ParsedAmount};
pub use bot::{BotClient, OrderChange, OrderUpdate, OrderWatch, Orders};
pub use call::{Client, PreparedCall};
pub use config::{BotOptions, ClientOptions, Config, MerchantOptions};
pub use confirm::{ConfirmOutcome, ConfirmStep, Confirmation, Poll};
pub use error::{Code, Error, ErrorDetails, GraphqlError};
pub use keys::{classify as classify_key, KeyKind};
pub use merchant::MerchantClient;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub use merchant::{Customers, EventState};
pub use operations::{Operation, Value};
pub use ramp::{onchain_ramp_url, OnchainRampOptions};
#[cfg(any(target_arch = "wasm32", feature = "reqwest"))]
pub use transport::DefaultTransport;
#[cfg(target_arch = "wasm32")]
pub use transport::FetchTransport;
#[cfg(all(feature = "reqwest", not(target_arch = "wasm32")))]
pub use transport::ReqwestTransport;
pub use transport::{Signal, Transport};
pub use types::*;
pub use watch::{State as WatchState, Status as WatchStatus};

/// The README's examples, run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
