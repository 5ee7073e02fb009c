//! The six bot mutations: lifecycle, illegal transitions, NOT_FOUND across agents, rates and
//! liquidity persistence, reset, the drop-after fault, and no key anywhere.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use settlement_sandbox::data::{AGENT2_KEY, AGENT3_KEY, AGENT_KEY};
use settlement_sandbox::Options;

use crate::util::*;

const ACCEPT: &str =
    "mutation AcceptWithdrawal($p2pPayment: ID!) { acceptWithdrawal(p2pPayment: $p2pPayment) }";
const CANCEL: &str =
    "mutation CancelWithdrawal($p2pPayment: ID!) { cancelWithdrawal(p2pPayment: $p2pPayment) }";
const RECEIVED: &str = "mutation MarkDepositAsReceived($p2pPayment: ID!) { markDepositAsReceived(p2pPayment: $p2pPayment) }";
const PAID: &str = "mutation MarkWithdrawalAsPaid($p2pPayment: ID!, $paymentMethod: ID!, $receipt: String) { markWithdrawalAsPaid(p2pPayment: $p2pPayment, paymentMethod: $paymentMethod, receipt: $receipt) }";
const RATES: &str = "mutation UpdateRates($depositRate: Decimal, $depositMargin: Decimal, $withdrawalRate: Decimal, $withdrawalMargin: Decimal) { updateRates(depositRate: $depositRate, depositMargin: $depositMargin, withdrawalRate: $withdrawalRate, withdrawalMargin: $withdrawalMargin) }";
const LIQUIDITY: &str = "mutation UpdatePaymentMethodLiquidity($paymentMethod: ID, $paymentMethodType: String, $amountLocal: Decimal!) { updatePaymentMethodLiquidity(paymentMethod: $paymentMethod, paymentMethodType: $paymentMethodType, amountLocal: $amountLocal) { id value displayValue localCurrencyAvailable deleted ownership designation instant } }";
const ORDER: &str = "query Order($f: OrderHistoryFilter) { orderHistory(page: 1, filter: $f) { data { id status paymentType reassigning reassignAfter agentCutOfFees fxSpreadRevenue amountUsd } pagination { total } } }";
const MARGINS: &str = "{ profile { depositMargin withdrawalMargin depositsCompleted } }";

/// Agent `agent`'s full order list from the oracle route.
async fn dump(sb: &Sandbox, agent: u8) -> Vec<Value> {
    let r = sb.get(&format!("/__sandbox/orders?agent={agent}")).await;
    assert_eq!(r.status, StatusCode::OK);
    r.json().as_array().unwrap().clone()
}

/// The first (newest) order of agent `agent` with that status and type.
async fn find(sb: &Sandbox, agent: u8, status: &str, ty: &str) -> Value {
    dump(sb, agent)
        .await
        .into_iter()
        .find(|o| o["status"] == status && o["paymentType"] == ty)
        .unwrap_or_else(|| panic!("agent {agent} has no {status} {ty}"))
}

fn id_of(o: &Value) -> String {
    o["id"].as_str().unwrap().to_string()
}

/// The order as `orderHistory` returns it now (looked up by its orderId).
async fn read_back(sb: &Sandbox, key: &str, order: &Value) -> Value {
    let r = sb
        .gql(
            BOT,
            Some(key),
            ORDER,
            json!({"f": {"orderId": order["orderId"]}}),
        )
        .await;
    let v = r.json();
    let rows = v["data"]["orderHistory"]["data"].as_array().unwrap();
    rows.iter()
        .find(|o| o["id"] == order["id"])
        .cloned()
        .unwrap_or_else(|| panic!("order {} not in {v}", order["id"]))
}

/// A mutation as `key`, asserting HTTP 200 and no key in the response.
async fn mutate(sb: &Sandbox, key: &str, doc: &str, vars: Value) -> Value {
    let r = sb.gql(BOT, Some(key), doc, vars).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    r.assert_no_key();
    r.json()
}

/// Asserts a refused mutation: `data: {field: null}`, one error with `code` at `[field]`.
fn assert_refused(v: &Value, field: &str, code: &str) {
    assert_eq!(v["data"], json!({ field: null }), "{v}");
    assert_eq!(first_code(v), code, "{v}");
    assert_eq!(v["errors"][0]["path"], json!([field]), "{v}");
    assert_eq!(v["errors"].as_array().unwrap().len(), 1, "{v}");
}

async fn status_in_dump(sb: &Sandbox, agent: u8, id: &str) -> String {
    dump(sb, agent)
        .await
        .into_iter()
        .find(|o| o["id"] == id)
        .map(|o| o["status"].as_str().unwrap().to_string())
        .unwrap()
}

async fn control_state(sb: &Sandbox, agent: u8) -> Value {
    let r = sb.get(&format!("/__sandbox/state?agent={agent}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    r.assert_no_key();
    r.json()
}

async fn delete(sb: &Sandbox, uri: &str, origin: Option<&str>) -> Resp {
    let mut b = Request::delete(uri);
    if let Some(o) = origin {
        b = b.header("origin", o);
    }
    sb.send(b.body(Body::empty()).unwrap()).await
}

#[tokio::test]
async fn mutation_signatures_match_the_contract() {
    let sb = sandbox();
    let v = sb
        .bot(
            "{ __schema { mutationType { name fields { name args { name type { kind name ofType { name } } } type { name } } } } }",
            Value::Null,
        )
        .await;
    let m = &v["data"]["__schema"]["mutationType"];
    assert_eq!(m["name"], "Mutation");
    let sig: Vec<String> = m["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let args: Vec<String> = f["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    let t = &a["type"];
                    if t["kind"] == "NON_NULL" {
                        format!(
                            "{}: {}!",
                            a["name"].as_str().unwrap(),
                            t["ofType"]["name"].as_str().unwrap()
                        )
                    } else {
                        format!(
                            "{}: {}",
                            a["name"].as_str().unwrap(),
                            t["name"].as_str().unwrap()
                        )
                    }
                })
                .collect();
            format!(
                "{}({}): {}",
                f["name"].as_str().unwrap(),
                args.join(", "),
                f["type"]["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        sig,
        [
            "acceptWithdrawal(p2pPayment: ID!): Boolean",
            "cancelWithdrawal(p2pPayment: ID!): Boolean",
            "markDepositAsReceived(p2pPayment: ID!): Boolean",
            "markWithdrawalAsPaid(p2pPayment: ID!, paymentMethod: ID!, receipt: String): Boolean",
            "updateRates(depositRate: Decimal, depositMargin: Decimal, withdrawalRate: Decimal, withdrawalMargin: Decimal): Boolean",
            "updatePaymentMethodLiquidity(paymentMethod: ID, paymentMethodType: String, amountLocal: Decimal!): P2PPaymentMethod",
        ]
    );
    // The merchant endpoint's mutations.
    let v = sb
        .merchant(
            settlement_sandbox::data::MERCHANT_SECRET_KEY,
            "{ __schema { mutationType { fields { name } } } }",
            Value::Null,
        )
        .await;
    assert_eq!(
        v["data"]["__schema"]["mutationType"]["fields"],
        json!([
            {"name": "confirmTransaction"},
            {"name": "initiateHostedPayment"},
            {"name": "withdrawOnchain"},
            {"name": "cancelHostedPayment"},
            {"name": "createCustomer"},
            {"name": "addPaymentMethod"},
            {"name": "initiateRampQuoteDeposit"},
            {"name": "initiateRampQuoteWithdrawal"},
            {"name": "markDepositAsPaid"},
            {"name": "markWithdrawalAsReceived"},
            {"name": "requestVirtualBankAccount"},
            {"name": "cancelDeposit"}
        ])
    );
}

#[tokio::test]
async fn withdrawal_accept_then_mark_paid() {
    let sb = sandbox();
    let order = find(&sb, 1, "pending", "withdrawal").await;
    let id = id_of(&order);
    let v = mutate(&sb, AGENT_KEY, ACCEPT, json!({"p2pPayment": id})).await;
    assert_eq!(v, json!({"data": {"acceptWithdrawal": true}}));
    let now = read_back(&sb, AGENT_KEY, &order).await;
    assert_eq!(now["status"], "picked_up");
    assert_eq!(now["reassigning"], false);
    assert_eq!(
        now["reassignAfter"], order["reassignAfter"],
        "still open: keeps its reassign time"
    );
    assert_eq!(status_in_dump(&sb, 1, &id).await, "picked_up");

    let v = mutate(
        &sb,
        AGENT_KEY,
        PAID,
        json!({"p2pPayment": id, "paymentMethod": "pm_100002", "receipt": "https://receipts.example/r/1.png"}),
    )
    .await;
    assert_eq!(v, json!({"data": {"markWithdrawalAsPaid": true}}));
    let now = read_back(&sb, AGENT_KEY, &order).await;
    assert_eq!(now["status"], "paid");
    assert_eq!(now["reassignAfter"], Value::Null);
    assert_eq!(status_in_dump(&sb, 1, &id).await, "paid");
    // The status filter sees the change.
    let v = sb
        .bot(
            ORDER,
            json!({"f": {"orderId": order["orderId"], "status": "paid"}}),
        )
        .await;
    assert_eq!(v["data"]["orderHistory"]["pagination"]["total"], 1);

    // receipt is optional.
    let other = find(&sb, 1, "picked_up", "withdrawal").await;
    let v = mutate(
        &sb,
        AGENT_KEY,
        PAID,
        json!({"p2pPayment": other["id"], "paymentMethod": "pm_100001"}),
    )
    .await;
    assert_eq!(v, json!({"data": {"markWithdrawalAsPaid": true}}));
    assert_eq!(status_in_dump(&sb, 1, &id_of(&other)).await, "paid");
}

#[tokio::test]
async fn cancel_withdrawal_from_pending_and_picked_up() {
    let sb = sandbox();
    for from in ["pending", "picked_up"] {
        let order = find(&sb, 1, from, "withdrawal").await;
        let v = mutate(&sb, AGENT_KEY, CANCEL, json!({"p2pPayment": order["id"]})).await;
        assert_eq!(v, json!({"data": {"cancelWithdrawal": true}}), "{from}");
        let now = read_back(&sb, AGENT_KEY, &order).await;
        assert_eq!(now["status"], "canceled", "{from}");
        assert_eq!(now["agentCutOfFees"], "0.00");
        assert_eq!(now["reassignAfter"], Value::Null);
        // Canceling twice is an illegal transition.
        let v = mutate(&sb, AGENT_KEY, CANCEL, json!({"p2pPayment": order["id"]})).await;
        assert_refused(&v, "cancelWithdrawal", "INVALID_TRANSITION");
        assert_eq!(v["errors"][0]["extensions"]["status"], "canceled");
    }
}

#[tokio::test]
async fn mark_deposit_received_completes_once() {
    let sb = sandbox();
    let before = sb.bot(MARGINS, Value::Null).await["data"]["profile"]["depositsCompleted"]
        .as_i64()
        .unwrap();
    assert_eq!(before, 1024);
    let mut done = 0;
    for from in ["pending", "picked_up", "paid"] {
        let order = find(&sb, 1, from, "deposit").await;
        let v = mutate(&sb, AGENT_KEY, RECEIVED, json!({"p2pPayment": order["id"]})).await;
        assert_eq!(
            v,
            json!({"data": {"markDepositAsReceived": true}}),
            "{from}"
        );
        done += 1;
        let now = read_back(&sb, AGENT_KEY, &order).await;
        assert_eq!(now["status"], "completed", "{from}");
        assert_eq!(now["reassignAfter"], Value::Null);
        // fxSpreadRevenue is 0.3 % of amountUsd once completed, as in the seed.
        let usd: f64 = now["amountUsd"].as_str().unwrap().parse().unwrap();
        let fx: f64 = now["fxSpreadRevenue"].as_str().unwrap().parse().unwrap();
        assert!(
            (fx - (usd * 0.003 * 100.0).floor() / 100.0).abs() < 0.011,
            "{now}"
        );
        // Twice: illegal.
        let v = mutate(&sb, AGENT_KEY, RECEIVED, json!({"p2pPayment": order["id"]})).await;
        assert_refused(&v, "markDepositAsReceived", "INVALID_TRANSITION");
        assert_eq!(v["errors"][0]["extensions"]["status"], "completed");
        assert_eq!(v["errors"][0]["extensions"]["paymentType"], "deposit");
    }
    let after = sb.bot(MARGINS, Value::Null).await["data"]["profile"]["depositsCompleted"]
        .as_i64()
        .unwrap();
    assert_eq!(
        after,
        before + done,
        "depositsCompleted counts completed deposits"
    );
    let completed = dump(&sb, 1)
        .await
        .iter()
        .filter(|o| o["status"] == "completed" && o["paymentType"] == "deposit")
        .count() as i64;
    assert_eq!(completed, after);
}

#[tokio::test]
async fn illegal_transitions_have_a_code_and_change_nothing() {
    let sb = sandbox();
    let cases: [(&str, &str, &str, &str, &str); 11] = [
        // (document, field, status, type, expected status in the error)
        (
            ACCEPT,
            "acceptWithdrawal",
            "completed",
            "withdrawal",
            "completed",
        ),
        (
            ACCEPT,
            "acceptWithdrawal",
            "picked_up",
            "withdrawal",
            "picked_up",
        ),
        (
            ACCEPT,
            "acceptWithdrawal",
            "canceled",
            "withdrawal",
            "canceled",
        ),
        (ACCEPT, "acceptWithdrawal", "pending", "deposit", "pending"),
        (CANCEL, "cancelWithdrawal", "paid", "withdrawal", "paid"),
        (
            CANCEL,
            "cancelWithdrawal",
            "completed",
            "withdrawal",
            "completed",
        ),
        (CANCEL, "cancelWithdrawal", "pending", "deposit", "pending"),
        (
            RECEIVED,
            "markDepositAsReceived",
            "completed",
            "deposit",
            "completed",
        ),
        (
            RECEIVED,
            "markDepositAsReceived",
            "canceled",
            "deposit",
            "canceled",
        ),
        (
            RECEIVED,
            "markDepositAsReceived",
            "pending",
            "withdrawal",
            "pending",
        ),
        (
            PAID,
            "markWithdrawalAsPaid",
            "pending",
            "withdrawal",
            "pending",
        ),
    ];
    for (doc, field, status, ty, expected) in cases {
        let order = find(&sb, 1, status, ty).await;
        let mut vars = json!({"p2pPayment": order["id"]});
        if doc == PAID {
            vars["paymentMethod"] = json!("pm_100001");
        }
        let v = mutate(&sb, AGENT_KEY, doc, vars).await;
        assert_refused(&v, field, "INVALID_TRANSITION");
        let ext = &v["errors"][0]["extensions"];
        assert_eq!(ext["status"], expected, "{field} on {status} {ty}: {v}");
        assert_eq!(ext["paymentType"], ty, "{v}");
        assert_eq!(
            status_in_dump(&sb, 1, &id_of(&order)).await,
            status,
            "{field} changed {order}"
        );
    }
    // markWithdrawalAsPaid on a deposit, and on a paid withdrawal.
    for (status, ty) in [("paid", "deposit"), ("paid", "withdrawal")] {
        let order = find(&sb, 1, status, ty).await;
        let v = mutate(
            &sb,
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": order["id"], "paymentMethod": "pm_100001"}),
        )
        .await;
        assert_refused(&v, "markWithdrawalAsPaid", "INVALID_TRANSITION");
    }
}

#[tokio::test]
async fn other_agents_orders_and_unknown_ids_are_not_found() {
    let sb = sandbox();
    let mine = find(&sb, 1, "pending", "withdrawal").await;
    let theirs = find(&sb, 2, "pending", "withdrawal").await;
    let their_deposit = find(&sb, 2, "pending", "deposit").await;
    let before1 = dump(&sb, 1).await;
    let before2 = dump(&sb, 2).await;
    for (key, id) in [
        (AGENT_KEY, theirs["id"].clone()),
        (AGENT_KEY, their_deposit["id"].clone()),
        (AGENT2_KEY, mine["id"].clone()),
        (AGENT3_KEY, mine["id"].clone()),
        (AGENT_KEY, json!("p2p_999999")),
        (AGENT_KEY, json!(mine["orderId"])), // an orderId is not a payment id
    ] {
        for (doc, field) in [
            (ACCEPT, "acceptWithdrawal"),
            (CANCEL, "cancelWithdrawal"),
            (RECEIVED, "markDepositAsReceived"),
        ] {
            let v = mutate(&sb, key, doc, json!({"p2pPayment": id})).await;
            assert_refused(&v, field, "NOT_FOUND");
        }
        let v = mutate(
            &sb,
            key,
            PAID,
            json!({"p2pPayment": id, "paymentMethod": "pm_100001"}),
        )
        .await;
        assert_eq!(first_code(&v), "NOT_FOUND", "{v}");
    }
    // Payment methods: unknown, another agent's, deleted.
    let picked = find(&sb, 1, "picked_up", "withdrawal").await;
    for method in ["pm_999999", "pm_200001", "pm_100005"] {
        let v = mutate(
            &sb,
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": picked["id"], "paymentMethod": method}),
        )
        .await;
        assert_refused(&v, "markWithdrawalAsPaid", "NOT_FOUND");
    }
    assert_eq!(dump(&sb, 1).await, before1, "agent 1's orders changed");
    assert_eq!(dump(&sb, 2).await, before2, "agent 2's orders changed");
    // Agent 2 can act on its own order; agent 1's stay as they were.
    let v = mutate(&sb, AGENT2_KEY, ACCEPT, json!({"p2pPayment": theirs["id"]})).await;
    assert_eq!(v, json!({"data": {"acceptWithdrawal": true}}));
    assert_eq!(status_in_dump(&sb, 2, &id_of(&theirs)).await, "picked_up");
    assert_eq!(dump(&sb, 1).await, before1);
}

#[tokio::test]
async fn bad_order_arguments_are_user_errors() {
    let sb = sandbox();
    let picked = find(&sb, 1, "picked_up", "withdrawal").await;
    for vars in [json!({"p2pPayment": ""}), json!({"p2pPayment": "  "})] {
        let v = mutate(&sb, AGENT_KEY, ACCEPT, vars).await;
        assert_refused(&v, "acceptWithdrawal", "BAD_USER_INPUT");
        assert!(
            v["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("'p2pPayment'"),
            "{v}"
        );
    }
    // A receipt is "a receipt URL or reference": only a blank or an overlong one is refused.
    for receipt in ["", "   ", &"r".repeat(2049)] {
        let v = mutate(
            &sb,
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": picked["id"], "paymentMethod": "pm_100001", "receipt": receipt}),
        )
        .await;
        assert_refused(&v, "markWithdrawalAsPaid", "BAD_USER_INPUT");
        assert!(
            v["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("'receipt'"),
            "{v}"
        );
    }
    let v = mutate(
        &sb,
        AGENT_KEY,
        PAID,
        json!({"p2pPayment": picked["id"], "paymentMethod": ""}),
    )
    .await;
    assert_refused(&v, "markWithdrawalAsPaid", "BAD_USER_INPUT");
    // A missing required variable is the engine's BAD_USER_INPUT.
    let v = mutate(&sb, AGENT_KEY, ACCEPT, json!({})).await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT", "{v}");
    assert_eq!(status_in_dump(&sb, 1, &id_of(&picked)).await, "picked_up");
}

#[tokio::test]
async fn update_rates_persists_and_shows_in_profile_and_control_route() {
    let sb = sandbox();
    let seed = control_state(&sb, 1).await;
    assert_eq!(
        seed["rates"],
        json!({"depositRate": "1540.00", "depositMargin": "1.50", "withdrawalRate": "1515.00", "withdrawalMargin": "1.25"})
    );
    let v = mutate(
        &sb,
        AGENT_KEY,
        RATES,
        json!({"depositRate": "1550.25", "withdrawalMargin": "0.75"}),
    )
    .await;
    assert_eq!(v, json!({"data": {"updateRates": true}}));
    let expect = json!({"depositRate": "1550.25", "depositMargin": "1.50", "withdrawalRate": "1515.00", "withdrawalMargin": "0.75"});
    assert_eq!(
        control_state(&sb, 1).await["rates"],
        expect,
        "only the given members change"
    );
    let p = sb.bot(MARGINS, Value::Null).await;
    assert_eq!(p["data"]["profile"]["depositMargin"], "1.50");
    assert_eq!(p["data"]["profile"]["withdrawalMargin"], "0.75");
    // A second update builds on the first (persistence across requests).
    let v = mutate(
        &sb,
        AGENT_KEY,
        RATES,
        json!({"depositMargin": "2", "withdrawalRate": "0"}),
    )
    .await;
    assert_eq!(v, json!({"data": {"updateRates": true}}));
    let expect = json!({"depositRate": "1550.25", "depositMargin": "2", "withdrawalRate": "0", "withdrawalMargin": "0.75"});
    assert_eq!(control_state(&sb, 1).await["rates"], expect);
    assert_eq!(
        sb.bot(MARGINS, Value::Null).await["data"]["profile"]["depositMargin"],
        "2"
    );
    // Other agents keep theirs; agent 3 (no rates) can set some.
    assert_eq!(control_state(&sb, 2).await["rates"]["depositRate"], "15.55");
    let v = mutate(&sb, AGENT3_KEY, RATES, json!({"withdrawalMargin": "1.10"})).await;
    assert_eq!(v, json!({"data": {"updateRates": true}}));
    let s3 = control_state(&sb, 3).await;
    assert_eq!(
        s3["rates"],
        json!({"depositRate": null, "depositMargin": null, "withdrawalRate": null, "withdrawalMargin": "1.10"})
    );

    // Refusals change nothing.
    for (vars, needle) in [
        (json!({}), "at least one"),
        (json!({"depositRate": null}), "at least one"),
        (json!({"depositRate": "-1.00"}), "'depositRate'"),
        (
            json!({"withdrawalRate": "10", "depositMargin": "-0.5"}),
            "'depositMargin'",
        ),
        (
            json!({"withdrawalMargin": "9".repeat(40)}),
            "'withdrawalMargin'",
        ),
        // A JSON number is a Decimal too (the SDKs send both), but not in exponent form.
        (json!({"depositRate": 1e300}), "decimal"),
        (json!({"depositRate": "1e3"}), "decimal"),
        (json!({"depositRate": "abc"}), "decimal"),
        (json!({"depositRate": true}), "decimal"),
    ] {
        let v = mutate(&sb, AGENT_KEY, RATES, vars.clone()).await;
        assert_eq!(first_code(&v), "BAD_USER_INPUT", "{vars}: {v}");
        let msg = v["errors"][0]["message"].as_str().unwrap();
        assert!(msg.contains(needle), "{vars}: {msg}");
        assert_eq!(
            control_state(&sb, 1).await["rates"],
            expect,
            "{vars} changed the rates"
        );
    }
}

#[tokio::test]
async fn liquidity_by_id_and_by_type_persists() {
    let sb = sandbox();
    let seed = control_state(&sb, 1).await["paymentMethods"].clone();
    assert_eq!(seed.as_array().unwrap().len(), 5);
    let v = mutate(
        &sb,
        AGENT_KEY,
        LIQUIDITY,
        json!({"paymentMethod": "pm_100003", "amountLocal": "98765.40"}),
    )
    .await;
    assert_eq!(
        v,
        json!({"data": {"updatePaymentMethodLiquidity": {
            "id": "pm_100003", "value": "+254712345678", "displayValue": "M-Pesa ****5678",
            "localCurrencyAvailable": "98765.40", "deleted": false, "ownership": "personal",
            "designation": "both", "instant": true
        }}})
    );
    let v = mutate(
        &sb,
        AGENT_KEY,
        LIQUIDITY,
        json!({"paymentMethodType": "opay", "amountLocal": "0"}),
    )
    .await;
    assert_eq!(
        v["data"]["updatePaymentMethodLiquidity"]["id"], "pm_100002",
        "{v}"
    );
    assert_eq!(
        v["data"]["updatePaymentMethodLiquidity"]["localCurrencyAvailable"],
        "0"
    );
    // Both persist; the others keep the seed.
    let now = control_state(&sb, 1).await["paymentMethods"].clone();
    let avail = |list: &Value, id: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == id)
            .unwrap()["localCurrencyAvailable"]
            .clone()
    };
    assert_eq!(avail(&now, "pm_100003"), "98765.40");
    assert_eq!(avail(&now, "pm_100002"), "0");
    assert_eq!(avail(&now, "pm_100001"), avail(&seed, "pm_100001"));
    assert_eq!(avail(&now, "pm_100001"), "2500000.00");
    // Agent 2's methods are untouched, and agent 1 cannot reach them.
    assert_eq!(
        avail(&control_state(&sb, 2).await["paymentMethods"], "pm_200001"),
        "4200.00"
    );

    for (vars, code) in [
        (json!({"amountLocal": "1.00"}), "BAD_USER_INPUT"),
        (
            json!({"paymentMethod": "pm_100001", "paymentMethodType": "opay", "amountLocal": "1.00"}),
            "BAD_USER_INPUT",
        ),
        (
            json!({"paymentMethod": "pm_100001", "amountLocal": "-1.00"}),
            "BAD_USER_INPUT",
        ),
        (
            json!({"paymentMethodType": "opay", "amountLocal": -5}),
            "BAD_USER_INPUT",
        ),
        (
            json!({"paymentMethod": "", "amountLocal": "1.00"}),
            "BAD_USER_INPUT",
        ),
        (json!({"paymentMethod": "pm_100001"}), "BAD_USER_INPUT"),
        (
            json!({"paymentMethod": "pm_999999", "amountLocal": "1.00"}),
            "NOT_FOUND",
        ),
        (
            json!({"paymentMethod": "pm_200001", "amountLocal": "1.00"}),
            "NOT_FOUND",
        ),
        (
            json!({"paymentMethod": "pm_100005", "amountLocal": "1.00"}),
            "NOT_FOUND",
        ),
        (
            json!({"paymentMethodType": "airtel_money", "amountLocal": "1.00"}),
            "NOT_FOUND",
        ),
        (
            json!({"paymentMethodType": "Bank_Transfer", "amountLocal": "1.00"}),
            "NOT_FOUND",
        ),
    ] {
        let v = mutate(&sb, AGENT_KEY, LIQUIDITY, vars.clone()).await;
        assert_eq!(first_code(&v), code, "{vars}: {v}");
        // null data (a bad variable: nothing ran) or a null field (the resolver refused).
        assert!(
            v["data"].is_null() || v["data"] == json!({"updatePaymentMethodLiquidity": null}),
            "{vars}: {v}"
        );
        assert_eq!(
            control_state(&sb, 1).await["paymentMethods"],
            now,
            "{vars} changed a method"
        );
    }
    // Agent 3 has no methods at all.
    let v = mutate(
        &sb,
        AGENT3_KEY,
        LIQUIDITY,
        json!({"paymentMethodType": "mpesa", "amountLocal": "1"}),
    )
    .await;
    assert_eq!(first_code(&v), "NOT_FOUND");
}

#[tokio::test]
async fn reset_restores_the_seed() {
    let sb = sandbox();
    let seed_orders = [dump(&sb, 1).await, dump(&sb, 2).await];
    let seed_state = [
        control_state(&sb, 1).await,
        control_state(&sb, 2).await,
        control_state(&sb, 3).await,
    ];
    let seed_profile = sb
        .bot(
            "{ profile { depositMargin withdrawalMargin depositsCompleted withdrawalsCompleted } }",
            Value::Null,
        )
        .await;
    let change_everything = || async {
        let w = find(&sb, 1, "pending", "withdrawal").await;
        mutate(&sb, AGENT_KEY, ACCEPT, json!({"p2pPayment": w["id"]})).await;
        let d = find(&sb, 1, "pending", "deposit").await;
        mutate(&sb, AGENT_KEY, RECEIVED, json!({"p2pPayment": d["id"]})).await;
        mutate(&sb, AGENT_KEY, RATES, json!({"depositMargin": "9.99"})).await;
        mutate(
            &sb,
            AGENT_KEY,
            LIQUIDITY,
            json!({"paymentMethod": "pm_100001", "amountLocal": "1.00"}),
        )
        .await;
        let w2 = find(&sb, 2, "pending", "withdrawal").await;
        mutate(&sb, AGENT2_KEY, CANCEL, json!({"p2pPayment": w2["id"]})).await;
        mutate(&sb, AGENT3_KEY, RATES, json!({"depositRate": "1"})).await;
    };
    change_everything().await;
    assert_ne!(dump(&sb, 1).await, seed_orders[0]);
    assert_ne!(dump(&sb, 2).await, seed_orders[1]);
    assert_ne!(control_state(&sb, 1).await, seed_state[0]);
    assert_ne!(control_state(&sb, 3).await, seed_state[2]);

    // A DELETE from a foreign origin is refused and resets nothing.
    let r = delete(&sb, "/__sandbox/state", Some("http://evil.example")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_ne!(dump(&sb, 1).await, seed_orders[0]);
    // An unknown agent: 404, nothing reset.
    let r = delete(&sb, "/__sandbox/state?agent=9", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_ne!(dump(&sb, 1).await, seed_orders[0]);

    // One agent only.
    let r = delete(
        &sb,
        "/__sandbox/state?agent=2",
        Some("http://127.0.0.1:8787"),
    )
    .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(dump(&sb, 2).await, seed_orders[1]);
    assert_ne!(
        dump(&sb, 1).await,
        seed_orders[0],
        "agent 1 must keep its changes"
    );

    // Everything.
    let log_len = sb.state.log_entries(None).len();
    let r = delete(&sb, "/__sandbox/state", None).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(dump(&sb, 1).await, seed_orders[0]);
    assert_eq!(dump(&sb, 2).await, seed_orders[1]);
    for (i, s) in seed_state.iter().enumerate() {
        assert_eq!(&control_state(&sb, i as u8 + 1).await, s);
    }
    let profile = sb
        .bot(
            "{ profile { depositMargin withdrawalMargin depositsCompleted withdrawalsCompleted } }",
            Value::Null,
        )
        .await;
    assert_eq!(profile, seed_profile);
    assert_eq!(
        sb.state.log_entries(None).len(),
        log_len + 1,
        "the reset leaves the log alone"
    );

    // The same mutations work again after the reset.
    change_everything().await;
}

#[tokio::test]
async fn control_state_route_shape_and_errors() {
    let sb = sandbox();
    let s = control_state(&sb, 1).await;
    assert_eq!(s["agent"], "agent-1");
    let m = &s["paymentMethods"][0];
    assert_eq!(
        m,
        &json!({"id": "pm_100001", "value": "0123456789", "displayValue": "GTBank ****6789",
                "localCurrencyAvailable": "2500000.00", "deleted": false, "ownership": "personal",
                "designation": "both", "instant": false, "paymentMethodType": "bank_transfer",
                "currency": "NGN"})
    );
    assert_eq!(control_state(&sb, 3).await["paymentMethods"], json!([]));
    assert_eq!(
        sb.get("/__sandbox/state").await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        sb.get("/__sandbox/state?agent=0").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        sb.get("/__sandbox/state?agent=agent-2").await.json()["agent"],
        "agent-2"
    );
    // Loopback-only CORS, like the other control routes.
    for (origin, allowed) in [
        ("http://localhost:5173", true),
        ("http://evil.example", false),
    ] {
        let r = sb
            .send(
                Request::get("/__sandbox/state?agent=1")
                    .header("origin", origin)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(
            r.header("access-control-allow-origin").is_some(),
            allowed,
            "{origin}"
        );
        let r = sb
            .send(
                Request::options("/__sandbox/state")
                    .header("origin", origin)
                    .header("access-control-request-method", "DELETE")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(
            r.header("access-control-allow-origin").is_some(),
            allowed,
            "preflight {origin}"
        );
    }
}

#[tokio::test]
async fn drop_after_applies_then_resets_the_connection() {
    let running = settlement_sandbox::start(Options {
        port: 0,
        log_to_stderr: false,
        ..Options::default()
    })
    .await
    .unwrap();
    let addr = running.url.trim_start_matches("http://").to_string();
    let sb = sandbox_with(settlement_sandbox::Config::for_tests()); // only for `find` on the seed
    let order = find(&sb, 1, "pending", "withdrawal").await;
    let id = id_of(&order);
    let status_now = || {
        let state = running.state.clone();
        let id = id.clone();
        async move {
            state.store.agents[0]
                .state()
                .orders
                .iter()
                .find(|o| o.id.0 == id)
                .unwrap()
                .status
                .as_str()
        }
    };
    assert_eq!(status_now().await, "pending");
    let body = json!({"query": ACCEPT, "operationName": "AcceptWithdrawal", "variables": {"p2pPayment": id}}).to_string();
    let req = post_request(
        &addr,
        BOT,
        Some(AGENT_KEY),
        &[("x-sandbox-fault", "drop-after"), ("x-sandbox-tag", "da-1")],
        &body,
    );
    let (bytes, err) = raw_http(&addr, &req).await;
    assert!(
        bytes.is_empty(),
        "no response may be sent, got {:?}",
        String::from_utf8_lossy(&bytes)
    );
    assert_eq!(
        err.as_ref().map(std::io::Error::kind),
        Some(std::io::ErrorKind::ConnectionReset),
        "expected a connection reset, got {err:?}"
    );
    // ...and yet the mutation took effect: orderHistory over the wire says picked_up.
    assert_eq!(status_now().await, "picked_up");
    let q = json!({"query": ORDER, "variables": {"f": {"orderId": order["orderId"]}}}).to_string();
    let (bytes, err) = raw_http(&addr, &post_request(&addr, BOT, Some(AGENT_KEY), &[], &q)).await;
    assert!(err.is_none());
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains("\"status\":\"picked_up\""), "{text}");
    // Sent again (what a blind retry would do): now an illegal transition.
    let (bytes, _) = raw_http(
        &addr,
        &post_request(&addr, BOT, Some(AGENT_KEY), &[], &body),
    )
    .await;
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("INVALID_TRANSITION"), "{text}");
    // The log records the dropped mutation: status 0, operation and variables, no key.
    let log = running.state.log_entries(Some("da-1"));
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].status, 0);
    assert_eq!(log[0].fault.as_deref(), Some("drop-after"));
    assert!(log[0].fault_applied);
    assert_eq!(log[0].operation_name.as_deref(), Some("AcceptWithdrawal"));
    assert_eq!(log[0].variables, json!({"p2pPayment": id}));
    assert!(log[0].has_authorization);
    // fail-first: the first is dropped (and applied), the second answered.
    let rates = |m: &str| json!({"query": RATES, "variables": {"withdrawalMargin": m}}).to_string();
    let hdrs = [
        ("x-sandbox-fault", "drop-after;fail-first=1"),
        ("x-sandbox-tag", "da-2"),
    ];
    let (bytes, err) = raw_http(
        &addr,
        &post_request(&addr, BOT, Some(AGENT_KEY), &hdrs, &rates("3.30")),
    )
    .await;
    assert!(bytes.is_empty());
    assert_eq!(
        err.map(|e| e.kind()),
        Some(std::io::ErrorKind::ConnectionReset)
    );
    let margin = || {
        running.state.store.agents[0]
            .state()
            .rates
            .withdrawal_margin
            .clone()
            .unwrap()
            .0
    };
    assert_eq!(margin(), "3.30");
    let (bytes, _) = raw_http(
        &addr,
        &post_request(&addr, BOT, Some(AGENT_KEY), &hdrs, &rates("3.40")),
    )
    .await;
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 200") && text.contains("\"updateRates\":true"),
        "{text}"
    );
    assert_eq!(margin(), "3.40");
    // A refused mutation under drop-after: nothing applied, connection still reset.
    let (bytes, err) = raw_http(
        &addr,
        &post_request(
            &addr,
            BOT,
            Some(AGENT_KEY),
            &[("x-sandbox-fault", "drop-after")],
            &rates("-1"),
        ),
    )
    .await;
    assert!(bytes.is_empty());
    assert_eq!(
        err.map(|e| e.kind()),
        Some(std::io::ErrorKind::ConnectionReset)
    );
    assert_eq!(margin(), "3.40");
    running.shutdown().await;
}

#[tokio::test]
async fn drop_after_in_process_applies_and_answers_502() {
    let sb = sandbox();
    let order = find(&sb, 1, "pending", "deposit").await;
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": RECEIVED, "variables": {"p2pPayment": order["id"]}}),
            &[("x-sandbox-fault", "drop-after")],
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY);
    assert_eq!(r.json()["errors"][0]["extensions"]["code"], "SANDBOX_FAULT");
    assert_eq!(status_in_dump(&sb, 1, &id_of(&order)).await, "completed");
    // Malformed combinations are refused before anything runs.
    let other = find(&sb, 1, "pending", "deposit").await;
    for spec in [
        "drop-after;drop",
        "drop-after;status=503",
        "drop-after;partial",
        "drop-after=1",
    ] {
        let r = sb
            .gql_with(
                BOT,
                Some(AGENT_KEY),
                json!({"query": RECEIVED, "variables": {"p2pPayment": other["id"]}}),
                &[("x-sandbox-fault", spec)],
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{spec}");
        assert_eq!(
            r.json()["errors"][0]["extensions"]["code"],
            "BAD_FAULT_SPEC"
        );
    }
    assert_eq!(status_in_dump(&sb, 1, &id_of(&other)).await, "pending");
}

#[tokio::test]
async fn no_key_in_any_response_or_log_line() {
    let sb = sandbox();
    let w = find(&sb, 1, "pending", "withdrawal").await;
    let d = find(&sb, 1, "pending", "deposit").await;
    let calls: Vec<(&str, &str, Value)> = vec![
        (AGENT_KEY, ACCEPT, json!({"p2pPayment": w["id"]})),
        (
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": w["id"], "paymentMethod": "pm_100001", "receipt": "https://r.example/1"}),
        ),
        (AGENT_KEY, ACCEPT, json!({"p2pPayment": w["id"]})),
        (AGENT_KEY, RECEIVED, json!({"p2pPayment": d["id"]})),
        (AGENT_KEY, CANCEL, json!({"p2pPayment": d["id"]})),
        (AGENT2_KEY, ACCEPT, json!({"p2pPayment": w["id"]})),
        (AGENT_KEY, RATES, json!({"depositRate": "1.5"})),
        (AGENT_KEY, RATES, json!({})),
        (
            AGENT_KEY,
            LIQUIDITY,
            json!({"paymentMethodType": "mpesa", "amountLocal": "2"}),
        ),
        // A key pasted where an id, a receipt, a type or a decimal belongs.
        (AGENT_KEY, ACCEPT, json!({"p2pPayment": AGENT_KEY})),
        (
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": w["id"], "paymentMethod": AGENT2_KEY, "receipt": format!("https://x.example/?k={AGENT_KEY}")}),
        ),
        (
            AGENT_KEY,
            PAID,
            json!({"p2pPayment": w["id"], "paymentMethod": "pm_100001", "receipt": AGENT_KEY}),
        ),
        (
            AGENT_KEY,
            LIQUIDITY,
            json!({"paymentMethodType": AGENT_KEY, "amountLocal": "2"}),
        ),
        (
            AGENT_KEY,
            LIQUIDITY,
            json!({"paymentMethod": "pm_100001", "amountLocal": AGENT_KEY}),
        ),
        (AGENT_KEY, RATES, json!({"withdrawalRate": AGENT3_KEY})),
        (AGENT_KEY, RATES, json!({"withdrawalRate": [AGENT3_KEY]})),
    ];
    for (key, doc, vars) in &calls {
        let r = sb
            .gql_with(
                BOT,
                Some(key),
                json!({"query": doc, "variables": vars}),
                &[("x-sandbox-tag", "nokey")],
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        r.assert_no_key();
    }
    // A key inside the document itself, the operation name's neighbour, and a tag.
    let doc = format!("mutation M {{ acceptWithdrawal(p2pPayment: \"{AGENT_KEY}\") }}");
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": doc}),
            &[("x-sandbox-tag", "nokey")],
        )
        .await;
    r.assert_no_key();
    assert_eq!(r.json()["errors"][0]["extensions"]["code"], "NOT_FOUND");

    let log = sb.get("/__sandbox/requests?tag=nokey").await;
    assert_eq!(log.json().as_array().unwrap().len(), calls.len() + 1);
    let text = log.text();
    for key in ALL_KEYS {
        assert!(!text.contains(key), "the request log holds a key: {text}");
    }
    assert!(
        text.contains("[redacted]"),
        "pasted keys are redacted, not dropped: {text}"
    );
    // Mutations are logged with their operation name and variables.
    let entries = log.json();
    assert_eq!(
        entries[0]["operationName"],
        Value::Null,
        "no operationName was sent"
    );
    assert!(entries[0]["query"]
        .as_str()
        .unwrap()
        .contains("mutation AcceptWithdrawal"));
    assert_eq!(entries[0]["variables"], json!({"p2pPayment": w["id"]}));
    assert_eq!(entries[9]["variables"], json!({"p2pPayment": "[redacted]"}));
    // A tag with a key in it is redacted too.
    let tag = format!("t-{AGENT_KEY}");
    let r = sb
        .gql_with(
            BOT,
            Some(AGENT_KEY),
            json!({"query": MARGINS}),
            &[("x-sandbox-tag", &tag)],
        )
        .await;
    r.assert_no_key();
    let all = sb.get("/__sandbox/requests").await.text();
    for key in ALL_KEYS {
        assert!(!all.contains(key), "the request log holds a key");
    }
    // The control route never shows a key either.
    for a in 1..=3 {
        control_state(&sb, a).await;
    }
}

#[tokio::test]
async fn a_refused_mutation_is_null_and_the_others_still_run() {
    let sb = sandbox();
    let done = find(&sb, 1, "completed", "withdrawal").await;
    let doc =
        "mutation Two($id: ID!) { first: acceptWithdrawal(p2pPayment: $id) ...F __typename } \
               fragment F on Mutation { rates: updateRates(depositMargin: \"4.00\") }";
    let r = sb
        .gql(BOT, Some(AGENT_KEY), doc, json!({"id": done["id"]}))
        .await;
    // Spec null propagation: the failed nullable field is null, in selection order (the raw
    // text: serde_json's Value would sort the keys).
    assert!(
        r.text().starts_with(
            r#"{"data":{"first":null,"rates":true,"__typename":"Mutation"},"errors":"#
        ),
        "{}",
        r.text()
    );
    let v = r.json();
    assert_eq!(v["errors"][0]["path"], json!(["first"]));
    assert_eq!(first_code(&v), "INVALID_TRANSITION");
    assert_eq!(
        control_state(&sb, 1).await["rates"]["depositMargin"],
        "4.00"
    );
    // A failing non-null query field still nulls the whole data.
    let v = sb
        .bot(
            "{ profile { id } h: orderHistory(page: 0) { pagination { total } } }",
            Value::Null,
        )
        .await;
    assert_eq!(v["data"], Value::Null, "{v}");
}

/// The example orders the README names (the newest of each kind), so the docs stay true.
#[tokio::test]
async fn documented_fixture_orders() {
    let sb = sandbox();
    for (agent, status, ty, id) in [
        (1, "pending", "withdrawal", "p2p_001473"),
        (1, "picked_up", "withdrawal", "p2p_001402"),
        (1, "paid", "withdrawal", "p2p_001569"),
        (1, "completed", "withdrawal", "p2p_001600"),
        (1, "canceled", "withdrawal", "p2p_001481"),
        (1, "pending", "deposit", "p2p_001577"),
        (1, "picked_up", "deposit", "p2p_001563"),
        (1, "paid", "deposit", "p2p_001573"),
        (1, "completed", "deposit", "p2p_001599"),
        (1, "canceled", "deposit", "p2p_001547"),
        (2, "pending", "withdrawal", "p2p_200031"),
        (2, "pending", "deposit", "p2p_200035"),
    ] {
        assert_eq!(
            find(&sb, agent, status, ty).await["id"],
            id,
            "{agent} {status} {ty}"
        );
    }
    let counts = |orders: &[Value], status: &str, ty: &str| {
        orders
            .iter()
            .filter(|o| o["status"] == status && o["paymentType"] == ty)
            .count()
    };
    let one = dump(&sb, 1).await;
    assert_eq!(
        [
            counts(&one, "pending", "withdrawal"),
            counts(&one, "picked_up", "withdrawal"),
            counts(&one, "pending", "deposit"),
            counts(&one, "picked_up", "deposit"),
            counts(&one, "paid", "deposit"),
        ],
        [8, 6, 22, 19, 20]
    );
}

#[tokio::test]
async fn post_orders_creates_a_pending_order_at_the_head_of_the_agents_history() {
    let sb = sandbox();
    let post = |uri: &'static str, origin: Option<&'static str>| {
        let mut b = Request::post(uri);
        if let Some(o) = origin {
            b = b.header("origin", o);
        }
        sb.send(b.body(Body::empty()).unwrap())
    };
    let r = post("/__sandbox/orders?agent=1&type=withdrawal", None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    let created = r.json();
    assert_eq!(created["status"], "pending");
    assert_eq!(created["paymentType"], "withdrawal");
    let page = sb
        .bot(
            "{ orderHistory(page: 1, perPage: 2, filter: {status: pending}) { data { id status } pagination { total } } }",
            json!({}),
        )
        .await;
    assert_eq!(page["data"]["orderHistory"]["data"][0]["id"], created["id"]);
    assert_eq!(page["data"]["orderHistory"]["pagination"]["total"], 31);
    // It can be accepted like a seeded one.
    let accepted = mutate(&sb, AGENT_KEY, ACCEPT, json!({"p2pPayment": created["id"]})).await;
    assert_eq!(accepted["data"]["acceptWithdrawal"], true, "{accepted}");
    // Refused: a foreign origin, no agent, an unknown agent, an unknown type.
    let r = post("/__sandbox/orders?agent=1", Some("http://evil.example")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        post("/__sandbox/orders", None).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        post("/__sandbox/orders?agent=9", None).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        post("/__sandbox/orders?agent=1&type=gift", None)
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    // Agent 3 has no order until one is created.
    let r = post("/__sandbox/orders?agent=3", Some("http://127.0.0.1:1")).await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(dump(&sb, 3).await.len(), 1);
}

#[tokio::test]
async fn new_order_every_gives_agent_1_new_pending_orders_over_time() {
    let running = settlement_sandbox::start(Options {
        port: 0,
        log_to_stderr: false,
        new_order_every: Some(1),
        ..Options::default()
    })
    .await
    .unwrap();
    let count = || running.state.store.agents[0].state().orders.len();
    let before = count();
    // Generous: two orders within 20 s on a loaded machine (one a second when idle).
    for _ in 0..200 {
        if count() >= before + 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(count() >= before + 2, "{} new orders", count() - before);
    let head = running.state.store.agents[0].state().orders[0].clone();
    assert_eq!(head.status.as_str(), "pending");
    running.shutdown().await;
}
