//! `Error` → `SettlementError`.

use std::cell::RefCell;

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::Error;

/// The registered `SettlementError` class. A plain static (not `thread_local!`, which costs
/// more wasm): the wasm32 build is single-threaded.
struct ErrorClass(RefCell<Option<Function>>);

// SAFETY: this module is only compiled for wasm32, whose build here has no threads (no
// `atomics` target feature), so the cell is never shared between threads.
#[cfg(not(target_feature = "atomics"))]
unsafe impl Sync for ErrorClass {}

static ERROR_CLASS: ErrorClass = ErrorClass(RefCell::new(None));

pub fn register(ctor: JsValue) -> Result<(), JsValue> {
    match ctor.dyn_into::<Function>() {
        Ok(f) => {
            *ERROR_CLASS.0.borrow_mut() = Some(f);
            Ok(())
        }
        Err(_) => Err(to_js(&Error::invalid(
            "ctor",
            "useErrorClass expects a class (constructor function)",
        ))),
    }
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// Writes the details `{code, field?, status?, retryAfterMs?, graphqlErrors?, data?}` onto `d`.
fn details(err: &Error, d: &JsValue) {
    set(d, "code", &JsValue::from_str(err.code_str()));
    if let Some(f) = &err.field {
        set(d, "field", &JsValue::from_str(f));
    }
    if let Some(s) = err.status {
        set(d, "status", &JsValue::from(s));
    }
    if let Some(ms) = err.retry_after_ms {
        set(d, "retryAfterMs", &JsValue::from_f64(ms as f64));
    }
    if !err.graphql_errors.is_empty() {
        let list = Array::new();
        for g in &err.graphql_errors {
            let o = Object::new();
            set(&o, "message", &JsValue::from_str(&g.message));
            for (key, value) in [
                ("path", &g.path),
                ("locations", &g.locations),
                ("extensions", &g.extensions),
            ] {
                if let Some(v) = value {
                    set(&o, key, v);
                }
            }
            list.push(&o);
        }
        set(d, "graphqlErrors", &list);
    }
    if let Some(data) = &err.data {
        set(d, "data", data);
    }
}

/// A `SettlementError` (or, before a class is registered, an `Error` named
/// `"SettlementError"` with the same properties). The error must already be redacted.
pub fn to_js(err: &Error) -> JsValue {
    let ctor = ERROR_CLASS.0.borrow().clone();
    if let Some(ctor) = ctor {
        let d: JsValue = Object::new().into();
        details(err, &d);
        let args = Array::new();
        args.push(&JsValue::from_str(&err.message));
        args.push(&d);
        if let Ok(e) = Reflect::construct(&ctor, &args) {
            return e;
        }
    }
    let e: JsValue = js_sys::Error::new(&err.message).into();
    set(&e, "name", &JsValue::from_str("SettlementError"));
    details(err, &e);
    e
}
