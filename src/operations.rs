//! One declaration per built-in operation: the single source of every document, selection
//! check, request body and shape check, and of the native conformance test that checks them
//! all against the service's observed schema (`docs/service.graphql`, the contract).
//!
//! An [`Operation`] says which endpoint serves it, whether it is a query or a mutation (only
//! queries are ever retried), its root field and arguments (GraphQL name and type, the name
//! callers see in errors, and how the value is checked), its default selection, where a
//! caller's `fields` go, and its GraphQL return type, from which the expected shape of
//! `data.<field>` follows ([`Operation::expect`]).
//!
//! ```
//! use settlement_wasm::operations::{self, Value};
//! let op = &operations::MARKET_RATE;
//! assert_eq!(
//!     op.document(op.fields),
//!     "query MarketRate($countryCode: String!) { marketRate(countryCode: $countryCode) { \
//! depositRate withdrawalRate } }"
//! );
//! let vars = op.variables([("countryCode", Value::Str("ng".into()))]).unwrap();
//! assert_eq!(vars[0], ("countryCode", Value::Str("NG".into())));
//! ```

use serde::Serialize;

use crate::error::Error;
use crate::graphql::Expect;
use crate::inputs;
use crate::types::OrderHistoryFilter;

/// The endpoint that serves an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `{baseUrl}/service/bot/graphql` ([`crate::BotClient`]).
    Bot,
    /// `{baseUrl}/service/api/graphql` ([`crate::MerchantClient`]).
    Merchant,
}

/// Query or mutation. A mutation is never retried automatically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Read-only: retried on retryable failures.
    Query,
    /// Changes state: sent once, never retried.
    Mutation,
}

impl Kind {
    /// The document keyword, `query` or `mutation`.
    pub fn keyword(self) -> &'static str {
        match self {
            Kind::Query => "query",
            Kind::Mutation => "mutation",
        }
    }
}

/// How an argument's value is checked and normalised before it becomes a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// A coin symbol: trimmed, not empty ([`inputs::symbol`]).
    Symbol,
    /// A `Country.id`: trimmed, not empty ([`inputs::country_id`]).
    CountryId,
    /// ISO 3166-1 alpha-2, sent upper-case ([`inputs::country_code`]).
    CountryCode,
    /// Not blank, sent exactly as given ([`inputs::reference`]).
    Reference,
    /// A page number from 1 ([`inputs::page`]).
    Page,
    /// Rows per page, optional ([`inputs::per_page`]).
    PerPage,
    /// An `OrderHistoryFilter`, optional; omitted when empty ([`inputs::filter`]).
    Filter,
    /// An id (`ID!`): trimmed, not empty ([`inputs::id`]).
    Id,
    /// An optional id or type name: trimmed, not empty when given ([`inputs::id`]).
    OptId,
    /// A `Decimal!`: decimal text `parseAmount` accepts, not negative ([`inputs::decimal`]).
    Decimal,
    /// An optional `Decimal` ([`inputs::decimal`]).
    OptDecimal,
    /// An optional text: not blank when given, sent exactly as given ([`inputs::non_empty`]):
    /// a receipt ("a receipt URL or reference"), a reference.
    OptText,
    /// An onchain transaction hash: `0x` + 64 hex, 64 hex, or 43 to 88 base58 characters
    /// ([`inputs::transaction_hash`]).
    TransactionHash,
    /// An email address, by shape ([`inputs::email`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    Email,
    /// A person's name: trimmed, not empty ([`inputs::id`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    Name,
    /// `deposit` or `withdrawal` ([`inputs::payment_type`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    PaymentType,
    /// An optional `P2PPaymentCurrency`: `usd` or `local_currency`, sent exactly as given
    /// ([`inputs::currency`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptCurrency,
    /// An optional absolute `http(s):` URL ([`inputs::http_url`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptHttpUrl,
    /// An optional JSON object (`metadata`), sent as it is.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptJsonObject,
    /// A `P2PPaymentCurrency`, required: `usd` or `local_currency`, sent exactly as given
    /// ([`inputs::currency`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    Currency,
    /// An optional `deposit` or `withdrawal` ([`inputs::payment_type`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptPaymentType,
    /// An optional ISO 3166-1 alpha-2 code, sent upper-case ([`inputs::country_code`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptCountryCode,
    /// An optional phone number: an optional `+`, then 7 to 15 digits, spaces or hyphens
    /// between them; sent trimmed ([`inputs::phone_number`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptPhoneNumber,
    /// An optional `P2PPaymentMethodOwnership`: `first_party` or `third_party`
    /// ([`inputs::ownership`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptOwnership,
    /// The values of a payment method type's fields: a list of `{ identifier, value }`, 1 to
    /// [`inputs::MAX_FIELD_INPUTS`], each part not blank ([`inputs::field_inputs`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    FieldInputs,
    /// An optional `OnchainTransferInfo` input object: `{ address, cryptocurrency, network }`,
    /// each not blank, sent exactly as given ([`inputs::onchain_transfer_info`]).
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OptOnchainTransferInfo,
}

/// A rule over several arguments, checked after each argument's own [`Check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// None.
    None,
    /// At least one argument must be given; the refusal names this field, with this message.
    AtLeastOne(&'static str, &'static str),
    /// Exactly one of these two arguments (by caller name) must be given; the refusal names
    /// the first, with this message.
    ExactlyOne(&'static str, &'static str, &'static str),
}

/// One argument of a root field.
#[derive(Clone, Copy, Debug)]
pub struct Arg {
    /// The GraphQL argument name, also the variable's name.
    pub name: &'static str,
    /// The GraphQL type, exactly as the schema declares it (e.g. `"String!"`).
    pub ty: &'static str,
    /// The name callers see (`invalid_input` errors name it), e.g. `countryId`.
    pub caller: &'static str,
    /// How the value is checked.
    pub check: Check,
}

/// One built-in operation.
#[derive(Clone, Copy, Debug)]
pub struct Operation {
    /// The `operationName`, e.g. `"MarketRate"`.
    pub name: &'static str,
    /// Which endpoint serves it.
    pub endpoint: Endpoint,
    /// Query or mutation.
    pub kind: Kind,
    /// The field that takes the arguments, e.g. `"marketRate"`: the root field, or the field
    /// under [`Operation::parent`].
    pub field: &'static str,
    /// The root field `field` sits under, when it is not itself a root field (`account` for
    /// `account { merchantCustomers(after: $after) { … } }`).
    pub parent: Option<&'static str>,
    /// The arguments, in the order values are passed.
    pub args: &'static [Arg],
    /// The default selection of the caller-selectable part.
    pub fields: &'static str,
    /// Where the caller's `fields` go: directly under the root field (`None`) or under this
    /// sub-field (`orderHistory`'s `data`).
    pub fields_under: Option<&'static str>,
    /// Always selected next to `fields_under` (`orderHistory`'s pagination).
    pub fixed: &'static str,
    /// The root field's GraphQL type, exactly as the schema declares it.
    pub returns: &'static str,
    /// The client method that runs it, as JavaScript callers see it (`orderHistory`): the
    /// name the npm shell passes to the binding's `prepare`, and the method's name in the
    /// README's tables.
    pub method: &'static str,
    /// The result's TypeScript type, as the `.d.ts` declares the method's promise
    /// (`Country[]`, `MarketRate | null`); the Rust method returns the same struct (in a
    /// `Vec` or an `Option` likewise). The npm shell's method signatures are generated from
    /// it (`pkg-template/src/operations.ts`, `MethodSignatures`), and `tsc` holds each
    /// method to its signature.
    pub result: &'static str,
    /// A rule over several arguments ([`Rule::None`] for most).
    pub rule: Rule,
    /// Needs the merchant's secret key: declared only where a secret key may be used, the
    /// Rust API and the npm package's server build (feature `server`), never in its browser
    /// build (see [`ALL`]).
    pub secret_key: bool,
}

/// A value of an argument: what callers pass, and (after [`Operation::variables`]) what is
/// sent. One representation for every operation, so one serializer serves every body: a
/// JSON `null`, string, number or the filter object.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// Not given (only for optional arguments).
    Null,
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// An order-history filter.
    Filter(OrderHistoryFilter),
    /// A JSON object (`metadata`), sent as it is: on wasm32 the caller's very object.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    #[cfg_attr(
        target_arch = "wasm32",
        serde(serialize_with = "crate::graphql::body::preserve_json")
    )]
    Json(crate::json::Json),
    /// The values of a payment method type's fields (`addPaymentMethod`): a copy, so what is
    /// checked is what is sent.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    FieldInputs(Vec<crate::types::PaymentMethodFieldInput>),
    /// Where an onchain deposit's crypto goes (`initiateRampQuoteDeposit`): a copy, so what
    /// is checked is what is sent.
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    OnchainTransferInfo(crate::types::OnchainTransferInfo),
}

/// Checked variables, by GraphQL name; unset optional arguments are left out.
pub type Variables = Vec<(&'static str, Value)>;

/// Argument values by the names callers know them ([`Arg::caller`], e.g. `firstName`): what
/// [`Operation::variables`] takes. An argument left out is unset ([`Value::Null`]).
pub type Arguments = Vec<(&'static str, Value)>;

impl Operation {
    /// Whether it may be retried (queries only).
    pub fn retryable(&self) -> bool {
        self.kind == Kind::Query
    }

    /// What `data.<field>` must look like, from the GraphQL return type: a page when the
    /// caller's fields go under a sub-field, a list for `[…]`, `true` or `false` for a
    /// `Boolean` (a leaf: no selection), an object for `T!`, an object or `null` for `T`. A
    /// mutation's field is nullable only so that a refusal nulls it (next to its error): a
    /// `null` without an error is no answer, so a mutation's object is required.
    pub fn expect(&self) -> Expect {
        #[cfg(any(feature = "server", not(feature = "npm-base")))]
        if let Some(parent) = self.parent {
            return Expect::Connection(parent, self.field);
        }
        if self.fields_under.is_some() {
            Expect::Page(self.field)
        } else if self.returns.starts_with('[') {
            Expect::List(self.field)
        } else if self.fields.is_empty() {
            Expect::Boolean(self.field)
        } else if self.returns.ends_with('!') || self.kind == Kind::Mutation {
            Expect::Object(self.field)
        } else {
            Expect::ObjectOrNull(self.field)
        }
    }

    /// The TypeScript type of the npm method's options parameter, by the shell's convention: a
    /// `Boolean` mutation of one argument takes `RequestOptions` (only `signal`); a merchant
    /// read or mutation whose argument (if any) is its first parameter takes
    /// `MerchantCallOptions` (`fields`, `signal`); every other method its own,
    /// `<Method>Options` (`OrderHistoryOptions`: `OrderHistoryArgs`'s derived declaration).
    /// The generated signatures use it (`pkg-template/src/operations.ts`).
    pub fn typescript_options(&self) -> String {
        let first_parameter = self.args.len() <= 1 && self.parent.is_none();
        if self.fields.is_empty() && self.args.len() == 1 {
            "RequestOptions".into()
        } else if self.endpoint == Endpoint::Merchant && first_parameter {
            "MerchantCallOptions".into()
        } else {
            let mut name = self.method[..1].to_ascii_uppercase();
            name.push_str(&self.method[1..]);
            name.push_str("Options");
            name
        }
    }

    /// The argument a caller knows as `caller`.
    pub fn arg(&self, caller: &str) -> Option<&'static Arg> {
        self.args.iter().find(|a| a.caller == caller)
    }

    /// The document with `selection` (already built from validated names) in its place:
    /// `query Op($a: T) { field(a: $a) { <selection> } }`, or for `orderHistory`
    /// `… { data { <selection> } pagination { page perPage total } } }`.
    pub fn document(&self, selection: &str) -> String {
        let mut s = String::with_capacity(96 + selection.len());
        s.push_str(self.kind.keyword());
        s.push(' ');
        s.push_str(self.name);
        for (i, a) in self.args.iter().enumerate() {
            s.push_str(if i == 0 { "($" } else { ", $" });
            s.push_str(a.name);
            s.push_str(": ");
            s.push_str(a.ty);
        }
        if !self.args.is_empty() {
            s.push(')');
        }
        s.push_str(" { ");
        if let Some(parent) = self.parent {
            s.push_str(parent);
            s.push_str(" { ");
        }
        s.push_str(self.field);
        for (i, a) in self.args.iter().enumerate() {
            s.push_str(if i == 0 { "(" } else { ", " });
            s.push_str(a.name);
            s.push_str(": $");
            s.push_str(a.name);
        }
        if !self.args.is_empty() {
            s.push(')');
        }
        if selection.is_empty() {
            // A leaf (`Boolean`): no selection set.
            s.push_str(" }");
            return s;
        }
        s.push_str(" { ");
        if let Some(under) = self.fields_under {
            s.push_str(under);
            s.push_str(" { ");
            s.push_str(selection);
            s.push_str(" } ");
            s.push_str(self.fixed);
        } else {
            s.push_str(selection);
        }
        s.push_str(if self.parent.is_some() {
            " } } }"
        } else {
            " } }"
        });
        s
    }

    /// Checks `values`, each under the name callers know its argument by ([`Arg::caller`]:
    /// `firstName`, `fieldValues`; an argument left out or [`Value::Null`] is unset), and
    /// returns the variables to send. A name that is not an argument, or given twice, is
    /// refused naming it; a bad value is `invalid_input` naming the argument.
    ///
    /// Every caller passes its values by name — the Rust methods, the npm binding's option
    /// reader and the server proxy — so no value can land in another argument's place.
    pub fn variables<'a>(
        &self,
        values: impl IntoIterator<Item = (&'a str, Value)>,
    ) -> Result<Variables, Error> {
        // Each argument's value, in the order of `self.args`; `None` until it is given.
        let mut by_arg: Vec<Option<Value>> = self.args.iter().map(|_| None).collect();
        for (name, value) in values {
            let slot = self
                .args
                .iter()
                .zip(by_arg.iter_mut())
                .find_map(|(arg, slot)| (arg.caller == name).then_some(slot));
            let Some(slot) = slot else {
                let m = [name, " is not an argument of ", self.field].concat();
                return Err(Error::invalid(name, m));
            };
            if slot.replace(value).is_some() {
                let m = [name, " is given twice"].concat();
                return Err(Error::invalid(name, m));
            }
        }
        let mut out = Vec::with_capacity(by_arg.len());
        for (arg, value) in self.args.iter().zip(by_arg) {
            if let Some(v) = check(arg, value.unwrap_or(Value::Null))? {
                out.push((arg.name, v));
            }
        }
        match self.rule {
            Rule::None => {}
            Rule::AtLeastOne(field, message) if out.is_empty() => {
                return Err(Error::invalid(field, message));
            }
            Rule::AtLeastOne(..) => {}
            Rule::ExactlyOne(a, b, message) => {
                let given = |caller: &str| {
                    self.arg(caller)
                        .is_some_and(|arg| out.iter().any(|(n, _)| *n == arg.name))
                };
                if given(a) == given(b) {
                    return Err(Error::invalid(a, message));
                }
            }
        }
        Ok(out)
    }
}

fn wrong_type(arg: &Arg) -> Error {
    let mut m = String::from(arg.caller);
    m.push_str(" is missing or of the wrong type");
    Error::invalid(arg.caller, m)
}

fn check(arg: &Arg, value: Value) -> Result<Option<Value>, Error> {
    let v = match (arg.check, value) {
        (Check::Symbol, Value::Str(s)) => Value::Str(inputs::symbol(&s)?.to_owned()),
        (Check::CountryId, Value::Str(s)) => Value::Str(inputs::country_id(&s)?.to_owned()),
        (Check::CountryCode, Value::Str(s)) => Value::Str(inputs::country_code(&s)?),
        (Check::Reference, Value::Str(s)) => {
            inputs::reference(&s)?;
            Value::Str(s)
        }
        (Check::Page, Value::Int(n)) => Value::Int(inputs::page(n)?),
        (Check::PerPage, Value::Int(n)) => Value::Int(inputs::per_page(n)?),
        (Check::Id | Check::OptId, Value::Str(s)) => {
            Value::Str(inputs::id(arg.caller, &s)?.to_owned())
        }
        (Check::Decimal | Check::OptDecimal, Value::Str(s)) => {
            inputs::decimal(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::OptText, Value::Str(s)) => {
            inputs::non_empty(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::TransactionHash, Value::Str(s)) => {
            inputs::transaction_hash(arg.caller, &s)?;
            Value::Str(s)
        }
        (
            Check::PerPage | Check::Filter | Check::OptId | Check::OptDecimal | Check::OptText,
            Value::Null,
        ) => return Ok(None),
        (Check::Filter, Value::Filter(f)) => {
            inputs::filter(&f)?;
            if f.is_empty() {
                return Ok(None);
            }
            Value::Filter(f)
        }
        #[cfg(any(feature = "server", not(feature = "npm-base")))]
        (check, value) => return secret_key_check(arg, check, value),
        #[cfg(not(any(feature = "server", not(feature = "npm-base"))))]
        _ => return Err(wrong_type(arg)),
    };
    Ok(Some(v))
}

/// The checks only the secret-key operations use (declared where they are: see [`ALL`]).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
fn secret_key_check(arg: &Arg, check: Check, value: Value) -> Result<Option<Value>, Error> {
    let v = match (check, value) {
        (Check::Email, Value::Str(s)) => {
            inputs::email(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::Name, Value::Str(s)) => Value::Str(inputs::id(arg.caller, &s)?.to_owned()),
        (Check::PaymentType, Value::Str(s)) => {
            inputs::payment_type(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::OptCurrency | Check::Currency, Value::Str(s)) => {
            inputs::currency(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::OptHttpUrl, Value::Str(s)) => {
            inputs::http_url(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::OptJsonObject, Value::Json(v)) if crate::json::JsonValue::is_object(&v) => {
            Value::Json(v)
        }
        (Check::OptPaymentType, Value::Str(s)) => {
            inputs::payment_type(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::OptCountryCode, Value::Str(s)) => {
            Value::Str(inputs::country_code_of(arg.caller, &s)?)
        }
        (Check::OptPhoneNumber, Value::Str(s)) => {
            Value::Str(inputs::phone_number(arg.caller, &s)?.to_owned())
        }
        (Check::OptOwnership, Value::Str(s)) => {
            inputs::ownership(arg.caller, &s)?;
            Value::Str(s)
        }
        (Check::FieldInputs, Value::FieldInputs(list)) => {
            Value::FieldInputs(inputs::field_inputs(arg.caller, list)?)
        }
        (Check::OptOnchainTransferInfo, Value::OnchainTransferInfo(info)) => {
            inputs::onchain_transfer_info(arg.caller, &info)?;
            Value::OnchainTransferInfo(info)
        }
        (
            Check::OptCurrency
            | Check::OptHttpUrl
            | Check::OptJsonObject
            | Check::OptPaymentType
            | Check::OptCountryCode
            | Check::OptPhoneNumber
            | Check::OptOwnership
            | Check::OptOnchainTransferInfo,
            Value::Null,
        ) => return Ok(None),
        _ => return Err(wrong_type(arg)),
    };
    Ok(Some(v))
}

const fn arg(name: &'static str, ty: &'static str, caller: &'static str, check: Check) -> Arg {
    Arg {
        name,
        ty,
        caller,
        check,
    }
}

/// What most declarations share: a bot query with no arguments, its caller's `fields` directly
/// under the root field, no rule. Each declaration below names what differs.
const BASE: Operation = Operation {
    name: "",
    endpoint: Endpoint::Bot,
    kind: Kind::Query,
    field: "",
    parent: None,
    args: &[],
    fields: "",
    fields_under: None,
    fixed: "",
    returns: "",
    method: "",
    result: "",
    rule: Rule::None,
    secret_key: false,
};

/// Default `AgentProfile` selection: every observed field except `apiKey`.
pub const PROFILE_FIELDS: &str = "id email accountBalance escrowBalance bonusEarnings \
depositAddress verificationStatus autoUpdateDepositRate autoUpdateWithdrawalRate creditLine \
usedCreditLine depositMargin withdrawalMargin averageDepositRate averageWithdrawalRate \
depositsCompleted withdrawalsCompleted totalDepositFiatAmount totalDepositUsdAmount \
totalWithdrawalFiatAmount totalWithdrawalUsdAmount enforceReceiptUpload";

/// Default `P2PPayment` selection: the 16 fields the service's sources show (both official
/// SDKs select exactly these; `docs/service.graphql`). Amounts, currency and payment method
/// are not among them: a caller whose service has such fields names them in `fields`.
pub const PAYMENT_FIELDS: &str = "id status paymentType exchangeRate exchangeRateMinusSurcharge \
orderId source instant createdAt expiresAt expiresAtSecs reassigning reassignAfter \
reassignAfterSecs agentCutOfFees fxSpreadRevenue";

/// Default `WithdrawalInfo` selection: the official SDKs' (`name` and `icon`, which only the
/// documentation's prose shows, are asked for with `fields`).
pub const WITHDRAWAL_FIELDS: &str = "symbol networks addressRegex memoRegex";

/// Default `P2PPaymentMethod` selection: the fields of the service contract.
pub const PAYMENT_METHOD_FIELDS: &str =
    "id value displayValue localCurrencyAvailable deleted ownership designation instant";

/// `profile: AgentProfile!` (bot).
pub const PROFILE: Operation = Operation {
    name: "Profile",
    field: "profile",
    returns: "AgentProfile!",
    fields: PROFILE_FIELDS,
    method: "profile",
    result: "AgentProfile",
    ..BASE
};

/// `orderHistory(page: Int!, perPage: Int, filter: OrderHistoryFilter): PaginatedP2PPayments!`
/// (bot); the caller's `fields` select `P2PPayment` fields under `data`.
pub const ORDER_HISTORY: Operation = Operation {
    name: "OrderHistory",
    field: "orderHistory",
    args: &[
        arg("page", "Int!", "page", Check::Page),
        arg("perPage", "Int", "perPage", Check::PerPage),
        arg("filter", "OrderHistoryFilter", "filter", Check::Filter),
    ],
    returns: "PaginatedP2PPayments!",
    fields: PAYMENT_FIELDS,
    fields_under: Some("data"),
    fixed: "pagination { page perPage total }",
    method: "orderHistory",
    result: "OrderHistoryPage",
    ..BASE
};

/// `withdrawalInfo(symbol: String!): WithdrawalInfo` (bot).
pub const WITHDRAWAL_INFO: Operation = Operation {
    name: "WithdrawalInfo",
    field: "withdrawalInfo",
    args: &[arg("symbol", "String!", "symbol", Check::Symbol)],
    returns: "WithdrawalInfo",
    fields: WITHDRAWAL_FIELDS,
    method: "withdrawalInfo",
    result: "WithdrawalInfo | null",
    ..BASE
};

/// `account: Account!` (merchant; needs the secret key).
pub const ACCOUNT: Operation = Operation {
    name: "Account",
    endpoint: Endpoint::Merchant,
    field: "account",
    returns: "Account!",
    fields: "id accountBalance depositAddress",
    method: "account",
    result: "Account",
    ..BASE
};

/// `availableCountries: [Country!]!` (merchant).
pub const AVAILABLE_COUNTRIES: Operation = Operation {
    name: "AvailableCountries",
    endpoint: Endpoint::Merchant,
    field: "availableCountries",
    returns: "[Country!]!",
    fields: "id name code currency { isoCode name }",
    method: "availableCountries",
    result: "Country[]",
    ..BASE
};

/// `p2pPaymentMethodTypes(country: ID!): [PaymentMethodType!]!` (merchant); callers pass
/// `countryId`.
pub const PAYMENT_METHOD_TYPES: Operation = Operation {
    name: "PaymentMethodTypes",
    endpoint: Endpoint::Merchant,
    field: "p2pPaymentMethodTypes",
    args: &[arg("country", "ID!", "countryId", Check::CountryId)],
    returns: "[PaymentMethodType!]!",
    fields: "id identifier label fields { label identifier required }",
    method: "paymentMethodTypes",
    result: "PaymentMethodType[]",
    ..BASE
};

/// `marketRate(countryCode: String!): MarketRate` (merchant; indicative rates).
pub const MARKET_RATE: Operation = Operation {
    name: "MarketRate",
    endpoint: Endpoint::Merchant,
    field: "marketRate",
    args: &[arg(
        "countryCode",
        "String!",
        "countryCode",
        Check::CountryCode,
    )],
    returns: "MarketRate",
    fields: "depositRate withdrawalRate",
    method: "marketRate",
    result: "MarketRate | null",
    ..BASE
};

/// `rampLimits: RampLimits!` (merchant).
pub const RAMP_LIMITS: Operation = Operation {
    name: "RampLimits",
    endpoint: Endpoint::Merchant,
    field: "rampLimits",
    returns: "RampLimits!",
    fields: "minimumDepositUsd maximumDepositUsd minimumWithdrawalUsd maximumWithdrawalUsd \
dailyLimitUsd",
    method: "rampLimits",
    result: "RampLimits",
    ..BASE
};

/// `rampableAssets: [RampableAsset!]!` (merchant).
pub const RAMPABLE_ASSETS: Operation = Operation {
    name: "RampableAssets",
    endpoint: Endpoint::Merchant,
    field: "rampableAssets",
    returns: "[RampableAsset!]!",
    fields: "name symbol networks contractAddress",
    method: "rampableAssets",
    result: "RampableAsset[]",
    ..BASE
};

/// `merchantPaymentRequest(reference: String!): MerchantPaymentRequest` (merchant).
pub const MERCHANT_PAYMENT_REQUEST: Operation = Operation {
    name: "MerchantPaymentRequest",
    endpoint: Endpoint::Merchant,
    field: "merchantPaymentRequest",
    args: &[arg("reference", "String!", "reference", Check::Reference)],
    returns: "MerchantPaymentRequest",
    fields: "id paymentType hostedLink amount currency reference status",
    method: "paymentRequest",
    result: "PaymentRequest | null",
    ..BASE
};

/// The one argument of the order mutations: the order's `id` (not its `orderId`).
const P2P_PAYMENT: &[Arg] = &[arg("p2pPayment", "ID!", "p2pPayment", Check::Id)];

/// What the `Boolean` mutations share: sent once, no selection.
const BOT_MUTATION: Operation = Operation {
    kind: Kind::Mutation,
    returns: "Boolean",
    result: "boolean",
    ..BASE
};

/// `acceptWithdrawal(p2pPayment: ID!): Boolean` (bot mutation): pending → picked_up.
pub const ACCEPT_WITHDRAWAL: Operation = Operation {
    name: "AcceptWithdrawal",
    field: "acceptWithdrawal",
    args: P2P_PAYMENT,
    method: "acceptWithdrawal",
    ..BOT_MUTATION
};

/// `cancelWithdrawal(p2pPayment: ID!): Boolean` (bot mutation).
pub const CANCEL_WITHDRAWAL: Operation = Operation {
    name: "CancelWithdrawal",
    field: "cancelWithdrawal",
    args: P2P_PAYMENT,
    method: "cancelWithdrawal",
    ..BOT_MUTATION
};

/// `markDepositAsReceived(p2pPayment: ID!): Boolean` (bot mutation).
pub const MARK_DEPOSIT_AS_RECEIVED: Operation = Operation {
    name: "MarkDepositAsReceived",
    field: "markDepositAsReceived",
    args: P2P_PAYMENT,
    method: "markDepositAsReceived",
    ..BOT_MUTATION
};

/// `markWithdrawalAsPaid(p2pPayment: ID!, paymentMethod: ID!, receipt: String): Boolean`
/// (bot mutation); `receipt` is "a receipt URL or reference": any text, not blank.
pub const MARK_WITHDRAWAL_AS_PAID: Operation = Operation {
    name: "MarkWithdrawalAsPaid",
    field: "markWithdrawalAsPaid",
    args: &[
        arg("p2pPayment", "ID!", "p2pPayment", Check::Id),
        arg("paymentMethod", "ID!", "paymentMethod", Check::Id),
        arg("receipt", "String", "receipt", Check::OptText),
    ],
    method: "markWithdrawalAsPaid",
    ..BOT_MUTATION
};

/// `updateRates(depositRate: Decimal, depositMargin: Decimal, withdrawalRate: Decimal,
/// withdrawalMargin: Decimal): Boolean` (bot mutation); at least one.
pub const UPDATE_RATES: Operation = Operation {
    name: "UpdateRates",
    field: "updateRates",
    args: &[
        arg("depositRate", "Decimal", "depositRate", Check::OptDecimal),
        arg("depositMargin", "Decimal", "depositMargin", Check::OptDecimal),
        arg("withdrawalRate", "Decimal", "withdrawalRate", Check::OptDecimal),
        arg("withdrawalMargin", "Decimal", "withdrawalMargin", Check::OptDecimal),
    ],
    method: "updateRates",
    rule: Rule::AtLeastOne(
        "rates",
        "rates must have at least one of depositRate, depositMargin, withdrawalRate, withdrawalMargin",
    ),
    ..BOT_MUTATION
};

/// `updatePaymentMethodLiquidity(paymentMethod: ID, paymentMethodType: String, amountLocal:
/// Decimal!): P2PPaymentMethod` (bot mutation); exactly one of the first two.
pub const UPDATE_PAYMENT_METHOD_LIQUIDITY: Operation = Operation {
    name: "UpdatePaymentMethodLiquidity",
    field: "updatePaymentMethodLiquidity",
    args: &[
        arg("paymentMethod", "ID", "paymentMethod", Check::OptId),
        arg(
            "paymentMethodType",
            "String",
            "paymentMethodType",
            Check::OptId,
        ),
        arg("amountLocal", "Decimal!", "amountLocal", Check::Decimal),
    ],
    returns: "P2PPaymentMethod",
    fields: PAYMENT_METHOD_FIELDS,
    method: "updatePaymentMethodLiquidity",
    result: "P2PPaymentMethod",
    rule: Rule::ExactlyOne(
        "paymentMethod",
        "paymentMethodType",
        "paymentMethod: give exactly one of paymentMethod and paymentMethodType",
    ),
    ..BOT_MUTATION
};

/// `confirmTransaction(paymentRequest: ID!, transactionHash: String!): Boolean` (merchant
/// mutation, public key *(observed)*): tells the service that the crypto a
/// `crypto.requested` event asked for was sent. `true` once the payment request is settled,
/// `false` while the service has not seen or not confirmed the transfer yet.
pub const CONFIRM_TRANSACTION: Operation = Operation {
    name: "ConfirmTransaction",
    endpoint: Endpoint::Merchant,
    field: "confirmTransaction",
    args: &[
        arg("paymentRequest", "ID!", "paymentRequest", Check::Id),
        arg(
            "transactionHash",
            "String!",
            "transactionHash",
            Check::TransactionHash,
        ),
    ],
    method: "confirmTransaction",
    ..BOT_MUTATION
};

/// `initiateHostedPayment(amount: Decimal!, currency: P2PPaymentCurrency, countryCode:
/// String!, email: String!, paymentType: P2PPaymentTypeType!, reference: String!, firstName:
/// String!, lastName: String!, redirectUrl: String, metadata: JSON): MerchantPaymentRequest`
/// (merchant mutation, secret key *(observed)*): a hosted payment page for a customer.
/// `reference` is the caller's idempotency key: after `outcome_unknown`, read the payment
/// back by it ([`MERCHANT_PAYMENT_REQUEST`]) instead of creating a second one.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const INITIATE_HOSTED_PAYMENT: Operation = Operation {
    name: "InitiateHostedPayment",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "initiateHostedPayment",
    args: &[
        arg("amount", "Decimal!", "amount", Check::Decimal),
        arg(
            "currency",
            "P2PPaymentCurrency",
            "currency",
            Check::OptCurrency,
        ),
        arg("countryCode", "String!", "countryCode", Check::CountryCode),
        arg("email", "String!", "email", Check::Email),
        arg(
            "paymentType",
            "P2PPaymentTypeType!",
            "paymentType",
            Check::PaymentType,
        ),
        arg("reference", "String!", "reference", Check::Reference),
        arg("firstName", "String!", "firstName", Check::Name),
        arg("lastName", "String!", "lastName", Check::Name),
        arg("redirectUrl", "String", "redirectUrl", Check::OptHttpUrl),
        arg("metadata", "JSON", "metadata", Check::OptJsonObject),
    ],
    returns: "MerchantPaymentRequest",
    fields: "id hostedLink status",
    method: "initiateHostedPayment",
    result: "PaymentRequest",
    secret_key: true,
    ..BASE
};

/// `cancelHostedPayment(paymentRequest: ID!): Boolean` (merchant mutation, secret key
/// *(observed)*): created → canceled (only while `created`).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const CANCEL_HOSTED_PAYMENT: Operation = Operation {
    name: "CancelHostedPayment",
    endpoint: Endpoint::Merchant,
    field: "cancelHostedPayment",
    args: &[arg("paymentRequest", "ID!", "paymentRequest", Check::Id)],
    method: "cancelHostedPayment",
    secret_key: true,
    ..BOT_MUTATION
};

/// `withdrawOnchain(address: String!, amountUsd: Decimal!, network: String, metadata: JSON):
/// OnchainWithdrawal` (merchant mutation, secret key *(observed)*): sends USD stablecoins
/// from the merchant's balance to an onchain address.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const WITHDRAW_ONCHAIN: Operation = Operation {
    name: "WithdrawOnchain",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "withdrawOnchain",
    args: &[
        arg("address", "String!", "address", Check::Id),
        arg("amountUsd", "Decimal!", "amountUsd", Check::Decimal),
        arg("network", "String", "network", Check::OptId),
        arg("metadata", "JSON", "metadata", Check::OptJsonObject),
    ],
    returns: "OnchainWithdrawal",
    fields: "id status",
    method: "withdrawOnchain",
    result: "OnchainWithdrawal",
    secret_key: true,
    ..BASE
};

/// The default `RampQuote` selection of `rampQuote` *(observed)*.
pub const RAMP_QUOTE_FIELDS: &str = "id exchangeRate paymentType";

/// The default `QuotePaymentRequest` selection of the quote deposits and withdrawals
/// (`initiateRampQuoteDeposit`'s, *observed*).
pub const QUOTE_PAYMENT_FIELDS: &str =
    "id status agent paymentDetails exchangeRate amountLocal amountUsd expiresAt";

/// `rampQuote(customer: ID!, amount: Decimal!, currency: P2PPaymentCurrency!, paymentType:
/// PaymentTypeType, paymentMethodType: String!, country: String): RampQuote!` (merchant query,
/// secret key *(observed)*): the rate a customer gets for `amount` of `currency` (`usd` or
/// `local_currency`), valid 30 to 180 seconds. A read, so retried.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const RAMP_QUOTE: Operation = Operation {
    name: "RampQuote",
    endpoint: Endpoint::Merchant,
    field: "rampQuote",
    args: &[
        arg("customer", "ID!", "customer", Check::Id),
        arg("amount", "Decimal!", "amount", Check::Decimal),
        arg(
            "currency",
            "P2PPaymentCurrency!",
            "currency",
            Check::Currency,
        ),
        arg(
            "paymentType",
            "PaymentTypeType",
            "paymentType",
            Check::OptPaymentType,
        ),
        arg(
            "paymentMethodType",
            "String!",
            "paymentMethodType",
            Check::Id,
        ),
        arg("country", "String", "country", Check::OptCountryCode),
    ],
    returns: "RampQuote!",
    fields: RAMP_QUOTE_FIELDS,
    method: "rampQuote",
    result: "RampQuote",
    secret_key: true,
    ..BASE
};

/// `refreshRampQuote(rampQuote: ID!, amount: Decimal): RampQuote!` (merchant query, secret
/// key *(observed)*; the documentation prints it as a mutation, the SDKs send a query): the
/// same quote with a fresh rate (and `amount`, when given). No source shows an expiry on a
/// quote: it stays valid 30 to 180 seconds.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const REFRESH_RAMP_QUOTE: Operation = Operation {
    name: "RefreshRampQuote",
    endpoint: Endpoint::Merchant,
    field: "refreshRampQuote",
    args: &[
        arg("rampQuote", "ID!", "rampQuote", Check::Id),
        arg("amount", "Decimal", "amount", Check::OptDecimal),
    ],
    returns: "RampQuote!",
    fields: RAMP_QUOTE_FIELDS,
    method: "refreshRampQuote",
    result: "RampQuote",
    secret_key: true,
    ..BASE
};

/// `createCustomer(email: String!, firstName: String!, lastName: String!, country: ID!):
/// Customer` (merchant mutation, secret key *(observed)*): a customer of the direct ramp;
/// its `country` is an object (`{ id name code }`).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const CREATE_CUSTOMER: Operation = Operation {
    name: "CreateCustomer",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "createCustomer",
    args: &[
        arg("email", "String!", "email", Check::Email),
        arg("firstName", "String!", "firstName", Check::Name),
        arg("lastName", "String!", "lastName", Check::Name),
        // A `Country.id`, checked as every id is (the refusal names `country`).
        arg("country", "ID!", "country", Check::Id),
    ],
    returns: "Customer",
    fields: "id email firstName lastName country { id name code }",
    method: "createCustomer",
    result: "Customer",
    secret_key: true,
    ..BASE
};

/// `addPaymentMethod(customer: ID!, paymentMethodType: String!, fields:
/// [P2PPaymentMethodFieldInput!]!, ownership: P2PPaymentMethodOwnership):
/// CustomerPaymentMethod` (merchant mutation, secret key *(observed)*; `ownership` is
/// `first_party` or `third_party`): a customer's bank account or mobile-money wallet, to
/// withdraw to. Callers pass `fields` as `fieldValues` (`fields` selects the result's).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const ADD_PAYMENT_METHOD: Operation = Operation {
    name: "AddPaymentMethod",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "addPaymentMethod",
    args: &[
        arg("customer", "ID!", "customer", Check::Id),
        arg(
            "paymentMethodType",
            "String!",
            "paymentMethodType",
            Check::Id,
        ),
        arg(
            "fields",
            "[P2PPaymentMethodFieldInput!]!",
            "fieldValues",
            Check::FieldInputs,
        ),
        arg(
            "ownership",
            "P2PPaymentMethodOwnership",
            "ownership",
            Check::OptOwnership,
        ),
    ],
    returns: "CustomerPaymentMethod",
    fields: "id value fields { identifier value }",
    method: "addPaymentMethod",
    result: "CustomerPaymentMethod",
    secret_key: true,
    ..BASE
};

/// `initiateRampQuoteDeposit(rampQuote: ID!, reference: String, phoneNumber: String,
/// bankAccountNumber: String, onchainTransferInfo: OnchainTransferInfo): QuotePaymentRequest`
/// (merchant mutation, secret key *(observed)*): a deposit at a quote's rate, `pending`; the
/// customer pays an agent (see `paymentDetails`), then [`MARK_DEPOSIT_AS_PAID`].
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const INITIATE_RAMP_QUOTE_DEPOSIT: Operation = Operation {
    name: "InitiateRampQuoteDeposit",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "initiateRampQuoteDeposit",
    args: &[
        arg("rampQuote", "ID!", "rampQuote", Check::Id),
        arg("reference", "String", "reference", Check::OptText),
        arg(
            "phoneNumber",
            "String",
            "phoneNumber",
            Check::OptPhoneNumber,
        ),
        arg(
            "bankAccountNumber",
            "String",
            "bankAccountNumber",
            Check::OptId,
        ),
        arg(
            "onchainTransferInfo",
            "OnchainTransferInfo",
            "onchainTransferInfo",
            Check::OptOnchainTransferInfo,
        ),
    ],
    returns: "QuotePaymentRequest",
    fields: QUOTE_PAYMENT_FIELDS,
    method: "initiateRampQuoteDeposit",
    result: "QuotePaymentRequest",
    secret_key: true,
    ..BASE
};

/// `initiateRampQuoteWithdrawal(rampQuote: ID!, paymentMethod: ID!, reference: String):
/// QuotePaymentRequest` (merchant mutation, secret key *(observed)*): a withdrawal at a
/// quote's rate to one of the customer's payment methods, starting `picked_up`; an agent pays
/// it, then [`MARK_WITHDRAWAL_AS_RECEIVED`].
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const INITIATE_RAMP_QUOTE_WITHDRAWAL: Operation = Operation {
    name: "InitiateRampQuoteWithdrawal",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "initiateRampQuoteWithdrawal",
    args: &[
        arg("rampQuote", "ID!", "rampQuote", Check::Id),
        arg("paymentMethod", "ID!", "paymentMethod", Check::Id),
        arg("reference", "String", "reference", Check::OptText),
    ],
    returns: "QuotePaymentRequest",
    fields: QUOTE_PAYMENT_FIELDS,
    method: "initiateRampQuoteWithdrawal",
    result: "QuotePaymentRequest",
    secret_key: true,
    ..BASE
};

/// `markDepositAsPaid(paymentRequest: ID!, receipt: String): Boolean` (merchant mutation,
/// secret key *(observed)*): the customer paid the agent (pending → paid); `receipt`, when
/// given, is any text (a receipt URL or reference), not blank.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const MARK_DEPOSIT_AS_PAID: Operation = Operation {
    name: "MarkDepositAsPaid",
    endpoint: Endpoint::Merchant,
    field: "markDepositAsPaid",
    args: &[
        arg("paymentRequest", "ID!", "paymentRequest", Check::Id),
        arg("receipt", "String", "receipt", Check::OptText),
    ],
    method: "markDepositAsPaid",
    secret_key: true,
    ..BOT_MUTATION
};

/// `markWithdrawalAsReceived(paymentRequest: ID!): Boolean` (merchant mutation, secret key
/// *(observed)*): the customer received the agent's payment (picked_up → completed).
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const MARK_WITHDRAWAL_AS_RECEIVED: Operation = Operation {
    name: "MarkWithdrawalAsReceived",
    endpoint: Endpoint::Merchant,
    field: "markWithdrawalAsReceived",
    args: &[arg("paymentRequest", "ID!", "paymentRequest", Check::Id)],
    method: "markWithdrawalAsReceived",
    secret_key: true,
    ..BOT_MUTATION
};

/// `cancelDeposit(paymentRequest: ID!): Boolean` (merchant mutation, secret key
/// *(observed)*): a deposit not paid yet (`pending`) → canceled.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const CANCEL_DEPOSIT: Operation = Operation {
    name: "CancelDeposit",
    endpoint: Endpoint::Merchant,
    field: "cancelDeposit",
    args: &[arg("paymentRequest", "ID!", "paymentRequest", Check::Id)],
    method: "cancelDeposit",
    secret_key: true,
    ..BOT_MUTATION
};

/// The default `OnchainWithdrawal` selection of `onchainWithdrawal` *(observed)*.
pub const ONCHAIN_WITHDRAWAL_FIELDS: &str =
    "quantity symbol network address txhash txhashUrl fee status createdAt";

/// `onchainWithdrawal(id: ID!): OnchainWithdrawal` (merchant query, secret key *(observed)*):
/// a withdrawal made by [`WITHDRAW_ONCHAIN`], by its `id`, `pending` → `completed` or
/// `failed`: how a `withdrawOnchain` whose answer was lost (`outcome_unknown`) is read back.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const ONCHAIN_WITHDRAWAL: Operation = Operation {
    name: "OnchainWithdrawal",
    endpoint: Endpoint::Merchant,
    field: "onchainWithdrawal",
    args: &[arg("id", "ID!", "id", Check::Id)],
    returns: "OnchainWithdrawal",
    fields: ONCHAIN_WITHDRAWAL_FIELDS,
    method: "onchainWithdrawal",
    result: "OnchainWithdrawal | null",
    secret_key: true,
    ..BASE
};

/// The default `Customer` selection of `merchantCustomer` and `merchantCustomers`
/// *(observed)*.
pub const MERCHANT_CUSTOMER_FIELDS: &str = "id email firstName lastName";

/// `account { merchantCustomers(after: String): CustomerConnection }` (merchant
/// query, secret key *(observed)*): one page of the merchant's customers, a cursor
/// connection; the caller's `fields` select `Customer` fields under `nodes`. The next
/// page starts `after` the previous page's `pageInfo.endCursor`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const MERCHANT_CUSTOMERS: Operation = Operation {
    name: "MerchantCustomers",
    endpoint: Endpoint::Merchant,
    field: "merchantCustomers",
    parent: Some("account"),
    args: &[arg("after", "String", "after", Check::OptText)],
    returns: "CustomerConnection",
    fields: MERCHANT_CUSTOMER_FIELDS,
    fields_under: Some("nodes"),
    fixed: "pageInfo { endCursor hasNextPage }",
    method: "merchantCustomers",
    result: "MerchantCustomerPage",
    secret_key: true,
    ..BASE
};

/// `merchantCustomer(email: String!): Customer` (merchant query, secret key *(observed)*):
/// the merchant's customer with this email address, or `null`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const MERCHANT_CUSTOMER: Operation = Operation {
    name: "MerchantCustomer",
    endpoint: Endpoint::Merchant,
    field: "merchantCustomer",
    args: &[arg("email", "String!", "email", Check::Email)],
    returns: "Customer",
    fields: MERCHANT_CUSTOMER_FIELDS,
    method: "merchantCustomer",
    result: "MerchantCustomer | null",
    secret_key: true,
    ..BASE
};

/// `requestVirtualBankAccount(customer: ID!): VirtualBankAccount` (merchant mutation, secret
/// key *(observed)*): a USD virtual bank account for a customer. **It charges a fee that is
/// not refunded**: sent once, never retried; a lost answer is `outcome_unknown`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const REQUEST_VIRTUAL_BANK_ACCOUNT: Operation = Operation {
    name: "RequestVirtualBankAccount",
    endpoint: Endpoint::Merchant,
    kind: Kind::Mutation,
    field: "requestVirtualBankAccount",
    args: &[arg("customer", "ID!", "customer", Check::Id)],
    returns: "VirtualBankAccount",
    fields: "id status",
    method: "requestVirtualBankAccount",
    result: "VirtualBankAccount",
    secret_key: true,
    ..BASE
};

/// `virtualBankAccount(id: ID!): VirtualBankAccount` (merchant query, secret key
/// *(observed)*): a virtual bank account by its `id`, or `null`.
#[cfg(any(feature = "server", not(feature = "npm-base")))]
pub const VIRTUAL_BANK_ACCOUNT: Operation = Operation {
    name: "VirtualBankAccount",
    endpoint: Endpoint::Merchant,
    field: "virtualBankAccount",
    args: &[arg("id", "ID!", "id", Check::Id)],
    returns: "VirtualBankAccount",
    fields: "id accountName accountNumber bankName city country line1 postalCode state \
routingNumber status createdAt",
    method: "virtualBankAccount",
    result: "VirtualBankAccount | null",
    secret_key: true,
    ..BASE
};

/// Every built-in operation: the bot's, then the merchant's. The secret-key operations
/// ([`Operation::secret_key`]) are declared where a secret key may be used: in the Rust API
/// (no `npm` feature) and in the npm package's server build (feature `server`), never in its
/// browser build, whose size they would otherwise grow. Likewise a per-client browser build
/// (`npm-bot` or `npm-merchant` alone: the `settlement-wasm/bot` and `/merchant` entries)
/// declares only its own endpoint's operations. A new operation is added here
/// (and nowhere else in this file); the clients look operations up by method name
/// ([`by_method`]).
pub static ALL: &[&Operation] = &[
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &PROFILE,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &ORDER_HISTORY,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &WITHDRAWAL_INFO,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &ACCEPT_WITHDRAWAL,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &CANCEL_WITHDRAWAL,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &MARK_DEPOSIT_AS_RECEIVED,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &MARK_WITHDRAWAL_AS_PAID,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &UPDATE_RATES,
    #[cfg(any(feature = "npm-bot", not(feature = "npm-base")))]
    &UPDATE_PAYMENT_METHOD_LIQUIDITY,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &ACCOUNT,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &AVAILABLE_COUNTRIES,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &PAYMENT_METHOD_TYPES,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &MARKET_RATE,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &RAMP_LIMITS,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &RAMPABLE_ASSETS,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &MERCHANT_PAYMENT_REQUEST,
    #[cfg(any(feature = "npm-merchant", not(feature = "npm-base")))]
    &CONFIRM_TRANSACTION,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &INITIATE_HOSTED_PAYMENT,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &CANCEL_HOSTED_PAYMENT,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &WITHDRAW_ONCHAIN,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &RAMP_QUOTE,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &REFRESH_RAMP_QUOTE,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &CREATE_CUSTOMER,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &ADD_PAYMENT_METHOD,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &INITIATE_RAMP_QUOTE_DEPOSIT,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &INITIATE_RAMP_QUOTE_WITHDRAWAL,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &MARK_DEPOSIT_AS_PAID,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &MARK_WITHDRAWAL_AS_RECEIVED,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &CANCEL_DEPOSIT,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &ONCHAIN_WITHDRAWAL,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &MERCHANT_CUSTOMERS,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &MERCHANT_CUSTOMER,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &REQUEST_VIRTUAL_BANK_ACCOUNT,
    #[cfg(any(feature = "server", not(feature = "npm-base")))]
    &VIRTUAL_BANK_ACCOUNT,
];

/// The operation of `endpoint` whose client method is `method` (`"withdrawalInfo"`).
pub fn by_method(endpoint: Endpoint, method: &str) -> Option<&'static Operation> {
    ALL.iter()
        .copied()
        .find(|op| op.endpoint == endpoint && op.method == method)
}

/// The operations of one endpoint, in declaration order.
pub fn of(endpoint: Endpoint) -> impl Iterator<Item = &'static Operation> {
    ALL.iter()
        .copied()
        .filter(move |op| op.endpoint == endpoint)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
