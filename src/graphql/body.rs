//! The request body, `{ query, variables, operationName }`, as a serde struct (as
//! graphql-client and cynic do). On wasm32 serde-wasm-bindgen (`json_compatible`) builds the
//! JavaScript object and `JSON.stringify` writes it; natively serde_json writes it.
//!
//! Every body has one variables representation ([`crate::operations::Value`] pairs) or the
//! caller's own variables object, passed through untouched, so one serializer serves all.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// A request body's JSON text: a JavaScript string on wasm32, a `String` elsewhere.
pub use crate::json::Body as Text;
use crate::json::Json;
use crate::operations::Value;

/// A GraphQL request body.
pub struct Body<'a> {
    /// The document.
    pub query: &'a str,
    /// The variables; left out when there are none.
    pub variables: Variables<'a>,
    /// The operation's name; left out for caller documents.
    pub operation_name: Option<&'a str>,
}

// Written out rather than derived (as a map with `&str` keys): a derived struct makes
// serde-wasm-bindgen cache field names in a thread-local HashMap (about 1 KB gzip).
impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("query", self.query)?;
        if !self.variables.is_empty() {
            map.serialize_entry("variables", &self.variables)?;
        }
        if let Some(name) = self.operation_name {
            map.serialize_entry("operationName", name)?;
        }
        map.end()
    }
}

/// The `variables` member.
pub enum Variables<'a> {
    /// Checked variables of a built-in operation, by GraphQL name.
    Named(&'a [(&'a str, Value)]),
    /// The caller's own object (`request`), as it is: on wasm32 the very `JsValue`.
    Caller(&'a Json),
    /// None.
    None,
}

impl Variables<'_> {
    fn is_empty(&self) -> bool {
        match self {
            Variables::Named(list) => list.is_empty(),
            Variables::Caller(_) => false,
            Variables::None => true,
        }
    }
}

impl Serialize for Variables<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Variables::Named(list) => {
                let mut map = s.serialize_map(Some(list.len()))?;
                for (name, value) in list.iter() {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
            #[cfg(target_arch = "wasm32")]
            Variables::Caller(v) => serde_wasm_bindgen::preserve::serialize(*v, s),
            #[cfg(not(target_arch = "wasm32"))]
            Variables::Caller(v) => v.serialize(s),
            Variables::None => s.serialize_unit(),
        }
    }
}

impl Body<'_> {
    /// The body as JSON text; `None` when it cannot be written (only the caller's own
    /// variables can cause that: a `BigInt`, a cycle, a throwing `toJSON`). On wasm32 the
    /// JavaScript string `JSON.stringify` returned, kept as it is and given to the `Request`
    /// (never copied into wasm memory and back).
    #[cfg(target_arch = "wasm32")]
    pub fn to_text(&self) -> Option<Text> {
        let value = self
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .ok()?;
        js_sys::JSON::stringify(&value).ok()
    }

    /// The body as JSON text; `None` when it cannot be written.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_text(&self) -> Option<Text> {
        serde_json::to_string(self).ok()
    }
}

/// The parts of a built-in operation's body that are the same on every call with its default
/// selection, written once per client ([`crate::call::Client`] keeps them): the whole body for
/// a call without variables, `{"query":…,"operationName":…}`, and the head of one with
/// variables, `{"query":…,"operationName":…,"variables":`, which only the variables and `}`
/// complete. On wasm32 both are JavaScript strings: a call neither writes nor copies the
/// document.
#[derive(Clone)]
pub struct Prefix {
    whole: Text,
    head: Text,
}

impl Prefix {
    /// The prefix of `operation_name`'s calls with `document`; `None` when it cannot be
    /// written (never for a built-in document).
    pub fn new(document: &str, operation_name: &str) -> Option<Prefix> {
        let whole = Body {
            query: document,
            variables: Variables::None,
            operation_name: Some(operation_name),
        }
        .to_text()?;
        let head = text::head(&whole);
        Some(Prefix { whole, head })
    }

    /// The body with `variables` (left out when there are none), by their declared names.
    pub fn body(&self, variables: &[(&'static str, Value)]) -> Option<Text> {
        if variables.is_empty() {
            return Some(self.whole.clone());
        }
        text::complete(&self.head, variables)
    }
}

/// [`Prefix`]' text operations: JavaScript strings on wasm32.
#[cfg(target_arch = "wasm32")]
mod text {
    use super::{Text, Value};
    use serde::Serialize;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        // `String.prototype.concat` with two arguments (js-sys binds the one-argument form).
        #[wasm_bindgen(js_name = String)]
        type Str;
        #[wasm_bindgen(method, js_name = concat)]
        fn concat2(this: &Str, a: &JsValue, b: &JsValue) -> Text;
    }

    /// `whole` without its closing `}`, then `,"variables":`.
    pub fn head(whole: &Text) -> Text {
        let open = whole.slice(0, whole.length() - 1);
        open.concat(&JsValue::from_str(",\"variables\":"))
    }

    /// `head`, the variables' JSON, `}`. The variables object is made here, each value by
    /// serde-wasm-bindgen: its names are the declared ones, as JavaScript strings made once
    /// (`json::js_impl::name`, as serde-wasm-bindgen does for struct fields but without its
    /// HashMap), where a serialized map decoded each name on every call (~4 µs per name in a
    /// Chromium profile of 10-row calls).
    pub fn complete(head: &Text, variables: &[(&'static str, Value)]) -> Option<Text> {
        let serializer = serde_wasm_bindgen::Serializer::json_compatible();
        let object = js_sys::Object::new();
        for (name, value) in variables {
            let value = value.serialize(&serializer).ok()?;
            js_sys::Reflect::set(&object, crate::json::js_impl::name(name), &value).ok()?;
        }
        let json = js_sys::JSON::stringify(&object).ok()?;
        Some(
            head.unchecked_ref::<Str>()
                .concat2(&json, crate::json::js_impl::name("}")),
        )
    }
}

/// [`Prefix`]' text operations.
#[cfg(not(target_arch = "wasm32"))]
mod text {
    use super::{Text, Value, Variables};

    /// `whole` without its closing `}`, then `,"variables":`.
    pub fn head(whole: &Text) -> Text {
        let mut head = whole[..whole.len() - 1].to_owned();
        head.push_str(",\"variables\":");
        head
    }

    /// `head`, the variables' JSON, `}`.
    pub fn complete(head: &Text, variables: &[(&'static str, Value)]) -> Option<Text> {
        let mut body = head.clone();
        body.push_str(&serde_json::to_string(&Variables::Named(variables)).ok()?);
        body.push('}');
        Some(body)
    }
}

#[cfg(test)]
mod tests;
