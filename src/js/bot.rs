//! `BotClient` for JavaScript (its `OrderIterator` is in pkg-template/compose.js).

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::error::to_js;
use super::options;
use crate::bot::{order_history_values, BotClient, PageQuery};
use crate::call::PreparedCall;
use crate::config::BOT_PATH;
use crate::error::Error;
use crate::operations::{Operation, Value, BOT_CALLS, ORDER_HISTORY, PROFILE, WITHDRAWAL_INFO};
use crate::transport::FetchTransport;
use crate::types::FieldOptions;

type Client = BotClient<FetchTransport>;

// Doc comments on exported items are copied into both the .d.ts and the JS glue, where they
// count against the size budget: they are kept to one line here, and the details live on the
// option types (`types.rs`, `config.rs`: TypeScript derived by tsify, declarations only).

/// The bot (agent) endpoint's side of the wasm class `__Client` (see `super::JsClient`).
pub struct JsBotClient {
    inner: Rc<Client>,
}

impl JsBotClient {
    pub fn new(options: &JsValue) -> Result<JsBotClient, JsValue> {
        let client = Client::from_client(super::new_client(options, BOT_PATH, false)?);
        Ok(JsBotClient {
            inner: Rc::new(client),
        })
    }

    /// The client's core (configuration and transport).
    pub(super) fn core(&self) -> &super::Core {
        &self.inner
    }

    /// `orders(options)`'s checks (those of `BotClient::orders` in Rust): the error to throw,
    /// or `undefined`. Synchronous, so that invalid options throw from `orders()` itself. The iteration itself is composed from
    /// `orderHistory` in pkg-template/compose.js: as Rust (a wasm class around the pager) it
    /// cost 1.8 KB gzip of wasm and 1.3 KB of glue; the Rust API keeps `BotClient::orders`.
    pub fn check_orders(&self, options: JsValue) -> JsValue {
        let args = options::orders_args(&options);
        match args.and_then(|a| PageQuery::new(a.per_page, a.filter, a.fields.as_deref(), a.signal))
        {
            Ok(_) => JsValue::UNDEFINED,
            Err(e) => to_js(&self.inner.config().redact(e)),
        }
    }

    /// Every other method: `n` numbers them as `BOT_CALLS` (then `request`); the package entries
    /// define the named methods (pkg-template/compose.js) and their types are `BOT_TS` below.
    /// Returns what `super::start` does.
    pub fn call(&self, n: u32, a: JsValue, b: JsValue, c: JsValue) -> JsValue {
        let call = match (n, BOT_CALLS.get(n as usize)) {
            (_, None) => self.request(a, b, c),
            (0, _) => self.profile(a),
            (1, _) => self.order_history(a),
            (2, _) => self.withdrawal_info(a, b),
            (3..=5, Some(op)) => self.order_mutation(op, &a, &b),
            (_, Some(op)) => self.run_op(op, options::mutation_values(op, &a)),
        };
        super::start(&self.inner, n, call)
    }
}

// The JavaScript class (pkg-template/compose.js), declared for TypeScript here; each method
// line names the declaration's result type (checked by a native test against `operations.rs`).
#[wasm_bindgen(typescript_custom_section)]
const BOT_TS: &'static str = r#"
/** Client of the bot (agent) endpoint; every method rejects with a `SettlementError`. */
export declare class BotClient {
    /** Throws `SettlementError` (`invalid_input`) for invalid options; see `BotClientOptions`. */
    constructor(options: BotClientOptions);
    /** Releases the client's wasm memory; the client is unusable afterwards (`invalid_input`, field `this`). */
    free(): void;
    /** Every matching order, page by page, for `for await`; throws on invalid options. */
    orders(options?: OrdersOptions): OrderIterator;
    /** The agent's profile (default: every field but `apiKey`); see `ProfileOptions`. */
    profile(options?: ProfileOptions): Promise<AgentProfile>;
    /** One page of the order history; see `OrderHistoryOptions`. */
    orderHistory(options: OrderHistoryOptions): Promise<OrderHistoryPage>;
    /** Withdrawal information for a coin such as `"USDC"`, or `null` when unknown. */
    withdrawalInfo(symbol: string, options?: WithdrawalInfoOptions): Promise<WithdrawalInfo | null>;
    /** Accepts a pending withdrawal (by the order's `id`); sent once, never retried. */
    acceptWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
    /** Cancels a withdrawal (by the order's `id`); sent once, never retried. */
    cancelWithdrawal(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
    /** Confirms a deposit's fiat arrived (by the order's `id`); sent once, never retried. */
    markDepositAsReceived(p2pPayment: string, options?: RequestOptions): Promise<boolean>;
    /** Records that an accepted withdrawal was paid; see `MarkWithdrawalAsPaidOptions`. */
    markWithdrawalAsPaid(options: MarkWithdrawalAsPaidOptions): Promise<boolean>;
    /** Sets rates and margins (at least one); see `UpdateRatesOptions`. */
    updateRates(options: UpdateRatesOptions): Promise<boolean>;
    /** Sets one payment method's liquidity; see `UpdatePaymentMethodLiquidityOptions`. */
    updatePaymentMethodLiquidity(options: UpdatePaymentMethodLiquidityOptions): Promise<P2PPaymentMethod>;
    /** Any other operation's `data`; retried only if every operation in it is a query. */
    request(document: string, variables?: GraphQLVariables | null, options?: RequestOptions): Promise<{ [field: string]: unknown }>;
}

/** The async iterator of `BotClient.orders()` (pages of `orderHistory`, row by row); over after an error. */
export declare class OrderIterator {
    private constructor();
    /** The next order; calls are served in order. */
    next(): Promise<IteratorResult<P2PPayment, undefined>>;
    /** Ends the iteration (`for await` calls it on `break`). */
    return(): Promise<IteratorReturnResult<undefined>>;
    /** Ends the iteration, like `return()` (the iterator holds no wasm memory). */
    free(): void;
    [Symbol.asyncIterator](): OrderIterator;
}
"#;

/// The methods' own functions (not exported: `__call` reaches them).
impl JsBotClient {
    /// The agent's profile (default: every field but `apiKey`); see `ProfileOptions`.
    fn profile(&self, options: JsValue) -> Result<PreparedCall, Error> {
        options::field_options(&options).and_then(|o| self.inner.prepare(&PROFILE, vec![], o))
    }

    /// One page of the order history; see `OrderHistoryOptions`.
    fn order_history(&self, options: JsValue) -> Result<PreparedCall, Error> {
        options::order_history_args(&options).and_then(|a| {
            let values = order_history_values(a.page, a.per_page, a.filter);
            let o = FieldOptions {
                fields: a.fields,
                signal: a.signal,
            };
            self.inner.prepare(&ORDER_HISTORY, values, o)
        })
    }

    /// Withdrawal information for a coin such as `"USDC"`, or `null` when unknown.
    fn withdrawal_info(&self, symbol: JsValue, options: JsValue) -> Result<PreparedCall, Error> {
        options::string_arg(&symbol, "symbol").and_then(|symbol| {
            let o = options::field_options(&options)?;
            self.inner
                .prepare(&WITHDRAWAL_INFO, vec![Value::Str(symbol)], o)
        })
    }

    /// Prepares `op` with values read from JS: one shared path for the mutations.
    fn run_op(
        &self,
        op: &Operation,
        read: Result<(Vec<Value>, FieldOptions), Error>,
    ) -> Result<PreparedCall, Error> {
        read.and_then(|(values, o)| self.inner.prepare(op, values, o))
    }

    /// A mutation on one order, by its `id`.
    fn order_mutation(
        &self,
        op: &Operation,
        p2p_payment: &JsValue,
        options: &JsValue,
    ) -> Result<PreparedCall, Error> {
        let read = options::string_arg(p2p_payment, "p2pPayment").and_then(|id| {
            let o = FieldOptions {
                fields: None,
                signal: options::call_options(options)?.signal,
            };
            Ok((vec![Value::Str(id)], o))
        });
        self.run_op(op, read)
    }

    /// Any other operation's `data`; retried only if every operation in it is a query.
    fn request(
        &self,
        document: JsValue,
        variables: JsValue,
        options: JsValue,
    ) -> Result<PreparedCall, Error> {
        options::string_arg(&document, "document").and_then(|document| {
            let vars = options::variables(&variables)?;
            let opts = options::call_options(&options)?;
            self.inner.prepare_request(&document, vars.as_ref(), opts)
        })
    }
}
