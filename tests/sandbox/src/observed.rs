//! The observed schema (`docs/service.graphql`: what the service's sources show, and nothing
//! more) as a check on a document, for a core serving without the sandbox's own fields and
//! enum values ([`crate::service::ServiceOptions::extras`] off).
//!
//! The sandbox's schema contains the observed one (the client crate's conformance tests check
//! that), so a document that passes here is then validated and executed by the sandbox's own
//! engine as usual. What this adds is the refusal a real server gives a document leaving the
//! contract: a field, argument or type the sources never show, or an enum value they never
//! show (in the document or in a variable), in the engine's own wording and error codes.

use std::collections::{HashMap, HashSet};

use async_graphql::parser::types::{
    BaseType, DocumentOperations, ExecutableDocument, Selection, SelectionSet, Type,
    TypeDefinition, TypeKind, TypeSystemDefinition,
};
use async_graphql::{ErrorExtensionValues, Name, Pos, ServerError, Value, Variables};

use crate::service::Endpoint;

/// The observed schema file, split by endpoint at its marker lines.
const SERVICE_GRAPHQL: &str = include_str!("../../../docs/service.graphql");
const BOT_MARKER: &str = "\n# === bot endpoint ===\n";
const MERCHANT_MARKER: &str = "\n# === merchant endpoint ===\n";
/// Deepest nesting of selections, fragments and input values looked at.
const MAX_DEPTH: usize = 64;

/// One field of an object type: its type and its arguments' types.
#[derive(Debug)]
struct Field {
    ty: Type,
    args: HashMap<String, Type>,
}

/// A named type, as far as the check needs it.
#[derive(Debug)]
enum Def {
    Object(HashMap<String, Field>),
    Enum(HashSet<String>),
    Input(HashMap<String, Type>),
    Scalar,
}

/// One endpoint's observed schema.
#[derive(Debug)]
struct Schema {
    types: HashMap<String, Def>,
}

/// Both endpoints' observed schemas.
#[derive(Debug)]
pub struct Observed {
    bot: Schema,
    merchant: Schema,
}

impl Observed {
    /// Reads `docs/service.graphql` (compiled in). It parses (the client crate's tests read
    /// the same file); a part that did not would check nothing, not refuse everything.
    pub fn load() -> Observed {
        let merchant_at = SERVICE_GRAPHQL
            .find(MERCHANT_MARKER)
            .unwrap_or(SERVICE_GRAPHQL.len());
        let bot_at = SERVICE_GRAPHQL.find(BOT_MARKER).unwrap_or(0);
        Observed {
            bot: Schema::parse(&SERVICE_GRAPHQL[bot_at..merchant_at]),
            merchant: Schema::parse(&SERVICE_GRAPHQL[merchant_at..]),
        }
    }

    /// The errors of a document leaving the observed schema of `endpoint`, or `None` when it
    /// keeps to it (or does not parse, or names no operation: the engine answers those).
    pub fn check(
        &self,
        endpoint: Endpoint,
        query: &str,
        operation_name: Option<&str>,
        variables: &Variables,
    ) -> Option<Vec<ServerError>> {
        let schema = match endpoint {
            Endpoint::Bot => &self.bot,
            Endpoint::Merchant => &self.merchant,
        };
        let doc = async_graphql::parser::parse_query(query).ok()?;
        let op = match (&doc.operations, operation_name) {
            (DocumentOperations::Single(op), _) => op,
            (DocumentOperations::Multiple(ops), Some(name)) => {
                ops.iter().find(|(n, _)| n.as_str() == name)?.1
            }
            (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => ops.values().next()?,
            (DocumentOperations::Multiple(_), None) => return None,
        };
        let root = match op.node.ty {
            async_graphql::parser::types::OperationType::Query => "Query",
            async_graphql::parser::types::OperationType::Mutation => "Mutation",
            async_graphql::parser::types::OperationType::Subscription => "Subscription",
        };
        let mut errors = Vec::new();
        if !schema.types.contains_key(root) {
            errors.push(error(
                format!(
                    "Schema is not configured for {}.",
                    match root {
                        "Query" => "queries",
                        "Mutation" => "mutations",
                        _ => "subscriptions",
                    }
                ),
                op.pos,
                None,
            ));
        }
        for var in &op.node.variable_definitions {
            let name = var.node.name.node.as_str();
            let ty = &var.node.var_type.node;
            let base = named(ty);
            if !schema.known(base) {
                errors.push(error(format!("Unknown type \"{base}\"."), var.pos, None));
                continue;
            }
            if let Some(value) = variables.get(&Name::new(name)) {
                schema.value(value, ty, name, var.pos, 0, &mut errors);
            }
        }
        let mut seen_fragments = HashSet::new();
        schema.selection(
            &doc,
            root,
            &op.node.selection_set.node,
            0,
            &mut seen_fragments,
            &mut errors,
        );
        (!errors.is_empty()).then_some(errors)
    }
}

/// The name of a type without its list and non-null wrappers.
fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::Named(n) => n.as_str(),
        BaseType::List(inner) => named(inner),
    }
}

/// An engine-style error at `pos`, with `code` when given (else the core adds one).
fn error(message: String, pos: Pos, code: Option<&str>) -> ServerError {
    let mut e = ServerError::new(message, Some(pos));
    if let Some(code) = code {
        let mut ext = ErrorExtensionValues::default();
        ext.set("code", code);
        e.extensions = Some(ext);
    }
    e
}

impl Schema {
    fn parse(sdl: &str) -> Schema {
        let mut types = HashMap::new();
        if let Ok(doc) = async_graphql::parser::parse_schema(sdl) {
            for def in doc.definitions {
                if let TypeSystemDefinition::Type(t) = def {
                    let TypeDefinition { name, kind, .. } = t.node;
                    let def = match kind {
                        TypeKind::Object(o) => Def::Object(
                            o.fields
                                .into_iter()
                                .map(|f| {
                                    let f = f.node;
                                    let args = f
                                        .arguments
                                        .into_iter()
                                        .map(|a| (a.node.name.node.to_string(), a.node.ty.node))
                                        .collect();
                                    (
                                        f.name.node.to_string(),
                                        Field {
                                            ty: f.ty.node,
                                            args,
                                        },
                                    )
                                })
                                .collect(),
                        ),
                        TypeKind::Enum(e) => Def::Enum(
                            e.values
                                .into_iter()
                                .map(|v| v.node.value.node.to_string())
                                .collect(),
                        ),
                        TypeKind::InputObject(i) => Def::Input(
                            i.fields
                                .into_iter()
                                .map(|f| (f.node.name.node.to_string(), f.node.ty.node))
                                .collect(),
                        ),
                        _ => Def::Scalar,
                    };
                    types.insert(name.node.to_string(), def);
                }
            }
        }
        Schema { types }
    }

    /// A type the schema has, or a built-in scalar.
    fn known(&self, name: &str) -> bool {
        matches!(name, "Int" | "Float" | "String" | "Boolean" | "ID")
            || self.types.contains_key(name)
    }

    fn selection(
        &self,
        doc: &ExecutableDocument,
        type_name: &str,
        set: &SelectionSet,
        depth: usize,
        seen_fragments: &mut HashSet<String>,
        errors: &mut Vec<ServerError>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(Def::Object(fields)) = self.types.get(type_name) else {
            return;
        };
        for item in &set.items {
            match &item.node {
                Selection::Field(f) => {
                    let name = f.node.name.node.as_str();
                    if name.starts_with("__") {
                        continue;
                    }
                    let Some(field) = fields.get(name) else {
                        errors.push(error(
                            format!("Unknown field \"{name}\" on type \"{type_name}\"."),
                            f.pos,
                            None,
                        ));
                        continue;
                    };
                    for (arg, value) in &f.node.arguments {
                        let arg_name = arg.node.as_str();
                        match field.args.get(arg_name) {
                            None => errors.push(error(
                                format!(
                                    "Unknown argument \"{arg_name}\" on field \"{name}\" of type \"{type_name}\"."
                                ),
                                arg.pos,
                                None,
                            )),
                            Some(ty) => {
                                if let Ok(v) = value.node.clone().into_const_with(|_| {
                                    Err::<Value, ()>(())
                                }) {
                                    self.literal(&v, ty, arg_name, value.pos, 0, errors);
                                }
                            }
                        }
                    }
                    self.selection(
                        doc,
                        named(&field.ty),
                        &f.node.selection_set.node,
                        depth + 1,
                        seen_fragments,
                        errors,
                    );
                }
                Selection::InlineFragment(i) => {
                    let on = match &i.node.type_condition {
                        Some(c) => c.node.on.node.as_str(),
                        None => type_name,
                    };
                    if !self.types.contains_key(on) {
                        errors.push(error(format!("Unknown type \"{on}\"."), i.pos, None));
                        continue;
                    }
                    self.selection(
                        doc,
                        on,
                        &i.node.selection_set.node,
                        depth + 1,
                        seen_fragments,
                        errors,
                    );
                }
                Selection::FragmentSpread(s) => {
                    let name = s.node.fragment_name.node.to_string();
                    if !seen_fragments.insert(name.clone()) {
                        continue;
                    }
                    let Some(frag) = doc.fragments.get(&s.node.fragment_name.node) else {
                        continue;
                    };
                    let on = frag.node.type_condition.node.on.node.as_str();
                    if !self.types.contains_key(on) {
                        errors.push(error(format!("Unknown type \"{on}\"."), frag.pos, None));
                        continue;
                    }
                    self.selection(
                        doc,
                        on,
                        &frag.node.selection_set.node,
                        depth + 1,
                        seen_fragments,
                        errors,
                    );
                }
            }
        }
    }

    /// An argument's literal value in the document: its enum values and input fields.
    fn literal(
        &self,
        value: &Value,
        ty: &Type,
        at: &str,
        pos: Pos,
        depth: usize,
        errors: &mut Vec<ServerError>,
    ) {
        self.walk(value, ty, at, depth, &mut |message| {
            errors.push(error(
                format!("Invalid value for argument \"{at}\", {message}"),
                pos,
                None,
            ))
        });
    }

    /// A variable's value: its enum values and input fields.
    fn value(
        &self,
        value: &Value,
        ty: &Type,
        name: &str,
        pos: Pos,
        depth: usize,
        errors: &mut Vec<ServerError>,
    ) {
        self.walk(value, ty, name, depth, &mut |message| {
            errors.push(error(
                format!("Invalid value for variable \"${name}\", {message}"),
                pos,
                Some("BAD_USER_INPUT"),
            ))
        });
    }

    /// Reports (`report`) every enum value and input field in `value` that `ty` does not
    /// have here; other mismatches (a string for an `Int`, a missing required field) are the
    /// engine's to report.
    fn walk(
        &self,
        value: &Value,
        ty: &Type,
        at: &str,
        depth: usize,
        report: &mut dyn FnMut(String),
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        match (&ty.base, value) {
            (_, Value::Null) => {}
            (BaseType::List(inner), Value::List(items)) => {
                for item in items {
                    self.walk(item, inner, at, depth + 1, report);
                }
            }
            (BaseType::List(inner), single) => self.walk(single, inner, at, depth + 1, report),
            (BaseType::Named(name), value) => match (self.types.get(name.as_str()), value) {
                (Some(Def::Enum(values)), Value::Enum(v)) if !values.contains(v.as_str()) => {
                    report(format!(
                        "enumeration type \"{name}\" does not contain the value \"{v}\""
                    ))
                }
                (Some(Def::Enum(values)), Value::String(v)) if !values.contains(v.as_str()) => {
                    report(format!(
                        "enumeration type \"{name}\" does not contain the value \"{v}\""
                    ))
                }
                (Some(Def::Input(fields)), Value::Object(obj)) => {
                    for (key, v) in obj {
                        match fields.get(key.as_str()) {
                            None => report(format!("unknown field \"{key}\" of type \"{name}\"")),
                            Some(fty) => {
                                self.walk(v, fty, &format!("{at}.{key}"), depth + 1, report)
                            }
                        }
                    }
                }
                _ => {}
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(json: &str) -> Variables {
        Variables::from_json(serde_json::from_str(json).unwrap())
    }

    fn messages(r: Option<Vec<ServerError>>) -> Vec<String> {
        r.unwrap_or_default()
            .into_iter()
            .map(|e| e.message)
            .collect()
    }

    #[test]
    fn both_endpoints_parse() {
        let o = Observed::load();
        assert!(o.bot.types.contains_key("Query") && o.bot.types.contains_key("Mutation"));
        assert!(o.merchant.types.contains_key("Query"));
        assert!(o.merchant.types.contains_key("Mutation"));
        assert!(o.bot.types.len() > 5 && o.merchant.types.len() > 10);
    }

    #[test]
    fn an_observed_document_passes() {
        let o = Observed::load();
        let q = "query($p: Int!) { profile { __typename } orderHistory(page: $p) { __typename } }";
        assert!(o
            .check(Endpoint::Bot, q, None, &vars(r#"{"p": 1}"#))
            .is_none());
    }

    #[test]
    fn unknown_fields_arguments_types_and_enum_values_are_refused() {
        let o = Observed::load();
        let m = messages(o.check(Endpoint::Bot, "{ profile { totp } }", None, &vars("{}")));
        assert_eq!(m, ["Unknown field \"totp\" on type \"AgentProfile\"."]);
        let m = messages(o.check(Endpoint::Bot, "{ nope }", None, &vars("{}")));
        assert_eq!(m, ["Unknown field \"nope\" on type \"Query\"."]);
        let q =
            "query($f: OrderHistoryFilter) { orderHistory(page: 1, filter: $f) { __typename } }";
        let m = messages(o.check(
            Endpoint::Bot,
            q,
            None,
            &vars(r#"{"f": {"status": "canceled"}}"#),
        ));
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(m[0].contains("\"canceled\""), "{m:?}");
        let q = "{ orderHistory(page: 1, filter: {status: canceled}) { __typename } }";
        let m = messages(o.check(Endpoint::Bot, q, None, &vars("{}")));
        assert_eq!(m.len(), 1, "{m:?}");
        let q = "query($x: Nope) { profile { __typename } }";
        assert_eq!(
            messages(o.check(Endpoint::Bot, q, None, &vars("{}"))),
            ["Unknown type \"Nope\"."]
        );
        // Fragments are followed, once.
        let q = "query { profile { ...A } } fragment A on AgentProfile { totp ...A }";
        assert_eq!(
            messages(o.check(Endpoint::Bot, q, None, &vars("{}"))).len(),
            1
        );
    }
}
