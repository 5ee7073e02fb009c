//! The pagination state machine behind `orders()`: no I/O of its own. The driver asks
//! [`Pager::step`] what to do, fetches a page when told to, and hands it to
//! [`Pager::receive`]. Rows are handed out one at a time, untouched.
//!
//! Iteration stops when as many rows as the latest `pagination.total` have been handed out,
//! when a page comes back empty, after an error ([`Pager::finish`]), or when page numbers
//! would leave the GraphQL `Int` range.

use crate::inputs::MAX_GRAPHQL_INT;
use crate::json::{Json, JsonValue};

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
    pub fn is_done(&self) -> bool {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
