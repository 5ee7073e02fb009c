use axum::http::StatusCode;
use serde_json::{json, Value};
use settlement_sandbox::data::{AGENT3_KEY, AGENT_KEY};
use settlement_sandbox::Config;

use crate::util::*;

const PROFILE_FIELDS: &str = "id email accountBalance escrowBalance bonusEarnings depositAddress \
    verificationStatus autoUpdateDepositRate autoUpdateWithdrawalRate creditLine usedCreditLine \
    depositMargin withdrawalMargin averageDepositRate averageWithdrawalRate depositsCompleted \
    withdrawalsCompleted totalDepositFiatAmount totalDepositUsdAmount totalWithdrawalFiatAmount \
    totalWithdrawalUsdAmount enforceReceiptUpload apiKey totp { enabled confirmedAt }";

const ORDER_FIELDS: &str = "id status paymentType exchangeRate exchangeRateMinusSurcharge orderId source \
    instant createdAt expiresAt expiresAtSecs reassigning reassignAfter reassignAfterSecs agentCutOfFees \
    fxSpreadRevenue paymentMethod amountLocal amountUsd currency";

#[tokio::test]
async fn agent1_profile_has_the_documented_values() {
    let sb = sandbox();
    let v = sb
        .bot(
            &format!("{{ profile {{ {PROFILE_FIELDS} }} }}"),
            Value::Null,
        )
        .await;
    assert!(v.get("errors").is_none(), "{v}");
    let expected = json!({
        "id": "agent-1",
        "email": "amara.okafor@example.com",
        "accountBalance": "12500.50",
        "escrowBalance": "830.00",
        "bonusEarnings": "42.75",
        "depositAddress": "0x7a3B9c1D2e4F5a6B7c8D9e0F1a2B3c4D5e6F7a8B",
        "verificationStatus": "verified",
        "autoUpdateDepositRate": true,
        "autoUpdateWithdrawalRate": false,
        "creditLine": "5000.00",
        "usedCreditLine": "1250.00",
        "depositMargin": "1.50",
        "withdrawalMargin": "1.25",
        "averageDepositRate": "1532.40",
        "averageWithdrawalRate": "1518.75",
        "depositsCompleted": 1024,
        "withdrawalsCompleted": 376,
        "totalDepositFiatAmount": "48211500.00",
        "totalDepositUsdAmount": "31462.18",
        "totalWithdrawalFiatAmount": "17650250.00",
        "totalWithdrawalUsdAmount": "11621.90",
        "enforceReceiptUpload": true,
        "apiKey": "SBX-SECK_************0001",
        "totp": {"enabled": true, "confirmedAt": "2025-08-14T09:30:00Z"}
    });
    assert_eq!(v["data"]["profile"], expected);
}

#[tokio::test]
async fn nested_selection_and_other_agents() {
    let sb = sandbox();
    let v = sb
        .bot("{ profile { totp { enabled } } }", Value::Null)
        .await;
    assert_eq!(v["data"], json!({"profile": {"totp": {"enabled": true}}}));
    let r = sb
        .gql(
            BOT,
            Some(AGENT3_KEY),
            &format!("{{ profile {{ {PROFILE_FIELDS} }} }}"),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    r.assert_no_key();
    let p = &r.json()["data"]["profile"];
    assert_eq!(p["id"], "agent-3");
    assert_eq!(p["verificationStatus"], "unverified");
    assert_eq!(p["depositAddress"], Value::Null);
    assert_eq!(p["totp"], json!({"enabled": false, "confirmedAt": null}));
    let r = sb
        .gql(
            BOT,
            Some(settlement_sandbox::data::AGENT2_KEY),
            "{ profile { id email } orderHistory(page: 1) { pagination { total } } }",
            Value::Null,
        )
        .await;
    let v = r.json();
    assert_eq!(v["data"]["profile"]["id"], "agent-2");
    assert_ne!(v["data"]["profile"]["email"], "amara.okafor@example.com");
    assert_eq!(v["data"]["orderHistory"]["pagination"]["total"], 35);
}

/// Agent 1's orders as the sandbox dumps them (independent of the GraphQL filter code).
async fn dump(sb: &Sandbox) -> Vec<Value> {
    let r = sb.get("/__sandbox/orders?agent=1").await;
    assert_eq!(r.status, StatusCode::OK);
    r.json().as_array().unwrap().clone()
}

/// Expected ids for a filter, computed here over the dump and sorted by createdAt desc, id desc.
fn expected_ids(orders: &[Value], filter: &Value) -> Vec<String> {
    let mut hits: Vec<&Value> = orders
        .iter()
        .filter(|o| {
            let date = &o["createdAt"].as_str().unwrap()[..10];
            filter.get("orderId").is_none_or(|v| o["orderId"] == *v)
                && filter.get("status").is_none_or(|v| o["status"] == *v)
                && filter
                    .get("paymentMethod")
                    .is_none_or(|v| o["paymentMethod"] == *v)
                && filter
                    .get("dateFrom")
                    .is_none_or(|v| date >= v.as_str().unwrap())
                && filter
                    .get("dateTo")
                    .is_none_or(|v| date <= v.as_str().unwrap())
        })
        .collect();
    hits.sort_by(|a, b| {
        let ka = (a["createdAt"].as_str().unwrap(), a["id"].as_str().unwrap());
        let kb = (b["createdAt"].as_str().unwrap(), b["id"].as_str().unwrap());
        kb.cmp(&ka)
    });
    hits.iter()
        .map(|o| o["id"].as_str().unwrap().to_string())
        .collect()
}

const HISTORY: &str = "query History($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) {
  orderHistory(page: $page, perPage: $perPage, filter: $filter) { data { id } pagination { page perPage total } }
}";

/// Every id the API returns for a filter, walking all pages.
async fn all_ids(sb: &Sandbox, filter: &Value, per_page: i64) -> (Vec<String>, i64) {
    let mut ids = Vec::new();
    let mut total = -1;
    for page in 1.. {
        let v = sb
            .bot(
                HISTORY,
                json!({"page": page, "perPage": per_page, "filter": filter}),
            )
            .await;
        assert!(v.get("errors").is_none(), "{v}");
        let h = &v["data"]["orderHistory"];
        assert_eq!(h["pagination"]["page"], page);
        assert_eq!(h["pagination"]["perPage"], per_page);
        let t = h["pagination"]["total"].as_i64().unwrap();
        assert!(
            total == -1 || total == t,
            "total must not change between pages"
        );
        total = t;
        let data = h["data"].as_array().unwrap();
        ids.extend(data.iter().map(|o| o["id"].as_str().unwrap().to_string()));
        if data.len() < per_page as usize {
            break;
        }
    }
    (ids, total)
}

async fn check_filter(sb: &Sandbox, orders: &[Value], filter: Value) -> usize {
    let expected = expected_ids(orders, &filter);
    let (ids, total) = all_ids(sb, &filter, 100).await;
    assert_eq!(total as usize, expected.len(), "total for {filter}");
    assert_eq!(ids, expected, "ids for {filter}");
    expected.len()
}

#[tokio::test]
async fn dump_has_the_promised_shape() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    assert_eq!(orders.len(), 1600);
    let mut days = std::collections::BTreeSet::new();
    let mut methods = std::collections::BTreeSet::new();
    let mut statuses = std::collections::BTreeSet::new();
    let mut types = std::collections::BTreeSet::new();
    let mut currencies = std::collections::BTreeSet::new();
    for o in &orders {
        for f in ORDER_FIELDS.split_whitespace() {
            assert!(
                o.as_object().unwrap().contains_key(f),
                "field {f} missing in dump"
            );
        }
        let date = o["createdAt"].as_str().unwrap();
        assert!(
            ("2025-09-01".."2026-11-01").contains(&&date[..10]),
            "{date}"
        );
        days.insert(date[..10].to_string());
        methods.insert(o["paymentMethod"].as_str().unwrap().to_string());
        statuses.insert(o["status"].as_str().unwrap().to_string());
        types.insert(o["paymentType"].as_str().unwrap().to_string());
        currencies.insert(o["currency"].as_str().unwrap().to_string());
        assert!(o["id"].as_str().unwrap().starts_with("p2p_"));
        assert!(o["orderId"].as_str().unwrap().starts_with("ORD-20"));
        for dec in ["amountUsd", "amountLocal", "exchangeRate"] {
            let s = o[dec].as_str().unwrap();
            assert!(
                s.split_once('.').is_some_and(|(_, f)| f.len() == 2),
                "{dec}={s}"
            );
        }
    }
    assert!(days.len() >= 400, "{} distinct days", days.len());
    assert!(methods.len() >= 4, "{methods:?}");
    assert_eq!(statuses.len(), 5, "{statuses:?}");
    assert_eq!(types.len(), 2);
    assert_eq!(
        currencies.into_iter().collect::<Vec<_>>(),
        ["GHS", "KES", "NGN"]
    );
    let completed = orders.iter().filter(|o| o["status"] == "completed").count();
    assert!(completed > 800, "most orders are completed");
}

#[tokio::test]
async fn unfiltered_history_is_sorted_and_counts_everything() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let v = sb
        .bot(
            "{ orderHistory(page: 1) { data { id } pagination { page perPage total } } }",
            Value::Null,
        )
        .await;
    let h = &v["data"]["orderHistory"];
    assert_eq!(
        h["pagination"],
        json!({"page": 1, "perPage": 10, "total": 1600})
    );
    let first10: Vec<String> = h["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(first10, expected_ids(&orders, &json!({}))[..10]);
    let (ids, total) = all_ids(&sb, &json!({}), 100).await;
    assert_eq!(total, 1600);
    assert_eq!(ids, expected_ids(&orders, &json!({})));
}

#[tokio::test]
async fn order_fields_match_the_dump() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let v = sb
        .bot(
            &format!("{{ orderHistory(page: 3, perPage: 25) {{ data {{ {ORDER_FIELDS} }} }} }}"),
            Value::Null,
        )
        .await;
    let data = v["data"]["orderHistory"]["data"].as_array().unwrap();
    assert_eq!(data.len(), 25);
    let ids = expected_ids(&orders, &json!({}));
    for (i, o) in data.iter().enumerate() {
        assert_eq!(o["id"].as_str().unwrap(), ids[50 + i]);
        let d = orders.iter().find(|x| x["id"] == o["id"]).unwrap();
        assert_eq!(o, d, "GraphQL order and dump differ");
    }
}

#[tokio::test]
async fn filter_order_id_alone() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let oid = orders[123]["orderId"].clone();
    assert_eq!(check_filter(&sb, &orders, json!({"orderId": oid})).await, 1);
    assert_eq!(
        check_filter(&sb, &orders, json!({"orderId": "ORD-1999-000000"})).await,
        0
    );
}

#[tokio::test]
async fn filter_status_alone_for_every_status() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    for status in ["pending", "picked_up", "paid", "completed", "canceled"] {
        let n = check_filter(&sb, &orders, json!({"status": status})).await;
        assert!(n > 0, "{status}");
    }
    // Inline enum literal works too.
    let v = sb
        .bot(
            "{ orderHistory(page: 1, filter: {status: picked_up}) { pagination { total } } }",
            Value::Null,
        )
        .await;
    assert_eq!(
        v["data"]["orderHistory"]["pagination"]["total"]
            .as_u64()
            .unwrap() as usize,
        expected_ids(&orders, &json!({"status": "picked_up"})).len()
    );
}

#[tokio::test]
async fn filter_dates_alone_are_inclusive() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let n_from = check_filter(&sb, &orders, json!({"dateFrom": "2026-06-15"})).await;
    let n_to = check_filter(&sb, &orders, json!({"dateTo": "2026-06-14"})).await;
    assert_eq!(n_from + n_to, 1600, "dateFrom/dateTo split the set exactly");
    // A single day: dateFrom == dateTo includes that whole UTC day.
    let day = &orders[400]["createdAt"].as_str().unwrap()[..10];
    let n = check_filter(&sb, &orders, json!({"dateFrom": day, "dateTo": day})).await;
    assert!(n >= 1);
    // Inverted range: empty, no error.
    assert_eq!(
        check_filter(
            &sb,
            &orders,
            json!({"dateFrom": "2026-02-01", "dateTo": "2026-01-01"})
        )
        .await,
        0
    );
}

#[tokio::test]
async fn filter_payment_method_alone() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    for m in [
        "bank_transfer",
        "mpesa",
        "mtn_momo",
        "airtel_money",
        "mobile_money",
        "opay",
    ] {
        assert!(
            check_filter(&sb, &orders, json!({"paymentMethod": m})).await > 0,
            "{m}"
        );
    }
    assert_eq!(
        check_filter(&sb, &orders, json!({"paymentMethod": "MPESA"})).await,
        0,
        "exact match"
    );
}

#[tokio::test]
async fn combined_filters_narrow_together() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let combo = json!({"status": "completed", "paymentMethod": "mpesa", "dateFrom": "2026-01-01", "dateTo": "2026-03-31"});
    let n = check_filter(&sb, &orders, combo).await;
    let only_status = expected_ids(&orders, &json!({"status": "completed"})).len();
    assert!(n > 0 && n < only_status);
    let target = &orders[777];
    let all = json!({
        "orderId": target["orderId"], "status": target["status"], "paymentMethod": target["paymentMethod"],
        "dateFrom": &target["createdAt"].as_str().unwrap()[..10], "dateTo": &target["createdAt"].as_str().unwrap()[..10],
    });
    assert_eq!(check_filter(&sb, &orders, all).await, 1);
    let mismatch = json!({"orderId": target["orderId"], "status": if target["status"] == "completed" { "canceled" } else { "completed" }});
    assert_eq!(check_filter(&sb, &orders, mismatch).await, 0);
}

#[tokio::test]
async fn page_boundaries_and_past_the_end() {
    let sb = sandbox();
    let orders = dump(&sb).await;
    let ids = expected_ids(&orders, &json!({}));
    // 1600 = 7 * 228 + 4
    let v = sb.bot(HISTORY, json!({"page": 229, "perPage": 7})).await;
    let h = &v["data"]["orderHistory"];
    let page: Vec<&str> = h["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        page,
        ids[1596..].iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(
        h["pagination"],
        json!({"page": 229, "perPage": 7, "total": 1600})
    );
    let v = sb.bot(HISTORY, json!({"page": 2, "perPage": 7})).await;
    assert_eq!(
        v["data"]["orderHistory"]["data"][0]["id"].as_str().unwrap(),
        ids[7]
    );
    for page in [230, 100_000] {
        let v = sb.bot(HISTORY, json!({"page": page, "perPage": 7})).await;
        assert!(v.get("errors").is_none());
        assert_eq!(v["data"]["orderHistory"]["data"], json!([]));
        assert_eq!(v["data"]["orderHistory"]["pagination"]["total"], 1600);
    }
    // Filtered past-the-end page keeps the filtered total.
    let n = expected_ids(&orders, &json!({"status": "paid"})).len();
    let v = sb
        .bot(
            HISTORY,
            json!({"page": 50, "perPage": 100, "filter": {"status": "paid"}}),
        )
        .await;
    assert_eq!(v["data"]["orderHistory"]["data"], json!([]));
    assert_eq!(
        v["data"]["orderHistory"]["pagination"]["total"]
            .as_u64()
            .unwrap() as usize,
        n
    );
    // Explicit null perPage means the default.
    let v = sb.bot(HISTORY, json!({"page": 1, "perPage": null})).await;
    assert_eq!(v["data"]["orderHistory"]["pagination"]["perPage"], 10);
}

async fn assert_bad_input(sb: &Sandbox, vars: Value, needle: &str) {
    let r = sb.gql(BOT, Some(AGENT_KEY), HISTORY, vars.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "GraphQL errors are HTTP 200");
    let v = r.json();
    assert_eq!(v["data"], Value::Null, "{vars}: {v}");
    assert_eq!(first_code(&v), "BAD_USER_INPUT", "{vars}: {v}");
    let msg = v["errors"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains(needle),
        "{vars}: message {msg:?} should mention {needle:?}"
    );
}

#[tokio::test]
async fn bad_page_and_per_page_are_user_errors() {
    let sb = sandbox();
    assert_bad_input(&sb, json!({"page": 0}), "'page'").await;
    assert_bad_input(&sb, json!({"page": -3, "perPage": 10}), "'page'").await;
    assert_bad_input(&sb, json!({"page": 1, "perPage": 0}), "'perPage'").await;
    assert_bad_input(&sb, json!({"page": 1, "perPage": 101}), "'perPage'").await;
    let v = sb.bot(HISTORY, json!({"page": 1, "perPage": 100})).await;
    assert_eq!(
        v["data"]["orderHistory"]["data"].as_array().unwrap().len(),
        100
    );
}

#[tokio::test]
async fn max_per_page_is_configurable() {
    let sb = sandbox_with(Config {
        max_per_page: 1000,
        ..Config::for_tests()
    });
    let v = sb.bot(HISTORY, json!({"page": 2, "perPage": 1000})).await;
    assert_eq!(
        v["data"]["orderHistory"]["data"].as_array().unwrap().len(),
        600
    );
    assert_bad_input(&sb, json!({"page": 1, "perPage": 1001}), "1000").await;
    let info = sb.get("/__sandbox/info").await.json();
    assert_eq!(info["maxPerPage"], 1000);
}

#[tokio::test]
async fn invalid_dates_are_errors() {
    let sb = sandbox();
    for bad in [
        "2025-02-30",
        "2025-13-01",
        "2026-04-31",
        "not-a-date",
        "2025/09/01",
        "2025-9-1",
    ] {
        assert_bad_input(
            &sb,
            json!({"page": 1, "filter": {"dateFrom": bad}}),
            "ISO8601Date",
        )
        .await;
        assert_bad_input(
            &sb,
            json!({"page": 1, "filter": {"dateTo": bad}}),
            "ISO8601Date",
        )
        .await;
    }
    // Inline literal too.
    let v = sb
        .bot(
            "{ orderHistory(page: 1, filter: {dateTo: \"2026-02-29\"}) { pagination { total } } }",
            Value::Null,
        )
        .await;
    assert_eq!(v["data"], Value::Null);
    assert_eq!(first_code(&v), "BAD_USER_INPUT");
    // A real leap day is fine.
    let v = sb
        .bot(
            HISTORY,
            json!({"page": 1, "filter": {"dateTo": "2024-02-29"}}),
        )
        .await;
    assert!(v.get("errors").is_none());
    assert_eq!(v["data"]["orderHistory"]["pagination"]["total"], 0);
}

#[tokio::test]
async fn unknown_status_value_is_rejected() {
    let sb = sandbox();
    let v = sb
        .bot(
            HISTORY,
            json!({"page": 1, "filter": {"status": "refunded"}}),
        )
        .await;
    assert_eq!(v["data"], Value::Null);
    assert!(v["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("refunded"));
}

#[tokio::test]
async fn agent_without_orders_gets_empty_pages() {
    let sb = sandbox();
    let r = sb
        .gql(BOT, Some(AGENT3_KEY), HISTORY, json!({"page": 1}))
        .await;
    assert_eq!(
        r.json()["data"]["orderHistory"],
        json!({"data": [], "pagination": {"page": 1, "perPage": 10, "total": 0}})
    );
}

#[tokio::test]
async fn withdrawal_info_for_each_symbol() {
    let sb = sandbox();
    let q = "query W($s: String!) { withdrawalInfo(symbol: $s) { symbol name icon networks addressRegex memoRegex } }";
    let cases = [
        (
            "USDC",
            "USD Coin",
            json!(["ETHEREUM", "BASE", "CELO", "OP"]),
        ),
        ("USDT", "Tether USD", json!(["ETHEREUM", "CELO", "OP"])),
        ("CUSD", "Celo Dollar", json!(["CELO"])),
        ("ETH", "Ether", json!(["ETHEREUM", "BASE", "OP"])),
    ];
    for (symbol, name, networks) in cases {
        for asked in [symbol.to_string(), symbol.to_lowercase()] {
            let v = sb.bot(q, json!({"s": asked})).await;
            assert!(v.get("errors").is_none(), "{v}");
            let w = &v["data"]["withdrawalInfo"];
            assert_eq!(w["symbol"], symbol);
            assert_eq!(w["name"], name);
            assert_eq!(w["networks"], networks);
            assert_eq!(w["addressRegex"], "^0x[a-fA-F0-9]{40}$");
            assert_eq!(w["memoRegex"], Value::Null);
            let icon = w["icon"].as_str().unwrap();
            assert_eq!(
                icon,
                format!(
                    "http://127.0.0.1:8787/__sandbox/icons/{}.svg",
                    symbol.to_lowercase()
                )
            );
            let r = sb.get(&icon["http://127.0.0.1:8787".len()..]).await;
            assert_eq!(r.status, StatusCode::OK);
            assert_eq!(r.header("content-type").unwrap(), "image/svg+xml");
        }
    }
    let v = sb.bot(q, json!({"s": "DOGE"})).await;
    assert_eq!(v, json!({"data": {"withdrawalInfo": null}}));
}

#[tokio::test]
async fn introspection_is_on_and_names_match_the_contract() {
    let sb = sandbox();
    let v = sb
        .bot(
            "{ __schema { queryType { fields { name } } } s: __type(name: \"P2PPaymentStatus\") { enumValues { name } } \
             f: __type(name: \"OrderHistoryFilter\") { inputFields { name type { name } } } }",
            Value::Null,
        )
        .await;
    let fields: Vec<&str> = v["data"]["__schema"]["queryType"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["profile", "orderHistory", "withdrawalInfo"]);
    let statuses: Vec<&str> = v["data"]["s"]["enumValues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["pending", "picked_up", "paid", "completed", "canceled"]
    );
    assert_eq!(
        v["data"]["f"]["inputFields"],
        json!([
            {"name": "orderId", "type": {"name": "String"}},
            {"name": "status", "type": {"name": "P2PPaymentStatus"}},
            {"name": "dateFrom", "type": {"name": "ISO8601Date"}},
            {"name": "dateTo", "type": {"name": "ISO8601Date"}},
            {"name": "paymentMethod", "type": {"name": "String"}}
        ])
    );
}

#[tokio::test]
async fn committed_sdl_files_are_current() {
    let (bot, merchant) = settlement_sandbox::schema_sdl();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    if std::env::var_os("UPDATE_SDL").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("bot.graphql"), &bot).unwrap();
        std::fs::write(dir.join("merchant.graphql"), &merchant).unwrap();
    }
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    assert_eq!(
        read("bot.graphql"),
        bot,
        "schema/bot.graphql is stale: rerun with UPDATE_SDL=1"
    );
    assert_eq!(
        read("merchant.graphql"),
        merchant,
        "schema/merchant.graphql is stale: rerun with UPDATE_SDL=1"
    );
}

#[tokio::test]
async fn engine_errors_carry_codes() {
    let sb = sandbox();
    let v = sb.bot("{ profile { id }", Value::Null).await;
    assert_eq!(v["data"], Value::Null);
    assert_eq!(first_code(&v), "GRAPHQL_PARSE_FAILED");
    let v = sb.bot("{ profile { noSuchField } }", Value::Null).await;
    assert_eq!(first_code(&v), "GRAPHQL_VALIDATION_FAILED");
    let v = sb.bot(HISTORY, json!({})).await;
    assert_eq!(
        first_code(&v),
        "BAD_USER_INPUT",
        "missing required variable: {v}"
    );
    let v = sb.bot(HISTORY, json!({"page": "one"})).await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT", "{v}");
}
