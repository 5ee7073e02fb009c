//! Argument and result types of the Rust API.
//!
//! The result structs are what a `*_json` result converts into with [`from_json`]. Every
//! field is optional: the caller chooses the selection (`fields`), and the service may omit
//! or add fields. Decimals are strings, as the service sends them. Fields outside the
//! default selection (e.g. TOTP settings) are read from the `*_json` results instead.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::error::Error;
use crate::json::Json;
use crate::transport::Signal;

/// Options of a call that selects fields: `profile`, `withdrawalInfo` and the merchant reads.
#[derive(Clone, Default)]
pub struct FieldOptions {
    /// Field names to select instead of the default selection; dotted paths select nested
    /// fields (`"totp.enabled"` → `totp { enabled }`).
    pub fields: Option<Vec<String>>,
    /// Cancels the call.
    pub signal: Option<Signal>,
}

/// Options of `profile`.
pub type ProfileOptions = FieldOptions;
/// Options of `withdrawal_info`.
pub type WithdrawalInfoOptions = FieldOptions;

/// Options of `request`.
#[derive(Clone, Default)]
pub struct CallOptions {
    /// Cancels the call.
    pub signal: Option<Signal>,
}

/// The service's `OrderHistoryFilter`; every member set narrows the result.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct OrderHistoryFilter {
    /// Exact order id (non-empty).
    pub order_id: Option<String>,
    /// A `P2PPaymentStatus` name, e.g. `"completed"`; unknown names are passed through.
    pub status: Option<String>,
    /// First day included, `YYYY-MM-DD`.
    pub date_from: Option<String>,
    /// Last day included, `YYYY-MM-DD` (not before `date_from`).
    pub date_to: Option<String>,
    /// Payment method (non-empty).
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

/// Arguments of `order_history`.
#[derive(Clone, Default)]
pub struct OrderHistoryArgs {
    /// Page number, from 1.
    pub page: i64,
    /// Rows per page (the service's default is 10; no upper cap is invented here).
    pub per_page: Option<i64>,
    /// Narrows the result.
    pub filter: OrderHistoryFilter,
    /// `P2PPayment` fields to select instead of the default selection.
    pub fields: Option<Vec<String>>,
    /// Cancels the call.
    pub signal: Option<Signal>,
}

/// Arguments of `orders` (every page of the order history).
#[derive(Clone, Default)]
pub struct OrdersArgs {
    /// Rows per page fetched.
    pub per_page: Option<i64>,
    /// Narrows the result.
    pub filter: OrderHistoryFilter,
    /// `P2PPayment` fields to select instead of the default selection.
    pub fields: Option<Vec<String>>,
    /// Cancels every page fetch.
    pub signal: Option<Signal>,
}

/// The agent's profile (`profile: AgentProfile!`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[allow(missing_docs)]
pub struct AgentProfile {
    pub id: Option<String>,
    pub email: Option<String>,
    pub account_balance: Option<String>,
    pub escrow_balance: Option<String>,
    pub bonus_earnings: Option<String>,
    pub deposit_address: Option<String>,
    pub verification_status: Option<String>,
    pub auto_update_deposit_rate: Option<bool>,
    pub auto_update_withdrawal_rate: Option<bool>,
    pub credit_line: Option<String>,
    pub used_credit_line: Option<String>,
    pub deposit_margin: Option<String>,
    pub withdrawal_margin: Option<String>,
    pub average_deposit_rate: Option<String>,
    pub average_withdrawal_rate: Option<String>,
    pub deposits_completed: Option<i64>,
    pub withdrawals_completed: Option<i64>,
    pub total_deposit_fiat_amount: Option<String>,
    pub total_deposit_usd_amount: Option<String>,
    pub total_withdrawal_fiat_amount: Option<String>,
    pub total_withdrawal_usd_amount: Option<String>,
    pub enforce_receipt_upload: Option<bool>,
}

/// One P2P payment (order).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[allow(missing_docs)]
pub struct P2PPayment {
    pub id: Option<String>,
    /// `pending`, `picked_up`, `paid`, `completed`, `canceled`, or a value unknown today.
    pub status: Option<String>,
    /// `deposit` or `withdrawal`.
    pub payment_type: Option<String>,
    pub exchange_rate: Option<String>,
    pub exchange_rate_minus_surcharge: Option<String>,
    pub order_id: Option<String>,
    pub source: Option<String>,
    pub instant: Option<bool>,
    pub created_at: Option<String>,
    pub expires_at: Option<String>,
    pub expires_at_secs: Option<i64>,
    pub reassigning: Option<bool>,
    pub reassign_after: Option<String>,
    pub reassign_after_secs: Option<i64>,
    pub agent_cut_of_fees: Option<String>,
    pub fx_spread_revenue: Option<String>,
    /// Not in the observed schema; selected by default, see the crate docs.
    pub payment_method: Option<String>,
    /// Not in the observed schema; selected by default, see the crate docs.
    pub amount_local: Option<String>,
    /// Not in the observed schema; selected by default, see the crate docs.
    pub amount_usd: Option<String>,
    /// Not in the observed schema; selected by default, see the crate docs.
    pub currency: Option<String>,
}

/// Page information of an order-history page.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
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
#[serde(default)]
pub struct OrderHistoryPage {
    /// The rows.
    pub data: Vec<P2PPayment>,
    /// Page information.
    pub pagination: Pagination,
}

/// How to withdraw one coin.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WithdrawalInfo {
    /// e.g. `"USDC"`.
    pub symbol: Option<String>,
    /// Display name.
    pub name: Option<String>,
    /// Icon URL.
    pub icon: Option<String>,
    /// Networks it can be withdrawn on.
    pub networks: Option<Vec<String>>,
    /// Pattern a destination address must match.
    pub address_regex: Option<String>,
    /// Pattern a memo must match.
    pub memo_regex: Option<String>,
}

/// The merchant account (`account: Account!`; needs the secret key).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Account {
    /// The account id.
    pub id: Option<String>,
    /// Decimal text with two decimals, e.g. `"1520.00"` (see [`crate::amount::parse_amount`]).
    pub account_balance: Option<String>,
    /// The deposit address.
    pub deposit_address: Option<String>,
}

/// A currency of a country.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Currency {
    /// ISO 4217 code, e.g. `"NGN"`.
    pub iso_code: Option<String>,
    /// Display name.
    pub name: Option<String>,
}

/// A country the service operates in (`availableCountries`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Country {
    /// The id `paymentMethodTypes` takes.
    pub id: Option<String>,
    /// Display name.
    pub name: Option<String>,
    /// ISO 3166-1 alpha-2 code, e.g. `"NG"`.
    pub code: Option<String>,
    /// Its currency.
    pub currency: Option<Currency>,
}

/// One field a payment method asks for.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PaymentMethodField {
    /// Display label.
    pub label: Option<String>,
    /// Machine name, e.g. `"account_number"`.
    pub identifier: Option<String>,
    /// Whether it must be filled in.
    pub required: Option<bool>,
}

/// A P2P payment method of a country (`p2pPaymentMethodTypes`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PaymentMethodType {
    /// The id.
    pub id: Option<String>,
    /// Machine name, e.g. `"mpesa"`.
    pub identifier: Option<String>,
    /// Display label.
    pub label: Option<String>,
    /// The fields it asks for.
    pub fields: Option<Vec<PaymentMethodField>>,
}

/// Indicative rates of a country, local currency per USD (decimal text).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MarketRate {
    /// Rate for deposits.
    pub deposit_rate: Option<String>,
    /// Rate for withdrawals.
    pub withdrawal_rate: Option<String>,
}

/// Ramp limits in USD (decimal text).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[allow(missing_docs)]
pub struct RampLimits {
    pub minimum_deposit_usd: Option<String>,
    pub maximum_deposit_usd: Option<String>,
    pub minimum_withdrawal_usd: Option<String>,
    pub maximum_withdrawal_usd: Option<String>,
    pub daily_limit_usd: Option<String>,
}

/// An asset the onchain ramp handles.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RampableAsset {
    /// Display name.
    pub name: Option<String>,
    /// e.g. `"USDC"`.
    pub symbol: Option<String>,
    /// Networks, e.g. `["CELO", "BASE"]`.
    pub networks: Option<Vec<String>>,
    /// The token contract, when there is one.
    pub contract_address: Option<String>,
}

/// A merchant payment request (`merchantPaymentRequest`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PaymentRequest {
    /// The id.
    pub id: Option<String>,
    /// `deposit` or `withdrawal`.
    pub payment_type: Option<String>,
    /// The hosted page of this request.
    pub hosted_link: Option<String>,
    /// Decimal text.
    pub amount: Option<String>,
    /// ISO 4217 code.
    pub currency: Option<String>,
    /// The merchant's reference.
    pub reference: Option<String>,
    /// `created`, `picked_up`, `completed`, `canceled`, or a value unknown today.
    pub status: Option<String>,
}

/// Converts a decoded result into a typed one (`decode` error when it does not fit).
pub fn from_json<T: DeserializeOwned>(value: &Json, status: u16) -> Result<T, Error> {
    #[cfg(target_arch = "wasm32")]
    let r = serde_wasm_bindgen::from_value(value.clone()).map_err(|_| ());
    #[cfg(not(target_arch = "wasm32"))]
    let r = serde_json::from_value(value.clone()).map_err(|_| ());
    r.map_err(|()| Error::decode(status, "The response did not have the expected types."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert!(
            from_json::<Account>(&json!({"accountBalance": 1520.0}), 200).is_err(),
            "money is text"
        );
    }
}
