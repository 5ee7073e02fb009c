//! Test helpers.
#![allow(dead_code)]

use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use settlement_sandbox::data::{
    AGENT2_KEY, AGENT3_KEY, AGENT_KEY, MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY,
};
use settlement_sandbox::{build_router, AppState, Config};
use tower::ServiceExt;

pub const ALL_KEYS: [&str; 5] = [
    AGENT_KEY,
    AGENT2_KEY,
    AGENT3_KEY,
    MERCHANT_PUBLIC_KEY,
    MERCHANT_SECRET_KEY,
];
pub const BOT: &str = "/service/bot/graphql";
pub const MERCHANT: &str = "/service/api/graphql";

pub struct Sandbox {
    pub app: Router,
    pub state: Arc<AppState>,
}

pub fn sandbox() -> Sandbox {
    sandbox_with(Config::for_tests())
}

pub fn sandbox_with(config: Config) -> Sandbox {
    let state = AppState::new(config);
    Sandbox {
        app: build_router(state.clone()),
        state,
    }
}

pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {:?}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    }

    /// Asserts no sandbox key appears in headers or body.
    pub fn assert_no_key(&self) {
        let text = self.text();
        for key in ALL_KEYS {
            assert!(!text.contains(key), "response body echoes a key: {text}");
            for (name, v) in &self.headers {
                assert!(
                    !v.as_bytes().windows(key.len()).any(|w| w == key.as_bytes()),
                    "header {name} echoes a key"
                );
            }
        }
    }
}

impl Sandbox {
    pub async fn send(&self, req: Request<Body>) -> Resp {
        let resp = self.app.clone().oneshot(req).await.unwrap();
        let (parts, body) = resp.into_parts();
        Resp {
            status: parts.status,
            headers: parts.headers,
            body: to_bytes(body, usize::MAX).await.unwrap(),
        }
    }

    pub async fn get(&self, uri: &str) -> Resp {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    /// POSTs a GraphQL request with optional key and extra headers.
    pub async fn gql_with(
        &self,
        path: &str,
        key: Option<&str>,
        body: Value,
        headers: &[(&str, &str)],
    ) -> Resp {
        let mut b = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header("content-type", "application/json");
        if let Some(k) = key {
            b = b.header("authorization", format!("Bearer {k}"));
        }
        for (n, v) in headers {
            b = b.header(*n, *v);
        }
        self.send(b.body(Body::from(body.to_string())).unwrap())
            .await
    }

    pub async fn gql(&self, path: &str, key: Option<&str>, query: &str, variables: Value) -> Resp {
        self.gql_with(
            path,
            key,
            json!({"query": query, "variables": variables}),
            &[],
        )
        .await
    }

    /// Bot query as agent 1, asserting HTTP 200; returns the JSON body.
    pub async fn bot(&self, query: &str, variables: Value) -> Value {
        let r = self.gql(BOT, Some(AGENT_KEY), query, variables).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        r.assert_no_key();
        r.json()
    }

    /// Merchant query with the secret key, asserting HTTP 200.
    pub async fn merchant(&self, key: &str, query: &str, variables: Value) -> Value {
        let r = self.gql(MERCHANT, Some(key), query, variables).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        r.assert_no_key();
        r.json()
    }
}

/// `errors[0].extensions.code`.
pub fn first_code(v: &Value) -> &str {
    v["errors"][0]["extensions"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no error code in {v}"))
}

/// Raw HTTP/1.1 over a real socket: sends `request` and returns all bytes read until the
/// peer closes (or the error that ended the read).
pub async fn raw_http(addr: &str, request: &str) -> (Vec<u8>, Option<std::io::Error>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), s.read(&mut chunk))
            .await
            .expect("socket read timed out");
        match read {
            Ok(0) => return (buf, None),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) => return (buf, Some(e)),
        }
    }
}

pub fn post_request(
    host: &str,
    path: &str,
    key: Option<&str>,
    extra: &[(&str, &str)],
    body: &str,
) -> String {
    let mut r = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(k) = key {
        r.push_str(&format!("Authorization: Bearer {k}\r\n"));
    }
    for (n, v) in extra {
        r.push_str(&format!("{n}: {v}\r\n"));
    }
    r.push_str("\r\n");
    r.push_str(body);
    r
}
