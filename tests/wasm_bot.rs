//! wasm-bindgen-test suite: the Rust API of `BotClient` over the real `fetch` transport,
//! against the sandbox, in Node and in headless Chromium (scripts/test-wasm.sh runs both).
//! The sandbox URL and keys are read at compile time (scripts/with-sandbox.sh exports them).
//!
//! How the tests observe what happened:
//! * Attempts are counted twice. Client side, every observed client's `FetchTransport` is
//!   given a `fetch` that counts its calls and keeps each request body (both runtimes).
//!   Server side, the sandbox's request log (`GET /__sandbox/requests?tag=T`) is read: every
//!   observed client sends its own random `x-sandbox-tag`.
//! * The filter oracle is agent 1's full order list, `GET /__sandbox/orders?agent=1`.
//! * Both control routes are read in both runtimes: the sandbox admits loopback origins on
//!   them, and the wasm-bindgen-test runner serves the Chromium page from 127.0.0.1.
//! * Chromium's network stack resends a request on its own when a reused keep-alive
//!   connection is reset before any response, so a `drop` fault may be logged twice per
//!   client attempt there; those tests allow for it (see `Rig::assert_dropped`).
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;

use js_sys::{Array, Function, Promise, Reflect, JSON};
use settlement_wasm::Code;
use settlement_wasm::{BotClient, BotOptions, Error};
use settlement_wasm::{
    CallOptions, FieldOptions, OrderHistoryArgs, OrderHistoryFilter, OrdersArgs,
};
use settlement_wasm::{FetchTransport, Signal};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::AbortSignal;

mod wasm_support;
use wasm_support::{get, global_fn, in_browser, now, sleep_ms, SANDBOX_URL};

const AGENT_KEY: &str = env!("AGENT_KEY");
const AGENT3_KEY: &str = env!("AGENT3_KEY");

fn options(key: Option<&str>, headers: &[(&str, &str)]) -> BotOptions {
    BotOptions {
        base_url: Some(SANDBOX_URL.to_string()),
        api_key: key.map(str::to_string),
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..BotOptions::default()
    }
}

fn bot() -> BotClient<FetchTransport> {
    BotClient::new(options(Some(AGENT_KEY), &[])).expect("valid options")
}

// ---------------------------------------------------------------------------------------
// JavaScript helpers.
// ---------------------------------------------------------------------------------------

fn get_str(v: &JsValue, key: &str) -> Option<String> {
    get(v, key).as_string()
}

fn get_num(v: &JsValue, key: &str) -> Option<f64> {
    get(v, key).as_f64()
}

fn items(v: &JsValue) -> Vec<JsValue> {
    assert!(
        Array::is_array(v),
        "expected an array, got {}",
        stringify(v)
    );
    Array::from(v).to_vec()
}

fn stringify(v: &JsValue) -> String {
    JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| format!("{v:?}"))
}

/// A JSON value of the Rust API as a JavaScript value (to read it with the helpers above).
fn js(value: &serde_json::Value) -> JsValue {
    parse(&value.to_string())
}

/// JSON text as the Rust API's JSON value.
fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("JSON")
}

fn parse(text: &str) -> JsValue {
    JSON::parse(text).expect("valid JSON")
}

/// `GET url` with the global `fetch`: the parsed JSON body of a 200, or why not.
async fn try_fetch_json(url: &str) -> Result<JsValue, String> {
    let g = js_sys::global();
    let pending = global_fn("fetch")
        .call1(&g, &JsValue::from_str(url))
        .map_err(|e| format!("{e:?}"))?;
    let response = JsFuture::from(pending.unchecked_into::<Promise>())
        .await
        .map_err(|e| format!("{e:?}"))?;
    let status = get_num(&response, "status");
    if status != Some(200.0) {
        return Err(format!("HTTP {status:?}"));
    }
    let json = get(&response, "json")
        .dyn_into::<Function>()
        .map_err(|_| "no json()".to_string())?;
    let body = json.call0(&response).map_err(|e| format!("{e:?}"))?;
    JsFuture::from(body.unchecked_into::<Promise>())
        .await
        .map_err(|e| format!("{e:?}"))
}

async fn fetch_json(url: &str) -> JsValue {
    try_fetch_json(url)
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
}

thread_local! {
    static ORDERS: RefCell<Option<Vec<Order>>> = const { RefCell::new(None) };
}

/// The request-log entries carrying `tag`, oldest first.
async fn requests_tagged(tag: &str) -> Vec<JsValue> {
    let tag = String::from(js_sys::encode_uri_component(tag));
    items(&fetch_json(&format!("{SANDBOX_URL}/__sandbox/requests?tag={tag}")).await)
}

/// The logged statuses of `entries`.
fn statuses(entries: &[JsValue]) -> Vec<u16> {
    entries
        .iter()
        .map(|e| get_num(e, "status").unwrap_or(-1.0) as u16)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Observed clients.
// ---------------------------------------------------------------------------------------

/// A `fetch` that counts its calls and keeps each request body (read from a clone of the one
/// `Request` it is given), and the object it records into (`{ n, bodies }`).
fn counting_fetch() -> (Function, JsValue) {
    let seen = parse(r#"{"n":0,"bodies":[]}"#);
    let make = Function::new_with_args(
        "seen",
        "return async function (request) { seen.n += 1; seen.bodies.push(await request.clone().text()); return fetch(request); };",
    );
    let f = make
        .call1(&JsValue::NULL, &seen)
        .expect("wrapper")
        .dyn_into::<Function>()
        .expect("a function");
    (f, seen)
}

/// A client whose requests carry a unique tag (and a fault), over a counting `fetch`.
struct Rig {
    tag: String,
    client: BotClient<FetchTransport>,
    seen: JsValue,
}

impl Rig {
    fn new(name: &str, fault: &str) -> Rig {
        Rig::with(name, fault, |_| {})
    }

    fn with(name: &str, fault: &str, tweak: impl FnOnce(&mut BotOptions)) -> Rig {
        let tag = format!("wasm-{name}-{}", (js_sys::Math::random() * 1e15) as u64);
        let mut headers = vec![("x-sandbox-tag", tag.as_str())];
        if !fault.is_empty() {
            headers.push(("x-sandbox-fault", fault));
        }
        let mut o = options(Some(AGENT_KEY), &headers);
        tweak(&mut o);
        let (fetch, seen) = counting_fetch();
        let client =
            BotClient::with_transport(o, FetchTransport::new(Some(fetch))).expect("valid options");
        Rig { tag, client, seen }
    }

    fn retries(name: &str, fault: &str, max_retries: u32) -> Rig {
        Rig::with(name, fault, |o| o.max_retries = Some(max_retries))
    }

    /// `fetch` calls the client made.
    fn attempts(&self) -> usize {
        get_num(&self.seen, "n").unwrap_or(-1.0) as usize
    }

    /// The request bodies the client sent, parsed.
    fn sent(&self) -> Vec<JsValue> {
        items(&get(&self.seen, "bodies"))
            .iter()
            .map(|b| parse(&b.as_string().expect("a string body")))
            .collect()
    }

    /// This rig's log entries, oldest first.
    async fn log(&self) -> Vec<JsValue> {
        requests_tagged(&self.tag).await
    }

    /// Asserts the client made `n` attempts and the server logged `n` requests.
    async fn assert_attempts(&self, n: usize, what: &str) {
        assert_eq!(self.attempts(), n, "client attempts: {what}");
        let log = self.log().await;
        assert_eq!(log.len(), n, "logged requests: {what} {:?}", statuses(&log));
    }

    /// Asserts one attempt per expected status, and the logged statuses.
    async fn assert_statuses(&self, expected: &[u16]) {
        assert_eq!(
            self.attempts(),
            expected.len(),
            "client attempts, expected statuses {expected:?}"
        );
        assert_eq!(statuses(&self.log().await), expected, "logged statuses");
    }

    /// For `drop` faults: the client made `n` attempts; the server logged each as dropped
    /// (status 0), exactly once in Node, once or twice in a browser (Chromium resends a
    /// request whose reused connection was reset, below `fetch`).
    async fn assert_dropped(&self, n: usize) {
        assert_eq!(self.attempts(), n, "client attempts");
        let logged = statuses(&self.log().await);
        assert!(
            logged.iter().all(|s| *s == 0),
            "logged as dropped: {logged:?}"
        );
        if in_browser() {
            assert!(
                (n..=2 * n).contains(&logged.len()),
                "{n} attempts logged as {logged:?}"
            );
        } else {
            assert_eq!(logged.len(), n, "{logged:?}");
        }
    }

    /// Like `assert_attempts`, for requests the client gave up on (timeout, abort): the server
    /// only logs them once it answers (after any `delay=`), so the log is read at `settle_at`
    /// (a `Date.now()` value), when an extra attempt would surely have been logged too.
    async fn assert_attempts_after(&self, n: usize, settle_at: f64, what: &str) {
        assert_eq!(self.attempts(), n, "client attempts: {what}");
        let wait = settle_at - now();
        if wait > 0.0 {
            sleep_ms(wait).await;
        }
        let log = self.log().await;
        assert_eq!(log.len(), n, "logged requests: {what} {:?}", statuses(&log));
    }
}

// ---------------------------------------------------------------------------------------
// Errors: nothing secret in them.
// ---------------------------------------------------------------------------------------

/// Every text an error carries: Display, Debug, and each field (JSON values stringified).
fn error_text(e: &Error) -> String {
    let mut text = format!(
        "{e}\n{e:?}\n{}\n{:?}\n{}\n",
        e.message,
        e.field,
        e.code_str()
    );
    for g in &e.graphql_errors {
        text.push_str(&format!("{g:?}\n{}\n", g.message));
        for part in [g.path(), g.locations(), g.extensions()]
            .into_iter()
            .flatten()
        {
            text.push_str(&part.to_string());
            text.push('\n');
        }
    }
    if let Some(d) = e.data() {
        text.push_str(&d.to_string());
    }
    text
}

/// The key appears nowhere in the error (Display, Debug, any field).
fn assert_no_key(e: &Error) {
    let text = error_text(e);
    assert!(
        !text.contains(AGENT_KEY),
        "the key leaked into the error: {text}"
    );
}

/// `profile` through a rig with `fault` and `max_retries` (None: the default 2): the error
/// (checked for the key) and the rig.
async fn profile_fault(fault: &str, max_retries: Option<u32>) -> (Error, Rig) {
    let rig = Rig::with("fault", fault, |o| o.max_retries = max_retries);
    let err = rig
        .client
        .profile(FieldOptions::default())
        .await
        .expect_err(fault);
    assert_no_key(&err);
    (err, rig)
}

fn ids_only() -> FieldOptions {
    FieldOptions {
        fields: Some(vec!["id".into()]),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------------------
// The order oracle.
// ---------------------------------------------------------------------------------------

/// One order of the oracle list.
#[derive(Clone, Debug)]
struct Order {
    id: String,
    order_id: String,
    status: String,
    day: String,
    payment_method: String,
}

impl Order {
    fn from_js(o: &JsValue) -> Order {
        let s = |k: &str| {
            get_str(o, k).unwrap_or_else(|| panic!("order without {k}: {}", stringify(o)))
        };
        Order {
            id: s("id"),
            order_id: s("orderId"),
            status: s("status"),
            day: s("createdAt").chars().take(10).collect(),
            payment_method: s("paymentMethod"),
        }
    }
}

const ORACLE_FIELDS: [&str; 5] = ["id", "orderId", "status", "createdAt", "paymentMethod"];

fn oracle_fields() -> Option<Vec<String>> {
    Some(ORACLE_FIELDS.iter().map(|f| f.to_string()).collect())
}

/// Agent 1's full order list, in API order, straight from the sandbox's data.
async fn all_orders() -> Vec<Order> {
    if let Some(cached) = ORDERS.with(|o| o.borrow().clone()) {
        return cached;
    }
    let list = fetch_json(&format!("{SANDBOX_URL}/__sandbox/orders?agent=1")).await;
    let orders: Vec<Order> = items(&list).iter().map(Order::from_js).collect();
    assert_eq!(orders.len(), 1600, "the seeded list");
    ORDERS.with(|o| *o.borrow_mut() = Some(orders.clone()));
    orders
}

/// The oracle's answer to `filter` (every member narrows; dates inclusive, on the UTC day).
fn matches(o: &Order, f: &OrderHistoryFilter) -> bool {
    fn ok(member: &Option<String>, pred: impl Fn(&str) -> bool) -> bool {
        match member {
            None => true,
            Some(v) => pred(v),
        }
    }
    ok(&f.order_id, |v| o.order_id == v)
        && ok(&f.status, |v| o.status == v)
        && ok(&f.date_from, |v| o.day.as_str() >= v)
        && ok(&f.date_to, |v| o.day.as_str() <= v)
        && ok(&f.payment_method, |v| o.payment_method == v)
}

async fn expected_ids(filter: &OrderHistoryFilter) -> Vec<String> {
    all_orders()
        .await
        .iter()
        .filter(|o| matches(o, filter))
        .map(|o| o.id.clone())
        .collect()
}

fn abort_controller() -> (JsValue, Signal) {
    let ctor = global_fn("AbortController");
    let controller = Reflect::construct(&ctor, &Array::new()).expect("new AbortController()");
    let signal = Signal::from(get(&controller, "signal").unchecked_into::<AbortSignal>());
    (controller, signal)
}

/// Calls `controller.abort()` after `ms` (a JavaScript timer, no Rust closure).
fn abort_after(controller: &JsValue, ms: f64) {
    let abort = get(controller, "abort")
        .dyn_into::<Function>()
        .expect("abort()");
    global_fn("setTimeout")
        .call2(
            &js_sys::global(),
            &abort.bind0(controller),
            &JsValue::from_f64(ms),
        )
        .expect("setTimeout");
}

// ---------------------------------------------------------------------------------------
// profile, orderHistory, withdrawalInfo basics.
// ---------------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn profile_has_the_seeded_values() {
    let p = bot()
        .profile(FieldOptions::default())
        .await
        .expect("profile");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert_eq!(p.email.as_deref(), Some("amara.okafor@example.com"));
    assert_eq!(p.account_balance.as_deref(), Some("12500.50"));
    assert_eq!(p.escrow_balance.as_deref(), Some("830.00"));
    assert_eq!(p.used_credit_line.as_deref(), Some("1250.00"));
    assert_eq!(p.deposits_completed, Some(1024));
}

#[wasm_bindgen_test]
async fn profile_with_chosen_fields_selects_only_those() {
    let opts = FieldOptions {
        fields: Some(vec!["id".into(), "email".into()]),
        ..Default::default()
    };
    let p = bot().profile(opts).await.expect("profile");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert_eq!(p.account_balance, None, "not selected, so not returned");
}

#[wasm_bindgen_test]
async fn order_history_filters_and_paginates() {
    let args = OrderHistoryArgs {
        page: 2,
        per_page: Some(25),
        filter: OrderHistoryFilter {
            status: Some("completed".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let page = bot().order_history(args).await.expect("orderHistory");
    assert_eq!(page.data.len(), 25);
    assert!(page
        .data
        .iter()
        .all(|o| o.status.as_deref() == Some("completed")));
    assert_eq!(page.pagination.page, 2);
    assert_eq!(page.pagination.per_page, 25);
    assert_eq!(
        page.pagination.total, 1400,
        "1,400 completed orders are seeded"
    );
}

#[wasm_bindgen_test]
async fn invalid_page_is_refused_without_a_request() {
    let rig = Rig::new("page0", "");
    let args = OrderHistoryArgs {
        page: 0,
        ..Default::default()
    };
    let err = rig.client.order_history(args).await.expect_err("page 0");
    assert_eq!(err.code, Code::InvalidInput);
    assert_eq!(err.field.as_deref(), Some("page"));
    assert_no_key(&err);
    rig.assert_attempts(0, "nothing was sent").await;
}

#[wasm_bindgen_test]
async fn withdrawal_info_for_usdc() {
    let w = bot()
        .withdrawal_info("USDC", FieldOptions::default())
        .await
        .expect("call")
        .expect("known symbol");
    assert_eq!(w.symbol.as_deref(), Some("USDC"));
    assert!(
        w.networks
            .as_ref()
            .is_some_and(|n| n.iter().any(|x| x == "BASE")),
        "{:?}",
        w.networks
    );
    let none = bot()
        .withdrawal_info("NOPE", FieldOptions::default())
        .await
        .expect("call");
    assert!(none.is_none());
}

#[wasm_bindgen_test]
async fn wrong_key_is_unauthorized_and_never_echoed() {
    let key = "SBX-SECK_wasm-wrong-key-7c1d";
    let err = BotClient::new(options(Some(key), &[]))
        .unwrap()
        .profile(FieldOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::Unauthorized);
    assert_eq!(err.status, Some(401));
    let text = error_text(&err);
    assert!(!text.contains(key), "key leaked into {text}");
}

// ---------------------------------------------------------------------------------------
// orders(): the lazy pager.
// ---------------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn orders_yield_exactly_total_fetching_each_page_only_when_needed() {
    let filter = OrderHistoryFilter {
        status: Some("completed".into()),
        date_from: Some("2026-01-01".into()),
        date_to: Some("2026-03-31".into()),
        ..Default::default()
    };
    let expected = expected_ids(&filter).await;
    let per_page = 40usize;
    assert!(
        expected.len() > 2 * per_page,
        "a filter spanning several pages ({})",
        expected.len()
    );

    let rig = Rig::new("orders", "");
    let args = OrdersArgs {
        per_page: Some(per_page as i64),
        filter: filter.clone(),
        fields: Some(vec!["id".into(), "status".into(), "createdAt".into()]),
        ..Default::default()
    };
    let mut it = rig.client.orders(args).expect("valid arguments");
    rig.assert_attempts(0, "nothing is fetched before the first next()")
        .await;

    let mut ids = Vec::new();
    while let Some(o) = it.next().await.expect("next order") {
        assert_eq!(o.status.as_deref(), Some("completed"));
        let day: String = o
            .created_at
            .as_deref()
            .unwrap_or_default()
            .chars()
            .take(10)
            .collect();
        assert!(
            day.as_str() >= "2026-01-01" && day.as_str() <= "2026-03-31",
            "{day}"
        );
        ids.push(o.id.expect("id selected"));
        let n = ids.len();
        // Page k+1 is fetched only when row k*perPage+1 is asked for.
        assert_eq!(
            rig.attempts(),
            n.div_ceil(per_page),
            "fetches after {n} rows"
        );
        if [1, per_page, per_page + 1].contains(&n) {
            rig.assert_attempts(n.div_ceil(per_page), &format!("after {n} rows"))
                .await;
        }
    }
    assert_eq!(ids.len(), expected.len(), "exactly total records");
    assert_eq!(ids, expected, "the same orders, in API order");

    let pages = expected.len().div_ceil(per_page);
    rig.assert_attempts(pages, "requests == ceil(total / perPage)")
        .await;
    let check_vars = |vars: &JsValue, i: usize| {
        assert_eq!(
            get_num(vars, "page"),
            Some((i + 1) as f64),
            "page numbers 1, 2, …"
        );
        assert_eq!(get_num(vars, "perPage"), Some(per_page as f64));
        let f = get(vars, "filter");
        assert_eq!(get_str(&f, "status").as_deref(), Some("completed"));
        assert_eq!(get_str(&f, "dateFrom").as_deref(), Some("2026-01-01"));
        assert_eq!(get_str(&f, "dateTo").as_deref(), Some("2026-03-31"));
    };
    for (i, body) in rig.sent().iter().enumerate() {
        check_vars(&get(body, "variables"), i);
        assert_eq!(
            get_str(body, "operationName").as_deref(),
            Some("OrderHistory")
        );
    }
    let log = rig.log().await;
    for (i, entry) in log.iter().enumerate() {
        check_vars(&get(entry, "variables"), i);
    }

    assert!(
        it.next().await.expect("still fine").is_none(),
        "over at the end"
    );
    rig.assert_attempts(pages, "no request past the end").await;
}

#[wasm_bindgen_test]
async fn orders_over_everything_yield_the_1600_seeded_orders() {
    let rig = Rig::new("orders-all", "");
    let args = OrdersArgs {
        per_page: Some(100),
        fields: Some(vec!["id".into()]),
        ..Default::default()
    };
    let mut it = rig.client.orders(args).expect("valid");
    let mut ids = Vec::new();
    while let Some(row) = it.next_json().await.expect("next") {
        ids.push(get_str(&js(&row), "id").expect("id"));
    }
    let expected: Vec<String> = all_orders().await.into_iter().map(|o| o.id).collect();
    assert_eq!(ids, expected);
    rig.assert_attempts(16, "1600 / 100").await;
}

#[wasm_bindgen_test]
async fn orders_closed_early_stop_fetching() {
    let rig = Rig::new("orders-close", "");
    let args = OrdersArgs {
        per_page: Some(10),
        fields: Some(vec!["id".into()]),
        ..Default::default()
    };
    let mut it = rig.client.orders(args).expect("valid arguments");
    let all = all_orders().await;
    for order in all.iter().take(15) {
        let o = it.next().await.expect("next").expect("an order");
        assert_eq!(o.id.as_deref(), Some(order.id.as_str()));
    }
    it.close();
    assert!(it.next().await.expect("closed").is_none());
    rig.assert_attempts(2, "15 rows of 10 per page: 2 pages, no more")
        .await;
}

#[wasm_bindgen_test]
async fn orders_validate_before_fetching() {
    let rig = Rig::new("orders-invalid", "");
    let cases = [
        (
            OrdersArgs {
                per_page: Some(0),
                ..Default::default()
            },
            "perPage",
        ),
        (
            OrdersArgs {
                filter: OrderHistoryFilter {
                    date_from: Some("2026-02-30".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
            "filter.dateFrom",
        ),
        (
            OrdersArgs {
                filter: OrderHistoryFilter {
                    status: Some("paid\") { x }".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
            "filter.status",
        ),
        (
            OrdersArgs {
                filter: OrderHistoryFilter {
                    order_id: Some(String::new()),
                    ..Default::default()
                },
                ..Default::default()
            },
            "filter.orderId",
        ),
    ];
    for (args, field) in cases {
        let err = rig.client.orders(args).expect_err("refused up front");
        assert_eq!(
            (err.code, err.field.as_deref()),
            (Code::InvalidInput, Some(field))
        );
        assert_no_key(&err);
    }
    rig.assert_attempts(0, "nothing sent").await;
}

#[wasm_bindgen_test]
async fn orders_for_an_agent_without_orders_end_after_one_request() {
    let rig = Rig::with("orders-empty", "", |o| o.api_key = Some(AGENT3_KEY.into()));
    let mut it = rig.client.orders(OrdersArgs::default()).expect("valid");
    assert!(it.next().await.expect("empty").is_none());
    assert!(it.next().await.expect("still empty").is_none());
    rig.assert_attempts(1, "one empty page").await;
}

#[wasm_bindgen_test]
async fn orders_end_after_an_error() {
    let rig = Rig::new("orders-error", "status=500");
    let mut it = rig.client.orders(OrdersArgs::default()).expect("valid");
    let err = it.next().await.expect_err("500");
    assert_eq!((err.code, err.status), (Code::Http, Some(500)));
    assert_no_key(&err);
    assert!(
        it.next().await.expect("over").is_none(),
        "over after an error"
    );
    rig.assert_attempts(1, "no retry of a 500, nothing after the error")
        .await;
}

// ---------------------------------------------------------------------------------------
// Filters, against the sandbox's own data.
// ---------------------------------------------------------------------------------------

/// Reads every page of `filter` with `order_history` (perPage 100); checks each page's
/// total, rows and order against the oracle; returns the number of matches.
async fn check_filter(filter: OrderHistoryFilter) -> usize {
    let expected = expected_ids(&filter).await;
    let client = bot();
    let mut ids = Vec::new();
    let mut page = 1;
    loop {
        let args = OrderHistoryArgs {
            page,
            per_page: Some(100),
            filter: filter.clone(),
            fields: oracle_fields(),
            ..Default::default()
        };
        let p = client
            .order_history(args)
            .await
            .unwrap_or_else(|e| panic!("{filter:?}: {e}"));
        assert_eq!(
            p.pagination.total as usize,
            expected.len(),
            "total for {filter:?}"
        );
        assert_eq!((p.pagination.page, p.pagination.per_page), (page, 100));
        if p.data.is_empty() {
            break;
        }
        for o in &p.data {
            let row = Order {
                id: o.id.clone().unwrap_or_default(),
                order_id: o.order_id.clone().unwrap_or_default(),
                status: o.status.clone().unwrap_or_default(),
                day: o
                    .created_at
                    .as_deref()
                    .unwrap_or_default()
                    .chars()
                    .take(10)
                    .collect(),
                payment_method: o.payment_method.clone().unwrap_or_default(),
            };
            assert!(matches(&row, &filter), "{row:?} does not match {filter:?}");
            ids.push(row.id);
        }
        if ids.len() >= expected.len() {
            break;
        }
        page += 1;
        assert!(page <= 20, "runaway paging for {filter:?}");
    }
    assert_eq!(ids, expected, "ids for {filter:?}");
    expected.len()
}

#[wasm_bindgen_test]
async fn filter_order_id_alone() {
    let sample = all_orders().await[137].clone();
    let f = OrderHistoryFilter {
        order_id: Some(sample.order_id.clone()),
        ..Default::default()
    };
    assert_eq!(check_filter(f).await, 1);
    let f = OrderHistoryFilter {
        order_id: Some("ORD-1999-000001".into()),
        ..Default::default()
    };
    assert_eq!(check_filter(f).await, 0);
}

#[wasm_bindgen_test]
async fn filter_status_alone() {
    let f = |s: &str| OrderHistoryFilter {
        status: Some(s.into()),
        ..Default::default()
    };
    assert_eq!(check_filter(f("canceled")).await, 110);
    assert_eq!(check_filter(f("picked_up")).await, 25);
}

#[wasm_bindgen_test]
async fn filter_date_from_alone() {
    let f = OrderHistoryFilter {
        date_from: Some("2026-10-01".into()),
        ..Default::default()
    };
    assert!(check_filter(f).await > 0);
}

#[wasm_bindgen_test]
async fn filter_date_to_alone() {
    let f = OrderHistoryFilter {
        date_to: Some("2025-09-30".into()),
        ..Default::default()
    };
    assert!(check_filter(f).await > 0);
}

#[wasm_bindgen_test]
async fn filter_payment_method_alone() {
    let f = OrderHistoryFilter {
        payment_method: Some("opay".into()),
        ..Default::default()
    };
    assert!(check_filter(f).await > 0);
    // Exact and case-sensitive.
    let f = OrderHistoryFilter {
        payment_method: Some("OPAY".into()),
        ..Default::default()
    };
    assert_eq!(check_filter(f).await, 0);
}

#[wasm_bindgen_test]
async fn filters_combined() {
    let sample = all_orders().await[500].clone();
    let all_five = OrderHistoryFilter {
        order_id: Some(sample.order_id.clone()),
        status: Some(sample.status.clone()),
        date_from: Some(sample.day.clone()),
        date_to: Some(sample.day.clone()),
        payment_method: Some(sample.payment_method.clone()),
    };
    assert_eq!(check_filter(all_five.clone()).await, 1);
    // The same order with one member contradicting it: nothing.
    let other_status = if sample.status == "paid" {
        "pending"
    } else {
        "paid"
    };
    let contradicted = OrderHistoryFilter {
        status: Some(other_status.into()),
        ..all_five
    };
    assert_eq!(check_filter(contradicted).await, 0);
    let several = OrderHistoryFilter {
        status: Some("completed".into()),
        payment_method: Some(sample.payment_method.clone()),
        date_from: Some("2026-01-01".into()),
        date_to: Some("2026-03-31".into()),
        ..Default::default()
    };
    assert!(check_filter(several).await > 0);
    // A single day, both bounds inclusive.
    let day = OrderHistoryFilter {
        date_from: Some(sample.day.clone()),
        date_to: Some(sample.day.clone()),
        ..Default::default()
    };
    assert!(
        (3..=4).contains(&check_filter(day).await),
        "3-4 orders a day"
    );
}

#[wasm_bindgen_test]
async fn hostile_order_id_travels_verbatim_as_a_variable() {
    let hostile =
        "\") { __schema { types { name } } } # \"' \\ {}\n\r\n\t$page ${x} ) { x } \u{2028}é😀";
    let rig = Rig::new("hostile", "");
    let filter = OrderHistoryFilter {
        order_id: Some(hostile.into()),
        payment_method: Some(hostile.into()),
        ..Default::default()
    };
    let args = OrderHistoryArgs {
        page: 1,
        filter,
        ..Default::default()
    };
    let page = rig
        .client
        .order_history(args)
        .await
        .expect("no error, just no match");
    assert_eq!(page.pagination.total, 0);
    assert!(page.data.is_empty());
    rig.assert_attempts(1, "one request").await;

    let check = |body_or_entry: &JsValue, whose: &str| -> String {
        let f = get(&get(body_or_entry, "variables"), "filter");
        assert_eq!(
            get_str(&f, "orderId").as_deref(),
            Some(hostile),
            "verbatim ({whose})"
        );
        assert_eq!(
            get_str(&f, "paymentMethod").as_deref(),
            Some(hostile),
            "verbatim ({whose})"
        );
        let query = get_str(body_or_entry, "query").expect("a query document");
        for part in ["__schema", "{ x }", hostile, "$page ${x}"] {
            assert!(
                !query.contains(part),
                "the document contains {part:?} ({whose}): {query}"
            );
        }
        query
    };
    let query = check(&rig.sent()[0], "as sent");
    let log = rig.log().await;
    assert_eq!(check(&log[0], "as received"), query);

    // The document is the same one a harmless filter produces.
    let rig2 = Rig::new("harmless", "");
    let args = OrderHistoryArgs {
        page: 1,
        filter: OrderHistoryFilter {
            order_id: Some("ORD-2026-001599".into()),
            payment_method: Some("opay".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        rig2.client
            .order_history(args)
            .await
            .expect("harmless")
            .pagination
            .total,
        1
    );
    assert_eq!(
        get_str(&rig2.sent()[0], "query"),
        Some(query),
        "the document does not depend on the input"
    );
}

// ---------------------------------------------------------------------------------------
// request(): any document.
// ---------------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn request_with_a_custom_document_and_variables() {
    let rig = Rig::new("request", "");
    let doc = "query Q($s: String!) { withdrawalInfo(symbol: $s) { symbol networks } }";
    let data = rig
        .client
        .request(doc, Some(&json(r#"{"s":"USDT"}"#)), CallOptions::default())
        .await
        .expect("data");
    let w = get(&js(&data), "withdrawalInfo");
    assert_eq!(get_str(&w, "symbol").as_deref(), Some("USDT"));
    let networks: Vec<String> = items(&get(&w, "networks"))
        .iter()
        .filter_map(JsValue::as_string)
        .collect();
    assert_eq!(networks, ["ETHEREUM", "CELO", "OP"]);

    let doc2 = "query H($p: Int!, $f: OrderHistoryFilter) { orderHistory(page: $p, perPage: 5, filter: $f) { data { id status } pagination { total } } }";
    let vars2 = json(r#"{"p":2,"f":{"status":"paid"}}"#);
    let data = rig
        .client
        .request(doc2, Some(&vars2), CallOptions::default())
        .await
        .expect("data");
    let h = get(&js(&data), "orderHistory");
    assert_eq!(
        get_num(&get(&h, "pagination"), "total"),
        Some(35.0),
        "35 paid orders are seeded"
    );
    let rows = items(&get(&h, "data"));
    assert_eq!(rows.len(), 5);
    let paid: Vec<String> = all_orders()
        .await
        .into_iter()
        .filter(|o| o.status == "paid")
        .map(|o| o.id)
        .collect();
    let got: Vec<String> = rows.iter().filter_map(|r| get_str(r, "id")).collect();
    assert_eq!(got, paid[5..10], "page 2 of 5");
    assert!(rows
        .iter()
        .all(|r| get_str(r, "status").as_deref() == Some("paid")));

    rig.assert_attempts(2, "two requests").await;
    let check = |first: &JsValue, second: &JsValue| {
        assert_eq!(
            get_str(first, "query").as_deref(),
            Some(doc),
            "the document as given"
        );
        assert_eq!(
            get_str(&get(first, "variables"), "s").as_deref(),
            Some("USDT")
        );
        let vars = get(second, "variables");
        assert_eq!(get_num(&vars, "p"), Some(2.0));
        assert_eq!(get_str(&get(&vars, "f"), "status").as_deref(), Some("paid"));
    };
    let sent = rig.sent();
    check(&sent[0], &sent[1]);
    assert!(
        get(&sent[0], "operationName").is_undefined(),
        "no operationName is invented"
    );
    let log = rig.log().await;
    check(&log[0], &log[1]);
}

#[wasm_bindgen_test]
async fn request_unknown_field_is_graphql_with_errors_kept_and_not_retried() {
    let rig = Rig::new("request-unknown", "");
    let err = rig
        .client
        .request("query Nope { nope }", None, CallOptions::default())
        .await
        .expect_err("unknown field");
    assert_eq!(err.code, Code::Graphql);
    assert_eq!(err.status, Some(200));
    assert!(!err.graphql_errors.is_empty());
    let g = &err.graphql_errors[0];
    assert!(g.message.contains("nope"), "{}", g.message);
    assert_eq!(
        err.message.split(" (and").next(),
        Some(g.message.as_str()),
        "the message is the first error's"
    );
    assert_eq!(
        g.extension_code().as_deref(),
        Some("GRAPHQL_VALIDATION_FAILED")
    );
    assert!(
        g.locations().is_some_and(|l| l.is_array()),
        "locations kept: {g:?}"
    );
    assert!(err.data().is_none());
    assert_no_key(&err);
    rig.assert_attempts(1, "GraphQL errors are not retried")
        .await;
}

#[wasm_bindgen_test]
async fn request_mutation_is_a_graphql_error_sent_once() {
    let rig = Rig::new("request-mutation", "");
    let err = rig
        .client
        .request(
            "mutation M { profile { id } }",
            None,
            CallOptions::default(),
        )
        .await
        .expect_err("the bot schema has no mutations");
    assert_eq!(err.code, Code::Graphql, "{err}");
    assert!(!err.graphql_errors.is_empty());
    assert!(!err.graphql_errors[0].message.is_empty());
    assert_no_key(&err);
    rig.assert_attempts(1, "sent once").await;

    // A mutation is never retried, even after a retryable failure.
    let rig = Rig::new("request-mutation-503", "status=503;retry-after=0");
    let err = rig
        .client
        .request(
            "mutation M { profile { id } }",
            None,
            CallOptions::default(),
        )
        .await
        .expect_err("503");
    assert_eq!((err.code, err.status), (Code::Http, Some(503)));
    assert_no_key(&err);
    rig.assert_statuses(&[503]).await;

    // The same failure of a query document is retried.
    let rig = Rig::new("request-query-503", "status=503;retry-after=0;fail-first=1");
    let data = rig
        .client
        .request("{ profile { id } }", None, CallOptions::default())
        .await
        .expect("retried");
    assert_eq!(
        get_str(&get(&js(&data), "profile"), "id").as_deref(),
        Some("agent-1")
    );
    rig.assert_statuses(&[503, 200]).await;
}

#[wasm_bindgen_test]
async fn request_refuses_bad_variables_and_documents_without_a_request() {
    let rig = Rig::new("request-invalid", "");
    for bad in ["[1]", "\"s\"", "3"] {
        let err = rig
            .client
            .request(
                "{ profile { id } }",
                Some(&json(bad)),
                CallOptions::default(),
            )
            .await
            .expect_err(bad);
        assert_eq!(
            (err.code, err.field.as_deref()),
            (Code::InvalidInput, Some("variables")),
            "{bad}"
        );
        assert_no_key(&err);
    }
    let err = rig
        .client
        .request("   ", None, CallOptions::default())
        .await
        .expect_err("blank");
    assert_eq!(
        (err.code, err.field.as_deref()),
        (Code::InvalidInput, Some("document"))
    );
    assert_no_key(&err);
    rig.assert_attempts(0, "nothing sent").await;
}

#[wasm_bindgen_test]
async fn a_key_echoed_by_the_server_is_redacted() {
    // The sandbox's ISO8601Date error quotes the value it got: send the key as that value.
    let rig = Rig::new("echo", "");
    let doc = "query E($d: ISO8601Date!) { orderHistory(page: 1, filter: {dateFrom: $d}) { pagination { total } } }";
    let vars = json(&format!(r#"{{"d":"{AGENT_KEY}"}}"#));
    let err = rig
        .client
        .request(doc, Some(&vars), CallOptions::default())
        .await
        .expect_err("not a date");
    assert_eq!(err.code, Code::Graphql);
    assert_eq!(
        err.graphql_errors[0].extension_code().as_deref(),
        Some("BAD_USER_INPUT")
    );
    let text = error_text(&err);
    assert!(
        text.contains("[redacted]"),
        "the echo was there and was redacted: {text}"
    );
    assert!(err.message.contains("[redacted]"), "{}", err.message);
    assert!(
        err.graphql_errors[0].message.contains("[redacted]"),
        "{}",
        err.graphql_errors[0].message
    );
    assert_no_key(&err);
    rig.assert_attempts(1, "sent once").await;
    assert_eq!(
        get_str(&get(&rig.sent()[0], "variables"), "d").as_deref(),
        Some(AGENT_KEY),
        "really sent"
    );
}

// ---------------------------------------------------------------------------------------
// Faults: codes, statuses, attempt counts.
// ---------------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn fault_403_is_forbidden_and_not_retried() {
    let (err, rig) = profile_fault("status=403", None).await;
    assert_eq!((err.code, err.status), (Code::Forbidden, Some(403)));
    assert_eq!(
        err.graphql_errors[0].extension_code().as_deref(),
        Some("FORBIDDEN"),
        "the JSON body's errors are kept"
    );
    rig.assert_statuses(&[403]).await;
}

#[wasm_bindgen_test]
async fn fault_401_with_a_valid_key_is_unauthorized() {
    let (err, rig) = profile_fault("status=401", None).await;
    assert_eq!((err.code, err.status), (Code::Unauthorized, Some(401)));
    rig.assert_statuses(&[401]).await;
}

#[wasm_bindgen_test]
async fn fault_404_is_http_404_and_not_retried() {
    let (err, rig) = profile_fault("status=404", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(404)));
    assert!(err.message.contains("HTTP 404"), "{}", err.message);
    rig.assert_statuses(&[404]).await;
}

#[wasm_bindgen_test]
async fn fault_400_empty_body_is_http_400() {
    let (err, rig) = profile_fault("status=400;body=empty", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(400)));
    assert!(err.graphql_errors.is_empty());
    rig.assert_statuses(&[400]).await;
}

#[wasm_bindgen_test]
async fn fault_500_json_is_http_500_not_retried() {
    let (err, rig) = profile_fault("status=500", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(500)));
    assert_eq!(
        err.graphql_errors[0].extension_code().as_deref(),
        Some("INTERNAL_SERVER_ERROR")
    );
    rig.assert_statuses(&[500]).await;
}

#[wasm_bindgen_test]
async fn server_error_html_is_http_500_not_retried() {
    let (err, rig) = profile_fault("status=500;body=html", None).await;
    assert_eq!(err.code, Code::Http);
    assert_eq!(err.status, Some(500));
    assert!(
        err.graphql_errors.is_empty(),
        "an HTML page has no GraphQL errors"
    );
    rig.assert_attempts(1, "exactly one attempt (default maxRetries 2)")
        .await;
    rig.assert_statuses(&[500]).await;
}

#[wasm_bindgen_test]
async fn a_body_without_status_is_a_500() {
    let (err, rig) = profile_fault("body=html", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(500)));
    rig.assert_statuses(&[500]).await;
}

#[wasm_bindgen_test]
async fn fault_429_with_retry_after_and_no_retries_is_rate_limited() {
    let (err, rig) = profile_fault("status=429;retry-after=7", Some(0)).await;
    assert_eq!((err.code, err.status), (Code::RateLimited, Some(429)));
    assert_eq!(
        err.retry_after_ms,
        Some(7000),
        "Retry-After is readable (exposed under CORS)"
    );
    assert!(err.message.contains("7000 ms"), "{}", err.message);
    rig.assert_statuses(&[429]).await;
}

#[wasm_bindgen_test]
async fn fault_429_with_a_past_http_date_is_zero_ms() {
    let (err, rig) = profile_fault(
        "status=429;retry-after=Wed, 21 Oct 2015 07:28:00 GMT",
        Some(0),
    )
    .await;
    assert_eq!((err.code, err.retry_after_ms), (Code::RateLimited, Some(0)));
    rig.assert_statuses(&[429]).await;
}

#[wasm_bindgen_test]
async fn fault_200_html_is_decode_not_retried() {
    let (err, rig) = profile_fault("status=200;body=html", None).await;
    assert_eq!((err.code, err.status), (Code::Decode, Some(200)));
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn fault_200_empty_is_decode_not_retried() {
    let (err, rig) = profile_fault("status=200;body=empty", None).await;
    assert_eq!((err.code, err.status), (Code::Decode, Some(200)));
    assert!(err.message.contains("empty"), "{}", err.message);
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn fault_truncated_json_is_decode_not_retried() {
    let (err, rig) = profile_fault("body=truncated", None).await;
    assert_eq!((err.code, err.status), (Code::Decode, Some(200)));
    assert!(err.message.contains("not valid JSON"), "{}", err.message);
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn fault_partial_is_graphql_with_the_partial_data() {
    let (err, rig) = profile_fault("partial", None).await;
    assert_eq!((err.code, err.status), (Code::Graphql, Some(200)));
    let data = js(&err.data().expect("partial data kept"));
    assert_eq!(
        get_str(&get(&data, "profile"), "id").as_deref(),
        Some("agent-1")
    );
    let g = err.graphql_errors.last().expect("the appended error");
    assert_eq!(g.message, "sandbox partial failure");
    assert_eq!(g.extension_code().as_deref(), Some("PARTIAL"));
    assert_eq!(
        g.path().map(|p| p.to_string()).as_deref(),
        Some(r#"["profile"]"#)
    );
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn fault_partial_on_order_history_keeps_the_page() {
    let rig = Rig::new("partial-history", "partial");
    let args = OrderHistoryArgs {
        page: 1,
        per_page: Some(3),
        ..Default::default()
    };
    let err = rig.client.order_history(args).await.expect_err("partial");
    assert_eq!(err.code, Code::Graphql);
    let page = get(&js(&err.data().expect("data")), "orderHistory");
    assert_eq!(items(&get(&page, "data")).len(), 3);
    assert_eq!(get_num(&get(&page, "pagination"), "total"), Some(1600.0));
    assert_eq!(
        err.graphql_errors
            .last()
            .and_then(|g| g.path())
            .map(|p| p.to_string())
            .as_deref(),
        Some(r#"["orderHistory"]"#)
    );
    assert_no_key(&err);
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn malformed_fault_spec_is_http_400_with_the_reason() {
    let (err, rig) = profile_fault("status=abc", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(400)));
    assert_eq!(
        err.graphql_errors[0].extension_code().as_deref(),
        Some("BAD_FAULT_SPEC")
    );
    rig.assert_statuses(&[400]).await;
}

#[wasm_bindgen_test]
async fn retries_a_503_then_succeeds() {
    let rig = Rig::new("retry503", "status=503;retry-after=0;fail-first=2");
    let p = rig.client.profile(ids_only()).await.expect("retried");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    rig.assert_statuses(&[503, 503, 200]).await;
    let log = rig.log().await;
    let applied: Vec<_> = log
        .iter()
        .map(|e| get(e, "faultApplied").as_bool())
        .collect();
    assert_eq!(applied, [Some(true), Some(true), Some(false)]);
}

#[wasm_bindgen_test]
async fn retries_a_503_then_succeeds_over_the_global_fetch() {
    // The other fault tests count attempts with a `fetch` option; this one uses the global
    // `fetch` (the default) and the request log alone.
    let tag = format!(
        "wasm-retry-global-{}",
        (js_sys::Math::random() * 1e15) as u64
    );
    let headers = [
        ("x-sandbox-fault", "status=503;retry-after=0;fail-first=2"),
        ("x-sandbox-tag", tag.as_str()),
    ];
    let c = BotClient::new(options(Some(AGENT_KEY), &headers)).unwrap();
    let p = c.profile(ids_only()).await.expect("retried");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    let log = requests_tagged(&tag).await;
    assert_eq!(statuses(&log), [503, 503, 200]);
}

#[wasm_bindgen_test]
async fn the_key_travels_only_in_the_authorization_header() {
    let rig = Rig::new("auth", "");
    rig.client.profile(ids_only()).await.expect("profile");
    let body = stringify(&get(&rig.seen, "bodies"));
    assert!(!body.contains(AGENT_KEY), "the key is not in the body");
    let log = rig.log().await;
    assert_eq!(get(&log[0], "hasAuthorization").as_bool(), Some(true));
    // No key (proxy mode): no Authorization header at all.
    let rig = Rig::with("noauth", "", |o| o.api_key = None);
    let err = rig
        .client
        .profile(ids_only())
        .await
        .expect_err("the sandbox wants a key");
    assert_eq!((err.code, err.status), (Code::Unauthorized, Some(401)));
    rig.assert_statuses(&[401]).await;
    let log = rig.log().await;
    assert_eq!(get(&log[0], "hasAuthorization").as_bool(), Some(false));
}

#[wasm_bindgen_test]
async fn retries_429_502_504_then_succeeds() {
    for status in [429u16, 502, 504] {
        let rig = Rig::new(
            "retry",
            &format!("status={status};retry-after=0;fail-first=2"),
        );
        let p = rig
            .client
            .profile(ids_only())
            .await
            .unwrap_or_else(|e| panic!("{status}: {e}"));
        assert_eq!(p.id.as_deref(), Some("agent-1"));
        rig.assert_statuses(&[status, status, 200]).await;
    }
}

#[wasm_bindgen_test]
async fn retries_are_bounded_by_max_retries() {
    let (err, rig) = profile_fault("status=503;retry-after=0", None).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(503)));
    assert_eq!(err.retry_after_ms, Some(0));
    rig.assert_statuses(&[503, 503, 503]).await;

    let (err, rig) = profile_fault("status=502;retry-after=0", Some(0)).await;
    assert_eq!((err.code, err.status), (Code::Http, Some(502)));
    rig.assert_statuses(&[502]).await;

    let rig = Rig::retries("retry-max3", "status=504;retry-after=0;fail-first=3", 3);
    let p = rig
        .client
        .profile(ids_only())
        .await
        .expect("the 4th attempt succeeds");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    rig.assert_statuses(&[504, 504, 504, 200]).await;
}

#[wasm_bindgen_test]
async fn pages_of_orders_are_retried_too() {
    let rig = Rig::new("orders-retry", "status=503;retry-after=0;fail-first=1");
    let args = OrdersArgs {
        per_page: Some(5),
        filter: OrderHistoryFilter {
            status: Some("picked_up".into()),
            ..Default::default()
        },
        fields: Some(vec!["id".into()]),
        ..Default::default()
    };
    let mut it = rig.client.orders(args).unwrap();
    let mut n = 0;
    while it.next().await.expect("retried").is_some() {
        n += 1;
    }
    assert_eq!(n, 25);
    rig.assert_statuses(&[503, 200, 200, 200, 200, 200]).await;
    let pages: Vec<f64> = rig
        .sent()
        .iter()
        .filter_map(|b| get_num(&get(b, "variables"), "page"))
        .collect();
    assert_eq!(
        pages,
        [1.0, 1.0, 2.0, 3.0, 4.0, 5.0],
        "page 1 again after the 503"
    );
}

#[wasm_bindgen_test]
async fn delay_alone_answers_normally() {
    let rig = Rig::new("delay", "delay=300");
    let t0 = now();
    let p = rig.client.profile(ids_only()).await.expect("slow but fine");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
    assert!(now() - t0 >= 290.0, "waited for the delay");
    rig.assert_statuses(&[200]).await;
}

#[wasm_bindgen_test]
async fn dropped_connection_is_a_network_error() {
    let (err, rig) = profile_fault("drop", Some(0)).await;
    assert_eq!(err.code, Code::Network);
    assert_eq!(err.status, None);
    rig.assert_dropped(1).await;
}

#[wasm_bindgen_test]
async fn dropped_connection_is_retried_then_reported() {
    let (err, rig) = profile_fault("drop", Some(1)).await;
    assert_eq!(err.code, Code::Network);
    rig.assert_dropped(2).await;
}

#[wasm_bindgen_test]
async fn timeout_per_attempt() {
    let rig = Rig::with("timeout0", "delay=3000", |o| {
        o.max_retries = Some(0);
        o.timeout_ms = Some(150);
    });
    let t0 = now();
    let err = rig
        .client
        .profile(FieldOptions::default())
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::Timeout);
    assert_eq!(err.status, None);
    assert!(err.message.contains("150 ms"), "{}", err.message);
    assert!(now() - t0 < 2000.0, "gave up before the server answered");
    assert_no_key(&err);
    assert_eq!(rig.attempts(), 1);
}

#[wasm_bindgen_test]
async fn timeouts_are_retried_per_attempt() {
    let rig = Rig::with("timeout1", "delay=3000", |o| {
        o.max_retries = Some(1);
        o.timeout_ms = Some(300);
    });
    let t0 = now();
    let err = rig
        .client
        .profile(FieldOptions::default())
        .await
        .unwrap_err();
    let elapsed = now() - t0;
    assert_eq!(err.code, Code::Timeout);
    assert!(err.message.contains("300 ms"), "{}", err.message);
    assert_no_key(&err);
    // Two attempts of 300 ms plus a backoff of at most 200 ms: far less than the delay.
    assert!((550.0..2000.0).contains(&elapsed), "elapsed {elapsed} ms");
    rig.assert_attempts_after(
        2,
        t0 + elapsed + 3000.0 + 500.0,
        "1 attempt + 1 retry, each timed out",
    )
    .await;
}

// ---------------------------------------------------------------------------------------
// The caller's signal.
// ---------------------------------------------------------------------------------------

/// The status logged for the one request of `rig`, waiting (up to 20 s) for its entry,
/// which the sandbox writes when the request ends (499: the client went away).
async fn the_logged_status(rig: &Rig) -> u16 {
    for _ in 0..200 {
        if let Some(status) = statuses(&rig.log().await).first() {
            return *status;
        }
        sleep_ms(100.0).await;
    }
    panic!("no request of {} was logged", rig.tag);
}

#[wasm_bindgen_test]
async fn dropping_a_call_cancels_its_request() {
    let rig = Rig::new("drop", "delay=2000");
    // Boxed, so `select` owns the call's future and hands it back to be dropped here.
    let call = Box::pin(rig.client.profile(FieldOptions::default()));
    let later = Box::pin(sleep_ms(300.0));
    match futures_util::future::select(call, later).await {
        futures_util::future::Either::Right(((), call)) => drop(call),
        futures_util::future::Either::Left(_) => panic!("the call ended before its delay"),
    }
    assert_eq!(rig.attempts(), 1);
    assert_eq!(the_logged_status(&rig).await, 499, "the request went on");
}

#[wasm_bindgen_test]
async fn a_rust_signal_aborts_a_slow_request_at_once() {
    let rig = Rig::new("rust-signal", "delay=2000");
    let signal = Signal::new();
    let opts = FieldOptions {
        signal: Some(signal.clone()),
        ..Default::default()
    };
    let t0 = now();
    let abort = async {
        sleep_ms(300.0).await;
        signal.abort();
    };
    let (result, ()) = futures_util::future::join(rig.client.profile(opts), abort).await;
    let elapsed = now() - t0;
    assert_eq!(result.expect_err("aborted").code, Code::Aborted);
    assert!(elapsed < 1500.0, "aborted quickly ({elapsed} ms)");
    assert_eq!(the_logged_status(&rig).await, 499, "the request went on");
}

#[wasm_bindgen_test]
async fn a_signal_aborts_a_slow_request_at_once_and_it_is_not_retried() {
    let rig = Rig::new("abort", "delay=2000");
    let (controller, signal) = abort_controller();
    abort_after(&controller, 100.0);
    let t0 = now();
    let opts = FieldOptions {
        signal: Some(signal),
        ..Default::default()
    };
    let err = rig.client.profile(opts).await.expect_err("aborted");
    let elapsed = now() - t0;
    assert_eq!(err.code, Code::Aborted);
    assert_eq!(err.status, None);
    assert_no_key(&err);
    assert!(elapsed < 1000.0, "aborted quickly ({elapsed} ms)");
    rig.assert_attempts_after(1, t0 + 2000.0 + 500.0, "an abort is never retried")
        .await;
}

#[wasm_bindgen_test]
async fn an_already_aborted_signal_sends_nothing() {
    let rig = Rig::new("preabort", "");
    let (controller, signal) = abort_controller();
    let abort = get(&controller, "abort").dyn_into::<Function>().unwrap();
    abort.call0(&controller).unwrap();
    let opts = FieldOptions {
        signal: Some(signal.clone()),
        ..Default::default()
    };
    let err = rig.client.profile(opts).await.expect_err("aborted");
    assert_eq!(err.code, Code::Aborted);
    assert_no_key(&err);
    let mut it = rig
        .client
        .orders(OrdersArgs {
            signal: Some(signal),
            ..Default::default()
        })
        .unwrap();
    let err = it.next().await.expect_err("aborted");
    assert_eq!(err.code, Code::Aborted);
    assert_no_key(&err);
    assert!(it.next().await.expect("over after an error").is_none());
    rig.assert_attempts(0, "nothing was sent").await;
}

#[wasm_bindgen_test]
async fn a_signal_cancels_the_backoff_wait() {
    let rig = Rig::new("abort-backoff", "status=503;retry-after=10");
    let (controller, signal) = abort_controller();
    abort_after(&controller, 300.0);
    let t0 = now();
    // A 10 s Retry-After: the client would wait that long before its retry.
    let err = rig
        .client
        .request(
            "{ profile { id } }",
            None,
            CallOptions {
                signal: Some(signal),
            },
        )
        .await
        .expect_err("aborted during the wait");
    let elapsed = now() - t0;
    assert_eq!(err.code, Code::Aborted);
    assert_no_key(&err);
    assert!(
        elapsed < 2000.0,
        "did not wait out the Retry-After ({elapsed} ms)"
    );
    rig.assert_statuses(&[503]).await;
}

#[wasm_bindgen_test]
async fn a_signal_stops_orders_between_pages() {
    let rig = Rig::new("abort-orders", "");
    let (controller, signal) = abort_controller();
    let args = OrdersArgs {
        per_page: Some(5),
        fields: Some(vec!["id".into()]),
        signal: Some(signal),
        ..Default::default()
    };
    let mut it = rig.client.orders(args).unwrap();
    for _ in 0..5 {
        assert!(it.next().await.expect("page 1").is_some());
    }
    let abort = get(&controller, "abort").dyn_into::<Function>().unwrap();
    abort.call0(&controller).unwrap();
    let err = it.next().await.expect_err("page 2 is not fetched");
    assert_eq!(err.code, Code::Aborted);
    assert_no_key(&err);
    assert!(it.next().await.expect("over").is_none());
    rig.assert_attempts(1, "only page 1").await;
}
