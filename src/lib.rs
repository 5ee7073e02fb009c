//! settlement-wasm: browser and Node client (Rust + WebAssembly) for the Stablecoin
//! Settlement Service.
//!
//! # Where things live
//! | module | concern |
//! |---|---|
//! | [`config`] | client options: endpoint from `baseUrl`/`endpoint`, key, timeout, retries, headers |
//! | [`keys`] | key classification (public / secret / unknown), the browser guard decision |
//! | [`redact`] | every redaction of the key: in text and in parsed JSON |
//! | [`inputs`] | argument validation, before any I/O |
//! | [`operations`] | one declaration per built-in operation: endpoint, kind, root field, arguments, default selection, return type; documents derive from it |
//! | [`graphql`] | `selection` (validated field paths), `body` (serde request body), `scan` (read-only check of caller documents), `response` (envelope decoding) |
//! | [`json`] | the JSON read trait (`JsValue` on wasm32, `serde_json::Value` elsewhere) |
//! | [`error`] | [`Error`], its codes, classification by HTTP status |
//! | [`retry`] | which failures retry, backoff with jitter, `Retry-After` |
//! | [`call`] | the shared client core ([`Client`], [`PreparedCall`]); one call: send, decode, retry |
//! | [`transport`] | the transport seam; `FetchTransport` on wasm32 (gloo-net builds a per-client base request, each call is `new Request(base, { body, signal })` sent by `fetch`; web-sys bindings). Its JavaScript half, `transport/send.js`, runs one attempt or backoff sleep as one promise; one timer serves the deadlines of every attempt and sleep in flight |
//! | [`pager`] | the `orders()` pagination state machine (of the Rust API; the npm package's `OrderIterator` follows the same rules in `pkg-template/compose.js`) |
//! | [`bot`] | [`BotClient`]: `prepare(op, values, options)` over [`operations`], typed profile, orderHistory, orders, withdrawalInfo; the six agent mutations (sent once; `outcome_unknown` when the answer is lost) and `reconcile`; request |
//! | [`merchant`] | [`MerchantClient`]: the same shape: account and the public-key-safe reads; the browser guard |
//! | [`ramp`] | the onchain ramp link and the check of the ramp page's events |
//! | [`amount`] | exact decimal amounts (`parse_amount`) |
//! | [`types`] | option, argument and typed result structs; their TypeScript declarations are derived with tsify |
//! | `js` | (wasm32) the two exports: the class `__Client` (`__call(n, …)` runs method `n` of `operations::BOT_CALLS`/`MERCHANT_CALLS`) and `__fn(n, …)` (the package's functions); conversion and forwarding only (`options.rs`: the one small typed reader of JS option objects). The npm classes and functions are defined around them in `pkg-template/compose.js`; their TypeScript is declared beside the Rust |
//!
//! Everything but `transport`'s fetch implementation and `js` compiles and is tested
//! natively (`cargo test`).
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

#[cfg(test)]
mod testing;

pub use amount::{parse_amount, ParsedAmount};
pub use bot::{BotClient, Orders};
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
