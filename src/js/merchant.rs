//! `MerchantClient` for JavaScript.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::bot::spawn;
use super::error::to_js;
use super::options::{field_options, string_arg};
use crate::config::MERCHANT_PATH;
use crate::merchant::MerchantClient;
use crate::operations::{
    Operation, Value, ACCOUNT, AVAILABLE_COUNTRIES, MARKET_RATE, MERCHANT_PAYMENT_REQUEST,
    PAYMENT_METHOD_TYPES, RAMPABLE_ASSETS, RAMP_LIMITS,
};
use crate::transport::FetchTransport;

type Client = MerchantClient<FetchTransport>;

/// Client of the merchant endpoint (public-key-safe reads, and `account` with the secret key).
#[wasm_bindgen(js_name = MerchantClient)]
pub struct JsMerchantClient {
    inner: Rc<Client>,
}

#[wasm_bindgen(js_class = MerchantClient)]
impl JsMerchantClient {
    /// Throws `SettlementError` (`secret_key_in_browser`, `invalid_input`); see `MerchantClientOptions`.
    #[wasm_bindgen(constructor, skip_jsdoc)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "MerchantClientOptions")] options: JsValue,
    ) -> Result<JsMerchantClient, JsValue> {
        let client = Client::from_client(super::new_client(&options, MERCHANT_PATH, true)?);
        Ok(JsMerchantClient {
            inner: Rc::new(client),
        })
    }

    /// The one path of every method: argument (named as the declaration's caller-facing
    /// name), options, prepare, run.
    fn call(
        &self,
        op: &'static Operation,
        argument: Option<&JsValue>,
        options: &JsValue,
    ) -> Promise {
        let values = match (argument, op.args.first()) {
            (Some(v), Some(arg)) => string_arg(v, arg.caller).map(|a| vec![Value::Str(a)]),
            _ => Ok(vec![]),
        };
        let call = values.and_then(|values| {
            let o = field_options(options)?;
            self.inner.prepare(op, values, o)
        });
        match call {
            Err(e) => Promise::reject(&to_js(&self.inner.config().redact(e))),
            Ok(call) => {
                let client = self.inner.clone();
                spawn(Box::pin(async move { client.execute(&call).await }))
            }
        }
    }

    /// The merchant account; needs the secret key (a public key gets `forbidden`).
    #[wasm_bindgen(skip_jsdoc, unchecked_return_type = "Promise<Account>")]
    pub fn account(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&ACCOUNT, None, &options)
    }

    /// The countries the service operates in.
    #[wasm_bindgen(js_name = availableCountries, skip_jsdoc, unchecked_return_type = "Promise<Country[]>")]
    pub fn available_countries(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&AVAILABLE_COUNTRIES, None, &options)
    }

    /// The P2P payment methods of a country (`countryId`: a `Country.id`).
    #[allow(non_snake_case)] // the parameter's name is the .d.ts's
    #[wasm_bindgen(js_name = paymentMethodTypes, skip_jsdoc, unchecked_return_type = "Promise<PaymentMethodType[]>")]
    pub fn payment_method_types(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] countryId: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&PAYMENT_METHOD_TYPES, Some(&countryId), &options)
    }

    /// Indicative rates of a country (ISO 3166-1 alpha-2 code), or `null` when unknown.
    #[allow(non_snake_case)] // the parameter's name is the .d.ts's
    #[wasm_bindgen(js_name = marketRate, skip_jsdoc, unchecked_return_type = "Promise<MarketRate | null>")]
    pub fn market_rate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] countryCode: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&MARKET_RATE, Some(&countryCode), &options)
    }

    /// The ramp limits (USD).
    #[wasm_bindgen(js_name = rampLimits, skip_jsdoc, unchecked_return_type = "Promise<RampLimits>")]
    pub fn ramp_limits(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&RAMP_LIMITS, None, &options)
    }

    /// The assets the onchain ramp handles.
    #[wasm_bindgen(js_name = rampableAssets, skip_jsdoc, unchecked_return_type = "Promise<RampableAsset[]>")]
    pub fn rampable_assets(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&RAMPABLE_ASSETS, None, &options)
    }

    /// A payment request by its exact reference, or `null` when unknown.
    #[wasm_bindgen(js_name = paymentRequest, skip_jsdoc, unchecked_return_type = "Promise<PaymentRequest | null>")]
    pub fn payment_request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] reference: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "MerchantCallOptions")] options: JsValue,
    ) -> Promise {
        self.call(&MERCHANT_PAYMENT_REQUEST, Some(&reference), &options)
    }
}
