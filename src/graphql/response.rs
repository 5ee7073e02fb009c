//! Decoding of the response envelope: HTTP status, GraphQL errors, and the shape of
//! `data.<field>` an operation expects.

use crate::error::{self, Error, GraphqlError};
use crate::json::{Body, Json, JsonValue};
use crate::retry;

/// What a successful response's `data` must look like, and what to return from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `data` must be an object; it is returned.
    Data,
    /// `data.<field>` must be an object; it is returned.
    Object(&'static str),
    /// `data.<field>` must be an object or `null`; it is returned.
    ObjectOrNull(&'static str),
    /// `data.<field>` must be `true` or `false` (a mutation's `Boolean`); it is returned.
    Boolean(&'static str),
    /// `data.<field>` must be a list; it is returned (elements unchecked and untouched).
    List(&'static str),
    /// `data.<field>` must be a page: `{ data: [...], pagination: { page, perPage, total } }`
    /// with numeric page information; it is returned (rows unchecked and untouched).
    Page(&'static str),
    /// (The secret-key operations' only: not in the npm browser build.)
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    /// `data.<parent>.<field>` must be a cursor connection: `{ nodes: [...] | null, pageInfo: {
    /// hasNextPage, endCursor } }` with `hasNextPage` a boolean and `endCursor` a string or
    /// `null`; it is returned (nodes unchecked and untouched).
    Connection(&'static str, &'static str),
}

/// Decodes one HTTP response into the expected value or an [`Error`].
///
/// * non-2xx: `unauthorized` / `forbidden` / `rate_limited` / `http` by status, with the
///   body's GraphQL errors (and data) when it is a GraphQL response;
/// * 2xx with GraphQL errors: `graphql` (or `forbidden` for `extensions.code ==
///   "FORBIDDEN"`), partial `data` attached;
/// * 2xx that is not JSON or not shaped as `expect` says: `decode`.
pub fn decode_response(
    status: u16,
    retry_after: Option<&str>,
    body: &Body,
    now_ms: f64,
    expect: Expect,
) -> Result<Json, Error> {
    let parsed = Json::parse_body(body);
    if !(200..300).contains(&status) {
        let (errors, data) = match &parsed {
            Some(v) if v.is_object() => (
                read_errors(v).unwrap_or_default(),
                v.member("data").filter(JsonValue::is_object),
            ),
            _ => (Vec::new(), None),
        };
        let retry_after_ms = retry_after.and_then(|v| retry::parse_retry_after(v, now_ms));
        return Err(error::from_status(status, retry_after_ms, errors, data));
    }
    let Some(envelope) = parsed else {
        return Err(Error::decode(
            status,
            if crate::json::body_is_blank(body) {
                "The response body was empty."
            } else {
                "The response was not valid JSON."
            },
        ));
    };
    if !envelope.is_object() {
        return Err(Error::decode(
            status,
            "The response was not a GraphQL response (a JSON object).",
        ));
    }
    let data = envelope.member("data").filter(JsonValue::is_object);
    let errors = read_errors(&envelope).map_err(|()| {
        Error::decode(
            status,
            "The response's errors member was not a list of error objects.",
        )
    })?;
    if !errors.is_empty() {
        return Err(error::from_graphql(status, errors, data));
    }
    let Some(data) = data else {
        return Err(Error::decode(
            status,
            "The response had no data object and no errors.",
        ));
    };
    check_shape(status, data, expect)
}

fn shape_error(status: u16, field: &str, what: &str) -> Error {
    let mut m = String::from("The response's data.");
    m.push_str(field);
    m.push_str(what);
    Error::decode(status, &m)
}

fn check_shape(status: u16, data: Json, expect: Expect) -> Result<Json, Error> {
    match expect {
        Expect::Data => Ok(data),
        Expect::Object(field) => data
            .member(field)
            .filter(JsonValue::is_object)
            .ok_or_else(|| shape_error(status, field, " was missing or not an object.")),
        Expect::ObjectOrNull(field) => data
            .member(field)
            .filter(|v| v.is_object() || v.is_null())
            .ok_or_else(|| shape_error(status, field, " was missing or not an object or null.")),
        Expect::Boolean(field) => data
            .member(field)
            .filter(|v| v.boolean().is_some())
            .ok_or_else(|| shape_error(status, field, " was missing or not true or false.")),
        Expect::List(field) => data
            .member(field)
            .filter(|v| v.array_len().is_some())
            .ok_or_else(|| shape_error(status, field, " was missing or not a list.")),
        Expect::Page(field) => {
            let page = data
                .member(field)
                .filter(JsonValue::is_object)
                .ok_or_else(|| shape_error(status, field, " was missing or not an object."))?;
            if page.member("data").and_then(|d| d.array_len()).is_none() {
                return Err(shape_error(status, field, ".data was not a list."));
            }
            let numbers_ok = page.member("pagination").is_some_and(|p| {
                ["page", "perPage", "total"]
                    .iter()
                    .all(|k| p.member(k).and_then(|v| v.number()).is_some())
            });
            if !numbers_ok {
                return Err(shape_error(
                    status,
                    field,
                    ".pagination did not have numeric page, perPage and total.",
                ));
            }
            Ok(page)
        }
        #[cfg(any(feature = "server", not(feature = "npm-base")))]
        Expect::Connection(parent, field) => {
            let fail = |what: &str| shape_error(status, &[parent, ".", field].concat(), what);
            let page = data
                .member(parent)
                .filter(JsonValue::is_object)
                .and_then(|p| p.member(field))
                .filter(JsonValue::is_object)
                .ok_or_else(|| fail(" was missing or not an object."))?;
            // `nodes` is nullable in the observed schema: `null` is a page without rows.
            if !page
                .member("nodes")
                .is_some_and(|d| d.is_null() || d.array_len().is_some())
            {
                return Err(fail(".nodes was not a list or null."));
            }
            let info_ok = page.member("pageInfo").is_some_and(|p| {
                p.member("hasNextPage").and_then(|v| v.boolean()).is_some()
                    && p.member("endCursor")
                        .is_some_and(|c| c.is_null() || c.string().is_some())
            });
            if !info_ok {
                return Err(fail(
                    ".pageInfo did not have a boolean hasNextPage and a string or null endCursor.",
                ));
            }
            Ok(page)
        }
    }
}

/// Reads `errors`: absent or `null` → none; otherwise every entry must be an object.
fn read_errors(envelope: &Json) -> Result<Vec<GraphqlError>, ()> {
    let Some(list) = envelope.member("errors").filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let len = list.array_len().ok_or(())?;
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let e = list.at(i).filter(JsonValue::is_object).ok_or(())?;
        let present = |k: &'static str| e.member(k).filter(|v| !v.is_null());
        out.push(GraphqlError {
            message: e
                .member("message")
                .and_then(|m| m.string())
                .unwrap_or_default(),
            path: present("path"),
            locations: present("locations"),
            extensions: present("extensions"),
        });
    }
    Ok(out)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
