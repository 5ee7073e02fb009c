use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use settlement_sandbox::data::AGENT_KEY;
use settlement_sandbox::Config;

use crate::util::*;

fn header_list(r: &Resp, name: &str) -> Vec<String> {
    r.header(name)
        .unwrap_or_else(|| panic!("missing {name}"))
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .collect()
}

#[tokio::test]
async fn preflight_without_authorization_succeeds() {
    let sb = sandbox();
    for path in [BOT, MERCHANT] {
        let r = sb
            .send(
                Request::options(path)
                    .header("origin", "http://localhost:5173")
                    .header("access-control-request-method", "POST")
                    .header(
                        "access-control-request-headers",
                        "authorization,content-type,x-sandbox-fault",
                    )
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert!(r.status.is_success(), "{}", r.status);
        assert_eq!(
            r.header("access-control-allow-origin").as_deref(),
            Some("http://localhost:5173")
        );
        let headers = header_list(&r, "access-control-allow-headers");
        for h in ["authorization", "content-type", "x-sandbox-fault"] {
            assert!(headers.contains(&h.to_string()), "{headers:?}");
        }
        let methods = header_list(&r, "access-control-allow-methods");
        for m in ["post", "get", "options", "delete"] {
            assert!(methods.contains(&m.to_string()), "{methods:?}");
        }
    }
    // Arbitrary custom headers are mirrored too.
    let r = sb
        .send(
            Request::options(BOT)
                .header("origin", "http://127.0.0.1:9000")
                .header("access-control-request-method", "POST")
                .header(
                    "access-control-request-headers",
                    "x-sandbox-tag, x-my-trace-id",
                )
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert!(r.status.is_success());
    let headers = header_list(&r, "access-control-allow-headers");
    assert!(
        headers.contains(&"x-my-trace-id".to_string())
            && headers.contains(&"x-sandbox-tag".to_string())
    );
    assert!(
        sb.state.log_entries(None).is_empty(),
        "preflights are not logged"
    );
}

#[tokio::test]
async fn cors_headers_on_real_errors_and_faults() {
    let sb = sandbox();
    let origin = ("origin", "http://localhost:5173");
    let r = sb
        .gql_with(BOT, None, json!({"query": "{ profile { id } }"}), &[origin])
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some("http://localhost:5173")
    );
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": "{ profile { id } }"}),
            &[origin, ("x-sandbox-fault", "status=429;retry-after=5")],
        )
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some("http://localhost:5173")
    );
    assert!(header_list(&r, "access-control-expose-headers").contains(&"retry-after".to_string()));
    assert_eq!(r.header("retry-after").as_deref(), Some("5"));
}

/// The control routes hand out every key and can clear the log: only loopback origins (the
/// sandbox's own pages, local test runners) may read them from a page; other origins get no
/// `Access-Control-Allow-Origin`, so a browser withholds the answer (and refuses a DELETE
/// after its preflight). The GraphQL endpoints stay open to any origin.
#[tokio::test]
async fn control_routes_admit_only_the_sandbox_origins() {
    let sb = sandbox_with(Config {
        ramp_url: Some("http://127.0.0.1:9999".into()),
        ..Config::for_tests()
    });
    let get_from = |path: &'static str, origin: &'static str| {
        Request::get(path)
            .header("origin", origin)
            .body(Body::empty())
            .unwrap()
    };
    let paths = [
        "/__sandbox/info",
        "/__sandbox/orders?agent=1",
        "/__sandbox/requests",
    ];
    for path in paths {
        for own in [
            "http://127.0.0.1:8787",
            "http://127.0.0.1:9999",
            "http://localhost:5173",
            "http://[::1]:8000",
            "http://127.0.0.1",
        ] {
            let r = sb.send(get_from(path, own)).await;
            assert_eq!(r.status, StatusCode::OK, "{path}");
            assert_eq!(
                r.header("access-control-allow-origin").as_deref(),
                Some(own),
                "{path} from {own}"
            );
        }
        for other in [
            "http://evil.example",
            "http://127.0.0.1.evil.example",
            "http://localhost.evil.example:80",
            "http://127.0.0.1:80x",
            "http://127.0.0.1:",
            "https://evil.example:8787",
            "null",
        ] {
            let r = sb.send(get_from(path, other)).await;
            assert_eq!(
                r.header("access-control-allow-origin"),
                None,
                "{path} must not be readable from {other}"
            );
        }
    }
    // Preflights: a DELETE of the log from another origin is not allowed; from its own it is.
    let preflight = |origin: &'static str| {
        Request::options("/__sandbox/requests")
            .header("origin", origin)
            .header("access-control-request-method", "DELETE")
            .body(Body::empty())
            .unwrap()
    };
    let r = sb.send(preflight("http://evil.example")).await;
    assert_eq!(r.header("access-control-allow-origin"), None);
    let r = sb.send(preflight("http://127.0.0.1:8787")).await;
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some("http://127.0.0.1:8787")
    );
    assert!(header_list(&r, "access-control-allow-methods").contains(&"delete".to_string()));
    // Requests without an Origin (same-origin GETs, curl, Node) are answered as before.
    let info = sb.get("/__sandbox/info").await;
    assert_eq!(info.status, StatusCode::OK);
    assert_eq!(info.json()["keys"]["AGENT_KEY"], AGENT_KEY);
    // The service itself, the icons and the static files stay open to any origin.
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": "{ profile { id } }"}),
            &[("origin", "http://evil.example")],
        )
        .await;
    assert_eq!(
        r.header("access-control-allow-origin").as_deref(),
        Some("http://evil.example")
    );
    for path in ["/__sandbox/icons/usdc.svg", "/hosted/ramp"] {
        let r = sb.send(get_from(path, "http://evil.example")).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert_eq!(
            r.header("access-control-allow-origin").as_deref(),
            Some("http://evil.example"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn static_files_and_content_types() {
    let root = std::env::temp_dir().join(format!("sbx-static-{}", std::process::id()));
    std::fs::create_dir_all(root.join("www")).unwrap();
    std::fs::create_dir_all(root.join("pkg")).unwrap();
    std::fs::write(
        root.join("www/index.html"),
        "<!doctype html><title>demo</title>",
    )
    .unwrap();
    std::fs::write(root.join("www/app.js"), "console.log(1)").unwrap();
    std::fs::write(root.join("pkg/client_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(root.join("pkg/client.js"), "export {}").unwrap();
    std::fs::write(root.join("pkg/client.mjs"), "export {}").unwrap();
    let sb = sandbox_with(Config {
        static_root: root.clone(),
        ..Config::for_tests()
    });
    let r = sb.get("/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("<title>demo</title>"));
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let r = sb.get("/pkg/client_bg.wasm").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/wasm")
    );
    assert_eq!(&r.body[..4], b"\0asm");
    for p in ["/pkg/client.js", "/pkg/client.mjs", "/app.js"] {
        let r = sb.get(p).await;
        assert_eq!(r.status, StatusCode::OK, "{p}");
        assert!(
            r.header("content-type")
                .unwrap()
                .starts_with("text/javascript"),
            "{p}"
        );
    }
    assert_eq!(
        sb.get("/pkg/missing.wasm").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(sb.get("/nope.html").await.status, StatusCode::NOT_FOUND);
    std::fs::remove_dir_all(&root).unwrap();
    // Missing directories are fine: 404, and the API still works.
    let sb = sandbox_with(Config {
        static_root: root.join("does-not-exist"),
        ..Config::for_tests()
    });
    assert_eq!(sb.get("/").await.status, StatusCode::NOT_FOUND);
    assert_eq!(sb.get("/pkg/x.wasm").await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        sb.bot("{ profile { id } }", Value::Null).await["data"]["profile"]["id"],
        "agent-1"
    );
}

#[tokio::test]
async fn hosted_ramp_page_posts_crypto_requested() {
    let sb = sandbox();
    let r = sb.get("/hosted/ramp?key=SBX-PUBK_merchantdemo01&paymentType=deposit&coin=USDC&network=CELO&amount=12.34").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").unwrap().starts_with("text/html"));
    let t = r.text();
    for needle in [
        "crypto.requested",
        "amountCents",
        "destinationAddress",
        "paymentRequest",
        "window.opener",
        "window.parent",
        "postMessage(message(), \"*\")",
        settlement_sandbox::data::RAMP_DESTINATION_ADDRESS,
        "URLSearchParams",
        "isWalletContext",
        "hideAddress",
        "redirectUrl",
    ] {
        assert!(t.contains(needle), "ramp page lacks {needle:?}");
    }
    r.assert_no_key();
}
