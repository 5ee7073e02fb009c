//! `BotClient`: the agent (bot) endpoint's operations.
//!
//! Every operation is one declaration in [`crate::operations`]; the client has one generic
//! path, [`BotClient::prepare`] then [`Client::execute`] (JSON) or [`Client::execute_typed`],
//! with thin typed methods over it, the same shape as [`crate::MerchantClient`]. Arguments
//! are validated before any I/O, and every error returned has been through key redaction.
//! JSON results are `serde_json::Value` on every target.

use std::sync::Arc;

use crate::call::{with_response, Capture, Client, PreparedCall};
use crate::config::{BotOptions, BOT_PATH};
use crate::error::Error;
use crate::events::{ResponseInfo, Source};
use crate::json::Json;
use crate::operations::{
    Arguments, Endpoint, Operation, Value, ACCEPT_WITHDRAWAL, CANCEL_WITHDRAWAL,
    MARK_DEPOSIT_AS_RECEIVED, MARK_WITHDRAWAL_AS_PAID, ORDER_HISTORY, PROFILE,
    UPDATE_PAYMENT_METHOD_LIQUIDITY, UPDATE_RATES, WITHDRAWAL_INFO,
};
use crate::pager::{order_history_values, PageQuery, Search, SearchStep};
use crate::transport::{Signal, Transport};
use crate::types::{
    from_json, AgentProfile, CallOptions, FieldOptions, MarkWithdrawalAsPaidArgs, OrderHistoryArgs,
    OrderHistoryPage, OrdersArgs, P2PPayment, P2PPaymentMethod, UpdateLiquidityArgs,
    UpdateRatesArgs, WithdrawalInfo,
};

/// A client of the bot (agent) endpoint, `{baseUrl}/service/bot/graphql`. Dereferences to
/// the shared [`Client`] (`execute`, `execute_typed`, `config`, `transport`).
///
/// Cloning is cheap (the clones share one configuration and transport), so a UI component
/// or a server's state can hold its own. Over [`crate::ReqwestTransport`] the client is
/// `Send + Sync` and its futures are `Send`.
pub struct BotClient<T: Transport> {
    client: Arc<Client<T>>,
    /// Set on the clone a `with_response` function is given: its first call's response.
    capture: Option<Arc<Capture>>,
}

impl<T: Transport> Clone for BotClient<T> {
    fn clone(&self) -> Self {
        BotClient {
            client: Arc::clone(&self.client),
            capture: self.capture.clone(),
        }
    }
}

impl<T: Transport> std::fmt::Debug for BotClient<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotClient")
            .field("config", self.client.config())
            .finish()
    }
}

impl<T: Transport> std::ops::Deref for BotClient<T> {
    type Target = Client<T>;
    fn deref(&self) -> &Client<T> {
        &self.client
    }
}

fn opt(v: Option<String>) -> Value {
    v.map_or(Value::Null, Value::Str)
}

/// The `markWithdrawalAsPaid` argument values (by name) and call options.
pub(crate) fn mark_paid_values(a: MarkWithdrawalAsPaidArgs) -> (Arguments, FieldOptions) {
    let values = vec![
        ("p2pPayment", Value::Str(a.p2p_payment)),
        ("paymentMethod", Value::Str(a.payment_method)),
        ("receipt", opt(a.receipt)),
    ];
    (values, signal_only(a.signal))
}

/// The `updateRates` argument values (by name) and call options.
pub(crate) fn rates_values(a: UpdateRatesArgs) -> (Arguments, FieldOptions) {
    let values = vec![
        ("depositRate", opt(a.deposit_rate)),
        ("depositMargin", opt(a.deposit_margin)),
        ("withdrawalRate", opt(a.withdrawal_rate)),
        ("withdrawalMargin", opt(a.withdrawal_margin)),
    ];
    (values, signal_only(a.signal))
}

/// The `updatePaymentMethodLiquidity` argument values (by name) and call options.
pub(crate) fn liquidity_values(a: UpdateLiquidityArgs) -> (Arguments, FieldOptions) {
    let values = vec![
        ("paymentMethod", opt(a.payment_method)),
        ("paymentMethodType", opt(a.payment_method_type)),
        ("amountLocal", Value::Str(a.amount_local)),
    ];
    let options = FieldOptions {
        fields: a.fields,
        signal: a.signal,
    };
    (values, options)
}

fn signal_only(signal: Option<Signal>) -> FieldOptions {
    FieldOptions {
        fields: None,
        signal,
    }
}

#[cfg(any(target_arch = "wasm32", feature = "reqwest"))]
impl BotClient<crate::transport::DefaultTransport> {
    /// A client over the target's transport: the global `fetch` on wasm32, reqwest natively
    /// (feature `reqwest`; inside a tokio runtime). Invalid options are an `invalid_input`
    /// error naming the option.
    ///
    /// ```
    /// use settlement_wasm::{BotClient, BotOptions};
    ///
    /// let bot = BotClient::new(BotOptions {
    ///     base_url: Some("https://settlement.example".into()),
    ///     api_key: Some("agent-key".into()),
    ///     ..BotOptions::default()
    /// })?;
    /// assert_eq!(bot.config().endpoint(), "https://settlement.example/service/bot/graphql");
    /// # Ok::<(), settlement_wasm::Error>(())
    /// ```
    #[cfg_attr(docsrs, doc(cfg(any(target_arch = "wasm32", feature = "reqwest"))))]
    pub fn new(options: BotOptions) -> Result<Self, Error> {
        Self::with_transport(options, crate::transport::DefaultTransport::default())
    }
}

impl<T: Transport> BotClient<T> {
    /// A client over any [`Transport`].
    pub fn with_transport(options: BotOptions, transport: T) -> Result<Self, Error> {
        Ok(BotClient {
            client: Arc::new(Client::new(&options, BOT_PATH, transport)?),
            capture: None,
        })
    }

    /// Validates and builds a call of a bot operation (`operations::PROFILE`,
    /// `ORDER_HISTORY`, `WITHDRAWAL_INFO`, …): `values` by the names callers know the
    /// arguments by (`[("symbol", Value::Str(..))]`); the selection from `options.fields` or
    /// the operation's default.
    pub fn prepare(
        &self,
        op: &Operation,
        values: Arguments,
        options: FieldOptions,
    ) -> Result<PreparedCall, Error> {
        self.client.prepare_on(Endpoint::Bot, op, values, options)
    }

    /// The value of the call `start` makes with the client it is given (a clone of this one),
    /// and the response behind it, read from the same request: the status, the headers
    /// (without `set-cookie`, no piece of the key) and the service's request id. Only the
    /// first call `start` makes is observed; if it makes none, `invalid_input` (`call`). A
    /// failed call's error carries the response's headers and request id already.
    ///
    /// ```no_run
    /// # async fn f(bot: settlement_wasm::BotClient<settlement_wasm::DefaultTransport>) -> Result<(), settlement_wasm::Error> {
    /// let (profile, response) = bot
    ///     .with_response(|c| async move { c.profile(Default::default()).await })
    ///     .await?;
    /// println!("{:?} {} {:?}", profile.id, response.status, response.request_id);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn with_response<R, Fut>(
        &self,
        start: impl FnOnce(Self) -> Fut,
    ) -> Result<(R, ResponseInfo), Error>
    where
        Fut: std::future::Future<Output = Result<R, Error>>,
    {
        let capture = Arc::new(Capture::default());
        let scoped = BotClient {
            client: Arc::clone(&self.client),
            capture: Some(Arc::clone(&capture)),
        };
        with_response(scoped, &capture, start).await
    }

    /// Runs a call and reads its result as `R` (in a `with_response` scope, its response is kept).
    async fn typed<R: serde::de::DeserializeOwned>(
        &self,
        call: Result<PreparedCall, Error>,
    ) -> Result<R, Error> {
        self.client
            .execute_typed_in(call, self.capture.as_deref())
            .await
    }

    /// Runs a call and returns its result as JSON (in a `with_response` scope, its response is kept).
    async fn json(&self, call: &PreparedCall) -> Result<serde_json::Value, Error> {
        self.client
            .execute_json_in(call, self.capture.as_deref())
            .await
    }

    /// Runs a bot operation and returns its result as JSON.
    pub async fn call_json(
        &self,
        op: &Operation,
        values: Arguments,
        options: FieldOptions,
    ) -> Result<serde_json::Value, Error> {
        self.json(&self.prepare(op, values, options)?).await
    }

    /// The agent's profile. Default selection: every `AgentProfile` field but `apiKey`.
    pub async fn profile(&self, options: FieldOptions) -> Result<AgentProfile, Error> {
        self.typed(self.prepare(&PROFILE, vec![], options)).await
    }

    /// One page of the order history.
    pub async fn order_history(&self, args: OrderHistoryArgs) -> Result<OrderHistoryPage, Error> {
        let values = order_history_values(args.page, args.per_page, args.filter);
        let options = FieldOptions {
            fields: args.fields,
            signal: args.signal,
        };
        self.typed(self.prepare(&ORDER_HISTORY, values, options))
            .await
    }

    /// Every order matching the filter, across pages; the next page is fetched only when
    /// needed. Arguments are validated here, before the first page is fetched. The
    /// iteration owns a clone of the client ([`Orders::into_stream`] makes it a `Stream`).
    pub fn orders(&self, args: OrdersArgs) -> Result<Orders<T>, Error> {
        let query = self.redact(PageQuery::new(
            args.per_page,
            args.filter,
            args.fields.as_deref(),
            args.signal,
        ))?;
        Ok(Orders {
            client: Arc::clone(&self.client),
            search: Search::orders(query),
        })
    }

    /// Withdrawal information for a coin, `None` when the service does not know it.
    /// `symbol` is trimmed and must not be empty.
    pub async fn withdrawal_info(
        &self,
        symbol: &str,
        options: FieldOptions,
    ) -> Result<Option<WithdrawalInfo>, Error> {
        let values = vec![("symbol", Value::Str(symbol.to_owned()))];
        self.typed(self.prepare(&WITHDRAWAL_INFO, values, options))
            .await
    }

    /// Accepts a pending withdrawal (`pending` → `picked_up`). `p2p_payment` is the order's
    /// `id`. Sent once, never retried: a lost answer is `outcome_unknown` (see
    /// [`BotClient::reconcile`]).
    pub async fn accept_withdrawal(
        &self,
        p2p_payment: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        self.order_mutation(&ACCEPT_WITHDRAWAL, p2p_payment, options)
            .await
    }

    /// Cancels a withdrawal (`pending` or `picked_up` → `canceled`). Sent once.
    pub async fn cancel_withdrawal(
        &self,
        p2p_payment: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        self.order_mutation(&CANCEL_WITHDRAWAL, p2p_payment, options)
            .await
    }

    /// Confirms that a deposit's fiat arrived (→ `completed`). Sent once.
    pub async fn mark_deposit_as_received(
        &self,
        p2p_payment: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        self.order_mutation(&MARK_DEPOSIT_AS_RECEIVED, p2p_payment, options)
            .await
    }

    async fn order_mutation(
        &self,
        op: &Operation,
        p2p_payment: &str,
        options: CallOptions,
    ) -> Result<bool, Error> {
        let values = vec![("p2pPayment", Value::Str(p2p_payment.to_owned()))];
        self.typed(self.prepare(op, values, signal_only(options.signal)))
            .await
    }

    /// Records that an accepted withdrawal was paid (`picked_up` → `paid`). Sent once.
    pub async fn mark_withdrawal_as_paid(
        &self,
        args: MarkWithdrawalAsPaidArgs,
    ) -> Result<bool, Error> {
        let (values, options) = mark_paid_values(args);
        self.typed(self.prepare(&MARK_WITHDRAWAL_AS_PAID, values, options))
            .await
    }

    /// Sets the rates and margins given (at least one). Sent once.
    pub async fn update_rates(&self, args: UpdateRatesArgs) -> Result<bool, Error> {
        let (values, options) = rates_values(args);
        self.typed(self.prepare(&UPDATE_RATES, values, options))
            .await
    }

    /// Sets the local currency available on one payment method. Sent once.
    pub async fn update_payment_method_liquidity(
        &self,
        args: UpdateLiquidityArgs,
    ) -> Result<P2PPaymentMethod, Error> {
        let (values, options) = liquidity_values(args);
        self.typed(self.prepare(&UPDATE_PAYMENT_METHOD_LIQUIDITY, values, options))
            .await
    }

    /// Reads an order back after a mutation whose outcome is unknown: `orderHistory`
    /// filtered by the order's `orderId` (every page), and the record whose `id` matches, or
    /// `None`. `order` is a row as `order_history` returns it; it needs `id` and `orderId`.
    pub async fn reconcile(
        &self,
        order: &P2PPayment,
        options: FieldOptions,
    ) -> Result<Option<P2PPayment>, Error> {
        let found = self
            .reconcile_ids(order.id.clone(), order.order_id.clone(), options)
            .await?;
        match found {
            None => Ok(None),
            Some(row) => from_json(&row, 200).map(Some),
        }
    }

    /// [`BotClient::reconcile`] for an order given as JSON; the record as JSON.
    pub async fn reconcile_json(
        &self,
        order: &serde_json::Value,
        options: FieldOptions,
    ) -> Result<Option<serde_json::Value>, Error> {
        let member = |k: &str| order.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        let found = self
            .reconcile_ids(member("id"), member("orderId"), options)
            .await?;
        found
            .map(|row| crate::json::to_value(&row, 200))
            .transpose()
    }

    async fn reconcile_ids(
        &self,
        id: Option<String>,
        order_id: Option<String>,
        options: FieldOptions,
    ) -> Result<Option<Json>, Error> {
        let mut search = self.redact(Search::reconcile(id, order_id, options))?;
        drive(&self.client, &mut search, Source::Reconcile).await
    }

    /// Validates and builds a call of any other operation. `variables` must be a JSON
    /// object; it is sent as it is. Retryable only when every operation in `document` is a
    /// query.
    pub fn prepare_request(
        &self,
        document: &str,
        variables: Option<&serde_json::Value>,
        options: CallOptions,
    ) -> Result<PreparedCall, Error> {
        let variables = match variables.map(crate::json::from_value) {
            Some(None) => {
                let m = "variables must be a plain object that JSON can represent";
                return Err(Error::invalid("variables", m));
            }
            Some(Some(v)) => Some(v),
            None => None,
        };
        self.redact(crate::call::prepare_request(
            document,
            variables.as_ref(),
            options.signal,
        ))
    }

    /// Any other operation: returns its `data`. Retried (like the built-in queries) only
    /// when every operation in `document` is a query.
    pub async fn request(
        &self,
        document: &str,
        variables: Option<&serde_json::Value>,
        options: CallOptions,
    ) -> Result<serde_json::Value, Error> {
        self.json(&self.prepare_request(document, variables, options)?)
            .await
    }
}

/// The Rust shell of a [`Search`]: its next row as JSON, running its page calls through
/// `client` (their events tagged `source`); `None` at the end. A failed call ends the search.
pub(crate) async fn drive<T: Transport>(
    client: &Client<T>,
    search: &mut Search,
    source: Source,
) -> Result<Option<Json>, Error> {
    loop {
        match client.redact(search.step())? {
            SearchStep::Row(row) => return Ok(Some(row)),
            SearchStep::Done => return Ok(None),
            SearchStep::Fetch(call) => match client.execute_from(&call, source, false).await {
                Ok((page, _)) => search.receive(&page.value),
                Err(e) => {
                    search.finish();
                    return Err(e);
                }
            },
        }
    }
}

/// The iteration returned by [`BotClient::orders`]: it owns a clone of the client, so it
/// can outlive the borrow it was made from (a UI task, a spawned future).
pub struct Orders<T: Transport> {
    client: Arc<Client<T>>,
    search: Search,
}

impl<T: Transport> std::fmt::Debug for Orders<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orders").finish_non_exhaustive()
    }
}

impl<T: Transport> Orders<T> {
    /// The next order as JSON, `None` at the end. After an error the iteration is over.
    pub async fn next_json(&mut self) -> Result<Option<serde_json::Value>, Error> {
        match drive(&self.client, &mut self.search, Source::Orders).await? {
            None => Ok(None),
            Some(row) => crate::json::to_value(&row, 200)
                .map(Some)
                .inspect_err(|_| self.search.finish()),
        }
    }

    /// The next order, `None` at the end. After an error the iteration is over.
    pub async fn next(&mut self) -> Result<Option<P2PPayment>, Error> {
        match drive(&self.client, &mut self.search, Source::Orders).await? {
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

    /// The orders as a [`futures_core::Stream`] of results; it ends after the last order or
    /// after the first error. Boxed, so it is `Unpin` (`stream.next().await` works as it
    /// is); `Send` when the transport's futures are.
    pub fn into_stream(
        self,
    ) -> std::pin::Pin<Box<impl futures_core::Stream<Item = Result<P2PPayment, Error>>>> {
        Box::pin(futures_util::stream::unfold(
            Some(self),
            |state| async move {
                let mut orders = state?;
                match orders.next().await {
                    Ok(Some(order)) => Some((Ok(order), Some(orders))),
                    Ok(None) => None,
                    Err(e) => Some((Err(e), None)),
                }
            },
        ))
    }
}

mod watch;
pub use watch::{OrderChange, OrderUpdate, OrderWatch};

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod mutation_tests;
