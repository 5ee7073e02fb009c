//! `MerchantClient`: the merchant endpoint's read-only queries.
//!
//! Front-end apps hold the merchant **public** key; servers hold the **secret** key. The
//! constructor refuses a secret key where page visitors can read it (a browser or worker,
//! as the transport reports it) unless `dangerously_allow_browser` is set: see
//! [`crate::keys::browser_guard`]. Everything else — transport, errors, retries, timeouts,
//! redaction — is the shared [`Client`] the bot client uses too. Every query here is
//! read-only, so it is retried like the bot queries. (Argument refusals carry fixed
//! messages, so they need no redaction.)

use crate::call::{Client, PreparedCall};
use crate::config::{MerchantOptions, MERCHANT_PATH};
use crate::error::Error;
use crate::graphql::{self, RootQuery};
use crate::inputs;
use crate::keys;
use crate::transport::Transport;
use crate::types::{
    Account, Country, FieldOptions, MarketRate, PaymentMethodType, PaymentRequest, RampLimits,
    RampableAsset,
};

/// The merchant endpoint's read-only queries (one table, so every call shares one path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MerchantQuery {
    /// `account` (secret key only).
    Account,
    /// `availableCountries`.
    AvailableCountries,
    /// `p2pPaymentMethodTypes(country)`; argument `countryId`.
    PaymentMethodTypes,
    /// `marketRate(countryCode)`; argument `countryCode`.
    MarketRate,
    /// `rampLimits`.
    RampLimits,
    /// `rampableAssets`.
    RampableAssets,
    /// `merchantPaymentRequest(reference)`; argument `reference`.
    PaymentRequest,
}

impl MerchantQuery {
    /// The query's document parts, default selection and expected shape.
    pub fn root(self) -> &'static RootQuery {
        match self {
            MerchantQuery::Account => &graphql::ACCOUNT,
            MerchantQuery::AvailableCountries => &graphql::AVAILABLE_COUNTRIES,
            MerchantQuery::PaymentMethodTypes => &graphql::PAYMENT_METHOD_TYPES,
            MerchantQuery::MarketRate => &graphql::MARKET_RATE,
            MerchantQuery::RampLimits => &graphql::RAMP_LIMITS,
            MerchantQuery::RampableAssets => &graphql::RAMPABLE_ASSETS,
            MerchantQuery::PaymentRequest => &graphql::MERCHANT_PAYMENT_REQUEST,
        }
    }

    /// The argument's name as callers see it (`countryId`, `countryCode`, `reference`), for
    /// the queries that take one.
    pub fn argument(self) -> Option<&'static str> {
        match self {
            MerchantQuery::PaymentMethodTypes => Some("countryId"),
            MerchantQuery::MarketRate => Some("countryCode"),
            MerchantQuery::PaymentRequest => Some("reference"),
            _ => None,
        }
    }
}

/// A client of the merchant endpoint, `{baseUrl}/service/api/graphql`. Dereferences to the
/// shared [`Client`] (`execute`, `config`, `transport`).
pub struct MerchantClient<T: Transport> {
    client: Client<T>,
}

impl<T: Transport> std::ops::Deref for MerchantClient<T> {
    type Target = Client<T>;
    fn deref(&self) -> &Client<T> {
        &self.client
    }
}

#[cfg(target_arch = "wasm32")]
impl MerchantClient<crate::transport::FetchTransport> {
    /// A client over the global `fetch`. In a browser or worker a secret key is refused
    /// (`secret_key_in_browser`) unless `dangerously_allow_browser`.
    pub fn new(options: MerchantOptions) -> Result<Self, Error> {
        Self::with_transport(options, crate::transport::FetchTransport::new(None))
    }
}

impl<T: Transport> MerchantClient<T> {
    /// Wraps a validated core whose options passed the browser guard (the JS binding builds
    /// it with the other client).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn from_client(client: Client<T>) -> Self {
        MerchantClient { client }
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
            client: Client::new(&options.client, MERCHANT_PATH, transport)?,
        })
    }

    /// Validates the argument of `query` (ignored by queries without one) and builds the
    /// call: `countryId` trimmed and not empty; `countryCode` ISO 3166-1 alpha-2 (two
    /// letters, sent upper-case); `reference` not blank, sent exactly as given.
    pub fn prepare_query(
        &self,
        query: MerchantQuery,
        argument: &str,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        let code;
        let value = match query {
            MerchantQuery::PaymentMethodTypes => Some(inputs::country_id(argument)?),
            MerchantQuery::MarketRate => {
                code = inputs::country_code(argument)?;
                Some(code.as_str())
            }
            MerchantQuery::PaymentRequest => Some(inputs::reference(argument)?),
            _ => None,
        };
        self.prepare(query.root(), value, options)
    }

    /// `account { id accountBalance depositAddress }`. Needs the secret key: the service
    /// answers a public key with `forbidden`.
    pub fn prepare_account(&self, options: FieldOptions) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::Account, "", options)
    }

    /// `availableCountries { id name code currency { isoCode name } }`.
    pub fn prepare_available_countries(
        &self,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::AvailableCountries, "", options)
    }

    /// `p2pPaymentMethodTypes(country: $country) { id identifier label fields { … } }`.
    pub fn prepare_payment_method_types(
        &self,
        country_id: &str,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::PaymentMethodTypes, country_id, options)
    }

    /// `marketRate(countryCode: $countryCode) { depositRate withdrawalRate }`.
    pub fn prepare_market_rate(
        &self,
        country_code: &str,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::MarketRate, country_code, options)
    }

    /// `rampLimits { minimumDepositUsd … dailyLimitUsd }`.
    pub fn prepare_ramp_limits(&self, options: FieldOptions) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::RampLimits, "", options)
    }

    /// `rampableAssets { name symbol networks contractAddress }`.
    pub fn prepare_rampable_assets(&self, options: FieldOptions) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::RampableAssets, "", options)
    }

    /// `merchantPaymentRequest(reference: $reference) { id paymentType hostedLink … }`.
    pub fn prepare_payment_request(
        &self,
        reference: &str,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.prepare_query(MerchantQuery::PaymentRequest, reference, options)
    }

    /// The merchant account (secret key only).
    pub async fn account(&self, options: FieldOptions) -> Result<Account, Error> {
        self.execute_typed(self.prepare_account(options)).await
    }

    /// The countries the service operates in.
    pub async fn available_countries(&self, options: FieldOptions) -> Result<Vec<Country>, Error> {
        self.execute_typed(self.prepare_available_countries(options))
            .await
    }

    /// The P2P payment methods of a country.
    pub async fn payment_method_types(
        &self,
        country_id: &str,
        options: FieldOptions,
    ) -> Result<Vec<PaymentMethodType>, Error> {
        self.execute_typed(self.prepare_payment_method_types(country_id, options))
            .await
    }

    /// Indicative rates of a country; `None` when the service does not know it.
    pub async fn market_rate(
        &self,
        country_code: &str,
        options: FieldOptions,
    ) -> Result<Option<MarketRate>, Error> {
        self.execute_typed(self.prepare_market_rate(country_code, options))
            .await
    }

    /// The ramp limits.
    pub async fn ramp_limits(&self, options: FieldOptions) -> Result<RampLimits, Error> {
        self.execute_typed(self.prepare_ramp_limits(options)).await
    }

    /// The assets the onchain ramp handles.
    pub async fn rampable_assets(
        &self,
        options: FieldOptions,
    ) -> Result<Vec<RampableAsset>, Error> {
        self.execute_typed(self.prepare_rampable_assets(options))
            .await
    }

    /// A payment request by its reference; `None` when the service does not know it.
    pub async fn payment_request(
        &self,
        reference: &str,
        options: FieldOptions,
    ) -> Result<Option<PaymentRequest>, Error> {
        self.execute_typed(self.prepare_payment_request(reference, options))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ClientOptions;
    use crate::error::Code;
    use crate::testing::FakeTransport;
    use futures::executor::block_on;
    use serde_json::{json, Value};

    const SECRET: &str = "XYZ-SECK_merchant5ecret";
    const PUBLIC: &str = "XYZ-PUBK_merchantpub";

    fn options(key: Option<&str>, allow: bool) -> MerchantOptions {
        MerchantOptions {
            client: ClientOptions {
                base_url: Some("https://api.example.com".into()),
                api_key: key.map(Into::into),
                ..Default::default()
            },
            dangerously_allow_browser: allow,
        }
    }

    fn transport(browser: bool) -> FakeTransport {
        let t = FakeTransport::new(5);
        t.browser.set(browser);
        t
    }

    fn client(key: &str) -> MerchantClient<FakeTransport> {
        MerchantClient::with_transport(options(Some(key), false), transport(false)).unwrap()
    }

    #[test]
    fn guard_in_the_constructor() {
        // Browser + secret key: refused before anything else, the key nowhere in the error.
        let e = MerchantClient::with_transport(options(Some(SECRET), false), transport(true))
            .err()
            .expect("refused in a browser");
        assert_eq!(e.code, Code::SecretKeyInBrowser);
        assert!(!format!("{e:?}").contains("5ecret"));
        // Even with other invalid options, the guard speaks first.
        let mut bad = options(Some(SECRET), false);
        bad.client.base_url = None;
        let e = MerchantClient::with_transport(bad, transport(true))
            .err()
            .unwrap();
        assert_eq!(e.code, Code::SecretKeyInBrowser);
        // Opt-out, public key, proxy mode (no key), Node: all allowed.
        assert!(
            MerchantClient::with_transport(options(Some(SECRET), true), transport(true)).is_ok()
        );
        assert!(
            MerchantClient::with_transport(options(Some(PUBLIC), false), transport(true)).is_ok()
        );
        assert!(MerchantClient::with_transport(options(None, false), transport(true)).is_ok());
        assert!(
            MerchantClient::with_transport(options(Some(SECRET), false), transport(false)).is_ok()
        );
        // Other option errors are the usual invalid_input.
        let mut bad = options(Some(PUBLIC), false);
        bad.client.timeout_ms = Some(0);
        let e = MerchantClient::with_transport(bad, transport(true))
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("timeoutMs"));
    }

    #[test]
    fn account_request_and_typed_result() {
        let c = client(SECRET);
        c.transport().http(
            200,
            r#"{"data":{"account":{"id":"merchant-1","accountBalance":"1520.00","depositAddress":"0x9F"}}}"#,
        );
        let a = block_on(c.account(FieldOptions::default())).unwrap();
        assert_eq!(a.account_balance.as_deref(), Some("1520.00"));
        let r = c.transport().request(0);
        assert_eq!(r.url, "https://api.example.com/service/api/graphql");
        assert_eq!(
            r.header("authorization"),
            Some("Bearer XYZ-SECK_merchant5ecret")
        );
        assert_eq!(
            r.json(),
            json!({"query": "query Account { account { id accountBalance depositAddress } }", "operationName": "Account"})
        );
    }

    #[test]
    fn public_key_on_account_is_forbidden() {
        let c = client(PUBLIC);
        c.transport().http(
            200,
            r#"{"data":null,"errors":[{"message":"account needs the secret key","path":["account"],"extensions":{"code":"FORBIDDEN"}}]}"#,
        );
        let e = block_on(c.account(FieldOptions::default())).unwrap_err();
        assert_eq!((e.code, e.status), (Code::Forbidden, Some(200)));
        assert_eq!(e.graphql_errors[0].path, Some(json!(["account"])));
        assert_eq!(c.transport().sent(), 1, "forbidden is final, not retried");
    }

    #[test]
    fn reads_send_variables_and_decode() {
        let c = client(PUBLIC);
        let t = c.transport();
        t.http(200, r#"{"data":{"availableCountries":[{"id":"1","name":"Nigeria","code":"NG","currency":{"isoCode":"NGN","name":"Nigerian Naira"}}]}}"#)
            .http(200, r#"{"data":{"p2pPaymentMethodTypes":[{"id":"9","identifier":"mpesa","label":"M-Pesa","fields":[]}]}}"#)
            .http(200, r#"{"data":{"marketRate":{"depositRate":"1545.50","withdrawalRate":"1512.25"}}}"#)
            .http(200, r#"{"data":{"marketRate":null}}"#)
            .http(200, r#"{"data":{"rampLimits":{"dailyLimitUsd":"10000.00"}}}"#)
            .http(200, r#"{"data":{"rampableAssets":[{"symbol":"USDC","networks":["CELO"]}]}}"#)
            .http(200, r#"{"data":{"merchantPaymentRequest":{"id":"mpr_1","status":"created","amount":"25000.00"}}}"#)
            .http(200, r#"{"data":{"merchantPaymentRequest":null}}"#);
        let d = FieldOptions::default;
        let countries = block_on(c.available_countries(d())).unwrap();
        assert_eq!(countries[0].code.as_deref(), Some("NG"));
        let methods = block_on(c.payment_method_types(" 2 ", d())).unwrap();
        assert_eq!(methods[0].identifier.as_deref(), Some("mpesa"));
        let rate = block_on(c.market_rate("ng", d())).unwrap().unwrap();
        assert_eq!(rate.deposit_rate.as_deref(), Some("1545.50"));
        assert_eq!(block_on(c.market_rate("ZZ", d())).unwrap(), None);
        let limits = block_on(c.ramp_limits(d())).unwrap();
        assert_eq!(limits.daily_limit_usd.as_deref(), Some("10000.00"));
        let assets = block_on(c.rampable_assets(d())).unwrap();
        assert_eq!(assets[0].networks, Some(vec!["CELO".to_owned()]));
        let pr = block_on(c.payment_request("REF-1001", d()))
            .unwrap()
            .unwrap();
        assert_eq!(pr.amount.as_deref(), Some("25000.00"));
        assert_eq!(block_on(c.payment_request("nope", d())).unwrap(), None);

        let sent: Vec<Value> = (0..t.sent()).map(|i| t.request(i).json()).collect();
        let ops: Vec<&str> = sent
            .iter()
            .map(|b| b["operationName"].as_str().unwrap())
            .collect();
        assert_eq!(
            ops,
            [
                "AvailableCountries",
                "PaymentMethodTypes",
                "MarketRate",
                "MarketRate",
                "RampLimits",
                "RampableAssets",
                "MerchantPaymentRequest",
                "MerchantPaymentRequest"
            ]
        );
        assert_eq!(sent[0].get("variables"), None);
        assert_eq!(sent[1]["variables"], json!({"country": "2"}));
        assert_eq!(sent[2]["variables"], json!({"countryCode": "NG"}));
        assert_eq!(sent[6]["variables"], json!({"reference": "REF-1001"}));
        for body in &sent {
            assert!(graphql::is_read_only(body["query"].as_str().unwrap()));
        }
    }

    #[test]
    fn fields_and_hostile_arguments_travel_as_variables() {
        let c = client(PUBLIC);
        c.transport()
            .http(200, r#"{"data":{"merchantPaymentRequest":null}}"#);
        let hostile = "REF\") { id } mutation { x(\"";
        let opts = FieldOptions {
            fields: Some(vec!["id".into(), "status".into()]),
            signal: None,
        };
        block_on(c.payment_request(hostile, opts)).unwrap();
        let body = c.transport().request(0).json();
        assert_eq!(body["variables"]["reference"], hostile);
        assert_eq!(
            body["query"],
            "query MerchantPaymentRequest($reference: String!) { merchantPaymentRequest(reference: $reference) { id status } }"
        );
    }

    #[test]
    fn arguments_refused_before_any_request() {
        let c = client(PUBLIC);
        let d = FieldOptions::default;
        for (r, field) in [
            (block_on(c.market_rate("NGA", d())).map(drop), "countryCode"),
            (block_on(c.market_rate("", d())).map(drop), "countryCode"),
            (
                block_on(c.payment_method_types("  ", d())).map(drop),
                "countryId",
            ),
            (block_on(c.payment_request("", d())).map(drop), "reference"),
            (
                block_on(c.rampable_assets(FieldOptions {
                    fields: Some(vec!["a b".into()]),
                    signal: None,
                }))
                .map(drop),
                "fields",
            ),
        ] {
            let e = r.unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (Code::InvalidInput, Some(field))
            );
        }
        assert_eq!(c.transport().sent(), 0);
    }

    #[test]
    fn reads_are_retried_and_shapes_checked() {
        let c = client(PUBLIC);
        c.transport()
            .http(503, "")
            .http(200, r#"{"data":{"rampLimits":{"dailyLimitUsd":"1.00"}}}"#);
        assert!(block_on(c.ramp_limits(FieldOptions::default())).is_ok());
        assert_eq!(c.transport().sent(), 2);
        assert_eq!(c.transport().sleeps.borrow().len(), 1);

        c.transport()
            .http(200, r#"{"data":{"availableCountries":{"id":"1"}}}"#);
        let e = block_on(c.available_countries(FieldOptions::default())).unwrap_err();
        assert_eq!(e.code, Code::Decode);
        c.transport()
            .http(200, r#"{"data":{"account":{"accountBalance":1520.5}}}"#);
        let e = block_on(c.account(FieldOptions::default())).unwrap_err();
        assert_eq!(e.code, Code::Decode, "money must be text, never a float");
    }

    #[test]
    fn key_never_reaches_an_error() {
        let c = client(SECRET);
        c.transport().http(
            401,
            &format!(r#"{{"errors":[{{"message":"bad key {SECRET}"}}]}}"#),
        );
        let e = block_on(c.account(FieldOptions::default())).unwrap_err();
        assert_eq!(e.code, Code::Unauthorized);
        assert!(!format!("{e:?} {e}").contains(SECRET));
    }
}
