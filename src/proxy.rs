//! The server proxy's checks (feature `server`): what a page may ask a server that holds the
//! key to send upstream, and every answer the proxy gives of its own.
//!
//! A body is forwarded only when it is what this package's own client sends for an allowed
//! method ([`Policy::check`]): one named operation whose kind, name, variable definitions,
//! root field and arguments are that method's declaration in [`crate::operations`], a
//! selection within the fields the package selects by default for it (so never the agent
//! profile's `apiKey`), no alias, fragment, directive, introspection field or second
//! operation, and variables that pass the client's own checks ([`Operation::variables`]).
//! The document is parsed with a real GraphQL parser (async-graphql-parser). What goes
//! upstream is then not the caller's text but the body the client would build from what
//! passed: the document from [`Operation::document`] and [`selection`], the checked variables
//! and the operation's name, so no text the checks did not produce ever reaches the service.
//!
//! Everything else is refused with a [`Refusal`]: its HTTP status and a GraphQL-shaped body
//! `{"errors":[{"message":…,"extensions":{"code":…}}]}`. The shell (the npm package's
//! `createProxyHandler`) only reads the request, asks this module, and does the I/O.

// Natively the checks are reached by their tests only; the npm server build's binding
// (src/js/proxy.rs) uses them.
#![cfg_attr(
    not(all(target_arch = "wasm32", feature = "npm-base")),
    allow(dead_code)
)]

use async_graphql_parser::types::{
    DocumentOperations, ExecutableDocument, OperationType, Selection, SelectionSet,
};
use async_graphql_parser::Positioned;
use serde_json::{Map, Value as JsonValue};

use crate::config::{ClientOptions, Config, BOT_PATH, MERCHANT_PATH};
use crate::error::Error;
use crate::graphql::{self, limits, selection};
use crate::inputs;
use crate::operations::{self, Arguments, Check, Endpoint, Kind, Operation, Value};
use crate::redact::redact;
use crate::types::OrderHistoryFilter;

/// The default largest request body, in bytes.
pub const DEFAULT_MAX_BODY_BYTES: u32 = 65_536;

/// The code of every refusal of a body that is not an allowed operation.
pub const FORBIDDEN_OPERATION: &str = "FORBIDDEN_OPERATION";

/// The longest `query` read, in bytes: four times the package's longest document (a full
/// default selection is under 1,500 bytes), checked before the document is scanned or parsed.
pub const MAX_QUERY_LEN: usize = 16_384;

/// The deepest nesting of JSON arrays and objects a body may have, checked by a flat pass
/// before the body is parsed (what the client sends nests at most 4 deep, plus a
/// `metadata` object's own depth). serde_json's own recursion limit (128) stays behind it.
pub const MAX_BODY_DEPTH: usize = 64;

/// What the proxy answers itself, without asking the service: an HTTP status and the code
/// and message of its one GraphQL error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status (403, 405, 413, 400, 401, 502, 500).
    pub status: u16,
    /// The error's `extensions.code`, e.g. `FORBIDDEN_OPERATION`.
    pub code: &'static str,
    /// The error's message (never holds the key: the checks never see it).
    pub message: String,
}

impl Refusal {
    fn new(status: u16, code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            code,
            message: message.into(),
        }
    }

    /// A body that is not an allowed operation (403 `FORBIDDEN_OPERATION`).
    pub fn forbidden(message: impl Into<String>) -> Refusal {
        Refusal::new(403, FORBIDDEN_OPERATION, message)
    }

    /// A request whose method is not `POST` (405).
    pub fn method_not_allowed() -> Refusal {
        Refusal::new(
            405,
            "METHOD_NOT_ALLOWED",
            "This proxy only accepts POST requests",
        )
    }

    /// A body over the limit (413); the shell stops reading at the limit.
    pub fn too_large(max_body_bytes: u32) -> Refusal {
        Refusal::new(
            413,
            "PAYLOAD_TOO_LARGE",
            format!("The request body is over {max_body_bytes} bytes"),
        )
    }

    /// A body that is not JSON (400).
    pub fn not_json() -> Refusal {
        Refusal::new(400, "BAD_REQUEST", "The request body is not JSON")
    }

    /// A body that nests deeper than [`MAX_BODY_DEPTH`] (400; refused before it is parsed).
    pub fn too_deep() -> Refusal {
        Refusal::new(
            400,
            "BAD_REQUEST",
            format!("The request body nests deeper than {MAX_BODY_DEPTH} levels (the limit)"),
        )
    }

    /// `authorize` said no, or threw (401; what it threw is never shown).
    pub fn unauthorized() -> Refusal {
        Refusal::new(401, "UNAUTHENTICATED", "Not authorized")
    }

    /// The service could not be reached (502).
    pub fn unreachable() -> Refusal {
        Refusal::new(502, "BAD_GATEWAY", "The service could not be reached")
    }

    /// The server's `apiKey` option gave no key for this request (500; a server fault).
    pub fn no_key() -> Refusal {
        Refusal::new(
            500,
            "PROXY_MISCONFIGURED",
            "The proxy has no API key for this request",
        )
    }

    /// The request could not be handled: a value the proxy could not read (500; nothing was
    /// sent upstream).
    pub fn internal() -> Refusal {
        Refusal::new(
            500,
            "PROXY_ERROR",
            "The proxy could not handle this request",
        )
    }

    /// The response body: `{"errors":[{"message":…,"extensions":{"code":…}}]}`.
    pub fn body(&self) -> String {
        serde_json::json!({
            "errors": [{ "message": self.message, "extensions": { "code": self.code } }]
        })
        .to_string()
    }
}

/// What to send upstream for an allowed request.
#[derive(Clone, Debug)]
pub struct Forward {
    /// The operation (its `kind`: a mutation is sent once).
    pub operation: &'static Operation,
    /// The JSON body, as the package's client builds it for this call.
    pub body: String,
}

/// One proxy's configuration: the endpoint it fronts, the operations it lets through (by
/// client method name), and the largest body it reads.
#[derive(Clone, Debug)]
pub struct Policy {
    endpoint: Endpoint,
    upstream: String,
    allowed: Vec<&'static Operation>,
    max_body_bytes: u32,
}

impl Policy {
    /// Checks the options: `endpoint` is `"bot"` or `"merchant"`, `base_url` the service's
    /// base URL as the clients take it, every name in `allow` a client method of that
    /// endpoint, `max_body_bytes` (default [`DEFAULT_MAX_BODY_BYTES`]) a whole number from 1.
    /// A mistake is `invalid_input` naming the option.
    pub fn new(
        endpoint: &str,
        base_url: &str,
        allow: &[String],
        max_body_bytes: Option<f64>,
    ) -> Result<Policy, Error> {
        let (endpoint, path) = match endpoint {
            "bot" => (Endpoint::Bot, BOT_PATH),
            "merchant" => (Endpoint::Merchant, MERCHANT_PATH),
            _ => {
                return Err(Error::invalid(
                    "endpoint",
                    "endpoint must be \"bot\" or \"merchant\"",
                ))
            }
        };
        let options = ClientOptions {
            base_url: Some(base_url.to_owned()),
            ..ClientOptions::default()
        };
        let upstream = Config::new(&options, path)?.endpoint().to_owned();
        if allow.is_empty() {
            return Err(Error::invalid(
                "allow",
                "allow must name at least one client method",
            ));
        }
        let mut allowed = Vec::with_capacity(allow.len());
        for method in allow {
            match operations::by_method(endpoint, method) {
                Some(op) => allowed.push(op),
                None => {
                    let known: Vec<&str> = operations::of(endpoint).map(|op| op.method).collect();
                    return Err(Error::invalid(
                        "allow",
                        format!(
                            "allow: {method:?} is not a client method of this endpoint (one of {})",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        let max_body_bytes = match max_body_bytes {
            None => DEFAULT_MAX_BODY_BYTES,
            Some(n) if n >= 1.0 && n <= f64::from(u32::MAX) && n.fract() == 0.0 => n as u32,
            Some(_) => {
                return Err(Error::invalid(
                    "maxBodyBytes",
                    "maxBodyBytes must be a whole number of bytes from 1",
                ))
            }
        };
        Ok(Policy {
            endpoint,
            upstream,
            allowed,
            max_body_bytes,
        })
    }

    /// The service endpoint requests are forwarded to (`{baseUrl}/service/bot/graphql` or
    /// `{baseUrl}/service/api/graphql`).
    pub fn upstream(&self) -> &str {
        &self.upstream
    }

    /// The largest body read, in bytes.
    pub fn max_body_bytes(&self) -> u32 {
        self.max_body_bytes
    }

    /// The allowed operation of the client method `method`, if it is allowed.
    pub fn allowed(&self, method: &str) -> Option<&'static Operation> {
        self.allowed.iter().copied().find(|op| op.method == method)
    }

    /// The request's HTTP method: only `POST` is served.
    pub fn check_method(&self, method: &str) -> Result<(), Refusal> {
        if method == "POST" {
            Ok(())
        } else {
            Err(Refusal::method_not_allowed())
        }
    }

    /// The request body (all of it, at most [`Policy::max_body_bytes`]): what to forward,
    /// or why not.
    pub fn check(&self, body: &str) -> Result<Forward, Refusal> {
        if body.len() > self.max_body_bytes as usize {
            return Err(Refusal::too_large(self.max_body_bytes));
        }
        if json_depth(body) > MAX_BODY_DEPTH {
            return Err(Refusal::too_deep());
        }
        let parsed: JsonValue = serde_json::from_str(body).map_err(|_| Refusal::not_json())?;
        let JsonValue::Object(members) = parsed else {
            return Err(Refusal::forbidden(
                "The body must be one GraphQL request object (no batches)",
            ));
        };
        let request = Request::read(members)?;
        let op = self.operation_of(&request)?;
        let paths = paths_of(op, &request.root_selection)?;
        let values = variable_values(op, request.variables)?;
        let variables = client_checks(op, values)?;
        let selected = selection(paths.as_deref(), op.fields)
            .map_err(|e| Refusal::forbidden(format!("selection: {}", e.message)))?;
        let document = op.document(&selected);
        let out = graphql::Body {
            query: &document,
            variables: graphql::Variables::Named(&variables),
            operation_name: Some(op.name),
        };
        let body = serde_json::to_string(&out)
            .map_err(|_| Refusal::forbidden("The request cannot be written"))?;
        Ok(Forward {
            operation: op,
            body,
        })
    }

    /// Checks the document's one operation against the declaration of its root field, and
    /// that the declaration's method is allowed.
    fn operation_of(&self, request: &Request) -> Result<&'static Operation, Refusal> {
        let field = &request.root_field;
        let Some(op) = operations::of(self.endpoint).find(|op| op.field == field.name) else {
            return Err(Refusal::forbidden(format!(
                "{} is not an operation of this endpoint",
                field.name
            )));
        };
        if !self.allowed.iter().any(|a| a.method == op.method) {
            return Err(Refusal::forbidden(format!(
                "{} is not allowed by this proxy",
                op.method
            )));
        }
        if request.kind != op.kind {
            return Err(Refusal::forbidden(format!(
                "{} must be a {}",
                op.field,
                op.kind.keyword()
            )));
        }
        if request.name != op.name || request.operation_name.as_deref() != Some(op.name) {
            return Err(Refusal::forbidden(format!(
                "The operation and operationName must be {}",
                op.name
            )));
        }
        // Variable definitions: exactly the declared ones, with their declared types.
        let declared = |name: &str, ty: &str| op.args.iter().any(|a| a.name == name && a.ty == ty);
        if request.variable_types.len() != op.args.len()
            || !request
                .variable_types
                .iter()
                .all(|(name, ty)| declared(name, ty))
            || !op
                .args
                .iter()
                .all(|a| request.variable_types.iter().any(|(n, _)| n == a.name))
        {
            return Err(Refusal::forbidden(format!(
                "The variables of {} must be declared as the client declares them",
                op.name
            )));
        }
        // Arguments: each declared one, as `name: $name`, once.
        if field.arguments.len() != op.args.len()
            || !op.args.iter().all(|a| {
                field
                    .arguments
                    .iter()
                    .filter(|(n, v)| n == a.name && v == a.name)
                    .count()
                    == 1
            })
        {
            return Err(Refusal::forbidden(format!(
                "The arguments of {} must be its variables, as the client passes them",
                op.field
            )));
        }
        Ok(op)
    }
}

/// The parts of a request body the checks read.
struct Request {
    kind: Kind,
    name: String,
    operation_name: Option<String>,
    /// `(variable name, type as written)`.
    variable_types: Vec<(String, String)>,
    root_field: RootField,
    /// The root field's selection, as names only.
    root_selection: Vec<Node>,
    variables: Map<String, JsonValue>,
}

/// The one root field: its name and its arguments as `(argument, variable)` pairs.
struct RootField {
    name: String,
    arguments: Vec<(String, String)>,
}

/// A selected field (names only: aliases, arguments and directives are refused on the way).
#[derive(Debug)]
struct Node {
    name: String,
    children: Vec<Node>,
}

impl Request {
    /// Reads `{ query, variables?, operationName }`; any other member, or a member of the
    /// wrong type, is refused.
    fn read(mut members: Map<String, JsonValue>) -> Result<Request, Refusal> {
        if let Some(other) = members
            .keys()
            .find(|k| !matches!(k.as_str(), "query" | "variables" | "operationName"))
        {
            return Err(Refusal::forbidden(format!(
                "The body has a member the client never sends: {}",
                short(other)
            )));
        }
        let Some(JsonValue::String(query)) = members.remove("query") else {
            return Err(Refusal::forbidden("The body's query must be a string"));
        };
        let operation_name = match members.remove("operationName") {
            None | Some(JsonValue::Null) => None,
            Some(JsonValue::String(s)) => Some(s),
            Some(_) => return Err(Refusal::forbidden("operationName must be a string")),
        };
        let variables = match members.remove("variables") {
            None | Some(JsonValue::Null) => Map::new(),
            Some(JsonValue::Object(v)) => v,
            Some(_) => return Err(Refusal::forbidden("variables must be an object")),
        };
        // The parser recurses once per level of nesting: the bounds come first.
        if query.len() > MAX_QUERY_LEN {
            return Err(Refusal::forbidden(format!(
                "The query is longer than {MAX_QUERY_LEN} bytes (the limit)"
            )));
        }
        limits::check("query", &query).map_err(|e| Refusal::forbidden(e.message.clone()))?;
        let document = async_graphql_parser::parse_query(&query)
            .map_err(|_| Refusal::forbidden("The query is not a GraphQL document"))?;
        Request::from_document(document, operation_name, variables)
    }

    fn from_document(
        document: ExecutableDocument,
        operation_name: Option<String>,
        variables: Map<String, JsonValue>,
    ) -> Result<Request, Refusal> {
        if !document.fragments.is_empty() {
            return Err(Refusal::forbidden("Fragments are not allowed"));
        }
        let (name, operation) = match document.operations {
            DocumentOperations::Multiple(ops) if ops.len() == 1 => {
                ops.into_iter().next().expect("one operation")
            }
            DocumentOperations::Multiple(_) => {
                return Err(Refusal::forbidden("The document must hold one operation"))
            }
            DocumentOperations::Single(_) => {
                return Err(Refusal::forbidden("The operation must be named"))
            }
        };
        let operation = operation.node;
        if !operation.directives.is_empty() {
            return Err(Refusal::forbidden("Directives are not allowed"));
        }
        let kind = match operation.ty {
            OperationType::Query => Kind::Query,
            OperationType::Mutation => Kind::Mutation,
            OperationType::Subscription => {
                return Err(Refusal::forbidden("Subscriptions are not allowed"))
            }
        };
        let mut variable_types = Vec::with_capacity(operation.variable_definitions.len());
        for def in operation.variable_definitions {
            let def = def.node;
            if !def.directives.is_empty() || def.default_value.is_some() {
                return Err(Refusal::forbidden(
                    "Variable defaults and directives are not allowed",
                ));
            }
            variable_types.push((def.name.node.to_string(), def.var_type.node.to_string()));
        }
        let mut root = operation.selection_set.node.items;
        if root.len() != 1 {
            return Err(Refusal::forbidden(
                "The operation must select one root field",
            ));
        }
        let field = match root.pop().map(|s| s.node) {
            Some(Selection::Field(field)) => field.node,
            _ => return Err(Refusal::forbidden("Fragments are not allowed")),
        };
        if field.alias.is_some() {
            return Err(Refusal::forbidden("Aliases are not allowed"));
        }
        if !field.directives.is_empty() {
            return Err(Refusal::forbidden("Directives are not allowed"));
        }
        let mut arguments = Vec::with_capacity(field.arguments.len());
        for (name, value) in field.arguments {
            match value.node {
                async_graphql_value::Value::Variable(v) => {
                    arguments.push((name.node.to_string(), v.to_string()))
                }
                _ => return Err(Refusal::forbidden("Arguments must be passed as variables")),
            }
        }
        Ok(Request {
            kind,
            name: name.to_string(),
            operation_name,
            variable_types,
            root_field: RootField {
                name: field.name.node.to_string(),
                arguments,
            },
            root_selection: nodes(&field.selection_set.node)?,
            variables,
        })
    }
}

/// A selection set as names; an alias, argument, directive, fragment or introspection field
/// is refused.
fn nodes(set: &SelectionSet) -> Result<Vec<Node>, Refusal> {
    set.items.iter().map(node).collect()
}

fn node(item: &Positioned<Selection>) -> Result<Node, Refusal> {
    let Selection::Field(field) = &item.node else {
        return Err(Refusal::forbidden("Fragments are not allowed"));
    };
    let field = &field.node;
    if field.alias.is_some() {
        return Err(Refusal::forbidden("Aliases are not allowed"));
    }
    if !field.directives.is_empty() {
        return Err(Refusal::forbidden("Directives are not allowed"));
    }
    if !field.arguments.is_empty() {
        return Err(Refusal::forbidden("Only the root field takes arguments"));
    }
    if field.name.node.starts_with("__") {
        return Err(Refusal::forbidden("Introspection is not allowed"));
    }
    Ok(Node {
        name: field.name.node.to_string(),
        children: nodes(&field.selection_set.node)?,
    })
}

/// The fields the package knows for `op`'s result: its default selection (and, for a page,
/// the fixed pagination next to it), as names. Read from the very document the client
/// builds by default, so it cannot drift from it.
fn known(op: &Operation) -> Vec<Node> {
    let document = op.document(op.fields);
    let parsed = async_graphql_parser::parse_query(&document).ok();
    let root = parsed.and_then(|d| {
        let op = d.operations.iter().next()?.1.node.clone();
        let Some(Selection::Field(f)) = op
            .selection_set
            .node
            .items
            .into_iter()
            .next()
            .map(|s| s.node)
        else {
            return None;
        };
        nodes(&f.node.selection_set.node).ok()
    });
    // A declaration's own document always parses (the native tests check each one).
    root.unwrap_or_default()
}

/// Whether every field of `asked` is one of `known` (its sub-fields likewise).
fn within(asked: &[Node], known: &[Node]) -> Result<(), Refusal> {
    for a in asked {
        let Some(k) = known.iter().find(|k| k.name == a.name) else {
            return Err(Refusal::forbidden(format!(
                "The field {} is not one the client selects",
                short(&a.name)
            )));
        };
        if !a.children.is_empty() {
            if k.children.is_empty() {
                return Err(Refusal::forbidden(format!(
                    "The field {} has no sub-fields",
                    a.name
                )));
            }
            within(&a.children, &k.children)?;
        }
    }
    Ok(())
}

/// The caller's selection as the client's `fields` paths (`totp.enabled`), after checking it
/// lies within the known fields; `None` for an operation without a selection (a `Boolean`
/// mutation: `within` refused any). For a page, the paths are those under its `data`.
fn paths_of(op: &Operation, asked: &[Node]) -> Result<Option<Vec<String>>, Refusal> {
    within(asked, &known(op))?;
    if op.fields.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let under = match op.fields_under {
        Some(sub) => match asked.iter().find(|n| n.name == sub) {
            Some(n) => &n.children[..],
            None => &[][..],
        },
        None => asked,
    };
    collect(under, "", &mut out);
    Ok(Some(out))
}

fn collect(nodes: &[Node], prefix: &str, out: &mut Vec<String>) {
    for n in nodes {
        let path = if prefix.is_empty() {
            n.name.clone()
        } else {
            format!("{prefix}.{}", n.name)
        };
        if n.children.is_empty() {
            out.push(path);
        } else {
            collect(&n.children, &path, out);
        }
    }
}

/// The JSON variables as the client's argument values, by the names callers know them (a
/// missing one is [`Value::Null`]); a variable that is not declared, or of another JSON type than the
/// client sends, is refused. The values' own checks are [`Operation::variables`]'.
fn variable_values(
    op: &Operation,
    mut variables: Map<String, JsonValue>,
) -> Result<Arguments, Refusal> {
    if let Some(extra) = variables
        .keys()
        .find(|k| !op.args.iter().any(|a| a.name == k.as_str()))
    {
        return Err(Refusal::forbidden(format!(
            "The variable {} is not an argument of {}",
            short(extra),
            op.field
        )));
    }
    let mut out = Vec::with_capacity(op.args.len());
    for arg in op.args {
        let wrong = || Refusal::forbidden(format!("The variable {} has the wrong type", arg.name));
        let value = match (arg.check, variables.remove(arg.name)) {
            (_, None | Some(JsonValue::Null)) => Value::Null,
            (Check::Page | Check::PerPage, Some(JsonValue::Number(n))) => {
                Value::Int(n.as_i64().ok_or_else(wrong)?)
            }
            (Check::Filter, Some(JsonValue::Object(f))) => {
                Value::Filter(filter(f).ok_or_else(wrong)?)
            }
            (Check::OptJsonObject, Some(object @ JsonValue::Object(_))) => {
                Value::Json(crate::json::from_value(&object).ok_or_else(wrong)?)
            }
            (Check::FieldInputs, Some(JsonValue::Array(items))) => {
                Value::FieldInputs(field_inputs(items).ok_or_else(wrong)?)
            }
            (Check::OptOnchainTransferInfo, Some(JsonValue::Object(members))) => {
                Value::OnchainTransferInfo(onchain_transfer_info(members).ok_or_else(wrong)?)
            }
            (
                Check::Page
                | Check::PerPage
                | Check::Filter
                | Check::OptJsonObject
                | Check::FieldInputs
                | Check::OptOnchainTransferInfo,
                Some(_),
            ) => return Err(wrong()),
            (_, Some(JsonValue::String(s))) => Value::Str(s),
            (_, Some(_)) => return Err(wrong()),
        };
        out.push((arg.caller, value));
    }
    Ok(out)
}

/// `initiateRampQuoteDeposit`'s `onchainTransferInfo` from JSON: exactly the three string
/// members `address`, `cryptocurrency` and `network`; `None` otherwise.
fn onchain_transfer_info(
    mut members: Map<String, JsonValue>,
) -> Option<crate::types::OnchainTransferInfo> {
    let mut take = |key: &str| match members.remove(key) {
        Some(JsonValue::String(s)) => Some(s),
        _ => None,
    };
    let info = crate::types::OnchainTransferInfo {
        address: take("address")?,
        cryptocurrency: take("cryptocurrency")?,
        network: take("network")?,
    };
    members.is_empty().then_some(info)
}

/// The client's own checks of `op`'s argument values, as its methods apply them before
/// sending: first the length bounds its JavaScript binding applies while reading each string
/// ([`inputs::text_len`], with the binding's bounds), then the core's checks of every value
/// ([`Operation::variables`]: formats, ranges, enum values, the operation's rules). A value
/// the client would refuse is a 403 naming the argument. (The one place the proxy calls
/// the client's checks.)
fn client_checks(op: &Operation, values: Arguments) -> Result<operations::Variables, Refusal> {
    let refuse = |e: Error| Refusal::forbidden(format!("variables: {}", e.message));
    for (caller, value) in &values {
        client_lengths(caller, value).map_err(refuse)?;
    }
    op.variables(values).map_err(refuse)
}

/// The length bounds the npm binding applies while reading an argument's value (src/js
/// options): a string argument (and each `{ identifier, value }` member) at most
/// `MAX_TEXT_LEN`, a filter member `MAX_FILTER_LEN`, a JSON object's text
/// `MAX_VARIABLES_LEN`.
fn client_lengths(caller: &str, value: &Value) -> Result<(), Error> {
    let len = |s: &str| s.encode_utf16().count();
    match value {
        Value::Str(s) => inputs::text_len(caller, len(s), inputs::MAX_TEXT_LEN),
        Value::Filter(f) => {
            for (name, member) in [
                ("filter.orderId", &f.order_id),
                ("filter.status", &f.status),
                ("filter.dateFrom", &f.date_from),
                ("filter.dateTo", &f.date_to),
                ("filter.paymentMethod", &f.payment_method),
            ] {
                if let Some(s) = member {
                    inputs::text_len(name, len(s), inputs::MAX_FILTER_LEN)?;
                }
            }
            Ok(())
        }
        Value::FieldInputs(pairs) => {
            if pairs.len() > inputs::MAX_FIELD_INPUTS {
                return Err(inputs::too_many(caller, inputs::MAX_FIELD_INPUTS as u32));
            }
            for p in pairs {
                inputs::text_len(caller, len(&p.identifier), inputs::MAX_TEXT_LEN)?;
                inputs::text_len(caller, len(&p.value), inputs::MAX_TEXT_LEN)?;
            }
            Ok(())
        }
        Value::Json(j) => {
            let text = crate::json::JsonValue::to_text(j).unwrap_or_default();
            inputs::text_len(caller, len(&text), inputs::MAX_VARIABLES_LEN)
        }
        Value::OnchainTransferInfo(info) => {
            for member in [&info.address, &info.cryptocurrency, &info.network] {
                inputs::text_len(caller, len(member), inputs::MAX_TEXT_LEN)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `addPaymentMethod`'s `fields` from JSON: objects with exactly the two string members
/// `identifier` and `value`; `None` otherwise.
fn field_inputs(items: Vec<JsonValue>) -> Option<Vec<crate::types::PaymentMethodFieldInput>> {
    items
        .into_iter()
        .map(|item| {
            let JsonValue::Object(mut members) = item else {
                return None;
            };
            let mut take = |key: &str| match members.remove(key) {
                Some(JsonValue::String(s)) => Some(s),
                _ => None,
            };
            let pair = crate::types::PaymentMethodFieldInput {
                identifier: take("identifier")?,
                value: take("value")?,
            };
            members.is_empty().then_some(pair)
        })
        .collect()
}

/// An `OrderHistoryFilter` from JSON: only its members, each a string (dates as the client
/// sends them, `YYYY-MM-DD`); `None` otherwise.
fn filter(members: Map<String, JsonValue>) -> Option<OrderHistoryFilter> {
    let mut f = OrderHistoryFilter::default();
    for (key, value) in members {
        let JsonValue::String(s) = value else {
            return None;
        };
        let slot = match key.as_str() {
            "orderId" => &mut f.order_id,
            "status" => &mut f.status,
            "dateFrom" => &mut f.date_from,
            "dateTo" => &mut f.date_to,
            "paymentMethod" => &mut f.payment_method,
            _ => return None,
        };
        *slot = Some(s);
    }
    Some(f)
}

/// The deepest nesting of JSON arrays and objects in `body`, by one flat pass (brackets in
/// strings skipped); it stops as soon as it passes [`MAX_BODY_DEPTH`].
fn json_depth(body: &str) -> usize {
    let b = body.as_bytes();
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    while i < b.len() && deepest <= MAX_BODY_DEPTH {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    deepest
}

/// A caller's name in a message: at most 40 characters (a refusal never echoes a long
/// text back).
fn short(name: &str) -> String {
    let mut s: String = name.chars().take(40).collect();
    if s.len() < name.len() {
        s.push('…');
    }
    s
}

/// The service's response body as the proxy returns it, redacted as the clients redact what
/// they report ([`redact`]: the whole key, and every run of 8 or more characters of its secret
/// part): every string and member name of a JSON body, or the whole text of another. The one
/// exception is a JSON object's `data`, the answer itself, which the clients hand over as it
/// is: in it only the whole key and the whole secret part are redacted (a run of 8 characters
/// of a low-entropy key, such as the sandbox's `…merchantdemo…`, may be real data there).
pub fn redact_response(body: &str, key: &str) -> String {
    match serde_json::from_str::<JsonValue>(body) {
        Ok(JsonValue::Object(members)) => JsonValue::Object(
            members
                .into_iter()
                .map(|(name, value)| {
                    let value = if name == "data" {
                        map_strings(value, &|s| redact_whole(s, key))
                    } else {
                        map_strings(value, &|s| redact(s, key).into_owned())
                    };
                    (redact(&name, key).into_owned(), value)
                })
                .collect(),
        )
        .to_string(),
        Ok(other) => map_strings(other, &|s| redact(s, key).into_owned()).to_string(),
        Err(_) => redact(body, key).into_owned(),
    }
}

/// `text` with every occurrence of the whole key and of its whole secret part redacted.
fn redact_whole(text: &str, key: &str) -> String {
    let mut out = text.to_owned();
    for secret in [key, crate::redact::secret_part(key)] {
        if !secret.is_empty() && out.contains(secret) {
            out = out.replace(secret, crate::redact::REDACTED);
        }
    }
    out
}

/// `value` with `f` applied to every string and member name in it.
fn map_strings(value: JsonValue, f: &dyn Fn(&str) -> String) -> JsonValue {
    match value {
        JsonValue::String(s) => JsonValue::String(f(&s)),
        JsonValue::Array(items) => {
            JsonValue::Array(items.into_iter().map(|v| map_strings(v, f)).collect())
        }
        JsonValue::Object(members) => JsonValue::Object(
            members
                .into_iter()
                .map(|(k, v)| (f(&k), map_strings(v, f)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
