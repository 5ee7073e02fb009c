//! `BotClient`: the agent (bot) endpoint's operations.
//!
//! Every operation is one declaration in [`crate::operations`]; the client has one generic
//! path, [`BotClient::prepare`] then [`Client::execute`] (JSON) or [`Client::execute_typed`],
//! with thin typed methods over it, the same shape as [`crate::MerchantClient`]. Arguments
//! are validated before any I/O, and every error returned has been through key redaction.
//! JSON results are the decoded JSON untouched (on wasm32, the very JavaScript objects
//! `JSON.parse` made).

use crate::call::{Client, PreparedCall};
use crate::config::{BotOptions, BOT_PATH};
use crate::error::Error;
use crate::graphql::{self, Body, Expect, Variables as BodyVariables};
use crate::inputs;
use crate::json::{Json, JsonValue};
use crate::operations::{
    Endpoint, Operation, Value, Variables, ORDER_HISTORY, PROFILE, WITHDRAWAL_INFO,
};
use crate::pager::{Pager, Step};
use crate::transport::{Signal, Transport};
use crate::types::{
    from_json, AgentProfile, CallOptions, FieldOptions, OrderHistoryArgs, OrderHistoryFilter,
    OrderHistoryPage, OrdersArgs, P2PPayment, WithdrawalInfo,
};

/// A client of the bot (agent) endpoint, `{baseUrl}/service/bot/graphql`. Dereferences to
/// the shared [`Client`] (`execute`, `execute_typed`, `config`, `transport`).
pub struct BotClient<T: Transport> {
    client: Client<T>,
}

impl<T: Transport> std::ops::Deref for BotClient<T> {
    type Target = Client<T>;
    fn deref(&self) -> &Client<T> {
        &self.client
    }
}

/// The `orderHistory` argument values, in declaration order.
pub fn order_history_values(
    page: i64,
    per_page: Option<i64>,
    filter: OrderHistoryFilter,
) -> Vec<Value> {
    vec![
        Value::Int(page),
        per_page.map_or(Value::Null, Value::Int),
        Value::Filter(filter),
    ]
}

/// A validated order-history query, ready to fetch any page of (the building block of
/// `orders`).
#[derive(Clone)]
pub struct PageQuery {
    document: String,
    variables: Variables,
    signal: Option<Signal>,
}

impl PageQuery {
    /// Validates the arguments shared by `order_history` and `orders`.
    pub fn new(
        per_page: Option<i64>,
        filter: OrderHistoryFilter,
        fields: Option<&[String]>,
        signal: Option<Signal>,
    ) -> Result<PageQuery, Error> {
        let variables = ORDER_HISTORY.variables(order_history_values(1, per_page, filter))?;
        let selection = graphql::selection(fields, ORDER_HISTORY.fields)?;
        Ok(PageQuery {
            document: ORDER_HISTORY.document(&selection),
            variables,
            signal,
        })
    }

    /// The call for page `page` (from 1; the pager keeps it within GraphQL's `Int`).
    pub fn call(&self, page: i64) -> Result<PreparedCall, Error> {
        let mut variables = self.variables.clone();
        if let Some(v) = variables.iter_mut().find(|(name, _)| *name == "page") {
            v.1 = Value::Int(inputs::page(page)?);
        }
        PreparedCall::new(
            &ORDER_HISTORY,
            &self.document,
            &variables,
            self.signal.clone(),
        )
    }
}

#[cfg(target_arch = "wasm32")]
impl BotClient<crate::transport::FetchTransport> {
    /// A client over the global `fetch`.
    pub fn new(options: BotOptions) -> Result<Self, Error> {
        Self::with_transport(options, crate::transport::FetchTransport::new(None))
    }
}

impl<T: Transport> BotClient<T> {
    /// Wraps a validated core (the JS binding builds it with the other client).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn from_client(client: Client<T>) -> Self {
        BotClient { client }
    }

    /// A client over any [`Transport`].
    pub fn with_transport(options: BotOptions, transport: T) -> Result<Self, Error> {
        Ok(BotClient {
            client: Client::new(&options, BOT_PATH, transport)?,
        })
    }

    /// Validates and builds a call of a bot operation (`operations::PROFILE`,
    /// `ORDER_HISTORY`, `WITHDRAWAL_INFO`): `values` one per argument, in declaration
    /// order; the selection from `options.fields` or the operation's default.
    pub fn prepare(
        &self,
        op: &Operation,
        values: Vec<Value>,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.client.prepare_on(Endpoint::Bot, op, values, options)
    }

    /// Runs a bot operation and returns its result as JSON, untouched.
    pub async fn call_json(
        &self,
        op: &Operation,
        values: Vec<Value>,
        options: FieldOptions,
    ) -> Result<Json, Error> {
        self.execute(&self.prepare(op, values, options)?).await
    }

    /// The agent's profile. Default selection: every `AgentProfile` field but `apiKey`.
    pub async fn profile(&self, options: FieldOptions) -> Result<AgentProfile, Error> {
        self.execute_typed(self.prepare(&PROFILE, vec![], options))
            .await
    }

    /// One page of the order history.
    pub async fn order_history(&self, args: OrderHistoryArgs) -> Result<OrderHistoryPage, Error> {
        let values = order_history_values(args.page, args.per_page, args.filter);
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.execute_typed(self.prepare(&ORDER_HISTORY, values, options))
            .await
    }

    /// Every order matching the filter, across pages; the next page is fetched only when
    /// needed. Arguments are validated here, before the first page is fetched.
    pub fn orders(&self, args: OrdersArgs) -> Result<Orders<'_, T>, Error> {
        let query = self.redact(PageQuery::new(
            args.per_page,
            args.filter,
            args.fields.as_deref(),
            args.signal,
        ))?;
        Ok(Orders {
            client: self,
            query,
            pager: Pager::new(),
        })
    }

    /// Withdrawal information for a coin, `None` when the service does not know it.
    /// `symbol` is trimmed and must not be empty.
    pub async fn withdrawal_info(
        &self,
        symbol: &str,
        options: FieldOptions,
    ) -> Result<Option<WithdrawalInfo>, Error> {
        let values = vec![Value::Str(symbol.to_owned())];
        self.execute_typed(self.prepare(&WITHDRAWAL_INFO, values, options))
            .await
    }

    /// Validates and builds a call of any other operation. `variables` must be a JSON
    /// object; it is sent as it is. Retryable only when every operation in `document` is a
    /// query.
    pub fn prepare_request(
        &self,
        document: &str,
        variables: Option<&Json>,
        options: CallOptions,
    ) -> Result<PreparedCall, Error> {
        self.redact(inputs::document(document).and_then(|()| {
            let bad = || {
                Error::invalid(
                    "variables",
                    "variables must be a plain object that JSON can represent",
                )
            };
            let variables = match variables.filter(|v| !v.is_null()) {
                None => BodyVariables::None,
                Some(v) => match v.to_text() {
                    Some(t) if v.is_object() && t.starts_with('{') => BodyVariables::Caller(v),
                    _ => return Err(bad()),
                },
            };
            let body = Body {
                query: document,
                variables,
                operation_name: None,
            };
            Ok(PreparedCall {
                body: body.to_text().ok_or_else(bad)?,
                retryable: graphql::is_read_only(document),
                expect: Expect::Data,
                signal: options.signal,
            })
        }))
    }

    /// Any other operation: returns its `data`. Retried (like the built-in queries) only
    /// when every operation in `document` is a query.
    pub async fn request(
        &self,
        document: &str,
        variables: Option<&Json>,
        options: CallOptions,
    ) -> Result<Json, Error> {
        self.execute(&self.prepare_request(document, variables, options)?)
            .await
    }
}

/// The iteration returned by [`BotClient::orders`].
pub struct Orders<'a, T: Transport> {
    client: &'a BotClient<T>,
    query: PageQuery,
    pager: Pager,
}

impl<T: Transport> Orders<'_, T> {
    /// The next order as JSON, `None` at the end. After an error the iteration is over.
    pub async fn next_json(&mut self) -> Result<Option<Json>, Error> {
        loop {
            match self.pager.step() {
                Step::Row(row) => return Ok(Some(row)),
                Step::Done => return Ok(None),
                Step::Fetch(page) => {
                    let fetched = match self.client.redact(self.query.call(page)) {
                        Ok(call) => self.client.execute(&call).await,
                        Err(e) => Err(e),
                    };
                    match fetched {
                        Ok(p) => self.pager.receive(&p),
                        Err(e) => {
                            self.pager.finish();
                            return Err(e);
                        }
                    }
                }
            }
        }
    }

    /// The next order, `None` at the end. After an error the iteration is over.
    pub async fn next(&mut self) -> Result<Option<P2PPayment>, Error> {
        match self.next_json().await? {
            None => Ok(None),
            Some(row) => from_json(&row, 200)
                .map(Some)
                .inspect_err(|_| self.pager.finish()),
        }
    }

    /// Stops the iteration.
    pub fn close(&mut self) {
        self.pager.finish();
    }
}

#[cfg(test)]
mod tests;
