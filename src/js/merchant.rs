//! `MerchantClient` for JavaScript.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::options::{field_options, string_arg};
use crate::call::PreparedCall;
use crate::config::MERCHANT_PATH;
use crate::error::Error;
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

    /// The client's core (configuration and transport).
    pub(super) fn core(&self) -> &super::Core {
        &self.inner
    }

    /// The one path of every method: argument (named as the declaration's caller-facing
    /// name), options, prepare.
    fn prepare(
        &self,
        op: &'static Operation,
        argument: Option<&JsValue>,
        options: &JsValue,
    ) -> Result<PreparedCall, Error> {
        let values = match (argument, op.args.first()) {
            (Some(v), Some(arg)) => string_arg(v, arg.caller).map(|a| vec![Value::Str(a)]),
            _ => Ok(vec![]),
        };
        values.and_then(|values| {
            let o = field_options(options)?;
            self.inner.prepare(op, values, o)
        })
    }

    /// Every method: `n` numbers them as `MERCHANT_CALLS`; the package entries define the named
    /// methods (pkg-template/compose.js) and their types are `MERCHANT_TS` below. Returns what
    /// `super::start` does.
    pub fn call_n(&self, n: u32, a: JsValue, b: JsValue) -> JsValue {
        let call = match MERCHANT_CALLS.get(n as usize) {
            Some(op) if op.args.is_empty() => self.prepare(op, None, &a),
            Some(op) => self.prepare(op, Some(&a), &b),
            None => Err(Error::invalid("this", "not a method of MerchantClient")),
        };
        super::start(&self.inner, n, call)
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
