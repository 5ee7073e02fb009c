//! Test support: a recording fake transport with scripted replies and virtual sleeps, and a
//! valid sample value for every argument of every operation.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use crate::operations::{Arg, Check, Kind, Operation, Rule, Value, ALL};
use crate::transport::{is_aborted, HttpRequest, HttpResponse, Signal, Transport, TransportError};
use crate::types::OrderHistoryFilter;

/// One scripted outcome of a send.
pub enum Reply {
    /// An HTTP response.
    Http {
        status: u16,
        retry_after: Option<String>,
        body: String,
    },
    /// A transport failure.
    Fail(TransportError),
    /// The caller aborts while the request is in flight.
    AbortCaller(Signal),
}

/// A request as the transport saw it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub timeout_ms: u32,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("request body is JSON")
    }
}

pub struct FakeTransport {
    replies: RefCell<VecDeque<Reply>>,
    pub requests: RefCell<Vec<Recorded>>,
    pub sleeps: RefCell<Vec<u64>>,
    rng: Cell<u64>,
    pub now_ms: Cell<f64>,
    /// When set, the caller's flag is aborted during the next sleep.
    pub abort_during_sleep: RefCell<Option<Signal>>,
    /// What `browser_like` reports (a simulated browser page).
    pub browser: Cell<bool>,
    /// Whether a sleep moves `now_ms` forward by its length (a virtual clock).
    pub sleeps_advance_clock: Cell<bool>,
}

impl FakeTransport {
    pub fn new(seed: u64) -> Self {
        FakeTransport {
            replies: RefCell::new(VecDeque::new()),
            requests: RefCell::new(Vec::new()),
            sleeps: RefCell::new(Vec::new()),
            rng: Cell::new(seed | 1),
            now_ms: Cell::new(1_445_412_470_000.0), // 2015-10-21T07:27:50Z
            abort_during_sleep: RefCell::new(None),
            browser: Cell::new(false),
            sleeps_advance_clock: Cell::new(false),
        }
    }

    pub fn push(&self, reply: Reply) -> &Self {
        self.replies.borrow_mut().push_back(reply);
        self
    }

    pub fn http(&self, status: u16, body: &str) -> &Self {
        self.push(Reply::Http {
            status,
            retry_after: None,
            body: body.to_owned(),
        })
    }

    pub fn http_retry_after(&self, status: u16, retry_after: &str, body: &str) -> &Self {
        self.push(Reply::Http {
            status,
            retry_after: Some(retry_after.to_owned()),
            body: body.to_owned(),
        })
    }

    pub fn fail(&self, e: TransportError) -> &Self {
        self.push(Reply::Fail(e))
    }

    pub fn sent(&self) -> usize {
        self.requests.borrow().len()
    }

    pub fn request(&self, i: usize) -> Recorded {
        self.requests.borrow()[i].clone()
    }

    pub fn remaining(&self) -> usize {
        self.replies.borrow().len()
    }
}

impl Transport for FakeTransport {
    async fn send(
        &self,
        request: &HttpRequest<'_>,
        signal: Option<&Signal>,
    ) -> Result<HttpResponse, TransportError> {
        if is_aborted(signal) {
            return Err(TransportError::Aborted);
        }
        self.requests.borrow_mut().push(Recorded {
            url: request.url.to_owned(),
            headers: request.headers.to_vec(),
            body: request.body.to_owned(),
            timeout_ms: request.timeout_ms,
        });
        let reply = self.replies.borrow_mut().pop_front();
        match reply {
            None => Err(TransportError::Network("no scripted reply".into())),
            Some(Reply::Http {
                status,
                retry_after,
                body,
            }) => Ok(HttpResponse {
                status,
                retry_after,
                body,
            }),
            Some(Reply::Fail(e)) => Err(e),
            Some(Reply::AbortCaller(flag)) => {
                flag.abort();
                Err(TransportError::Aborted)
            }
        }
    }

    async fn sleep(&self, ms: u64, signal: Option<&Signal>) -> Result<(), TransportError> {
        self.sleeps.borrow_mut().push(ms);
        if self.sleeps_advance_clock.get() {
            self.now_ms.set(self.now_ms.get() + ms as f64);
        }
        if let Some(flag) = self.abort_during_sleep.borrow_mut().take() {
            flag.abort();
        }
        if is_aborted(signal) {
            Err(TransportError::Aborted)
        } else {
            Ok(())
        }
    }

    fn random(&self) -> f64 {
        // xorshift64*: deterministic for a seed.
        let mut x = self.rng.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng.set(x);
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn now_ms(&self) -> f64 {
        self.now_ms.get()
    }

    fn browser_like(&self) -> bool {
        self.browser.get()
    }
}

/// The bot's built-in mutations, in declaration order.
pub fn bot_mutations() -> Vec<&'static Operation> {
    mutations()
        .into_iter()
        .filter(|op| op.endpoint == crate::operations::Endpoint::Bot)
        .collect()
}

/// The built-in mutations, in declaration order.
pub fn mutations() -> Vec<&'static Operation> {
    ALL.iter()
        .copied()
        .filter(|op| op.kind == Kind::Mutation)
        .collect()
}

/// A value the client's checks accept for `arg` of `op` (an optional one of an
/// exactly-one pair only when it is the first). Every [`Check`] has its arm, with no
/// fallback: a new check does not compile here until it has a sample.
pub fn sample(op: &Operation, arg: &Arg) -> Value {
    let second_of_pair = matches!(op.rule, Rule::ExactlyOne(_, b, _) if b == arg.caller);
    match arg.check {
        Check::Symbol => Value::Str("BTC".into()),
        Check::CountryId => Value::Str("ng".into()),
        Check::CountryCode => Value::Str("NG".into()),
        Check::Reference => Value::Str("ref-1".into()),
        Check::Page => Value::Int(1),
        Check::PerPage => Value::Int(10),
        Check::Filter => Value::Filter(OrderHistoryFilter {
            status: Some("completed".into()),
            date_from: Some("2024-01-01".into()),
            ..OrderHistoryFilter::default()
        }),
        Check::Id => Value::Str("order-1".into()),
        Check::OptId if second_of_pair => Value::Null,
        Check::OptId => Value::Str("pm-1".into()),
        Check::Decimal | Check::OptDecimal => Value::Str("12.5".into()),
        Check::OptText => Value::Str("RCPT-2024-0042".into()),
        Check::TransactionHash => Value::Str(format!("0x{}", "ab".repeat(32))),
        Check::Email => Value::Str("ada@example.com".into()),
        Check::Name => Value::Str("Ada".into()),
        Check::PaymentType => Value::Str("deposit".into()),
        Check::OptCurrency => Value::Str("usd".into()),
        Check::OptHttpUrl => Value::Str("https://example.com/done".into()),
        Check::OptJsonObject => Value::Json(serde_json::json!({ "order": "42" })),
        Check::Currency => Value::Str("local_currency".into()),
        Check::OptPaymentType => Value::Str("withdrawal".into()),
        Check::OptCountryCode => Value::Str("NG".into()),
        Check::OptPhoneNumber => Value::Str("+254712345678".into()),
        Check::OptOwnership => Value::Str("first_party".into()),
        Check::FieldInputs => Value::FieldInputs(vec![crate::types::PaymentMethodFieldInput {
            identifier: "accountNumber".into(),
            value: "0123456789".into(),
        }]),
        Check::OptOnchainTransferInfo => {
            Value::OnchainTransferInfo(crate::types::OnchainTransferInfo {
                address: format!("0x{}", "ab".repeat(20)),
                cryptocurrency: "usd_tether".into(),
                network: "celo".into(),
            })
        }
    }
}

/// Argument values given in declaration order, for the tests of the checks themselves
/// (the shells always pass them by name).
pub fn in_order(op: &Operation, values: Vec<Value>) -> crate::operations::Arguments {
    op.args.iter().map(|a| a.caller).zip(values).collect()
}

/// [`Operation::variables`] with the values in declaration order (see [`in_order`]).
pub trait VariablesInOrder {
    /// The variables of `values`, one per argument in declaration order.
    fn variables_in_order(
        &self,
        values: Vec<Value>,
    ) -> Result<crate::operations::Variables, crate::error::Error>;
}

impl VariablesInOrder for Operation {
    fn variables_in_order(
        &self,
        values: Vec<Value>,
    ) -> Result<crate::operations::Variables, crate::error::Error> {
        if values.len() != self.args.len() {
            panic!(
                "{}: {} values for {} arguments",
                self.name,
                values.len(),
                self.args.len()
            );
        }
        self.variables(in_order(self, values))
    }
}
