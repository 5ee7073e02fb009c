//! The direct ramp's rules (secret key): customers and their payment methods, quotes that
//! expire, and the deposits and withdrawals made at a quote's rate. Plain Rust (no GraphQL):
//! `schema.rs` resolvers lock the merchant state, call these with the current time, and
//! turn a [`MutationError`] into a GraphQL error with `extensions.code`.
//!
//! A quote is usable for [`QUOTE_TTL_SECS`] (the service's quotes last 30 to 180 s;
//! `refreshRampQuote` starts that again) and by one deposit or withdrawal. A request made from
//! it goes as the service documents it (README, "Direct ramp"):
//!
//! | step | payment type | from | to |
//! |---|---|---|---|
//! | `initiateRampQuoteDeposit` | deposit | – | pending |
//! | `markDepositAsPaid` | deposit | pending | paid |
//! | the agent confirms the fiat arrived (`POST /__sandbox/ramp/complete`) | deposit | paid | completed |
//! | `cancelDeposit` | deposit | pending | canceled |
//! | `initiateRampQuoteWithdrawal` (an agent has it at once) | withdrawal | – | picked_up |
//! | `markWithdrawalAsReceived` | withdrawal | picked_up | completed |
//!
//! Anything else on an existing request is `INVALID_TRANSITION`; an expired quote is
//! `QUOTE_EXPIRED`. Messages never repeat a caller's value (it could be a pasted key); they
//! name the argument, or the sandbox's own ids.

use async_graphql::{Enum, InputObject, SimpleObject, ID};
use serde_json::{json, Value};

use crate::data::CountryData;
use crate::mutations::{
    check_decimal, MutationError, BAD_USER_INPUT, INVALID_TRANSITION, NOT_FOUND,
};
use crate::scalars::Decimal;

/// How long a quote can be used, in seconds: the longest the service's documentation gives
/// (30 to 180 s, depending on volatility).
pub const QUOTE_TTL_SECS: i64 = 180;

/// How long a deposit or withdrawal waits to be paid, in seconds.
pub const PAYMENT_TTL_SECS: i64 = 1800;

/// A quote used after its `expiresAt`.
pub const QUOTE_EXPIRED: &str = "QUOTE_EXPIRED";

/// The agent who takes every request in the sandbox.
pub const SANDBOX_AGENT: &str = "Sandbox Agent 1";

/// `deposit` or `withdrawal` (the direct ramp's `PaymentTypeType`).
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(rename_items = "snake_case")]
pub enum PaymentTypeType {
    Deposit,
    Withdrawal,
}

/// Who a customer's payment method belongs to.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(name = "P2PPaymentMethodOwnership", rename_items = "snake_case")]
pub enum Ownership {
    /// The customer's own account.
    FirstParty,
    /// Someone else's account.
    ThirdParty,
}

/// The status of a deposit or withdrawal made from a quote (the sandbox's own name for the
/// type: the service's sources show the values, not the type). A deposit goes pending →
/// paid → completed, or pending → canceled; a withdrawal starts picked_up → completed.
#[derive(Enum, Copy, Clone, Debug, PartialEq, Eq)]
#[graphql(name = "QuotePaymentRequestStatus", rename_items = "snake_case")]
pub enum Status {
    Pending,
    Paid,
    PickedUp,
    Completed,
    Canceled,
}

impl Status {
    /// The GraphQL name, e.g. `picked_up`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Paid => "paid",
            Status::PickedUp => "picked_up",
            Status::Completed => "completed",
            Status::Canceled => "canceled",
        }
    }
}

/// Where an onchain deposit's crypto goes: accepted and kept (the sandbox has no chain leg).
#[derive(InputObject, Clone, Debug)]
#[graphql(name = "OnchainTransferInfo")]
pub struct OnchainTransferInfo {
    /// The destination address.
    pub address: String,
    /// The coin, as the service names it (`usd_tether`).
    pub cryptocurrency: String,
    /// The network, as the service names it (`celo`).
    pub network: String,
}

/// The value of one of a payment method type's fields.
#[derive(InputObject, Clone, Debug)]
#[graphql(name = "P2PPaymentMethodFieldInput")]
pub struct FieldInput {
    /// The field's `identifier` (`PaymentMethodType.fields`).
    pub identifier: String,
    pub value: String,
}

/// A customer of the direct ramp.
#[derive(SimpleObject, Clone, Debug)]
pub struct Customer {
    pub id: ID,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// The customer's country.
    pub country: crate::data::Country,
}

/// One field's value of a customer's payment method.
#[derive(SimpleObject, Clone, Debug)]
#[graphql(name = "PaymentMethodFieldValue")]
pub struct FieldValue {
    pub identifier: String,
    pub value: String,
}

/// A customer's payment method (`addPaymentMethod`).
#[derive(SimpleObject, Clone, Debug)]
pub struct CustomerPaymentMethod {
    pub id: ID,
    /// The account or phone number it pays to.
    pub value: String,
    /// The values of the type's fields, as given.
    pub fields: Vec<FieldValue>,
    /// The customer's id (the sandbox's own).
    pub customer: ID,
    /// The type's identifier (the sandbox's own).
    pub payment_method_type: String,
    /// The account or phone number with all but its last 4 characters hidden (the
    /// sandbox's own).
    pub display_value: String,
    /// `first_party` or `third_party`, as given (the sandbox's own).
    pub ownership: Option<Ownership>,
}

/// A quote: `amount` of `currency` at `exchangeRate` (local currency per USD).
#[derive(SimpleObject, Clone, Debug)]
pub struct RampQuote {
    pub id: ID,
    /// The customer's id (the sandbox's own).
    pub customer: ID,
    pub payment_type: PaymentTypeType,
    /// The quoted type's identifier (the sandbox's own).
    pub payment_method_type: String,
    /// The amount quoted, in `currency` (the sandbox's own).
    pub amount: Decimal,
    /// `usd` or `local_currency`, as asked (the sandbox's own).
    pub currency: String,
    pub exchange_rate: Decimal,
    /// The amount in the local currency (the sandbox's own).
    pub amount_local: Decimal,
    /// The amount in USD (the sandbox's own).
    pub amount_usd: Decimal,
    /// ISO 8601; after it the quote is refused with `QUOTE_EXPIRED` (the sandbox's own: the
    /// service shows no expiry on a quote).
    pub expires_at: String,
    #[graphql(skip)]
    pub expires_at_secs: i64,
    /// The request made from it, once one is.
    #[graphql(skip)]
    pub used_by: Option<ID>,
}

/// A deposit or withdrawal made from a quote.
#[derive(SimpleObject, Clone, Debug)]
pub struct QuotePaymentRequest {
    pub id: ID,
    /// The quote it was made from (the sandbox's own).
    pub ramp_quote: ID,
    /// `deposit` or `withdrawal` (the sandbox's own).
    pub payment_type: PaymentTypeType,
    pub status: Status,
    /// The merchant's reference, as given (the sandbox's own).
    pub reference: Option<String>,
    /// The agent who handles it.
    pub agent: Option<String>,
    /// A deposit: where the customer pays. A withdrawal: where the agent pays.
    pub payment_details: async_graphql::Json<Value>,
    pub exchange_rate: Decimal,
    pub amount_local: Decimal,
    pub amount_usd: Decimal,
    /// ISO 8601: when an unpaid request lapses.
    pub expires_at: String,
    /// The receipt `markDepositAsPaid` was given (the sandbox's own).
    pub receipt: Option<String>,
}

/// Everything the direct ramp's operations change.
#[derive(Clone, Debug, Default)]
pub struct DirectRamp {
    pub customers: Vec<Customer>,
    pub payment_methods: Vec<CustomerPaymentMethod>,
    pub quotes: Vec<RampQuote>,
    pub requests: Vec<QuotePaymentRequest>,
    /// The customers' USD virtual bank accounts.
    pub virtual_accounts: Vec<accounts::VirtualBankAccount>,
    /// Numbers the next customer, method, quote or request.
    next: u32,
}

/// `rampQuote`'s arguments (the GraphQL layer has checked their types).
#[derive(Clone, Debug)]
pub struct QuoteRequest {
    pub customer: String,
    pub amount: Decimal,
    pub currency: String,
    pub payment_type: PaymentTypeType,
    pub payment_method_type: String,
    pub country: Option<String>,
}

/// `initiateRampQuoteDeposit`'s arguments.
#[derive(Clone, Debug, Default)]
pub struct DepositRequest {
    pub ramp_quote: String,
    pub reference: Option<String>,
    pub phone_number: Option<String>,
    pub bank_account_number: Option<String>,
}

fn error(code: &'static str, message: impl Into<String>) -> MutationError {
    MutationError {
        code,
        message: message.into(),
        order: None,
    }
}

fn non_empty(value: &str, arg: &str) -> Result<(), MutationError> {
    if value.trim().is_empty() || value.len() > 256 {
        return Err(error(
            BAD_USER_INPUT,
            format!("Argument '{arg}' must not be empty or longer than 256 characters"),
        ));
    }
    Ok(())
}

/// A decimal's value (the sandbox's arithmetic is approximate; amounts show 2 decimals).
fn number(d: &Decimal) -> f64 {
    d.0.parse().unwrap_or(0.0)
}

fn two_decimals(x: f64) -> Decimal {
    Decimal::cents((x * 100.0).round() as i64)
}

fn type_name(t: PaymentTypeType) -> &'static str {
    match t {
        PaymentTypeType::Deposit => "deposit",
        PaymentTypeType::Withdrawal => "withdrawal",
    }
}

/// `value` with all but its last 4 characters hidden.
fn masked(value: &str) -> String {
    let chars: Vec<char> = value.trim().chars().collect();
    let tail: String = chars[chars.len().saturating_sub(4)..].iter().collect();
    format!("•••• {tail}")
}

impl DirectRamp {
    fn take_number(&mut self) -> u32 {
        self.next += 1;
        self.next
    }

    fn customer(&self, id: &str) -> Result<&Customer, MutationError> {
        non_empty(id, "customer")?;
        self.customers
            .iter()
            .find(|c| c.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Customer not found"))
    }

    /// `createCustomer`: `country` is a `Country.id` or its ISO code (as
    /// `p2pPaymentMethodTypes` takes it).
    pub fn create_customer(
        &mut self,
        email: &str,
        first_name: &str,
        last_name: &str,
        country: &str,
        countries: &[CountryData],
    ) -> Result<Customer, MutationError> {
        non_empty(first_name, "firstName")?;
        non_empty(last_name, "lastName")?;
        let email_ok = email.len() <= 254
            && email
                .split_once('@')
                .is_some_and(|(l, d)| !l.is_empty() && d.contains('.') && !d.contains('@'));
        if !email_ok {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'email' must be an email address",
            ));
        }
        let c = countries
            .iter()
            .find(|c| {
                c.country.id == country || c.country.code.eq_ignore_ascii_case(country.trim())
            })
            .ok_or_else(|| error(NOT_FOUND, "Country not found"))?;
        let n = self.take_number();
        let customer = Customer {
            id: ID::from(format!("cus_{n:04}")),
            email: email.to_owned(),
            first_name: first_name.trim().to_owned(),
            last_name: last_name.trim().to_owned(),
            country: c.country.clone(),
        };
        self.customers.push(customer.clone());
        Ok(customer)
    }

    /// `addPaymentMethod`: the type must be one of the customer's country's; every required
    /// field of it given, no other field.
    pub fn add_payment_method(
        &mut self,
        customer: &str,
        payment_method_type: &str,
        fields: &[FieldInput],
        ownership: Option<Ownership>,
        countries: &[CountryData],
    ) -> Result<CustomerPaymentMethod, MutationError> {
        let c = self.customer(customer)?.clone();
        let method = country_method(countries, &c.country.code, payment_method_type)?;
        for f in fields {
            non_empty(&f.value, "fields.value")?;
            if !method
                .fields
                .iter()
                .any(|m| m.identifier == f.identifier.trim())
            {
                return Err(error(
                    BAD_USER_INPUT,
                    format!(
                        "Argument 'fields' names a field that {} does not have",
                        method.identifier
                    ),
                ));
            }
        }
        if let Some(missing) = method
            .fields
            .iter()
            .find(|m| m.required && !fields.iter().any(|f| f.identifier.trim() == m.identifier))
        {
            return Err(error(
                BAD_USER_INPUT,
                format!(
                    "Argument 'fields' lacks the required field {} of {}",
                    missing.identifier, method.identifier
                ),
            ));
        }
        let value = fields
            .iter()
            .find(|f| matches!(f.identifier.trim(), "account_number" | "phone_number"))
            .map_or(String::new(), |f| f.value.trim().to_owned());
        let n = self.take_number();
        let pm = CustomerPaymentMethod {
            id: ID::from(format!("cpm_{n:04}")),
            display_value: masked(&value),
            value,
            fields: fields
                .iter()
                .map(|f| FieldValue {
                    identifier: f.identifier.trim().to_owned(),
                    value: f.value.clone(),
                })
                .collect(),
            customer: c.id.clone(),
            payment_method_type: method.identifier.clone(),
            ownership,
        };
        self.payment_methods.push(pm.clone());
        Ok(pm)
    }

    /// `rampQuote`: the country's market rate for the payment type; `currency` is `usd` or
    /// `local_currency` (the customer's country's).
    pub fn ramp_quote(
        &mut self,
        q: &QuoteRequest,
        countries: &[CountryData],
        now: i64,
    ) -> Result<RampQuote, MutationError> {
        let c = self.customer(&q.customer)?.clone();
        check_decimal(&q.amount, "amount")?;
        if number(&q.amount) <= 0.0 {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'amount' must be more than 0",
            ));
        }
        if q.country
            .as_deref()
            .is_some_and(|code| !code.eq_ignore_ascii_case(&c.country.code))
        {
            return Err(error(
                BAD_USER_INPUT,
                "Argument 'country' is not the customer's country",
            ));
        }
        let method = country_method(countries, &c.country.code, &q.payment_method_type)?;
        let data = countries
            .iter()
            .find(|d| d.country.code == c.country.code)
            .ok_or_else(|| error(NOT_FOUND, "Country not found"))?;
        let rate = match q.payment_type {
            PaymentTypeType::Deposit => data.rate.deposit_rate.clone(),
            PaymentTypeType::Withdrawal => data.rate.withdrawal_rate.clone(),
        };
        let n = self.take_number();
        let mut quote = RampQuote {
            id: ID::from(format!("rq_{n:04}")),
            customer: c.id.clone(),
            payment_type: q.payment_type,
            payment_method_type: method.identifier.clone(),
            amount: q.amount.clone(),
            currency: q.currency.clone(),
            exchange_rate: rate,
            amount_local: Decimal::text("0.00"),
            amount_usd: Decimal::text("0.00"),
            expires_at: String::new(),
            expires_at_secs: 0,
            used_by: None,
        };
        price(&mut quote, now);
        self.quotes.push(quote.clone());
        Ok(quote)
    }

    /// `refreshRampQuote`: the same quote, valid again for [`QUOTE_TTL_SECS`], with `amount`
    /// when given. A used quote is `INVALID_TRANSITION`.
    pub fn refresh_ramp_quote(
        &mut self,
        id: &str,
        amount: Option<&Decimal>,
        now: i64,
    ) -> Result<RampQuote, MutationError> {
        non_empty(id, "rampQuote")?;
        if let Some(a) = amount {
            check_decimal(a, "amount")?;
            if number(a) <= 0.0 {
                return Err(error(
                    BAD_USER_INPUT,
                    "Argument 'amount' must be more than 0",
                ));
            }
        }
        let quote = self
            .quotes
            .iter_mut()
            .find(|q| q.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Ramp quote not found"))?;
        if let Some(by) = &quote.used_by {
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "{} is used by {}: get a new quote",
                    quote.id.as_str(),
                    by.as_str()
                ),
            ));
        }
        if let Some(a) = amount {
            quote.amount = a.clone();
        }
        price(quote, now);
        Ok(quote.clone())
    }

    /// The quote `id` of `payment_type`, usable now (not expired, not used).
    fn usable_quote(
        &mut self,
        id: &str,
        payment_type: PaymentTypeType,
        now: i64,
    ) -> Result<&mut RampQuote, MutationError> {
        non_empty(id, "rampQuote")?;
        let quote = self
            .quotes
            .iter_mut()
            .find(|q| q.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Ramp quote not found"))?;
        if quote.payment_type != payment_type {
            return Err(error(
                BAD_USER_INPUT,
                format!(
                    "{} is a {} quote; this needs a {} quote",
                    quote.id.as_str(),
                    type_name(quote.payment_type),
                    type_name(payment_type)
                ),
            ));
        }
        if let Some(by) = &quote.used_by {
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "{} is used by {}: get a new quote",
                    quote.id.as_str(),
                    by.as_str()
                ),
            ));
        }
        if now >= quote.expires_at_secs {
            return Err(error(
                QUOTE_EXPIRED,
                format!(
                    "{} expired at {}: refresh it (refreshRampQuote) or get a new one",
                    quote.id.as_str(),
                    quote.expires_at
                ),
            ));
        }
        Ok(quote)
    }

    fn check_reference(&self, reference: Option<&str>) -> Result<(), MutationError> {
        let Some(r) = reference else {
            return Ok(());
        };
        non_empty(r, "reference")?;
        if self
            .requests
            .iter()
            .any(|p| p.reference.as_deref() == Some(r))
        {
            return Err(error(
                crate::payments::DUPLICATE_REFERENCE,
                "A deposit or withdrawal with this reference exists",
            ));
        }
        Ok(())
    }

    /// `initiateRampQuoteDeposit`: a `pending` deposit; a mobile-money quote needs
    /// `phoneNumber`, a bank quote `bankAccountNumber` (the account the customer pays from).
    pub fn initiate_deposit(
        &mut self,
        d: &DepositRequest,
        countries: &[CountryData],
        now: i64,
    ) -> Result<QuotePaymentRequest, MutationError> {
        self.check_reference(d.reference.as_deref())?;
        let quote = self
            .usable_quote(&d.ramp_quote, PaymentTypeType::Deposit, now)?
            .clone();
        let country = self.customer(quote.customer.as_str())?.country.code.clone();
        let method = country_method(countries, &country, &quote.payment_method_type)?;
        // The argument that carries the type's field `identifier`, when the type has it.
        let required = |identifier: &str, argument: &str, value: Option<&str>| {
            let needed = method.fields.iter().any(|f| f.identifier == identifier);
            if needed && value.is_none_or(|v| v.trim().is_empty()) {
                let m = format!(
                    "Argument '{argument}' is required for {}",
                    method.identifier
                );
                return Err(error(BAD_USER_INPUT, m));
            }
            Ok(())
        };
        required("phone_number", "phoneNumber", d.phone_number.as_deref())?;
        required(
            "account_number",
            "bankAccountNumber",
            d.bank_account_number.as_deref(),
        )?;
        let n = self.take_number();
        let id = ID::from(format!("rpr_{n:04}"));
        let details = json!({
            "paymentMethodType": method.identifier,
            "accountName": SANDBOX_AGENT,
            "accountNumber": "0000123456",
            "amountLocal": quote.amount_local.0,
            "currency": countries
                .iter()
                .find(|c| c.country.code == country)
                .map_or("USD", |c| c.country.currency.iso_code.as_str()),
            "narration": id.as_str(),
        });
        self.request_from(
            quote,
            id,
            d.reference.clone(),
            details,
            Status::Pending,
            now,
        )
    }

    /// `initiateRampQuoteWithdrawal`: a withdrawal to one of the quote's customer's payment
    /// methods, of the quote's payment method type; an agent has it at once (`picked_up`).
    pub fn initiate_withdrawal(
        &mut self,
        ramp_quote: &str,
        payment_method: &str,
        reference: Option<&str>,
        now: i64,
    ) -> Result<QuotePaymentRequest, MutationError> {
        self.check_reference(reference)?;
        non_empty(payment_method, "paymentMethod")?;
        let quote = self
            .usable_quote(ramp_quote, PaymentTypeType::Withdrawal, now)?
            .clone();
        let pm = self
            .payment_methods
            .iter()
            .find(|m| m.id.as_str() == payment_method && m.customer == quote.customer)
            .ok_or_else(|| {
                error(
                    NOT_FOUND,
                    "Payment method not found for the quote's customer",
                )
            })?;
        if pm.payment_method_type != quote.payment_method_type {
            return Err(error(
                BAD_USER_INPUT,
                format!(
                    "{} is {}; {} is quoted for {}",
                    pm.id.as_str(),
                    pm.payment_method_type,
                    quote.id.as_str(),
                    quote.payment_method_type
                ),
            ));
        }
        let details = json!({
            "paymentMethod": pm.id.as_str(),
            "paymentMethodType": pm.payment_method_type,
            "displayValue": pm.display_value,
            "amountLocal": quote.amount_local.0,
        });
        let n = self.take_number();
        let id = ID::from(format!("rpr_{n:04}"));
        self.request_from(
            quote,
            id,
            reference.map(str::to_owned),
            details,
            Status::PickedUp,
            now,
        )
    }

    fn request_from(
        &mut self,
        quote: RampQuote,
        id: ID,
        reference: Option<String>,
        details: Value,
        status: Status,
        now: i64,
    ) -> Result<QuotePaymentRequest, MutationError> {
        let p = QuotePaymentRequest {
            id: id.clone(),
            ramp_quote: quote.id.clone(),
            payment_type: quote.payment_type,
            status,
            reference,
            agent: Some(SANDBOX_AGENT.into()),
            payment_details: async_graphql::Json(details),
            exchange_rate: quote.exchange_rate.clone(),
            amount_local: quote.amount_local.clone(),
            amount_usd: quote.amount_usd.clone(),
            expires_at: crate::dates::format_datetime(now + PAYMENT_TTL_SECS),
            receipt: None,
        };
        if let Some(q) = self.quotes.iter_mut().find(|q| q.id == quote.id) {
            q.used_by = Some(id);
        }
        self.requests.push(p.clone());
        Ok(p)
    }

    /// Moves request `id` of `payment_type` from one of `from` to `to` (`action` names the
    /// mutation in the refusal).
    fn transition(
        &mut self,
        action: &str,
        id: &str,
        payment_type: Option<PaymentTypeType>,
        from: &[Status],
        to: Status,
    ) -> Result<&mut QuotePaymentRequest, MutationError> {
        non_empty(id, "paymentRequest")?;
        let p = self
            .requests
            .iter_mut()
            .find(|p| p.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Payment request not found"))?;
        if let Some(t) = payment_type.filter(|t| *t != p.payment_type) {
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "{action} needs a {}; {} is a {}",
                    type_name(t),
                    p.id.as_str(),
                    type_name(p.payment_type)
                ),
            ));
        }
        if !from.contains(&p.status) {
            let names: Vec<&str> = from.iter().map(|s| s.as_str()).collect();
            return Err(error(
                INVALID_TRANSITION,
                format!(
                    "{action} needs a {} request; {} is {}",
                    names.join(" or "),
                    p.id.as_str(),
                    p.status.as_str()
                ),
            ));
        }
        p.status = to;
        Ok(p)
    }

    /// The agent confirms a paid deposit's fiat arrived (`POST /__sandbox/ramp/complete`):
    /// paid → completed.
    pub fn complete(&mut self, id: &str) -> Result<QuotePaymentRequest, MutationError> {
        let p = self.transition(
            "complete",
            id,
            Some(PaymentTypeType::Deposit),
            &[Status::Paid],
            Status::Completed,
        )?;
        Ok(p.clone())
    }

    /// `markDepositAsPaid`: pending → paid; `receipt`, when given, "a receipt URL or
    /// reference": any text, not blank.
    pub fn mark_deposit_as_paid(
        &mut self,
        id: &str,
        receipt: Option<&str>,
    ) -> Result<bool, MutationError> {
        if let Some(r) = receipt {
            crate::mutations::check_receipt(r)?;
        }
        let p = self.transition(
            "markDepositAsPaid",
            id,
            Some(PaymentTypeType::Deposit),
            &[Status::Pending],
            Status::Paid,
        )?;
        p.receipt = receipt.map(str::to_owned);
        Ok(true)
    }

    /// `markWithdrawalAsReceived`: picked_up → completed.
    pub fn mark_withdrawal_as_received(&mut self, id: &str) -> Result<bool, MutationError> {
        self.transition(
            "markWithdrawalAsReceived",
            id,
            Some(PaymentTypeType::Withdrawal),
            &[Status::PickedUp],
            Status::Completed,
        )?;
        Ok(true)
    }

    /// `cancelDeposit`: pending (not paid yet) → canceled.
    pub fn cancel_deposit(&mut self, id: &str) -> Result<bool, MutationError> {
        self.transition(
            "cancelDeposit",
            id,
            Some(PaymentTypeType::Deposit),
            &[Status::Pending],
            Status::Canceled,
        )?;
        Ok(true)
    }

    /// Makes quote `id` expired now (`POST /__sandbox/ramp/expire-quote`).
    pub fn expire_quote(&mut self, id: &str, now: i64) -> Result<RampQuote, MutationError> {
        let q = self
            .quotes
            .iter_mut()
            .find(|q| q.id.as_str() == id)
            .ok_or_else(|| error(NOT_FOUND, "Ramp quote not found"))?;
        q.expires_at_secs = now - 1;
        q.expires_at = crate::dates::format_datetime(q.expires_at_secs);
        Ok(q.clone())
    }
}

/// Fills a quote's local and USD amounts from its amount, currency and rate, and makes it
/// valid for [`QUOTE_TTL_SECS`] from `now`.
fn price(q: &mut RampQuote, now: i64) {
    let rate = number(&q.exchange_rate).max(0.0001);
    let amount = number(&q.amount);
    let (local, usd) = if q.currency == "usd" {
        (amount * rate, amount)
    } else {
        (amount, amount / rate)
    };
    q.amount_local = two_decimals(local);
    q.amount_usd = two_decimals(usd);
    q.expires_at_secs = now + QUOTE_TTL_SECS;
    q.expires_at = crate::dates::format_datetime(q.expires_at_secs);
}

/// The payment method type `identifier` of the country with ISO code `code`.
fn country_method<'a>(
    countries: &'a [CountryData],
    code: &str,
    identifier: &str,
) -> Result<&'a crate::data::PaymentMethodType, MutationError> {
    non_empty(identifier, "paymentMethodType")?;
    countries
        .iter()
        .find(|c| c.country.code == code)
        .and_then(|c| c.methods.iter().find(|m| m.identifier == identifier.trim()))
        .ok_or_else(|| {
            error(
                NOT_FOUND,
                "Payment method type not found in the customer's country",
            )
        })
}

pub mod accounts;

#[cfg(test)]
mod tests;
