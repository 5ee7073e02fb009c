//! The in-process fake's binding (feature `fake`, built for wasm32 by
//! `scripts/build-pkg.sh`): the core (`service.rs`) as the `FakeCore` class that the npm
//! package's testing entry (`pkg-template/src/testing.ts`) drives. It converts JavaScript
//! values to and from the core's types and forwards; every rule is the core's (or the
//! store's, for the control actions, as the HTTP server's control routes use them).
//!
//! Objects cross the boundary with named members, their TypeScript declared here once
//! (tsify, declaration only).

use std::sync::Arc;

use futures_util::FutureExt;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tsify::Tsify;
use wasm_bindgen::prelude::*;

use crate::clock::Clock;
use crate::data::{PaymentType, KEY_NAMES};
use crate::service::{
    Admitted, Answer, AppState, Config, CoreRequest, Endpoint, ServiceOptions, MAX_BODY_BYTES,
};
use crate::webhook_events::EventWatch;

/// How the fake serves (`createFakeService`'s options, as the core takes them).
#[derive(Clone, Debug, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct FakeCoreOptions {
    /// Serve the sandbox's own fields and enum values too.
    pub extras: bool,
    /// The clock's start, in milliseconds since the Unix epoch.
    pub now_ms: f64,
    /// The origin the fake answers as (hosted links, icons): `https://fake.invalid`.
    pub base_url: String,
    /// Largest `perPage` `orderHistory` accepts.
    pub max_per_page: i32,
    /// The data set ([`crate::data::DataSeed`]): absent or 0, the default data; the same as
    /// the HTTP sandbox's `--seed N`.
    #[serde(default)]
    #[tsify(optional, type = "number")]
    pub seed: crate::data::DataSeed,
}

/// One request to a GraphQL endpoint, as the shell read it off a `fetch` call.
#[derive(Clone, Debug, Deserialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct FakeRequest {
    /// Which endpoint the URL's path names.
    pub endpoint: FakeEndpoint,
    /// The `Authorization` header, when sent.
    #[tsify(optional)]
    pub authorization: Option<String>,
    /// The `Content-Type` header, when sent.
    #[tsify(optional)]
    pub content_type: Option<String>,
    /// The names of every header sent.
    pub header_names: Vec<String>,
    /// `x-sandbox-tag`, when sent.
    #[tsify(optional)]
    pub tag: Option<String>,
    /// `x-sandbox-fault`, when sent.
    #[tsify(optional)]
    pub fault: Option<String>,
    /// The body's text.
    pub body: String,
}

/// The two GraphQL endpoints.
#[derive(Clone, Copy, Debug, Deserialize, Tsify)]
#[serde(rename_all = "lowercase")]
pub enum FakeEndpoint {
    Bot,
    Merchant,
}

/// One response header.
#[derive(Clone, Debug, Serialize, Tsify)]
pub struct FakeHeader {
    pub name: String,
    pub value: String,
}

/// What the shell does with a request: answer it, or fail it as a reset connection.
#[derive(Clone, Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum FakeAnswer {
    /// A response.
    Respond {
        status: u16,
        headers: Vec<FakeHeader>,
        body: String,
    },
    /// No response: the connection was reset (`drop`; `drop-after` after the request took
    /// effect).
    Drop,
}

/// One request as it was admitted: wait `delayMs()` (or forever when `hangs()`), then
/// `answer()`. Freeing it unanswered logs the client as gone (an abort).
#[wasm_bindgen]
pub struct FakeAdmission {
    inner: Option<Result<Admitted, Answer>>,
}

#[wasm_bindgen]
impl FakeAdmission {
    /// Milliseconds to wait before `answer()` (the `delay=` fault), when any.
    #[wasm_bindgen(js_name = delayMs)]
    pub fn delay_ms(&self) -> Option<f64> {
        match &self.inner {
            Some(Ok(a)) => a.delay_ms().map(|ms| ms as f64),
            _ => None,
        }
    }

    /// Whether the request is never answered (the `hang` fault).
    pub fn hangs(&self) -> bool {
        matches!(&self.inner, Some(Ok(a)) if a.hangs())
    }

    /// The answer (once; a second call answers a dropped connection).
    #[wasm_bindgen(unchecked_return_type = "FakeAnswer")]
    pub fn answer(&mut self) -> JsValue {
        let answer = match self.inner.take() {
            Some(Ok(admitted)) => admitted
                .answer()
                .now_or_never()
                // The core does no I/O, so its future is ready at once; never pending.
                .unwrap_or_else(|| {
                    Answer::Respond(crate::service::graphql_error_response(
                        500,
                        "the fake's core did not answer at once",
                        "INTERNAL_SERVER_ERROR",
                    ))
                }),
            Some(Err(answer)) => answer,
            None => return to_js(&FakeAnswer::Drop),
        };
        let out = match answer {
            Answer::Respond(r) => FakeAnswer::Respond {
                status: r.status,
                headers: r
                    .headers
                    .into_iter()
                    .map(|(name, value)| FakeHeader {
                        name: name.to_owned(),
                        value,
                    })
                    .collect(),
                body: String::from_utf8_lossy(&r.body).into_owned(),
            },
            Answer::Drop(mut log) => {
                log.record(0);
                FakeAnswer::Drop
            }
        };
        to_js(&out)
    }
}

/// The fake service's core: the sandbox's schema, data, rules, faults and request log, in
/// process.
#[wasm_bindgen]
pub struct FakeCore {
    state: Arc<AppState>,
    /// What `webhookEvents` has handed out.
    webhooks: std::sync::Mutex<EventWatch>,
}

fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

fn error(message: impl Into<String>) -> JsError {
    JsError::new(&message.into())
}

/// An agent's index from its number (1, 2 or 3).
fn agent_index(state: &AppState, agent: u32) -> Result<usize, JsError> {
    (agent as usize)
        .checked_sub(1)
        .filter(|i| *i < state.store.agents.len())
        .ok_or_else(|| error("unknown agent (use 1, 2 or 3)"))
}

#[wasm_bindgen]
impl FakeCore {
    /// A fresh fake, its data seeded, its clock at `options.nowMs`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "FakeCoreOptions")] options: JsValue,
    ) -> Result<FakeCore, JsError> {
        let o: FakeCoreOptions = serde_wasm_bindgen::from_value(options)
            .map_err(|e| error(format!("invalid options: {e}")))?;
        let config = Config {
            max_per_page: o.max_per_page,
            base_url: o.base_url,
            ramp_url: None,
            static_root: std::path::PathBuf::new(),
            log_to_stderr: false,
        };
        let state = AppState::with_options(
            config,
            ServiceOptions {
                extras: o.extras,
                clock: Clock::manual(o.now_ms as i64),
                seed: o.seed,
            },
        );
        let webhooks = std::sync::Mutex::new(EventWatch::new(&state.store));
        Ok(FakeCore { state, webhooks })
    }

    /// Admits one GraphQL request (logged; its fault decided).
    pub fn admit(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FakeRequest")] request: JsValue,
    ) -> Result<FakeAdmission, JsError> {
        let r: FakeRequest = serde_wasm_bindgen::from_value(request)
            .map_err(|e| error(format!("invalid request: {e}")))?;
        let body = r.body.into_bytes();
        let request = CoreRequest {
            endpoint: match r.endpoint {
                FakeEndpoint::Bot => Endpoint::Bot,
                FakeEndpoint::Merchant => Endpoint::Merchant,
            },
            authorization: r.authorization.map(String::into_bytes),
            content_type: r.content_type,
            header_names: r.header_names,
            tag: r.tag.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()),
            fault: r
                .fault
                .map(|f| f.trim().to_owned())
                .filter(|f| !f.is_empty()),
            body: (body.len() <= MAX_BODY_BYTES).then_some(body),
        };
        Ok(FakeAdmission {
            inner: Some(self.state.admit(request)),
        })
    }

    /// The webhook events (`{ event_type, data }`) the service would have sent since the
    /// last call.
    #[wasm_bindgen(js_name = webhookEvents, unchecked_return_type = "unknown[]")]
    pub fn webhook_events(&self) -> JsValue {
        let mut watch = self.webhooks.lock().unwrap_or_else(|e| e.into_inner());
        to_js(&watch.changes(&self.state.store))
    }

    /// The keys it accepts: `{ AGENT_KEY, AGENT2_KEY, AGENT3_KEY, MERCHANT_PUBLIC_KEY,
    /// MERCHANT_SECRET_KEY }`.
    #[wasm_bindgen(unchecked_return_type = "Record<string, string>")]
    pub fn keys(&self) -> JsValue {
        let keys: serde_json::Map<String, Value> = KEY_NAMES
            .iter()
            .map(|(name, key)| (name.to_string(), Value::from(*key)))
            .collect();
        to_js(&keys)
    }

    /// The request log (never a key), oldest first; only `tag`'s when given.
    #[wasm_bindgen(unchecked_return_type = "unknown[]")]
    pub fn requests(&self, tag: Option<String>) -> JsValue {
        to_js(&self.state.log_entries(tag.as_deref()))
    }

    /// Forgets the request log and the `fail-first` counts.
    #[wasm_bindgen(js_name = clearRequests)]
    pub fn clear_requests(&self) {
        self.state.clear_log();
    }

    /// The next `times` requests (without a fault header of their own) get `spec` (the
    /// `x-sandbox-fault` syntax: `status=503; retry-after=2`, `drop`, `drop-after`, `hang`,
    /// `delay=MS`, …).
    #[wasm_bindgen(js_name = failNext)]
    pub fn fail_next(&self, times: u32, spec: &str) -> Result<(), JsError> {
        self.state
            .fail_next(u64::from(times), spec)
            .map_err(|e| error(e.to_string()))
    }

    /// Forgets the faults `failNext` queued.
    #[wasm_bindgen(js_name = clearFaults)]
    pub fn clear_faults(&self) {
        self.state.clear_faults();
    }

    /// The clock, in milliseconds since the Unix epoch.
    #[wasm_bindgen(js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        self.state.store.clock.now_ms() as f64
    }

    /// Moves the clock forward by `ms`; answers the new time.
    pub fn advance(&self, ms: f64) -> f64 {
        self.state.store.clock.advance_ms(ms as i64) as f64
    }

    /// A new `pending` order for agent `agent` (1, 2 or 3) at the head of its list, a
    /// `"deposit"` or `"withdrawal"` (alternately when not given).
    #[wasm_bindgen(js_name = createOrder, unchecked_return_type = "unknown")]
    pub fn create_order(&self, agent: u32, kind: Option<String>) -> Result<JsValue, JsError> {
        let i = agent_index(&self.state, agent)?;
        let payment_type = match kind.as_deref() {
            None => None,
            Some("withdrawal") => Some(PaymentType::Withdrawal),
            Some("deposit") => Some(PaymentType::Deposit),
            Some(_) => return Err(error("type must be withdrawal or deposit")),
        };
        let now = self.state.store.clock.now_secs();
        Ok(to_js(&self.state.store.create_pending_order(
            i,
            payment_type,
            now,
        )))
    }

    /// An agent's orders as the fake holds them (newest first).
    #[wasm_bindgen(unchecked_return_type = "unknown[]")]
    pub fn orders(&self, agent: u32) -> Result<JsValue, JsError> {
        let i = agent_index(&self.state, agent)?;
        Ok(to_js(&self.state.store.agents[i].state().orders))
    }

    /// Puts the data of every agent (or of agent `agent`) back to the seed.
    pub fn reset(&self, agent: Option<u32>) -> Result<(), JsError> {
        let agent = agent.map(|a| agent_index(&self.state, a)).transpose()?;
        self.state.store.reset(agent);
        Ok(())
    }

    /// A simulated onchain transfer paying hosted payment request `id`: its transaction hash
    /// (for `confirmTransaction`).
    pub fn transfer(&self, id: &str) -> Result<String, JsError> {
        self.state
            .store
            .merchant()
            .transfer(id)
            .map_err(|e| error(e.message))
    }

    /// The agent confirms a paid direct-ramp deposit's fiat arrived (paid → completed).
    #[wasm_bindgen(js_name = completeRamp, unchecked_return_type = "unknown")]
    pub fn complete_ramp(&self, id: &str) -> Result<JsValue, JsError> {
        let p = self
            .state
            .store
            .merchant()
            .ramp
            .complete(id)
            .map_err(|e| error(e.message))?;
        Ok(to_js(
            &json!({ "id": p.id.as_str(), "status": p.status.as_str(), "agent": p.agent }),
        ))
    }

    /// Makes direct-ramp quote `id` expired now.
    #[wasm_bindgen(js_name = expireQuote, unchecked_return_type = "unknown")]
    pub fn expire_quote(&self, id: &str) -> Result<JsValue, JsError> {
        let now = self.state.store.clock.now_secs();
        let q = self
            .state
            .store
            .merchant()
            .ramp
            .expire_quote(id, now)
            .map_err(|e| error(e.message))?;
        Ok(to_js(
            &json!({ "id": q.id.as_str(), "expiresAt": q.expires_at }),
        ))
    }

    /// The sandbox's chain settles pending onchain withdrawal `id` (`completed`, or
    /// `failed` when `failed` is true).
    #[wasm_bindgen(js_name = settleWithdrawal, unchecked_return_type = "unknown")]
    pub fn settle_withdrawal(&self, id: &str, failed: bool) -> Result<JsValue, JsError> {
        let base_url = self.state.config.base_url.clone();
        let w = self
            .state
            .store
            .merchant()
            .settle_withdrawal(id, !failed, &base_url)
            .map_err(|e| error(e.message))?;
        Ok(to_js(
            &json!({ "id": w.id.as_str(), "status": w.status, "txhash": w.txhash }),
        ))
    }
}
