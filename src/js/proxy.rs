//! The server proxy's export (feature `server`): `ProxyPolicy`, what `createProxyHandler`
//! (the TypeScript shell's `proxy.ts`) asks about every request. Conversion only; every rule
//! is [`crate::proxy`]'s.

use wasm_bindgen::prelude::*;

use super::{error, object};
use crate::error::Error;
use crate::json::js_impl;
use crate::proxy::{redact_response, Policy, Refusal};

/// The longest client method name read from `allow`.
const MAX_METHOD_LEN: u32 = 64;
/// The most names read from `allow`.
const MAX_ALLOW: usize = 64;

/// One proxy's checked options and its checks.
#[wasm_bindgen]
pub struct ProxyPolicy {
    policy: Policy,
}

/// `{ status, body }`: an answer of the proxy's own.
fn refusal(r: &Refusal) -> JsValue {
    object(&[
        ("status", &JsValue::from(r.status)),
        ("body", &JsValue::from_str(&r.body())),
    ])
}

fn invalid_allow() -> Error {
    Error::invalid("allow", "allow must be an array of client method names")
}

/// `apiKey` a non-empty string or a function; `authorize` and `fetch` absent or functions.
fn check_functions(api_key: &JsValue, authorize: &JsValue, fetch: &JsValue) -> Result<(), Error> {
    let key_ok = api_key.is_function()
        || super::options::text(api_key, "apiKey", crate::inputs::MAX_TEXT_LEN)?
            .is_some_and(|k| !k.trim().is_empty());
    if !key_ok {
        return Err(Error::invalid(
            "apiKey",
            "apiKey must be the key (a non-empty string) or a function returning it",
        ));
    }
    for (value, field) in [(authorize, "authorize"), (fetch, "fetch")] {
        if !(value.is_undefined() || value.is_null() || value.is_function()) {
            return Err(Error::invalid(field, format!("{field} must be a function")));
        }
    }
    Ok(())
}

/// `allow`: an array of strings.
fn allow_list(allow: &JsValue) -> Result<Vec<String>, Error> {
    if !js_impl::is_array(allow).unwrap_or(false) {
        return Err(invalid_allow());
    }
    let len = js_impl::length(allow).map_err(|_| invalid_allow())? as usize;
    if len > MAX_ALLOW {
        return Err(crate::inputs::too_many("allow", MAX_ALLOW as u32));
    }
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let item = js_impl::read(allow, &JsValue::from(i as u32)).map_err(|_| invalid_allow())?;
        match super::options::text(&item, "allow", MAX_METHOD_LEN)? {
            Some(name) => out.push(name),
            None => return Err(invalid_allow()),
        }
    }
    Ok(out)
}

#[wasm_bindgen]
impl ProxyPolicy {
    /// Checks `createProxyHandler`'s `endpoint` (`"bot"` or `"merchant"`), `baseUrl`, `allow` (client
    /// method names of that endpoint), `maxBodyBytes` (absent: 65536), `apiKey` (a non-empty
    /// string or a function; a string is not kept), `authorize` and `fetch` (absent or
    /// functions). Throws `SettlementError` (`invalid_input` naming the option).
    #[wasm_bindgen(constructor)]
    pub fn new(
        endpoint: JsValue,
        base_url: JsValue,
        allow: JsValue,
        max_body_bytes: JsValue,
        api_key: JsValue,
        authorize: JsValue,
        fetch: JsValue,
    ) -> Result<ProxyPolicy, JsValue> {
        super::install_panic_hook();
        check_functions(&api_key, &authorize, &fetch).map_err(|e| error::to_js(&e))?;
        let endpoint = endpoint.as_string().unwrap_or_default();
        let base_url = base_url.as_string().unwrap_or_default();
        let max = if max_body_bytes.is_undefined() || max_body_bytes.is_null() {
            None
        } else {
            Some(max_body_bytes.as_f64().unwrap_or(f64::NAN))
        };
        let policy = allow_list(&allow)
            .and_then(|allow| Policy::new(&endpoint, &base_url, &allow, max))
            .map_err(|e| error::to_js(&e))?;
        Ok(ProxyPolicy { policy })
    }

    /// The service endpoint requests are forwarded to.
    #[wasm_bindgen(getter)]
    pub fn upstream(&self) -> String {
        self.policy.upstream().to_owned()
    }

    /// The largest body read, in bytes.
    #[wasm_bindgen(getter, js_name = maxBodyBytes)]
    pub fn max_body_bytes(&self) -> u32 {
        self.policy.max_body_bytes()
    }

    /// The request's method: `undefined` for `POST`, else the 405 answer `{ status, body }`.
    #[wasm_bindgen(js_name = checkMethod, unchecked_return_type = "ProxyAnswer | undefined")]
    pub fn check_method(&self, method: &str) -> Result<JsValue, JsValue> {
        Ok(match self.policy.check_method(method) {
            Ok(()) => JsValue::UNDEFINED,
            Err(r) => refusal(&r),
        })
    }

    /// The whole body (at most `maxBodyBytes`): `{ kind: "forward", body, mutation }` (the
    /// body to send upstream, as the client builds it), or `{ kind: "refuse", status, body }`.
    #[wasm_bindgen(unchecked_return_type = "ProxyDecision")]
    pub fn check(&self, body: &str) -> Result<JsValue, JsValue> {
        Ok(match self.policy.check(body) {
            Ok(forward) => object(&[
                ("kind", &JsValue::from_str("forward")),
                ("body", &JsValue::from_str(&forward.body)),
                (
                    "mutation",
                    &JsValue::from(forward.operation.kind == crate::operations::Kind::Mutation),
                ),
            ]),
            Err(r) => {
                let answer = refusal(&r);
                let _ = js_sys::Reflect::set(&answer, &"kind".into(), &"refuse".into());
                answer
            }
        })
    }

    /// The 413 answer (the body went over `maxBodyBytes`; the shell stopped reading).
    #[wasm_bindgen(js_name = tooLarge, unchecked_return_type = "ProxyAnswer")]
    pub fn too_large(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::too_large(self.policy.max_body_bytes())))
    }

    /// The 400 answer (the body is not UTF-8 text, or could not be read).
    #[wasm_bindgen(js_name = notJson, unchecked_return_type = "ProxyAnswer")]
    pub fn not_json(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::not_json()))
    }

    /// The 401 answer (`authorize` said no or threw).
    #[wasm_bindgen(unchecked_return_type = "ProxyAnswer")]
    pub fn unauthorized(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::unauthorized()))
    }

    /// The 502 answer (the service could not be reached).
    #[wasm_bindgen(unchecked_return_type = "ProxyAnswer")]
    pub fn unreachable(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::unreachable()))
    }

    /// The 500 answer (`apiKey` gave no key for this request).
    #[wasm_bindgen(js_name = noKey, unchecked_return_type = "ProxyAnswer")]
    pub fn no_key(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::no_key()))
    }

    /// The 500 answer (a value of the request or of the options' functions could not be read).
    #[wasm_bindgen(unchecked_return_type = "ProxyAnswer")]
    pub fn internal(&self) -> Result<JsValue, JsValue> {
        Ok(refusal(&Refusal::internal()))
    }

    /// The service's response body with `key` redacted, as the clients redact it.
    pub fn redact(&self, body: &str, key: &str) -> String {
        redact_response(body, key)
    }
}

#[wasm_bindgen(typescript_custom_section)]
const PROXY_SHAPES: &'static str = r#"
/** An answer of the proxy's own: its HTTP status and JSON body. */
export type ProxyAnswer = { status: number; body: string };

/** What to do with a request body: forward this body upstream, or answer with a refusal. */
export type ProxyDecision =
  | { kind: "forward"; body: string; mutation: boolean }
  | { kind: "refuse"; status: number; body: string };
"#;
