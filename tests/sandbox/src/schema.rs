//! The two GraphQL schemas (bot and merchant), built with async-graphql.

use std::sync::Arc;

use async_graphql::{
    Context, EmptySubscription, ErrorExtensions, InputObject, Object, Result, Schema, SimpleObject,
    ID,
};

use crate::data::{
    Account, Country, MarketRate, MerchantPaymentRequest, P2PPayment, P2PPaymentMethod,
    P2PPaymentStatus, PaymentMethodType, RampLimits, RampableAsset, Store, WithdrawalInfo,
};
use crate::mutations::{self, MutationError, OrderAction};
use crate::scalars::{Decimal, Iso8601Date};

pub type BotSchema = Schema<BotQuery, BotMutation, EmptySubscription>;
pub type MerchantSchema = Schema<MerchantQuery, MerchantMutations, EmptySubscription>;

/// The merchant endpoint's mutations: the hosted and onchain ones, then the direct ramp's.
#[derive(async_graphql::MergedObject, Default)]
#[graphql(name = "Mutation")]
pub struct MerchantMutations(MerchantMutation, DirectRampMutation);

/// Settings every resolver can read.
#[derive(Clone, Debug)]
pub struct SchemaConfig {
    pub max_per_page: i32,
    /// Origin of the sandbox (e.g. `http://127.0.0.1:8787`), used in icon and hosted links.
    pub base_url: String,
}

/// Per-request: which agent the bot key belongs to.
#[derive(Clone, Copy, Debug)]
pub struct AgentIdentity(pub usize);

/// Per-request: which merchant key was used.
#[derive(Clone, Copy, Debug)]
pub struct MerchantIdentity {
    pub secret: bool,
}

/// A GraphQL error with `extensions.code`.
pub fn coded_error(message: impl Into<String>, code: &'static str) -> async_graphql::Error {
    async_graphql::Error::new(message).extend_with(|_, e| e.set("code", code))
}

pub fn build_bot_schema(store: Arc<Store>, config: SchemaConfig) -> BotSchema {
    Schema::build(BotQuery, BotMutation, EmptySubscription)
        .data(store)
        .data(config)
        .finish()
}

pub fn build_merchant_schema(store: Arc<Store>, config: SchemaConfig) -> MerchantSchema {
    Schema::build(
        MerchantQuery,
        MerchantMutations::default(),
        EmptySubscription,
    )
    .data(store)
    .data(config)
    .finish()
}

/// Narrowing filters for `orderHistory`; all given filters apply together (AND).
#[derive(InputObject, Clone, Debug, Default)]
pub struct OrderHistoryFilter {
    /// Exact match on `orderId`.
    pub order_id: Option<String>,
    pub status: Option<P2PPaymentStatus>,
    /// Inclusive, compared with the UTC calendar date of `createdAt`.
    pub date_from: Option<Iso8601Date>,
    /// Inclusive, compared with the UTC calendar date of `createdAt`.
    pub date_to: Option<Iso8601Date>,
    /// Exact match on `paymentMethod`.
    pub payment_method: Option<String>,
}

impl OrderHistoryFilter {
    pub fn matches(&self, o: &P2PPayment) -> bool {
        let day = o.created_secs.div_euclid(86_400);
        self.order_id
            .as_ref()
            .is_none_or(|id| o.order_id.as_deref() == Some(id.as_str()))
            && self.status.is_none_or(|s| o.status == s)
            && self.date_from.is_none_or(|d| day >= d.0)
            && self.date_to.is_none_or(|d| day <= d.0)
            && self
                .payment_method
                .as_ref()
                .is_none_or(|m| o.payment_method.as_deref() == Some(m.as_str()))
    }
}

#[derive(SimpleObject, Clone, Debug)]
pub struct Pagination {
    pub page: i32,
    pub per_page: i32,
    /// Number of records matching the filter (all pages).
    pub total: i32,
}

#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "PaginatedP2PPayments")]
pub struct PaginatedP2PPayments {
    pub data: Vec<P2PPayment>,
    pub pagination: Pagination,
}

fn icon_url(base: &str, symbol: &str) -> String {
    format!("{base}/__sandbox/icons/{}.svg", symbol.to_ascii_lowercase())
}

pub struct BotQuery;

#[Object(name = "Query")]
impl BotQuery {
    /// The authenticated agent's profile.
    async fn profile(&self, ctx: &Context<'_>) -> Result<crate::data::AgentProfile> {
        let store = ctx.data::<Arc<Store>>()?;
        let who = ctx.data::<AgentIdentity>()?;
        Ok(store.agents[who.0].state().profile())
    }

    /// The agent's P2P orders, newest first (createdAt descending, ties by id descending).
    async fn order_history(
        &self,
        ctx: &Context<'_>,
        page: i32,
        #[graphql(default = 10)] per_page: Option<i32>,
        filter: Option<OrderHistoryFilter>,
    ) -> Result<PaginatedP2PPayments> {
        let store = ctx.data::<Arc<Store>>()?;
        let config = ctx.data::<SchemaConfig>()?;
        let who = ctx.data::<AgentIdentity>()?;
        let per_page = per_page.unwrap_or(10);
        if page < 1 {
            return Err(coded_error(
                format!("Argument 'page' must be >= 1 (got {page})"),
                "BAD_USER_INPUT",
            ));
        }
        if per_page < 1 || per_page > config.max_per_page {
            return Err(coded_error(
                format!(
                    "Argument 'perPage' must be between 1 and {} (got {per_page})",
                    config.max_per_page
                ),
                "BAD_USER_INPUT",
            ));
        }
        let filter = filter.unwrap_or_default();
        let state = store.agents[who.0].state();
        let matching: Vec<&P2PPayment> =
            state.orders.iter().filter(|o| filter.matches(o)).collect();
        let offset = (page as usize - 1).saturating_mul(per_page as usize);
        let data = matching
            .iter()
            .skip(offset)
            .take(per_page as usize)
            .map(|o| (*o).clone())
            .collect();
        Ok(PaginatedP2PPayments {
            data,
            pagination: Pagination {
                page,
                per_page,
                total: matching.len() as i32,
            },
        })
    }

    /// Withdrawal details for a coin; `null` for an unknown symbol (matched case-insensitively).
    async fn withdrawal_info(
        &self,
        ctx: &Context<'_>,
        symbol: String,
    ) -> Result<Option<WithdrawalInfo>> {
        let store = ctx.data::<Arc<Store>>()?;
        let config = ctx.data::<SchemaConfig>()?;
        Ok(store
            .withdrawal_infos
            .iter()
            .find(|w| w.symbol.eq_ignore_ascii_case(symbol.trim()))
            .map(|w| WithdrawalInfo {
                icon: Some(icon_url(&config.base_url, &w.symbol)),
                ..w.clone()
            }))
    }
}

/// A refused mutation as a GraphQL error: `extensions.code`, plus `status` and
/// `paymentType` of the order for INVALID_TRANSITION.
fn mutation_error(e: MutationError) -> async_graphql::Error {
    let order = e.order;
    async_graphql::Error::new(e.message).extend_with(move |_, ext| {
        ext.set("code", e.code);
        if let Some((status, ty)) = order {
            ext.set("status", status.as_str());
            ext.set(
                "paymentType",
                match ty {
                    crate::data::PaymentType::Deposit => "deposit",
                    crate::data::PaymentType::Withdrawal => "withdrawal",
                },
            );
        }
    })
}

fn order_action(
    ctx: &Context<'_>,
    action: OrderAction,
    id: &ID,
    paid_with: Option<(&str, Option<&str>)>,
) -> Result<Option<bool>> {
    let store = ctx.data::<Arc<Store>>()?;
    let who = ctx.data::<AgentIdentity>()?;
    let changed = {
        let mut state = store.agents[who.0].state();
        mutations::order_action(&mut state, action, id.as_str(), paid_with)
            .map_err(mutation_error)?;
        state
            .orders
            .iter()
            .find(|o| o.id == *id)
            .map(|o| (o.status, o.payment_type))
    };
    // A hosted payment carried by this order follows it (the agent's lock is released first:
    // the merchant's is never taken inside it).
    if let Some((status, payment_type)) = changed {
        store
            .merchant()
            .follow_order(who.0, id.as_str(), status, payment_type);
    }
    Ok(Some(true))
}

/// The bot mutations the official SDKs send (sandbox rules: README, "Bot mutations").
pub struct BotMutation;

#[Object(name = "Mutation")]
impl BotMutation {
    /// Takes a pending withdrawal: pending → picked_up.
    async fn accept_withdrawal(
        &self,
        ctx: &Context<'_>,
        #[graphql(name = "p2pPayment")] p2p_payment: ID,
    ) -> Result<Option<bool>> {
        order_action(ctx, OrderAction::AcceptWithdrawal, &p2p_payment, None)
    }

    /// Cancels a withdrawal: pending or picked_up → canceled.
    async fn cancel_withdrawal(
        &self,
        ctx: &Context<'_>,
        #[graphql(name = "p2pPayment")] p2p_payment: ID,
    ) -> Result<Option<bool>> {
        order_action(ctx, OrderAction::CancelWithdrawal, &p2p_payment, None)
    }

    /// Confirms a deposit's fiat arrived: pending, picked_up or paid → completed.
    async fn mark_deposit_as_received(
        &self,
        ctx: &Context<'_>,
        #[graphql(name = "p2pPayment")] p2p_payment: ID,
    ) -> Result<Option<bool>> {
        order_action(ctx, OrderAction::MarkDepositAsReceived, &p2p_payment, None)
    }

    /// Records that the agent paid a withdrawal from one of its payment methods:
    /// picked_up → paid. `receipt`, when given, is a receipt URL or reference (any text, not
    /// blank).
    async fn mark_withdrawal_as_paid(
        &self,
        ctx: &Context<'_>,
        #[graphql(name = "p2pPayment")] p2p_payment: ID,
        payment_method: ID,
        receipt: Option<String>,
    ) -> Result<Option<bool>> {
        order_action(
            ctx,
            OrderAction::MarkWithdrawalAsPaid,
            &p2p_payment,
            Some((payment_method.as_str(), receipt.as_deref())),
        )
    }

    /// Sets the agent's rates and margins (at least one; non-negative decimal strings).
    async fn update_rates(
        &self,
        ctx: &Context<'_>,
        deposit_rate: Option<Decimal>,
        deposit_margin: Option<Decimal>,
        withdrawal_rate: Option<Decimal>,
        withdrawal_margin: Option<Decimal>,
    ) -> Result<Option<bool>> {
        let store = ctx.data::<Arc<Store>>()?;
        let who = ctx.data::<AgentIdentity>()?;
        let mut state = store.agents[who.0].state();
        mutations::update_rates(
            &mut state,
            deposit_rate,
            deposit_margin,
            withdrawal_rate,
            withdrawal_margin,
        )
        .map(|()| Some(true))
        .map_err(mutation_error)
    }

    /// Sets the local currency available on one payment method, named by exactly one of
    /// `paymentMethod` (its id) and `paymentMethodType` (e.g. `mpesa`).
    async fn update_payment_method_liquidity(
        &self,
        ctx: &Context<'_>,
        payment_method: Option<ID>,
        payment_method_type: Option<String>,
        amount_local: Decimal,
    ) -> Result<Option<P2PPaymentMethod>> {
        let store = ctx.data::<Arc<Store>>()?;
        let who = ctx.data::<AgentIdentity>()?;
        let mut state = store.agents[who.0].state();
        mutations::update_liquidity(
            &mut state,
            payment_method.as_ref().map(|id| id.as_str()),
            payment_method_type.as_deref(),
            &amount_local,
        )
        .map(Some)
        .map_err(mutation_error)
    }
}

pub struct MerchantQuery;

#[Object(name = "Query")]
impl MerchantQuery {
    /// The merchant account. Needs the SECRET key; the public key gets a FORBIDDEN error.
    async fn account(&self, ctx: &Context<'_>) -> Result<Account> {
        let store = ctx.data::<Arc<Store>>()?;
        let who = ctx.data::<MerchantIdentity>()?;
        if !who.secret {
            return Err(coded_error(
                "Forbidden: account data needs the secret key; a public key cannot read it",
                "FORBIDDEN",
            ));
        }
        Ok(store.account.clone())
    }

    async fn available_countries(&self, ctx: &Context<'_>) -> Result<Vec<Country>> {
        let store = ctx.data::<Arc<Store>>()?;
        Ok(store.countries.iter().map(|c| c.country.clone()).collect())
    }

    /// Payment method types of a country. `country` is the country's `id` or its ISO code
    /// (case-insensitive). Unknown country: a NOT_FOUND error.
    #[graphql(name = "p2pPaymentMethodTypes")]
    async fn p2p_payment_method_types(
        &self,
        ctx: &Context<'_>,
        country: ID,
    ) -> Result<Vec<PaymentMethodType>> {
        let store = ctx.data::<Arc<Store>>()?;
        store
            .countries
            .iter()
            .find(|c| {
                c.country.id == country || c.country.code.eq_ignore_ascii_case(country.trim())
            })
            .map(|c| c.methods.clone())
            .ok_or_else(|| coded_error("Country not found", "NOT_FOUND"))
    }

    /// Indicative rates; `null` for an unknown country code (case-insensitive).
    async fn market_rate(
        &self,
        ctx: &Context<'_>,
        country_code: String,
    ) -> Result<Option<MarketRate>> {
        let store = ctx.data::<Arc<Store>>()?;
        Ok(store
            .countries
            .iter()
            .find(|c| c.country.code.eq_ignore_ascii_case(country_code.trim()))
            .map(|c| c.rate.clone()))
    }

    async fn ramp_limits(&self, ctx: &Context<'_>) -> Result<RampLimits> {
        Ok(ctx.data::<Arc<Store>>()?.ramp_limits.clone())
    }

    async fn rampable_assets(&self, ctx: &Context<'_>) -> Result<Vec<RampableAsset>> {
        Ok(ctx.data::<Arc<Store>>()?.rampable_assets.clone())
    }

    /// A direct-ramp quote (SECRET key): `amount` of `currency` (`usd` or `local_currency`,
    /// the customer's) at the country's market rate for `paymentType` (default `deposit`),
    /// usable for 180 s by one deposit or withdrawal. `country`, when given, must be the
    /// customer's ISO code.
    #[allow(clippy::too_many_arguments)]
    async fn ramp_quote(
        &self,
        ctx: &Context<'_>,
        customer: ID,
        amount: Decimal,
        currency: P2PPaymentCurrency,
        payment_type: Option<crate::direct_ramp::PaymentTypeType>,
        payment_method_type: String,
        country: Option<String>,
    ) -> Result<crate::direct_ramp::RampQuote> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let q = crate::direct_ramp::QuoteRequest {
            customer: customer.to_string(),
            amount,
            currency: currency.as_str().into(),
            payment_type: payment_type.unwrap_or(crate::direct_ramp::PaymentTypeType::Deposit),
            payment_method_type,
            country,
        };
        let now = store.clock.now_secs();
        store
            .merchant()
            .ramp
            .ramp_quote(&q, &store.countries, now)
            .map_err(mutation_error)
    }

    /// The same quote usable for another 180 s at the current rate (SECRET key), with
    /// `amount` when given. A used quote is INVALID_TRANSITION.
    async fn refresh_ramp_quote(
        &self,
        ctx: &Context<'_>,
        ramp_quote: ID,
        amount: Option<Decimal>,
    ) -> Result<crate::direct_ramp::RampQuote> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let now = store.clock.now_secs();
        store
            .merchant()
            .ramp
            .refresh_ramp_quote(ramp_quote.as_str(), amount.as_ref(), now)
            .map_err(mutation_error)
    }

    /// An onchain withdrawal by its id (SECRET key); `null` when unknown.
    async fn onchain_withdrawal(
        &self,
        ctx: &Context<'_>,
        id: ID,
    ) -> Result<Option<crate::payments::OnchainWithdrawal>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let found = store
            .merchant()
            .withdrawals
            .iter()
            .find(|w| w.id == id)
            .cloned();
        Ok(found)
    }

    /// The merchant's customer with this email address (SECRET key; compared ignoring
    /// case); `null` when there is none.
    async fn merchant_customer(
        &self,
        ctx: &Context<'_>,
        email: String,
    ) -> Result<Option<crate::direct_ramp::Customer>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let found = store.merchant().ramp.customer_by_email(&email);
        Ok(found)
    }

    /// A customer's USD virtual bank account by its id (SECRET key); `null` when unknown.
    async fn virtual_bank_account(
        &self,
        ctx: &Context<'_>,
        id: ID,
    ) -> Result<Option<crate::direct_ramp::accounts::VirtualBankAccount>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let found = store.merchant().ramp.virtual_bank_account(id.as_str());
        found.map_err(mutation_error)
    }

    /// A payment request by its reference (exact, case-sensitive); `null` when unknown.
    async fn merchant_payment_request(
        &self,
        ctx: &Context<'_>,
        reference: String,
    ) -> Result<Option<MerchantPaymentRequest>> {
        let store = ctx.data::<Arc<Store>>()?;
        let config = ctx.data::<SchemaConfig>()?;
        Ok(store
            .merchant()
            .payment_requests
            .iter()
            .find(|p| p.reference == reference)
            .map(|p| with_hosted_link(p, &config.base_url)))
    }
}

#[async_graphql::ComplexObject]
impl Account {
    /// The merchant's customers, oldest first, a page at a time
    /// (`direct_ramp::accounts::CUSTOMERS_PER_PAGE`): `after` is the previous page's
    /// `pageInfo.endCursor`. An unknown cursor is BAD_USER_INPUT.
    async fn merchant_customers(
        &self,
        ctx: &Context<'_>,
        after: Option<String>,
    ) -> Result<Option<crate::direct_ramp::accounts::CustomerConnection>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let page = store.merchant().ramp.customer_page(after.as_deref());
        page.map(Some).map_err(mutation_error)
    }
}

/// A payment request as the merchant endpoint answers it: with its link to the sandbox's
/// hosted ramp page (never a key in it).
fn with_hosted_link(p: &MerchantPaymentRequest, base_url: &str) -> MerchantPaymentRequest {
    let ty = match p.payment_type {
        crate::data::PaymentType::Deposit => "deposit",
        crate::data::PaymentType::Withdrawal => "withdrawal",
    };
    let query = [
        ("paymentType", ty),
        ("coin", p.coin.as_str()),
        ("network", p.network.as_str()),
        ("amount", p.amount.0.as_str()),
        ("currency", p.currency.as_str()),
        ("reference", p.reference.as_str()),
    ]
    .iter()
    .map(|(k, v)| format!("{k}={}", crate::payments::query_escape(v)))
    .collect::<Vec<_>>()
    .join("&");
    MerchantPaymentRequest {
        hosted_link: format!("{base_url}/hosted/ramp?{query}"),
        ..p.clone()
    }
}

/// The merchant mutations (sandbox rules: README, "Merchant mutations").
#[derive(Default)]
pub struct MerchantMutation;

#[Object(name = "HostedMutation")]
impl MerchantMutation {
    /// Confirms the onchain transfer paying a payment request (public or secret key):
    /// `true` once the request is settled (completed), `false` while the transfer is not
    /// seen or not confirmed yet. created → picked_up → completed.
    async fn confirm_transaction(
        &self,
        ctx: &Context<'_>,
        payment_request: ID,
        transaction_hash: String,
    ) -> Result<Option<bool>> {
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .confirm_transaction(payment_request.as_str(), &transaction_hash)
            .map(Some)
            .map_err(mutation_error)
    }

    /// Creates a hosted payment page (SECRET key; the public key gets FORBIDDEN).
    /// `reference` is the merchant's idempotency key: a reference already used is
    /// DUPLICATE_REFERENCE. The request starts `created`.
    #[allow(clippy::too_many_arguments)]
    async fn initiate_hosted_payment(
        &self,
        ctx: &Context<'_>,
        amount: Decimal,
        currency: Option<P2PPaymentCurrency>,
        country_code: String,
        email: String,
        payment_type: P2PPaymentTypeType,
        reference: String,
        first_name: String,
        last_name: String,
        redirect_url: Option<String>,
        metadata: Option<async_graphql::Json<serde_json::Map<String, serde_json::Value>>>,
    ) -> Result<Option<MerchantPaymentRequest>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let config = ctx.data::<SchemaConfig>()?;
        // `usd` (the default) or the country's own currency; the request keeps its ISO code.
        let currency = match currency.unwrap_or(P2PPaymentCurrency::Usd) {
            P2PPaymentCurrency::Usd => "USD".to_owned(),
            P2PPaymentCurrency::LocalCurrency => store
                .countries
                .iter()
                .find(|c| c.country.code.eq_ignore_ascii_case(country_code.trim()))
                .map(|c| c.country.currency.iso_code.clone())
                .ok_or_else(|| {
                    coded_error(
                        "Argument 'countryCode' is not a country the ramp serves, so                          local_currency has no meaning",
                        "BAD_USER_INPUT",
                    )
                })?,
        };
        let h = crate::payments::HostedPayment {
            amount,
            currency: Some(currency),
            country_code,
            email,
            payment_type: match payment_type {
                P2PPaymentTypeType::Deposit => crate::data::PaymentType::Deposit,
                P2PPaymentTypeType::Withdrawal => crate::data::PaymentType::Withdrawal,
            },
            reference,
            first_name,
            last_name,
            redirect_url,
            metadata: metadata.map(|m| serde_json::Value::Object(m.0)),
        };
        let p = store
            .merchant()
            .initiate_hosted_payment(&h)
            .map_err(mutation_error)?;
        // The agent order that carries it (agent 1's queue); the request follows its status.
        let now = store.clock.now_secs();
        store.create_hosted_order(&p, now);
        Ok(Some(with_hosted_link(&p, &config.base_url)))
    }

    /// Sends USD stablecoins from the merchant's balance to an onchain address (SECRET key):
    /// at least 10 USD. `network`: one of the rampable assets' networks (`CELO` when absent);
    /// more than the balance is INSUFFICIENT_FUNDS. The withdrawal starts `pending`.
    async fn withdraw_onchain(
        &self,
        ctx: &Context<'_>,
        address: String,
        amount_usd: Decimal,
        network: Option<String>,
        metadata: Option<async_graphql::Json<serde_json::Map<String, serde_json::Value>>>,
    ) -> Result<Option<crate::payments::OnchainWithdrawal>> {
        secret_only(ctx)?;
        let _ = metadata; // accepted and kept by the real service; the sandbox has no use for it
        let store = ctx.data::<Arc<Store>>()?;
        let mut networks: Vec<String> = store
            .rampable_assets
            .iter()
            .flat_map(|a| a.networks.iter().cloned())
            .collect();
        networks.sort();
        networks.dedup();
        let balance = store
            .account
            .account_balance
            .clone()
            .unwrap_or_else(|| Decimal::text("0.00"));
        let now = store.clock.now_secs();
        store
            .merchant()
            .withdraw_onchain(
                &address,
                &amount_usd,
                network.as_deref(),
                &networks,
                &balance,
                now,
            )
            .map(Some)
            .map_err(mutation_error)
    }

    /// Cancels a hosted payment (SECRET key): created → canceled, only while `created`.
    async fn cancel_hosted_payment(
        &self,
        ctx: &Context<'_>,
        payment_request: ID,
    ) -> Result<Option<bool>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .cancel_hosted_payment(payment_request.as_str())
            .map(Some)
            .map_err(mutation_error)
    }
}

/// The direct ramp's mutations (SECRET key; sandbox rules: README, "Direct ramp").
#[derive(Default)]
pub struct DirectRampMutation;

#[Object]
impl DirectRampMutation {
    /// Creates a customer of the direct ramp (SECRET key). `country` is a `Country.id` or
    /// its ISO code.
    async fn create_customer(
        &self,
        ctx: &Context<'_>,
        email: String,
        first_name: String,
        last_name: String,
        country: ID,
    ) -> Result<Option<crate::direct_ramp::Customer>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .ramp
            .create_customer(
                &email,
                &first_name,
                &last_name,
                country.as_str(),
                &store.countries,
            )
            .map(Some)
            .map_err(mutation_error)
    }

    /// Adds a payment method to a customer (SECRET key): a type of the customer's country,
    /// with every required field of it in `fields` and no other.
    async fn add_payment_method(
        &self,
        ctx: &Context<'_>,
        customer: ID,
        payment_method_type: String,
        fields: Vec<crate::direct_ramp::FieldInput>,
        ownership: Option<crate::direct_ramp::Ownership>,
    ) -> Result<Option<crate::direct_ramp::CustomerPaymentMethod>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .ramp
            .add_payment_method(
                customer.as_str(),
                &payment_method_type,
                &fields,
                ownership,
                &store.countries,
            )
            .map(Some)
            .map_err(mutation_error)
    }

    /// A deposit at a `deposit` quote's rate (SECRET key): `pending`. A used quote is
    /// INVALID_TRANSITION, an expired one QUOTE_EXPIRED, a used reference
    /// DUPLICATE_REFERENCE; a mobile-money quote needs `phoneNumber`, a bank one
    /// `bankAccountNumber`. `onchainTransferInfo` is accepted and not used.
    async fn initiate_ramp_quote_deposit(
        &self,
        ctx: &Context<'_>,
        ramp_quote: ID,
        reference: Option<String>,
        phone_number: Option<String>,
        bank_account_number: Option<String>,
        onchain_transfer_info: Option<crate::direct_ramp::OnchainTransferInfo>,
    ) -> Result<Option<crate::direct_ramp::QuotePaymentRequest>> {
        secret_only(ctx)?;
        let _ = onchain_transfer_info; // kept by the real service; the sandbox has no chain leg
        let store = ctx.data::<Arc<Store>>()?;
        let d = crate::direct_ramp::DepositRequest {
            ramp_quote: ramp_quote.to_string(),
            reference,
            phone_number,
            bank_account_number,
        };
        let now = store.clock.now_secs();
        store
            .merchant()
            .ramp
            .initiate_deposit(&d, &store.countries, now)
            .map(Some)
            .map_err(mutation_error)
    }

    /// A withdrawal at a `withdrawal` quote's rate to one of the quote's customer's payment
    /// methods, of the quoted type (SECRET key): an agent has it at once, `picked_up`.
    async fn initiate_ramp_quote_withdrawal(
        &self,
        ctx: &Context<'_>,
        ramp_quote: ID,
        payment_method: ID,
        reference: Option<String>,
    ) -> Result<Option<crate::direct_ramp::QuotePaymentRequest>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let now = store.clock.now_secs();
        store
            .merchant()
            .ramp
            .initiate_withdrawal(
                ramp_quote.as_str(),
                payment_method.as_str(),
                reference.as_deref(),
                now,
            )
            .map(Some)
            .map_err(mutation_error)
    }

    /// The customer paid the agent of a deposit (SECRET key): pending → paid. `receipt`,
    /// when given, is a receipt URL or reference (any text, not blank).
    async fn mark_deposit_as_paid(
        &self,
        ctx: &Context<'_>,
        payment_request: ID,
        receipt: Option<String>,
    ) -> Result<Option<bool>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .ramp
            .mark_deposit_as_paid(payment_request.as_str(), receipt.as_deref())
            .map(Some)
            .map_err(mutation_error)
    }

    /// The customer received a withdrawal (SECRET key): picked_up → completed.
    async fn mark_withdrawal_as_received(
        &self,
        ctx: &Context<'_>,
        payment_request: ID,
    ) -> Result<Option<bool>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .ramp
            .mark_withdrawal_as_received(payment_request.as_str())
            .map(Some)
            .map_err(mutation_error)
    }

    /// A USD virtual bank account for a customer (SECRET key): `active` at once, with the
    /// sandbox bank's details. The service charges a fee for it (not simulated). A customer
    /// has at most one: a second request is INVALID_TRANSITION.
    async fn request_virtual_bank_account(
        &self,
        ctx: &Context<'_>,
        customer: ID,
    ) -> Result<Option<crate::direct_ramp::accounts::VirtualBankAccount>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        let now = store.clock.now_secs();
        store
            .merchant()
            .ramp
            .request_virtual_bank_account(customer.as_str(), now)
            .map(Some)
            .map_err(mutation_error)
    }

    /// Cancels a deposit not paid yet (SECRET key): pending → canceled.
    async fn cancel_deposit(&self, ctx: &Context<'_>, payment_request: ID) -> Result<Option<bool>> {
        secret_only(ctx)?;
        let store = ctx.data::<Arc<Store>>()?;
        store
            .merchant()
            .ramp
            .cancel_deposit(payment_request.as_str())
            .map(Some)
            .map_err(mutation_error)
    }
}

/// FORBIDDEN unless the request carries the merchant's secret key.
fn secret_only(ctx: &Context<'_>) -> Result<()> {
    if ctx.data::<MerchantIdentity>()?.secret {
        Ok(())
    } else {
        Err(coded_error(
            "Forbidden: this operation needs the secret key; a public key cannot call it",
            "FORBIDDEN",
        ))
    }
}

/// The currency an amount is given in (hosted payments and quotes).
#[derive(async_graphql::Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(name = "P2PPaymentCurrency", rename_items = "snake_case")]
pub enum P2PPaymentCurrency {
    /// US dollars (the default).
    Usd,
    /// The customer's country's currency.
    LocalCurrency,
}

impl P2PPaymentCurrency {
    /// The GraphQL name.
    pub fn as_str(self) -> &'static str {
        match self {
            P2PPaymentCurrency::Usd => "usd",
            P2PPaymentCurrency::LocalCurrency => "local_currency",
        }
    }
}

/// `deposit` or `withdrawal`.
#[derive(async_graphql::Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(name = "P2PPaymentTypeType", rename_items = "snake_case")]
pub enum P2PPaymentTypeType {
    Deposit,
    Withdrawal,
}
