//! The merchant payment requests' rules: the onchain ramp's requests, the simulated chain
//! transfers that pay them, and `confirmTransaction`. Plain Rust (no GraphQL): `schema.rs`
//! resolvers lock the merchant state, call these and turn a [`MutationError`] into a
//! GraphQL error with `extensions.code`, as the bot mutations do.
//!
//! Lifecycle of a payment request (README, "Merchant mutations"):
//!
//! | step | from | to |
//! |---|---|---|
//! | the hosted ramp page opens (`POST /hosted/ramp/payment-request`) | – | created |
//! | `confirmTransaction` sees a transfer to the request for the first time | created | picked_up (answer `false`) |
//! | `confirmTransaction` sees it again: the transfer has its confirmations | picked_up | completed (answer `true`) |
//!
//! A hash the sandbox's chain does not know (not transferred yet) is answered `false` and
//! changes nothing, as a service that has not seen the transaction yet would. Confirming a
//! completed request with the hash that completed it answers `true` again. A canceled
//! request, or a completed one with another hash, is `INVALID_TRANSITION`.

use async_graphql::ID;

use crate::data::{
    MerchantPaymentRequest, MerchantPaymentRequestStatus as Status, P2PPaymentStatus, PaymentType,
};
use crate::mutations::{MutationError, BAD_USER_INPUT, INVALID_TRANSITION, NOT_FOUND};
use crate::scalars::Decimal;

/// How many times `confirmTransaction` must see a transfer before the request is settled.
pub const CONFIRMATIONS_NEEDED: u32 = 2;

/// A simulated onchain transfer to a payment request.
#[derive(Clone, Debug)]
pub struct Transfer {
    pub hash: String,
    pub payment_request: String,
    /// How many times `confirmTransaction` has seen it.
    pub seen: u32,
}

/// An onchain withdrawal from the merchant's balance (`withdrawOnchain`, read back with
/// `onchainWithdrawal`): `pending`, then `completed` (with its `txhash`) or `failed`
/// (`POST /__sandbox/onchain/settle`).
#[derive(async_graphql::SimpleObject, Clone, Debug)]
pub struct OnchainWithdrawal {
    pub id: ID,
    /// `pending`, `completed` or `failed`.
    pub status: String,
    /// The amount sent, in `symbol` (USD stablecoins: the same as `amountUsd`).
    pub quantity: Decimal,
    /// The coin sent (the sandbox always sends `USDC`).
    pub symbol: String,
    pub network: String,
    pub address: String,
    /// The transaction's hash, once completed.
    pub txhash: Option<String>,
    /// A block explorer's page of the transaction, once completed (the sandbox's own host).
    pub txhash_url: Option<String>,
    /// The network fee (the sandbox charges none).
    pub fee: Decimal,
    /// ISO 8601.
    pub created_at: String,
    /// The sandbox's own: the amount in USD as requested.
    pub amount_usd: Decimal,
}

/// The smallest `withdrawOnchain` the service accepts, in USD cents ($10).
pub const MIN_ONCHAIN_WITHDRAWAL_CENTS: i64 = 1000;

/// A hosted payment carried by an agent's P2P order: `initiateHostedPayment` puts a pending
/// order of the same type in agent 1's queue, and the request follows that order's status
/// ([`hosted_status`]) as the agent accepts, pays or receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedOrder {
    /// The payment request's id.
    pub payment: String,
    /// The agent (an index) whose order it is.
    pub agent: usize,
    /// The order's id.
    pub order: String,
}

/// The status a hosted payment request takes from its agent order: `pending` is `created`;
/// `picked_up` is `picked_up`; a withdrawal the agent has `paid` (the sandbox models no
/// customer confirmation after it) or a `completed` order is `completed`; a deposit the
/// customer marked `paid` is still `picked_up` until the agent receives it; `canceled` is
/// `canceled`.
pub fn hosted_status(order: P2PPaymentStatus, payment_type: PaymentType) -> Status {
    match order {
        P2PPaymentStatus::Pending => Status::Created,
        P2PPaymentStatus::PickedUp => Status::PickedUp,
        P2PPaymentStatus::Paid if payment_type == PaymentType::Withdrawal => Status::Completed,
        P2PPaymentStatus::Paid => Status::PickedUp,
        P2PPaymentStatus::Completed => Status::Completed,
        P2PPaymentStatus::Canceled => Status::Canceled,
    }
}

/// Everything about the merchant that its mutations change.
#[derive(Clone, Debug)]
pub struct MerchantState {
    pub payment_requests: Vec<MerchantPaymentRequest>,
    /// The hosted payments' agent orders.
    pub hosted_orders: Vec<HostedOrder>,
    pub transfers: Vec<Transfer>,
    pub withdrawals: Vec<OnchainWithdrawal>,
    /// Customers, payment methods, quotes, deposits and withdrawals of the direct ramp.
    pub ramp: crate::direct_ramp::DirectRamp,
    /// The number of the next request or transfer the sandbox creates.
    next: u32,
}

/// What the hosted ramp page asks for when it opens.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RampRequest {
    pub payment_type: Option<String>,
    pub coin: Option<String>,
    pub network: Option<String>,
    pub amount: Option<String>,
    pub currency: Option<String>,
    pub reference: Option<String>,
}

/// `initiateHostedPayment`'s arguments (the GraphQL layer has checked their types).
#[derive(Clone, Debug)]
pub struct HostedPayment {
    pub amount: Decimal,
    pub currency: Option<String>,
    pub country_code: String,
    pub email: String,
    pub payment_type: PaymentType,
    pub reference: String,
    pub first_name: String,
    pub last_name: String,
    pub redirect_url: Option<String>,
    /// Kept with the request and answered as given.
    pub metadata: Option<serde_json::Value>,
}

/// A withdrawal of more than the balance.
pub const INSUFFICIENT_FUNDS: &str = "INSUFFICIENT_FUNDS";

/// A reference already used by another payment request.
pub const DUPLICATE_REFERENCE: &str = "DUPLICATE_REFERENCE";

/// Longest reference, coin, network or currency text the ramp page may pass.
const MAX_RAMP_TEXT: usize = 128;

fn error(code: &'static str, message: impl Into<String>) -> MutationError {
    MutationError {
        code,
        message: message.into(),
        order: None,
    }
}

/// The status as GraphQL spells it.
pub fn status_name(s: Status) -> &'static str {
    match s {
        Status::Created => "created",
        Status::PickedUp => "picked_up",
        Status::Completed => "completed",
        Status::Canceled => "canceled",
    }
}

/// Whether `hash` has one of the shapes the client accepts (and documents): `0x` and 64 hex
/// digits (EVM), 64 hex digits (Tron and other hex chains), or 43 to 88 base58 characters
/// (Solana signatures).
pub fn is_transaction_hash(hash: &str) -> bool {
    let hex64 = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let base58 = |s: &str| {
        (43..=88).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() && !b"0OIl".contains(&b))
    };
    hash.strip_prefix("0x").is_some_and(hex64) || hex64(hash) || base58(hash)
}

/// `text` percent-encoded for a URL's query (everything but unreserved characters).
pub fn query_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl MerchantState {
    pub fn new(payment_requests: Vec<MerchantPaymentRequest>) -> MerchantState {
        MerchantState {
            payment_requests,
            hosted_orders: Vec::new(),
            transfers: Vec::new(),
            withdrawals: Vec::new(),
            ramp: crate::direct_ramp::DirectRamp::default(),
            next: 1,
        }
    }

    /// The hosted payment request `payment` is carried by `agent`'s order `order` from now on.
    pub fn link_hosted_order(&mut self, payment: &str, agent: usize, order: &str) {
        self.hosted_orders.push(HostedOrder {
            payment: payment.to_owned(),
            agent,
            order: order.to_owned(),
        });
    }

    /// `agent`'s order `order` (of `payment_type`) is now `status`: the hosted payment request
    /// it carries, if any, follows it ([`hosted_status`]). Returns that request's new status.
    pub fn follow_order(
        &mut self,
        agent: usize,
        order: &str,
        status: P2PPaymentStatus,
        payment_type: PaymentType,
    ) -> Option<Status> {
        let link = self
            .hosted_orders
            .iter()
            .find(|l| l.agent == agent && l.order == order)?;
        let p = self
            .payment_requests
            .iter_mut()
            .find(|p| p.id.as_str() == link.payment)?;
        // A request canceled by the merchant stays canceled.
        if p.status != Status::Canceled {
            p.status = hosted_status(status, payment_type);
        }
        Some(p.status)
    }

    fn take_number(&mut self) -> u32 {
        let n = self.next;
        self.next += 1;
        n
    }

    /// The request the hosted ramp page pays: the one with `reference` when it exists,
    /// else a new `created` one (a reference is made up when none is given).
    pub fn open_ramp_request(&mut self, r: &RampRequest) -> Result<MerchantPaymentRequest, String> {
        let texts = [
            &r.payment_type,
            &r.coin,
            &r.network,
            &r.amount,
            &r.currency,
            &r.reference,
        ];
        if texts
            .iter()
            .any(|t| t.as_ref().is_some_and(|t| t.len() > MAX_RAMP_TEXT))
        {
            return Err(format!(
                "a ramp parameter is longer than {MAX_RAMP_TEXT} characters"
            ));
        }
        if let Some(reference) = r.reference.as_deref().filter(|s| !s.is_empty()) {
            if let Some(p) = self
                .payment_requests
                .iter()
                .find(|p| p.reference == reference)
            {
                return Ok(p.clone());
            }
        }
        let payment_type = match r.payment_type.as_deref() {
            Some("withdrawal") => PaymentType::Withdrawal,
            _ => PaymentType::Deposit,
        };
        let amount = r
            .amount
            .as_deref()
            .filter(|a| crate::mutations::check_decimal(&Decimal::text(a), "amount").is_ok())
            .unwrap_or("0.00");
        let n = self.take_number();
        let p = MerchantPaymentRequest {
            id: ID::from(format!("mpr_sbx_{n:04}")),
            payment_type,
            hosted_link: String::new(),
            amount: Decimal::text(amount),
            currency: r.currency.clone().unwrap_or_else(|| "USD".into()),
            metadata: None,
            reference: r
                .reference
                .clone()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| format!("ramp-{n:04}")),
            status: Status::Created,
            coin: r.coin.clone().unwrap_or_else(|| "USDC".into()),
            network: r.network.clone().unwrap_or_else(|| "CELO".into()),
        };
        self.payment_requests.push(p.clone());
        Ok(p)
    }

    /// `initiateHostedPayment`: a new `created` payment request. `reference` is the
    /// merchant's idempotency key: one already used is `DUPLICATE_REFERENCE` (read the
    /// request back by it instead).
    pub fn initiate_hosted_payment(
        &mut self,
        h: &HostedPayment,
    ) -> Result<MerchantPaymentRequest, MutationError> {
        crate::mutations::check_decimal(&h.amount, "amount")?;
        for (arg, value) in [
            ("reference", &h.reference),
            ("firstName", &h.first_name),
            ("lastName", &h.last_name),
        ] {
            if value.trim().is_empty() || value.len() > MAX_RAMP_TEXT {
                return Err(error(BAD_USER_INPUT, format!("Argument '{arg}' must not be empty or longer than {MAX_RAMP_TEXT} characters")));
            }
        }
        if h.country_code.len() != 2 || !h.country_code.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'countryCode' must be two letters",
            ));
        }
        let email_ok = h.email.len() <= 254
            && h.email
                .split_once('@')
                .is_some_and(|(l, d)| !l.is_empty() && d.contains('.') && !d.contains('@'));
        if !email_ok {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'email' must be an email address",
            ));
        }
        if let Some(url) = &h.redirect_url {
            let rest = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"))
                .unwrap_or("");
            if rest.is_empty()
                || rest.starts_with('/')
                || url.bytes().any(|b| !(0x21..0x7f).contains(&b))
            {
                return Err(error(
                    BAD_USER_INPUT,
                    "Argument 'redirectUrl' must be an absolute http(s) URL",
                ));
            }
        }
        if self
            .payment_requests
            .iter()
            .any(|p| p.reference == h.reference)
        {
            return Err(error(
                DUPLICATE_REFERENCE,
                "A payment request with this reference exists: read it back by its reference",
            ));
        }
        let n = self.take_number();
        let p = MerchantPaymentRequest {
            id: ID::from(format!("mpr_hp_{n:04}")),
            payment_type: h.payment_type,
            hosted_link: String::new(),
            amount: h.amount.clone(),
            currency: h.currency.clone().unwrap_or_else(|| "USD".into()),
            reference: h.reference.clone(),
            status: Status::Created,
            metadata: h.metadata.clone().map(async_graphql::Json),
            coin: "USDC".into(),
            network: "CELO".into(),
        };
        self.payment_requests.push(p.clone());
        Ok(p)
    }

    /// `withdrawOnchain`: a `pending` withdrawal of `amount_usd` (more than 0, at most
    /// `balance`, else `INSUFFICIENT_FUNDS`) to `address` on `network` (one of `networks`;
    /// `CELO` when absent), created at `now_secs`. An EVM address is `0x` and 40 hex digits.
    /// The sandbox does not debit the seeded balance (other suites read it).
    pub fn withdraw_onchain(
        &mut self,
        address: &str,
        amount_usd: &Decimal,
        network: Option<&str>,
        networks: &[String],
        balance: &Decimal,
        now_secs: i64,
    ) -> Result<OnchainWithdrawal, MutationError> {
        crate::mutations::check_decimal(amount_usd, "amountUsd")?;
        let network = network.unwrap_or("CELO");
        if !networks.iter().any(|n| n == network) {
            return Err(error(
                BAD_USER_INPUT,
                format!("Argument 'network' must be one of {}", networks.join(", ")),
            ));
        }
        let hex40 = address
            .strip_prefix("0x")
            .is_some_and(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()));
        if !hex40 {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'address' must be an EVM address: 0x and 40 hex digits",
            ));
        }
        let cents = |d: &Decimal| -> i64 {
            let (int, frac) = d.0.split_once('.').unwrap_or((&d.0, ""));
            let frac = format!("{frac:0<2}");
            int.parse::<i64>()
                .unwrap_or(i64::MAX / 200)
                .saturating_mul(100)
                + frac
                    .get(..2)
                    .and_then(|f| f.parse::<i64>().ok())
                    .unwrap_or(0)
        };
        let amount = cents(amount_usd);
        if amount < MIN_ONCHAIN_WITHDRAWAL_CENTS {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'amountUsd' must be at least 10 (USD)",
            ));
        }
        if amount > cents(balance) {
            return Err(error(
                INSUFFICIENT_FUNDS,
                format!("amountUsd is more than the balance ({})", balance.0),
            ));
        }
        let n = self.take_number();
        let w = OnchainWithdrawal {
            id: ID::from(format!("ow_{n:04}")),
            status: "pending".into(),
            quantity: amount_usd.clone(),
            symbol: "USDC".into(),
            network: network.to_owned(),
            address: address.to_owned(),
            txhash: None,
            txhash_url: None,
            fee: Decimal::text("0.00"),
            created_at: crate::dates::format_datetime(now_secs),
            amount_usd: amount_usd.clone(),
        };
        self.withdrawals.push(w.clone());
        Ok(w)
    }

    /// The sandbox's chain settles a `pending` onchain withdrawal: `completed` (with a
    /// transaction hash and its explorer link under `base_url`) or `failed`. NOT_FOUND for an
    /// unknown id, INVALID_TRANSITION when it is not `pending`.
    pub fn settle_withdrawal(
        &mut self,
        id: &str,
        completed: bool,
        base_url: &str,
    ) -> Result<OnchainWithdrawal, MutationError> {
        let n = self.take_number();
        let w = self
            .withdrawals
            .iter_mut()
            .find(|w| w.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Onchain withdrawal not found"))?;
        if w.status != "pending" {
            return Err(error(
                INVALID_TRANSITION,
                format!("The withdrawal is {}, not pending", w.status),
            ));
        }
        if completed {
            let hash = format!("0x{:064x}", 0x5EED_0000_0000_u64 + u64::from(n));
            w.txhash_url = Some(format!("{base_url}/__sandbox/explorer/tx/{hash}"));
            w.txhash = Some(hash);
            w.status = "completed".into();
        } else {
            w.status = "failed".into();
        }
        Ok(w.clone())
    }

    /// `cancelHostedPayment`: created → canceled (only while `created`, as the service
    /// documents it).
    pub fn cancel_hosted_payment(&mut self, id: &str) -> Result<bool, MutationError> {
        if id.trim().is_empty() {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'paymentRequest' must not be empty",
            ));
        }
        let p = self
            .payment_requests
            .iter_mut()
            .find(|p| p.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Payment request not found"))?;
        if p.status != Status::Created {
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "cancelHostedPayment needs a created request; {} is {}",
                    p.id.as_str(),
                    status_name(p.status)
                ),
            ));
        }
        p.status = Status::Canceled;
        Ok(true)
    }

    /// A simulated transfer paying request `id` (created or picked_up): its transaction
    /// hash (`0x` and 64 hex digits, different for every transfer).
    pub fn transfer(&mut self, id: &str) -> Result<String, MutationError> {
        let p = self
            .payment_requests
            .iter()
            .find(|p| p.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Payment request not found"))?;
        if !matches!(p.status, Status::Created | Status::PickedUp) {
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "{} is {}: nothing to pay",
                    p.id.as_str(),
                    status_name(p.status)
                ),
            ));
        }
        let n = u64::from(self.take_number());
        // Distinct, hex, 64 digits: four 16-digit words of a multiplicative hash of n.
        let word = |k: u64| n.wrapping_add(k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let hash = format!(
            "0x{:016x}{:016x}{:016x}{:016x}",
            word(1),
            word(2),
            word(3),
            word(4)
        );
        self.transfers.push(Transfer {
            hash: hash.clone(),
            payment_request: id.to_owned(),
            seen: 0,
        });
        Ok(hash)
    }

    /// `confirmTransaction(paymentRequest, transactionHash)`: whether the request is settled
    /// (see the module's table).
    pub fn confirm_transaction(&mut self, id: &str, hash: &str) -> Result<bool, MutationError> {
        if id.trim().is_empty() {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'paymentRequest' must not be empty",
            ));
        }
        if !is_transaction_hash(hash) {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'transactionHash' must be 0x and 64 hex digits, 64 hex digits, or 43 to 88 base58 characters",
            ));
        }
        let p = self
            .payment_requests
            .iter_mut()
            .find(|p| p.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Payment request not found"))?;
        let transfer = self
            .transfers
            .iter_mut()
            .find(|t| t.hash.eq_ignore_ascii_case(hash) && t.payment_request == id);
        match (p.status, transfer) {
            (Status::Canceled, _) => Err(error(
                INVALID_TRANSITION,
                format!(
                    "confirmTransaction needs a created or picked_up request; {} is canceled",
                    p.id.as_str()
                ),
            )),
            (Status::Completed, Some(_)) => Ok(true),
            (Status::Completed, None) => Err(error(
                INVALID_TRANSITION,
                format!("{} is completed by another transaction", p.id.as_str()),
            )),
            // Not on the sandbox's chain (yet): not settled, nothing changes.
            (_, None) => Ok(false),
            (_, Some(t)) => {
                t.seen += 1;
                p.status = if t.seen >= CONFIRMATIONS_NEEDED {
                    Status::Completed
                } else {
                    Status::PickedUp
                };
                Ok(p.status == Status::Completed)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> MerchantState {
        MerchantState::new(Vec::new())
    }

    #[test]
    fn a_hosted_payment_follows_its_agent_order() {
        let mut s = state();
        let h = HostedPayment {
            amount: Decimal::text("25.00"),
            currency: Some("USD".into()),
            country_code: "NG".into(),
            email: "ada@example.com".into(),
            payment_type: PaymentType::Withdrawal,
            reference: "order-7".into(),
            first_name: "Ada".into(),
            last_name: "Obi".into(),
            redirect_url: None,
            metadata: None,
        };
        let p = s.initiate_hosted_payment(&h).unwrap();
        let w = PaymentType::Withdrawal;
        // Not linked yet: another order changes nothing.
        assert_eq!(
            s.follow_order(0, "p2p_n000001", P2PPaymentStatus::PickedUp, w),
            None
        );
        s.link_hosted_order(p.id.as_str(), 0, "p2p_n000001");
        assert_eq!(
            s.follow_order(1, "p2p_n000001", P2PPaymentStatus::PickedUp, w),
            None,
            "another agent's order"
        );
        for (order, want) in [
            (P2PPaymentStatus::PickedUp, Status::PickedUp),
            (P2PPaymentStatus::Paid, Status::Completed),
        ] {
            assert_eq!(s.follow_order(0, "p2p_n000001", order, w), Some(want));
            assert_eq!(s.payment_requests[0].status, want);
        }
        // A deposit the customer marked paid is not complete until the agent receives it.
        assert_eq!(
            hosted_status(P2PPaymentStatus::Paid, PaymentType::Deposit),
            Status::PickedUp
        );
        assert_eq!(
            hosted_status(P2PPaymentStatus::Completed, PaymentType::Deposit),
            Status::Completed
        );
        assert_eq!(hosted_status(P2PPaymentStatus::Pending, w), Status::Created);
        assert_eq!(
            hosted_status(P2PPaymentStatus::Canceled, w),
            Status::Canceled
        );
    }

    #[test]
    fn hash_shapes() {
        let evm = format!("0x{}", "ab".repeat(32));
        for ok in [
            evm.as_str(),
            &"AB".repeat(32),
            "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
            &"1".repeat(43),
        ] {
            assert!(is_transaction_hash(ok), "{ok}");
        }
        for bad in [
            "",
            "0x",
            &format!("0x{}", "ab".repeat(31)),
            &format!("0x{}", "zz".repeat(32)),
            &"0".repeat(43),
            &"1".repeat(89),
            &"1".repeat(42),
        ] {
            assert!(!is_transaction_hash(bad), "{bad}");
        }
    }

    #[test]
    fn a_ramp_request_is_settled_by_its_transfer_on_the_second_confirmation() {
        let mut s = state();
        let p = s
            .open_ramp_request(&RampRequest {
                reference: Some("r-1".into()),
                amount: Some("25.00".into()),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(p.status, Status::Created);
        // The same reference opens the same request.
        let again = s
            .open_ramp_request(&RampRequest {
                reference: Some("r-1".into()),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(again.id, p.id);
        let id = p.id.as_str();
        let unknown = format!("0x{}", "11".repeat(32));
        assert_eq!(s.confirm_transaction(id, &unknown), Ok(false));
        let hash = s.transfer(id).unwrap();
        assert!(is_transaction_hash(&hash));
        assert_eq!(s.confirm_transaction(id, &hash), Ok(false));
        assert_eq!(s.payment_requests[0].status, Status::PickedUp);
        assert_eq!(
            s.confirm_transaction(id, &hash.to_uppercase().replacen("0X", "0x", 1)),
            Ok(true)
        );
        assert_eq!(s.payment_requests[0].status, Status::Completed);
        assert_eq!(s.confirm_transaction(id, &hash), Ok(true));
        let e = s.confirm_transaction(id, &unknown).unwrap_err();
        assert_eq!(e.code, INVALID_TRANSITION);
        assert_eq!(s.transfer(id).unwrap_err().code, INVALID_TRANSITION);
        assert_eq!(
            s.confirm_transaction("nope", &hash).unwrap_err().code,
            NOT_FOUND
        );
        assert_eq!(
            s.confirm_transaction(" ", &hash).unwrap_err().code,
            BAD_USER_INPUT
        );
        assert_eq!(
            s.confirm_transaction(id, "0x12").unwrap_err().code,
            BAD_USER_INPUT
        );
    }

    #[test]
    fn an_onchain_withdrawal_is_at_least_ten_dollars() {
        let mut s = state();
        let address = format!("0x{}", "ab".repeat(20));
        let networks = ["CELO".to_owned()];
        let balance = Decimal::text("1520.00");
        let mut w = |amount: &str| {
            s.withdraw_onchain(
                &address,
                &Decimal::text(amount),
                None,
                &networks,
                &balance,
                0,
            )
        };
        for below in ["0", "0.01", "9.99"] {
            assert_eq!(w(below).unwrap_err().code, BAD_USER_INPUT, "{below}");
        }
        assert_eq!(w("10").unwrap().status, "pending");
        assert_eq!(w("10.00").unwrap().network, "CELO");
        assert_eq!(w("1520.01").unwrap_err().code, INSUFFICIENT_FUNDS);
    }
}
