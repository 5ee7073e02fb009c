//! wasm-bindgen-test suite: the Rust API of `MerchantClient` over the real `fetch` transport,
//! against the sandbox, in Node and in headless Chromium (scripts/test-wasm.sh runs both);
//! plus the ramp event check on real JavaScript values. The sandbox URL and keys are read at
//! compile time (scripts/with-sandbox.sh exports them).
#![cfg(target_arch = "wasm32")]

use js_sys::{Reflect, JSON};
use settlement_wasm::Code;
use settlement_wasm::FetchTransport;
use settlement_wasm::FieldOptions;
use settlement_wasm::MerchantClient;
use settlement_wasm::{parse_amount, ramp, ClientOptions, MerchantOptions, OnchainRampOptions};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

const SANDBOX_URL: &str = env!("SANDBOX_URL");
const PUBLIC_KEY: &str = env!("MERCHANT_PUBLIC_KEY");
const SECRET_KEY: &str = env!("MERCHANT_SECRET_KEY");

fn options(key: &str, allow: bool) -> MerchantOptions {
    MerchantOptions {
        client: ClientOptions {
            base_url: Some(SANDBOX_URL.to_string()),
            api_key: Some(key.to_string()),
            ..ClientOptions::default()
        },
        dangerously_allow_browser: allow,
    }
}

fn public() -> MerchantClient<FetchTransport> {
    MerchantClient::new(options(PUBLIC_KEY, false)).expect("a public key is fine everywhere")
}

fn d() -> FieldOptions {
    FieldOptions::default()
}

/// Whether this test runs where the guard applies (checked here independently of the crate:
/// a page, or a browser worker; Node is a server).
fn browser_like() -> bool {
    let g = js_sys::global();
    ["window", "document"]
        .iter()
        .any(|n| Reflect::get(&g, &JsValue::from_str(n)).is_ok_and(|v| !v.is_undefined()))
}

/// Runs `f` with the globals `set` defined and Node's `process` hidden (a simulated host), then
/// restores them. The guard reads the globals when a client is constructed.
fn in_host<T>(set: &[(&str, JsValue)], f: impl FnOnce() -> T) -> T {
    let g = js_sys::global();
    let process = JsValue::from_str("process");
    let saved = Reflect::get(&g, &process).unwrap();
    Reflect::set(&g, &process, &JsValue::UNDEFINED).unwrap();
    for (name, value) in set {
        Reflect::set(&g, &JsValue::from_str(name), value).unwrap();
    }
    let out = f();
    for (name, _) in set {
        Reflect::delete_property(&g, &JsValue::from_str(name)).unwrap();
    }
    Reflect::set(&g, &process, &saved).unwrap();
    out
}

/// A `navigator` with this user agent.
fn navigator(user_agent: &str) -> JsValue {
    let n = js_sys::Object::new();
    Reflect::set(&n, &"userAgent".into(), &user_agent.into()).unwrap();
    n.into()
}

#[wasm_bindgen_test]
async fn available_countries_and_their_payment_methods() {
    let countries = public().available_countries(d()).await.expect("countries");
    let codes: Vec<_> = countries
        .iter()
        .map(|c| c.code.clone().unwrap_or_default())
        .collect();
    assert_eq!(codes, ["NG", "KE", "GH"]);
    assert_eq!(
        countries[1]
            .currency
            .as_ref()
            .and_then(|c| c.iso_code.as_deref()),
        Some("KES")
    );
    let kenya = countries[1].id.clone().expect("an id");
    let methods = public()
        .payment_method_types(&kenya, d())
        .await
        .expect("methods");
    let ids: Vec<_> = methods
        .iter()
        .map(|m| m.identifier.clone().unwrap_or_default())
        .collect();
    assert_eq!(ids, ["mpesa", "airtel_money", "bank_transfer"]);
    let mpesa = methods[0].fields.as_ref().expect("fields");
    assert!(mpesa
        .iter()
        .any(|f| f.identifier.as_deref() == Some("phone_number") && f.required == Some(true)));
    let err = public().payment_method_types("99", d()).await.unwrap_err();
    assert_eq!(err.code, Code::Graphql);
}

#[wasm_bindgen_test]
async fn market_rate_limits_assets() {
    let rate = public()
        .market_rate("gh", d())
        .await
        .expect("call")
        .expect("Ghana is known");
    assert_eq!(rate.deposit_rate.as_deref(), Some("15.62"));
    assert_eq!(rate.withdrawal_rate.as_deref(), Some("15.18"));
    assert_eq!(public().market_rate("ZZ", d()).await.expect("call"), None);
    let err = public().market_rate("GHA", d()).await.unwrap_err();
    assert_eq!(
        (err.code, err.field.as_deref()),
        (Code::InvalidInput, Some("countryCode"))
    );

    let limits = public().ramp_limits(d()).await.expect("limits");
    assert_eq!(limits.minimum_deposit_usd.as_deref(), Some("5.00"));
    assert_eq!(limits.daily_limit_usd.as_deref(), Some("10000.00"));
    let assets = public().rampable_assets(d()).await.expect("assets");
    assert_eq!(assets.len(), 3);
    assert!(assets
        .iter()
        .all(|a| a.networks.as_ref().is_some_and(|n| !n.is_empty())));
}

#[wasm_bindgen_test]
async fn payment_requests() {
    let pr = public()
        .payment_request("REF-1003", d())
        .await
        .expect("call")
        .expect("known");
    assert_eq!(pr.status.as_deref(), Some("picked_up"));
    assert_eq!(pr.amount.as_deref(), Some("310.50"));
    assert_eq!(pr.currency.as_deref(), Some("GHS"));
    assert_eq!(
        public()
            .payment_request("REF-0000", d())
            .await
            .expect("call"),
        None
    );
    let err = public().payment_request(" ", d()).await.unwrap_err();
    assert_eq!(err.field.as_deref(), Some("reference"));
}

#[wasm_bindgen_test]
async fn a_public_key_on_account_is_forbidden() {
    let err = public().account(d()).await.unwrap_err();
    assert_eq!(err.code, Code::Forbidden);
    assert_eq!(err.status, Some(200));
    let text = format!("{err} {err:?}");
    assert!(!text.contains(PUBLIC_KEY), "key leaked into {text}");
}

#[wasm_bindgen_test]
async fn the_secret_key_reads_the_account_where_allowed() {
    let merchant = MerchantClient::new(options(SECRET_KEY, true)).expect("opted out");
    let account = merchant.account(d()).await.expect("account");
    assert_eq!(account.id.as_deref(), Some("merchant-1"));
    let balance = account.account_balance.expect("a balance");
    assert_eq!(balance, "1520.00");
    let exact = parse_amount(&balance).expect("decimal text");
    assert_eq!((exact.minor_units, exact.scale), (152_000, 2));
}

#[wasm_bindgen_test]
fn the_guard_follows_the_environment() {
    let r = MerchantClient::new(options(SECRET_KEY, false));
    if browser_like() {
        let err = r.expect_err("refused in a browser");
        assert_eq!(err.code, Code::SecretKeyInBrowser);
        assert!(!format!("{err:?}").contains(SECRET_KEY));
    } else {
        assert!(r.is_ok(), "a secret key is normal in Node");
        // A browser worker: refused, unless opted out.
        let worker = [
            ("WorkerGlobalScope", js_sys::Object::new().into()),
            (
                "navigator",
                navigator("Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0"),
            ),
        ];
        let refused = in_host(&worker, || {
            MerchantClient::new(options(SECRET_KEY, false)).err()
        });
        let allowed = in_host(&worker, || {
            MerchantClient::new(options(SECRET_KEY, true)).is_ok()
        });
        assert_eq!(
            refused.expect("refused in a worker").code,
            Code::SecretKeyInBrowser
        );
        assert!(allowed, "the opt-out works");
        // workerd defines WorkerGlobalScope too, and is a server by its user agent.
        let workerd = [
            ("WorkerGlobalScope", js_sys::Object::new().into()),
            ("navigator", navigator("Cloudflare-Workers")),
        ];
        assert!(in_host(&workerd, || MerchantClient::new(options(
            SECRET_KEY, false
        ))
        .is_ok()));
        assert!(
            MerchantClient::new(options(SECRET_KEY, false)).is_ok(),
            "back to Node"
        );
    }
    assert!(MerchantClient::new(options(PUBLIC_KEY, false)).is_ok());
}

#[wasm_bindgen_test]
fn ramp_links_and_events_on_javascript_values() {
    let link = ramp::onchain_ramp_url(&OnchainRampOptions {
        ramp_url: "https://ramp.example/onramp".into(),
        key: PUBLIC_KEY.into(),
        payment_type: "withdrawal".into(),
        coin: "USDT".into(),
        network: "OP".into(),
        reference: Some("a&b=c #d".into()),
        is_wallet_context: Some(true),
        ..Default::default()
    })
    .expect("a valid link");
    // The platform's own URL parser reads the values back intact.
    let url = web_url(&link);
    assert_eq!(url.0, "a&b=c #d");
    assert_eq!(url.1, "true");

    let parse = |s: &str| JSON::parse(s).expect("JSON");
    let origin = JsValue::from_str("https://ramp.example");
    let good = parse(
        r#"{"event":"crypto.requested","payload":{"amountCents":2500,"destinationAddress":"0x5A4D","paymentRequest":{"id":"pr_1"}}}"#,
    );
    assert!(ramp::accepts(&origin, &origin, &good));
    assert!(!ramp::accepts(
        &origin,
        &JsValue::from_str("https://evil.example"),
        &good
    ));
    assert!(!ramp::accepts(&origin, &JsValue::NULL, &good));
    for bad in [
        r#"{"event":"crypto.sent","payload":{"amountCents":1,"destinationAddress":"0x","paymentRequest":"p"}}"#,
        r#"{"event":"crypto.requested","payload":{"amountCents":1.5,"destinationAddress":"0x","paymentRequest":"p"}}"#,
        r#"{"event":"crypto.requested","payload":{"amountCents":1,"destinationAddress":"","paymentRequest":"p"}}"#,
        r#"{"event":"crypto.requested","payload":[1]}"#,
        r#"["crypto.requested"]"#,
        r#""crypto.requested""#,
    ] {
        assert!(!ramp::accepts(&origin, &origin, &parse(bad)), "{bad}");
    }
}

/// `new URL(link).searchParams.get("reference")` and `…get("isWalletContext")`.
fn web_url(link: &str) -> (String, String) {
    let ctor = Reflect::get(&js_sys::global(), &JsValue::from_str("URL")).unwrap();
    let args = js_sys::Array::of1(&JsValue::from_str(link));
    let url = Reflect::construct(&ctor.into(), &args).expect("an absolute URL");
    let params = Reflect::get(&url, &JsValue::from_str("searchParams")).unwrap();
    let get: js_sys::Function = Reflect::get(&params, &JsValue::from_str("get"))
        .unwrap()
        .into();
    let read = |k: &str| {
        get.call1(&params, &JsValue::from_str(k))
            .unwrap()
            .as_string()
            .unwrap_or_default()
    };
    (read("reference"), read("isWalletContext"))
}
