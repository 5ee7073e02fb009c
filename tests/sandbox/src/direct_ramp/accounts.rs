//! The merchant's customers as a cursor connection (`account { merchantCustomers(after) }`),
//! a customer by email (`merchantCustomer`), and the customers' USD virtual bank accounts
//! (`requestVirtualBankAccount`, `virtualBankAccount`). Plain Rust, as the rest of the direct
//! ramp.
//!
//! Pages hold [`CUSTOMERS_PER_PAGE`] customers, oldest first; a page's `endCursor` is its
//! last customer's cursor (`cur_<id>`), and `after` an unknown cursor is BAD_USER_INPUT. A
//! virtual bank account is `active` as soon as it is requested, with the sandbox bank's
//! details; a customer has at most one (a second request is INVALID_TRANSITION). The fee the
//! service charges is not simulated.

use async_graphql::{SimpleObject, ID};

use super::{error, non_empty, Customer, DirectRamp};
use crate::mutations::{MutationError, BAD_USER_INPUT, INVALID_TRANSITION};

/// Customers per `merchantCustomers` page (small, so that paging shows).
pub const CUSTOMERS_PER_PAGE: usize = 2;

/// Where a connection's page ends, and whether another follows.
#[derive(SimpleObject, Clone, Debug)]
pub struct PageInfo {
    pub end_cursor: Option<String>,
    pub has_next_page: bool,
}

/// One page of the merchant's customers.
#[derive(SimpleObject, Clone, Debug)]
pub struct CustomerConnection {
    pub nodes: Vec<Customer>,
    pub page_info: PageInfo,
}

/// A customer's USD virtual bank account.
#[derive(SimpleObject, Clone, Debug)]
pub struct VirtualBankAccount {
    pub id: ID,
    /// The sandbox's own: whose account it is.
    pub customer: ID,
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    pub city: String,
    pub country: String,
    pub line1: String,
    pub postal_code: String,
    pub state: String,
    pub routing_number: String,
    /// `active` (the sandbox's value; the service's are not documented).
    pub status: String,
    /// ISO 8601.
    pub created_at: String,
}

fn cursor(c: &Customer) -> String {
    format!("cur_{}", c.id.as_str())
}

impl DirectRamp {
    /// The page of customers after `after` (the first page when `None`).
    pub fn customer_page(&self, after: Option<&str>) -> Result<CustomerConnection, MutationError> {
        let start = match after {
            None => 0,
            Some(a) => {
                self.customers
                    .iter()
                    .position(|c| cursor(c) == a)
                    .ok_or_else(|| {
                        error(
                            BAD_USER_INPUT,
                            "Argument 'after' is not a cursor of this connection",
                        )
                    })?
                    + 1
            }
        };
        let nodes: Vec<Customer> = self
            .customers
            .iter()
            .skip(start)
            .take(CUSTOMERS_PER_PAGE)
            .cloned()
            .collect();
        Ok(CustomerConnection {
            page_info: PageInfo {
                end_cursor: nodes.last().map(cursor),
                has_next_page: start + nodes.len() < self.customers.len(),
            },
            nodes,
        })
    }

    /// The customer with this email address (compared trimmed, ignoring case), if any.
    pub fn customer_by_email(&self, email: &str) -> Option<Customer> {
        let email = email.trim();
        self.customers
            .iter()
            .find(|c| c.email.eq_ignore_ascii_case(email))
            .cloned()
    }

    /// `requestVirtualBankAccount`: an `active` account for `customer` (NOT_FOUND unknown,
    /// INVALID_TRANSITION when the customer has one already).
    pub fn request_virtual_bank_account(
        &mut self,
        customer: &str,
        now_secs: i64,
    ) -> Result<VirtualBankAccount, MutationError> {
        let c = self.customer(customer)?.clone();
        if self
            .virtual_accounts
            .iter()
            .any(|a| a.customer.as_str() == c.id.as_str())
        {
            return Err(error(
                INVALID_TRANSITION,
                "The customer has a virtual bank account already",
            ));
        }
        let n = self.take_number();
        let account = VirtualBankAccount {
            id: ID::from(format!("vba_{n:04}")),
            customer: c.id.clone(),
            account_name: format!("{} {}", c.first_name, c.last_name),
            account_number: format!("9{n:09}"),
            bank_name: "Sandbox Bank, N.A.".into(),
            city: "New York".into(),
            country: "US".into(),
            line1: "1 Sandbox Plaza".into(),
            postal_code: "10001".into(),
            state: "NY".into(),
            routing_number: "000000001".into(),
            status: "active".into(),
            created_at: crate::dates::format_datetime(now_secs),
        };
        self.virtual_accounts.push(account.clone());
        Ok(account)
    }

    /// `virtualBankAccount`: an account by its id, if any.
    pub fn virtual_bank_account(
        &self,
        id: &str,
    ) -> Result<Option<VirtualBankAccount>, MutationError> {
        non_empty(id, "id")?;
        Ok(self
            .virtual_accounts
            .iter()
            .find(|a| a.id.as_str() == id)
            .cloned())
    }
}
