//! wasm-bindgen-tests of the exported API (`cargo test --target wasm32-unknown-unknown
//! --features npm --lib`, run by scripts/test-wasm.sh): every declared operation is reachable
//! through `Core.prepare` by its method name, with arguments read by the declaration, and the
//! decision objects have their named members. No network: `fetch` is never called here.

use js_sys::{Function, Object, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::classes::Core;
use crate::operations::{Arg, Check, Endpoint, Operation, Rule, ALL};

fn set(o: &Object, key: &str, value: &JsValue) {
    Reflect::set(o, &JsValue::from_str(key), value).unwrap();
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap()
}

fn core(endpoint: &str) -> Core {
    let options = Object::new();
    set(
        &options,
        "endpoint",
        &"https://settlement.invalid/graphql".into(),
    );
    set(
        &options,
        "fetch",
        &Function::new_no_args("throw new Error('no network here')"),
    );
    Core::new(endpoint, options.into()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A valid JavaScript value for `arg`. Every [`Check`] has its arm, with no fallback: a new
/// check does not compile here until it has a value.
fn value(arg: &Arg) -> JsValue {
    match arg.check {
        Check::Symbol => "USDC".into(),
        Check::CountryId => "ng".into(),
        Check::Reference => "ref-1".into(),
        Check::Id | Check::OptId => "a1".into(),
        #[cfg(feature = "server")]
        Check::Name => "Ada".into(),
        Check::Page | Check::PerPage => JsValue::from(2),
        Check::Filter => Object::new().into(),
        Check::CountryCode => "NG".into(),
        Check::Decimal | Check::OptDecimal => "1.5".into(),
        Check::OptText => "RCPT-2024-0042".into(),
        Check::TransactionHash => format!("0x{}", "ab".repeat(32)).into(),
        #[cfg(feature = "server")]
        Check::Email => "ada@example.com".into(),
        #[cfg(feature = "server")]
        Check::PaymentType => "deposit".into(),
        #[cfg(feature = "server")]
        Check::OptCurrency => "usd".into(),
        #[cfg(feature = "server")]
        Check::OptHttpUrl => "https://shop.example/done".into(),
        #[cfg(feature = "server")]
        Check::OptJsonObject => Object::new().into(),
        #[cfg(feature = "server")]
        Check::Currency => "local_currency".into(),
        #[cfg(feature = "server")]
        Check::OptPaymentType => "withdrawal".into(),
        #[cfg(feature = "server")]
        Check::OptCountryCode => "NG".into(),
        #[cfg(feature = "server")]
        Check::OptPhoneNumber => "+254712345678".into(),
        #[cfg(feature = "server")]
        Check::OptOwnership => "first_party".into(),
        #[cfg(feature = "server")]
        Check::FieldInputs => {
            let pair = Object::new();
            set(&pair, "identifier", &"accountNumber".into());
            set(&pair, "value", &"0123456789".into());
            js_sys::Array::of1(&pair).into()
        }
        #[cfg(feature = "server")]
        Check::OptOnchainTransferInfo => {
            let info = Object::new();
            set(&info, "address", &format!("0x{}", "ab".repeat(20)).into());
            set(&info, "cryptocurrency", &"usd_tether".into());
            set(&info, "network", &"celo".into());
            info.into()
        }
    }
}

/// The method's parameters for `op`, as the TypeScript shell passes them.
fn parameters(op: &Operation) -> (JsValue, JsValue) {
    match op.args {
        [] => (JsValue::UNDEFINED, JsValue::UNDEFINED),
        // One argument is the first parameter, unless it belongs to a field under another
        // (`merchantCustomers({ after })`).
        [arg] if op.parent.is_none() => (value(arg), JsValue::UNDEFINED),
        args => {
            let options = Object::new();
            for arg in args {
                let skip =
                    matches!(op.rule, Rule::ExactlyOne(_, second, _) if arg.caller == second);
                if !skip {
                    set(&options, arg.caller, &value(arg));
                }
            }
            (JsValue::UNDEFINED, options.into())
        }
    }
}

#[wasm_bindgen_test]
fn every_operation_is_prepared_by_its_method_name() {
    let (bot, merchant) = (core("bot"), core("merchant"));
    for op in ALL {
        let client = match op.endpoint {
            Endpoint::Bot => &bot,
            Endpoint::Merchant => &merchant,
        };
        let (argument, options) = parameters(op);
        let call = client
            .prepare(op.method, argument, options)
            .unwrap_or_else(|e| panic!("{}: {:?}", op.method, e));
        let body = JSON::parse(&call.body().as_string().unwrap()).unwrap();
        assert_eq!(
            get(&body, "operationName").as_string().as_deref(),
            Some(op.name)
        );
        let variables = get(&body, "variables");
        for arg in op.args.iter().filter(|a| a.check != Check::Filter) {
            let sent = !get(&variables, arg.name).is_undefined();
            let skipped = matches!(op.rule, Rule::ExactlyOne(_, second, _) if arg.caller == second);
            assert_eq!(sent, !skipped, "{}: variable {}", op.method, arg.name);
        }
    }
}

#[wasm_bindgen_test]
fn a_method_of_the_other_endpoint_is_invalid_input_naming_method() {
    let e = core("bot")
        .prepare("marketRate", "NG".into(), JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert_eq!(
        get(&e, "code").as_string().as_deref(),
        Some("invalid_input")
    );
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("method"));
}

#[wasm_bindgen_test]
fn decisions_have_named_members() {
    let call = core("bot")
        .prepare("profile", JsValue::UNDEFINED, JsValue::UNDEFINED)
        .unwrap();
    let outcome = Object::new();
    set(&outcome, "kind", &"response".into());
    set(&outcome, "status", &JsValue::from(200));
    set(
        &outcome,
        "body",
        &r#"{"data":{"profile":{"id":"a"}}}"#.into(),
    );
    let done = call.decide(0, outcome.clone().into(), false).unwrap();
    assert_eq!(get(&done, "kind").as_string().as_deref(), Some("done"));
    assert_eq!(
        get(&get(&done, "value"), "id").as_string().as_deref(),
        Some("a")
    );
    let error = call.decide(0, outcome.into(), true).unwrap_err();
    assert_eq!(get(&error, "code").as_string().as_deref(), Some("aborted"));
    let timeout = Object::new();
    set(&timeout, "kind", &"timeout".into());
    let retry = call.decide(0, timeout.into(), false).unwrap();
    assert_eq!(get(&retry, "kind").as_string().as_deref(), Some("retry"));
    assert!(get(&retry, "delayMs").as_f64().is_some());
    let refused = call.start(true).unwrap_err();
    assert_eq!(
        get(&refused, "code").as_string().as_deref(),
        Some("aborted")
    );
    assert!(call.start(false).is_ok());
}

#[cfg(not(feature = "server"))]
#[wasm_bindgen_test]
fn the_browser_build_has_no_secret_key_operation() {
    // The npm feature without `server`: the browser bundle's configuration.
    for method in [
        "initiateHostedPayment",
        "cancelHostedPayment",
        "withdrawOnchain",
        "rampQuote",
        "refreshRampQuote",
        "createCustomer",
        "addPaymentMethod",
        "initiateRampQuoteDeposit",
        "initiateRampQuoteWithdrawal",
        "markDepositAsPaid",
        "markWithdrawalAsReceived",
        "cancelDeposit",
    ] {
        let e = core("merchant")
            .prepare(method, "a1".into(), JsValue::UNDEFINED)
            .err()
            .unwrap();
        assert_eq!(get(&e, "field").as_string().as_deref(), Some("method"));
    }
}

/// `confirmUntilSettled`'s options of the test below: 250 ms apart, 2 tries.
fn options_again() -> JsValue {
    let options = Object::new();
    set(&options, "paymentRequest", &"mpr_1".into());
    set(
        &options,
        "transactionHash",
        &format!("0x{}", "ab".repeat(32)).into(),
    );
    set(&options, "intervalMs", &JsValue::from(250));
    set(&options, "maxTries", &JsValue::from(2));
    options.into()
}

#[wasm_bindgen_test]
fn a_confirmation_steps_with_named_members() {
    let options = Object::new();
    set(&options, "paymentRequest", &"mpr_1".into());
    set(
        &options,
        "transactionHash",
        &format!("0x{}", "ab".repeat(32)).into(),
    );
    set(&options, "intervalMs", &JsValue::from(250));
    set(&options, "maxTries", &JsValue::from(2));
    let mut c = core("merchant").confirmation(options.into()).unwrap();
    // An attempt's outcome, as the shell's `attempt` gives it.
    let response = |status: u32, body: &str| {
        let o = Object::new();
        set(&o, "kind", &"response".into());
        set(&o, "status", &JsValue::from(status));
        set(&o, "body", &body.into());
        JsValue::from(o)
    };
    let not_yet = r#"{"data":{"confirmTransaction":false}}"#;
    // The call whose events the attempt's backoff or error would go to (not observed here).
    let call = core("bot")
        .prepare("profile", JsValue::UNDEFINED, JsValue::UNDEFINED)
        .unwrap();
    let send = c.next(false).unwrap();
    assert_eq!(get(&send, "kind").as_string().as_deref(), Some("send"));
    assert!(get(&send, "call").is_object());
    c.settle(response(200, not_yet), false, &call).unwrap();
    let wait = c.next(false).unwrap();
    assert_eq!(get(&wait, "kind").as_string().as_deref(), Some("wait"));
    assert_eq!(get(&wait, "delayMs").as_f64(), Some(250.0));
    c.next(false).unwrap();
    // A 503 is transient, but on the last try the loop ends with it.
    let e = c.settle(response(503, ""), false, &call).unwrap_err();
    assert_eq!(get(&e, "status").as_f64(), Some(503.0));
    let mut c = core("merchant").confirmation(options_again()).unwrap();
    c.next(false).unwrap();
    c.settle(response(200, not_yet), false, &call).unwrap();
    c.next(false).unwrap();
    c.next(false).unwrap();
    c.settle(response(200, not_yet), false, &call).unwrap();
    let done = c.next(false).unwrap();
    assert_eq!(get(&done, "kind").as_string().as_deref(), Some("done"));
    let outcome = get(&done, "outcome");
    assert_eq!(get(&outcome, "settled").as_bool(), Some(false));
    assert_eq!(get(&outcome, "tries").as_f64(), Some(2.0));
    let bad = Object::new();
    set(&bad, "paymentRequest", &"mpr_1".into());
    set(&bad, "transactionHash", &"0x12".into());
    let e = core("merchant").confirmation(bad.into()).err().unwrap();
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("transactionHash")
    );
}
