//! `onchainRampUrl`, `parseAmount`, and the two helpers of `listenForRampEvents` (which the
//! package entries define in a few lines of JavaScript: no Rust closures, no closure glue).

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use super::error::to_js;
use super::options;

/// The hosted onchain ramp link; throws `SettlementError` (`invalid_input`); see `OnchainRampOptions`.
#[wasm_bindgen(js_name = onchainRampUrl, skip_jsdoc, unchecked_return_type = "string")]
pub fn onchain_ramp_url(
    #[wasm_bindgen(unchecked_param_type = "OnchainRampOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    // A JsValue, not a String: returning a String links `into_boxed_slice` for this alone.
    options::ramp_url(&options)
        .map(|url| JsValue::from_str(&url))
        .map_err(|e| to_js(&e))
}

/// Decimal text as `{ minorUnits, scale }`; throws `SettlementError` (`invalid_input`) when malformed.
#[wasm_bindgen(js_name = parseAmount, skip_jsdoc, unchecked_return_type = "ParsedAmount")]
pub fn parse_amount(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    let text =
        options::text(&text, "amount", crate::inputs::MAX_TEXT_LEN).map_err(|e| to_js(&e))?;
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

/// Checks `listenForRampEvents`' options; returns the target (`target ?? globalThis`).
#[wasm_bindgen(js_name = __rampListener, skip_typescript)]
pub fn ramp_listener(
    allowed_origin: JsValue,
    on_crypto_requested: JsValue,
    target: JsValue,
) -> Result<JsValue, JsValue> {
    options::ramp_listener(&allowed_origin, &on_crypto_requested, &target).map_err(|e| to_js(&e))
}

/// Whether a message from `origin` carrying `data` reaches the callback.
#[wasm_bindgen(js_name = __rampAccepts, skip_typescript)]
pub fn ramp_accepts(allowed_origin: JsValue, origin: JsValue, data: JsValue) -> bool {
    crate::ramp::accepts(&allowed_origin, &origin, &data)
}
