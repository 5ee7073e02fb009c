//! JSON, written once for both targets.
//!
//! * Reading: the [`JsonValue`] trait is the small set of operations the envelope decoding
//!   and the shape checks need. [`Json`] is `JsValue` on wasm32 (JavaScript's own
//!   `JSON.parse` does the parsing and rows are handed back to JavaScript untouched) and
//!   `serde_json::Value` everywhere else (native tests, Rust users off the web).
//! * Writing: request bodies are serde structs ([`crate::graphql::body`]).

/// A parsed JSON value: `JsValue` on wasm32, `serde_json::Value` elsewhere.
#[cfg(target_arch = "wasm32")]
pub type Json = wasm_bindgen::JsValue;
/// A parsed JSON value: `JsValue` on wasm32, `serde_json::Value` elsewhere.
#[cfg(not(target_arch = "wasm32"))]
pub type Json = serde_json::Value;

/// A decoded value as the Rust API hands it out: `serde_json::Value` on every target (on
/// wasm32 converted from the JavaScript value; the npm binding never calls this). `status`
/// is the response's, for the error.
pub(crate) fn to_value(
    value: &Json,
    #[allow(unused_variables)] status: u16,
) -> Result<serde_json::Value, crate::Error> {
    #[cfg(target_arch = "wasm32")]
    {
        serde_wasm_bindgen::from_value(value.clone()).map_err(|_| {
            crate::Error::decode(status, "The response could not be read as JSON values.")
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    Ok(value.clone())
}

/// [`to_value`] for a value kept in an error: `None` when it cannot be read.
pub(crate) fn to_value_opt(value: &Json) -> Option<serde_json::Value> {
    to_value(value, 0).ok()
}

/// A caller's JSON value as the core's [`Json`] (on wasm32, a JavaScript value); `None` when
/// it cannot be (never, natively).
pub(crate) fn from_value(value: &serde_json::Value) -> Option<Json> {
    #[cfg(target_arch = "wasm32")]
    {
        use serde::Serialize;
        value
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .ok()
    }
    #[cfg(not(target_arch = "wasm32"))]
    Some(value.clone())
}

/// A response body as text: a JavaScript string on wasm32 (never copied into wasm memory),
/// a Rust `String` elsewhere.
#[cfg(target_arch = "wasm32")]
pub type Body = js_sys::JsString;
/// A response body as text: a JavaScript string on wasm32 (never copied into wasm memory),
/// a Rust `String` elsewhere.
#[cfg(not(target_arch = "wasm32"))]
pub type Body = String;

/// Whether a response body is empty.
#[cfg(target_arch = "wasm32")]
pub fn body_is_blank(body: &Body) -> bool {
    let body: &wasm_bindgen::JsValue = body;
    *body == wasm_bindgen::JsValue::from_str("")
}
/// Whether a response body is empty.
#[cfg(not(target_arch = "wasm32"))]
pub fn body_is_blank(body: &Body) -> bool {
    body.is_empty()
}

/// The read-only view of a JSON value that decoding needs.
pub trait JsonValue: Sized + Clone + PartialEq {
    /// Parses JSON text; `None` when it is not JSON.
    fn parse_text(text: &str) -> Option<Self>;
    /// Parses a response body; `None` when it is not JSON.
    fn parse_body(body: &Body) -> Option<Self>;
    /// Serialises the value; `None` when it cannot be (cycles, BigInt, `undefined`).
    fn to_text(&self) -> Option<String>;
    /// The JSON `null`.
    fn null() -> Self;
    /// A JSON string value.
    fn from_text(text: &str) -> Self;

    /// The member `key` of an object; `None` when absent (or `undefined`) or not an object.
    fn member(&self, key: &str) -> Option<Self>;
    /// The length of an array; `None` when not an array.
    fn array_len(&self) -> Option<usize>;
    /// Element `index` of an array; `None` when out of range or not an array.
    fn at(&self, index: usize) -> Option<Self>;
    /// The string, when this is a string.
    fn string(&self) -> Option<String>;
    /// The number, when this is a number.
    fn number(&self) -> Option<f64>;
    /// The boolean, when this is `true` or `false`.
    fn boolean(&self) -> Option<bool>;
    /// Whether this is `null`.
    fn is_null(&self) -> bool;
    /// Whether this is an object (not `null`, not an array).
    fn is_object(&self) -> bool;
}

#[cfg(not(target_arch = "wasm32"))]
impl JsonValue for serde_json::Value {
    fn parse_text(text: &str) -> Option<Self> {
        serde_json::from_str(text).ok()
    }
    fn parse_body(body: &Body) -> Option<Self> {
        Self::parse_text(body)
    }
    fn to_text(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }
    fn null() -> Self {
        serde_json::Value::Null
    }
    fn from_text(text: &str) -> Self {
        serde_json::Value::String(text.to_owned())
    }

    fn member(&self, key: &str) -> Option<Self> {
        self.as_object().and_then(|o| o.get(key)).cloned()
    }
    fn array_len(&self) -> Option<usize> {
        self.as_array().map(Vec::len)
    }
    fn at(&self, index: usize) -> Option<Self> {
        self.as_array().and_then(|a| a.get(index)).cloned()
    }
    fn string(&self) -> Option<String> {
        self.as_str().map(str::to_owned)
    }
    fn number(&self) -> Option<f64> {
        self.as_f64()
    }
    fn boolean(&self) -> Option<bool> {
        self.as_bool()
    }
    fn is_null(&self) -> bool {
        serde_json::Value::is_null(self)
    }
    fn is_object(&self) -> bool {
        serde_json::Value::is_object(self)
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) mod js_impl {
    use super::{Body, JsonValue};
    use js_sys::Reflect;
    use wasm_bindgen::prelude::*;

    // js-sys's `JSON::parse` takes a `&str` (the body would be copied into wasm memory and
    // back); this one takes the `JsString` the response gave.
    #[wasm_bindgen]
    extern "C" {
        /// `JSON.parse` on a JavaScript string, so a body never crosses into wasm memory.
        #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
        fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
        // js-sys's `Array.isArray` does not catch, and it throws on a revoked Proxy: no
        // exception may unwind through wasm frames.
        #[wasm_bindgen(js_namespace = Array, js_name = isArray, catch)]
        fn is_array_js(value: &JsValue) -> Result<bool, JsValue>;
        // wasm-bindgen leaks one externref slot each time a `catch` import that returns a
        // value throws (the slot of the discarded return value). This twin returns nothing:
        // it runs first, so a throwing getter or trap costs no slot.
        #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
        fn get_probe(target: &JsValue, key: &JsValue) -> Result<(), JsValue>;
    }

    /// `Array.isArray`; `Err` when it throws (a revoked Proxy).
    pub fn is_array(value: &JsValue) -> Result<bool, JsValue> {
        is_array_js(value)
    }

    /// `target[key]` (`Reflect.get`); `Err` when a getter or trap throws.
    pub fn read(target: &JsValue, key: &JsValue) -> Result<JsValue, JsValue> {
        get_probe(target, key)?;
        Reflect::get(target, key)
    }

    /// `target[key]`, catching; `undefined` when `target` is not an object or the read throws
    /// (the caller's objects may have throwing getters).
    pub fn member_or_undefined(target: &JsValue, key: &str) -> JsValue {
        if !target.is_object() {
            return JsValue::UNDEFINED;
        }
        read(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    }

    /// `value.length` as a number.
    pub fn length(value: &JsValue) -> Result<f64, JsValue> {
        read(value, &JsValue::from_str("length")).map(|n| n.as_f64().unwrap_or(0.0))
    }

    impl JsonValue for JsValue {
        fn parse_text(text: &str) -> Option<Self> {
            json_parse(&js_sys::JsString::from(text)).ok()
        }
        fn parse_body(body: &Body) -> Option<Self> {
            json_parse(body).ok()
        }
        fn to_text(&self) -> Option<String> {
            js_sys::JSON::stringify(self)
                .ok()
                .and_then(|s| s.as_string())
        }
        fn null() -> Self {
            JsValue::NULL
        }
        fn from_text(text: &str) -> Self {
            JsValue::from_str(text)
        }

        fn member(&self, key: &str) -> Option<Self> {
            // Any object, arrays included (one crossing less than `is_object`, which also
            // asks `Array.isArray`): an array has none of the named members read here unless
            // a caller set one, and JSON text cannot make one.
            if !JsValue::is_object(self) {
                return None;
            }
            // `read`: ramp messages are the caller's objects, whose getters may throw.
            match read(self, &JsValue::from_str(key)) {
                Ok(v) if !v.is_undefined() => Some(v),
                _ => None,
            }
        }
        fn array_len(&self) -> Option<usize> {
            match is_array(self) {
                Ok(true) => length(self).ok().map(|n| n as usize),
                _ => None,
            }
        }
        fn at(&self, index: usize) -> Option<Self> {
            let len = self.array_len()?;
            if index < len {
                read(self, &JsValue::from(index as u32)).ok()
            } else {
                None
            }
        }
        fn string(&self) -> Option<String> {
            self.as_string()
        }
        fn number(&self) -> Option<f64> {
            self.as_f64()
        }
        fn boolean(&self) -> Option<bool> {
            self.as_bool()
        }
        fn is_null(&self) -> bool {
            JsValue::is_null(self)
        }
        fn is_object(&self) -> bool {
            JsValue::is_object(self) && is_array(self) == Ok(false)
        }
    }
}
