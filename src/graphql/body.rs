//! The request body, `{ query, variables, operationName }`, as a serde struct (as
//! graphql-client and cynic declare it). On wasm32 serde-wasm-bindgen (`json_compatible`)
//! builds the JavaScript object and `JSON.stringify` writes it; natively serde_json writes it.
//!
//! Every body has one variables representation ([`crate::operations::Value`] pairs) or the
//! caller's own variables object, passed through untouched, so one serializer serves all.

use serde::{Serialize, Serializer};

/// A request body's JSON text: a JavaScript string on wasm32, a `String` elsewhere.
pub use crate::json::Body as Text;
use crate::json::Json;
use crate::operations::Value;

/// A GraphQL request body.
#[derive(Serialize)]
pub struct Body<'a> {
    /// The document.
    pub query: &'a str,
    /// The variables; left out when there are none.
    #[serde(skip_serializing_if = "Variables::is_empty")]
    pub variables: Variables<'a>,
    /// The operation's name; left out for caller documents.
    #[serde(rename = "operationName", skip_serializing_if = "Option::is_none")]
    pub operation_name: Option<&'a str>,
}

/// The `variables` member.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Variables<'a> {
    /// Checked variables of a built-in operation, by GraphQL name: a JSON object.
    #[serde(serialize_with = "as_object")]
    Named(&'a [(&'a str, Value)]),
    /// The caller's own object (`request`), as it is: on wasm32 the very `JsValue`.
    #[cfg_attr(target_arch = "wasm32", serde(serialize_with = "preserve"))]
    Caller(&'a Json),
    /// None (the member is left out).
    None,
}

/// The name/value pairs as one JSON object, in their order.
fn as_object<S: Serializer>(pairs: &&[(&str, Value)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(name, value)| (name, value)))
}

/// The caller's JavaScript object itself, not a copy (serde-wasm-bindgen's `preserve`).
#[cfg(target_arch = "wasm32")]
fn preserve<S: Serializer>(value: &&Json, s: S) -> Result<S::Ok, S::Error> {
    serde_wasm_bindgen::preserve::serialize(*value, s)
}

/// A JSON value of the caller's (a `metadata` object) itself, not a copy.
#[cfg(all(
    target_arch = "wasm32",
    any(feature = "server", not(feature = "npm-base"))
))]
pub fn preserve_json<S: Serializer>(value: &Json, s: S) -> Result<S::Ok, S::Error> {
    serde_wasm_bindgen::preserve::serialize(value, s)
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

impl Body<'_> {
    /// The body as JSON text; `None` when it cannot be written (only the caller's own
    /// variables can cause that: a `BigInt`, a cycle, a throwing `toJSON`). On wasm32 the
    /// JavaScript string `JSON.stringify` returned, handed to the request as it is.
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
