//! The exported classes: [`Core`] (a client's configuration), [`Call`] (one call),
//! [`Search`] (`orders()` and `reconcile`), [`Watch`] (`watchOrders()`) and [`Confirmation`]
//! (`confirmUntilSettled`).
//!
//! An export that runs JavaScript while it works (reading a caller's value, building an
//! error) returns a `Result`, never exactly one JavaScript value. Node 20's V8 inlines a
//! wasm call whose only result is a JavaScript value into the optimized function that makes
//! it, and aborts the whole process ("Fatal error … unreachable code" in its deoptimizer)
//! when that function is deoptimized while the call runs: a caller's error object read by
//! `decide` was enough. A `Result` is several wasm results, which V8 does not inline. The
//! getters return one value: they run no JavaScript.

use std::rc::Rc;

use js_sys::Function;
use wasm_bindgen::prelude::*;

use super::{error, object, options};
use crate::call::{Attempt, Next, PreparedCall};
use crate::config::Config;
#[cfg(feature = "npm-bot")]
use crate::config::BOT_PATH;
#[cfg(feature = "npm-merchant")]
use crate::config::MERCHANT_PATH;
use crate::error::Error;
use crate::operations::{self, Endpoint};
#[cfg(feature = "npm-bot")]
use crate::pager::{PageQuery, SearchStep};
use crate::transport::Signal;

/// A client's validated configuration, with the parts of its requests that JavaScript reads:
/// the endpoint URL and the headers object, made once with the client.
pub(super) struct Settings {
    pub(super) config: Config,
    url: JsValue,
    headers: JsValue,
    /// The `logger` option, read once (the calls' lines go to it).
    pub(super) logger: Option<options::Logger>,
}

impl Settings {
    pub(super) fn new(config: Config, logger: Option<options::Logger>) -> Settings {
        let values: Vec<(&str, JsValue)> = config
            .headers()
            .iter()
            .map(|(name, value)| (name.as_str(), JsValue::from_str(value)))
            .collect();
        let members: Vec<(&str, &JsValue)> = values.iter().map(|(n, v)| (*n, v)).collect();
        let headers = object(&members);
        let url = JsValue::from_str(config.endpoint());
        Settings {
            config,
            url,
            headers,
            logger,
        }
    }
}

/// One client's validated configuration (`BotClient` and `MerchantClient` each hold one):
/// where every call of the client starts.
#[wasm_bindgen]
pub struct Core {
    endpoint: Endpoint,
    settings: Rc<Settings>,
    fetch: Option<Function>,
}

#[wasm_bindgen]
impl Core {
    /// Reads and checks the client's options (`baseUrl` or `endpoint`, `apiKey`, `timeoutMs`,
    /// `maxRetries`, `headers`, `fetch`; for the merchant endpoint `dangerouslyAllowBrowser`
    /// and the browser guard). Throws `SettlementError` (`invalid_input`,
    /// `secret_key_in_browser`), redacted.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "\"bot\" | \"merchant\"")] endpoint: &str,
        options: JsValue,
    ) -> Result<Core, JsValue> {
        super::install_panic_hook();
        let (endpoint, path) = match endpoint {
            #[cfg(feature = "npm-merchant")]
            "merchant" => (Endpoint::Merchant, MERCHANT_PATH),
            #[cfg(feature = "npm-bot")]
            "bot" => (Endpoint::Bot, BOT_PATH),
            // The shell names only the endpoints of the clients its entry exports.
            _ => {
                let e = Error::invalid(
                    "endpoint",
                    [endpoint, " has no client in this build"].concat(),
                );
                return Err(error::to_js(&e));
            }
        };
        let (opts, hooks) =
            options::client_options(&options, endpoint).map_err(|e| error::to_js(&e))?;
        let fetch = hooks.fetch;
        let config = options::check_client(&opts, fetch.as_ref(), &options, endpoint)
            .and_then(|()| Config::new(&opts, path))
            .map_err(|e| error::to_js(&e.redact(opts.api_key.as_deref())))?;
        Ok(Core {
            endpoint,
            settings: Rc::new(Settings::new(config, hooks.logger)),
            fetch,
        })
    }

    /// Whether the `logger` option was given (then every call is observed: the core writes
    /// its lines to the logger as it builds the events).
    #[wasm_bindgen(getter)]
    pub fn logs(&self) -> bool {
        self.settings.logger.is_some()
    }

    /// The `fetch` option, when one was given (else the shell uses the global `fetch`).
    #[wasm_bindgen(getter, unchecked_return_type = "Function | undefined")]
    pub fn fetch(&self) -> JsValue {
        self.fetch.clone().map_or(JsValue::UNDEFINED, Into::into)
    }

    /// The call of the built-in operation whose client method is `method` (`"withdrawalInfo"`):
    /// `argument` is the method's first parameter when the operation takes exactly one
    /// argument, `options` its options object. Throws `SettlementError` before any I/O.
    pub fn prepare(
        &self,
        method: &str,
        argument: JsValue,
        options: JsValue,
    ) -> Result<Call, JsValue> {
        let op = operations::by_method(self.endpoint, method).ok_or_else(|| {
            Error::invalid(
                "method",
                [method, " is not a method of this client"].concat(),
            )
        });
        let call = op.and_then(|op| {
            let (values, field_options) = options::operation_values(op, &argument, &options)?;
            crate::call::prepare(self.endpoint, op, values, field_options)
        });
        self.call(call)
    }

    /// `request(document, variables, options)`: a caller's own document; its value is the
    /// whole `data`.
    pub fn request(
        &self,
        document: JsValue,
        variables: JsValue,
        options: JsValue,
    ) -> Result<Call, JsValue> {
        let call = options::string_arg(&document, "document").and_then(|document| {
            let variables = options::variables(&variables)?;
            let signal = options::call_options(&options)?.signal;
            crate::call::prepare_request(&document, variables.as_ref(), signal)
        });
        self.call(call)
    }

    /// `confirmUntilSettled(options)` (the merchant client's): checks every option (the `confirmTransaction`
    /// arguments, `intervalMs`, `maxTries`, `signal`) and starts the confirmation loop.
    #[cfg(feature = "npm-merchant")]
    pub fn confirmation(&self, options: JsValue) -> Result<Confirmation, JsValue> {
        let confirmation = options::confirm_until_settled_args(&options).and_then(|a| {
            let (values, field_options) =
                crate::merchant::confirm_values(a.payment_request, a.transaction_hash, a.signal);
            let call = crate::call::prepare(
                self.endpoint,
                &operations::CONFIRM_TRANSACTION,
                values,
                field_options,
            )?;
            let poll = crate::confirm::Poll::new(a.interval_ms, a.max_tries)?;
            Ok(crate::confirm::Confirmation::new(call, poll))
        });
        match confirmation {
            Ok(confirmation) => Ok(Confirmation {
                settings: Rc::clone(&self.settings),
                confirmation,
            }),
            Err(e) => Err(error::to_js(&self.settings.config.redact(e))),
        }
    }

    /// `orders(options)` (the bot client's): checks the options and starts the search of every
    /// matching order.
    #[cfg(feature = "npm-bot")]
    pub fn orders(&self, options: JsValue) -> Result<Search, JsValue> {
        let search = options::orders_args(&options).and_then(|a| {
            let query = PageQuery::new(a.per_page, a.filter, a.fields.as_deref(), a.signal)?;
            Ok(crate::pager::Search::orders(query))
        });
        self.search(search)
    }

    /// `watchOrders(options)`: checks the options and starts the watch, not yet polling. Its
    /// poll's requests carry `signal` (the shell's own, which `stop()` aborts); the caller's
    /// `options.signal` is handed back as `callerSignal`.
    #[cfg(feature = "npm-bot")]
    #[wasm_bindgen(js_name = watchOrders)]
    pub fn watch_orders(
        &self,
        options: JsValue,
        signal: web_sys::AbortSignal,
    ) -> Result<Watch, JsValue> {
        let watch = options::watch_args(&options).and_then(|mut args| {
            let caller_signal = args.signal.replace(Signal::from(signal));
            Ok((crate::watch::Watch::new(args)?, caller_signal))
        });
        match watch {
            Ok((watch, caller_signal)) => Ok(Watch {
                settings: Rc::clone(&self.settings),
                watch,
                caller_signal,
            }),
            Err(e) => Err(error::to_js(&self.settings.config.redact(e))),
        }
    }

    /// `customers(options)` (the server build's `MerchantClient`): checks `{ fields?, signal?
    /// }` and starts the walk of every customer (`merchantCustomers`, page after page).
    #[cfg(feature = "server")]
    pub fn customers(&self, options: JsValue) -> Result<Search, JsValue> {
        let search = options::customers_args(&options).and_then(|a| {
            let query = crate::pager::CursorQuery::customers(a.fields.as_deref(), a.signal)?;
            Ok(crate::pager::Search::cursor(query))
        });
        self.search(search)
    }

    /// `reconcile(order, options)`: checks `order.id`, `order.orderId` and the options and
    /// starts the search of the order's current record (the bot client's).
    #[cfg(feature = "npm-bot")]
    pub fn reconcile(&self, order: JsValue, options: JsValue) -> Result<Search, JsValue> {
        let search = options::reconcile_args(&order, &options)
            .and_then(|(id, order_id, o)| crate::pager::Search::reconcile(id, order_id, o));
        self.search(search)
    }
}

impl Core {
    fn call(&self, call: Result<PreparedCall, Error>) -> Result<Call, JsValue> {
        match call {
            Ok(call) => Ok(Call {
                settings: Rc::clone(&self.settings),
                call,
                observed: Default::default(),
            }),
            Err(e) => Err(error::to_js(&self.settings.config.redact(e))),
        }
    }

    #[cfg(feature = "npm-bot")]
    fn search(&self, search: Result<crate::pager::Search, Error>) -> Result<Search, JsValue> {
        match search {
            Ok(search) => Ok(Search {
                settings: Rc::clone(&self.settings),
                search,
            }),
            Err(e) => Err(error::to_js(&self.settings.config.redact(e))),
        }
    }
}

/// Attempt `number` of a call from its JavaScript `outcome` (an `AttemptOutcome`), with the
/// clock and jitter of this moment: what every driver's decision reads.
#[inline(never)]
pub(super) fn attempt_of(number: u32, outcome: &JsValue, aborted: bool) -> Attempt {
    Attempt {
        number,
        sent: crate::transport::outcome(outcome),
        aborted,
        now_ms: js_sys::Date::now(),
        random: js_sys::Math::random(),
    }
}

/// One call, ready to send: the request every attempt sends, and the core's decision after
/// each attempt.
#[wasm_bindgen(js_name = PreparedCall)]
pub struct Call {
    pub(super) settings: Rc<Settings>,
    pub(super) call: PreparedCall,
    /// The call's observation, once `observe` started it (only when something listens).
    pub(super) observed: std::cell::RefCell<Option<super::events::Observed>>,
}

#[wasm_bindgen(js_class = PreparedCall)]
impl Call {
    /// The endpoint URL.
    #[wasm_bindgen(getter, unchecked_return_type = "string")]
    pub fn url(&self) -> JsValue {
        self.settings.url.clone()
    }

    /// Every header, `Content-Type` and `Authorization` included, as a plain object (the
    /// client's own: read it, do not change it).
    #[wasm_bindgen(getter, unchecked_return_type = "Readonly<Record<string, string>>")]
    pub fn headers(&self) -> JsValue {
        self.settings.headers.clone()
    }

    /// The JSON body.
    #[wasm_bindgen(getter, unchecked_return_type = "string")]
    pub fn body(&self) -> JsValue {
        self.call.body().into()
    }

    /// The time allowed for each attempt (response headers and body), in ms.
    #[wasm_bindgen(getter, js_name = timeoutMs)]
    pub fn timeout_ms(&self) -> u32 {
        self.settings.config.timeout_ms()
    }

    /// The caller's `AbortSignal`, if any.
    #[wasm_bindgen(getter)]
    pub fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.call.signal().and_then(Signal::as_web_sys).cloned()
    }

    /// Before each attempt: throws the error to reject with when the caller's signal is
    /// `aborted` (an abort before sending is `aborted`, a mutation's too).
    pub fn start(&self, aborted: bool) -> Result<(), JsValue> {
        self.call
            .before_attempt(aborted)
            .map_err(|e| self.failing(e))
    }

    /// What follows attempt `attempt` (0 for the first) given its `outcome`; `aborted`:
    /// whether the caller's signal is aborted now (an abort wins over the outcome). Returns
    /// the value or a retry after a delay; throws the error the call ends with.
    #[wasm_bindgen(unchecked_return_type = "Decision")]
    pub fn decide(
        &self,
        attempt: u32,
        #[wasm_bindgen(unchecked_param_type = "AttemptOutcome")] outcome: JsValue,
        aborted: bool,
    ) -> Result<JsValue, JsValue> {
        let attempt = attempt_of(attempt, &outcome, aborted);
        let kind = |k: &str| JsValue::from_str(k);
        match self.call.decide(&self.settings.config, attempt) {
            Next::Done(success) => Ok(object(&[
                ("kind", &kind("done")),
                ("value", &success.value),
            ])),
            Next::Fail(e) => Err(self.failing(e)),
            Next::Retry(backoff) => {
                self.retrying(backoff);
                Ok(object(&[
                    ("kind", &kind("retry")),
                    ("delayMs", &JsValue::from_f64(backoff.delay_ms as f64)),
                ]))
            }
        }
    }
}

/// `confirmUntilSettled`: the core's confirmation loop (see [`crate::confirm`]).
#[cfg(feature = "npm-merchant")]
#[wasm_bindgen(js_name = Confirmation)]
pub struct Confirmation {
    settings: Rc<Settings>,
    confirmation: crate::confirm::Confirmation,
}

#[cfg(feature = "npm-merchant")]
#[wasm_bindgen(js_class = Confirmation)]
impl Confirmation {
    /// The caller's `AbortSignal`, if any (the driver's waits honour it).
    #[wasm_bindgen(getter)]
    pub fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.confirmation
            .signal()
            .and_then(Signal::as_web_sys)
            .cloned()
    }

    /// The next step: a confirmation to send (send its call once, then `settle` its outcome), a
    /// wait, or the outcome. `aborted`: whether the caller's signal is aborted now. Throws
    /// `SettlementError` (`aborted`) when it is.
    #[wasm_bindgen(unchecked_return_type = "ConfirmationStep")]
    pub fn next(&mut self, aborted: bool) -> Result<JsValue, JsValue> {
        use crate::confirm::ConfirmStep;
        let kind = |k: &str| JsValue::from_str(k);
        match self.confirmation.step(aborted) {
            Ok(ConfirmStep::Send(call)) => {
                let call: JsValue = Call {
                    settings: Rc::clone(&self.settings),
                    call,
                    observed: Default::default(),
                }
                .into();
                Ok(object(&[("kind", &kind("send")), ("call", &call)]))
            }
            Ok(ConfirmStep::Wait(ms)) => Ok(object(&[
                ("kind", &kind("wait")),
                ("delayMs", &JsValue::from_f64(ms as f64)),
            ])),
            Ok(ConfirmStep::Done(o)) => {
                let outcome = object(&[
                    ("settled", &JsValue::from_bool(o.settled)),
                    ("tries", &JsValue::from(o.tries)),
                ]);
                Ok(object(&[("kind", &kind("done")), ("outcome", &outcome)]))
            }
            Err(e) => Err(error::to_js(&e)),
        }
    }

    /// Takes in the one attempt of a `send` step's call (`start` it, send it once, then give
    /// its `outcome` here; `aborted`: whether the caller's signal is aborted now): an answer,
    /// or a transient failure that backs off (the next step waits), or throws the
    /// `SettlementError` the loop ends with. `call`'s `retry` or `error` event (when it is
    /// observed) is the backoff or that error.
    pub fn settle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AttemptOutcome")] outcome: JsValue,
        aborted: bool,
        call: &Call,
    ) -> Result<(), JsValue> {
        let attempt = attempt_of(0, &outcome, aborted);
        let settled = self.confirmation.settle(&self.settings.config, attempt);
        call.settled(settled).map_err(|e| call.failing(e))
    }
}

/// `orders()` or `reconcile`: the core's order search (see [`crate::pager::Search`]).
#[cfg(feature = "npm-bot")]
#[wasm_bindgen(js_name = OrderSearch)]
pub struct Search {
    settings: Rc<Settings>,
    search: crate::pager::Search,
}

#[cfg(feature = "npm-bot")]
#[wasm_bindgen(js_class = OrderSearch)]
impl Search {
    /// The next step: a row to hand out, a call to run (then `receive` its value), or done.
    /// Throws `SettlementError` when the next page cannot be asked for (the search is over).
    #[wasm_bindgen(unchecked_return_type = "SearchStep")]
    pub fn next(&mut self) -> Result<JsValue, JsValue> {
        let kind = |k: &str| JsValue::from_str(k);
        match self.search.step() {
            Ok(SearchStep::Row(row)) => Ok(object(&[("kind", &kind("row")), ("row", &row)])),
            Ok(SearchStep::Fetch(call)) => {
                let call: JsValue = Call {
                    settings: Rc::clone(&self.settings),
                    call,
                    observed: Default::default(),
                }
                .into();
                Ok(object(&[("kind", &kind("fetch")), ("call", &call)]))
            }
            Ok(SearchStep::Done) => Ok(object(&[("kind", &kind("done"))])),
            Err(e) => Err(error::to_js(&self.settings.config.redact(e))),
        }
    }

    /// Takes in the value of a `fetch` step's call (an `orderHistory` page).
    pub fn receive(&mut self, page: JsValue) {
        self.search.receive(&page);
    }

    /// Ends the search (after a failed call, or when the consumer stops early).
    pub fn finish(&mut self) {
        self.search.finish();
    }
}

/// `watchOrders()`: the core's order watch (see [`crate::watch::Watch`]). The shell keeps the
/// clock (`now`: `performance.now()`), the timers and the page's visibility; the watch says
/// what to do and what changed.
#[cfg(feature = "npm-bot")]
#[wasm_bindgen(js_name = OrderWatchCore)]
pub struct Watch {
    settings: Rc<Settings>,
    watch: crate::watch::Watch,
    caller_signal: Option<Signal>,
}

#[cfg(feature = "npm-bot")]
#[wasm_bindgen(js_class = OrderWatchCore)]
impl Watch {
    /// The poll (the same call every time; the shell makes it once and frees it at the end).
    pub fn call(&self) -> Call {
        Call {
            settings: Rc::clone(&self.settings),
            call: self.watch.call().clone(),
            observed: Default::default(),
        }
    }

    /// The caller's `options.signal`, if any: its abort ends the watch.
    #[wasm_bindgen(getter, js_name = callerSignal)]
    pub fn caller_signal(&self) -> Option<web_sys::AbortSignal> {
        self.caller_signal
            .as_ref()
            .and_then(Signal::as_web_sys)
            .cloned()
    }

    /// Whether a hidden page pauses the polls (`pauseWhenHidden`).
    #[wasm_bindgen(getter, js_name = pauseWhenHidden)]
    pub fn pause_when_hidden(&self) -> bool {
        self.watch.schedule().pause_when_hidden
    }

    /// What to do at `now`: send the poll (then `settle`), sleep `delayMs`, nothing until the
    /// page is visible (`idle`), or stop.
    #[wasm_bindgen(unchecked_return_type = "WatchStep")]
    pub fn step(&mut self, now: f64) -> Result<JsValue, JsValue> {
        use crate::watch::Command;
        let kind = |k: &str| JsValue::from_str(k);
        Ok(match self.watch.step(now) {
            Command::Send => object(&[("kind", &kind("send"))]),
            Command::Sleep(ms) => object(&[
                ("kind", &kind("sleep")),
                ("delayMs", &JsValue::from_f64(ms as f64)),
            ]),
            Command::Idle => object(&[("kind", &kind("idle"))]),
            Command::Stop => object(&[("kind", &kind("stop"))]),
        })
    }

    /// Takes in what the poll's attempt brought back (`aborted`: whether the shell's signal
    /// is aborted now), at `now`. `call` (the poll)'s `retry` or `error` event, when it is
    /// observed, is the watch's backoff or the error it ends with.
    pub fn settle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AttemptOutcome")] outcome: JsValue,
        aborted: bool,
        now: f64,
        call: &Call,
    ) -> Result<(), JsValue> {
        let attempt = attempt_of(0, &outcome, aborted);
        let settled = self.watch.settle(&self.settings.config, attempt, now);
        // A failure that ends the watch is the watch's to report (`step` stops, the consumer
        // gets it); here it is only kept for the poll's `error` event.
        if let Err(e) = call.settled(settled) {
            call.failing(e);
        }
        Ok(())
    }

    /// The page's visibility changed (`hidden`: `document.visibilityState === "hidden"`).
    #[wasm_bindgen(js_name = setHidden)]
    pub fn set_hidden(&mut self, hidden: bool, now: f64) {
        self.watch.set_hidden(hidden, now);
    }

    /// Ends the watch: `step` says `stop` from now on.
    pub fn stop(&mut self) {
        self.watch.stop();
    }

    /// The status at `now`: `{ state, error?, nextPollInMs? }`.
    #[wasm_bindgen(unchecked_return_type = "WatchStatus")]
    pub fn status(&self, now: f64) -> Result<JsValue, JsValue> {
        let status = self.watch.status(now);
        let state = JsValue::from_str(status.state.as_str());
        let mut members = vec![("state", state)];
        if let Some(e) = &status.error {
            members.push(("error", error::to_js(e)));
        }
        if let Some(ms) = status.next_poll_in_ms {
            members.push(("nextPollInMs", JsValue::from_f64(ms as f64)));
        }
        let refs: Vec<(&str, &JsValue)> = members.iter().map(|(k, v)| (*k, v)).collect();
        Ok(object(&refs))
    }

    /// What changed since the last update taken, `{ rows, added, changed, removed, total }`,
    /// or `undefined` when nothing did.
    #[wasm_bindgen(js_name = takeUpdate, unchecked_return_type = "OrderWatchUpdate | undefined")]
    pub fn take_update(&mut self) -> Result<JsValue, JsValue> {
        let Some(u) = self.watch.take_update() else {
            return Ok(JsValue::UNDEFINED);
        };
        let list =
            |rows: Vec<JsValue>| -> JsValue { rows.into_iter().collect::<js_sys::Array>().into() };
        let changed: js_sys::Array = u
            .changed
            .into_iter()
            .map(|c| object(&[("before", &c.before), ("after", &c.after)]))
            .collect();
        let total = u.total.map_or(JsValue::NULL, JsValue::from_f64);
        Ok(object(&[
            ("rows", &list(u.rows)),
            ("added", &list(u.added)),
            ("changed", &changed.into()),
            ("removed", &list(u.removed)),
            ("total", &total),
        ]))
    }

    /// Throws the failure that ended the watch, once; returns when there is none.
    #[wasm_bindgen(js_name = takeError)]
    pub fn take_error(&mut self) -> Result<(), JsValue> {
        match self.watch.take_error() {
            Some(e) => Err(error::to_js(&e)),
            None => Ok(()),
        }
    }
}
