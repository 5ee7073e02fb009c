//! Argument and result types of the Rust API.
//!
//! The result structs are what a `*_json` result converts into with [`from_json`]. Every
//! field is optional: the caller chooses the selection (`fields`), and the service may omit
//! or add fields. Decimals are strings, as the service sends them. Fields outside the
//! default selection (e.g. TOTP settings) are read from the `*_json` results instead.
//!
//! The TypeScript declarations of the options and results are derived from these types
//! (`#[derive(Tsify)]`, declaration only). Where the JavaScript shape differs from the Rust
//! one (a field the default selection always has, an `AbortSignal`, a `Date`), a `#[tsify]`
//! attribute on the field says so, so a renamed field renames the TypeScript member too.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
#[cfg(feature = "typescript")]
use tsify::{declare, Tsify};

use crate::error::Error;
use crate::json::Json;
use crate::transport::Signal;

/// Options of calls that select fields (`profile`, `withdrawalInfo` and the merchant reads).
/// Every name must match `/^[_A-Za-z][_0-9A-Za-z]*$/` (checked before sending); an empty
/// list is refused.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
pub struct FieldOptions {
    /// Field names to select instead of the default; dotted paths (at most 16 names) select nested fields (`"totp.enabled"`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call at once (code `aborted`); never retried.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `profile`.
#[cfg_attr(feature = "typescript", declare)]
pub type ProfileOptions = FieldOptions;
/// Options of `withdrawalInfo`.
#[cfg_attr(feature = "typescript", declare)]
pub type WithdrawalInfoOptions = FieldOptions;
/// Options of `reconcile`: `P2PPayment` fields to select instead of the default (`id` is
/// always added), `signal`.
#[cfg_attr(feature = "typescript", declare)]
pub type ReconcileOptions = FieldOptions;
/// Options of every `MerchantClient` call: `fields` to select instead of the default, `signal`.
#[cfg_attr(feature = "typescript", declare)]
pub type MerchantCallOptions = FieldOptions;

/// Options every call accepts (`request`).
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", tsify(rename = "RequestOptions"))]
pub struct CallOptions {
    /// Cancels the call at once (code `aborted`); never retried.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// The service's `OrderHistoryFilter`: narrows the order history; every member given applies.
#[derive(Clone, Default, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct OrderHistoryFilter {
    /// Exact order id (non-empty).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_id: Option<String>,
    /// A `P2PPaymentStatus` name, e.g. `"completed"`; unknown names are passed through.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "P2PPaymentStatus"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// First day included: `YYYY-MM-DD`, or (from JavaScript) a Date (its UTC date).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | Date"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_from: Option<String>,
    /// Last day included: `YYYY-MM-DD`, or (from JavaScript) a Date (its UTC date); not
    /// before `dateFrom`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | Date"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_to: Option<String>,
    /// Payment method (non-empty).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<String>,
}

impl OrderHistoryFilter {
    /// Whether no member is set.
    pub fn is_empty(&self) -> bool {
        self.order_id.is_none()
            && self.status.is_none()
            && self.date_from.is_none()
            && self.date_to.is_none()
            && self.payment_method.is_none()
    }
}

/// Options of `orderHistory()` (the arguments of `order_history` in Rust). Refused before
/// sending (`invalid_input`, `field` naming the argument): `page`/`perPage` not integers ≥ 1,
/// a date that is not a real `YYYY-MM-DD` calendar date, `dateFrom` after `dateTo`, a status
/// that is not an enum name, an empty `orderId`/`paymentMethod`, an unknown filter key. The
/// default row selection includes `paymentMethod`, `amountLocal`, `amountUsd` and `currency`,
/// which the service may lack: pass `fields` if it refuses them.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "OrderHistoryOptions"))]
pub struct OrderHistoryArgs {
    /// Page number, an integer ≥ 1.
    pub page: i64,
    /// Rows per page (integer ≥ 1; the service's default is 10; no upper cap is invented here).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub per_page: Option<i64>,
    /// Narrows the result.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub filter: OrderHistoryFilter,
    /// `P2PPayment` fields to select instead of the default; dotted paths (at most 16 names) select nested fields.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call at once (code `aborted`); never retried.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `orders()`: every matching order, page by page, as an async iterable. The next page is fetched only when needed; iteration stops at
/// `pagination.total` or an empty page, and is over after an error. Invalid options throw
/// at once from `orders()`.
// The JavaScript example, in the TypeScript declarations only.
#[cfg_attr(feature = "typescript", doc = "")]
#[cfg_attr(feature = "typescript", doc = " @example")]
#[cfg_attr(feature = "typescript", doc = " ```js")]
#[cfg_attr(
    feature = "typescript",
    doc = " for await (const order of bot.orders({ perPage: 100, filter: { status: \"paid\" } })) { … }"
)]
#[cfg_attr(feature = "typescript", doc = " ```")]
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "OrdersOptions"))]
pub struct OrdersArgs {
    /// Rows per page fetched (integer ≥ 1; the service's default is 10).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub per_page: Option<i64>,
    /// Narrows the result.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub filter: OrderHistoryFilter,
    /// `P2PPayment` fields to select instead of the default; dotted paths (at most 16 names) select nested fields.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels every page fetch at once (code `aborted`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `confirmTransaction()`: tell the service that the crypto a `crypto.requested`
/// event asked for was sent (public key). Sent once, never retried. Refused before sending
/// (`invalid_input`): an empty `paymentRequest`, a `transactionHash` of none of the accepted
/// shapes (`0x` and 64 hex digits for EVM chains, 64 hex digits for Tron, 43 to 88 base58
/// characters for Solana).
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "ConfirmTransactionOptions"))]
pub struct ConfirmTransactionArgs {
    /// The payment request's `id` (the `crypto.requested` payload's `paymentRequest.id`).
    pub payment_request: String,
    /// The hash of the transaction that sent the crypto.
    pub transaction_hash: String,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `confirmUntilSettled()`: `confirmTransaction` again and again until the
/// service reports the request settled, at most `maxTries` times, `intervalMs` apart (the
/// service's own mini-app: every 5 s, 10 tries).
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "ConfirmUntilSettledOptions"))]
pub struct ConfirmUntilSettledArgs {
    /// The payment request's `id` (the `crypto.requested` payload's `paymentRequest.id`).
    pub payment_request: String,
    /// The hash of the transaction that sent the crypto.
    pub transaction_hash: String,
    /// The wait between two confirmations, in ms (0 to 600000; default 5000).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub interval_ms: Option<i64>,
    /// The most confirmations sent (1 to 100; default 10).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub max_tries: Option<i64>,
    /// Stops it: `aborted` while waiting or before a confirmation is sent, `outcome_unknown`
    /// while one is out.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `initiateHostedPayment()` (secret key, on a server): a hosted payment page for
/// a customer. Sent once, never retried. `reference` is your idempotency key: after
/// `outcome_unknown`, read the payment back with `paymentRequest(reference)` instead of
/// creating a second one. Refused before sending (`invalid_input`, naming the option): an
/// `amount` that is not non-negative decimal text, a `currency` other than `usd` /
/// `local_currency`, a `countryCode` that is not 2 letters, an `email` not shaped as one, a `paymentType` other
/// than `deposit` / `withdrawal`, a blank `reference`, `firstName` or `lastName`, a
/// `redirectUrl` that is not absolute http(s), a `metadata` that is not a plain object.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "InitiateHostedPaymentOptions"))]
pub struct InitiateHostedPaymentArgs {
    /// The amount, decimal text such as `"25000.00"` (never a float).
    pub amount: String,
    /// The currency `amount` is in: `"usd"` (the service's default) or `"local_currency"` (the
    /// service's enum `P2PPaymentCurrency`; sent exactly as given).
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "\"usd\" | \"local_currency\"")
    )]
    pub currency: Option<String>,
    /// ISO 3166-1 alpha-2 code of the customer's country (sent upper-case).
    pub country_code: String,
    /// The customer's email address.
    pub email: String,
    /// `"deposit"` or `"withdrawal"`.
    #[cfg_attr(feature = "typescript", tsify(type = "\"deposit\" | \"withdrawal\""))]
    pub payment_type: String,
    /// Your own identifier of the payment, and its idempotency key (sent exactly as given).
    pub reference: String,
    /// The customer's first name.
    pub first_name: String,
    /// The customer's last name.
    pub last_name: String,
    /// Where the hosted page sends the customer afterwards: an absolute http(s) URL.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub redirect_url: Option<String>,
    /// Your own data, kept with the payment: a plain object that JSON can represent.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "{ readonly [key: string]: unknown }")
    )]
    pub metadata: Option<Json>,
    /// `MerchantPaymentRequest` fields to select instead of `id hostedLink status`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `withdrawOnchain()` (secret key, on a server): send USD stablecoins from the
/// merchant's balance to `address`. Sent once, never retried (a lost answer is
/// `outcome_unknown`: check the balance with `account()` before trying again). Refused before
/// sending (`invalid_input`): a blank `address` or `network`, an `amountUsd` that is not
/// non-negative decimal text, a `metadata` that is not a plain object.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "WithdrawOnchainOptions"))]
pub struct WithdrawOnchainArgs {
    /// The destination address (trimmed).
    pub address: String,
    /// The amount in USD, decimal text such as `"150.00"`.
    pub amount_usd: String,
    /// The network, e.g. `"CELO"` (trimmed; the service's default when absent).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub network: Option<String>,
    /// Your own data, kept with the withdrawal: a plain object that JSON can represent.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "{ readonly [key: string]: unknown }")
    )]
    pub metadata: Option<Json>,
    /// `OnchainWithdrawal` fields to select instead of `id status`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// One value of a payment method type's field (`P2PPaymentMethodFieldInput`): the field's
/// `identifier` (from `paymentMethodTypes()`) and its value for this customer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodFieldInput {
    /// The field's `identifier`, e.g. `"accountNumber"` (sent trimmed).
    pub identifier: String,
    /// Its value, e.g. `"0123456789"` (sent as given; not blank).
    pub value: String,
}

/// Options of `rampQuote()` (secret key, on a server): the rate `customer` gets for `amount` of
/// `currency`, by `paymentMethodType`, valid 30 to 180 seconds. A read: retried like every
/// query. Refused before sending (`invalid_input`, naming the option): a blank `customer` or
/// `paymentMethodType`, an `amount` that is not non-negative decimal text, a `currency` other
/// than `usd` / `local_currency`, a `paymentType` other than `deposit` / `withdrawal`, a
/// `country` that is not 2 letters.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "RampQuoteOptions"))]
pub struct RampQuoteArgs {
    /// The customer's `id` (from `createCustomer()`).
    pub customer: String,
    /// The amount, decimal text such as `"25000.00"`, in `currency`.
    pub amount: String,
    /// The currency `amount` is in: `"usd"` or `"local_currency"` (the service's enum
    /// `P2PPaymentCurrency`; sent exactly as given).
    #[cfg_attr(feature = "typescript", tsify(type = "\"usd\" | \"local_currency\""))]
    pub currency: String,
    /// `"deposit"` (the service's default) or `"withdrawal"`.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "\"deposit\" | \"withdrawal\"")
    )]
    pub payment_type: Option<String>,
    /// The payment method type's `identifier`, e.g. `"bank_transfer"`.
    pub payment_method_type: String,
    /// ISO 3166-1 alpha-2 code of the customer's country (sent upper-case).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub country: Option<String>,
    /// `RampQuote` fields to select instead of `id exchangeRate paymentType`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call at once (code `aborted`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `refreshRampQuote()` (secret key): the same quote at a fresh rate, valid
/// again. A read: retried like every query. Refused before sending: a blank `rampQuote`, an
/// `amount` that is not non-negative decimal text.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "RefreshRampQuoteOptions"))]
pub struct RefreshRampQuoteArgs {
    /// The quote's `id`.
    pub ramp_quote: String,
    /// A new amount (decimal text) in the quote's currency; the quote's own when absent.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub amount: Option<String>,
    /// `RampQuote` fields to select instead of `id exchangeRate paymentType`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call at once (code `aborted`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `createCustomer()` (secret key): a customer of the direct ramp. Sent once, never
/// retried (a lost answer is `outcome_unknown`). Refused before sending: an `email` not shaped
/// as one, a blank `firstName`, `lastName` or `country`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "CreateCustomerOptions"))]
pub struct CreateCustomerArgs {
    /// The customer's email address.
    pub email: String,
    /// The customer's first name (trimmed).
    pub first_name: String,
    /// The customer's last name (trimmed).
    pub last_name: String,
    /// The customer's country: a `Country.id` from `availableCountries()` (trimmed).
    pub country: String,
    /// `Customer` fields to select instead of `id email firstName lastName country { id
    /// name code }`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `addPaymentMethod()` (secret key): a customer's bank account or mobile-money
/// wallet. Sent once, never retried. Refused before sending: a blank `customer` or
/// `paymentMethodType`, a `fieldValues` that is not 1 to 32 `{ identifier, value }` with
/// neither blank (nor an identifier twice), an `ownership` other than `first_party` /
/// `third_party`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "AddPaymentMethodOptions"))]
pub struct AddPaymentMethodArgs {
    /// The customer's `id`.
    pub customer: String,
    /// The payment method type's `identifier`, e.g. `"bank_transfer"`.
    pub payment_method_type: String,
    /// The values of the type's fields (its `fields[].identifier`), sent as the
    /// `fields` argument.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "readonly PaymentMethodFieldInput[]")
    )]
    pub field_values: Vec<PaymentMethodFieldInput>,
    /// Whose account it is: `"first_party"` (the customer's own) or `"third_party"`.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "\"first_party\" | \"third_party\"")
    )]
    pub ownership: Option<String>,
    /// `CustomerPaymentMethod` fields to select instead of `id value fields { identifier
    /// value }`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `initiateRampQuoteDeposit()` (secret key): a deposit at a quote's rate. Sent
/// once, never retried: after `outcome_unknown`, do not start another deposit on the same
/// quote (the service refuses a used quote; get a new one). Refused before sending: a blank
/// `rampQuote`, `reference` or `bankAccountNumber`, a `phoneNumber` that is not 7 to 15
/// digits, an `onchainTransferInfo` that is not `{ address, cryptocurrency, network }` with
/// none blank.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(
    feature = "typescript",
    tsify(rename = "InitiateRampQuoteDepositOptions")
)]
pub struct InitiateRampQuoteDepositArgs {
    /// The quote's `id` (a `deposit` quote, not expired).
    pub ramp_quote: String,
    /// Your own identifier of the deposit (sent exactly as given).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// The customer's phone number (mobile money), e.g. `"+254712345678"`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub phone_number: Option<String>,
    /// The customer's bank account number (bank transfers; trimmed).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub bank_account_number: Option<String>,
    /// Where the stablecoins go onchain (the service's input `OnchainTransferInfo`).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub onchain_transfer_info: Option<OnchainTransferInfo>,
    /// `QuotePaymentRequest` fields to select instead of the default.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Where an onchain deposit's crypto goes (the service's input `OnchainTransferInfo`), e.g.
/// `{ address: "0x…", cryptocurrency: "usd_tether", network: "celo" }`. Each member is sent
/// exactly as given (never re-cased) and must not be blank.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct OnchainTransferInfo {
    /// The destination address, e.g. `"0x…"`.
    pub address: String,
    /// The coin, as the service names it, e.g. `"usd_tether"`.
    pub cryptocurrency: String,
    /// The network, as the service names it, e.g. `"celo"`.
    pub network: String,
}

/// Options of `initiateRampQuoteWithdrawal()` (secret key): a withdrawal at a quote's rate to
/// one of the customer's payment methods. Sent once, never retried. Refused before sending: a
/// blank `rampQuote`, `paymentMethod` or `reference`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(
    feature = "typescript",
    tsify(rename = "InitiateRampQuoteWithdrawalOptions")
)]
pub struct InitiateRampQuoteWithdrawalArgs {
    /// The quote's `id` (a `withdrawal` quote, not expired).
    pub ramp_quote: String,
    /// The customer's payment method `id` (from `addPaymentMethod()`).
    pub payment_method: String,
    /// Your own identifier of the withdrawal (sent exactly as given).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub reference: Option<String>,
    /// `QuotePaymentRequest` fields to select instead of the default.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `markDepositAsPaid()` (secret key): the customer paid the agent. Sent once,
/// never retried. Refused before sending: a blank `paymentRequest` or `receipt`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "MarkDepositAsPaidOptions"))]
pub struct MarkDepositAsPaidArgs {
    /// The deposit's `id`.
    pub payment_request: String,
    /// The payment's receipt: a URL or a reference (any text, not blank; sent as given).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub receipt: Option<String>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `merchantCustomers()` (secret key, on a server): one page of the merchant's
/// customers, after the cursor `after` (the previous page's `pageInfo.endCursor`; the first
/// page when absent). A read: retried like every query. Refused before sending: a blank
/// `after`. To walk every page, use `customers()`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "MerchantCustomersOptions"))]
pub struct MerchantCustomersArgs {
    /// The cursor the page starts after (sent exactly as given).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub after: Option<String>,
    /// `MerchantCustomer` fields to select instead of `id email firstName lastName`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call at once (code `aborted`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `customers()` (secret key, on a server): every customer of the merchant, page
/// by page (`merchantCustomers`, each page `after` the last one's `endCursor`), as an async
/// iterable. The next page is fetched only when needed; iteration stops when a page says
/// `hasNextPage: false`, comes back empty or repeats its cursor, and is over after an error.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "CustomersOptions"))]
pub struct CustomersArgs {
    /// `MerchantCustomer` fields to select instead of `id email firstName lastName`.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels every page fetch at once (code `aborted`).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `watchOrders()`: the first page of the order history, polled one request at a
/// time, as an async iterable of what changed. Invalid options throw at once from
/// `watchOrders()` (`invalid_input`, `field` naming the option).
///
/// @example
/// ```js
/// for await (const { rows, added } of bot.watchOrders({ filter: { status: "pending" } })) { … }
/// ```
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "WatchOrdersOptions"))]
pub struct WatchOrdersArgs {
    /// Narrows the rows watched, as in `orderHistory`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub filter: OrderHistoryFilter,
    /// Rows of the watched (first) page: an integer ≥ 1, default 25.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub per_page: Option<i64>,
    /// `P2PPayment` fields to select instead of the default; `id` and `status` are always
    /// selected (added when missing).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// The wait between the end of one poll and the start of the next, in ms: an integer
    /// from 1000 to 2147483647, default 10000.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub interval_ms: Option<i64>,
    /// The longest wait after failed polls (the backoff's cap), in ms: an integer from
    /// `intervalMs` to 2147483647, default 300000 (or `intervalMs` when that is longer).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub max_interval_ms: Option<i64>,
    /// In a page, send no poll while `document.visibilityState` is `"hidden"`, and poll at once
    /// when it is visible again (default `true`). Node and workers never pause.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub pause_when_hidden: Option<bool>,
    /// Aborting it ends the watch, as `stop()` does.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `markWithdrawalAsPaid()`: record that you paid a withdrawal you accepted
/// (`picked_up` → `paid`). Sent once, never retried. Refused before sending
/// (`invalid_input`): an empty `p2pPayment`, `paymentMethod` or `receipt`.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "MarkWithdrawalAsPaidOptions"))]
pub struct MarkWithdrawalAsPaidArgs {
    /// The order's `id` (not its `orderId`).
    pub p2p_payment: String,
    /// The `id` of the payment method you paid from.
    pub payment_method: String,
    /// The receipt: a URL or a reference (any text, not blank; sent as given).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub receipt: Option<String>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `updateRates()`: the members given are set, the others left alone; at least
/// one. Each is decimal text such as `"1540.00"` (not a number: no float, no exponent) and
/// not negative. Sent once, never retried.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "typescript", tsify(rename = "UpdateRatesOptions"))]
pub struct UpdateRatesArgs {
    /// Local currency per USD for deposits.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub deposit_rate: Option<String>,
    /// Deposit margin (percent).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub deposit_margin: Option<String>,
    /// Local currency per USD for withdrawals.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub withdrawal_rate: Option<String>,
    /// Withdrawal margin (percent).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub withdrawal_margin: Option<String>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

/// Options of `updatePaymentMethodLiquidity()`: sets the local currency available on one of
/// your payment methods, named by exactly one of `paymentMethod` (its id) and
/// `paymentMethodType` (e.g. `"mpesa"`). `amountLocal` is non-negative decimal text. Sent
/// once, never retried.
#[derive(Clone, Default)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[cfg_attr(feature = "typescript", serde(rename_all = "camelCase"))]
#[cfg_attr(
    feature = "typescript",
    tsify(rename = "UpdatePaymentMethodLiquidityOptions")
)]
pub struct UpdateLiquidityArgs {
    /// The payment method's `id`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub payment_method: Option<String>,
    /// The payment method's type, e.g. `"mpesa"`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    pub payment_method_type: Option<String>,
    /// The amount available, in the method's local currency, e.g. `"250000.00"`.
    pub amount_local: String,
    /// `P2PPaymentMethod` fields to select instead of the default.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "readonly string[]"))]
    pub fields: Option<Vec<String>>,
    /// Cancels the call: `aborted` before it was sent, `outcome_unknown` after.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "AbortSignal"))]
    pub signal: Option<Signal>,
}

// The result types below: the service's values, whole. In JavaScript the results are the
// parsed response objects, so their declarations say what JavaScript sees: members the
// default selection always has are required (`#[tsify(type = …)]`), the others optional and
// nullable (`#[serde(default)]`, `null` as the service sends it: `missing_as_null`). For
// Rust, `#[serde(default)]` on an `Option` changes nothing: a missing `Option` is `None`.

/// The agent's profile. Decimals are strings. The default selection is every member below;
/// with `fields`, only the chosen ones are present.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
#[allow(missing_docs)]
pub struct AgentProfile {
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub account_balance: Option<String>,
    #[serde(default)]
    pub escrow_balance: Option<String>,
    #[serde(default)]
    pub bonus_earnings: Option<String>,
    #[serde(default)]
    pub deposit_address: Option<String>,
    #[serde(default)]
    pub verification_status: Option<String>,
    #[serde(default)]
    pub auto_update_deposit_rate: Option<bool>,
    #[serde(default)]
    pub auto_update_withdrawal_rate: Option<bool>,
    #[serde(default)]
    pub credit_line: Option<String>,
    #[serde(default)]
    pub used_credit_line: Option<String>,
    #[serde(default)]
    pub deposit_margin: Option<String>,
    #[serde(default)]
    pub withdrawal_margin: Option<String>,
    #[serde(default)]
    pub average_deposit_rate: Option<String>,
    #[serde(default)]
    pub average_withdrawal_rate: Option<String>,
    #[serde(default)]
    pub deposits_completed: Option<i64>,
    #[serde(default)]
    pub withdrawals_completed: Option<i64>,
    #[serde(default)]
    pub total_deposit_fiat_amount: Option<String>,
    #[serde(default)]
    pub total_deposit_usd_amount: Option<String>,
    #[serde(default)]
    pub total_withdrawal_fiat_amount: Option<String>,
    #[serde(default)]
    pub total_withdrawal_usd_amount: Option<String>,
    #[serde(default)]
    pub enforce_receipt_upload: Option<bool>,
}

/// One P2P payment (order). Decimals are strings. The default selection is the first 16
/// members: the fields the service's sources show. The last four are the sandbox's own
/// (`paymentMethod amountLocal amountUsd currency`): select them with `fields` where the
/// service has them.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
#[allow(missing_docs)]
pub struct P2PPayment {
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// `pending` or `completed` (the values the sources show), or any other (the sandbox's
    /// `picked_up`, `paid`, `canceled`): passed through as text.
    #[cfg_attr(feature = "typescript", tsify(type = "P2PPaymentStatus"))]
    pub status: Option<String>,
    /// `deposit` or `withdrawal`, or a value unknown today.
    #[cfg_attr(
        feature = "typescript",
        tsify(optional, type = "\"deposit\" | \"withdrawal\" | (string & {})")
    )]
    pub payment_type: Option<String>,
    #[serde(default)]
    pub exchange_rate: Option<String>,
    #[serde(default)]
    pub exchange_rate_minus_surcharge: Option<String>,
    #[serde(default)]
    pub order_id: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub instant: Option<bool>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub expires_at: Option<String>,
    #[serde(default)]
    pub expires_at_secs: Option<i64>,
    #[serde(default)]
    pub reassigning: Option<bool>,
    #[serde(default)]
    pub reassign_after: Option<String>,
    #[serde(default)]
    pub reassign_after_secs: Option<i64>,
    #[serde(default)]
    pub agent_cut_of_fees: Option<String>,
    #[serde(default)]
    pub fx_spread_revenue: Option<String>,
    /// Not in the service's sources (the sandbox's own): present only when named in
    /// `fields`, where the service has it.
    #[serde(default)]
    pub payment_method: Option<String>,
    /// Not in the service's sources (the sandbox's own): present only when named in
    /// `fields`, where the service has it.
    #[serde(default)]
    pub amount_local: Option<String>,
    /// Not in the service's sources (the sandbox's own): present only when named in
    /// `fields`, where the service has it.
    #[serde(default)]
    pub amount_usd: Option<String>,
    /// Not in the service's sources (the sandbox's own): present only when named in
    /// `fields`, where the service has it.
    #[serde(default)]
    pub currency: Option<String>,
}

/// Page information of an order-history page.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    /// This page's number.
    pub page: i64,
    /// Rows per page.
    pub per_page: i64,
    /// Rows matching the filter, over all pages.
    pub total: i64,
}

/// One page of the order history.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
pub struct OrderHistoryPage {
    /// The rows.
    pub data: Vec<P2PPayment>,
    /// Page information.
    pub pagination: Pagination,
}

/// How to withdraw one coin.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
pub struct WithdrawalInfo {
    /// e.g. `"USDC"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub symbol: Option<String>,
    /// Display name (the documentation shows it; not in the default selection: ask for it
    /// with `fields`).
    #[serde(default)]
    pub name: Option<String>,
    /// Icon URL (as `name`: asked for with `fields`).
    #[serde(default)]
    pub icon: Option<String>,
    /// Networks it can be withdrawn on.
    #[cfg_attr(feature = "typescript", tsify(type = "string[]"))]
    pub networks: Option<Vec<String>>,
    /// Pattern a destination address must match.
    #[serde(default)]
    pub address_regex: Option<String>,
    /// Pattern a memo must match.
    #[serde(default)]
    pub memo_regex: Option<String>,
}

/// One of the agent's payment methods, as `updatePaymentMethodLiquidity` returns it.
/// Decimals are strings.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
pub struct P2PPaymentMethod {
    /// The id (what `paymentMethod` arguments take).
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// The account number, phone number, … it pays from.
    #[serde(default)]
    pub value: Option<String>,
    /// `value` for display.
    #[serde(default)]
    pub display_value: Option<String>,
    /// Local currency available (decimal text).
    #[serde(default)]
    pub local_currency_available: Option<String>,
    /// Whether it was deleted.
    #[serde(default)]
    pub deleted: Option<bool>,
    /// Who owns the account.
    #[serde(default)]
    pub ownership: Option<String>,
    /// What it is used for.
    #[serde(default)]
    pub designation: Option<String>,
    /// Whether payments through it are instant.
    #[serde(default)]
    pub instant: Option<bool>,
}

/// The merchant account (`account`; needs the secret key). Money is decimal text: see
/// `parseAmount`.
// In Rust: `crate::amount::parse_amount`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
pub struct Account {
    /// The account id.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// Two decimals, e.g. `"1520.00"`.
    #[serde(default)]
    pub account_balance: Option<String>,
    /// The deposit address.
    #[serde(default)]
    pub deposit_address: Option<String>,
}

/// A country's currency.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Currency {
    /// ISO 4217, e.g. `"NGN"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub iso_code: Option<String>,
    /// Display name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub name: Option<String>,
}

/// A country the service operates in (`availableCountries`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Country {
    /// What `paymentMethodTypes` takes.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// Display name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub name: Option<String>,
    /// ISO 3166-1 alpha-2, e.g. `"NG"` (what `marketRate` takes).
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub code: Option<String>,
    /// Its currency.
    #[cfg_attr(feature = "typescript", tsify(type = "Currency"))]
    pub currency: Option<Currency>,
}

/// One field a payment method asks for.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodField {
    /// Display label.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub label: Option<String>,
    /// Machine name, e.g. `"account_number"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub identifier: Option<String>,
    /// Whether it must be filled in.
    #[cfg_attr(feature = "typescript", tsify(type = "boolean"))]
    pub required: Option<bool>,
}

/// A P2P payment method of a country (`p2pPaymentMethodTypes`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodType {
    /// The id.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// Machine name, e.g. `"mpesa"`, `"bank_transfer"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub identifier: Option<String>,
    /// Display label.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub label: Option<String>,
    /// The fields it asks for.
    #[cfg_attr(feature = "typescript", tsify(type = "PaymentMethodField[]"))]
    pub fields: Option<Vec<PaymentMethodField>>,
}

/// Indicative rates, local currency per USD (decimal text).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MarketRate {
    /// Rate for deposits.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub deposit_rate: Option<String>,
    /// Rate for withdrawals.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub withdrawal_rate: Option<String>,
}

/// Ramp limits in USD (decimal text).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct RampLimits {
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub minimum_deposit_usd: Option<String>,
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub maximum_deposit_usd: Option<String>,
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub minimum_withdrawal_usd: Option<String>,
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub maximum_withdrawal_usd: Option<String>,
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub daily_limit_usd: Option<String>,
}

/// An asset the onchain ramp handles.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", tsify(missing_as_null))]
pub struct RampableAsset {
    /// Display name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub name: Option<String>,
    /// e.g. `"USDC"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub symbol: Option<String>,
    /// e.g. `["CELO", "BASE"]`.
    #[cfg_attr(feature = "typescript", tsify(type = "string[]"))]
    pub networks: Option<Vec<String>>,
    /// The token contract, when there is one: text, or (as the official Node SDK types it)
    /// an object of addresses by network; kept as the service sends it.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "string | { readonly [network: string]: string } | null")
    )]
    #[serde(default)]
    pub contract_address: Option<serde_json::Value>,
}

/// An onchain withdrawal from the merchant's balance: what `withdrawOnchain` answers (`id
/// status` by default) and what `onchainWithdrawal(id)` reads back (`quantity symbol network
/// address txhash txhashUrl fee status createdAt` by default).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct OnchainWithdrawal {
    /// The id (`withdrawOnchain`'s answer; what `onchainWithdrawal` takes).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub id: Option<String>,
    /// `pending`, then `completed` or `failed` (`canceled` in webhooks), or a value unknown
    /// today.
    #[cfg_attr(feature = "typescript", tsify(type = "OnchainWithdrawalStatus"))]
    pub status: Option<String>,
    /// How much was sent, decimal text.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub quantity: Option<String>,
    /// The coin sent, e.g. `USDC`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub symbol: Option<String>,
    /// The network, e.g. `CELO`.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub network: Option<String>,
    /// The destination address.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub address: Option<String>,
    /// The transaction's hash, once it is sent (`null` before).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub txhash: Option<String>,
    /// A block explorer's page of the transaction (`null` before it is sent).
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub txhash_url: Option<String>,
    /// The network fee, decimal text.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub fee: Option<String>,
    /// When it was made, ISO 8601.
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub created_at: Option<String>,
    /// The amount in USD, decimal text (a field of the sandbox's own, not in the service's
    /// sources: select it with `fields` only where it exists).
    #[cfg_attr(feature = "typescript", tsify(optional))]
    #[serde(default)]
    pub amount_usd: Option<String>,
}

/// One of the merchant's customers (`merchantCustomer`, `merchantCustomers`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MerchantCustomer {
    /// The id: what quotes, payment methods and virtual bank accounts take.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// The email address.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub email: Option<String>,
    /// First name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub first_name: Option<String>,
    /// Last name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub last_name: Option<String>,
}

/// Where a cursor connection's page ends, and whether another follows.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PageInfo {
    /// The cursor to pass as `after` for the next page; `null` on an empty page.
    #[cfg_attr(feature = "typescript", tsify(type = "string | null"))]
    pub end_cursor: Option<String>,
    /// Whether a page follows this one.
    pub has_next_page: bool,
}

/// One page of the merchant's customers (`merchantCustomers`): the connection's `nodes` and
/// its `pageInfo`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MerchantCustomerPage {
    /// This page's customers (`null` from the service reads as none).
    #[serde(deserialize_with = "null_as_empty")]
    #[cfg_attr(feature = "typescript", tsify(type = "MerchantCustomer[] | null"))]
    pub nodes: Vec<MerchantCustomer>,
    /// Where it ends, and whether another follows.
    pub page_info: PageInfo,
}

/// A customer's USD virtual bank account: what `requestVirtualBankAccount` answers (`id
/// status` by default) and what `virtualBankAccount(id)` reads (every member by default).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct VirtualBankAccount {
    /// The id: what `virtualBankAccount` takes.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// The account's status, as the service names it (not documented: passed through).
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub status: Option<String>,
    /// The name on the account.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub account_name: Option<String>,
    /// The account number.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub account_number: Option<String>,
    /// The bank's name.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub bank_name: Option<String>,
    /// The bank's address: city.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub city: Option<String>,
    /// The bank's address: country.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub country: Option<String>,
    /// The bank's address: first line.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub line1: Option<String>,
    /// The bank's address: postal code.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub postal_code: Option<String>,
    /// The bank's address: state.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub state: Option<String>,
    /// The ABA routing number.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub routing_number: Option<String>,
    /// When it was requested, ISO 8601.
    #[cfg_attr(feature = "typescript", tsify(optional, type = "string | null"))]
    #[serde(default)]
    pub created_at: Option<String>,
}

/// A direct-ramp quote (`rampQuote`, `refreshRampQuote`), valid 30 to 180 seconds (the
/// service shows no expiry field).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct RampQuote {
    /// The id: what the deposit and withdrawal take.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// Local currency per USD, decimal text.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub exchange_rate: Option<String>,
    /// `deposit` or `withdrawal`, or a value unknown today.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "\"deposit\" | \"withdrawal\" | (string & {})")
    )]
    pub payment_type: Option<String>,
}

/// A customer of the direct ramp (`createCustomer`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    /// The id: what quotes and payment methods take.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// The email address.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub email: Option<String>,
    /// First name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub first_name: Option<String>,
    /// Last name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub last_name: Option<String>,
    /// The customer's country (`{ id name code }` by default).
    #[cfg_attr(feature = "typescript", tsify(type = "CustomerCountry"))]
    pub country: Option<CustomerCountry>,
}

/// A customer's country, as `createCustomer` selects it (`country { id name code }`): a
/// [`Country`] without the currency, which that selection does not ask for.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CustomerCountry {
    /// The country's id (what `createCustomer` takes as `country`).
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// Display name.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub name: Option<String>,
    /// ISO 3166-1 alpha-2, e.g. `"NG"`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub code: Option<String>,
}

/// A customer's payment method (`addPaymentMethod`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct CustomerPaymentMethod {
    /// The id: what `initiateRampQuoteWithdrawal` takes.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// The account or phone number it pays to.
    #[cfg_attr(feature = "typescript", tsify(type = "string | null"))]
    pub value: Option<String>,
    /// The values of the type's fields, as the service keeps them.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "PaymentMethodFieldValue[] | null")
    )]
    pub fields: Option<Vec<PaymentMethodFieldValue>>,
}

/// One field's value of a customer's payment method (`addPaymentMethod`'s `fields`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodFieldValue {
    /// The field's `identifier`.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub identifier: Option<String>,
    /// Its value.
    #[cfg_attr(feature = "typescript", tsify(type = "string | null"))]
    pub value: Option<String>,
}

/// A direct-ramp deposit or withdrawal (`initiateRampQuoteDeposit`,
/// `initiateRampQuoteWithdrawal`): a deposit `pending` → `paid` → `completed` or `canceled`;
/// a withdrawal starts `picked_up` → `completed` or `canceled`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct QuotePaymentRequest {
    /// The id: what the mark and cancel mutations take.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// `pending`, `paid`, `picked_up`, `completed`, `canceled` (or `cancelled`), or a value
    /// unknown today.
    #[cfg_attr(feature = "typescript", tsify(type = "QuotePaymentRequestStatus"))]
    pub status: Option<String>,
    /// The agent who took it; `null` until one does.
    #[cfg_attr(feature = "typescript", tsify(type = "string | null"))]
    pub agent: Option<String>,
    /// How to pay (a deposit: the agent's account) or what is paid (a withdrawal): an object.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "{ readonly [key: string]: unknown } | null")
    )]
    pub payment_details: Option<serde_json::Value>,
    /// Local currency per USD, decimal text.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub exchange_rate: Option<String>,
    /// Decimal text, in the local currency.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub amount_local: Option<String>,
    /// Decimal text, in USD.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub amount_usd: Option<String>,
    /// When an unpaid deposit lapses, ISO 8601 (the Node SDK selects it for deposits only).
    #[cfg_attr(feature = "typescript", tsify(type = "string | null"))]
    pub expires_at: Option<String>,
}

/// A merchant payment request (`merchantPaymentRequest`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "typescript", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequest {
    /// The id.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub id: Option<String>,
    /// `deposit` or `withdrawal`, or a value unknown today.
    #[cfg_attr(
        feature = "typescript",
        tsify(type = "\"deposit\" | \"withdrawal\" | (string & {})")
    )]
    pub payment_type: Option<String>,
    /// The hosted page of this request.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub hosted_link: Option<String>,
    /// Decimal text.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub amount: Option<String>,
    /// The amount's currency, as the service writes it (its type is not shown).
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub currency: Option<String>,
    /// The merchant's reference.
    #[cfg_attr(feature = "typescript", tsify(type = "string"))]
    pub reference: Option<String>,
    /// `created`, `picked_up`, `completed`, `canceled` (one SDK spells it `cancelled`), or a
    /// value unknown today.
    #[cfg_attr(feature = "typescript", tsify(type = "PaymentRequestStatus"))]
    pub status: Option<String>,
}

// What tsify cannot derive. Open unions: the service may add statuses, so any string is
// admitted while the known ones are still offered (`string & {}`), and they are statuses as
// strings, not Rust enums. Index signatures: every result keeps the members the caller
// selects with `fields` beyond the known ones (merged into the derived interfaces). And the
// variables object.
#[cfg(feature = "typescript")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const OPEN_TYPES_TS: &'static str = r#"
/** A P2P payment status: the service's sources show `pending` and `completed`; the sandbox also uses `picked_up`, `paid` and `canceled`. Unknown values pass through. */
export type P2PPaymentStatus = "pending" | "picked_up" | "paid" | "completed" | "canceled" | "cancelled" | (string & {});

/** A hosted payment request's status: `created → picked_up → completed | canceled` (one source spells it `cancelled`). Unknown values pass through. */
export type PaymentRequestStatus = "created" | "picked_up" | "completed" | "canceled" | "cancelled" | (string & {});

/** A direct-ramp deposit's (`pending → paid → completed | canceled`) or withdrawal's (`picked_up → completed | canceled`) status. Unknown values pass through. */
export type QuotePaymentRequestStatus = "pending" | "paid" | "picked_up" | "completed" | "canceled" | "cancelled" | (string & {});

/** An onchain withdrawal's status: `pending → completed | failed` (`canceled` in webhooks). Unknown values pass through. */
export type OnchainWithdrawalStatus = "pending" | "completed" | "failed" | "canceled" | "cancelled" | (string & {});

/** Variables of a `request` document. */
export type GraphQLVariables = { [name: string]: unknown };

export interface AgentProfile { [field: string]: unknown }
export interface P2PPayment { [field: string]: unknown }
export interface WithdrawalInfo { [field: string]: unknown }
export interface P2PPaymentMethod { [field: string]: unknown }
export interface Account { [field: string]: unknown }
export interface Country { [field: string]: unknown }
export interface PaymentMethodType { [field: string]: unknown }
export interface MarketRate { [field: string]: unknown }
export interface RampLimits { [field: string]: unknown }
export interface RampableAsset { [field: string]: unknown }
export interface PaymentRequest { [field: string]: unknown }
export interface RampQuote { [field: string]: unknown }
export interface Customer { [field: string]: unknown }
export interface CustomerPaymentMethod { [field: string]: unknown }
export interface OnchainWithdrawal { [field: string]: unknown }
export interface QuotePaymentRequest { [field: string]: unknown }
export interface MerchantCustomer { [field: string]: unknown }
export interface VirtualBankAccount { [field: string]: unknown }
"#;

/// A list the service may send as `null`: empty then.
fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// The decimal fields of the result types: the service sends a `Decimal` as text
/// (`"1520.00"`) or, as its sources show too, as a JSON number (`1520`, `159.5`). The Rust API
/// hands out text either way ([`from_json`] turns such a number into its shortest decimal
/// text first); JavaScript gets the parsed values as they came.
pub const DECIMAL_FIELDS: &[&str] = &[
    "accountBalance",
    "escrowBalance",
    "bonusEarnings",
    "creditLine",
    "usedCreditLine",
    "depositMargin",
    "withdrawalMargin",
    "averageDepositRate",
    "averageWithdrawalRate",
    "totalDepositFiatAmount",
    "totalDepositUsdAmount",
    "totalWithdrawalFiatAmount",
    "totalWithdrawalUsdAmount",
    "exchangeRate",
    "exchangeRateMinusSurcharge",
    "agentCutOfFees",
    "fxSpreadRevenue",
    "amountLocal",
    "amountUsd",
    "localCurrencyAvailable",
    "depositRate",
    "withdrawalRate",
    "minimumDepositUsd",
    "maximumDepositUsd",
    "minimumWithdrawalUsd",
    "maximumWithdrawalUsd",
    "dailyLimitUsd",
    "amount",
    "quantity",
    "fee",
];

/// The `JSON` fields of the result types: kept as the service sent them.
const JSON_FIELDS: &[&str] = &["paymentDetails", "metadata", "contractAddress"];

/// Every member of an object (at any depth, but not inside a [`JSON_FIELDS`] value) named in
/// [`DECIMAL_FIELDS`] whose value is a JSON number becomes that number's decimal text.
fn decimals_as_text(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(members) => {
            for (key, member) in members.iter_mut() {
                if let serde_json::Value::Number(n) = member {
                    if DECIMAL_FIELDS.contains(&key.as_str()) {
                        *member = serde_json::Value::String(n.to_string());
                    }
                } else if !JSON_FIELDS.contains(&key.as_str()) {
                    decimals_as_text(member);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(decimals_as_text),
        _ => {}
    }
}

/// Converts a decoded result into a typed one (`decode` error when it does not fit).
/// A `Decimal` may arrive as a number: see [`DECIMAL_FIELDS`].
pub fn from_json<T: DeserializeOwned>(value: &Json, status: u16) -> Result<T, Error> {
    let mut value = crate::json::to_value(value, status)?;
    decimals_as_text(&mut value);
    serde_json::from_value(value)
        .map_err(|_| Error::decode(status, "The response did not have the expected types."))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use serde_json::json;

    /// The members of a derived TypeScript interface, in order (`name` or `name?`).
    #[cfg(feature = "typescript")]
    fn members(decl: &str) -> Vec<&str> {
        decl.lines()
            .filter_map(|l| l.strip_prefix("    ")?.split_once(": ").map(|(k, _)| k))
            .filter(|k| k.starts_with(|c: char| c.is_ascii_alphabetic()))
            .collect()
    }

    #[test]
    #[cfg(feature = "typescript")]
    fn typescript_filter_keys_are_the_ones_the_reader_accepts() {
        // The JS option reader refuses any filter key outside FILTER_KEYS; the declaration
        // derived from OrderHistoryFilter must offer exactly those.
        let decl = <OrderHistoryFilter as Tsify>::DECL;
        let keys: Vec<&str> = members(decl)
            .iter()
            .map(|k| k.trim_end_matches('?'))
            .collect();
        assert_eq!(keys, crate::inputs::FILTER_KEYS, "{decl}");
        assert!(decl.contains("dateFrom?: string | Date;"), "{decl}");
    }

    #[test]
    #[cfg(feature = "typescript")]
    fn typescript_results_mark_required_and_nullable_members() {
        let decl = <P2PPayment as Tsify>::DECL;
        let m = members(decl);
        assert_eq!(&m[..3], ["id", "status", "paymentType?"], "{decl}");
        assert!(decl.contains("    id: string;"), "{decl}");
        assert!(decl.contains("    status: P2PPaymentStatus;"), "{decl}");
        assert!(decl.contains("    orderId?: string | null;"), "{decl}");
        assert_eq!(m.len(), 20, "one member per field: {decl}");
        let page = <OrderHistoryPage as Tsify>::DECL;
        assert_eq!(members(page), ["data", "pagination"], "{page}");
        assert!(<Pagination as Tsify>::DECL.contains("    perPage: number;"));
        // Options: every member optional but `page`; the signal is an AbortSignal.
        let args = <OrderHistoryArgs as Tsify>::DECL;
        assert_eq!(
            members(args),
            ["page", "perPage?", "filter?", "fields?", "signal?"],
            "{args}"
        );
        assert!(
            args.contains("export interface OrderHistoryOptions "),
            "{args}"
        );
        assert!(args.contains("    signal?: AbortSignal;"), "{args}");
    }

    #[test]
    fn typed_conversion() {
        let p: AgentProfile = from_json(&json!({"id": "a1", "accountBalance": "10.00", "depositsCompleted": 3, "extra": {"x": 1}}), 200).unwrap();
        assert_eq!(p.id.as_deref(), Some("a1"));
        assert_eq!(p.account_balance.as_deref(), Some("10.00"));
        assert_eq!(p.deposits_completed, Some(3));
        assert_eq!(p.email, None);
        let page: OrderHistoryPage = from_json(
            &json!({"data": [{"id": "1", "status": "brand_new", "amountUsd": "1.5"}], "pagination": {"page": 1, "perPage": 10, "total": 1}}),
            200,
        )
        .unwrap();
        assert_eq!(page.data[0].status.as_deref(), Some("brand_new"));
        assert_eq!(page.pagination.total, 1);
        // `data` and `pagination` are always selected and declared required: a page without
        // them does not fit.
        assert!(from_json::<OrderHistoryPage>(&json!({"data": []}), 200).is_err());
        assert!(from_json::<Pagination>(&json!({"page": 1, "perPage": 10}), 200).is_err());
        let e = from_json::<AgentProfile>(&json!({"id": 5}), 200).unwrap_err();
        assert_eq!((e.code, e.status), (crate::error::Code::Decode, Some(200)));
        let w: Option<WithdrawalInfo> = from_json(&json!(null), 200).unwrap();
        assert!(w.is_none());
        let c: Vec<Country> = from_json(
            &json!([{"id": "1", "name": "Nigeria", "code": "NG", "currency": {"isoCode": "NGN", "name": "Naira"}}]),
            200,
        )
        .unwrap();
        assert_eq!(
            c[0].currency.as_ref().unwrap().iso_code.as_deref(),
            Some("NGN")
        );
        let m: Vec<PaymentMethodType> = from_json(
            &json!([{"identifier": "mpesa", "fields": [{"identifier": "phone_number", "required": true}]}]),
            200,
        )
        .unwrap();
        assert_eq!(m[0].fields.as_ref().unwrap()[0].required, Some(true));
        let a: Account = from_json(&json!({"id": "m", "accountBalance": "1520.00"}), 200).unwrap();
        assert_eq!(a.account_balance.as_deref(), Some("1520.00"));
        // A decimal may come as a number (the service's sources show both): read as text.
        let a: Account = from_json(&json!({"accountBalance": 1520}), 200).unwrap();
        assert_eq!(a.account_balance.as_deref(), Some("1520"));
        let p: OrderHistoryPage = from_json(
            &json!({"data": [{"id": "1", "status": "cancelled", "exchangeRate": 1545.5, "agentCutOfFees": "0.50", "expiresAtSecs": 1780000000}], "pagination": {"page": 1, "perPage": 10, "total": 1}}),
            200,
        )
        .unwrap();
        assert_eq!(p.data[0].exchange_rate.as_deref(), Some("1545.5"));
        assert_eq!(p.data[0].agent_cut_of_fees.as_deref(), Some("0.50"));
        assert_eq!(
            p.data[0].expires_at_secs,
            Some(1_780_000_000),
            "an Int stays a number"
        );
        assert_eq!(
            p.data[0].status.as_deref(),
            Some("cancelled"),
            "any status passes"
        );
        let q: QuotePaymentRequest = from_json(
            &json!({"id": "r", "status": "some_new_state", "amountUsd": 10, "amountLocal": "1294.00", "paymentDetails": {"amount": 5}}),
            200,
        )
        .unwrap();
        assert_eq!(q.amount_usd.as_deref(), Some("10"));
        assert_eq!(q.status.as_deref(), Some("some_new_state"));
        assert_eq!(
            q.payment_details.unwrap()["amount"],
            json!(5),
            "a JSON field is kept as it came"
        );
        let r: Vec<RampableAsset> = from_json(
            &json!([{"symbol": "USDC", "contractAddress": {"CELO": "0xcebA"}}, {"symbol": "USDT", "contractAddress": "0xdAC1"}]),
            200,
        )
        .unwrap();
        assert_eq!(r[0].contract_address, Some(json!({"CELO": "0xcebA"})));
        assert_eq!(r[1].contract_address, Some(json!("0xdAC1")));
        assert!(
            from_json::<Account>(&json!({"accountBalance": true}), 200).is_err(),
            "a boolean is no decimal"
        );
    }
}
