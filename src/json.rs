//! JSON, written once for both targets.
//!
//! * Reading: the [`JsonValue`] trait is the small set of operations the envelope decoding
//!   and the shape checks need. [`Json`] is `JsValue` on wasm32 (JavaScript's own
//!   `JSON.parse` does the parsing and rows are handed back to JavaScript untouched) and
//!   `serde_json::Value` everywhere else (native tests, Rust users off the web).
//! * Writing: [`JsonWriter`] is a tiny writer for request bodies: objects, strings (escaped
//!   per RFC 8259, control characters included), integers and pre-serialised raw values.

/// A parsed JSON value: `JsValue` on wasm32, `serde_json::Value` elsewhere.
#[cfg(target_arch = "wasm32")]
pub type Json = wasm_bindgen::JsValue;
/// A parsed JSON value: `JsValue` on wasm32, `serde_json::Value` elsewhere.
#[cfg(not(target_arch = "wasm32"))]
pub type Json = serde_json::Value;

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
    fn is_null(&self) -> bool {
        serde_json::Value::is_null(self)
    }
    fn is_object(&self) -> bool {
        serde_json::Value::is_object(self)
    }
}

#[cfg(target_arch = "wasm32")]
mod js_impl {
    use super::{Body, JsonValue};
    use js_sys::{Array, Reflect};
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        /// `JSON.parse` on a JavaScript string, so a body never crosses into wasm memory.
        #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
        fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
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
            if !self.is_object() {
                return None;
            }
            match Reflect::get(self, &JsValue::from_str(key)) {
                Ok(v) if !v.is_undefined() => Some(v),
                _ => None,
            }
        }
        fn array_len(&self) -> Option<usize> {
            if Array::is_array(self) {
                Some(self.unchecked_ref::<Array>().length() as usize)
            } else {
                None
            }
        }
        fn at(&self, index: usize) -> Option<Self> {
            let len = self.array_len()?;
            if index < len {
                Some(self.unchecked_ref::<Array>().get(index as u32))
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
        fn is_null(&self) -> bool {
            JsValue::is_null(self)
        }
        fn is_object(&self) -> bool {
            JsValue::is_object(self) && !Array::is_array(self)
        }
    }
}

/// Replaces every occurrence of `secret` anywhere in `value` (strings, object keys) with
/// `"[redacted]"`. Works on the serialised text, so it is one pass for any depth; the value
/// is returned unchanged when the secret does not occur.
pub fn redact_value<J: JsonValue>(value: &J, secret: &str) -> J {
    if secret.is_empty() {
        return value.clone();
    }
    let Some(text) = value.to_text() else {
        return value.clone();
    };
    // The secret as it appears inside a JSON string literal.
    let mut escaped = String::with_capacity(secret.len() + 8);
    escape_into(&mut escaped, secret);
    use crate::keys::{contains, replace_all, REDACTED};
    if !contains(&text, &escaped) && !contains(&text, secret) {
        return value.clone();
    }
    let mut cleaned = replace_all(&text, &escaped, REDACTED).into_owned();
    if contains(&cleaned, secret) {
        cleaned = replace_all(&cleaned, secret, REDACTED).into_owned();
    }
    // A secret that matches JSON punctuation could break the text; never hand back the
    // original in that case.
    J::parse_text(&cleaned)
        .unwrap_or_else(|| J::parse_text("\"[redacted]\"").unwrap_or_else(J::null))
}

/// Appends `n` in decimal.
pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut v = n.unsigned_abs();
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in buf.get(i..).unwrap_or(&[]) {
        out.push(b as char);
    }
}

/// Appends the body of a JSON string literal (without the quotes) for `s`.
pub fn escape_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            0x00..=0x1f => None,
            _ => continue,
        };
        // `i` is at an ASCII byte, so both ends are character boundaries.
        out.push_str(s.get(start..i).unwrap_or(""));
        match esc {
            Some(e) => out.push_str(e),
            None => {
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
        }
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or(""));
}

/// A minimal streaming writer for JSON objects.
///
/// ```
/// use settlement_wasm::json::JsonWriter;
/// let mut w = JsonWriter::new();
/// w.begin_object();
/// w.key("query");
/// w.string("{ a }");
/// w.key("page");
/// w.int(2);
/// w.end_object();
/// assert_eq!(w.finish(), r#"{"query":"{ a }","page":2}"#);
/// ```
#[derive(Default)]
pub struct JsonWriter {
    out: String,
    /// Whether the next member of the innermost open object needs a comma first.
    needs_comma: Vec<bool>,
}

impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        JsonWriter {
            out: String::with_capacity(256),
            needs_comma: Vec::new(),
        }
    }
    /// Opens an object (as a value or at the top level).
    pub fn begin_object(&mut self) {
        self.out.push('{');
        self.needs_comma.push(false);
    }
    /// Closes the innermost object.
    pub fn end_object(&mut self) {
        self.out.push('}');
        self.needs_comma.pop();
    }
    /// Writes a member name; the value follows with one of the value methods.
    pub fn key(&mut self, name: &str) {
        if let Some(last) = self.needs_comma.last_mut() {
            if *last {
                self.out.push(',');
            }
            *last = true;
        }
        self.string(name);
        self.out.push(':');
    }
    /// Writes a string value.
    pub fn string(&mut self, s: &str) {
        self.out.push('"');
        escape_into(&mut self.out, s);
        self.out.push('"');
    }
    /// Writes an integer value.
    pub fn int(&mut self, n: i64) {
        push_int(&mut self.out, n);
    }
    /// Writes already-serialised JSON text as a value (trusted: it must come from a JSON
    /// serialiser, never from string pasting).
    pub fn raw(&mut self, json: &str) {
        self.out.push_str(json);
    }
    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn roundtrip(s: &str) -> String {
        let mut w = JsonWriter::new();
        w.begin_object();
        w.key(s);
        w.string(s);
        w.end_object();
        let text = w.finish();
        let v: serde_json::Value = serde_json::from_str(&text).expect("writer output is JSON");
        let obj = v.as_object().expect("object");
        assert_eq!(obj.len(), 1);
        assert_eq!(obj.get(s).and_then(|x| x.as_str()), Some(s), "text: {text}");
        text
    }

    #[test]
    fn hostile_strings_round_trip() {
        for s in [
            "",
            "\"",
            "\\",
            "\\\"",
            "{}",
            "}\"},\"variables\":{\"x\":1",
            "query { __schema { types { name } } }",
            "line\nbreak\r\ttab",
            "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}",
            "é ü 中文 🚀 \u{2028}\u{2029}",
            "</script><script>alert(1)</script>",
            "a\"b\\c\u{1}d",
        ] {
            roundtrip(s);
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        let text = roundtrip("\u{1}\n\u{1f}");
        assert!(text.contains("\\u0001\\n\\u001f"), "{text}");
        assert!(!text.bytes().any(|b| b < 0x20));
    }

    #[test]
    fn nested_objects_and_commas() {
        let mut w = JsonWriter::new();
        w.begin_object();
        w.key("a");
        w.int(-12);
        w.key("b");
        w.begin_object();
        w.key("c");
        w.string("d");
        w.key("e");
        w.raw("[1,2]");
        w.end_object();
        w.key("f");
        w.int(i64::MIN);
        w.end_object();
        let v: serde_json::Value = serde_json::from_str(&w.finish()).unwrap();
        assert_eq!(
            v,
            json!({"a": -12, "b": {"c": "d", "e": [1, 2]}, "f": i64::MIN})
        );
    }

    #[test]
    fn integers() {
        for n in [0i64, 1, 9, 10, 2147483647, -1, i64::MAX, i64::MIN] {
            let mut s = String::new();
            push_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn redaction_in_values() {
        let key = "XYZ-SECK_abc123";
        let v = json!({"message": "bad key XYZ-SECK_abc123!", "list": ["XYZ-SECK_abc123", 1], "XYZ-SECK_abc123": true});
        let r = redact_value(&v, key);
        let text = r.to_string();
        assert!(!text.contains(key), "{text}");
        assert_eq!(r["message"], "bad key [redacted]!");
        assert_eq!(r["list"][0], "[redacted]");
        assert_eq!(r["list"][1], 1);
        assert_eq!(r["[redacted]"], true);
        // Unchanged when absent.
        assert_eq!(redact_value(&v, "nope"), v);
        // Keys with characters JSON escapes.
        let odd = "k\"ey\\1";
        let v = json!({"m": "x k\"ey\\1 y"});
        assert_eq!(redact_value(&v, odd)["m"], "x [redacted] y");
        // A key that matches JSON punctuation never leaks the original.
        let v = json!([1, 2]);
        let r = redact_value(&v, "1,2");
        assert!(!r.to_string().contains("1,2"));
    }

    proptest! {
        #[test]
        fn any_string_round_trips(s in any::<String>()) {
            roundtrip(&s);
        }

        #[test]
        fn any_int_matches_std(n in any::<i64>()) {
            let mut s = String::new();
            push_int(&mut s, n);
            prop_assert_eq!(s, n.to_string());
        }
    }
}
