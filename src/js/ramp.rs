//! `onchainRampUrl`, `parseAmount`, and the option checks of `listenForRampEvents` (which
//! pkg-template/compose.js defines in a few lines of JavaScript: no Rust closures, no closure
//! glue), all reached through `__fn` (`super::function`).

use js_sys::{Object, Reflect};
use wasm_bindgen::JsValue;

use super::error::to_js;
use super::options;

/// `onchainRampUrl(options)`: the hosted onchain ramp link.
pub fn onchain_ramp_url(options: &JsValue) -> Result<JsValue, JsValue> {
    // A JsValue, not a String: returning a String links `into_boxed_slice` for this alone.
    options::ramp_url(options)
        .map(|url| JsValue::from_str(&url))
        .map_err(|e| to_js(&e))
}

/// `parseAmount(text)`: decimal text as `{ minorUnits, scale }`.
pub fn parse_amount(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = options::text(text, "amount", crate::inputs::MAX_TEXT_LEN).map_err(|e| to_js(&e))?;
    let a = crate::amount::parse_amount(&text.unwrap_or_default()).map_err(|e| to_js(&e))?;
    let o = Object::new();
    let _ = Reflect::set(
        &o,
        &JsValue::from_str("minorUnits"),
        &JsValue::from(a.minor_units),
    );
    let _ = Reflect::set(&o, &JsValue::from_str("scale"), &JsValue::from(a.scale));
    Ok(o.into())
}

/// Checks `listenForRampEvents`' options (the entries use `target ?? globalThis`, as checked
/// here); `undefined` when they are valid.
pub fn ramp_listener(
    allowed_origin: &JsValue,
    on_crypto_requested: &JsValue,
    target: &JsValue,
) -> Result<JsValue, JsValue> {
    options::ramp_listener(allowed_origin, on_crypto_requested, target)
        .map(|_| JsValue::UNDEFINED)
        .map_err(|e| to_js(&e))
}
