//! Reading JavaScript option objects with `Reflect` (no serde on this path). Every problem
//! is an `invalid_input` error naming the option.

use js_sys::{Array, Function, JsString};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::config::ClientOptions;
use crate::error::Error;
use crate::inputs;
use crate::json::js_impl as js;
use crate::operations::{Arguments, Check, Endpoint, Kind, Operation, Value};
use crate::transport::Signal;
use crate::types::{CallOptions, FieldOptions, OrderHistoryFilter};
#[cfg(feature = "npm-bot")]
use crate::types::{OrdersArgs, WatchOrdersArgs};

// Catching reads of the caller's values that the core's JSON view does not need. js-sys's
// `Object.keys` does not catch (it throws on a revoked Proxy or a throwing trap), and
// wasm-bindgen leaks one externref slot each time a `catch` import that returns a value
// throws: each value-returning read is preceded by a twin that returns nothing.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn keys_probe(value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = getPrototypeOf, catch)]
    fn prototype_probe(value: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn stringify_probe(value: &JsValue) -> Result<(), JsValue>;
    /// `Reflect.apply(f, this, args)`, catching, its result dropped.
    #[wasm_bindgen(js_namespace = Reflect, js_name = apply, catch)]
    fn apply_unit(f: &Function, this: &JsValue, args: &Array) -> Result<(), JsValue>;
}

/// `Object.keys(value)`; `Err` when a trap throws.
fn keys_of(value: &JsValue) -> Result<Array, JsValue> {
    keys_probe(value)?;
    object_keys(value)
}

/// `Reflect.getPrototypeOf(value)`; `Err` when it throws.
fn prototype(value: &JsValue) -> Result<js_sys::Object, JsValue> {
    prototype_probe(value)?;
    js_sys::Reflect::get_prototype_of(value)
}

/// `JSON.stringify(value)` (a string, or `undefined`); `Err` when it throws (a cycle, a
/// BigInt, a throwing `toJSON` or getter).
fn stringify(value: &JsValue) -> Result<JsValue, JsValue> {
    stringify_probe(value)?;
    js_sys::JSON::stringify(value).map(Into::into)
}

fn invalid(field: &str, tail: &str) -> Error {
    let mut m = String::from(field);
    m.push_str(tail);
    Error::invalid(field, m)
}

/// What a throwing getter, Proxy trap or revoked Proxy among the caller's values becomes.
fn unreadable(field: &str) -> Error {
    invalid(field, " could not be read (a getter or Proxy trap threw)")
}

/// `obj[key]` (a catching `Reflect.get`), with `undefined` and `null` meaning absent.
pub fn get(obj: &JsValue, key: &str, field: &str) -> Result<Option<JsValue>, Error> {
    js::read(obj, &JsValue::from_str(key))
        .map(|v| Some(v).filter(|v| !v.is_undefined() && !v.is_null()))
        .map_err(|_| unreadable(field))
}

/// `Array.isArray(value)`, catching.
fn is_array(value: &JsValue, field: &str) -> Result<bool, Error> {
    js::is_array(value).map_err(|_| unreadable(field))
}

/// `Object.keys(value)` (catching), refused beyond `max` entries.
fn keys(value: &JsValue, field: &str, max: u32) -> Result<Array, Error> {
    let keys = keys_of(value).map_err(|_| unreadable(field))?;
    if keys.length() > max {
        return Err(inputs::too_many(field, max));
    }
    Ok(keys)
}

/// A string of at most `max` characters (UTF-16 units), measured before it is copied into
/// wasm memory; `None` when `value` is not a string.
pub fn text(value: &JsValue, field: &str, max: u32) -> Result<Option<String>, Error> {
    if !value.is_string() {
        return Ok(None);
    }
    inputs::text_len(
        field,
        value.unchecked_ref::<JsString>().length() as usize,
        max,
    )?;
    Ok(value.as_string())
}

/// The one rule of every options object: a key that is not an option of the method is
/// refused, naming it (a misspelt `feilds` or `perpage` must not be silently skipped). `known`
/// says which keys are.
fn refuse_unknown_keys(o: &JsValue, known: &dyn Fn(&str) -> bool) -> Result<(), Error> {
    let keys = keys(o, "options", 64)?;
    for i in 0..keys.length() {
        let name = keys.get(i).as_string().unwrap_or_default();
        if !known(&name) {
            return Err(invalid(&name, " is not an option of this method"));
        }
    }
    Ok(())
}

/// An options object of a method whose options are `known`: absent (`undefined`/`null`), or
/// an object (not an array) with no other key ([`refuse_unknown_keys`]).
pub fn options_of(value: &JsValue, known: &[&str]) -> Result<Option<JsValue>, Error> {
    let o = options_object(value, "options")?;
    if let Some(o) = &o {
        refuse_unknown_keys(o, &|name| known.contains(&name))?;
    }
    Ok(o)
}

/// An options object: absent (`undefined`/`null`) or an object (not an array).
fn options_object(value: &JsValue, field: &str) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else if value.is_object() && !is_array(value, field)? {
        Ok(Some(value.clone()))
    } else {
        Err(invalid(field, " must be an object"))
    }
}

fn string_max(obj: &JsValue, key: &str, field: &str, max: u32) -> Result<Option<String>, Error> {
    match get(obj, key, field)? {
        None => Ok(None),
        Some(v) => match text(&v, field, max)? {
            Some(s) => Ok(Some(s)),
            None => Err(invalid(field, " must be a string")),
        },
    }
}

fn string(obj: &JsValue, key: &str, field: &str) -> Result<Option<String>, Error> {
    string_max(obj, key, field, inputs::MAX_TEXT_LEN)
}

fn integer(obj: &JsValue, key: &str, field: &str) -> Result<Option<i64>, Error> {
    match get(obj, key, field)? {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) => inputs::integer(n, field).map(Some),
            None => Err(invalid(field, " must be a number")),
        },
    }
}

fn fields(obj: &JsValue) -> Result<Option<Vec<String>>, Error> {
    let Some(v) = get(obj, "fields", "fields")? else {
        return Ok(None);
    };
    if !is_array(&v, "fields")? {
        return Err(invalid("fields", " must be an array of field names"));
    }
    // Capped before allocating: `new Array(2 ** 32 - 1)` is refused here.
    let len = js::length(&v).map_err(|_| unreadable("fields"))?;
    if len > f64::from(inputs::MAX_FIELDS) {
        return Err(inputs::too_many("fields", inputs::MAX_FIELDS));
    }
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len as u32 {
        let item = js::read(&v, &JsValue::from(i)).map_err(|_| unreadable("fields"))?;
        match text(&item, "fields", inputs::MAX_FIELD_PATH)? {
            Some(s) => out.push(s),
            None => return Err(invalid("fields", " must be an array of strings")),
        }
    }
    Ok(Some(out))
}

/// A working `AbortSignal`: `aborted` reads as a boolean, and `addEventListener` and
/// `removeEventListener` accept a listener (tried once, with `addEventListener` itself as the
/// listener, added and removed at once). Anything else (`Object.create(AbortSignal.prototype)`,
/// throwing members) is refused now rather than failing, or hanging, mid-call.
fn signal(obj: &JsValue) -> Result<Option<Signal>, Error> {
    let Some(v) = get(obj, "signal", "signal")? else {
        return Ok(None);
    };
    let read = |name: &str| js::read(&v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    // Each method is applied through a catching `Reflect.apply`, which refuses a non-function.
    let args = Array::of2(&JsValue::from_str("abort"), &read("addEventListener"));
    let works = read("aborted").as_bool().is_some()
        && ["addEventListener", "removeEventListener"]
            .iter()
            .all(|m| apply_unit(read(m).unchecked_ref(), &v, &args).is_ok());
    if works {
        Ok(Some(Signal::from(
            v.unchecked_into::<web_sys::AbortSignal>(),
        )))
    } else {
        Err(invalid("signal", " must be an AbortSignal"))
    }
}

/// A date given as `YYYY-MM-DD` text or as a JavaScript `Date` (its UTC calendar date).
fn date(filter: &JsValue, key: &str, field: &str) -> Result<Option<String>, Error> {
    let Some(v) = get(filter, key, field)? else {
        return Ok(None);
    };
    if let Some(s) = text(&v, field, inputs::MAX_FILTER_LEN)? {
        return Ok(Some(s));
    }
    // A Date (or anything with `toISOString`): its UTC calendar date.
    if let Ok(to_iso) =
        js::read(&v, &JsValue::from_str("toISOString")).and_then(|f| f.dyn_into::<Function>())
    {
        // Probed first (its result dropped): a throwing `toISOString` costs no externref slot
        // (see `json::js_impl::apply_unit`).
        let iso = apply_unit(&to_iso, &v, &js_sys::Array::new())
            .and_then(|()| to_iso.call0(&v))
            .ok()
            .and_then(|s| text(&s, field, inputs::MAX_FILTER_LEN).ok().flatten())
            .unwrap_or_default();
        return match iso.get(..10) {
            Some(day) if inputs::date(field, day).is_ok() => Ok(Some(day.to_owned())),
            _ => Err(invalid(
                field,
                " must be a valid Date between years 0 and 9999",
            )),
        };
    }
    Err(invalid(field, " must be a YYYY-MM-DD string or a Date"))
}

fn filter(obj: &JsValue) -> Result<OrderHistoryFilter, Error> {
    let Some(f) = get(obj, "filter", "filter")? else {
        return Ok(OrderHistoryFilter::default());
    };
    if !f.is_object() || is_array(&f, "filter")? {
        return Err(invalid("filter", " must be an object"));
    }
    let keys = keys(&f, "filter", 64)?;
    for i in 0..keys.length() {
        let name = keys.get(i).as_string().unwrap_or_default();
        if !inputs::FILTER_KEYS.contains(&name.as_str()) {
            let mut field = String::from("filter.");
            field.push_str(&name);
            return Err(invalid(
                &field,
                " is not a known filter (orderId, status, dateFrom, dateTo, paymentMethod)",
            ));
        }
    }
    Ok(OrderHistoryFilter {
        order_id: string_max(&f, "orderId", "filter.orderId", inputs::MAX_FILTER_LEN)?,
        status: string_max(&f, "status", "filter.status", inputs::MAX_FILTER_LEN)?,
        date_from: date(&f, "dateFrom", "filter.dateFrom")?,
        date_to: date(&f, "dateTo", "filter.dateTo")?,
        payment_method: string_max(
            &f,
            "paymentMethod",
            "filter.paymentMethod",
            inputs::MAX_FILTER_LEN,
        )?,
    })
}

/// `{ fields?, signal? }`
pub fn field_options(value: &JsValue) -> Result<FieldOptions, Error> {
    match options_of(value, &["fields", "signal"])? {
        None => Ok(FieldOptions::default()),
        Some(o) => Ok(FieldOptions {
            fields: fields(&o)?,
            signal: signal(&o)?,
        }),
    }
}

/// `{ signal? }`
pub fn call_options(value: &JsValue) -> Result<CallOptions, Error> {
    match options_of(value, &["signal"])? {
        None => Ok(CallOptions::default()),
        Some(o) => Ok(CallOptions {
            signal: signal(&o)?,
        }),
    }
}

/// `{ perPage?, filter?, fields?, signal? }`
#[cfg(feature = "npm-bot")]
pub fn orders_args(value: &JsValue) -> Result<OrdersArgs, Error> {
    match options_of(value, &["perPage", "filter", "fields", "signal"])? {
        None => Ok(OrdersArgs::default()),
        Some(o) => Ok(OrdersArgs {
            per_page: integer(&o, "perPage", "perPage")?,
            filter: filter(&o)?,
            fields: fields(&o)?,
            signal: signal(&o)?,
        }),
    }
}

/// `customers()` options: `{ fields?, signal? }`.
#[cfg(feature = "server")]
pub fn customers_args(value: &JsValue) -> Result<crate::types::CustomersArgs, Error> {
    let o = field_options(value)?;
    Ok(crate::types::CustomersArgs {
        fields: o.fields,
        signal: o.signal,
    })
}

/// `watchOrders` options: `filter`, `perPage`, `fields`, `intervalMs`, `maxIntervalMs`,
/// `pauseWhenHidden`, `signal` (checked further by the core).
#[cfg(feature = "npm-bot")]
pub fn watch_args(value: &JsValue) -> Result<WatchOrdersArgs, Error> {
    const KNOWN: [&str; 7] = [
        "filter",
        "perPage",
        "fields",
        "intervalMs",
        "maxIntervalMs",
        "pauseWhenHidden",
        "signal",
    ];
    match options_of(value, &KNOWN)? {
        None => Ok(WatchOrdersArgs::default()),
        Some(o) => Ok(WatchOrdersArgs {
            filter: filter(&o)?,
            per_page: integer(&o, "perPage", "perPage")?,
            fields: fields(&o)?,
            interval_ms: integer(&o, "intervalMs", "intervalMs")?,
            max_interval_ms: integer(&o, "maxIntervalMs", "maxIntervalMs")?,
            pause_when_hidden: boolean(&o, "pauseWhenHidden")?,
            signal: signal(&o)?,
        }),
    }
}

/// A `variables` argument: absent, or an object (serialised with `JSON.stringify` later).
pub fn variables(value: &JsValue) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else if value.is_object() && !is_array(value, "variables")? {
        // Measured as JSON text before the body copies it into wasm memory.
        let Ok(json) = stringify(value) else {
            return Err(invalid(
                "variables",
                " must be a plain object that JSON can represent",
            ));
        };
        // (`undefined`, not a string, when a `toJSON` returns nothing: the body writer refuses it.)
        let json = json.dyn_ref::<JsString>();
        if json.is_some_and(|j| j.length() > inputs::MAX_VARIABLES_LEN) {
            return Err(inputs::too_long("variables", inputs::MAX_VARIABLES_LEN));
        }
        Ok(Some(value.clone()))
    } else {
        Err(invalid("variables", " must be a plain object"))
    }
}

/// A string argument (not an option): refused when it is not a string.
pub fn string_arg(value: &JsValue, field: &str) -> Result<String, Error> {
    let max = if field == "document" {
        inputs::MAX_DOCUMENT_LEN
    } else {
        inputs::MAX_TEXT_LEN
    };
    text(value, field, max)?.ok_or_else(|| invalid(field, " must be a string"))
}

/// `obj[key]` as a boolean: absent → `None`; anything but `true`/`false` is refused.
fn boolean(obj: &JsValue, key: &str) -> Result<Option<bool>, Error> {
    match get(obj, key, key)? {
        None => Ok(None),
        // Compared with `===` (an import the crate already has) instead of `as_bool`.
        Some(v) if v == JsValue::TRUE => Ok(Some(true)),
        Some(v) if v == JsValue::FALSE => Ok(Some(false)),
        Some(_) => Err(invalid(key, " must be true or false")),
    }
}

/// `options.dangerouslyAllowBrowser` (absent: `false`).
pub fn allow_browser(value: &JsValue) -> Result<bool, Error> {
    match options_object(value, "options")? {
        None => Ok(false),
        Some(o) => Ok(boolean(&o, "dangerouslyAllowBrowser")?.unwrap_or(false)),
    }
}

/// The checks of a client's options beyond their own shapes: a `fetch` exists (the option,
/// or a global one), and for the merchant endpoint the browser guard
/// ([`crate::keys::browser_guard`]) with `dangerouslyAllowBrowser`.
pub fn check_client(
    opts: &ClientOptions,
    fetch: Option<&Function>,
    options: &JsValue,
    endpoint: Endpoint,
) -> Result<(), Error> {
    if fetch.is_none()
        && !js::member_or_undefined(&crate::transport::global(), "fetch").is_function()
    {
        return Err(Error::invalid(
            "fetch",
            "fetch: no global fetch in this environment; pass a fetch implementation",
        ));
    }
    if endpoint == Endpoint::Merchant {
        let allow = allow_browser(options)?;
        crate::keys::browser_guard(
            opts.api_key.as_deref(),
            crate::transport::is_browser_like(),
            allow,
        )?;
    }
    Ok(())
}

/// The argument values and call options of `op` from its JavaScript method's parameters,
/// by the declaration: with no argument, the method takes `options`; with exactly one, it
/// is the method's first parameter (a string) and `options` the second; with more, they
/// are members of the options object (see [`mutation_values`] and [`query_values`]).
pub fn operation_values(
    op: &Operation,
    argument: &JsValue,
    options: &JsValue,
) -> Result<(Arguments, FieldOptions), Error> {
    match op.args {
        [] => Ok((vec![], field_options(options)?)),
        [arg] if op.parent.is_none() => {
            let value = Value::Str(string_arg(argument, arg.caller)?);
            let options = if op.fields.is_empty() {
                // A `Boolean` result: only the signal is read.
                FieldOptions {
                    fields: None,
                    signal: call_options(options)?.signal,
                }
            } else {
                field_options(options)?
            };
            Ok((vec![(arg.caller, value)], options))
        }
        _ if op.kind == Kind::Mutation => mutation_values(op, options),
        _ => query_values(op, options),
    }
}

/// Refuses a key of the options object `o` that is not an option of `op`'s method (one of
/// its arguments by caller name, `signal`, or `fields` when the result has fields), naming
/// it: a misspelt option (`countr`) must not be silently skipped.
fn refuse_unknown_options(op: &Operation, o: &JsValue) -> Result<(), Error> {
    refuse_unknown_keys(o, &|name| {
        name == "signal" || (name == "fields" && !op.fields.is_empty()) || op.arg(name).is_some()
    })
}

/// The options object of a query that takes its arguments there (`orderHistory`:
/// `{ page, perPage?, filter?, fields?, signal? }`): each argument under its caller name, by
/// its check (a page number is required), then `fields` and `signal`. Any other key is
/// refused, naming it, as for mutations.
fn query_values(op: &Operation, value: &JsValue) -> Result<(Arguments, FieldOptions), Error> {
    let o = options_object(value, "options")?.unwrap_or_else(|| js_sys::Object::new().into());
    refuse_unknown_options(op, &o)?;
    let mut values = Vec::with_capacity(op.args.len());
    for a in op.args {
        values.push((
            a.caller,
            match a.check {
                Check::Page => match integer(&o, a.caller, a.caller)? {
                    Some(n) => Value::Int(n),
                    None => return Err(invalid(a.caller, " is required (an integer from 1)")),
                },
                Check::PerPage => integer(&o, a.caller, a.caller)?.map_or(Value::Null, Value::Int),
                Check::Filter => Value::Filter(filter(&o)?),
                _ => string(&o, a.caller, a.caller)?.map_or(Value::Null, Value::Str),
            },
        ));
    }
    let options = FieldOptions {
        fields: fields(&o)?,
        signal: signal(&o)?,
    };
    Ok((values, options))
}

/// `reconcile(order, options)`'s arguments: `order.id` and `order.orderId` (strings, or
/// absent), and `{ fields?, signal? }`.
#[cfg(feature = "npm-bot")]
pub fn reconcile_args(
    order: &JsValue,
    options: &JsValue,
) -> Result<(Option<String>, Option<String>, FieldOptions), Error> {
    let member = |key: &str| -> Result<Option<String>, Error> {
        if !order.is_object() {
            return Ok(None);
        }
        let field = ["order.", key].concat();
        Ok(get(order, key, "order")?
            .map(|v| text(&v, &field, inputs::MAX_TEXT_LEN))
            .transpose()?
            .flatten())
    };
    let (id, order_id) = (member("id")?, member("orderId")?);
    // A getter or trap that throws while the options are read is the options' fault (the
    // values read are then checked as `orders()` checks them, naming `fields` or `signal`).
    if let Some(o) = options_of(options, &["fields", "signal"])? {
        for key in ["fields", "signal"] {
            get(&o, key, "options")?;
        }
    }
    Ok((id, order_id, field_options(options)?))
}

/// The onchain ramp link from `OnchainRampOptions`: each option read (a string, or for
/// `hideAddress` and `isWalletContext` a boolean), then checked by the core
/// ([`crate::ramp::onchain_ramp_url`]).
#[cfg(feature = "npm-merchant")]
pub fn ramp_url(value: &JsValue) -> Result<String, Error> {
    const KNOWN: [&str; 13] = [
        "rampUrl",
        "key",
        "paymentType",
        "coin",
        "network",
        "address",
        "amount",
        "reference",
        "redirectUrl",
        "currency",
        "phone",
        "hideAddress",
        "isWalletContext",
    ];
    let o = options_of(value, &KNOWN)?.unwrap_or_else(|| js_sys::Object::new().into());
    let text = |name: &str| string(&o, name, name);
    let options = crate::ramp::OnchainRampOptions {
        ramp_url: text("rampUrl")?.unwrap_or_default(),
        key: text("key")?.unwrap_or_default(),
        payment_type: text("paymentType")?.unwrap_or_default(),
        coin: text("coin")?.unwrap_or_default(),
        network: text("network")?.unwrap_or_default(),
        address: text("address")?,
        amount: text("amount")?,
        reference: text("reference")?,
        redirect_url: text("redirectUrl")?,
        currency: text("currency")?,
        phone: text("phone")?,
        hide_address: boolean(&o, "hideAddress")?,
        is_wallet_context: boolean(&o, "isWalletContext")?,
    };
    crate::ramp::onchain_ramp_url(&options)
}

/// Checks `listenForRampEvents`' options (`allowedOrigin`, `onCryptoRequested`, `target`)
/// and returns the target: `target`, or `globalThis`; it must have `addEventListener`.
#[cfg(feature = "npm-merchant")]
pub fn ramp_listener(
    options: &JsValue,
    allowed_origin: &JsValue,
    callback: &JsValue,
    target: &JsValue,
) -> Result<JsValue, Error> {
    options_of(options, &["allowedOrigin", "onCryptoRequested", "target"])?;
    let origin = text(allowed_origin, "allowedOrigin", inputs::MAX_TEXT_LEN)?;
    crate::ramp::check_origin(&origin.unwrap_or_default())?;
    if !callback.is_function() {
        return Err(invalid("onCryptoRequested", " must be a function"));
    }
    let target = if target.is_undefined() || target.is_null() {
        crate::transport::global()
    } else {
        target.clone()
    };
    if !get(&target, "addEventListener", "target")?.is_some_and(|f| f.is_function()) {
        return Err(invalid("target", " must have addEventListener"));
    }
    Ok(target)
}

/// The functions the client options hold beside the data: `fetch` and `logger`.
#[derive(Default)]
pub struct Hooks {
    /// The `fetch` option.
    pub fetch: Option<Function>,
    /// The `logger` option, read and checked once.
    pub logger: Option<Logger>,
}

/// The `logger` option as it was read once: the object, and the methods the client's lines
/// go to (each called with the object as `this`).
#[derive(Clone)]
pub struct Logger {
    /// The logger object (`console`, or the caller's).
    pub target: JsValue,
    /// Its `debug`: one line per attempt that got an answer.
    pub debug: Function,
    /// Its `warn`: one line per retry.
    pub warn: Function,
    /// Its `error`: one line per failed call.
    pub error: Function,
}

/// Reads the `logger` option of the options object `o`, once: `console` or an object whose
/// `debug`, `info`, `warn` and `error` are functions (`info` is checked, for the loggers
/// that have the four, and not called).
pub(super) fn logger(o: &JsValue) -> Result<Option<Logger>, Error> {
    let Some(target) = get(o, "logger", "logger")? else {
        return Ok(None);
    };
    let bad = || {
        invalid(
            "logger",
            " must be console or have debug, info, warn and error functions",
        )
    };
    if !target.is_object() {
        return Err(bad());
    }
    let method = |name: &str| match get(&target, name, "logger")? {
        Some(f) if f.is_function() => Ok(Function::from(f)),
        _ => Err(bad()),
    };
    let (debug, _info, warn, error) = (
        method("debug")?,
        method("info")?,
        method("warn")?,
        method("error")?,
    );
    Ok(Some(Logger {
        target,
        debug,
        warn,
        error,
    }))
}

/// The `on` option of the options object `o` (`createProxyHandler`'s): absent, or an object
/// of listeners by event type, each key an event type (`request`, `response`, `retry`,
/// `error`, `done`) and each value a function; read once. Else `invalid_input` (`on`).
#[cfg(feature = "server")]
pub(super) fn listeners(o: &JsValue) -> Result<Vec<(&'static str, Function)>, Error> {
    let Some(on) = get(o, "on", "on")? else {
        return Ok(Vec::new());
    };
    let bad = || {
        invalid(
            "on",
            " must be an object of listener functions by event type (request, response, retry, error, done)",
        )
    };
    if !on.is_object() || is_array(&on, "on")? {
        return Err(bad());
    }
    let keys = keys(&on, "on", 8)?;
    let mut out = Vec::new();
    for i in 0..keys.length() {
        let name = keys.get(i).as_string().unwrap_or_default();
        let Some(event_type) = crate::events::EventType::parse(&name) else {
            return Err(bad());
        };
        match get(&on, &name, "on")? {
            None => {}
            Some(f) if f.is_function() => out.push((event_type.name(), Function::from(f))),
            Some(_) => return Err(bad()),
        }
    }
    Ok(out)
}

/// `BotClientOptions` / `MerchantClientOptions`, and the `fetch` and `logger` options.
pub fn client_options(
    value: &JsValue,
    endpoint: Endpoint,
) -> Result<(ClientOptions, Hooks), Error> {
    const KNOWN: [&str; 9] = [
        "logger",
        "baseUrl",
        "endpoint",
        "apiKey",
        "timeoutMs",
        "maxRetries",
        "headers",
        "fetch",
        // The merchant's only (its browser guard).
        "dangerouslyAllowBrowser",
    ];
    let known = if endpoint == Endpoint::Merchant {
        &KNOWN[..]
    } else {
        &KNOWN[..KNOWN.len() - 1]
    };
    let Some(o) = options_of(value, known)? else {
        return Ok((ClientOptions::default(), Hooks::default()));
    };
    let timeout_ms = match integer(&o, "timeoutMs", "timeoutMs")? {
        None => None,
        Some(n) if (1..=i64::from(crate::config::MAX_TIMEOUT_MS)).contains(&n) => Some(n as u32),
        Some(_) => return Err(Error::invalid("timeoutMs", crate::config::TIMEOUT_MESSAGE)),
    };
    let max_retries = match integer(&o, "maxRetries", "maxRetries")? {
        None => None,
        Some(n) if (0..=i64::from(u32::MAX)).contains(&n) => Some(n as u32),
        Some(_) => return Err(invalid("maxRetries", " must be an integer of 0 or more")),
    };
    let mut headers = Vec::new();
    if let Some(h) = get(&o, "headers", "headers")? {
        // A plain object: its prototype is null or the root prototype. Not an Array, and not a
        // `Headers` or `Map`, whose entries `Object.keys` would silently miss.
        let proto = |v: &JsValue| prototype(v).map_err(|_| unreadable("headers"));
        let plain = h.is_object() && {
            let p = proto(&h)?;
            p.is_null() || proto(&p)?.is_null()
        };
        if !plain {
            return Err(invalid(
                "headers",
                " must be a plain object of string values",
            ));
        }
        let keys = keys(&h, "headers", inputs::MAX_HEADERS)?;
        for i in 0..keys.length() {
            let key = keys.get(i);
            let name = text(&key, "headers", inputs::MAX_HEADER_LEN)?.unwrap_or_default();
            let value = js::read(&h, &key).map_err(|_| unreadable("headers"))?;
            match text(&value, "headers", inputs::MAX_HEADER_LEN)? {
                Some(value) => headers.push((name, value)),
                None => {
                    return Err(invalid(
                        "headers",
                        " must be a plain object of string values",
                    ))
                }
            }
        }
    }
    let fetch = match get(&o, "fetch", "fetch")? {
        None => None,
        Some(f) => match f.dyn_into::<Function>() {
            Ok(f) => Some(f),
            Err(_) => {
                return Err(invalid(
                    "fetch",
                    " must be a function (a fetch implementation)",
                ))
            }
        },
    };
    Ok((
        ClientOptions {
            base_url: string(&o, "baseUrl", "baseUrl")?,
            endpoint: string(&o, "endpoint", "endpoint")?,
            api_key: string(&o, "apiKey", "apiKey")?,
            timeout_ms,
            max_retries,
            headers,
        },
        Hooks {
            fetch,
            logger: logger(&o)?,
        },
    ))
}

/// `confirmUntilSettled`'s options: `{ paymentRequest, transactionHash, intervalMs?,
/// maxTries?, signal? }`; any other key is refused, naming it.
#[cfg(feature = "npm-merchant")]
pub fn confirm_until_settled_args(
    value: &JsValue,
) -> Result<crate::types::ConfirmUntilSettledArgs, Error> {
    const KNOWN: [&str; 5] = [
        "paymentRequest",
        "transactionHash",
        "intervalMs",
        "maxTries",
        "signal",
    ];
    let Some(o) = options_of(value, &KNOWN)? else {
        return Err(invalid("options", " is required"));
    };
    let required = |key: &str| -> Result<String, Error> {
        string(&o, key, key)?.ok_or_else(|| invalid(key, " is required (a string)"))
    };
    Ok(crate::types::ConfirmUntilSettledArgs {
        payment_request: required("paymentRequest")?,
        transaction_hash: required("transactionHash")?,
        interval_ms: integer(&o, "intervalMs", "intervalMs")?,
        max_tries: integer(&o, "maxTries", "maxTries")?,
        signal: signal(&o)?,
    })
}

/// The options object of a mutation that takes one (`markWithdrawalAsPaid`, `updateRates`,
/// `updatePaymentMethodLiquidity`), read from the declaration: each argument under its
/// caller name (a string, or absent), `signal`, and `fields` when the result has fields. Any
/// other key is refused (a misspelt rate must not be silently skipped), naming it. The
/// TypeScript option types are checked against the same declarations (`operations` tests).
pub fn mutation_values(
    op: &Operation,
    value: &JsValue,
) -> Result<(Arguments, FieldOptions), Error> {
    let Some(o) = options_object(value, "options")? else {
        return Err(invalid("options", " is required"));
    };
    refuse_unknown_options(op, &o)?;
    let mut values = Vec::with_capacity(op.args.len());
    for a in op.args {
        values.push((
            a.caller,
            match a.check {
                // `metadata`: a plain object JSON can represent, sent as it is.
                #[cfg(feature = "server")]
                Check::OptJsonObject => match get(&o, a.caller, a.caller)? {
                    None => Value::Null,
                    Some(v) => match variables(&v) {
                        Ok(Some(v)) => Value::Json(v),
                        _ => {
                            return Err(invalid(
                                a.caller,
                                " must be a plain object that JSON can represent",
                            ))
                        }
                    },
                },
                // `fieldValues`: a copy of the `{ identifier, value }` pairs (checked by the core).
                #[cfg(feature = "server")]
                Check::FieldInputs => match get(&o, a.caller, a.caller)? {
                    None => Value::Null,
                    Some(v) => Value::FieldInputs(field_inputs(&v, a.caller)?),
                },
                // `onchainTransferInfo`: a copy of `{ address, cryptocurrency, network }` (checked by
                // the core).
                #[cfg(feature = "server")]
                Check::OptOnchainTransferInfo => match get(&o, a.caller, a.caller)? {
                    None => Value::Null,
                    Some(v) => Value::OnchainTransferInfo(onchain_transfer_info(&v, a.caller)?),
                },
                _ => string(&o, a.caller, a.caller)?.map_or(Value::Null, Value::Str),
            },
        ));
    }
    let options = FieldOptions {
        fields: fields(&o)?,
        signal: signal(&o)?,
    };
    Ok((values, options))
}

/// An `{ address, cryptocurrency, network }` object (three strings, no other member), copied.
#[cfg(feature = "server")]
fn onchain_transfer_info(
    value: &JsValue,
    field: &str,
) -> Result<crate::types::OnchainTransferInfo, Error> {
    let shape = " must be an { address, cryptocurrency, network } object with string members";
    if !value.is_object() || is_array(value, field)? {
        return Err(invalid(field, shape));
    }
    for k in keys(value, field, 3)?.iter() {
        if !matches!(
            k.as_string().as_deref(),
            Some("address" | "cryptocurrency" | "network")
        ) {
            return Err(invalid(field, shape));
        }
    }
    let member = |name: &str| -> Result<String, Error> {
        string(value, name, field)?.ok_or_else(|| invalid(field, shape))
    };
    Ok(crate::types::OnchainTransferInfo {
        address: member("address")?,
        cryptocurrency: member("cryptocurrency")?,
        network: member("network")?,
    })
}

/// An array of `{ identifier, value }` objects (both strings, no other member), copied;
/// capped before anything is allocated.
#[cfg(feature = "server")]
fn field_inputs(
    value: &JsValue,
    field: &str,
) -> Result<Vec<crate::types::PaymentMethodFieldInput>, Error> {
    let shape = " must be an array of { identifier, value } objects with string members";
    if !is_array(value, field)? {
        return Err(invalid(field, shape));
    }
    let len = js::length(value).map_err(|_| unreadable(field))?;
    if len > inputs::MAX_FIELD_INPUTS as f64 {
        return Err(inputs::too_many(field, inputs::MAX_FIELD_INPUTS as u32));
    }
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len as u32 {
        let item = js::read(value, &JsValue::from(i)).map_err(|_| unreadable(field))?;
        if !item.is_object() || is_array(&item, field)? {
            return Err(invalid(field, shape));
        }
        let names = keys(&item, field, 2)?;
        for k in names.iter() {
            if !matches!(k.as_string().as_deref(), Some("identifier" | "value")) {
                return Err(invalid(field, shape));
            }
        }
        let (Some(identifier), Some(value)) = (
            string(&item, "identifier", field)?,
            string(&item, "value", field)?,
        ) else {
            return Err(invalid(field, shape));
        };
        out.push(crate::types::PaymentMethodFieldInput { identifier, value });
    }
    Ok(out)
}
