//! `MerchantClient`: the merchant endpoint's read-only queries, the same shape as
//! [`crate::BotClient`]: [`MerchantClient::prepare`] over the declarations in
//! [`crate::operations`], then [`Client::execute`] or typed thin methods.
//!
//! Front-end apps hold the merchant **public** key; servers hold the **secret** key. The
//! constructor refuses a secret key where page visitors can read it (a browser or worker,
//! as the transport reports it) unless `dangerously_allow_browser` is set: see
//! [`crate::keys::browser_guard`]. Everything else — transport, errors, retries, timeouts,
//! redaction — is the shared [`Client`] the bot client uses too. Every query here is
//! read-only, so it is retried like the bot queries. (Argument refusals carry fixed
//! messages, so they need no redaction.)

use std::sync::Arc;

use crate::call::{Client, PreparedCall};
use crate::config::{MerchantOptions, MERCHANT_PATH};
use crate::error::Error;
use crate::keys;
use crate::operations::{
    Endpoint, Operation, Value, ACCOUNT, AVAILABLE_COUNTRIES, MARKET_RATE,
    MERCHANT_PAYMENT_REQUEST, PAYMENT_METHOD_TYPES, RAMPABLE_ASSETS, RAMP_LIMITS,
};
use crate::transport::Transport;
use crate::types::{
    Account, Country, FieldOptions, MarketRate, PaymentMethodType, PaymentRequest, RampLimits,
    RampableAsset,
};

/// A client of the merchant endpoint, `{baseUrl}/service/api/graphql`. Dereferences to the
/// shared [`Client`] (`execute`, `config`, `transport`).
///
/// Cloning is cheap (the clones share one configuration and transport). Over
/// [`crate::ReqwestTransport`] the client is `Send + Sync` and its futures are `Send`: a
/// server keeps it, with the secret key, in its state.
pub struct MerchantClient<T: Transport> {
    client: Arc<Client<T>>,
}

impl<T: Transport> Clone for MerchantClient<T> {
    fn clone(&self) -> Self {
        MerchantClient {
            client: Arc::clone(&self.client),
        }
    }
}

impl<T: Transport> std::fmt::Debug for MerchantClient<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MerchantClient")
            .field("config", self.client.config())
            .finish()
    }
}

impl<T: Transport> std::ops::Deref for MerchantClient<T> {
    type Target = Client<T>;
    fn deref(&self) -> &Client<T> {
        &self.client
    }
}

#[cfg(any(target_arch = "wasm32", feature = "reqwest"))]
impl MerchantClient<crate::transport::DefaultTransport> {
    /// A client over the target's transport: the global `fetch` on wasm32, reqwest natively
    /// (feature `reqwest`; inside a tokio runtime). In a browser or worker a secret key is
    /// refused (`secret_key_in_browser`) unless `dangerously_allow_browser`.
    ///
    /// ```
    /// use settlement_wasm::{ClientOptions, MerchantClient, MerchantOptions};
    ///
    /// let merchant = MerchantClient::new(MerchantOptions {
    ///     client: ClientOptions {
    ///         base_url: Some("https://settlement.example".into()),
    ///         api_key: Some("merchant-public-key".into()),
    ///         ..ClientOptions::default()
    ///     },
    ///     ..MerchantOptions::default()
    /// })?;
    /// assert_eq!(merchant.config().endpoint(), "https://settlement.example/service/api/graphql");
    /// # Ok::<(), settlement_wasm::Error>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(any(target_arch = "wasm32", feature = "reqwest"))))]
    pub fn new(options: MerchantOptions) -> Result<Self, Error> {
        Self::with_transport(options, crate::transport::DefaultTransport::default())
    }
}

impl<T: Transport> MerchantClient<T> {
    /// A client over any [`Transport`]. The browser guard runs first: a secret key where
    /// [`Transport::browser_like`] is true is refused unless
    /// `options.dangerously_allow_browser`.
    pub fn with_transport(options: MerchantOptions, transport: T) -> Result<Self, Error> {
        keys::browser_guard(
            options.client.api_key.as_deref(),
            transport.browser_like(),
            options.dangerously_allow_browser,
        )?;
        Ok(MerchantClient {
            client: Arc::new(Client::new(&options.client, MERCHANT_PATH, transport)?),
        })
    }

    /// Validates and builds a call of a merchant operation (`operations::ACCOUNT`,
    /// `AVAILABLE_COUNTRIES`, `PAYMENT_METHOD_TYPES`, `MARKET_RATE`, `RAMP_LIMITS`,
    /// `RAMPABLE_ASSETS`, `MERCHANT_PAYMENT_REQUEST`): `values` one per argument, in
    /// declaration order (`countryId` trimmed and not empty; `countryCode` two letters, sent
    /// upper-case; `reference` not blank, sent exactly as given); the selection from
    /// `options.fields` or the operation's default.
    pub fn prepare(
        &self,
        op: &Operation,
        values: Vec<Value>,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.client
            .prepare_on(Endpoint::Merchant, op, values, options)
    }

    /// Runs a merchant operation and returns its result as JSON.
    pub async fn call_json(
        &self,
        op: &Operation,
        values: Vec<Value>,
        options: FieldOptions,
    ) -> Result<serde_json::Value, Error> {
        self.execute(&self.prepare(op, values, options)?).await
    }

    /// The merchant account. Needs the secret key: the service answers a public key with
    /// `forbidden`.
    pub async fn account(&self, options: FieldOptions) -> Result<Account, Error> {
        self.execute_typed(self.prepare(&ACCOUNT, vec![], options))
            .await
    }

    /// The countries the service operates in.
    pub async fn available_countries(&self, options: FieldOptions) -> Result<Vec<Country>, Error> {
        self.execute_typed(self.prepare(&AVAILABLE_COUNTRIES, vec![], options))
            .await
    }

    /// The P2P payment methods of a country (`country_id`: a `Country.id`).
    pub async fn payment_method_types(
        &self,
        country_id: &str,
        options: FieldOptions,
    ) -> Result<Vec<PaymentMethodType>, Error> {
        let values = vec![Value::Str(country_id.to_owned())];
        self.execute_typed(self.prepare(&PAYMENT_METHOD_TYPES, values, options))
            .await
    }

    /// Indicative rates of a country; `None` when the service does not know it.
    pub async fn market_rate(
        &self,
        country_code: &str,
        options: FieldOptions,
    ) -> Result<Option<MarketRate>, Error> {
        let values = vec![Value::Str(country_code.to_owned())];
        self.execute_typed(self.prepare(&MARKET_RATE, values, options))
            .await
    }

    /// The ramp limits.
    pub async fn ramp_limits(&self, options: FieldOptions) -> Result<RampLimits, Error> {
        self.execute_typed(self.prepare(&RAMP_LIMITS, vec![], options))
            .await
    }

    /// The assets the onchain ramp handles.
    pub async fn rampable_assets(
        &self,
        options: FieldOptions,
    ) -> Result<Vec<RampableAsset>, Error> {
        self.execute_typed(self.prepare(&RAMPABLE_ASSETS, vec![], options))
            .await
    }

    /// A payment request by its reference; `None` when the service does not know it.
    pub async fn payment_request(
        &self,
        reference: &str,
        options: FieldOptions,
    ) -> Result<Option<PaymentRequest>, Error> {
        let values = vec![Value::Str(reference.to_owned())];
        self.execute_typed(self.prepare(&MERCHANT_PAYMENT_REQUEST, values, options))
            .await
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
