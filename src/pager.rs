//! The order history, page by page, with no I/O of its own: the state machines behind
//! `orders()` and `reconcile`, in both shells.
//!
//! * [`Pager`]: which page to fetch next, and the rows of the pages received, one at a time,
//!   untouched. Iteration stops when as many rows as the latest `pagination.total` have been
//!   handed out, when a page comes back empty, after an error ([`Pager::finish`]), or when
//!   page numbers would leave the GraphQL `Int` range.
//! * [`PageQuery`]: a validated `orderHistory` query (filter, `perPage`, selection, signal),
//!   ready to call for any page.
//! * [`Search`]: the two together, as a driver uses them. Its [`Search::step`] says what to do:
//!   hand out a row, run a call (the next page), or stop. `orders()` hands out every row;
//!   `reconcile` ([`Search::reconcile`]) only the row whose `id` is the order's.

use crate::call::PreparedCall;
use crate::error::Error;
use crate::graphql;
use crate::inputs::{self, MAX_GRAPHQL_INT};
use crate::json::{Json, JsonValue};
use crate::operations::{Arguments, Value, Variables, ORDER_HISTORY};
use crate::transport::Signal;
use crate::types::{FieldOptions, OrderHistoryFilter};

/// The `orderHistory` argument values, by name.
pub fn order_history_values(
    page: i64,
    per_page: Option<i64>,
    filter: OrderHistoryFilter,
) -> Arguments {
    vec![
        ("page", Value::Int(page)),
        ("perPage", per_page.map_or(Value::Null, Value::Int)),
        ("filter", Value::Filter(filter)),
    ]
}

/// A validated order-history query, ready to call for any page.
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

/// What a [`Search`]'s driver does next.
pub enum SearchStep {
    /// Hand out this row (`reconcile`: the order's current record; the search is over).
    Row(Json),
    /// Run this call (retries and all), then give its value to [`Search::receive`], or, if it
    /// failed, call [`Search::finish`].
    Fetch(PreparedCall),
    /// The search is over (`reconcile`: no row had the order's `id`).
    Done,
}

/// What a [`Search`] walks: numbered `orderHistory` pages, or a cursor connection.
enum Source {
    /// `orders()` and `reconcile`.
    Orders { query: PageQuery, pager: Pager },
    /// `customers()`: `merchantCustomers` pages, each after the last one's `endCursor`.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    Cursor {
        query: CursorQuery,
        pager: CursorPager,
    },
}

/// The pages of a [`PageQuery`] (or a [`CursorQuery`]), row by row: `orders()`, with a
/// target `id` `reconcile`, and `customers()`.
pub struct Search {
    source: Source,
    target: Option<String>,
}

impl Search {
    /// Every row of `query`'s pages.
    pub fn orders(query: PageQuery) -> Search {
        Search {
            source: Source::Orders {
                query,
                pager: Pager::new(),
            },
            target: None,
        }
    }

    /// Every node of `query`'s pages (`customers()`).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    pub fn cursor(query: CursorQuery) -> Search {
        Search {
            source: Source::Cursor {
                query,
                pager: CursorPager::new(),
            },
            target: None,
        }
    }

    /// `reconcile`'s read-back of an order: `orderHistory` filtered by its `orderId` (every
    /// page), and the row whose `id` is its `id`. Both must be non-empty. The selection is
    /// `options.fields` with `id` added when missing (rows are matched by it), or the default.
    pub fn reconcile(
        id: Option<String>,
        order_id: Option<String>,
        options: FieldOptions,
    ) -> Result<Search, Error> {
        let required = |v: Option<String>, field: &str| {
            let v = v.unwrap_or_default();
            Ok::<String, Error>(inputs::id(field, &v)?.to_owned())
        };
        let id = required(id, "order.id")?;
        let filter = OrderHistoryFilter {
            order_id: Some(required(order_id, "order.orderId")?),
            ..Default::default()
        };
        let fields = options.fields.map(|mut f| {
            if !f.iter().any(|n| n == "id") {
                f.push("id".into());
            }
            f
        });
        let query = PageQuery::new(None, filter, fields.as_deref(), options.signal)?;
        Ok(Search {
            target: Some(id),
            ..Search::orders(query)
        })
    }

    /// The next row, call or end, by the source.
    fn next(&mut self) -> Result<SearchStep, Error> {
        match &mut self.source {
            Source::Orders { query, pager } => match pager.step() {
                Step::Done => Ok(SearchStep::Done),
                Step::Row(row) => Ok(SearchStep::Row(row)),
                Step::Fetch(page) => query.call(page).map(SearchStep::Fetch).inspect_err(|_| {
                    pager.finish();
                }),
            },
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            Source::Cursor { query, pager } => match pager.step() {
                CursorStep::Done => Ok(SearchStep::Done),
                CursorStep::Row(row) => Ok(SearchStep::Row(row)),
                CursorStep::Fetch(after) => query
                    .call(after.as_deref())
                    .map(SearchStep::Fetch)
                    .inspect_err(|_| {
                        pager.finish();
                    }),
            },
        }
    }

    /// The next thing to do. An error (a page number the service cannot take) ends the search.
    pub fn step(&mut self) -> Result<SearchStep, Error> {
        loop {
            match self.next()? {
                SearchStep::Row(row) => {
                    let Some(id) = &self.target else {
                        return Ok(SearchStep::Row(row));
                    };
                    if row_id(&row).as_deref() == Some(id.as_str()) {
                        self.finish();
                        return Ok(SearchStep::Row(row));
                    }
                }
                other => return Ok(other),
            }
        }
    }

    /// Takes in the value of a [`SearchStep::Fetch`] call: a page whose shape the call
    /// checked (an `orderHistory` page, or a connection).
    pub fn receive(&mut self, page: &Json) {
        match &mut self.source {
            Source::Orders { pager, .. } => pager.receive(page),
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            Source::Cursor { pager, .. } => pager.receive(page),
        }
    }

    /// Ends the search (after a failed call, or when the consumer stops early).
    pub fn finish(&mut self) {
        match &mut self.source {
            Source::Orders { pager, .. } => pager.finish(),
            #[cfg(any(feature = "server", not(feature = "npm-base")))]
            Source::Cursor { pager, .. } => pager.finish(),
        }
    }
}

/// A validated cursor-connection query (`merchantCustomers`), ready to call after any cursor.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
#[derive(Clone)]
pub struct CursorQuery {
    document: String,
    signal: Option<Signal>,
}

#[cfg(any(feature = "server", not(feature = "npm-base")))]
impl CursorQuery {
    /// Validates the selection of `customers()`.
    pub fn customers(fields: Option<&[String]>, signal: Option<Signal>) -> Result<Self, Error> {
        let op = &crate::operations::MERCHANT_CUSTOMERS;
        let selection = graphql::selection(fields, op.fields)?;
        Ok(CursorQuery {
            document: op.document(&selection),
            signal,
        })
    }

    /// The call of the page after `after` (the first page for `None`).
    pub fn call(&self, after: Option<&str>) -> Result<PreparedCall, Error> {
        let op = &crate::operations::MERCHANT_CUSTOMERS;
        let after = after.map_or(Value::Null, |a| Value::Str(a.to_owned()));
        let variables = op.variables([("after", after)])?;
        PreparedCall::new(op, &self.document, &variables, self.signal.clone())
    }
}

/// What a [`CursorPager`]'s driver does next.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
#[derive(Debug, PartialEq)]
pub enum CursorStep {
    /// Hand out this node.
    Row(Json),
    /// Fetch the page after this cursor (`None`: the first page), then call
    /// [`CursorPager::receive`].
    Fetch(Option<String>),
    /// Iteration is over.
    Done,
}

/// The state of a cursor connection's walk: the nodes of the page received, then the page
/// after its `endCursor` while `hasNextPage` says there is one. It stops at `hasNextPage:
/// false`, at an empty page, at a missing or repeated cursor (a service that would loop), or
/// after [`CursorPager::finish`].
#[cfg(any(feature = "server", not(feature = "npm-base")))]
#[derive(Debug)]
pub struct CursorPager {
    /// The next page to fetch (`Some(None)`: the first); `None` once no page follows.
    next: Option<Option<String>>,
    /// The cursor of the last page asked for after the first.
    previous: Option<String>,
    rows: Option<Json>,
    len: usize,
    index: usize,
    done: bool,
}

#[cfg(any(feature = "server", not(feature = "npm-base")))]
impl Default for CursorPager {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(any(feature = "server", not(feature = "npm-base")))]
impl CursorPager {
    /// Before the first page.
    pub fn new() -> Self {
        CursorPager {
            next: Some(None),
            previous: None,
            rows: None,
            len: 0,
            index: 0,
            done: false,
        }
    }

    /// The next thing to do.
    pub fn step(&mut self) -> CursorStep {
        while !self.done {
            if self.index < self.len {
                let i = self.index;
                self.index += 1;
                if let Some(row) = self.rows.as_ref().and_then(|r| r.at(i)) {
                    return CursorStep::Row(row);
                }
                continue;
            }
            match self.next.take() {
                Some(after) => {
                    // Asked once: `receive` says whether another page follows.
                    return CursorStep::Fetch(after);
                }
                None => self.finish(),
            }
        }
        CursorStep::Done
    }

    /// Takes in a fetched page (a connection whose shape the call checked).
    pub fn receive(&mut self, page: &Json) {
        let rows = page.member("nodes");
        self.len = rows.as_ref().and_then(JsonValue::array_len).unwrap_or(0);
        self.rows = rows;
        self.index = 0;
        let info = page.member("pageInfo");
        let more = info
            .as_ref()
            .and_then(|i| i.member("hasNextPage"))
            .and_then(|v| v.boolean())
            == Some(true);
        let cursor = info
            .as_ref()
            .and_then(|i| i.member("endCursor"))
            .and_then(|v| v.string())
            .filter(|c| !c.trim().is_empty());
        self.next = match cursor {
            Some(c) if more && self.len > 0 && self.previous.as_deref() != Some(c.as_str()) => {
                self.previous = Some(c.clone());
                Some(Some(c))
            }
            _ => None,
        };
        if self.len == 0 {
            self.finish();
        }
    }

    /// Ends the iteration (after an error, or `return()`).
    pub fn finish(&mut self) {
        self.done = true;
        self.next = None;
        self.rows = None;
        self.len = 0;
        self.index = 0;
    }
}

/// A row's `id`, when it is a string.
fn row_id(row: &Json) -> Option<String> {
    row.member("id").and_then(|v| v.string())
}

/// What the driver should do next.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Hand out this row.
    Row(Json),
    /// Fetch this page number, then call [`Pager::receive`].
    Fetch(i64),
    /// Iteration is over.
    Done,
}

/// The state of an `orders()` iteration.
#[derive(Debug)]
pub struct Pager {
    next_page: i64,
    rows: Option<Json>,
    len: usize,
    index: usize,
    handed_out: u64,
    total: Option<u64>,
    done: bool,
}

impl Default for Pager {
    fn default() -> Self {
        Self::new()
    }
}

impl Pager {
    /// Starts at page 1.
    pub fn new() -> Self {
        Pager {
            next_page: 1,
            rows: None,
            len: 0,
            index: 0,
            handed_out: 0,
            total: None,
            done: false,
        }
    }

    /// The next thing to do.
    pub fn step(&mut self) -> Step {
        loop {
            if self.done {
                return Step::Done;
            }
            if self.total.is_some_and(|t| self.handed_out >= t) {
                self.finish();
                continue;
            }
            if self.index < self.len {
                let i = self.index;
                self.index += 1;
                if let Some(row) = self.rows.as_ref().and_then(|r| r.at(i)) {
                    self.handed_out += 1;
                    return Step::Row(row);
                }
                continue;
            }
            if self.next_page > MAX_GRAPHQL_INT {
                self.finish();
                continue;
            }
            return Step::Fetch(self.next_page);
        }
    }

    /// Takes in a fetched page (an `orderHistory` object whose shape was checked).
    pub fn receive(&mut self, page: &Json) {
        let rows = page.member("data");
        self.len = rows.as_ref().and_then(JsonValue::array_len).unwrap_or(0);
        self.rows = rows;
        self.index = 0;
        self.next_page += 1;
        if let Some(t) = page
            .member("pagination")
            .and_then(|p| p.member("total"))
            .and_then(|t| t.number())
        {
            self.total = Some(if t.is_finite() && t > 0.0 {
                t as u64
            } else {
                0
            });
        }
        if self.len == 0 {
            self.finish();
        }
    }

    /// Ends the iteration (after an error, or `return()`).
    pub fn finish(&mut self) {
        self.done = true;
        self.rows = None;
        self.len = 0;
        self.index = 0;
    }

    /// Whether the iteration is over.
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub fn is_done(&self) -> bool {
        self.done
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use serde_json::json;

    /// Drives a search against scripted pages (by page number); the rows handed out and the
    /// pages fetched.
    fn search(mut s: Search, pages: &[Json]) -> (Vec<String>, Vec<i64>) {
        let (mut rows, mut fetched) = (vec![], vec![]);
        for _ in 0..100 {
            match s.step().unwrap() {
                SearchStep::Row(r) => rows.push(r["id"].as_str().unwrap().to_owned()),
                SearchStep::Fetch(call) => {
                    let body: Json = serde_json::from_str(call.body()).unwrap();
                    let n = body["variables"]["page"].as_i64().unwrap();
                    fetched.push(n);
                    s.receive(pages.get(n as usize - 1).unwrap_or(&page(&[], 0)));
                }
                SearchStep::Done => return (rows, fetched),
            }
        }
        panic!("did not finish");
    }

    fn string_page(ids: &[&str], total: i64) -> Json {
        json!({"data": ids.iter().map(|i| json!({"id": i})).collect::<Vec<_>>(),
               "pagination": {"page": 1, "perPage": 2, "total": total}})
    }

    fn query() -> PageQuery {
        PageQuery::new(Some(2), OrderHistoryFilter::default(), None, None).unwrap()
    }

    #[test]
    fn orders_hands_out_every_row_and_asks_for_each_page_by_number() {
        let pages = [string_page(&["a", "b"], 3), string_page(&["c"], 3)];
        let (rows, fetched) = search(Search::orders(query()), &pages);
        assert_eq!(rows, ["a", "b", "c"]);
        assert_eq!(fetched, [1, 2]);
    }

    #[test]
    fn reconcile_hands_out_only_the_matching_row_then_stops() {
        let pages = [string_page(&["a", "b"], 6), string_page(&["c", "d"], 6)];
        let find = |id: &str| {
            let s = Search::reconcile(
                Some(id.into()),
                Some("ORD-1".into()),
                FieldOptions::default(),
            )
            .unwrap();
            search(s, &pages)
        };
        assert_eq!(find("c"), (vec!["c".to_owned()], vec![1, 2]));
        // No match: every page read, nothing handed out.
        assert_eq!(find("z"), (vec![], vec![1, 2, 3]));
    }

    #[test]
    fn reconcile_checks_the_order_and_selects_id() {
        let e = Search::reconcile(Some(" ".into()), Some("o".into()), FieldOptions::default())
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("order.id"));
        let e = Search::reconcile(Some("a".into()), None, FieldOptions::default())
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("order.orderId"));
        let options = FieldOptions {
            fields: Some(vec!["status".into()]),
            signal: None,
        };
        let mut s = Search::reconcile(Some("a".into()), Some("o".into()), options).unwrap();
        let SearchStep::Fetch(call) = s.step().unwrap() else {
            panic!("expected the first page")
        };
        let body: Json = serde_json::from_str(call.body()).unwrap();
        assert!(
            body["query"]
                .as_str()
                .unwrap()
                .contains("data { status id }"),
            "{body}"
        );
        assert_eq!(body["variables"]["filter"], json!({"orderId": "o"}));
    }

    fn page(ids: &[i64], total: i64) -> Json {
        json!({"data": ids.iter().map(|i| json!({"id": i})).collect::<Vec<_>>(),
               "pagination": {"page": 1, "perPage": 2, "total": total}})
    }

    /// Runs the pager against scripted pages; returns the ids handed out and pages fetched.
    fn drive(pages: &[Json]) -> (Vec<i64>, Vec<i64>) {
        let mut p = Pager::new();
        let (mut ids, mut fetched) = (vec![], vec![]);
        for _ in 0..1000 {
            match p.step() {
                Step::Row(r) => ids.push(r["id"].as_i64().unwrap()),
                Step::Fetch(n) => {
                    fetched.push(n);
                    match pages.get(n as usize - 1) {
                        Some(pg) => p.receive(pg),
                        None => p.receive(&page(&[], 0)),
                    }
                }
                Step::Done => return (ids, fetched),
            }
        }
        panic!("did not finish");
    }

    #[test]
    fn stops_at_total() {
        let (ids, fetched) = drive(&[page(&[1, 2], 5), page(&[3, 4], 5), page(&[5], 5)]);
        assert_eq!(ids, vec![1, 2, 3, 4, 5]);
        assert_eq!(fetched, vec![1, 2, 3]);
    }

    #[test]
    fn total_reached_mid_page_stops_without_another_fetch() {
        let (ids, fetched) = drive(&[page(&[1, 2], 3), page(&[3, 4], 3)]);
        assert_eq!(ids, vec![1, 2, 3]);
        assert_eq!(fetched, vec![1, 2]);
    }

    #[test]
    fn stops_on_empty_page() {
        let (ids, fetched) = drive(&[page(&[1, 2], 100), page(&[], 100)]);
        assert_eq!(ids, vec![1, 2]);
        assert_eq!(fetched, vec![1, 2]);
        let (ids, fetched) = drive(&[page(&[], 0)]);
        assert!(ids.is_empty());
        assert_eq!(fetched, vec![1]);
    }

    #[test]
    fn short_page_below_total_fetches_more() {
        // The service may cap perPage silently: keep going until total.
        let (ids, fetched) = drive(&[page(&[1], 3), page(&[2], 3), page(&[3], 3)]);
        assert_eq!(ids, vec![1, 2, 3]);
        assert_eq!(fetched, vec![1, 2, 3]);
    }

    #[test]
    fn zero_or_odd_totals() {
        let (ids, _) = drive(&[page(&[1, 2], 0)]);
        assert!(ids.is_empty());
        let (ids, _) = drive(&[page(&[1, 2], -4)]);
        assert!(ids.is_empty());
    }

    #[test]
    fn finish_is_final() {
        let mut p = Pager::new();
        assert_eq!(p.step(), Step::Fetch(1));
        p.receive(&page(&[1, 2], 2));
        assert!(matches!(p.step(), Step::Row(_)));
        p.finish();
        assert!(p.is_done());
        assert_eq!(p.step(), Step::Done);
        assert_eq!(p.step(), Step::Done);
    }

    /// A connection page: `ids` as nodes, then `pageInfo`.
    fn connection(ids: &[&str], end: Option<&str>, more: bool) -> Json {
        json!({"nodes": ids.iter().map(|i| json!({"id": i})).collect::<Vec<_>>(),
               "pageInfo": {"endCursor": end, "hasNextPage": more}})
    }

    /// Drives a cursor search against pages keyed by the cursor asked for (`""` for the
    /// first); the ids handed out and the cursors asked for.
    fn walk(pages: &[(&str, Json)]) -> (Vec<String>, Vec<Option<String>>) {
        let query = CursorQuery::customers(None, None).unwrap();
        let mut s = Search::cursor(query);
        let (mut rows, mut asked) = (vec![], vec![]);
        for _ in 0..100 {
            match s.step().unwrap() {
                SearchStep::Row(r) => rows.push(r["id"].as_str().unwrap().to_owned()),
                SearchStep::Fetch(call) => {
                    let body: Json = serde_json::from_str(call.body()).unwrap();
                    let after = body["variables"]["after"].as_str().map(str::to_owned);
                    let key = after.clone().unwrap_or_default();
                    asked.push(after);
                    let page = pages
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, p)| p.clone());
                    s.receive(&page.unwrap_or_else(|| connection(&[], None, false)));
                }
                SearchStep::Done => return (rows, asked),
            }
        }
        panic!("did not finish");
    }

    #[test]
    fn a_cursor_search_follows_end_cursor_while_has_next_page() {
        let pages = [
            ("", connection(&["a", "b"], Some("c1"), true)),
            ("c1", connection(&["c", "d"], Some("c2"), true)),
            ("c2", connection(&["e"], Some("c3"), false)),
        ];
        let (rows, asked) = walk(&pages);
        assert_eq!(rows, ["a", "b", "c", "d", "e"]);
        assert_eq!(asked, [None, Some("c1".into()), Some("c2".into())]);
    }

    #[test]
    fn a_cursor_search_stops_at_an_empty_page_a_missing_or_repeated_cursor() {
        // An empty page, though it says more follow.
        let (rows, asked) = walk(&[
            ("", connection(&["a"], Some("c1"), true)),
            ("c1", connection(&[], Some("c2"), true)),
        ]);
        assert_eq!((rows.len(), asked.len()), (1, 2));
        // More, but no cursor to ask after.
        let (rows, asked) = walk(&[("", connection(&["a"], None, true))]);
        assert_eq!((rows.len(), asked.len()), (1, 1));
        // The same cursor again: a service that would loop.
        let (rows, asked) = walk(&[
            ("", connection(&["a"], Some("c1"), true)),
            ("c1", connection(&["b"], Some("c1"), true)),
        ]);
        assert_eq!(rows, ["a", "b"]);
        assert_eq!(asked.len(), 2);
        // `nodes: null` is a page without rows.
        let (rows, _) = walk(&[(
            "",
            json!({"nodes": null, "pageInfo": {"endCursor": null, "hasNextPage": false}}),
        )]);
        assert!(rows.is_empty());
    }

    #[test]
    fn a_finished_cursor_search_asks_for_nothing() {
        let mut s = Search::cursor(CursorQuery::customers(None, None).unwrap());
        assert!(matches!(s.step().unwrap(), SearchStep::Fetch(_)));
        s.receive(&connection(&["a", "b"], Some("c1"), true));
        assert!(matches!(s.step().unwrap(), SearchStep::Row(_)));
        s.finish();
        assert!(matches!(s.step().unwrap(), SearchStep::Done));
        let e = CursorQuery::customers(Some(&["a b".into()]), None)
            .err()
            .unwrap();
        assert_eq!(e.field.as_deref(), Some("fields"));
    }
}
