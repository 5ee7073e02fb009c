//! The direct ramp on a server (secret key): customers and their payment methods, quotes,
//! and the deposits and withdrawals made at a quote's rate, with the mutations that move
//! them on. Every method is a thin wrapper over one declaration in [`crate::operations`]:
//! the values by name, then [`MerchantClient::prepare`] and
//! `execute_typed`. The quote reads are retried like every query; the mutations are sent
//! once and never retried (a lost answer is `outcome_unknown`).

use super::MerchantClient;
use crate::error::Error;
use crate::operations::{
    Value, ADD_PAYMENT_METHOD, CANCEL_DEPOSIT, CREATE_CUSTOMER, INITIATE_RAMP_QUOTE_DEPOSIT,
    INITIATE_RAMP_QUOTE_WITHDRAWAL, MARK_DEPOSIT_AS_PAID, MARK_WITHDRAWAL_AS_RECEIVED, RAMP_QUOTE,
    REFRESH_RAMP_QUOTE,
};
use crate::transport::Transport;
use crate::types::{
    AddPaymentMethodArgs, CallOptions, CreateCustomerArgs, Customer, CustomerPaymentMethod,
    FieldOptions, InitiateRampQuoteDepositArgs, InitiateRampQuoteWithdrawalArgs,
    MarkDepositAsPaidArgs, QuotePaymentRequest, RampQuote, RampQuoteArgs, RefreshRampQuoteArgs,
};

/// An optional string as an argument value.
fn opt(value: Option<String>) -> Value {
    value.map_or(Value::Null, Value::Str)
}

/// Only the signal: the options of a `Boolean` mutation.
fn signal_only(options: CallOptions) -> FieldOptions {
    FieldOptions {
        fields: None,
        signal: options.signal,
    }
}

impl<T: Transport> MerchantClient<T> {
    /// The rate `args.customer` gets for `args.amount` of `args.currency` (secret key): a
    /// quote, valid until it expires, that a deposit or withdrawal then takes. A read, so
    /// retried on retryable failures.
    pub async fn ramp_quote(&self, args: RampQuoteArgs) -> Result<RampQuote, Error> {
        let values = vec![
            ("customer", Value::Str(args.customer)),
            ("amount", Value::Str(args.amount)),
            ("currency", Value::Str(args.currency)),
            ("paymentType", opt(args.payment_type)),
            ("paymentMethodType", Value::Str(args.payment_method_type)),
            ("country", opt(args.country)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&RAMP_QUOTE, values, options)).await
    }

    /// The same quote with a fresh rate and expiry, and `args.amount` when given (secret
    /// key). A read, so retried on retryable failures.
    pub async fn refresh_ramp_quote(&self, args: RefreshRampQuoteArgs) -> Result<RampQuote, Error> {
        let values = vec![
            ("rampQuote", Value::Str(args.ramp_quote)),
            ("amount", opt(args.amount)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&REFRESH_RAMP_QUOTE, values, options))
            .await
    }

    /// Creates a customer of the direct ramp (secret key). Sent once, never retried.
    pub async fn create_customer(&self, args: CreateCustomerArgs) -> Result<Customer, Error> {
        let values = vec![
            ("email", Value::Str(args.email)),
            ("firstName", Value::Str(args.first_name)),
            ("lastName", Value::Str(args.last_name)),
            ("country", Value::Str(args.country)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&CREATE_CUSTOMER, values, options))
            .await
    }

    /// Adds a payment method to a customer (secret key): `args.field_values` are the values of
    /// the payment method type's fields. Sent once, never retried.
    pub async fn add_payment_method(
        &self,
        args: AddPaymentMethodArgs,
    ) -> Result<CustomerPaymentMethod, Error> {
        let values = vec![
            ("customer", Value::Str(args.customer)),
            ("paymentMethodType", Value::Str(args.payment_method_type)),
            ("fieldValues", Value::FieldInputs(args.field_values)),
            ("ownership", opt(args.ownership)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&ADD_PAYMENT_METHOD, values, options))
            .await
    }

    /// Starts a deposit at a quote's rate (secret key): the customer then pays the agent
    /// (`payment_details`), and [`MerchantClient::mark_deposit_as_paid`] says so. Sent once,
    /// never retried.
    pub async fn initiate_ramp_quote_deposit(
        &self,
        args: InitiateRampQuoteDepositArgs,
    ) -> Result<QuotePaymentRequest, Error> {
        let values = vec![
            ("rampQuote", Value::Str(args.ramp_quote)),
            ("reference", opt(args.reference)),
            ("phoneNumber", opt(args.phone_number)),
            ("bankAccountNumber", opt(args.bank_account_number)),
            (
                "onchainTransferInfo",
                args.onchain_transfer_info
                    .map_or(Value::Null, Value::OnchainTransferInfo),
            ),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&INITIATE_RAMP_QUOTE_DEPOSIT, values, options))
            .await
    }

    /// Starts a withdrawal at a quote's rate to one of the customer's payment methods (secret
    /// key): an agent pays it, and [`MerchantClient::mark_withdrawal_as_received`] says the
    /// customer got it. Sent once, never retried.
    pub async fn initiate_ramp_quote_withdrawal(
        &self,
        args: InitiateRampQuoteWithdrawalArgs,
    ) -> Result<QuotePaymentRequest, Error> {
        let values = vec![
            ("rampQuote", Value::Str(args.ramp_quote)),
            ("paymentMethod", Value::Str(args.payment_method)),
            ("reference", opt(args.reference)),
        ];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&INITIATE_RAMP_QUOTE_WITHDRAWAL, values, options))
            .await
    }

    /// Says the customer paid the agent of a deposit (secret key), with an optional
    /// `https:` receipt. Sent once, never retried.
    pub async fn mark_deposit_as_paid(&self, args: MarkDepositAsPaidArgs) -> Result<bool, Error> {
        let values = vec![
            ("paymentRequest", Value::Str(args.payment_request)),
            ("receipt", opt(args.receipt)),
        ];
        let options = signal_only(CallOptions {
            signal: args.signal,
        });
        self.typed(self.prepare(&MARK_DEPOSIT_AS_PAID, values, options))
            .await
    }

    /// Says the customer received a withdrawal's payment (secret key). Sent once, never
    /// retried.
    pub async fn mark_withdrawal_as_received(
        &self,
        payment_request: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        let values = vec![("paymentRequest", Value::Str(payment_request.to_owned()))];
        self.typed(self.prepare(&MARK_WITHDRAWAL_AS_RECEIVED, values, signal_only(options)))
            .await
    }

    /// Cancels a deposit the customer has not paid (secret key). Sent once, never retried.
    pub async fn cancel_deposit(
        &self,
        payment_request: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        let values = vec![("paymentRequest", Value::Str(payment_request.to_owned()))];
        self.typed(self.prepare(&CANCEL_DEPOSIT, values, signal_only(options)))
            .await
    }
}
