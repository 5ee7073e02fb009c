//! The events of a call, for the npm shell: `PreparedCall`'s `observe`, the `…Event` builders
//! and `logLine`. What each event holds (and what it leaves out) is [`crate::events`]'s rule;
//! this converts it to JavaScript objects with named members. Nothing here runs unless the
//! shell observes the call (a listener or a logger is set, or the response is asked for).

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::classes::Call;
use super::{error, object};
use crate::error::Error;
use crate::events::{self, Backoff, Event, ResponseInfo, Source, Trace};

/// A call's observation: its trace, and what the next event needs from the decision.
pub struct Observed {
    trace: Trace,
    backoff: Option<Backoff>,
    failure: Option<Error>,
    last: Option<Event>,
}

fn text(s: &str) -> JsValue {
    JsValue::from_str(s)
}

fn number(n: f64) -> JsValue {
    JsValue::from_f64(n)
}

/// `{ name: value, ... }` of the response's headers.
fn headers_object(headers: &[(String, String)]) -> JsValue {
    let o = Object::new();
    for (name, value) in headers {
        // A data property on a fresh plain object cannot fail.
        let _ = Reflect::set(&o, &text(name), &text(value));
    }
    o.into()
}

/// `{ status, headers, requestId? }`.
fn response_object(info: &ResponseInfo) -> JsValue {
    let o = object(&[
        ("status", &JsValue::from(info.status)),
        ("headers", &headers_object(&info.headers)),
    ]);
    if let Some(id) = &info.request_id {
        let _ = Reflect::set(&o, &text("requestId"), &text(id));
    }
    o
}

/// The JavaScript form of `event` (an `error` event carries `error`, the thrown object).
fn event_object(event: &Event, error: &JsValue) -> JsValue {
    let call = event.call();
    let o = object(&[
        ("type", &text(event.event_type().name())),
        ("callId", &text(&call.id)),
        ("operation", &text(call.operation)),
        ("kind", &text(call.kind)),
        ("source", &text(call.source.name())),
    ]);
    let set = |name: &str, value: &JsValue| {
        let _ = Reflect::set(&o, &text(name), value);
    };
    match event {
        Event::Request { attempt, url, .. } => {
            set("attempt", &JsValue::from(*attempt));
            set("url", &text(url));
        }
        Event::Response {
            attempt,
            duration_ms,
            response,
            ..
        } => {
            set("attempt", &JsValue::from(*attempt));
            set("durationMs", &number(*duration_ms));
            set("status", &JsValue::from(response.status));
            set("headers", &headers_object(&response.headers));
            if let Some(id) = &response.request_id {
                set("requestId", &text(id));
            }
        }
        Event::Retry {
            attempt, backoff, ..
        } => {
            set("attempt", &JsValue::from(*attempt));
            set("delayMs", &number(backoff.delay_ms as f64));
            set("reason", &text(backoff.reason.name()));
            if let Some(status) = backoff.status {
                set("status", &JsValue::from(status));
            }
        }
        Event::Error { .. } => set("error", error),
        Event::Done {
            duration_ms,
            attempts,
            ..
        } => {
            set("durationMs", &number(*duration_ms));
            set("attempts", &JsValue::from(*attempts));
        }
    }
    o
}

/// The header list `[{ name, value }, ...]` the shell read from a response.
fn header_pairs(list: &JsValue) -> Vec<(String, String)> {
    let Some(list) = list.dyn_ref::<Array>() else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|item| {
            let name = Reflect::get(&item, &text("name")).ok()?.as_string()?;
            let value = Reflect::get(&item, &text("value")).ok()?.as_string()?;
            Some((name, value))
        })
        .collect()
}

impl Call {
    /// Keeps `err` for the `error` event when the call is observed; returns it.
    pub(super) fn failed(&self, err: Error) -> Error {
        if let Some(o) = self.observed.borrow_mut().as_mut() {
            o.failure = Some(err.clone());
        }
        err
    }

    /// Keeps `backoff` for the `retry` event when the call is observed.
    pub(super) fn retrying(&self, backoff: Backoff) {
        if let Some(o) = self.observed.borrow_mut().as_mut() {
            o.backoff = Some(backoff);
        }
    }

    /// Builds an event with the observation (none when the call is not observed).
    fn event(
        &self,
        build: impl FnOnce(&mut Observed) -> Option<Event>,
        error: &JsValue,
    ) -> JsValue {
        let mut observed = self.observed.borrow_mut();
        let Some(o) = observed.as_mut() else {
            return JsValue::UNDEFINED;
        };
        match build(o) {
            Some(event) => {
                let js = event_object(&event, error);
                o.last = Some(event);
                js
            }
            None => JsValue::UNDEFINED,
        }
    }
}

#[wasm_bindgen(js_class = PreparedCall)]
impl Call {
    /// Starts observing the call (a new call id) from now; `source` names what made it
    /// (`"call"`, `"orders"`, `"reconcile"`, `"watchOrders"`, `"confirmUntilSettled"`,
    /// `"proxy"`; anything else counts as `"call"`).
    pub fn observe(&self, source: &str) {
        let info = self
            .call
            .call_info(Source::parse(source).unwrap_or(Source::Call));
        *self.observed.borrow_mut() = Some(Observed {
            trace: Trace::new(info, js_sys::Date::now()),
            backoff: None,
            failure: None,
            last: None,
        });
    }

    /// The `request` event of the attempt starting now.
    #[wasm_bindgen(js_name = requestEvent, unchecked_return_type = "CallRequestEvent | undefined")]
    pub fn request_event(&self) -> JsValue {
        let config = &self.settings.config;
        self.event(
            |o| Some(o.trace.request(config, js_sys::Date::now())),
            &JsValue::UNDEFINED,
        )
    }

    /// The `response` event of the answer (`status`, the headers as `[{ name, value }]`)
    /// that arrived now.
    #[wasm_bindgen(js_name = responseEvent, unchecked_return_type = "CallResponseEvent | undefined")]
    pub fn response_event(
        &self,
        status: u16,
        #[wasm_bindgen(unchecked_param_type = "HeaderEntry[]")] headers: JsValue,
    ) -> JsValue {
        let config = &self.settings.config;
        let pairs = header_pairs(&headers);
        let info = ResponseInfo::new(
            status,
            pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())),
            config,
        );
        self.event(
            |o| Some(o.trace.response(info, js_sys::Date::now())),
            &JsValue::UNDEFINED,
        )
    }

    /// The `retry` event of the retry `decide` just returned.
    #[wasm_bindgen(js_name = retryEvent, unchecked_return_type = "CallRetryEvent | undefined")]
    pub fn retry_event(&self) -> JsValue {
        self.event(
            |o| o.backoff.take().map(|b| o.trace.retry(b)),
            &JsValue::UNDEFINED,
        )
    }

    /// The `error` event of the error the call ends with (`error`, the thrown object).
    #[wasm_bindgen(js_name = errorEvent, unchecked_return_type = "CallErrorEvent | undefined")]
    pub fn error_event(&self, error: JsValue) -> JsValue {
        let config = &self.settings.config;
        self.event(
            |o| {
                let failure = o
                    .failure
                    .take()
                    .unwrap_or_else(|| Error::invalid("call", "the call failed"));
                Some(o.trace.error(config, &failure))
            },
            &error,
        )
    }

    /// The `done` event: the call ended now.
    #[wasm_bindgen(js_name = doneEvent, unchecked_return_type = "CallDoneEvent | undefined")]
    pub fn done_event(&self) -> JsValue {
        self.event(
            |o| Some(o.trace.done(js_sys::Date::now())),
            &JsValue::UNDEFINED,
        )
    }

    /// The logger's line for the last event built, if it has one.
    #[wasm_bindgen(js_name = logLine, unchecked_return_type = "LogLine | undefined")]
    pub fn log_line(&self) -> JsValue {
        let observed = self.observed.borrow();
        let line = observed
            .as_ref()
            .and_then(|o| o.last.as_ref())
            .and_then(events::log_line);
        match line {
            Some((level, line)) => {
                object(&[("level", &text(level.name())), ("line", &text(&line))])
            }
            None => JsValue::UNDEFINED,
        }
    }

    /// The response behind a result or an error: `{ status, headers, requestId? }`, from the
    /// `status` and the headers (`[{ name, value }]`) the shell read; `set-cookie` is left
    /// out and the key redacted.
    #[wasm_bindgen(unchecked_return_type = "ResponseInfo")]
    pub fn response(
        &self,
        status: u16,
        #[wasm_bindgen(unchecked_param_type = "HeaderEntry[]")] headers: JsValue,
    ) -> JsValue {
        let pairs = header_pairs(&headers);
        let pairs = pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        response_object(&ResponseInfo::new(status, pairs, &self.settings.config))
    }
}

/// Checks `on`/`off`'s arguments: `type` must name an event type and `listener` be a
/// function; else `invalid_input` naming the argument.
#[wasm_bindgen(js_name = checkEventListener)]
pub fn check_event_listener(
    #[wasm_bindgen(js_name = "type")] event_type: JsValue,
    listener: JsValue,
) -> Result<(), JsValue> {
    let known = event_type
        .as_string()
        .and_then(|t| events::EventType::parse(&t));
    if known.is_none() {
        return Err(error::to_js(&events::invalid_type()));
    }
    if !listener.is_function() {
        let e = Error::invalid("listener", "the listener must be a function");
        return Err(error::to_js(&e));
    }
    Ok(())
}

// The shapes of the events (the glue's types; the TypeScript shell re-exports them).
#[wasm_bindgen(typescript_custom_section)]
const EVENT_SHAPES: &'static str = r#"
/** One response header, as the shell read it. */
export interface HeaderEntry { name: string; value: string }

/** The response behind a result or an error: `set-cookie` left out, the key redacted. */
export interface ResponseInfo {
  /** The HTTP status. */
  status: number;
  /** The headers, names in lower case. */
  headers: Record<string, string>;
  /** The service's request id (`x-request-id`, `request-id`, `x-correlation-id` or `x-amzn-requestid`), when one was sent. */
  requestId?: string;
}

/** What made a call: a client method, or one of the helpers that make calls. */
export type CallSource = "call" | "orders" | "reconcile" | "watchOrders" | "confirmUntilSettled" | "proxy";

/** What every event carries. */
export interface CallEventBase {
  /** The call's id: the same for every event of one call, across its attempts. */
  callId: string;
  /** The operation's field name (`"profile"`), or `"request"` for `request()`. */
  operation: string;
  kind: "query" | "mutation";
  source: CallSource;
}

/** Before each attempt. */
export interface CallRequestEvent extends CallEventBase { type: "request"; attempt: number; url: string }
/** After each attempt that got an answer. */
export interface CallResponseEvent extends CallEventBase {
  type: "response"; attempt: number; status: number; durationMs: number;
  headers: Record<string, string>; requestId?: string;
}
/** Before the backoff sleep of a retry. */
export interface CallRetryEvent extends CallEventBase {
  type: "retry"; attempt: number; delayMs: number;
  reason: "status" | "timeout" | "network" | "retry-after"; status?: number;
}
/** When a call ends with an error. */
export interface CallErrorEvent extends CallEventBase { type: "error"; error: Error & SettlementErrorDetails }
/** When a call ends (after `error` when it failed). */
export interface CallDoneEvent extends CallEventBase { type: "done"; durationMs: number; attempts: number }

/** Every event type and its event. */
export interface SettlementEventMap {
  request: CallRequestEvent;
  response: CallResponseEvent;
  retry: CallRetryEvent;
  error: CallErrorEvent;
  done: CallDoneEvent;
}

/** A logger line: the logger method and the (redacted) text. */
export interface LogLine { level: "debug" | "warn" | "error"; line: string }
"#;
