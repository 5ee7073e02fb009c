//! The request body, `{ query, variables, operationName }`, as a serde struct (as
//! graphql-client and cynic do). On wasm32 serde-wasm-bindgen (`json_compatible`) builds the
//! JavaScript object and `JSON.stringify` writes it; natively serde_json writes it.
//!
//! Every body has one variables representation ([`crate::operations::Value`] pairs) or the
//! caller's own variables object, passed through untouched, so one serializer serves all.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

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
    /// variables can cause that: a `BigInt`, a cycle, a throwing `toJSON`).
    #[cfg(target_arch = "wasm32")]
    pub fn to_text(&self) -> Option<String> {
        let value = self
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .ok()?;
        js_sys::JSON::stringify(&value).ok()?.as_string()
    }

    /// The body as JSON text; `None` when it cannot be written.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_text(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }
}

impl Variables<'_> {
    /// The variables as JSON text (the same serializer as the whole body).
    #[cfg(target_arch = "wasm32")]
    fn to_text(&self) -> Option<String> {
        let value = self
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .ok()?;
        js_sys::JSON::stringify(&value).ok()?.as_string()
    }

    /// The variables as JSON text.
    #[cfg(not(target_arch = "wasm32"))]
    fn to_text(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }
}

/// The static start of a built-in operation's body, `{"query":…,"operationName":…`, written
/// once (by the [`Body`] serializer) per document: a client keeps one per operation for the
/// default selection, an order iterator one for all its pages. [`BodyPrefix::body`] adds the
/// variables, serialized per call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyPrefix(String);

impl BodyPrefix {
    /// The prefix of the body of operation `name` with `document`.
    pub fn new(document: &str, name: &str) -> Option<BodyPrefix> {
        let mut text = Body {
            query: document,
            variables: Variables::None,
            operation_name: Some(name),
        }
        .to_text()?;
        // Serde wrote a whole object: drop its closing brace to append to it.
        (text.pop() == Some('}')).then_some(BodyPrefix(text))
    }

    /// The whole body with `variables` (left out when there are none); `None` when they
    /// cannot be written.
    pub fn body(&self, variables: &[(&str, Value)]) -> Option<String> {
        let mut out = self.0.clone();
        if !variables.is_empty() {
            let vars = Variables::Named(variables).to_text()?;
            out.reserve(vars.len() + 14);
            out.push_str(",\"variables\":");
            out.push_str(&vars);
        }
        out.push('}');
        Some(out)
    }
}

#[cfg(test)]
mod tests;
