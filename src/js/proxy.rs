//! The server proxy's export (feature `server`): `ProxyPolicy`, what `createProxyHandler`
//! (the TypeScript shell's `proxy.ts`) asks about every request. Conversion only; every rule
//! is [`crate::proxy`]'s.

use std::rc::Rc;

use js_sys::{Function, JsString};
use wasm_bindgen::prelude::*;

use super::classes::{attempt_of, Call, Settings};
use super::options::{self, Logger};
use super::{error, object};
use crate::call::PreparedCall;
use crate::config::{ClientOptions, Config};
use crate::error::Error;
use crate::json::js_impl;
use crate::proxy::{redact_response, Policy, Refusal};

/// The longest client method name read from `allow`.
const MAX_METHOD_LEN: u32 = 64;
/// The most names read from `allow`.
const MAX_ALLOW: usize = 64;

/// The options of `createProxyHandler` (any other key is refused, naming it).
const PROXY_OPTIONS: [&str; 9] = [
    "endpoint",
    "baseUrl",
    "allow",
    "maxBodyBytes",
    "apiKey",
    "authorize",
    "fetch",
    "on",
    "logger",
];

/// One proxy's checked options and its checks.
#[wasm_bindgen]
pub struct ProxyPolicy {
    policy: Policy,
    /// `apiKey` as given: a function, or the key as a JavaScript string (never copied into
    /// wasm memory here; the shell reads it for each forwarded request).
    api_key: JsValue,
    /// `authorize`, a function, or undefined.
    authorize: JsValue,
    /// `fetch`, a function, or undefined.
    fetch: JsValue,
    /// The `on` option: listeners of the upstream calls' events, by event type name.
    listeners: Vec<(&'static str, Function)>,
    /// The `logger` option.
    logger: Option<Logger>,
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
    /// Reads `createProxyHandler`'s options object once and checks it: `endpoint` (`"bot"` or
    /// `"merchant"`), `baseUrl`, `allow` (client method names of that endpoint),
    /// `maxBodyBytes` (absent: 65536), `apiKey` (a non-empty string or a function),
    /// `authorize` and `fetch` (absent or functions), `on` (listeners by event type) and
    /// `logger` (as the clients'). Throws `SettlementError` (`invalid_input` naming the
    /// option, or an unknown key).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<ProxyPolicy, JsValue> {
        super::install_panic_hook();
        Self::read(&options).map_err(|e| error::to_js(&e))
    }

    fn read(value: &JsValue) -> Result<ProxyPolicy, Error> {
        let o = options::options_of(value, &PROXY_OPTIONS)?
            .unwrap_or_else(|| js_sys::Object::new().into());
        let option = |name: &str| -> Result<JsValue, Error> {
            Ok(options::get(&o, name, name)?.unwrap_or(JsValue::UNDEFINED))
        };
        let (endpoint, base_url, allow, max_body_bytes) = (
            option("endpoint")?,
            option("baseUrl")?,
            option("allow")?,
            option("maxBodyBytes")?,
        );
        let (api_key, authorize, fetch) =
            (option("apiKey")?, option("authorize")?, option("fetch")?);
        check_functions(&api_key, &authorize, &fetch)?;
        let listeners = options::listeners(&o)?;
        let logger = options::logger(&o)?;
        let endpoint = endpoint.as_string().unwrap_or_default();
        let base_url = base_url.as_string().unwrap_or_default();
        let max = match max_body_bytes.is_undefined() {
            true => None,
            false => Some(max_body_bytes.as_f64().unwrap_or(f64::NAN)),
        };
        let policy = Policy::new(&endpoint, &base_url, &allow_list(&allow)?, max)?;
        Ok(ProxyPolicy {
            policy,
            api_key,
            authorize,
            fetch,
            listeners,
            logger,
        })
    }

    /// The `apiKey` option, as given (a string or a function).
    #[wasm_bindgen(getter, js_name = apiKey, unchecked_return_type = "string | ((request: Request) => string | Promise<string>)")]
    pub fn api_key(&self) -> JsValue {
        self.api_key.clone()
    }

    /// The `authorize` option (a function), or undefined.
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "((request: Request) => boolean | Promise<boolean>) | undefined"
    )]
    pub fn authorize(&self) -> JsValue {
        self.authorize.clone()
    }

    /// The `fetch` option (a function), or undefined.
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "((input: string, init: RequestInit) => Promise<Response>) | undefined"
    )]
    pub fn fetch(&self) -> JsValue {
        self.fetch.clone()
    }

    /// The `on` option's listeners: `{ type, listener }` for each event type given.
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "{ type: keyof SettlementEventMap; listener: Function }[]"
    )]
    pub fn listeners(&self) -> js_sys::Array {
        self.listeners
            .iter()
            .map(|(event_type, listener)| {
                object(&[
                    ("type", &JsValue::from_str(event_type)),
                    ("listener", listener.as_ref()),
                ])
            })
            .collect()
    }

    /// Whether the `logger` option was given (the upstream calls are then observed).
    #[wasm_bindgen(getter)]
    pub fn logs(&self) -> bool {
        self.logger.is_some()
    }

    /// The upstream call of a forwarded request, to observe (its events and the logger's
    /// lines are the clients'): `method` and `body` from `check`'s forward decision, `key`
    /// the key it is sent with (every piece of it is redacted from the events). Undefined
    /// when `method` is not allowed or the key is not one a client would take.
    pub fn call(&self, method: &str, body: JsString, key: &str) -> Option<Call> {
        let op = self.policy.allowed(method)?;
        let options = ClientOptions {
            endpoint: Some(self.policy.upstream().to_owned()),
            api_key: Some(key.to_owned()),
            ..ClientOptions::default()
        };
        let config = Config::new(&options, "").ok()?;
        Some(Call {
            settings: Rc::new(Settings::new(config, self.logger.clone())),
            call: PreparedCall::forwarded(op, body),
            observed: Default::default(),
        })
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

    /// The whole body (at most `maxBodyBytes`): `{ kind: "forward", method, body, mutation }`
    /// (the client method, and the body to send upstream, as the client builds it), or
    /// `{ kind: "refuse", status, body }`.
    #[wasm_bindgen(unchecked_return_type = "ProxyDecision")]
    pub fn check(&self, body: &str) -> Result<JsValue, JsValue> {
        Ok(match self.policy.check(body) {
            Ok(forward) => object(&[
                ("kind", &JsValue::from_str("forward")),
                ("method", &JsValue::from_str(forward.operation.method)),
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

#[wasm_bindgen(js_class = PreparedCall)]
impl Call {
    /// The proxy's upstream call ends with its one attempt's `outcome` (it is sent once: the
    /// client behind the proxy decides on retries): returns, or throws the `SettlementError`
    /// it ends with (its `error` event's, when it is observed).
    pub fn finish(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AttemptOutcome")] outcome: JsValue,
    ) -> Result<(), JsValue> {
        let attempt = attempt_of(0, &outcome, false);
        match self.call.once(&self.settings.config, attempt) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.failing(e)),
        }
    }
}

#[wasm_bindgen(typescript_custom_section)]
const PROXY_SHAPES: &'static str = r#"
/** An answer of the proxy's own: its HTTP status and JSON body. */
export type ProxyAnswer = { status: number; body: string };

/** What to do with a request body: forward this body upstream, or answer with a refusal. */
export type ProxyDecision =
  | { kind: "forward"; method: string; body: string; mutation: boolean }
  | { kind: "refuse"; status: number; body: string };
"#;
