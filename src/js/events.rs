//! The events of a call, for the npm shell: `PreparedCall`'s `observe` and `event` (whose
//! `response` event is also the response behind a result or an error). What each event holds (and what it leaves out) is [`crate::events`]'s rule;
//! this converts it to JavaScript objects with named members. Nothing here runs unless the
//! shell observes the call (a listener or a logger is set, or the response is asked for).

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use super::classes::Call;
use super::{error, object};
use crate::error::Error;
use crate::events::{self, Backoff, Event, ResponseInfo, Source, Trace};

/// A call's observation: its trace, and what the next event needs from the decision.
pub struct Observed {
    trace: Trace,
    /// The backoff of the retry decided last (for the `retry` event).
    backoff: Option<Backoff>,
    /// The error the call ended with (for the `error` event and its line).
    failure: Option<Error>,
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

/// Sets `{ status, headers, requestId? }` of `response` on `o` (a response event, or the
/// response behind a result).
fn response_members(o: &JsValue, response: &ResponseInfo) {
    let set = |name: &str, value: &JsValue| {
        let _ = Reflect::set(o, &text(name), value);
    };
    set("status", &JsValue::from(response.status));
    set("headers", &headers_object(&response.headers));
    if let Some(id) = &response.request_id {
        set("requestId", &text(id));
    }
}

/// What every event object carries: `{ type, callId, operation, kind, source }`.
fn base_object(call: &events::CallInfo, event_type: &str) -> JsValue {
    object(&[
        ("type", &text(event_type)),
        ("callId", &text(&call.id)),
        ("operation", &text(call.operation)),
        ("kind", &text(call.kind)),
        ("source", &text(call.source.name())),
    ])
}

/// The JavaScript form of `event` (an `error` event is built apart, with the thrown object).
fn event_object(event: &Event) -> JsValue {
    let o = base_object(event.call(), event.event_type().name());
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
            set("durationMs", &number(*duration_ms as f64));
            response_members(&o, response);
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
        Event::Error { .. } => {}
        Event::Done {
            duration_ms,
            attempts,
            ..
        } => {
            set("durationMs", &number(*duration_ms as f64));
            set("attempts", &JsValue::from(*attempts));
        }
    }
    o
}

/// The response info of `status` and the header block (`name: value` lines) the shell read.
#[inline(never)]
fn response_info(status: u16, headers: &str, config: &crate::config::Config) -> ResponseInfo {
    ResponseInfo::new(status, events::header_lines(headers), config)
}

/// Writes `event`'s line (the core's [`Event::log_line`]) to `logger`; a logger that throws
/// is ignored (its failure is not the call's).
fn log(logger: &Option<super::options::Logger>, event: &Event) {
    let (Some(l), Some((level, line))) = (logger, event.log_line()) else {
        return;
    };
    let method = match level {
        events::Level::Debug => &l.debug,
        events::Level::Warn => &l.warn,
        events::Level::Error => &l.error,
    };
    let _ = method.call1(&l.target, &text(&line));
}

impl Call {
    /// Keeps `backoff` for the `retry` event when the call is observed.
    pub(super) fn retrying(&self, backoff: Backoff) {
        if let Some(o) = self.observed.borrow_mut().as_mut() {
            o.backoff = Some(backoff);
        }
    }

    /// The `SettlementError` of `err`, the error the call ends with; kept for the `error`
    /// event when the call is observed.
    pub(super) fn failing(&self, err: Error) -> JsValue {
        let js = error::to_js(&err);
        if let Some(o) = self.observed.borrow_mut().as_mut() {
            o.failure = Some(err);
        }
        js
    }

    /// How a loop (a watch, a confirmation) took in this call's one attempt: its backoff is
    /// kept for the `retry` event; its error is returned.
    pub(super) fn settled(&self, settled: Result<Option<Backoff>, Error>) -> Result<(), Error> {
        if let Some(backoff) = settled? {
            self.retrying(backoff);
        }
        Ok(())
    }
}

#[wasm_bindgen(js_class = PreparedCall)]
impl Call {
    /// The response behind the call's value or error (`{ status, headers, requestId? }`) from
    /// its `status` and `headers` (a block of `name: value` lines), as events show it; no
    /// event is built and no line written.
    #[wasm_bindgen(unchecked_return_type = "ResponseInfo")]
    pub fn response(&self, status: u16, headers: &str) -> JsValue {
        let o = Object::new().into();
        response_members(&o, &response_info(status, headers, &self.settings.config));
        o
    }

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
        });
    }

    /// The event `type` of this call, now, its line written to the `logger` option when there
    /// is one: `"request"` (an attempt starts), `"retry"` (a retry or a loop's backoff was
    /// decided), `"error"` (the call ended with an error the core made: that error) or
    /// `"done"` (the call ended). Undefined when the call is not observed, or there is no
    /// such event now (no backoff, no error; a `"response"` is `responseEvent`'s).
    #[wasm_bindgen(unchecked_return_type = "CallEvent | undefined")]
    pub fn event(
        &self,
        #[wasm_bindgen(
            js_name = "type",
            unchecked_param_type = "\"request\" | \"retry\" | \"error\" | \"done\""
        )]
        event_type: &str,
    ) -> JsValue {
        if event_type == "error" {
            return self.error_event(JsValue::UNDEFINED);
        }
        let config = &self.settings.config;
        let now = js_sys::Date::now();
        self.built(|o| match events::EventType::parse(event_type) {
            Some(events::EventType::Request) => Some(o.trace.request(config, now)),
            Some(events::EventType::Retry) => o.backoff.take().map(|b| o.trace.retry(b)),
            Some(events::EventType::Done) => Some(o.trace.done(now)),
            _ => None,
        })
    }

    /// The `response` event of the attempt answered now with `status` and `headers` (a block
    /// of `name: value` lines), its line written to the `logger` option when there is one;
    /// undefined when the call is not observed.
    #[wasm_bindgen(js_name = responseEvent, unchecked_return_type = "CallResponseEvent | undefined")]
    pub fn response_event(&self, status: u16, headers: &str) -> JsValue {
        let config = &self.settings.config;
        let now = js_sys::Date::now();
        self.built(|o| {
            Some(
                o.trace
                    .response(response_info(status, headers, config), now),
            )
        })
    }

    /// The `error` event of the error the call ended with (the one the core made), its line
    /// written to the `logger` option when there is one. `error`: the object the call rejects
    /// with (undefined: the core's own `SettlementError` of it). Undefined when the call is
    /// not observed or ended with no error of the core.
    #[wasm_bindgen(js_name = errorEvent, unchecked_return_type = "CallEvent | undefined")]
    pub fn error_event(&self, error: JsValue) -> JsValue {
        let config = &self.settings.config;
        let mut observed = self.observed.borrow_mut();
        let Some((o, failure)) = observed
            .as_mut()
            .and_then(|o| o.failure.take().map(|f| (o, f)))
        else {
            return JsValue::UNDEFINED;
        };
        let error = match error.is_undefined() {
            true => error::to_js(&failure),
            false => error,
        };
        log(&self.settings.logger, &o.trace.error(config, &failure));
        let js = base_object(o.trace.call(), "error");
        let _ = Reflect::set(&js, &text("error"), &error);
        js
    }

    /// The event `build` makes from the call's observation (none when it is not observed),
    /// its line written to the logger, as a JavaScript object.
    fn built(&self, build: impl FnOnce(&mut Observed) -> Option<Event>) -> JsValue {
        let event = self.observed.borrow_mut().as_mut().and_then(build);
        match event {
            Some(event) => {
                log(&self.settings.logger, &event);
                event_object(&event)
            }
            None => JsValue::UNDEFINED,
        }
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
/** The response behind a result or an error: `set-cookie` left out, the key redacted. */
export interface ResponseInfo {
  /** The HTTP status. */
  status: number;
  /** The headers, names in lower case. */
  headers: Record<string, string>;
  /** The service's request id (`x-request-id`, `request-id` or `x-correlation-id`), when one was sent. */
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

/**
 * An event as the core builds it for the shell: the error event's `error` is the object the
 * shell gave (the browser and server builds' error codes differ). @internal
 */
export type CallEvent = CallRequestEvent | CallResponseEvent | CallRetryEvent | CallDoneEvent
  | (Omit<CallErrorEvent, "error"> & { error: unknown });

/** Every event type and its event. */
export interface SettlementEventMap {
  request: CallRequestEvent;
  response: CallResponseEvent;
  retry: CallRetryEvent;
  error: CallErrorEvent;
  done: CallDoneEvent;
}
"#;
