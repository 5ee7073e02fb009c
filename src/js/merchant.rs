//! `MerchantClient` for JavaScript.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;

use super::bot::spawn;
use super::error::to_js;
use super::options::{field_options, string_arg};
use crate::config::MERCHANT_PATH;
use crate::merchant::MerchantClient;
use crate::operations::{Operation, Value, MERCHANT_CALLS};
use crate::transport::FetchTransport;

type Client = MerchantClient<FetchTransport>;

/// The merchant endpoint's side of the wasm class `__Client` (see `super::JsClient`).
pub struct JsMerchantClient {
    inner: Rc<Client>,
}

impl JsMerchantClient {
    pub fn new(options: &JsValue) -> Result<JsMerchantClient, JsValue> {
        let client = Client::from_client(super::new_client(options, MERCHANT_PATH, true)?);
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

    /// Every method: `n` numbers them as `MERCHANT_CALLS`; the package entries define the named
    /// methods (pkg-template/compose.js) and their types are `MERCHANT_TS` below.
    pub fn call_n(&self, n: u32, a: JsValue, b: JsValue) -> Promise {
        match MERCHANT_CALLS.get(n as usize) {
            Some(op) if op.args.is_empty() => self.call(op, None, &a),
            Some(op) => self.call(op, Some(&a), &b),
            None => Promise::reject(&JsValue::UNDEFINED),
        }
    }
}

// The JavaScript class (pkg-template/compose.js), declared for TypeScript here; each method
// line names the declaration's result type (checked by a native test against `operations.rs`).
#[wasm_bindgen(typescript_custom_section)]
const MERCHANT_TS: &'static str = r#"
/** Client of the merchant endpoint (public-key-safe reads, and `account` with the secret key). */
export declare class MerchantClient {
    /** Throws `SettlementError` (`secret_key_in_browser`, `invalid_input`); see `MerchantClientOptions`. */
    constructor(options: MerchantClientOptions);
    /** Releases the client's wasm memory; the client is unusable afterwards (`invalid_input`, field `this`). */
    free(): void;
    /** The merchant account; needs the secret key (a public key gets `forbidden`). */
    account(options?: MerchantCallOptions): Promise<Account>;
    /** The countries the service operates in. */
    availableCountries(options?: MerchantCallOptions): Promise<Country[]>;
    /** The P2P payment methods of a country (`countryId`: a `Country.id`). */
    paymentMethodTypes(countryId: string, options?: MerchantCallOptions): Promise<PaymentMethodType[]>;
    /** Indicative rates of a country (ISO 3166-1 alpha-2 code), or `null` when unknown. */
    marketRate(countryCode: string, options?: MerchantCallOptions): Promise<MarketRate | null>;
    /** The ramp limits (USD). */
    rampLimits(options?: MerchantCallOptions): Promise<RampLimits>;
    /** The assets the onchain ramp handles. */
    rampableAssets(options?: MerchantCallOptions): Promise<RampableAsset[]>;
    /** A payment request by its exact reference, or `null` when unknown. */
    paymentRequest(reference: string, options?: MerchantCallOptions): Promise<PaymentRequest | null>;
}
"#;
