//! The bot mutations' rules, on one agent's state: the order lifecycle, rates and
//! liquidity. Plain Rust (no GraphQL): `schema.rs` resolvers lock the agent's state, call
//! these and turn a [`MutationError`] into a GraphQL error with `extensions.code`.
//!
//! Lifecycle (README, "Bot mutations"):
//!
//! | mutation | order type | from | to |
//! |---|---|---|---|
//! | acceptWithdrawal | withdrawal | pending | picked_up |
//! | markWithdrawalAsPaid | withdrawal | picked_up | paid |
//! | cancelWithdrawal | withdrawal | pending, picked_up | canceled |
//! | markDepositAsReceived | deposit | pending, picked_up, paid | completed |
//!
//! Anything else on an existing order of the agent is `INVALID_TRANSITION`.

use crate::data::{AgentState, P2PPayment, P2PPaymentMethod, P2PPaymentStatus, PaymentType};
use crate::scalars::Decimal;

pub const NOT_FOUND: &str = "NOT_FOUND";
pub const INVALID_TRANSITION: &str = "INVALID_TRANSITION";
pub const BAD_USER_INPUT: &str = "BAD_USER_INPUT";

/// Longest decimal text a mutation accepts (digits and the point).
pub const MAX_DECIMAL_LEN: usize = 32;
/// Longest `receipt` accepted.
pub const MAX_RECEIPT_LEN: usize = 2048;

/// A receipt ("a receipt URL or reference", as the service documents it): any text, not
/// blank, at most [`MAX_RECEIPT_LEN`] bytes.
pub fn check_receipt(receipt: &str) -> MResult<()> {
    if receipt.trim().is_empty() || receipt.len() > MAX_RECEIPT_LEN {
        return Err(MutationError::new(
            BAD_USER_INPUT,
            format!(
                "Argument 'receipt' must be a receipt URL or reference, not blank, of at most \
                 {MAX_RECEIPT_LEN} characters"
            ),
        ));
    }
    Ok(())
}

/// A refused mutation. Messages never repeat a caller's id, type or receipt (any of which
/// could be a mistakenly pasted key); they name the argument instead. An order's own id
/// (found, so not a key) and decimal texts (digits only) may appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MutationError {
    pub code: &'static str,
    pub message: String,
    /// For INVALID_TRANSITION: the order's current status and its payment type.
    pub order: Option<(P2PPaymentStatus, PaymentType)>,
}

impl MutationError {
    fn new(code: &'static str, message: impl Into<String>) -> Self {
        MutationError {
            code,
            message: message.into(),
            order: None,
        }
    }
}

pub type MResult<T> = Result<T, MutationError>;

/// The four order mutations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderAction {
    AcceptWithdrawal,
    CancelWithdrawal,
    MarkWithdrawalAsPaid,
    MarkDepositAsReceived,
}

impl OrderAction {
    pub fn name(self) -> &'static str {
        match self {
            OrderAction::AcceptWithdrawal => "acceptWithdrawal",
            OrderAction::CancelWithdrawal => "cancelWithdrawal",
            OrderAction::MarkWithdrawalAsPaid => "markWithdrawalAsPaid",
            OrderAction::MarkDepositAsReceived => "markDepositAsReceived",
        }
    }

    /// The payment type the action applies to.
    pub fn payment_type(self) -> PaymentType {
        match self {
            OrderAction::MarkDepositAsReceived => PaymentType::Deposit,
            _ => PaymentType::Withdrawal,
        }
    }

    /// The statuses the action may start from.
    pub fn from_statuses(self) -> &'static [P2PPaymentStatus] {
        use P2PPaymentStatus::*;
        match self {
            OrderAction::AcceptWithdrawal => &[Pending],
            OrderAction::CancelWithdrawal => &[Pending, PickedUp],
            OrderAction::MarkWithdrawalAsPaid => &[PickedUp],
            OrderAction::MarkDepositAsReceived => &[Pending, PickedUp, Paid],
        }
    }

    pub fn to_status(self) -> P2PPaymentStatus {
        match self {
            OrderAction::AcceptWithdrawal => P2PPaymentStatus::PickedUp,
            OrderAction::CancelWithdrawal => P2PPaymentStatus::Canceled,
            OrderAction::MarkWithdrawalAsPaid => P2PPaymentStatus::Paid,
            OrderAction::MarkDepositAsReceived => P2PPaymentStatus::Completed,
        }
    }
}

fn type_name(t: PaymentType) -> &'static str {
    match t {
        PaymentType::Deposit => "deposit",
        PaymentType::Withdrawal => "withdrawal",
    }
}

fn non_empty(value: &str, arg: &str) -> MResult<()> {
    if value.trim().is_empty() {
        return Err(MutationError::new(
            BAD_USER_INPUT,
            format!("Argument '{arg}' must not be empty"),
        ));
    }
    Ok(())
}

/// A non-negative decimal text (the `Decimal` scalar has already checked the shape).
pub fn check_decimal(value: &Decimal, arg: &str) -> MResult<()> {
    let t = value.0.as_str();
    let shape_ok = {
        let mut parts = t.splitn(2, '.');
        let int = parts.next().unwrap_or("");
        let frac = parts.next();
        !int.is_empty()
            && int.bytes().all(|c| c.is_ascii_digit())
            && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|c| c.is_ascii_digit()))
    };
    if t.starts_with('-') {
        return Err(MutationError::new(
            BAD_USER_INPUT,
            format!("Argument '{arg}' must not be negative (got \"{t}\")"),
        ));
    }
    if !shape_ok || t.len() > MAX_DECIMAL_LEN {
        return Err(MutationError::new(
            BAD_USER_INPUT,
            format!(
                "Argument '{arg}' must be a decimal string of digits with an optional fraction, at most {MAX_DECIMAL_LEN} characters"
            ),
        ));
    }
    Ok(())
}

/// Applies an order mutation to the agent's order `id`. `paid_with` is
/// markWithdrawalAsPaid's `(paymentMethod, receipt)`.
pub fn order_action(
    state: &mut AgentState,
    action: OrderAction,
    id: &str,
    paid_with: Option<(&str, Option<&str>)>,
) -> MResult<()> {
    non_empty(id, "p2pPayment")?;
    if let Some((method, receipt)) = paid_with {
        non_empty(method, "paymentMethod")?;
        if let Some(r) = receipt {
            check_receipt(r)?;
        }
        live_method_index(state, method)?;
    }
    let order: &mut P2PPayment = state
        .orders
        .iter_mut()
        .find(|o| o.id.0 == id)
        .ok_or_else(|| MutationError::new(NOT_FOUND, "P2P payment not found"))?;
    if order.payment_type != action.payment_type()
        || !action.from_statuses().contains(&order.status)
    {
        let allowed: Vec<&str> = action.from_statuses().iter().map(|s| s.as_str()).collect();
        let message = if order.payment_type != action.payment_type() {
            format!(
                "{} applies to {} orders; {} is a {}",
                action.name(),
                type_name(action.payment_type()),
                order.id.0,
                type_name(order.payment_type)
            )
        } else {
            format!(
                "{} needs a {} order that is {}; {} is {}",
                action.name(),
                type_name(action.payment_type()),
                allowed.join(" or "),
                order.id.0,
                order.status.as_str()
            )
        };
        return Err(MutationError {
            code: INVALID_TRANSITION,
            message,
            order: Some((order.status, order.payment_type)),
        });
    }
    let to = action.to_status();
    order.status = to;
    // Derived fields follow the same rules as the seed (data.rs build_order): only open
    // orders (pending, picked_up) have a reassign time; only pending ones may be reassigning.
    order.reassigning = Some(false);
    if !matches!(to, P2PPaymentStatus::Pending | P2PPaymentStatus::PickedUp) {
        order.reassign_after = None;
        order.reassign_after_secs = None;
    }
    let usd_cents = order
        .amount_usd
        .as_ref()
        .and_then(|d| cents(&d.0))
        .unwrap_or(0);
    match to {
        P2PPaymentStatus::Canceled => order.agent_cut_of_fees = Some(Decimal::cents(0)),
        P2PPaymentStatus::Completed => {
            order.fx_spread_revenue = Some(Decimal::cents(usd_cents * 30 / 10_000));
        }
        _ => {}
    }
    if to == P2PPaymentStatus::Completed {
        // depositsCompleted counts the completed deposits in the list (a seed invariant).
        let c = state.profile.deposits_completed.get_or_insert(0);
        *c += 1;
    }
    Ok(())
}

/// "12.34" → 1234 (two decimals at most, as every seeded amount has).
pub(crate) fn cents(t: &str) -> Option<i64> {
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let frac = format!("{frac:0<2}");
    Some(int.parse::<i64>().ok()? * 100 + frac.get(..2)?.parse::<i64>().ok()?)
}

fn live_method_index(state: &AgentState, id: &str) -> MResult<usize> {
    state
        .payment_methods
        .iter()
        .position(|m| m.id.0 == id && m.deleted != Some(true))
        .ok_or_else(|| MutationError::new(NOT_FOUND, "Payment method not found"))
}

/// `updateRates`: at least one argument; each a non-negative decimal string.
pub fn update_rates(
    state: &mut AgentState,
    deposit_rate: Option<Decimal>,
    deposit_margin: Option<Decimal>,
    withdrawal_rate: Option<Decimal>,
    withdrawal_margin: Option<Decimal>,
) -> MResult<()> {
    let args = [
        ("depositRate", &deposit_rate),
        ("depositMargin", &deposit_margin),
        ("withdrawalRate", &withdrawal_rate),
        ("withdrawalMargin", &withdrawal_margin),
    ];
    if args.iter().all(|(_, v)| v.is_none()) {
        return Err(MutationError::new(
            BAD_USER_INPUT,
            "updateRates needs at least one of depositRate, depositMargin, withdrawalRate, withdrawalMargin",
        ));
    }
    for (name, v) in args {
        if let Some(v) = v {
            check_decimal(v, name)?;
        }
    }
    let r = &mut state.rates;
    for (slot, v) in [
        (&mut r.deposit_rate, deposit_rate),
        (&mut r.deposit_margin, deposit_margin),
        (&mut r.withdrawal_rate, withdrawal_rate),
        (&mut r.withdrawal_margin, withdrawal_margin),
    ] {
        if v.is_some() {
            *slot = v;
        }
    }
    Ok(())
}

/// `updatePaymentMethodLiquidity`: exactly one of `paymentMethod` (an id) and
/// `paymentMethodType` (a type identifier such as `mpesa`); sets its
/// `localCurrencyAvailable` to `amount_local` and returns the updated method.
pub fn update_liquidity(
    state: &mut AgentState,
    payment_method: Option<&str>,
    payment_method_type: Option<&str>,
    amount_local: &Decimal,
) -> MResult<P2PPaymentMethod> {
    let index = match (payment_method, payment_method_type) {
        (Some(id), None) => {
            non_empty(id, "paymentMethod")?;
            check_decimal(amount_local, "amountLocal")?;
            live_method_index(state, id)?
        }
        (None, Some(ty)) => {
            non_empty(ty, "paymentMethodType")?;
            check_decimal(amount_local, "amountLocal")?;
            state
                .payment_methods
                .iter()
                .position(|m| {
                    m.payment_method_type.as_deref() == Some(ty) && m.deleted != Some(true)
                })
                .ok_or_else(|| MutationError::new(NOT_FOUND, "No payment method of that type"))?
        }
        _ => return Err(MutationError::new(
            BAD_USER_INPUT,
            "updatePaymentMethodLiquidity needs exactly one of paymentMethod and paymentMethodType",
        )),
    };
    let m = &mut state.payment_methods[index];
    m.local_currency_available = Some(amount_local.clone());
    Ok(m.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals() {
        for ok in ["0", "0.00", "12", "1540.50", "007.1"] {
            assert!(check_decimal(&Decimal::text(ok), "x").is_ok(), "{ok}");
        }
        for bad in [
            "-1",
            "-0.5",
            "1e3",
            "",
            ".5",
            "1.",
            "1.2.3",
            &"9".repeat(33),
        ] {
            let e = check_decimal(&Decimal::text(bad), "depositRate").unwrap_err();
            assert_eq!(e.code, BAD_USER_INPUT, "{bad}");
            assert!(e.message.contains("'depositRate'"), "{}", e.message);
        }
        assert_eq!(cents("12.3"), Some(1230));
        assert_eq!(cents("5"), Some(500));
        assert_eq!(cents("2500.00"), Some(250_000));
    }
}
