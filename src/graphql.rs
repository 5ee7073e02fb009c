//! GraphQL: the documents, selection sets built from validated names, request bodies,
//! the read-only check for `request`, and decoding of the response envelope.
//!
//! No user input is ever pasted into a document: arguments travel in `variables`, and
//! selection sets are built only from names that passed [`crate::inputs::fields`].

use crate::error::{self, Error, GraphqlError};
use crate::inputs;
use crate::json::{Body, Json, JsonValue, JsonWriter};
use crate::retry;
use crate::types::OrderHistoryFilter;

/// Default `AgentProfile` selection: every observed field except `apiKey`.
pub const PROFILE_FIELDS: &str = "id email accountBalance escrowBalance bonusEarnings \
depositAddress verificationStatus autoUpdateDepositRate autoUpdateWithdrawalRate creditLine \
usedCreditLine depositMargin withdrawalMargin averageDepositRate averageWithdrawalRate \
depositsCompleted withdrawalsCompleted totalDepositFiatAmount totalDepositUsdAmount \
totalWithdrawalFiatAmount totalWithdrawalUsdAmount enforceReceiptUpload";

/// Default `P2PPayment` selection: every observed field, plus `paymentMethod amountLocal
/// amountUsd currency` (not in the observed schema; pass `fields` if the service lacks them).
pub const PAYMENT_FIELDS: &str = "id status paymentType exchangeRate exchangeRateMinusSurcharge \
orderId source instant createdAt expiresAt expiresAtSecs reassigning reassignAfter \
reassignAfterSecs agentCutOfFees fxSpreadRevenue paymentMethod amountLocal amountUsd currency";

/// Default `WithdrawalInfo` selection.
pub const WITHDRAWAL_FIELDS: &str = "symbol name icon networks addressRegex memoRegex";

/// Builds a selection set (without braces) from `fields`, or returns `default` when `fields`
/// is `None`. Dotted paths select nested fields and shared prefixes merge:
/// `["id", "totp.enabled", "totp.secret"]` → `id totp { enabled secret }`. Duplicates are
/// dropped; a name selected both bare and with sub-fields keeps its sub-fields.
pub fn selection(fields: Option<&[String]>, default: &str) -> Result<String, Error> {
    let Some(list) = fields else {
        return Ok(default.to_owned());
    };
    inputs::fields(list)?;
    let mut root: Vec<Node> = Vec::new();
    for path in list {
        let mut level = &mut root;
        let mut parts = inputs::split_ascii(path, inputs::is_dot).peekable();
        while let Some(name) = parts.next() {
            let last = parts.peek().is_none();
            let i = match level.iter().position(|n| n.name == name) {
                Some(i) => i,
                None => {
                    level.push(Node {
                        name: name.to_owned(),
                        children: Vec::new(),
                    });
                    level.len() - 1
                }
            };
            if last {
                break;
            }
            level = &mut level[i].children;
        }
    }
    let mut out = String::with_capacity(list.len() * 16);
    write_nodes(&mut out, &root);
    Ok(out)
}

struct Node {
    name: String,
    children: Vec<Node>,
}

fn write_nodes(out: &mut String, nodes: &[Node]) {
    for (i, n) in nodes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&n.name);
        if !n.children.is_empty() {
            out.push_str(" { ");
            write_nodes(out, &n.children);
            out.push_str(" }");
        }
    }
}

/// A query of one root field with at most one `String`-like argument: its operation name,
/// field, argument, default selection and the shape its result must have. Every built-in
/// query but `orderHistory` is one of these (bot: [`PROFILE`], [`WITHDRAWAL_INFO`];
/// merchant: [`ACCOUNT`] … [`MERCHANT_PAYMENT_REQUEST`]).
#[derive(Clone, Copy, Debug)]
pub struct RootQuery {
    /// The `operationName`, e.g. `"MarketRate"`.
    pub operation: &'static str,
    /// The root field, e.g. `"marketRate"`.
    pub field: &'static str,
    /// The argument's name and GraphQL type, e.g. `("countryCode", "String!")`; its value
    /// travels as the variable of the same name.
    pub argument: Option<(&'static str, &'static str)>,
    /// The default selection.
    pub fields: &'static str,
    /// What `data.<field>` must be.
    pub expect: Expect,
}

/// `profile: AgentProfile!` (bot).
pub const PROFILE: RootQuery = RootQuery {
    operation: "Profile",
    field: "profile",
    argument: None,
    fields: PROFILE_FIELDS,
    expect: Expect::Object("profile"),
};
/// `withdrawalInfo(symbol: String!): WithdrawalInfo` (bot).
pub const WITHDRAWAL_INFO: RootQuery = RootQuery {
    operation: "WithdrawalInfo",
    field: "withdrawalInfo",
    argument: Some(("symbol", "String!")),
    fields: WITHDRAWAL_FIELDS,
    expect: Expect::ObjectOrNull("withdrawalInfo"),
};
/// `account: Account!` (merchant; needs the secret key).
pub const ACCOUNT: RootQuery = RootQuery {
    operation: "Account",
    field: "account",
    argument: None,
    fields: "id accountBalance depositAddress",
    expect: Expect::Object("account"),
};
/// `availableCountries: [Country!]!` (merchant).
pub const AVAILABLE_COUNTRIES: RootQuery = RootQuery {
    operation: "AvailableCountries",
    field: "availableCountries",
    argument: None,
    fields: "id name code currency { isoCode name }",
    expect: Expect::List("availableCountries"),
};
/// `p2pPaymentMethodTypes(country: ID!): [PaymentMethodType!]!` (merchant).
pub const PAYMENT_METHOD_TYPES: RootQuery = RootQuery {
    operation: "PaymentMethodTypes",
    field: "p2pPaymentMethodTypes",
    argument: Some(("country", "ID!")),
    fields: "id identifier label fields { label identifier required }",
    expect: Expect::List("p2pPaymentMethodTypes"),
};
/// `marketRate(countryCode: String!): MarketRate` (merchant; indicative rates).
pub const MARKET_RATE: RootQuery = RootQuery {
    operation: "MarketRate",
    field: "marketRate",
    argument: Some(("countryCode", "String!")),
    fields: "depositRate withdrawalRate",
    expect: Expect::ObjectOrNull("marketRate"),
};
/// `rampLimits: RampLimits!` (merchant).
pub const RAMP_LIMITS: RootQuery = RootQuery {
    operation: "RampLimits",
    field: "rampLimits",
    argument: None,
    fields: "minimumDepositUsd maximumDepositUsd minimumWithdrawalUsd maximumWithdrawalUsd \
dailyLimitUsd",
    expect: Expect::Object("rampLimits"),
};
/// `rampableAssets: [RampableAsset!]!` (merchant).
pub const RAMPABLE_ASSETS: RootQuery = RootQuery {
    operation: "RampableAssets",
    field: "rampableAssets",
    argument: None,
    fields: "name symbol networks contractAddress",
    expect: Expect::List("rampableAssets"),
};
/// `merchantPaymentRequest(reference: String!): MerchantPaymentRequest` (merchant).
pub const MERCHANT_PAYMENT_REQUEST: RootQuery = RootQuery {
    operation: "MerchantPaymentRequest",
    field: "merchantPaymentRequest",
    argument: Some(("reference", "String!")),
    fields: "id paymentType hostedLink amount currency reference status",
    expect: Expect::ObjectOrNull("merchantPaymentRequest"),
};

/// `query <Op>($arg: Type) { <field>(arg: $arg) { <selection> } }` (without the argument
/// parts when the query has none).
pub fn root_document(q: &RootQuery, selection: &str) -> String {
    let mut s = String::with_capacity(64 + selection.len());
    s.push_str("query ");
    s.push_str(q.operation);
    if let Some((name, ty)) = q.argument {
        s.push_str("($");
        s.push_str(name);
        s.push_str(": ");
        s.push_str(ty);
        s.push(')');
    }
    s.push_str(" { ");
    s.push_str(q.field);
    if let Some((name, _)) = q.argument {
        s.push('(');
        s.push_str(name);
        s.push_str(": $");
        s.push_str(name);
        s.push(')');
    }
    s.push_str(" { ");
    s.push_str(selection);
    s.push_str(" } }");
    s
}

/// The body of a [`RootQuery`]: `{query, variables: {<arg>: value}, operationName}`
/// (`variables` only when the query has an argument and `value` is given).
pub fn root_body(q: &RootQuery, document: &str, value: Option<&str>) -> String {
    let mut w = JsonWriter::new();
    begin_body(&mut w, document);
    if let (Some((name, _)), Some(v)) = (q.argument, value) {
        w.key("variables");
        w.begin_object();
        w.key(name);
        w.string(v);
        w.end_object();
    }
    end_body(w, Some(q.operation))
}

/// `query Profile { profile { <selection> } }`
pub fn profile_document(selection: &str) -> String {
    root_document(&PROFILE, selection)
}

/// The `OrderHistory` query with `<selection>` inside `data { }`.
pub fn order_history_document(selection: &str) -> String {
    wrap(
        "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { \
orderHistory(page: $page, perPage: $perPage, filter: $filter) { data { ",
        selection,
        " } pagination { page perPage total } } }",
    )
}

/// `query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { <selection> } }`
pub fn withdrawal_info_document(selection: &str) -> String {
    root_document(&WITHDRAWAL_INFO, selection)
}

fn wrap(head: &str, middle: &str, tail: &str) -> String {
    let mut s = String::with_capacity(head.len() + middle.len() + tail.len());
    s.push_str(head);
    s.push_str(middle);
    s.push_str(tail);
    s
}

fn begin_body(w: &mut JsonWriter, document: &str) {
    w.begin_object();
    w.key("query");
    w.string(document);
}

fn end_body(mut w: JsonWriter, operation_name: Option<&str>) -> String {
    if let Some(name) = operation_name {
        w.key("operationName");
        w.string(name);
    }
    w.end_object();
    w.finish()
}

/// The body of the `Profile` query.
pub fn profile_body(document: &str) -> String {
    root_body(&PROFILE, document, None)
}

/// The body of one `OrderHistory` page; `perPage` and `filter` are omitted when unset/empty.
pub fn order_history_body(
    document: &str,
    page: i64,
    per_page: Option<i64>,
    filter: &OrderHistoryFilter,
) -> String {
    let mut w = JsonWriter::new();
    begin_body(&mut w, document);
    w.key("variables");
    w.begin_object();
    w.key("page");
    w.int(page);
    if let Some(pp) = per_page {
        w.key("perPage");
        w.int(pp);
    }
    if !filter.is_empty() {
        w.key("filter");
        w.begin_object();
        for (name, value) in [
            ("orderId", &filter.order_id),
            ("status", &filter.status),
            ("dateFrom", &filter.date_from),
            ("dateTo", &filter.date_to),
            ("paymentMethod", &filter.payment_method),
        ] {
            if let Some(v) = value {
                w.key(name);
                w.string(v);
            }
        }
        w.end_object();
    }
    w.end_object();
    end_body(w, Some("OrderHistory"))
}

/// The body of the `WithdrawalInfo` query.
pub fn withdrawal_info_body(document: &str, symbol: &str) -> String {
    root_body(&WITHDRAWAL_INFO, document, Some(symbol))
}

/// The body of a caller's document; `variables_json` is serialised JSON of an object.
pub fn request_body(document: &str, variables_json: Option<&str>) -> String {
    let mut w = JsonWriter::new();
    begin_body(&mut w, document);
    if let Some(v) = variables_json {
        w.key("variables");
        w.raw(v);
    }
    end_body(w, None)
}

/// Whether a document only reads: every operation in it is a `query` (or a shorthand
/// `{ … }` query), and there is at least one. Fragments are skipped. Anything the scanner
/// does not understand counts as not read-only (so it is never retried).
pub fn is_read_only(document: &str) -> bool {
    let b = document.as_bytes();
    let mut i = 0;
    let mut operations = 0;
    loop {
        i = skip_ignored(b, i);
        if i >= b.len() {
            return operations > 0;
        }
        if b[i] == b'{' {
            operations += 1;
        } else if b[i] == b'_' || b[i].is_ascii_alphabetic() {
            let start = i;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            match document.get(start..i) {
                Some("query") => operations += 1,
                Some("fragment") => {}
                _ => return false, // mutation, subscription, type-system definitions
            }
        } else {
            return false;
        }
        // Skip the rest of the definition: up to and past its top-level selection set.
        match skip_definition(b, i) {
            Some(next) => i = next,
            None => return false,
        }
    }
}

/// Skips spaces, commas, line breaks, a BOM and `#` comments.
fn skip_ignored(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' => i += 1,
            0xEF if b.get(i + 1..i + 3) == Some(&[0xBB, 0xBF][..]) => i += 3,
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// From inside a definition's header, finds its selection set (the first `{` outside
/// parentheses) and returns the index just past the matching `}`.
fn skip_definition(b: &[u8], mut i: usize) -> Option<usize> {
    let mut parens = 0usize;
    let mut braces = 0usize;
    let mut in_selection = false;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            b'#' => {
                i = skip_ignored(b, i);
                continue;
            }
            b'(' => parens += 1,
            b')' => parens = parens.checked_sub(1)?,
            b'{' => {
                if parens == 0 {
                    in_selection = true;
                }
                braces += 1;
            }
            b'}' => {
                braces = braces.checked_sub(1)?;
                if in_selection && braces == 0 && parens == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips a string or block string starting at `b[i] == '"'`; returns the index after it.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i..i + 3) == Some(&b"\"\"\""[..]) {
        let mut j = i + 3;
        while j < b.len() {
            if b[j] == b'\\' && b.get(j + 1..j + 4) == Some(&b"\"\"\""[..]) {
                j += 4;
            } else if b.get(j..j + 3) == Some(&b"\"\"\""[..]) {
                return Some(j + 3);
            } else {
                j += 1;
            }
        }
        return None;
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            b'\n' | b'\r' => return None,
            _ => j += 1,
        }
    }
    None
}

/// What a successful response's `data` must look like, and what to return from it.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    /// `data` must be an object; it is returned.
    Data,
    /// `data.<field>` must be an object; it is returned.
    Object(&'static str),
    /// `data.<field>` must be an object or `null`; it is returned.
    ObjectOrNull(&'static str),
    /// `data.<field>` must be a list; it is returned (elements unchecked and untouched).
    List(&'static str),
    /// `data.<field>` must be a page: `{ data: [...], pagination: { page, perPage, total } }`
    /// with numeric page information; it is returned (rows unchecked and untouched).
    Page(&'static str),
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
        let present = |k: &str| e.member(k).filter(|v| !v.is_null());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;
    use serde_json::{json, Value};

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn default_documents_are_exact() {
        assert_eq!(
            profile_document(PROFILE_FIELDS),
            "query Profile { profile { id email accountBalance escrowBalance bonusEarnings depositAddress \
verificationStatus autoUpdateDepositRate autoUpdateWithdrawalRate creditLine usedCreditLine depositMargin \
withdrawalMargin averageDepositRate averageWithdrawalRate depositsCompleted withdrawalsCompleted \
totalDepositFiatAmount totalDepositUsdAmount totalWithdrawalFiatAmount totalWithdrawalUsdAmount \
enforceReceiptUpload } }"
        );
        assert!(!PROFILE_FIELDS.contains("apiKey"));
        assert_eq!(
            order_history_document(PAYMENT_FIELDS),
            "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { \
orderHistory(page: $page, perPage: $perPage, filter: $filter) { data { id status paymentType exchangeRate \
exchangeRateMinusSurcharge orderId source instant createdAt expiresAt expiresAtSecs reassigning \
reassignAfter reassignAfterSecs agentCutOfFees fxSpreadRevenue paymentMethod amountLocal amountUsd \
currency } pagination { page perPage total } } }"
        );
        assert_eq!(
            withdrawal_info_document(WITHDRAWAL_FIELDS),
            "query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { symbol name icon \
networks addressRegex memoRegex } }"
        );
    }

    #[test]
    fn merchant_documents_are_exact() {
        let doc = |q: &RootQuery| root_document(q, q.fields);
        assert_eq!(
            doc(&ACCOUNT),
            "query Account { account { id accountBalance depositAddress } }"
        );
        assert_eq!(
            doc(&AVAILABLE_COUNTRIES),
            "query AvailableCountries { availableCountries { id name code currency { isoCode name } } }"
        );
        assert_eq!(
            doc(&PAYMENT_METHOD_TYPES),
            "query PaymentMethodTypes($country: ID!) { p2pPaymentMethodTypes(country: $country) { id \
identifier label fields { label identifier required } } }"
        );
        assert_eq!(
            doc(&MARKET_RATE),
            "query MarketRate($countryCode: String!) { marketRate(countryCode: $countryCode) { \
depositRate withdrawalRate } }"
        );
        assert_eq!(
            doc(&RAMP_LIMITS),
            "query RampLimits { rampLimits { minimumDepositUsd maximumDepositUsd minimumWithdrawalUsd \
maximumWithdrawalUsd dailyLimitUsd } }"
        );
        assert_eq!(
            doc(&RAMPABLE_ASSETS),
            "query RampableAssets { rampableAssets { name symbol networks contractAddress } }"
        );
        assert_eq!(
            doc(&MERCHANT_PAYMENT_REQUEST),
            "query MerchantPaymentRequest($reference: String!) { merchantPaymentRequest(reference: \
$reference) { id paymentType hostedLink amount currency reference status } }"
        );
        let v: Value = serde_json::from_str(&root_body(&MARKET_RATE, "q", Some("N\"G"))).unwrap();
        assert_eq!(
            v,
            json!({"query": "q", "variables": {"countryCode": "N\"G"}, "operationName": "MarketRate"})
        );
        let v: Value = serde_json::from_str(&root_body(&RAMP_LIMITS, "q", None)).unwrap();
        assert_eq!(v, json!({"query": "q", "operationName": "RampLimits"}));
        for q in [
            ACCOUNT,
            AVAILABLE_COUNTRIES,
            PAYMENT_METHOD_TYPES,
            MARKET_RATE,
            RAMP_LIMITS,
            RAMPABLE_ASSETS,
            MERCHANT_PAYMENT_REQUEST,
            PROFILE,
            WITHDRAWAL_INFO,
        ] {
            assert!(is_read_only(&doc(&q)), "{}", q.operation);
        }
    }

    #[test]
    fn list_shapes() {
        let v = decode(
            200,
            None,
            r#"{"data":{"rampableAssets":[{"symbol":"USDC"}]}}"#,
            Expect::List("rampableAssets"),
        )
        .unwrap();
        assert_eq!(v, json!([{"symbol": "USDC"}]));
        let v = decode(
            200,
            None,
            r#"{"data":{"rampableAssets":[]}}"#,
            Expect::List("rampableAssets"),
        )
        .unwrap();
        assert_eq!(v, json!([]));
        for body in [
            r#"{"data":{"rampableAssets":null}}"#,
            r#"{"data":{"rampableAssets":{}}}"#,
            r#"{"data":{}}"#,
            r#"{"data":{"rampableAssets":"x"}}"#,
        ] {
            let e = decode_err(200, None, body, Expect::List("rampableAssets"));
            assert_eq!(e.code, Code::Decode, "{body}");
        }
    }

    #[test]
    fn selections_merge_nested_paths() {
        let s = selection(
            Some(&strings(&[
                "id",
                "totp.enabled",
                "email",
                "totp.secret",
                "id",
            ])),
            "x",
        )
        .unwrap();
        assert_eq!(s, "id totp { enabled secret } email");
        let s = selection(Some(&strings(&["a.b.c", "a.b.d", "a.e", "f"])), "x").unwrap();
        assert_eq!(s, "a { b { c d } e } f");
        // Bare and nested: the sub-fields win (either order).
        assert_eq!(
            selection(Some(&strings(&["totp", "totp.enabled"])), "x").unwrap(),
            "totp { enabled }"
        );
        assert_eq!(
            selection(Some(&strings(&["totp.enabled", "totp"])), "x").unwrap(),
            "totp { enabled }"
        );
        assert_eq!(selection(None, "dflt").unwrap(), "dflt");
        assert_eq!(
            profile_document(&selection(Some(&strings(&["id", "totp.enabled"])), "").unwrap()),
            "query Profile { profile { id totp { enabled } } }"
        );
        assert_eq!(
            order_history_document(&selection(Some(&strings(&["id", "status"])), "").unwrap()),
            "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { orderHistory(page: \
$page, perPage: $perPage, filter: $filter) { data { id status } pagination { page perPage total } } }"
        );
    }

    #[test]
    fn invalid_names_refused() {
        for bad in [
            vec![],
            vec!["id } mutation { x"],
            vec!["id", "a b"],
            vec!["__schema { types }"],
            vec!["a..b"],
            vec!["a.", ""],
            vec!["1id"],
        ] {
            let e = selection(Some(&strings(&bad)), "x").unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (Code::InvalidInput, Some("fields")),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn bodies() {
        let doc = order_history_document("id");
        let body = order_history_body(&doc, 2, Some(50), &OrderHistoryFilter::default());
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            v,
            json!({"query": doc, "variables": {"page": 2, "perPage": 50}, "operationName": "OrderHistory"})
        );
        let f = OrderHistoryFilter {
            order_id: Some("o\"1}".into()),
            status: Some("paid".into()),
            date_from: Some("2024-01-01".into()),
            date_to: Some("2024-02-29".into()),
            payment_method: Some("M-Pesa \u{1}".into()),
        };
        let v: Value = serde_json::from_str(&order_history_body(&doc, 1, None, &f)).unwrap();
        assert_eq!(
            v["variables"],
            json!({"page": 1, "filter": {"orderId": "o\"1}", "status": "paid", "dateFrom": "2024-01-01",
                "dateTo": "2024-02-29", "paymentMethod": "M-Pesa \u{1}"}})
        );
        let v: Value = serde_json::from_str(&withdrawal_info_body("q", "US\"DC")).unwrap();
        assert_eq!(
            v,
            json!({"query": "q", "variables": {"symbol": "US\"DC"}, "operationName": "WithdrawalInfo"})
        );
        let v: Value =
            serde_json::from_str(&profile_body("query { __schema { types { name } } }")).unwrap();
        assert_eq!(
            v,
            json!({"query": "query { __schema { types { name } } }", "operationName": "Profile"})
        );
        let v: Value =
            serde_json::from_str(&request_body("{ a }", Some(r#"{"x":[1,"}"]}"#))).unwrap();
        assert_eq!(v, json!({"query": "{ a }", "variables": {"x": [1, "}"]}}));
        let v: Value = serde_json::from_str(&request_body("{ a }", None)).unwrap();
        assert_eq!(v, json!({"query": "{ a }"}));
    }

    #[test]
    fn read_only_scanner() {
        for q in [
            "{ profile { id } }",
            "query { profile { id } }",
            "  query Q($a: Int = 1) @dir(x: \"{\") { a(b: $a) { c } }",
            "# mutation in a comment\nquery Q { a }",
            "fragment F on X { a } query Q { ...F }",
            "query A { a } query B { b }",
            "\u{feff}query { a(s: \"\"\"block } mutation\"\"\") }",
            "query Q($f: In = {a: {b: 1}}) { a }",
            ",,query{a}",
        ] {
            assert!(is_read_only(q), "{q}");
        }
        for q in [
            "mutation { pay }",
            "subscription { updates }",
            "query A { a } mutation B { b }",
            "fragment F on X { a }",
            "",
            "   # only a comment",
            "type Query { a: Int }",
            "query { a ",
            "query Q { a(s: \"unterminated) }",
            "Query { a }",
            "} query { a }",
            "[1]",
        ] {
            assert!(!is_read_only(q), "{q}");
        }
    }

    proptest::proptest! {
        #[test]
        fn scanners_and_decoding_never_panic(doc in ".{0,60}", body in ".{0,60}", status in 0u16..700) {
            let _ = is_read_only(&doc);
            let _ = selection(Some(std::slice::from_ref(&doc)), "");
            for expect in [Expect::Data, Expect::Object("a"), Expect::ObjectOrNull("a"), Expect::Page("a"), Expect::List("a")] {
                let _ = decode_response(status, Some(&doc), &body, 0.0, expect);
            }
        }

        #[test]
        fn structured_documents_classify(
            name in "[A-Za-z_][A-Za-z0-9_]{0,8}",
            kind in proptest::sample::select(vec!["query", "mutation", "subscription"]),
            arg in "[a-zA-Z0-9 {}()#,:$]{0,10}",
        ) {
            let doc = format!("{kind} {name}($a: String = \"{arg}\") {{ f(a: $a) {{ g }} }}");
            proptest::prop_assert_eq!(is_read_only(&doc), kind == "query", "{}", doc);
        }
    }

    fn decode(
        status: u16,
        retry_after: Option<&str>,
        body: &str,
        expect: Expect,
    ) -> Result<Json, Error> {
        decode_response(
            status,
            retry_after,
            &body.to_owned(),
            1_445_412_470_000.0,
            expect,
        )
    }

    #[test]
    fn decode_success_shapes() {
        let v = decode(
            200,
            None,
            r#"{"data":{"profile":{"id":"1"}}}"#,
            Expect::Object("profile"),
        )
        .unwrap();
        assert_eq!(v, json!({"id": "1"}));
        let v = decode(
            200,
            None,
            r#"{"data":{"withdrawalInfo":null}}"#,
            Expect::ObjectOrNull("withdrawalInfo"),
        )
        .unwrap();
        assert_eq!(v, Value::Null);
        let page = r#"{"data":{"orderHistory":{"data":[{"id":"1"}],"pagination":{"page":1,"perPage":10,"total":1}}},"errors":[]}"#;
        let v = decode(200, None, page, Expect::Page("orderHistory")).unwrap();
        assert_eq!(v["data"][0]["id"], "1");
        let v = decode(
            200,
            None,
            r#"{"data":{"x":1},"extensions":{}}"#,
            Expect::Data,
        )
        .unwrap();
        assert_eq!(v, json!({"x": 1}));
    }

    fn decode_err(status: u16, retry_after: Option<&str>, body: &str, expect: Expect) -> Error {
        decode(status, retry_after, body, expect).expect_err("an error")
    }

    #[test]
    fn decode_wrong_shapes() {
        for (body, expect) in [
            (r#"{"data":{"profile":null}}"#, Expect::Object("profile")),
            (r#"{"data":{"profile":[1]}}"#, Expect::Object("profile")),
            (r#"{"data":{}}"#, Expect::ObjectOrNull("withdrawalInfo")),
            (
                r#"{"data":{"withdrawalInfo":"USDC"}}"#,
                Expect::ObjectOrNull("withdrawalInfo"),
            ),
            (
                r#"{"data":{"orderHistory":{"data":{},"pagination":{"page":1,"perPage":1,"total":1}}}}"#,
                Expect::Page("orderHistory"),
            ),
            (
                r#"{"data":{"orderHistory":{"data":[],"pagination":{"page":"1","perPage":1,"total":1}}}}"#,
                Expect::Page("orderHistory"),
            ),
            (
                r#"{"data":{"orderHistory":{"data":[]}}}"#,
                Expect::Page("orderHistory"),
            ),
            (r#"{"data":null}"#, Expect::Data),
            (r#"{}"#, Expect::Data),
            (r#"[{"data":{}}]"#, Expect::Data),
            (r#""data""#, Expect::Data),
            (r#"{"data":{},"errors":{"message":"x"}}"#, Expect::Data),
            (r#"{"data":{},"errors":["x"]}"#, Expect::Data),
            ("", Expect::Data),
            ("   ", Expect::Data),
            (
                r#"{"data":{"profile":{"id":"1"}"#,
                Expect::Object("profile"),
            ),
            ("<html>oops</html>", Expect::Data),
        ] {
            let e = decode_err(200, None, body, expect);
            assert_eq!((e.code, e.status), (Code::Decode, Some(200)), "{body}");
        }
        assert!(decode_err(200, None, "", Expect::Data)
            .message
            .contains("empty"));
        assert!(decode_err(200, None, "{\"da", Expect::Data)
            .message
            .contains("not valid JSON"));
    }

    #[test]
    fn decode_graphql_errors() {
        let body = r#"{"data":{"profile":{"id":"1","email":null}},"errors":[
            {"message":"email hidden","path":["profile","email"],"locations":[{"line":1,"column":30}],"extensions":{"code":"INTERNAL"}},
            {"message":"second"}]}"#;
        let e = decode_err(200, None, body, Expect::Object("profile"));
        assert_eq!(e.code, Code::Graphql);
        assert_eq!(e.status, Some(200));
        assert_eq!(e.message, "email hidden (and 1 more error)");
        assert_eq!(e.graphql_errors.len(), 2);
        assert_eq!(e.graphql_errors[0].path, Some(json!(["profile", "email"])));
        assert_eq!(
            e.graphql_errors[0].locations,
            Some(json!([{"line": 1, "column": 30}]))
        );
        assert_eq!(
            e.graphql_errors[0].extensions,
            Some(json!({"code": "INTERNAL"}))
        );
        assert_eq!(e.graphql_errors[1].path, None);
        assert_eq!(e.data, Some(json!({"profile": {"id": "1", "email": null}})));

        let e = decode_err(
            200,
            None,
            r#"{"data":null,"errors":[{"message":"nope","extensions":{"code":"FORBIDDEN"}}]}"#,
            Expect::Data,
        );
        assert_eq!(e.code, Code::Forbidden);
        assert_eq!(e.data, None);
        assert_eq!(e.message, "nope");
        let e = decode_err(200, None, r#"{"errors":[{"extensions":{}}]}"#, Expect::Data);
        assert_eq!(e.code, Code::Graphql);
        assert!(!e.message.is_empty());
    }

    #[test]
    fn decode_statuses() {
        let e = decode_err(
            401,
            None,
            r#"{"errors":[{"message":"Invalid API key"}]}"#,
            Expect::Data,
        );
        assert_eq!((e.code, e.status), (Code::Unauthorized, Some(401)));
        assert_eq!(e.message, "Invalid API key (HTTP 401).");
        assert_eq!(e.graphql_errors.len(), 1);
        let e = decode_err(401, None, "Unauthorized", Expect::Data);
        assert_eq!((e.code, e.status), (Code::Unauthorized, Some(401)));
        assert!(e.graphql_errors.is_empty());
        let e = decode_err(403, None, "", Expect::Data);
        assert_eq!((e.code, e.status), (Code::Forbidden, Some(403)));
        let e = decode_err(429, Some("7"), "", Expect::Data);
        assert_eq!(
            (e.code, e.status, e.retry_after_ms),
            (Code::RateLimited, Some(429), Some(7_000))
        );
        let e = decode_err(429, Some("Wed, 21 Oct 2015 07:28:00 GMT"), "", Expect::Data);
        assert_eq!(e.retry_after_ms, Some(10_000));
        let e = decode_err(429, None, "slow down", Expect::Data);
        assert_eq!((e.code, e.retry_after_ms), (Code::RateLimited, None));
        let e = decode_err(429, Some("whenever"), "", Expect::Data);
        assert_eq!(e.retry_after_ms, None);
        let e = decode_err(
            500,
            None,
            "<html><body>Internal Server Error</body></html>",
            Expect::Data,
        );
        assert_eq!((e.code, e.status), (Code::Http, Some(500)));
        assert!(!e.message.contains("<html>"));
        let e = decode_err(502, None, "", Expect::Data);
        assert_eq!((e.code, e.status), (Code::Http, Some(502)));
        let e = decode_err(
            503,
            Some("2"),
            r#"{"data":{"a":1},"errors":[{"message":"down"}]}"#,
            Expect::Data,
        );
        assert_eq!(
            (e.code, e.status, e.retry_after_ms),
            (Code::Http, Some(503), Some(2_000))
        );
        assert_eq!(e.data, Some(json!({"a": 1})));
        assert_eq!(e.message, "down (HTTP 503); retry after 2000 ms.");
        // Malformed errors in a non-2xx body are ignored, not fatal.
        let e = decode_err(400, None, r#"{"errors":"bad"}"#, Expect::Data);
        assert_eq!(
            (e.code, e.status, e.graphql_errors.len()),
            (Code::Http, Some(400), 0)
        );
    }
}
