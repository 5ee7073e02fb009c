//! The sandbox's seeded, deterministic data set and its GraphQL object types.
//!
//! Everything here is generated from fixed seeds with splitmix64, so every run (and every
//! machine) sees exactly the same agents, orders, countries and payment requests. A data seed
//! ([`DataSeed`], `--seed N`, `createFakeService({ seed })`) picks another data set of the
//! same shape: the one place that rule lives is here.

use std::sync::{Mutex, MutexGuard};

use async_graphql::{Enum, SimpleObject, ID};
use serde::Serialize;

use crate::dates::days_from_civil;
use crate::payments::MerchantState;
use crate::scalars::{Decimal, Iso8601DateTime};
use std::sync::atomic::{AtomicU64, Ordering};

pub const AGENT_KEY: &str = "SBX-SECK_agent1demo0001";
pub const AGENT2_KEY: &str = "SBX-SECK_agent2demo0002";
pub const AGENT3_KEY: &str = "SBX-SECK_agent3demo0003";
pub const MERCHANT_PUBLIC_KEY: &str = "SBX-PUBK_merchantdemo01";
pub const MERCHANT_SECRET_KEY: &str = "SBX-SECK_merchantdemo01";

/// The names printed at start-up and returned by `/__sandbox/info`, in that order.
pub const KEY_NAMES: [(&str, &str); 5] = [
    ("AGENT_KEY", AGENT_KEY),
    ("AGENT2_KEY", AGENT2_KEY),
    ("AGENT3_KEY", AGENT3_KEY),
    ("MERCHANT_PUBLIC_KEY", MERCHANT_PUBLIC_KEY),
    ("MERCHANT_SECRET_KEY", MERCHANT_SECRET_KEY),
];

/// Number of orders each agent has.
pub const AGENT_ORDER_COUNTS: [usize; 3] = [1600, 35, 0];

/// A fixed "sandbox deposit address" used by the hosted ramp page's `crypto.requested`.
pub const RAMP_DESTINATION_ADDRESS: &str = "0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D";

/// splitmix64: a tiny, well-distributed PRNG; fixed seeds make the data deterministic.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }
}

#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[graphql(name = "P2PPaymentStatus", rename_items = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum P2PPaymentStatus {
    Pending,
    /// An agent took a withdrawal (the sandbox's own value: the service's sources show only
    /// `pending` and `completed` for an agent's order).
    PickedUp,
    /// The agent paid a withdrawal (the sandbox's own value).
    Paid,
    Completed,
    /// Canceled (the sandbox's own value).
    Canceled,
}

impl P2PPaymentStatus {
    pub const ALL: [P2PPaymentStatus; 5] = [
        P2PPaymentStatus::Pending,
        P2PPaymentStatus::PickedUp,
        P2PPaymentStatus::Paid,
        P2PPaymentStatus::Completed,
        P2PPaymentStatus::Canceled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            P2PPaymentStatus::Pending => "pending",
            P2PPaymentStatus::PickedUp => "picked_up",
            P2PPaymentStatus::Paid => "paid",
            P2PPaymentStatus::Completed => "completed",
            P2PPaymentStatus::Canceled => "canceled",
        }
    }
}

/// `deposit` or `withdrawal` (the sandbox's own name for the type: the service's sources show
/// the values only).
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[graphql(rename_items = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PaymentType {
    Deposit,
    Withdrawal,
}

/// Status of a hosted payment request: created → picked_up → completed | canceled (the
/// sandbox's own name for the type: the service's sources show the values only).
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[graphql(rename_items = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum MerchantPaymentRequestStatus {
    Created,
    PickedUp,
    Completed,
    Canceled,
}

/// One P2P order of an agent.
#[derive(SimpleObject, Clone, Debug, Serialize)]
#[graphql(name = "P2PPayment")]
#[serde(rename_all = "camelCase")]
pub struct P2PPayment {
    pub id: ID,
    pub status: P2PPaymentStatus,
    pub payment_type: PaymentType,
    pub exchange_rate: Option<Decimal>,
    pub exchange_rate_minus_surcharge: Option<Decimal>,
    pub order_id: Option<String>,
    pub source: Option<String>,
    pub instant: Option<bool>,
    pub created_at: Option<Iso8601DateTime>,
    pub expires_at: Option<Iso8601DateTime>,
    /// Unix epoch seconds of `expiresAt` (the sandbox's reading of the name).
    pub expires_at_secs: Option<i64>,
    pub reassigning: Option<bool>,
    pub reassign_after: Option<Iso8601DateTime>,
    /// Unix epoch seconds of `reassignAfter`.
    pub reassign_after_secs: Option<i64>,
    pub agent_cut_of_fees: Option<Decimal>,
    pub fx_spread_revenue: Option<Decimal>,
    /// The payment method type, e.g. `mpesa` (the sandbox's own: no source shows it; the
    /// client never selects it by default).
    pub payment_method: Option<String>,
    /// The amount in the local currency (the sandbox's own).
    pub amount_local: Option<Decimal>,
    /// The amount in USD (the sandbox's own).
    pub amount_usd: Option<Decimal>,
    /// ISO code of the local currency (the sandbox's own).
    pub currency: Option<String>,
    /// Unix seconds of createdAt, for sorting and filtering (not exposed).
    #[graphql(skip)]
    #[serde(skip)]
    pub created_secs: i64,
}

/// TOTP (two-factor) state of an agent: the sandbox's own (the service's documentation names
/// TOTP information without its fields).
#[derive(SimpleObject, Clone, Debug, Serialize)]
#[graphql(name = "TotpInfo")]
#[serde(rename_all = "camelCase")]
pub struct TotpInfo {
    pub enabled: bool,
    pub confirmed_at: Option<Iso8601DateTime>,
}

/// The authenticated agent's profile.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "AgentProfile")]
pub struct AgentProfile {
    pub id: ID,
    pub email: Option<String>,
    pub account_balance: Option<Decimal>,
    pub escrow_balance: Option<Decimal>,
    pub bonus_earnings: Option<Decimal>,
    pub deposit_address: Option<String>,
    pub verification_status: Option<String>,
    pub auto_update_deposit_rate: Option<bool>,
    pub auto_update_withdrawal_rate: Option<bool>,
    pub credit_line: Option<Decimal>,
    pub used_credit_line: Option<Decimal>,
    pub deposit_margin: Option<Decimal>,
    pub withdrawal_margin: Option<Decimal>,
    pub average_deposit_rate: Option<Decimal>,
    pub average_withdrawal_rate: Option<Decimal>,
    pub deposits_completed: Option<i32>,
    pub withdrawals_completed: Option<i32>,
    pub total_deposit_fiat_amount: Option<Decimal>,
    pub total_deposit_usd_amount: Option<Decimal>,
    pub total_withdrawal_fiat_amount: Option<Decimal>,
    pub total_withdrawal_usd_amount: Option<Decimal>,
    pub enforce_receipt_upload: Option<bool>,
    /// The agent's API key, MASKED by the sandbox (it never echoes a key).
    pub api_key: Option<String>,
    /// TOTP state (the sandbox's own).
    pub totp: Option<TotpInfo>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct WithdrawalInfo {
    pub symbol: String,
    pub name: Option<String>,
    /// URL of an icon (served by the sandbox under `/__sandbox/icons/`).
    pub icon: Option<String>,
    pub networks: Vec<String>,
    pub address_regex: Option<String>,
    pub memo_regex: Option<String>,
}

/// The merchant account; `merchantCustomers` is resolved in `schema.rs`.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(complex)]
pub struct Account {
    pub id: ID,
    /// Text with two decimals, e.g. "1520.00".
    pub account_balance: Option<Decimal>,
    pub deposit_address: Option<String>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct Currency {
    pub iso_code: String,
    pub name: String,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct Country {
    pub id: ID,
    pub name: String,
    pub code: String,
    pub currency: Currency,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct PaymentMethodField {
    pub label: String,
    pub identifier: String,
    pub required: bool,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct PaymentMethodType {
    pub id: ID,
    pub identifier: String,
    pub label: String,
    pub fields: Vec<PaymentMethodField>,
}

/// Indicative local-currency-per-USD rates for a country.
#[derive(SimpleObject, Clone, Debug)]
pub struct MarketRate {
    /// The country's ISO code (the sandbox's own).
    pub country_code: String,
    /// The local currency's ISO code (the sandbox's own).
    pub currency: String,
    pub deposit_rate: Decimal,
    pub withdrawal_rate: Decimal,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct RampLimits {
    pub minimum_deposit_usd: Decimal,
    pub maximum_deposit_usd: Decimal,
    pub minimum_withdrawal_usd: Decimal,
    pub maximum_withdrawal_usd: Decimal,
    pub daily_limit_usd: Decimal,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct RampableAsset {
    pub name: String,
    pub symbol: String,
    pub networks: Vec<String>,
    pub contract_address: Option<String>,
}

#[derive(SimpleObject, Clone, Debug)]
pub struct MerchantPaymentRequest {
    pub id: ID,
    pub payment_type: PaymentType,
    /// Link to the sandbox's hosted ramp page (never carries a key).
    pub hosted_link: String,
    pub amount: Decimal,
    pub currency: String,
    pub reference: String,
    pub status: MerchantPaymentRequestStatus,
    /// The `metadata` given to `initiateHostedPayment`, as given.
    pub metadata: Option<async_graphql::Json<serde_json::Value>>,
    #[graphql(skip)]
    pub coin: String,
    #[graphql(skip)]
    pub network: String,
}

/// One of an agent's payment methods (the object `updatePaymentMethodLiquidity` returns).
/// `id value displayValue localCurrencyAvailable deleted ownership designation instant` are
/// the fields the official SDKs select; `paymentMethodType` and `currency` are the sandbox's
/// own (so a caller can tell which method a `paymentMethodType` names).
#[derive(SimpleObject, Clone, Debug, Serialize)]
#[graphql(name = "P2PPaymentMethod")]
#[serde(rename_all = "camelCase")]
pub struct P2PPaymentMethod {
    pub id: ID,
    /// The account number or phone number the method pays from/to.
    pub value: Option<String>,
    /// A masked, human-readable form of `value`.
    pub display_value: Option<String>,
    /// Local currency the agent has available on this method.
    pub local_currency_available: Option<Decimal>,
    pub deleted: Option<bool>,
    /// Who owns the account (values not shown by the sources; the sandbox says `personal`
    /// or `business`).
    pub ownership: Option<String>,
    /// `deposit`, `withdrawal` or `both` (the sandbox's guess at the values).
    pub designation: Option<String>,
    pub instant: Option<bool>,
    /// The method's type identifier, e.g. `bank_transfer` (the sandbox's own).
    pub payment_method_type: Option<String>,
    /// ISO code of the local currency, e.g. `NGN` (the sandbox's own).
    pub currency: Option<String>,
}

/// An agent's own rates and margins (`updateRates`). The margins are also the profile's
/// `depositMargin` / `withdrawalMargin`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRates {
    pub deposit_rate: Option<Decimal>,
    pub deposit_margin: Option<Decimal>,
    pub withdrawal_rate: Option<Decimal>,
    pub withdrawal_margin: Option<Decimal>,
}

/// Everything about an agent that the bot mutations can change.
#[derive(Clone, Debug)]
pub struct AgentState {
    /// The profile; its margins are read from `rates` (see [`AgentState::profile`]).
    pub profile: AgentProfile,
    /// Sorted by createdAt descending, ties by id descending.
    pub orders: Vec<P2PPayment>,
    pub rates: AgentRates,
    pub payment_methods: Vec<P2PPaymentMethod>,
}

impl AgentState {
    /// The profile as `profile` answers it: margins from the current rates.
    pub fn profile(&self) -> AgentProfile {
        AgentProfile {
            deposit_margin: self.rates.deposit_margin.clone(),
            withdrawal_margin: self.rates.withdrawal_margin.clone(),
            ..self.profile.clone()
        }
    }
}

pub struct Agent {
    pub key: &'static str,
    /// Mutable per-agent state (one lock per agent: agents never share orders).
    state: Mutex<AgentState>,
}

impl Agent {
    /// Locks this agent's state (a poisoned lock is still usable: every mutation checks
    /// before it writes, so no half-applied change can be left behind by a panic).
    pub fn state(&self) -> MutexGuard<'_, AgentState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct CountryData {
    pub country: Country,
    pub methods: Vec<PaymentMethodType>,
    pub rate: MarketRate,
}

pub struct Store {
    pub agents: Vec<Agent>,
    /// How many orders `POST /__sandbox/orders` (or `--new-order-every`) created: numbers
    /// their ids (`p2p_n000001`, …), never reused, not even after a reset.
    created: AtomicU64,
    pub withdrawal_infos: Vec<WithdrawalInfo>,
    pub countries: Vec<CountryData>,
    pub account: Account,
    pub ramp_limits: RampLimits,
    pub rampable_assets: Vec<RampableAsset>,
    /// The merchant's payment requests and transfers (one lock: `confirmTransaction` changes
    /// both).
    merchant: Mutex<MerchantState>,
    /// Where every rule reads "now" (new orders, quote expiry, withdrawal dates).
    pub clock: crate::clock::Clock,
    /// The data set it was seeded with (and `reset` goes back to).
    pub seed: DataSeed,
}

/// Masks a key for display: prefix up to and including `PUBK_`/`SECK_`, then stars, then the
/// last 4 characters. The full key never appears.
pub fn mask_key(key: &str) -> String {
    let prefix_end = key
        .find("SECK_")
        .or_else(|| key.find("PUBK_"))
        .map(|i| i + 5)
        .unwrap_or(0);
    let tail = key.len().saturating_sub(4).max(prefix_end);
    format!("{}{}{}", &key[..prefix_end], "*".repeat(12), &key[tail..])
}

fn d(s: &str) -> Option<Decimal> {
    Some(Decimal::text(s))
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn agent1_profile(seed: DataSeed) -> AgentProfile {
    AgentProfile {
        id: ID::from("agent-1"),
        email: agent_email(seed, 0, "amara.okafor@example.com"),
        account_balance: d("12500.50"),
        escrow_balance: d("830.00"),
        bonus_earnings: d("42.75"),
        deposit_address: s("0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B"),
        verification_status: s("verified"),
        auto_update_deposit_rate: Some(true),
        auto_update_withdrawal_rate: Some(false),
        credit_line: d("5000.00"),
        used_credit_line: d("1250.00"),
        deposit_margin: d("1.50"),
        withdrawal_margin: d("1.25"),
        average_deposit_rate: d("1532.40"),
        average_withdrawal_rate: d("1518.75"),
        deposits_completed: Some(1024),
        withdrawals_completed: Some(376),
        total_deposit_fiat_amount: d("48211500.00"),
        total_deposit_usd_amount: d("31462.18"),
        total_withdrawal_fiat_amount: d("17650250.00"),
        total_withdrawal_usd_amount: d("11621.90"),
        enforce_receipt_upload: Some(true),
        api_key: Some(mask_key(AGENT_KEY)),
        totp: Some(TotpInfo {
            enabled: true,
            confirmed_at: Some(Iso8601DateTime(
                days_from_civil(2025, 8, 14) * 86_400 + 9 * 3600 + 30 * 60,
            )),
        }),
    }
}

fn agent2_profile(seed: DataSeed) -> AgentProfile {
    AgentProfile {
        id: ID::from("agent-2"),
        email: agent_email(seed, 1, "kwame.mensah@example.com"),
        account_balance: d("3210.00"),
        escrow_balance: d("120.00"),
        bonus_earnings: d("5.10"),
        deposit_address: s("0x2b4D6f8A0c2E4a6C8e0B2d4F6a8C0e2A4c6E8a0C"),
        verification_status: s("verified"),
        auto_update_deposit_rate: Some(false),
        auto_update_withdrawal_rate: Some(true),
        credit_line: d("1000.00"),
        used_credit_line: d("0.00"),
        deposit_margin: d("2.00"),
        withdrawal_margin: d("1.75"),
        average_deposit_rate: d("15.62"),
        average_withdrawal_rate: d("15.31"),
        deposits_completed: Some(18),
        withdrawals_completed: Some(9),
        total_deposit_fiat_amount: d("96850.40"),
        total_deposit_usd_amount: d("6200.55"),
        total_withdrawal_fiat_amount: d("40110.00"),
        total_withdrawal_usd_amount: d("2619.80"),
        enforce_receipt_upload: Some(false),
        api_key: Some(mask_key(AGENT2_KEY)),
        totp: Some(TotpInfo {
            enabled: true,
            confirmed_at: Some(Iso8601DateTime(
                days_from_civil(2025, 10, 2) * 86_400 + 14 * 3600,
            )),
        }),
    }
}

/// Agent 3: new, unverified, no orders, several optional fields null.
fn agent3_profile(seed: DataSeed) -> AgentProfile {
    AgentProfile {
        id: ID::from("agent-3"),
        email: agent_email(seed, 2, "wanjiru.kamau@example.com"),
        account_balance: d("0.00"),
        escrow_balance: d("0.00"),
        bonus_earnings: d("0.00"),
        deposit_address: None,
        verification_status: s("unverified"),
        auto_update_deposit_rate: Some(false),
        auto_update_withdrawal_rate: Some(false),
        credit_line: None,
        used_credit_line: None,
        deposit_margin: None,
        withdrawal_margin: None,
        average_deposit_rate: None,
        average_withdrawal_rate: None,
        deposits_completed: Some(0),
        withdrawals_completed: Some(0),
        total_deposit_fiat_amount: d("0.00"),
        total_deposit_usd_amount: d("0.00"),
        total_withdrawal_fiat_amount: d("0.00"),
        total_withdrawal_usd_amount: d("0.00"),
        enforce_receipt_upload: None,
        api_key: Some(mask_key(AGENT3_KEY)),
        totp: Some(TotpInfo {
            enabled: false,
            confirmed_at: None,
        }),
    }
}

/// Currency table: (code, rate range in hundredths of local per USD, payment methods).
const CURRENCIES: [(&str, i64, i64, &[&str]); 3] = [
    ("NGN", 145_000, 160_000, &["bank_transfer", "opay"]),
    (
        "KES",
        12_800,
        13_050,
        &["mpesa", "airtel_money", "bank_transfer"],
    ),
    (
        "GHS",
        1_450,
        1_650,
        &["mtn_momo", "mobile_money", "bank_transfer"],
    ),
];

/// Which data set a store holds. `0`, the default, is the sandbox's data as it has always
/// been. Any other value draws afresh, from streams mixed with the seed: each seeded order's
/// day-time, amounts, rates, currency, method, source and flags, which order carries which
/// status, the type of agent 1's open and canceled orders and agent 2's statuses and types;
/// order ids (`p2p_<tag>000001`, a 4-hex-digit tag of the seed) and the agents' emails.
/// It keeps the shape tests rely on: the keys, agent ids, the order counts (1,600, 35, 0),
/// agent 1's counts per status and type (its profile's totals), agent 1's order days,
/// profiles' figures, rates, payment methods, countries and the merchant's fixtures.
pub type DataSeed = u64;

/// The stream `base` of data seed `seed`: `base` itself for the default data (seed 0), else
/// `base` mixed with the seed's own splitmix64 draw.
fn stream(seed: DataSeed, base: u64) -> SplitMix64 {
    SplitMix64::new(if seed == 0 {
        base
    } else {
        base ^ SplitMix64::new(seed).next_u64()
    })
}

/// What seeded order ids carry after `p2p_` (and `p2p_n`): nothing for the default data, else
/// 4 hex digits drawn from the seed.
fn id_tag(seed: DataSeed) -> String {
    if seed == 0 {
        String::new()
    } else {
        format!("{:04x}", stream(seed, 0x5EED_1D00).next_u64() & 0xFFFF)
    }
}

/// An agent's email: the default data's, or one drawn from these names for another seed.
fn agent_email(seed: DataSeed, agent: usize, default: &str) -> Option<String> {
    const FIRST: [&str; 8] = [
        "amara", "kwame", "wanjiru", "chidi", "abena", "baraka", "ngozi", "kofi",
    ];
    const LAST: [&str; 8] = [
        "okafor", "mensah", "kamau", "adeyemi", "owusu", "otieno", "eze", "boateng",
    ];
    if seed == 0 {
        return s(default);
    }
    let mut rng = stream(seed, 0x5EED_E000 + agent as u64);
    let first = *rng.pick(&FIRST);
    let last = *rng.pick(&LAST);
    Some(format!("{first}.{last}{}@example.com", rng.range(1, 99)))
}

const SOURCES: [&str; 3] = ["api", "dashboard", "telegram_bot"];

/// Data window for agent 1's orders: 2025-09-01 ..= 2026-10-31 (426 days).
pub fn order_window() -> (i64, i64) {
    (days_from_civil(2025, 9, 1), days_from_civil(2026, 10, 31))
}

struct OrderSeed {
    day: i64,
    status: P2PPaymentStatus,
    payment_type: PaymentType,
    currency_idx: usize,
}

/// Order `number`, its id `p2p_<tag><number>` ([`id_tag`]).
fn build_order(rng: &mut SplitMix64, number: u64, tag: &str, seed: &OrderSeed) -> P2PPayment {
    let created = seed.day * 86_400 + rng.range(0, 86_399);
    let (currency, lo, hi, methods) = CURRENCIES[seed.currency_idx];
    let method = *rng.pick(methods);
    // Amounts: mostly small, some large (two overlapping ranges), in US cents.
    let usd_cents = if rng.range(0, 9) < 8 {
        rng.range(500, 50_000)
    } else {
        rng.range(50_000, 250_000)
    };
    let rate = rng.range(lo, hi); // hundredths of local currency per USD
    let surcharge_bps = rng.range(80, 200);
    let rate_minus = rate - rate * surcharge_bps / 10_000;
    let local_cents = usd_cents * rate / 100;
    let completed = seed.status == P2PPaymentStatus::Completed;
    let canceled = seed.status == P2PPaymentStatus::Canceled;
    let open = matches!(
        seed.status,
        P2PPaymentStatus::Pending | P2PPaymentStatus::PickedUp
    );
    let window = if seed.payment_type == PaymentType::Deposit {
        1800
    } else {
        3600
    };
    let expires = created + window;
    let reassign_after = open.then_some(created + 900);
    let (y, _, _) = crate::dates::civil_from_days(seed.day);
    P2PPayment {
        id: ID::from(format!("p2p_{tag}{number:06}")),
        status: seed.status,
        payment_type: seed.payment_type,
        exchange_rate: Some(Decimal::cents(rate)),
        exchange_rate_minus_surcharge: Some(Decimal::cents(rate_minus)),
        order_id: Some(format!("ORD-{y}-{number:06}")),
        source: Some(rng.pick(&SOURCES).to_string()),
        instant: Some(rng.range(0, 3) == 0),
        created_at: Some(Iso8601DateTime(created)),
        expires_at: Some(Iso8601DateTime(expires)),
        expires_at_secs: Some(expires),
        reassigning: Some(seed.status == P2PPaymentStatus::Pending && rng.range(0, 2) == 0),
        reassign_after: reassign_after.map(Iso8601DateTime),
        reassign_after_secs: reassign_after,
        agent_cut_of_fees: Some(Decimal::cents(if canceled {
            0
        } else {
            usd_cents * 50 / 10_000
        })),
        fx_spread_revenue: Some(Decimal::cents(if completed {
            usd_cents * 30 / 10_000
        } else {
            0
        })),
        payment_method: Some(method.to_string()),
        amount_local: Some(Decimal::cents(local_cents)),
        amount_usd: Some(Decimal::cents(usd_cents)),
        currency: Some(currency.to_string()),
        created_secs: created,
    }
}

fn shuffle<T>(rng: &mut SplitMix64, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

fn sort_desc(orders: &mut [P2PPayment]) {
    orders.sort_by(|a, b| {
        b.created_secs
            .cmp(&a.created_secs)
            .then_with(|| b.id.0.cmp(&a.id.0))
    });
}

/// Agent 1: exactly 1,600 orders spread evenly over every day of the window.
/// Status/type mix is exact: 1,024 completed deposits and 376 completed withdrawals
/// (matching the profile's depositsCompleted/withdrawalsCompleted), plus 110 canceled,
/// 35 paid, 30 pending and 25 picked_up with random types.
fn agent1_orders(data: DataSeed) -> Vec<P2PPayment> {
    let mut rng = stream(data, 0x5EED_0001);
    let tag = id_tag(data);
    let (start, end) = order_window();
    let days = end - start + 1;
    let n = AGENT_ORDER_COUNTS[0];
    let mut mix: Vec<(P2PPaymentStatus, Option<PaymentType>)> = Vec::with_capacity(n);
    let counts = [
        (
            P2PPaymentStatus::Completed,
            Some(PaymentType::Deposit),
            1024,
        ),
        (
            P2PPaymentStatus::Completed,
            Some(PaymentType::Withdrawal),
            376,
        ),
        (P2PPaymentStatus::Canceled, None, 110),
        (P2PPaymentStatus::Paid, None, 35),
        (P2PPaymentStatus::Pending, None, 30),
        (P2PPaymentStatus::PickedUp, None, 25),
    ];
    for (status, ty, count) in counts {
        mix.extend(std::iter::repeat_n((status, ty), count));
    }
    assert_eq!(mix.len(), n);
    shuffle(&mut rng, &mut mix);
    let mut orders: Vec<P2PPayment> = mix
        .into_iter()
        .enumerate()
        .map(|(i, (status, ty))| {
            let payment_type = ty.unwrap_or(if rng.range(0, 2) < 2 {
                PaymentType::Deposit
            } else {
                PaymentType::Withdrawal
            });
            let roll = rng.range(0, 9);
            let currency_idx = if roll < 5 {
                0
            } else if roll < 8 {
                1
            } else {
                2
            };
            let seed = OrderSeed {
                day: start + (i as i64 * days) / n as i64,
                status,
                payment_type,
                currency_idx,
            };
            build_order(&mut rng, i as u64 + 1, &tag, &seed)
        })
        .collect();
    sort_desc(&mut orders);
    orders
}

/// Agent 2: 35 orders in GHS, spread over the same window.
fn agent2_orders(data: DataSeed) -> Vec<P2PPayment> {
    let mut rng = stream(data, 0x5EED_0002);
    let tag = id_tag(data);
    let (start, end) = order_window();
    let days = end - start + 1;
    let n = AGENT_ORDER_COUNTS[1] as i64;
    let mut orders: Vec<P2PPayment> = (0..n)
        .map(|i| {
            let status = *rng.pick(&[
                P2PPaymentStatus::Completed,
                P2PPaymentStatus::Completed,
                P2PPaymentStatus::Completed,
                P2PPaymentStatus::Canceled,
                P2PPaymentStatus::Pending,
                P2PPaymentStatus::Paid,
            ]);
            let payment_type = *rng.pick(&[PaymentType::Deposit, PaymentType::Withdrawal]);
            let seed = OrderSeed {
                day: start + (i * days) / n + rng.range(0, 5),
                status,
                payment_type,
                currency_idx: 2,
            };
            build_order(&mut rng, 200_001 + i as u64, &tag, &seed)
        })
        .collect();
    sort_desc(&mut orders);
    orders
}

fn field(label: &str, identifier: &str, required: bool) -> PaymentMethodField {
    PaymentMethodField {
        label: label.into(),
        identifier: identifier.into(),
        required,
    }
}

fn method(
    id: &str,
    identifier: &str,
    label: &str,
    fields: Vec<PaymentMethodField>,
) -> PaymentMethodType {
    PaymentMethodType {
        id: ID::from(id),
        identifier: identifier.into(),
        label: label.into(),
        fields,
    }
}

fn bank_fields() -> Vec<PaymentMethodField> {
    vec![
        field("Bank name", "bank_name", true),
        field("Account number", "account_number", true),
        field("Account name", "account_name", true),
        field("Branch code", "branch_code", false),
    ]
}

fn mobile_fields() -> Vec<PaymentMethodField> {
    vec![
        field("Phone number", "phone_number", true),
        field("Account name", "account_name", true),
    ]
}

fn countries() -> Vec<CountryData> {
    let country = |id: &str, name: &str, code: &str, iso: &str, cname: &str| Country {
        id: ID::from(id),
        name: name.into(),
        code: code.into(),
        currency: Currency {
            iso_code: iso.into(),
            name: cname.into(),
        },
    };
    let rate = |code: &str, cur: &str, dep: &str, wd: &str| MarketRate {
        country_code: code.into(),
        currency: cur.into(),
        deposit_rate: Decimal::text(dep),
        withdrawal_rate: Decimal::text(wd),
    };
    vec![
        CountryData {
            country: country("1", "Nigeria", "NG", "NGN", "Nigerian Naira"),
            methods: vec![
                method("pmt-ng-1", "bank_transfer", "Bank transfer", bank_fields()),
                method("pmt-ng-2", "opay", "OPay", mobile_fields()),
            ],
            rate: rate("NG", "NGN", "1545.50", "1512.25"),
        },
        CountryData {
            country: country("2", "Kenya", "KE", "KES", "Kenyan Shilling"),
            methods: vec![
                method("pmt-ke-1", "mpesa", "M-Pesa", mobile_fields()),
                method("pmt-ke-2", "airtel_money", "Airtel Money", mobile_fields()),
                method("pmt-ke-3", "bank_transfer", "Bank transfer", bank_fields()),
            ],
            rate: rate("KE", "KES", "129.40", "127.85"),
        },
        CountryData {
            country: country("3", "Ghana", "GH", "GHS", "Ghanaian Cedi"),
            methods: vec![
                method("pmt-gh-1", "mtn_momo", "MTN Mobile Money", mobile_fields()),
                method(
                    "pmt-gh-2",
                    "mobile_money",
                    "Mobile money (other networks)",
                    mobile_fields(),
                ),
                method("pmt-gh-3", "bank_transfer", "Bank transfer", bank_fields()),
            ],
            rate: rate("GH", "GHS", "15.62", "15.18"),
        },
    ]
}

fn withdrawal_infos() -> Vec<WithdrawalInfo> {
    let evm = "^0x[a-fA-F0-9]{40}$";
    let info = |symbol: &str, name: &str, networks: &[&str]| WithdrawalInfo {
        symbol: symbol.into(),
        name: s(name),
        icon: None, // filled in per request with the sandbox's own URL
        networks: networks.iter().map(|n| n.to_string()).collect(),
        address_regex: s(evm),
        memo_regex: None,
    };
    vec![
        info("USDC", "USD Coin", &["ETHEREUM", "BASE", "CELO", "OP"]),
        info("USDT", "Tether USD", &["ETHEREUM", "CELO", "OP"]),
        info("CUSD", "Celo Dollar", &["CELO"]),
        info("ETH", "Ether", &["ETHEREUM", "BASE", "OP"]),
    ]
}

fn payment_requests() -> Vec<MerchantPaymentRequest> {
    let pr = |n: u32,
              ty: PaymentType,
              amount: &str,
              cur: &str,
              status: MerchantPaymentRequestStatus,
              coin: &'static str,
              network: &'static str| MerchantPaymentRequest {
        id: ID::from(format!("mpr_{n:04}")),
        payment_type: ty,
        hosted_link: String::new(), // built per request from the sandbox URL
        amount: Decimal::text(amount),
        currency: cur.into(),
        reference: format!("REF-{n}"),
        status,
        metadata: None,
        coin: coin.into(),
        network: network.into(),
    };
    use MerchantPaymentRequestStatus as S;
    vec![
        pr(
            1001,
            PaymentType::Deposit,
            "25000.00",
            "NGN",
            S::Created,
            "USDC",
            "CELO",
        ),
        pr(
            1002,
            PaymentType::Withdrawal,
            "1500.00",
            "KES",
            S::Completed,
            "USDT",
            "OP",
        ),
        pr(
            1003,
            PaymentType::Deposit,
            "310.50",
            "GHS",
            S::PickedUp,
            "CUSD",
            "CELO",
        ),
        pr(
            1004,
            PaymentType::Deposit,
            "12000.00",
            "NGN",
            S::Canceled,
            "USDC",
            "BASE",
        ),
    ]
}

/// The agents' keys, in agent order (agent 1 is index 0).
const AGENT_KEYS: [&str; 3] = [AGENT_KEY, AGENT2_KEY, AGENT3_KEY];

#[allow(clippy::too_many_arguments)]
fn pm(
    id: &str,
    ty: &str,
    currency: &str,
    value: &str,
    display: &str,
    available: &str,
    ownership: &str,
    designation: &str,
    instant: bool,
    deleted: bool,
) -> P2PPaymentMethod {
    P2PPaymentMethod {
        id: ID::from(id),
        value: s(value),
        display_value: s(display),
        local_currency_available: d(available),
        deleted: Some(deleted),
        ownership: s(ownership),
        designation: s(designation),
        instant: Some(instant),
        payment_method_type: s(ty),
        currency: s(currency),
    }
}

/// Seeded payment methods. Each agent has at most one non-deleted method per type, so a
/// `paymentMethodType` names exactly one method.
fn payment_methods(agent: usize) -> Vec<P2PPaymentMethod> {
    match agent {
        0 => vec![
            pm(
                "pm_100001",
                "bank_transfer",
                "NGN",
                "0123456789",
                "GTBank ****6789",
                "2500000.00",
                "personal",
                "both",
                false,
                false,
            ),
            pm(
                "pm_100002",
                "opay",
                "NGN",
                "+2348031234567",
                "OPay ****4567",
                "850000.00",
                "personal",
                "withdrawal",
                true,
                false,
            ),
            pm(
                "pm_100003",
                "mpesa",
                "KES",
                "+254712345678",
                "M-Pesa ****5678",
                "120000.00",
                "personal",
                "both",
                true,
                false,
            ),
            pm(
                "pm_100004",
                "mtn_momo",
                "GHS",
                "+233241234567",
                "MTN MoMo ****4567",
                "9500.00",
                "business",
                "both",
                true,
                false,
            ),
            pm(
                "pm_100005",
                "airtel_money",
                "KES",
                "+254733000111",
                "Airtel Money ****0111",
                "0.00",
                "personal",
                "deposit",
                true,
                true,
            ),
        ],
        1 => vec![
            pm(
                "pm_200001",
                "mtn_momo",
                "GHS",
                "+233201112233",
                "MTN MoMo ****2233",
                "4200.00",
                "personal",
                "both",
                true,
                false,
            ),
            pm(
                "pm_200002",
                "bank_transfer",
                "GHS",
                "1234567890123",
                "Ecobank ****0123",
                "15000.00",
                "business",
                "withdrawal",
                false,
                false,
            ),
        ],
        _ => Vec::new(),
    }
}

/// Seeded rates: agents 1 and 2 have all four; agent 3 has none (its margins are null).
fn rates(agent: usize) -> AgentRates {
    let r = |dr: &str, dm: &str, wr: &str, wm: &str| AgentRates {
        deposit_rate: d(dr),
        deposit_margin: d(dm),
        withdrawal_rate: d(wr),
        withdrawal_margin: d(wm),
    };
    match agent {
        0 => r("1540.00", "1.50", "1515.00", "1.25"),
        1 => r("15.55", "2.00", "15.20", "1.75"),
        _ => AgentRates::default(),
    }
}

/// The seeded state of agent `i` (0-based) for data seed `seed`, the same on every call.
fn seeded_agent_state(i: usize, seed: DataSeed) -> AgentState {
    let (profile, orders) = match i {
        0 => (agent1_profile(seed), agent1_orders(seed)),
        1 => (agent2_profile(seed), agent2_orders(seed)),
        _ => (agent3_profile(seed), Vec::new()),
    };
    let rates = rates(i);
    debug_assert_eq!(rates.deposit_margin, profile.deposit_margin);
    debug_assert_eq!(rates.withdrawal_margin, profile.withdrawal_margin);
    AgentState {
        profile,
        orders,
        rates,
        payment_methods: payment_methods(i),
    }
}

impl Store {
    /// The seeded data on the system's clock (the HTTP server's).
    pub fn seeded() -> Store {
        Store::seeded_with_clock(crate::clock::Clock::System)
    }

    /// The seeded data on `clock` (the in-process fake's is moved by hand).
    pub fn seeded_with_clock(clock: crate::clock::Clock) -> Store {
        Store::seeded_with(clock, 0)
    }

    /// Data set `seed` ([`DataSeed`]; 0: the default data) on `clock`.
    pub fn seeded_with(clock: crate::clock::Clock, seed: DataSeed) -> Store {
        Store {
            clock,
            seed,
            agents: AGENT_KEYS
                .iter()
                .enumerate()
                .map(|(i, key)| Agent {
                    key,
                    state: Mutex::new(seeded_agent_state(i, seed)),
                })
                .collect(),
            created: AtomicU64::new(0),
            withdrawal_infos: withdrawal_infos(),
            countries: countries(),
            account: Account {
                id: ID::from("merchant-1"),
                account_balance: d("1520.00"),
                deposit_address: s("0x9F8e7D6c5B4a39281706F5e4D3c2B1a098765432"),
            },
            ramp_limits: RampLimits {
                minimum_deposit_usd: Decimal::text("5.00"),
                maximum_deposit_usd: Decimal::text("5000.00"),
                minimum_withdrawal_usd: Decimal::text("10.00"),
                maximum_withdrawal_usd: Decimal::text("2500.00"),
                daily_limit_usd: Decimal::text("10000.00"),
            },
            rampable_assets: vec![
                RampableAsset {
                    name: "USD Coin".into(),
                    symbol: "USDC".into(),
                    networks: vec!["ETHEREUM".into(), "BASE".into(), "CELO".into(), "OP".into()],
                    contract_address: s("0xcebA9300f2b948710d2653dD7B07f33A8B32118C"),
                },
                RampableAsset {
                    name: "Tether USD".into(),
                    symbol: "USDT".into(),
                    networks: vec!["ETHEREUM".into(), "CELO".into(), "OP".into()],
                    contract_address: s("0x48065fbBE25f71C9282ddf5e1cD6D6A887483D5e"),
                },
                RampableAsset {
                    name: "Celo Dollar".into(),
                    symbol: "CUSD".into(),
                    networks: vec!["CELO".into()],
                    contract_address: s("0x765DE816845861e75A25fCA122bb6898B8B1282a"),
                },
            ],
            merchant: Mutex::new(MerchantState::new(payment_requests())),
        }
    }

    /// Puts every mutable thing (orders, profile counters, rates, payment methods) of one
    /// agent (`Some(index)`) or of all agents back to the seed.
    pub fn reset(&self, agent: Option<usize>) {
        if agent.is_none() {
            *self.merchant() = MerchantState::new(payment_requests());
        }
        for (i, a) in self.agents.iter().enumerate() {
            if agent.is_none_or(|n| n == i) {
                *a.state() = seeded_agent_state(i, self.seed);
            }
        }
    }

    /// Locks the merchant's state (usable after a panic, as [`Agent::state`] is).
    pub fn merchant(&self) -> MutexGuard<'_, MerchantState> {
        self.merchant.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates a new `pending` order for agent `agent` (an index) at `now_secs` (Unix
    /// seconds; later than every order the agent has, so it heads the list): a withdrawal or a
    /// deposit (`None`: alternately), id `p2p_n<number>`, amounts and method drawn as the
    /// seed's are, `expiresAt` 30 min (deposit) or 60 min (withdrawal) later.
    pub fn create_pending_order(
        &self,
        agent: usize,
        payment_type: Option<PaymentType>,
        now_secs: i64,
    ) -> P2PPayment {
        let number = self.created.fetch_add(1, Ordering::Relaxed) + 1;
        let payment_type = payment_type.unwrap_or(if number % 2 == 1 {
            PaymentType::Withdrawal
        } else {
            PaymentType::Deposit
        });
        let mut rng = stream(self.seed, 0x5EED_7000 + number);
        let seed = OrderSeed {
            day: now_secs.div_euclid(86_400),
            status: P2PPaymentStatus::Pending,
            payment_type,
            currency_idx: (number % CURRENCIES.len() as u64) as usize,
        };
        let tag = id_tag(self.seed);
        let mut order = build_order(&mut rng, number, &tag, &seed);
        let mut state = self.agents[agent].state();
        let newest = state.orders.first().map_or(i64::MIN, |o| o.created_secs);
        let created = now_secs.max(newest.saturating_add(1));
        let window = if payment_type == PaymentType::Deposit {
            1800
        } else {
            3600
        };
        order.id = ID::from(format!("p2p_n{tag}{number:06}"));
        order.created_secs = created;
        order.created_at = Some(Iso8601DateTime(created));
        order.expires_at = Some(Iso8601DateTime(created + window));
        order.expires_at_secs = Some(created + window);
        order.reassign_after = Some(Iso8601DateTime(created + 900));
        order.reassign_after_secs = Some(created + 900);
        order.reassigning = Some(false);
        state.orders.insert(0, order.clone());
        order
    }

    /// The agent order that carries hosted payment request `p` (`initiateHostedPayment`): a
    /// new pending order of `p`'s type for agent 1 ([`Store::create_pending_order`]) whose
    /// `orderId` is `p`'s reference and, for a USD request, whose USD amount is `p`'s (its local
    /// amount at the order's rate); linked so that `p` follows the order's status
    /// ([`crate::payments::hosted_status`]).
    pub fn create_hosted_order(&self, p: &MerchantPaymentRequest, now_secs: i64) -> P2PPayment {
        let order = self.create_pending_order(0, Some(p.payment_type), now_secs);
        let order = {
            let mut state = self.agents[0].state();
            let Some(o) = state.orders.iter_mut().find(|o| o.id == order.id) else {
                return order;
            };
            o.order_id = Some(p.reference.clone());
            let usd = (p.currency == "USD")
                .then(|| crate::mutations::cents(&p.amount.0))
                .flatten();
            let rate = o
                .exchange_rate
                .as_ref()
                .and_then(|r| crate::mutations::cents(&r.0));
            if let (Some(usd), Some(rate)) = (usd, rate) {
                o.amount_usd = Some(Decimal::cents(usd));
                o.amount_local = Some(Decimal::cents(usd.saturating_mul(rate) / 100));
            }
            o.clone()
        };
        self.merchant()
            .link_hosted_order(p.id.as_str(), 0, order.id.as_str());
        order
    }

    /// Index of the agent a key belongs to.
    pub fn agent_by_key(&self, key: &str) -> Option<usize> {
        self.agents.iter().position(|a| a.key == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_keys() {
        let m = mask_key(AGENT_KEY);
        assert_eq!(m, "SBX-SECK_************0001");
        assert!(!m.contains(AGENT_KEY));
    }

    #[test]
    fn agent1_orders_shape() {
        let store = Store::seeded();
        let state = store.agents[0].state();
        let orders = &state.orders;
        assert_eq!(orders.len(), 1600);
        let days: std::collections::BTreeSet<i64> = orders
            .iter()
            .map(|o| o.created_secs.div_euclid(86_400))
            .collect();
        let (start, end) = order_window();
        assert!(days.len() >= 400, "{} distinct days", days.len());
        assert_eq!(*days.first().unwrap(), start);
        assert_eq!(*days.last().unwrap(), end);
        let completed_dep = orders
            .iter()
            .filter(|o| {
                o.status == P2PPaymentStatus::Completed && o.payment_type == PaymentType::Deposit
            })
            .count();
        assert_eq!(completed_dep, 1024);
        for st in P2PPaymentStatus::ALL {
            assert!(orders.iter().any(|o| o.status == st), "{st:?}");
        }
        let ids: std::collections::HashSet<&str> = orders.iter().map(|o| o.id.0.as_str()).collect();
        assert_eq!(ids.len(), 1600);
        assert!(orders
            .windows(2)
            .all(|w| w[0].created_secs >= w[1].created_secs));
        assert_eq!(store.agents[1].state().orders.len(), 35);
        assert!(store.agents[2].state().orders.is_empty());
    }

    #[test]
    fn created_orders_are_pending_and_head_the_list() {
        let store = Store::seeded();
        let first = store.create_pending_order(0, None, 0);
        let second = store.create_pending_order(0, Some(PaymentType::Withdrawal), 0);
        let state = store.agents[0].state();
        assert_eq!(state.orders.len(), 1602);
        assert_eq!(state.orders[0].id, second.id);
        assert_eq!(state.orders[1].id, first.id);
        assert_eq!(first.id.0, "p2p_n000001");
        assert_eq!(first.payment_type, PaymentType::Withdrawal);
        assert!(second.created_secs > first.created_secs);
        assert!(first.created_secs > state.orders[2].created_secs);
        for o in [&first, &second] {
            assert_eq!(o.status, P2PPaymentStatus::Pending);
            assert_eq!(o.expires_at_secs, Some(o.created_secs + 3600));
        }
        drop(state);
        store.reset(Some(0));
        assert_eq!(store.agents[0].state().orders.len(), 1600);
        assert_eq!(
            store.create_pending_order(0, None, 0).id.0,
            "p2p_n000003",
            "ids are never reused"
        );
    }

    fn json<T: Serialize>(v: &T) -> String {
        serde_json::to_string(v).unwrap()
    }

    /// Agent 1's counts per (status, type) and per day: what a data seed keeps.
    fn shape(store: &Store) -> (Vec<(String, usize)>, Vec<i64>) {
        let state = store.agents[0].state();
        let mut counts = std::collections::BTreeMap::new();
        for o in &state.orders {
            let key = match o.status {
                P2PPaymentStatus::Completed => format!("{:?} {:?}", o.status, o.payment_type),
                other => format!("{other:?}"),
            };
            *counts.entry(key).or_insert(0) += 1;
        }
        let mut days: Vec<i64> = state
            .orders
            .iter()
            .map(|o| o.created_secs.div_euclid(86_400))
            .collect();
        days.sort_unstable();
        (counts.into_iter().collect(), days)
    }

    #[test]
    fn a_data_seed_is_deterministic_and_keeps_the_shape() {
        let clock = || crate::clock::Clock::manual(0);
        let (a, b) = (
            Store::seeded_with(clock(), 7),
            Store::seeded_with(clock(), 7),
        );
        let default = Store::seeded();
        for (i, count) in AGENT_ORDER_COUNTS.into_iter().enumerate() {
            let (sa, sb) = (a.agents[i].state(), b.agents[i].state());
            assert_eq!(
                format!("{:?}", sa.profile),
                format!("{:?}", sb.profile),
                "agent {i}"
            );
            assert!(json(&sa.orders) == json(&sb.orders), "agent {i}'s orders");
            assert_eq!(sa.orders.len(), count);
            let pd = &default.agents[i].state().profile;
            assert_eq!(sa.profile.id, pd.id);
            assert_eq!(sa.profile.deposits_completed, pd.deposits_completed);
            assert_eq!(sa.profile.withdrawals_completed, pd.withdrawals_completed);
            assert_eq!(
                json(&sa.profile.total_deposit_usd_amount),
                json(&pd.total_deposit_usd_amount)
            );
        }
        let (counts, days) = shape(&a);
        let (default_counts, default_days) = shape(&default);
        assert_eq!(counts, default_counts);
        assert!(days == default_days, "the same days");
        assert_eq!(
            json(&a.create_pending_order(0, None, 0)),
            json(&b.create_pending_order(0, None, 0))
        );
        // reset goes back to the store's own seed.
        a.reset(None);
        let again = Store::seeded_with(clock(), 7);
        assert!(json(&a.agents[0].state().orders) == json(&again.agents[0].state().orders));
    }

    #[test]
    fn another_data_seed_gives_other_ids_amounts_and_emails() {
        let clock = || crate::clock::Clock::manual(0);
        let stores = [
            Store::seeded(),
            Store::seeded_with(clock(), 7),
            Store::seeded_with(clock(), 8),
        ];
        let first = |s: &Store| s.agents[0].state().orders[0].clone();
        let email = |s: &Store, i: usize| s.agents[i].state().profile.email.clone();
        assert_eq!(
            first(&stores[0]).id.0,
            "p2p_001599",
            "the default data's ids"
        );
        assert_eq!(
            email(&stores[0], 0).as_deref(),
            Some("amara.okafor@example.com")
        );
        assert_eq!(first(&stores[1]).id.0.len(), "p2p_001600".len() + 4);
        for (x, y) in [(0, 1), (0, 2), (1, 2)] {
            let (a, b) = (&stores[x], &stores[y]);
            assert_ne!(first(a).id, first(b).id, "seeds {x} and {y}");
            assert_ne!(
                json(&first(a).amount_usd),
                json(&first(b).amount_usd),
                "seeds {x} and {y}"
            );
            assert!(json(&a.agents[1].state().orders) != json(&b.agents[1].state().orders));
            assert!(
                (0..3).any(|i| email(a, i) != email(b, i)),
                "seeds {x} and {y}"
            );
        }
        let ids = stores
            .each_ref()
            .map(|s| s.create_pending_order(0, None, 0).id.0);
        assert_eq!(ids[0], "p2p_n000001");
        assert!(
            ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2],
            "{ids:?}"
        );
    }

    #[test]
    fn generation_is_deterministic() {
        let a = Store::seeded();
        let b = Store::seeded();
        let ja = serde_json::to_string(&a.agents[0].state().orders).unwrap();
        let jb = serde_json::to_string(&b.agents[0].state().orders).unwrap();
        assert_eq!(ja, jb);
    }
}
