//! The npm package's binding (wasm32, feature `npm`): the named exports that the TypeScript
//! shell (`pkg-template/src/`) drives. It converts JavaScript values to and from the core's
//! types and forwards; every rule is the core's.
//!
//! | export | what it is |
//! |---|---|
//! | `Core` (`classes.rs`) | one client's validated configuration: `prepare(method, argument, options)`, `request`, `orders`, `reconcile` |
//! | `Call` (`PreparedCall`) | one call: its request (`url`, `headers`, `body`, `timeoutMs`, `signal`) and the decision after each attempt (`start`, `decide`) |
//! | `Search` (`OrderSearch`) | `orders()` and `reconcile` as the core's pager: `next`, `receive`, `finish` |
//! | `Confirmation` | `confirmUntilSettled` as the core's confirmation loop: `next`, `settle` |
//! | `Watch` (`OrderWatchCore`) | `watchOrders()` as the core's watch: `step`, `settle`, `setHidden`, `stop`, `status`, `takeUpdate`, `takeError` |
//! | `ProxyPolicy` (`proxy.rs`, feature `server` only) | `createProxyHandler`'s checks: `checkMethod`, `check(body)` (forward or refuse), its own answers, `redact` |
//! | `WebhookPolicy` (`webhook.rs`, feature `server` only) | `createWebhookHandler`'s and `verifyWebhook`'s checks: `checkMethod`, `checkToken`, `parse(body)` (event or refusal), their own answers |
//! | functions | `useErrorClass`, `classifyKey`, `onchainRampUrl`, `parseAmount`, `checkRampListener`, `isCryptoRequested` |
//!
//! Each entry's browser build exports only its clients' part (Cargo features): `npm-bot`
//! the bot endpoint's `Core`, `Search` and `Watch`; `npm-merchant` the merchant endpoint's
//! `Core`, `Confirmation` and the ramp's functions; the root (`npm`, both) also `classifyKey`
//! and `parseAmount`. `Core`, `Call` and `useErrorClass` are in every build.
//!
//! Objects cross the boundary with named members (`{ kind: "retry", delayMs }`), declared
//! for TypeScript in `SHAPES`. `options.rs` is the one reader of the caller's option
//! objects: it reads each value once, catching, and refuses what it cannot use with
//! `invalid_input` naming the option.

mod classes;
mod error;
mod events;
mod options;
#[cfg(feature = "server")]
mod proxy;
#[cfg(feature = "server")]
mod webhook;

use wasm_bindgen::prelude::*;

/// Builds the JavaScript object `{ member: value, ... }`.
fn object(members: &[(&str, &JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (name, value) in members {
        // Setting a data property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(name), value);
    }
    o.into()
}

// The shapes of the objects the exports take and return (the glue's types; the TypeScript
// shell imports them).
#[wasm_bindgen(typescript_custom_section)]
const SHAPES: &'static str = r#"
/** What one attempt brought back, as the shell observed it. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfter?: string | undefined; body: string; headers?: unknown }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "failed"; error: unknown };

/** What follows an attempt: the value, or a retry after a delay (an error is thrown). */
export type Decision =
  | { kind: "done"; value: any }
  | { kind: "retry"; delayMs: number };

/** What a confirmation loop's driver does next: send a confirmation and `receive` its value, wait, or stop. */
export type ConfirmationStep =
  | { kind: "send"; call: PreparedCall }
  | { kind: "wait"; delayMs: number }
  | { kind: "done"; outcome: ConfirmOutcome };

/** What an order watch's driver does next: send its poll, sleep, wait for the page to be visible, or stop. */
export type WatchStep =
  | { kind: "send" }
  | { kind: "sleep"; delayMs: number }
  | { kind: "idle" }
  | { kind: "stop" };

/**
 * Where an order watch is, for a "live · paused · retrying in 20 s" badge. `Error` is the
 * error class of the entry that delivers it (the npm shell's `SettlementError`).
 */
export type WatchStatus<Error = unknown> = {
  /**
   * `polling`: on schedule (a poll in flight or the next one due); `paused`: the page is
   * hidden; `retrying`: the last poll failed and the next one waits for the backoff;
   * `stopped`: over (stopped, aborted, or ended by a failure that is not retryable).
   */
  state: "polling" | "paused" | "retrying" | "stopped";
  /** `retrying`: the last poll's failure; `stopped`: the failure that ended the watch. */
  error?: Error;
  /** When a poll is scheduled: the ms until it is sent. */
  nextPollInMs?: number;
};

/** A row of the watched page that changed between two updates. */
export interface OrderWatchChange<Row = P2PPayment> {
  /** The row as last delivered. */
  before: Row;
  /** The row now. */
  after: Row;
}

/** What changed since the previous update (the first update has every row in `added`); the rows as the service sent them. */
export interface OrderWatchUpdate<Row = P2PPayment> {
  /** The current first page. */
  rows: Row[];
  /** Rows whose `id` was not in the previous update's rows. */
  added: Row[];
  /** Rows whose selected fields differ from the previous update's. */
  changed: OrderWatchChange<Row>[];
  /** Rows of the previous update that are no longer in `rows`. */
  removed: Row[];
  /** `pagination.total`: every matching order, not only this page's (`null` when the page had none). */
  total: number | null;
}

/** What an order search's driver does next: hand out a row, run a call and `receive` its value, or stop. */
export type SearchStep =
  | { kind: "row"; row: any }
  | { kind: "fetch"; call: PreparedCall }
  | { kind: "done" };
"#;

/// Installs (once) a panic hook that reports the panic's location on `console.error`. A
/// panic is a bug; the report never carries caller data.
fn install_panic_hook() {
    use std::sync::Once;
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let mut m = String::from("settlement-wasm: internal error (panic)");
            if let Some(l) = info.location() {
                m.push_str(" at ");
                m.push_str(l.file());
                m.push(':');
                crate::text::push_unsigned(&mut m, l.line().into());
            }
            web_sys::console::error_1(&JsValue::from_str(&m));
        }));
    });
}

/// Registers the class every error is built with (`new ctor(message, details)`): the
/// shell's `SettlementError`. Called once, right after instantiation.
#[wasm_bindgen(js_name = useErrorClass)]
pub fn use_error_class(
    #[wasm_bindgen(unchecked_param_type = "Function")] ctor: JsValue,
) -> Result<(), JsValue> {
    install_panic_hook();
    error::register(ctor)
}

/// `classifyKey(key)`: the key's class by its `PUBK_` / `SECK_` marker; the key is not kept.
/// The root entry's (built with both clients).
#[cfg(all(feature = "npm-bot", feature = "npm-merchant"))]
#[wasm_bindgen(js_name = classifyKey, unchecked_return_type = "\"public\" | \"secret\" | \"unknown\"")]
pub fn classify_key(key: JsValue) -> JsValue {
    let kind = match options::text(&key, "key", crate::inputs::MAX_TEXT_LEN) {
        Ok(Some(k)) => crate::keys::classify(&k),
        _ => crate::keys::KeyKind::Unknown,
    };
    JsValue::from_str(kind.as_str())
}

/// `onchainRampUrl(options)`: the hosted onchain ramp link (the merchant entry's and the root's).
#[cfg(feature = "npm-merchant")]
#[wasm_bindgen(js_name = onchainRampUrl)]
pub fn onchain_ramp_url(options: JsValue) -> Result<String, JsValue> {
    options::ramp_url(&options).map_err(|e| error::to_js(&e))
}

/// `parseAmount(text)`: decimal text as `{ minorUnits, scale }`. The root entry's.
#[cfg(all(feature = "npm-bot", feature = "npm-merchant"))]
#[wasm_bindgen(js_name = parseAmount, unchecked_return_type = "ParsedAmount")]
pub fn parse_amount(text: JsValue) -> Result<JsValue, JsValue> {
    let text = options::text(&text, "amount", crate::inputs::MAX_TEXT_LEN)
        .map_err(|e| error::to_js(&e))?;
    let a = crate::amount::parse_amount(&text.unwrap_or_default()).map_err(|e| error::to_js(&e))?;
    Ok(object(&[
        ("minorUnits", &JsValue::from(a.minor_units)),
        ("scale", &JsValue::from(a.scale)),
    ]))
}

/// Checks `listenForRampEvents`' options (`options`, with no other key, whose values the shell
/// read once): `allowedOrigin` an origin, `onCryptoRequested` a function, `target` (absent:
/// the global object) an object with `addEventListener`. The merchant entry's and the root's.
#[cfg(feature = "npm-merchant")]
#[wasm_bindgen(js_name = checkRampListener)]
pub fn check_ramp_listener(
    options: JsValue,
    allowed_origin: JsValue,
    on_crypto_requested: JsValue,
    target: JsValue,
) -> Result<(), JsValue> {
    options::ramp_listener(&options, &allowed_origin, &on_crypto_requested, &target)
        .map(drop)
        .map_err(|e| error::to_js(&e))
}

/// Whether a `message` event is a `crypto.requested` message of the documented shape from
/// exactly `allowedOrigin` (the ramp page's): the listener's filter. The merchant entry's and
/// the root's.
#[cfg(feature = "npm-merchant")]
#[wasm_bindgen(js_name = isCryptoRequested)]
pub fn is_crypto_requested(allowed_origin: JsValue, origin: JsValue, data: JsValue) -> bool {
    crate::ramp::accepts(&allowed_origin, &origin, &data)
}

#[cfg(any(feature = "server", feature = "test-hooks"))]
/// A test hook, in the server build (its entries expose it only when the environment variable
/// `SETTLEMENT_WASM_TEST_HOOKS` is `1`) and in a browser build made with the feature
/// `test-hooks` (`SETTLEMENT_WASM_TEST_HOOKS=1 scripts/build-pkg.sh`; never published): overflows the
/// instance's stack with a recursion `depth` calls deep, as an undiscovered unbounded
/// recursion would. The trap leaves the instance unusable (its stack pointer is never
/// restored), which is what the entries' replacement of the instance is tested against.
#[wasm_bindgen(js_name = forceTrapForTests)]
pub fn force_trap_for_tests(depth: u32) -> u32 {
    /// One frame of about 1 KB of stack, kept by `black_box` (no tail call, no inlining).
    fn dive(n: u32, depth: u32) -> u32 {
        let mut frame = [0u8; 1024];
        frame[(n as usize) % 1024] = n as u8;
        let frame = std::hint::black_box(frame);
        if n >= depth {
            return u32::from(frame[0]);
        }
        dive(n + 1, depth).wrapping_add(u32::from(frame[(n as usize * 7) % 1024]))
    }
    dive(0, depth)
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests;
