//! wasm-bindgen-test suite of hostile values over the real `fetch` transport, in Node and in
//! headless Chromium: partial keys are redacted from a custom `fetch`'s error and a server's
//! messages; a `signal` that is not a working AbortSignal never hangs or traps; repeated
//! failures leave the module working. (The JS-facing corpus is tests/js/hostile.test.mjs.)
#![cfg(target_arch = "wasm32")]

use js_sys::Function;
use settlement_wasm::FetchTransport;
use settlement_wasm::FieldOptions;
use settlement_wasm::{BotClient, BotOptions, Error};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

const SANDBOX_URL: &str = env!("SANDBOX_URL");
const AGENT_KEY: &str = env!("AGENT_KEY");
const KEY: &str = "LEAK-SECK_q7Zr9Vx2Kp4Wm8Tn3Hj6";
const SECRET: &str = "q7Zr9Vx2Kp4Wm8Tn3Hj6";

/// A function from a body (tests only: `new Function`).
fn js_fn(body: &str) -> Function {
    Function::new_no_args(body)
}

fn client(key: Option<&str>, endpoint: &str, fetch: Option<Function>) -> BotClient<FetchTransport> {
    let o = BotOptions {
        endpoint: Some(endpoint.to_string()),
        api_key: key.map(str::to_string),
        max_retries: Some(0),
        ..BotOptions::default()
    };
    BotClient::with_transport(o, FetchTransport::new(fetch)).expect("valid options")
}

/// Every text an error carries.
fn texts(e: &Error) -> String {
    let json = |v: Option<serde_json::Value>| v.map(|v| v.to_string()).unwrap_or_default();
    let mut t = format!("{} {:?}", e.message, e.field);
    for g in &e.graphql_errors {
        t += &format!(
            " {} {} {} {}",
            g.message,
            json(g.path()),
            json(g.locations()),
            json(g.extensions())
        );
    }
    t + &json(e.data())
}

fn leaked_piece(text: &str) -> Option<&'static str> {
    (0..=SECRET.len() - 8)
        .map(|i| &SECRET[i..i + 8])
        .find(|p| text.contains(p))
}

#[wasm_bindgen_test]
async fn partial_keys_are_redacted_from_a_fetch_error_and_a_server_message() {
    for piece in [SECRET, "LEAK-SECK_q7Zr9Vx2", "Kp4Wm8Tn", "xTn3Hj6q7Zr9Vx2y"] {
        let thrower = js_fn(&format!(
            "return Promise.reject(new Error('proxy refused {piece}', {{ cause: {{ code: '{piece}' }} }}));"
        ));
        let server = js_fn(&format!(
            "return Promise.resolve(new Response(JSON.stringify({{ errors: [{{ message: 'bad key {piece}', \
             path: ['{piece}'], extensions: {{ hint: '{piece}' }} }}], data: {{ x: '{piece}' }} }})));"
        ));
        for f in [thrower, server] {
            let e = client(Some(KEY), "https://settlement.invalid/graphql", Some(f))
                .profile(FieldOptions::default())
                .await
                .expect_err("fails");
            let t = texts(&e);
            assert_eq!(leaked_piece(&t), None, "{t}");
        }
    }
}

#[wasm_bindgen_test]
async fn a_fake_signal_settles_and_repeated_failures_leave_the_module_working() {
    let fake: JsValue = js_fn("return Object.create(AbortSignal.prototype);")
        .call0(&JsValue::NULL)
        .expect("a fake signal");
    let refusing = js_fn("return Promise.reject(new TypeError('refused'));");
    let bad = client(None, "https://settlement.invalid/graphql", Some(refusing));
    for _ in 0..3000 {
        let o = FieldOptions {
            fields: None,
            signal: Some(fake.clone().unchecked_into::<web_sys::AbortSignal>().into()),
        };
        assert!(bad.profile(o).await.is_err());
        let many = FieldOptions {
            fields: Some(vec!["a".repeat(300)]),
            signal: None,
        };
        assert!(bad.profile(many).await.is_err());
    }
    let ok = BotOptions {
        base_url: Some(SANDBOX_URL.to_string()),
        api_key: Some(AGENT_KEY.to_string()),
        ..BotOptions::default()
    };
    let p = BotClient::new(ok)
        .expect("valid")
        .profile(FieldOptions {
            fields: Some(vec!["id".into()]),
            signal: None,
        })
        .await
        .expect("a normal call still succeeds");
    assert_eq!(p.id.as_deref(), Some("agent-1"));
}
