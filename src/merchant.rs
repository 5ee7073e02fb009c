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

use crate::call::{with_response, Capture, Client, PreparedCall};
use crate::config::{MerchantOptions, MERCHANT_PATH};
use crate::confirm::{ConfirmOutcome, ConfirmStep, Confirmation, Poll};
use crate::error::Error;
use crate::events::{ResponseInfo, Source};
use crate::keys;
use crate::operations::{
    Arguments, Endpoint, Operation, Value, ACCOUNT, AVAILABLE_COUNTRIES, CONFIRM_TRANSACTION,
    MARKET_RATE, MERCHANT_PAYMENT_REQUEST, PAYMENT_METHOD_TYPES, RAMPABLE_ASSETS, RAMP_LIMITS,
};
use crate::transport::Transport;
use crate::types::{
    Account, ConfirmTransactionArgs, ConfirmUntilSettledArgs, Country, FieldOptions, MarketRate,
    PaymentMethodType, PaymentRequest, RampLimits, RampableAsset,
};

/// The `initiateHostedPayment` argument values (by name) and call options.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub fn hosted_payment_values(
    a: crate::types::InitiateHostedPaymentArgs,
) -> (Arguments, FieldOptions) {
    let opt = |v: Option<String>| v.map_or(Value::Null, Value::Str);
    let values = vec![
        ("amount", Value::Str(a.amount)),
        ("currency", opt(a.currency)),
        ("countryCode", Value::Str(a.country_code)),
        ("email", Value::Str(a.email)),
        ("paymentType", Value::Str(a.payment_type)),
        ("reference", Value::Str(a.reference)),
        ("firstName", Value::Str(a.first_name)),
        ("lastName", Value::Str(a.last_name)),
        ("redirectUrl", opt(a.redirect_url)),
        ("metadata", a.metadata.map_or(Value::Null, Value::Json)),
    ];
    let options = FieldOptions {
        fields: a.fields,
        signal: a.signal,
    };
    (values, options)
}

/// The `confirmTransaction` argument values (by name) and call options.
pub fn confirm_values(
    payment_request: String,
    transaction_hash: String,
    signal: Option<crate::transport::Signal>,
) -> (Arguments, FieldOptions) {
    let values = vec![
        ("paymentRequest", Value::Str(payment_request)),
        ("transactionHash", Value::Str(transaction_hash)),
    ];
    (
        values,
        FieldOptions {
            fields: None,
            signal,
        },
    )
}

/// A client of the merchant endpoint, `{baseUrl}/service/api/graphql`. Dereferences to the
/// shared [`Client`] (`execute`, `config`, `transport`).
///
/// Cloning is cheap (the clones share one configuration and transport). Over
/// [`crate::ReqwestTransport`] the client is `Send + Sync` and its futures are `Send`: a
/// server keeps it, with the secret key, in its state.
pub struct MerchantClient<T: Transport> {
    client: Arc<Client<T>>,
    /// Set on the clone a `with_response` function is given: its first call's response.
    capture: Option<Arc<Capture>>,
}

impl<T: Transport> Clone for MerchantClient<T> {
    fn clone(&self) -> Self {
        MerchantClient {
            client: Arc::clone(&self.client),
            capture: self.capture.clone(),
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
    /// The shared client (what an iteration keeps).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    fn shared(&self) -> Arc<Client<T>> {
        Arc::clone(&self.client)
    }

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
            capture: None,
        })
    }

    /// Validates and builds a call of a merchant operation (`operations::ACCOUNT`,
    /// `AVAILABLE_COUNTRIES`, `PAYMENT_METHOD_TYPES`, `MARKET_RATE`, `RAMP_LIMITS`,
    /// `RAMPABLE_ASSETS`, `MERCHANT_PAYMENT_REQUEST`, …): `values` by the names callers know
    /// the arguments by (`[("countryId", Value::Str(..))]`; `countryId` trimmed and not empty;
    /// `countryCode` two letters, sent upper-case; `reference` not blank, sent exactly as
    /// given); the selection from `options.fields` or the operation's default.
    pub fn prepare(
        &self,
        op: &Operation,
        values: Arguments,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.client
            .prepare_on(Endpoint::Merchant, op, values, options)
    }

    /// The value of the call `start` makes with the client it is given (a clone of this one),
    /// and the response behind it, read from the same request: the status, the headers
    /// (without `set-cookie`, no piece of the key) and the service's request id. Only the
    /// first call `start` makes is observed; if it makes none, `invalid_input` (`call`). A
    /// failed call's error carries the response's headers and request id already.
    ///
    /// ```no_run
    /// # async fn f(merchant: settlement_wasm::MerchantClient<settlement_wasm::DefaultTransport>) -> Result<(), settlement_wasm::Error> {
    /// let (limits, response) = merchant
    ///     .with_response(|c| async move { c.ramp_limits(Default::default()).await })
    ///     .await?;
    /// println!("{limits:?} {} {:?}", response.status, response.request_id);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn with_response<R, Fut>(
        &self,
        start: impl FnOnce(Self) -> Fut,
    ) -> Result<(R, ResponseInfo), Error>
    where
        Fut: std::future::Future<Output = Result<R, Error>>,
    {
        let capture = Arc::new(Capture::default());
        let scoped = MerchantClient {
            client: Arc::clone(&self.client),
            capture: Some(Arc::clone(&capture)),
        };
        with_response(scoped, &capture, start).await
    }

    /// Runs a call and reads its result as `R` (in a `with_response` scope, its response is kept).
    async fn typed<R: serde::de::DeserializeOwned>(
        &self,
        call: Result<PreparedCall, Error>,
    ) -> Result<R, Error> {
        self.client
            .execute_typed_in(call, self.capture.as_deref())
            .await
    }

    /// Runs a call and returns its result as JSON (in a `with_response` scope, its response is kept).
    async fn json(&self, call: &PreparedCall) -> Result<serde_json::Value, Error> {
        self.client
            .execute_json_in(call, self.capture.as_deref())
            .await
    }

    /// Runs a merchant operation and returns its result as JSON.
    pub async fn call_json(
        &self,
        op: &Operation,
        values: Arguments,
        options: FieldOptions,
    ) -> Result<serde_json::Value, Error> {
        self.json(&self.prepare(op, values, options)?).await
    }

    /// The merchant account. Needs the secret key: the service answers a public key with
    /// `forbidden`.
    pub async fn account(&self, options: FieldOptions) -> Result<Account, Error> {
        self.typed(self.prepare(&ACCOUNT, vec![], options)).await
    }

    /// The countries the service operates in.
    pub async fn available_countries(&self, options: FieldOptions) -> Result<Vec<Country>, Error> {
        self.typed(self.prepare(&AVAILABLE_COUNTRIES, vec![], options))
            .await
    }

    /// The P2P payment methods of a country (`country_id`: a `Country.id`).
    pub async fn payment_method_types(
        &self,
        country_id: &str,
        options: FieldOptions,
    ) -> Result<Vec<PaymentMethodType>, Error> {
        let values = vec![("countryId", Value::Str(country_id.to_owned()))];
        self.typed(self.prepare(&PAYMENT_METHOD_TYPES, values, options))
            .await
    }

    /// Indicative rates of a country; `None` when the service does not know it.
    pub async fn market_rate(
        &self,
        country_code: &str,
        options: FieldOptions,
    ) -> Result<Option<MarketRate>, Error> {
        let values = vec![("countryCode", Value::Str(country_code.to_owned()))];
        self.typed(self.prepare(&MARKET_RATE, values, options))
            .await
    }

    /// The ramp limits.
    pub async fn ramp_limits(&self, options: FieldOptions) -> Result<RampLimits, Error> {
        self.typed(self.prepare(&RAMP_LIMITS, vec![], options))
            .await
    }

    /// The assets the onchain ramp handles.
    pub async fn rampable_assets(
        &self,
        options: FieldOptions,
    ) -> Result<Vec<RampableAsset>, Error> {
        self.typed(self.prepare(&RAMPABLE_ASSETS, vec![], options))
            .await
    }

    /// A payment request by its reference; `None` when the service does not know it.
    pub async fn payment_request(
        &self,
        reference: &str,
        options: FieldOptions,
    ) -> Result<Option<PaymentRequest>, Error> {
        let values = vec![("reference", Value::Str(reference.to_owned()))];
        self.typed(self.prepare(&MERCHANT_PAYMENT_REQUEST, values, options))
            .await
    }

    /// Tells the service that the crypto a `crypto.requested` event asked for was sent (the
    /// public key is enough): `true` once the payment request is settled, `false` while the
    /// service has not seen or confirmed the transfer yet. Sent once, never retried; a lost
    /// answer is `outcome_unknown`.
    pub async fn confirm_transaction(&self, args: ConfirmTransactionArgs) -> Result<bool, Error> {
        let (values, options) =
            confirm_values(args.payment_request, args.transaction_hash, args.signal);
        self.typed(self.prepare(&CONFIRM_TRANSACTION, values, options))
            .await
    }

    /// Creates a hosted payment page for a customer (secret key: on a server). Sent once,
    /// never retried: after `outcome_unknown`, read it back with
    /// [`MerchantClient::payment_request`] by `args.reference`, the idempotency key, instead
    /// of creating a second one.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    pub async fn initiate_hosted_payment(
        &self,
        args: crate::types::InitiateHostedPaymentArgs,
    ) -> Result<PaymentRequest, Error> {
        let (values, options) = hosted_payment_values(args);
        self.typed(self.prepare(&crate::operations::INITIATE_HOSTED_PAYMENT, values, options))
            .await
    }

    /// Cancels a hosted payment (`created` or `picked_up` → `canceled`) by its `id` (secret
    /// key). Sent once, never retried.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    pub async fn cancel_hosted_payment(
        &self,
        payment_request: &str,
        options: crate::types::CallOptions,
    ) -> Result<bool, Error> {
        let (values, options) = (
            vec![("paymentRequest", Value::Str(payment_request.to_owned()))],
            FieldOptions {
                fields: None,
                signal: options.signal,
            },
        );
        self.typed(self.prepare(&crate::operations::CANCEL_HOSTED_PAYMENT, values, options))
            .await
    }

    /// Sends USD stablecoins from the merchant's balance to an onchain address (secret key).
    /// Sent once, never retried: after `outcome_unknown`, read the withdrawal back with
    /// [`MerchantClient::onchain_withdrawal`] when its `id` is known, and check the balance
    /// with [`MerchantClient::account`] before trying again.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    pub async fn withdraw_onchain(
        &self,
        args: crate::types::WithdrawOnchainArgs,
    ) -> Result<crate::types::OnchainWithdrawal, Error> {
        let values = vec![
            ("address", Value::Str(args.address)),
            ("amountUsd", Value::Str(args.amount_usd)),
            ("network", args.network.map_or(Value::Null, Value::Str)),
            ("metadata", args.metadata.map_or(Value::Null, Value::Json)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&crate::operations::WITHDRAW_ONCHAIN, values, options))
            .await
    }

    /// The confirmation loop of `args`, validated (every argument, before anything is sent):
    /// what [`MerchantClient::confirm_until_settled`] drives.
    pub fn confirmation(&self, args: ConfirmUntilSettledArgs) -> Result<Confirmation, Error> {
        let (values, options) =
            confirm_values(args.payment_request, args.transaction_hash, args.signal);
        let call = self.prepare(&CONFIRM_TRANSACTION, values, options)?;
        let poll = self.redact(Poll::new(args.interval_ms, args.max_tries))?;
        Ok(Confirmation::new(call, poll))
    }

    /// `confirm_transaction` again and again, `interval_ms` apart (default 5 s), until the
    /// service reports the request settled or `max_tries` confirmations (default 10) were
    /// answered "not yet" ([`crate::confirm`]). Each confirmation is sent once; a transient
    /// failure (5xx, 429, timeout, network, `outcome_unknown`) counts as a try and backs off;
    /// any other error (401, 403, GraphQL errors, `aborted` for the signal) ends it.
    pub async fn confirm_until_settled(
        &self,
        args: ConfirmUntilSettledArgs,
    ) -> Result<ConfirmOutcome, Error> {
        let mut confirmation = self.confirmation(args)?;
        loop {
            let aborted = crate::transport::is_aborted(confirmation.signal());
            match confirmation.step(aborted)? {
                // Sent once (a mutation): the confirmation's core takes the attempt in, and
                // backs off after a transient failure.
                ConfirmStep::Send(call) => {
                    let config = self.config();
                    crate::call::send_once(
                        self.transport(),
                        config,
                        &call,
                        self.listeners(),
                        Source::ConfirmUntilSettled,
                        |attempt| confirmation.settle(config, attempt),
                    )
                    .await?;
                }
                ConfirmStep::Wait(ms) => {
                    let _ = self.transport().sleep(ms, confirmation.signal()).await;
                }
                ConfirmStep::Done(outcome) => return Ok(outcome),
            }
        }
    }
}

#[cfg(any(feature = "server", not(feature = "npm-base")))]
mod customers;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub use customers::Customers;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
mod events;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
mod ramp;
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub use events::EventState;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
