//! Reading JavaScript option objects with `Reflect` (no serde on this path). Every problem
//! is an `invalid_input` error naming the option.

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::config::ClientOptions;
use crate::error::Error;
use crate::inputs;
use crate::operations::{Operation, Value};
use crate::transport::{FetchTransport, Signal};
use crate::types::{CallOptions, FieldOptions, OrderHistoryArgs, OrderHistoryFilter, OrdersArgs};

fn invalid(field: &str, tail: &str) -> Error {
    let mut m = String::from(field);
    m.push_str(tail);
    Error::invalid(field, m)
}

/// `obj[key]`, with `undefined` and `null` meaning absent.
fn get(obj: &JsValue, key: &str) -> Option<JsValue> {
    Reflect::get(obj, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// An options object: absent (`undefined`/`null`) or an object (not an array).
fn options_object(value: &JsValue, field: &str) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else if value.is_object() && !Array::is_array(value) {
        Ok(Some(value.clone()))
    } else {
        Err(invalid(field, " must be an object"))
    }
}

fn string(obj: &JsValue, key: &str, field: &str) -> Result<Option<String>, Error> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => v
            .as_string()
            .map(Some)
            .ok_or_else(|| invalid(field, " must be a string")),
    }
}

fn integer(obj: &JsValue, key: &str, field: &str) -> Result<Option<i64>, Error> {
    match get(obj, key) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) => inputs::integer(n, field).map(Some),
            None => Err(invalid(field, " must be a number")),
        },
    }
}

fn fields(obj: &JsValue) -> Result<Option<Vec<String>>, Error> {
    let Some(v) = get(obj, "fields") else {
        return Ok(None);
    };
    if !Array::is_array(&v) {
        return Err(invalid("fields", " must be an array of field names"));
    }
    let arr: &Array = v.unchecked_ref();
    let len = arr.length();
    // Capped before allocating or reading: `new Array(2 ** 32 - 1)` must be a refusal, not a
    // capacity-overflow trap or four billion reads.
    if len as usize > crate::inputs::MAX_FIELDS {
        return Err(crate::inputs::too_many_fields());
    }
    let mut out = Vec::with_capacity(len as usize);
    for i in 0..len {
        match arr.get(i).as_string() {
            Some(s) => out.push(s),
            None => return Err(invalid("fields", " must be an array of strings")),
        }
    }
    Ok(Some(out))
}

fn signal(obj: &JsValue) -> Result<Option<Signal>, Error> {
    let Some(v) = get(obj, "signal") else {
        return Ok(None);
    };
    let listener =
        Reflect::get(&v, &JsValue::from_str("addEventListener")).unwrap_or(JsValue::UNDEFINED);
    if v.is_object() && listener.is_function() {
        Ok(Some(v.unchecked_into()))
    } else {
        Err(invalid("signal", " must be an AbortSignal"))
    }
}

/// A date given as `YYYY-MM-DD` text or as a JavaScript `Date` (its UTC calendar date).
fn date(filter: &JsValue, key: &str, field: &str) -> Result<Option<String>, Error> {
    let Some(v) = get(filter, key) else {
        return Ok(None);
    };
    if let Some(s) = v.as_string() {
        return Ok(Some(s));
    }
    // A Date (or anything with `toISOString`): its UTC calendar date.
    if let Ok(to_iso) =
        Reflect::get(&v, &JsValue::from_str("toISOString")).and_then(|f| f.dyn_into::<Function>())
    {
        let iso = to_iso
            .call2(&v, &JsValue::UNDEFINED, &JsValue::UNDEFINED)
            .ok()
            .and_then(|s| s.as_string())
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
    let Some(f) = get(obj, "filter") else {
        return Ok(OrderHistoryFilter::default());
    };
    if !f.is_object() || Array::is_array(&f) {
        return Err(invalid("filter", " must be an object"));
    }
    let keys = Object::keys(f.unchecked_ref::<Object>());
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
        order_id: string(&f, "orderId", "filter.orderId")?,
        status: string(&f, "status", "filter.status")?,
        date_from: date(&f, "dateFrom", "filter.dateFrom")?,
        date_to: date(&f, "dateTo", "filter.dateTo")?,
        payment_method: string(&f, "paymentMethod", "filter.paymentMethod")?,
    })
}

/// `{ fields?, signal? }`
pub fn field_options(value: &JsValue) -> Result<FieldOptions, Error> {
    match options_object(value, "options")? {
        None => Ok(FieldOptions::default()),
        Some(o) => Ok(FieldOptions {
            fields: fields(&o)?,
            signal: signal(&o)?,
        }),
    }
}

/// `{ signal? }`
pub fn call_options(value: &JsValue) -> Result<CallOptions, Error> {
    match options_object(value, "options")? {
        None => Ok(CallOptions::default()),
        Some(o) => Ok(CallOptions {
            signal: signal(&o)?,
        }),
    }
}

/// `{ page, perPage?, filter?, fields?, signal? }`
pub fn order_history_args(value: &JsValue) -> Result<OrderHistoryArgs, Error> {
    let Some(o) = options_object(value, "options")? else {
        return Err(invalid("page", " is required (an integer from 1)"));
    };
    let Some(page) = integer(&o, "page", "page")? else {
        return Err(invalid("page", " is required (an integer from 1)"));
    };
    Ok(OrderHistoryArgs {
        page,
        per_page: integer(&o, "perPage", "perPage")?,
        filter: filter(&o)?,
        fields: fields(&o)?,
        signal: signal(&o)?,
    })
}

/// `{ perPage?, filter?, fields?, signal? }`
pub fn orders_args(value: &JsValue) -> Result<OrdersArgs, Error> {
    match options_object(value, "options")? {
        None => Ok(OrdersArgs::default()),
        Some(o) => Ok(OrdersArgs {
            per_page: integer(&o, "perPage", "perPage")?,
            filter: filter(&o)?,
            fields: fields(&o)?,
            signal: signal(&o)?,
        }),
    }
}

/// A `variables` argument: absent, or an object (serialised with `JSON.stringify` later).
pub fn variables(value: &JsValue) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else if value.is_object() && !Array::is_array(value) {
        Ok(Some(value.clone()))
    } else {
        Err(invalid("variables", " must be a plain object"))
    }
}

/// A string argument (not an option): refused when it is not a string.
pub fn string_arg(value: &JsValue, field: &str) -> Result<String, Error> {
    value
        .as_string()
        .ok_or_else(|| invalid(field, " must be a string"))
}

/// `obj[key]` as a boolean: absent → `None`; anything but `true`/`false` is refused.
fn boolean(obj: &JsValue, key: &str) -> Result<Option<bool>, Error> {
    match get(obj, key) {
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

/// The transport over `fetch` (or the global `fetch`, which must then exist).
pub fn transport(fetch: Option<Function>) -> Result<FetchTransport, Error> {
    if fetch.is_none() && !FetchTransport::has_global_fetch() {
        return Err(Error::invalid(
            "fetch",
            "fetch: no global fetch in this environment; pass a fetch implementation",
        ));
    }
    Ok(FetchTransport::new(fetch))
}

/// The onchain ramp link from `OnchainRampOptions`, read and checked parameter by
/// parameter by the core (`ramp::begin`, `ramp::append`).
pub fn ramp_url(value: &JsValue) -> Result<String, Error> {
    let o = options_object(value, "options")?.unwrap_or(JsValue::UNDEFINED);
    let mut url = crate::ramp::begin(&string(&o, "rampUrl", "rampUrl")?.unwrap_or_default())?;
    for (index, name) in crate::ramp::PARAMS.iter().enumerate() {
        let value = if index < 10 {
            string(&o, name, name)?
        } else {
            boolean(&o, name)?.map(|b| if b { "true" } else { "false" }.to_owned())
        };
        crate::ramp::append(&mut url, index, value.as_deref())?;
    }
    Ok(url)
}

/// Checks `listenForRampEvents`' options (`allowedOrigin`, `onCryptoRequested`, `target`)
/// and returns the target: `target`, or `globalThis`; it must have `addEventListener`.
pub fn ramp_listener(
    allowed_origin: &JsValue,
    callback: &JsValue,
    target: &JsValue,
) -> Result<JsValue, Error> {
    crate::ramp::check_origin(&allowed_origin.as_string().unwrap_or_default())?;
    if !callback.is_function() {
        return Err(invalid("onCryptoRequested", " must be a function"));
    }
    let target = if target.is_undefined() || target.is_null() {
        crate::transport::global()
    } else {
        target.clone()
    };
    if !get(&target, "addEventListener").is_some_and(|f| f.is_function()) {
        return Err(invalid("target", " must have addEventListener"));
    }
    Ok(target)
}

/// `BotClientOptions` / `MerchantClientOptions`, and the `fetch` function when one was given.
pub fn client_options(value: &JsValue) -> Result<(ClientOptions, Option<Function>), Error> {
    let Some(o) = options_object(value, "options")? else {
        return Ok((ClientOptions::default(), None));
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
    if let Some(h) = get(&o, "headers") {
        // A plain object: its prototype is null or the root prototype. Not an Array, and not a
        // `Headers` or `Map`, whose entries `Object.keys` would silently miss.
        let plain = h.is_object() && {
            let proto = Object::get_prototype_of(&h);
            proto.is_null() || Object::get_prototype_of(&proto).is_null()
        };
        if !plain {
            return Err(invalid(
                "headers",
                " must be a plain object of string values",
            ));
        }
        let keys = Object::keys(h.unchecked_ref::<Object>());
        for i in 0..keys.length() {
            let key = keys.get(i);
            let name = key.as_string().unwrap_or_default();
            match Reflect::get(&h, &key).ok().and_then(|v| v.as_string()) {
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
    let fetch = match get(&o, "fetch") {
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
        fetch,
    ))
}

/// The options object of a mutation that takes one (`markWithdrawalAsPaid`, `updateRates`,
/// `updatePaymentMethodLiquidity`), read from the declaration: each argument under its
/// caller name (a string, or absent), `signal`, and `fields` when the result has fields. Any
/// other key is refused (a misspelt rate must not be silently skipped), naming it. The
/// TypeScript option types are checked against the same declarations (`operations` tests).
pub fn mutation_values(
    op: &Operation,
    value: &JsValue,
) -> Result<(Vec<Value>, FieldOptions), Error> {
    let Some(o) = options_object(value, "options")? else {
        return Err(invalid("options", " is required"));
    };
    let keys = Object::keys(o.unchecked_ref::<Object>());
    for i in 0..keys.length() {
        let name = keys.get(i).as_string().unwrap_or_default();
        let known = name == "signal"
            || (name == "fields" && !op.fields.is_empty())
            || op.arg(&name).is_some();
        if !known {
            return Err(invalid(&name, " is not an option of this method"));
        }
    }
    let mut values = Vec::with_capacity(op.args.len());
    for a in op.args {
        values.push(string(&o, a.caller, a.caller)?.map_or(Value::Null, Value::Str));
    }
    let options = FieldOptions {
        fields: fields(&o)?,
        signal: signal(&o)?,
    };
    Ok((values, options))
}
