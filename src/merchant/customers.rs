//! The merchant's customers, onchain withdrawals read back, and USD virtual bank accounts, on
//! a server (secret key). Every method is a thin wrapper over one declaration in
//! [`crate::operations`]: the values by name, then [`MerchantClient::prepare`] and
//! `execute_typed`. `customers()` drives the core's cursor search ([`crate::pager`]) as
//! `orders()` drives the order search.

use std::sync::Arc;

use super::MerchantClient;
use crate::call::Client;
use crate::error::Error;
use crate::operations::{
    Value, MERCHANT_CUSTOMER, MERCHANT_CUSTOMERS, ONCHAIN_WITHDRAWAL, REQUEST_VIRTUAL_BANK_ACCOUNT,
    VIRTUAL_BANK_ACCOUNT,
};
use crate::pager::{CursorQuery, Search};
use crate::transport::Transport;
use crate::types::{
    from_json, CustomersArgs, FieldOptions, MerchantCustomer, MerchantCustomerPage,
    MerchantCustomersArgs, OnchainWithdrawal, VirtualBankAccount,
};

impl<T: Transport> MerchantClient<T> {
    /// An onchain withdrawal by its `id` (secret key), `None` when the service does not know
    /// it: `pending`, then `completed` or `failed`. How a [`MerchantClient::withdraw_onchain`]
    /// that ended `outcome_unknown` is read back. A read, so retried.
    pub async fn onchain_withdrawal(
        &self,
        id: &str,
        options: FieldOptions,
    ) -> Result<Option<OnchainWithdrawal>, Error> {
        let values = vec![("id", Value::Str(id.to_owned()))];
        self.typed(self.prepare(&ONCHAIN_WITHDRAWAL, values, options))
            .await
    }

    /// One page of the merchant's customers (secret key): `args.after` is the previous
    /// page's `page_info.end_cursor` (the first page when `None`). A read, so retried. To
    /// walk every page, use [`MerchantClient::customers`].
    pub async fn merchant_customers(
        &self,
        args: MerchantCustomersArgs,
    ) -> Result<MerchantCustomerPage, Error> {
        let values = vec![("after", args.after.map_or(Value::Null, Value::Str))];
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&MERCHANT_CUSTOMERS, values, options))
            .await
    }

    /// Every customer of the merchant, page by page (secret key); the next page is fetched
    /// only when needed. The selection is validated here, before the first page. The
    /// iteration owns a clone of the client ([`Customers::into_stream`] makes it a `Stream`).
    pub fn customers(&self, args: CustomersArgs) -> Result<Customers<T>, Error> {
        let query = self.redact(CursorQuery::customers(args.fields.as_deref(), args.signal))?;
        Ok(Customers {
            client: self.shared(),
            search: Search::cursor(query),
        })
    }

    /// The merchant's customer with this email address (secret key), `None` when there is
    /// none. A read, so retried.
    pub async fn merchant_customer(
        &self,
        email: &str,
        options: FieldOptions,
    ) -> Result<Option<MerchantCustomer>, Error> {
        let values = vec![("email", Value::Str(email.to_owned()))];
        self.typed(self.prepare(&MERCHANT_CUSTOMER, values, options))
            .await
    }

    /// Requests a USD virtual bank account for a customer (secret key): `{ id, status }` by
    /// default. **The service charges a fee for it, not refunded.** Sent once, never retried:
    /// a lost answer is `outcome_unknown`; do not request again blindly (a second request
    /// may be charged again): ask the service about the customer's accounts first.
    pub async fn request_virtual_bank_account(
        &self,
        customer: &str,
        options: FieldOptions,
    ) -> Result<VirtualBankAccount, Error> {
        let values = vec![("customer", Value::Str(customer.to_owned()))];
        self.typed(self.prepare(&REQUEST_VIRTUAL_BANK_ACCOUNT, values, options))
            .await
    }

    /// A virtual bank account by its `id` (secret key), `None` when the service does not know
    /// it. A read, so retried.
    pub async fn virtual_bank_account(
        &self,
        id: &str,
        options: FieldOptions,
    ) -> Result<Option<VirtualBankAccount>, Error> {
        let values = vec![("id", Value::Str(id.to_owned()))];
        self.typed(self.prepare(&VIRTUAL_BANK_ACCOUNT, values, options))
            .await
    }
}

/// The iteration returned by [`MerchantClient::customers`]: it owns a clone of the client,
/// so it can outlive the borrow it was made from.
pub struct Customers<T: Transport> {
    client: Arc<Client<T>>,
    search: Search,
}

impl<T: Transport> std::fmt::Debug for Customers<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Customers").finish_non_exhaustive()
    }
}

impl<T: Transport> Customers<T> {
    /// The next customer, `None` at the end. After an error the iteration is over.
    pub async fn next(&mut self) -> Result<Option<MerchantCustomer>, Error> {
        match crate::bot::drive(
            &self.client,
            &mut self.search,
            crate::events::Source::Orders,
        )
        .await?
        {
            None => Ok(None),
            Some(row) => from_json(&row, 200)
                .map(Some)
                .inspect_err(|_| self.search.finish()),
        }
    }

    /// Stops the iteration.
    pub fn close(&mut self) {
        self.search.finish();
    }

    /// The customers as a [`futures_core::Stream`] of results; it ends after the last one or
    /// after the first error. Boxed, so it is `Unpin`.
    pub fn into_stream(
        self,
    ) -> std::pin::Pin<Box<impl futures_core::Stream<Item = Result<MerchantCustomer, Error>>>> {
        Box::pin(futures_util::stream::unfold(
            Some(self),
            |state| async move {
                let mut customers = state?;
                match customers.next().await {
                    Ok(Some(c)) => Some((Ok(c), Some(customers))),
                    Ok(None) => None,
                    Err(e) => Some((Err(e), None)),
                }
            },
        ))
    }
}
