//! The merchant's customers as a cursor connection, a customer by email, onchain withdrawals
//! read back and settled (control route), and virtual bank accounts (secret key).

use serde_json::{json, Value};
use settlement_sandbox::data::{MERCHANT_PUBLIC_KEY, MERCHANT_SECRET_KEY};

use crate::util::*;

const CUSTOMER: &str = "mutation C($e: String!, $f: String!) { createCustomer(email: $e, firstName: $f, lastName: \"Otieno\", country: \"2\") { id } }";
const PAGE: &str = "query P($a: String) { account { merchantCustomers(after: $a) { nodes { id email firstName lastName } pageInfo { endCursor hasNextPage } } } }";
const BY_EMAIL: &str =
    "query E($e: String!) { merchantCustomer(email: $e) { id email firstName lastName } }";
const WITHDRAW: &str = "mutation W { withdrawOnchain(address: \"0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D\", amountUsd: \"25.00\", network: \"CELO\") { id status } }";
const READ: &str = "query O($id: ID!) { onchainWithdrawal(id: $id) { quantity symbol network address txhash txhashUrl fee status createdAt } }";
const REQUEST_VBA: &str =
    "mutation V($c: ID!) { requestVirtualBankAccount(customer: $c) { id status } }";
const VBA: &str = "query A($id: ID!) { virtualBankAccount(id: $id) { id accountName accountNumber bankName city country line1 postalCode state routingNumber status createdAt } }";

async fn secret(sb: &Sandbox, query: &str, variables: Value) -> Value {
    sb.merchant(MERCHANT_SECRET_KEY, query, variables).await
}

async fn settle(sb: &Sandbox, body: Value) -> Resp {
    let req = axum::http::Request::post("/__sandbox/onchain/settle")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    sb.send(req).await
}

#[tokio::test]
async fn customers_page_by_cursor_and_by_email() {
    let sb = sandbox();
    let mut ids = vec![];
    for (e, f) in [
        ("a@example.com", "Achieng"),
        ("b@example.com", "Baraka"),
        ("c@example.com", "Chebet"),
    ] {
        let v = secret(&sb, CUSTOMER, json!({"e": e, "f": f})).await;
        ids.push(
            v["data"]["createCustomer"]["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    let v = secret(&sb, PAGE, json!({})).await;
    let page = &v["data"]["account"]["merchantCustomers"];
    assert_eq!(page["nodes"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(page["nodes"][0]["id"], ids[0].as_str());
    assert_eq!(page["pageInfo"]["hasNextPage"], true);
    let after = page["pageInfo"]["endCursor"].as_str().unwrap().to_owned();
    let v = secret(&sb, PAGE, json!({"a": after})).await;
    let page = &v["data"]["account"]["merchantCustomers"];
    assert_eq!(page["nodes"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(page["nodes"][0]["firstName"], "Chebet");
    assert_eq!(page["pageInfo"]["hasNextPage"], false);
    let v = secret(&sb, PAGE, json!({"a": "cur_nobody"})).await;
    assert_eq!(first_code(&v), "BAD_USER_INPUT", "{v}");
    let v = secret(&sb, BY_EMAIL, json!({"e": " B@Example.com "})).await;
    assert_eq!(v["data"]["merchantCustomer"]["id"], ids[1].as_str(), "{v}");
    let v = secret(&sb, BY_EMAIL, json!({"e": "nobody@example.com"})).await;
    assert_eq!(v["data"]["merchantCustomer"], Value::Null, "{v}");
    let v = sb
        .merchant(MERCHANT_PUBLIC_KEY, BY_EMAIL, json!({"e": "a@example.com"}))
        .await;
    assert_eq!(first_code(&v), "FORBIDDEN", "{v}");
}

#[tokio::test]
async fn an_onchain_withdrawal_is_read_back_and_settled() {
    let sb = sandbox();
    let v = secret(&sb, WITHDRAW, json!({})).await;
    let id = v["data"]["withdrawOnchain"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let v = secret(&sb, READ, json!({"id": id})).await;
    let w = &v["data"]["onchainWithdrawal"];
    assert_eq!(
        (&w["status"], &w["quantity"], &w["symbol"], &w["txhash"]),
        (
            &json!("pending"),
            &json!("25.00"),
            &json!("USDC"),
            &Value::Null
        ),
        "{v}"
    );
    assert_eq!(settle(&sb, json!({"withdrawal": id})).await.status, 200);
    let v = secret(&sb, READ, json!({"id": id})).await;
    let w = &v["data"]["onchainWithdrawal"];
    assert_eq!(w["status"], "completed", "{v}");
    assert!(w["txhashUrl"]
        .as_str()
        .unwrap()
        .ends_with(w["txhash"].as_str().unwrap()));
    // Settled once: again is 409; an unknown id 404.
    assert_eq!(
        settle(&sb, json!({"withdrawal": id, "status": "failed"}))
            .await
            .status,
        409
    );
    assert_eq!(
        settle(&sb, json!({"withdrawal": "ow_9999"})).await.status,
        404
    );
    let v = secret(&sb, READ, json!({"id": "ow_9999"})).await;
    assert_eq!(v["data"]["onchainWithdrawal"], Value::Null, "{v}");
}

#[tokio::test]
async fn a_virtual_bank_account_per_customer() {
    let sb = sandbox();
    let v = secret(&sb, CUSTOMER, json!({"e": "d@example.com", "f": "Dalia"})).await;
    let customer = v["data"]["createCustomer"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let v = secret(&sb, REQUEST_VBA, json!({"c": customer})).await;
    let id = v["data"]["requestVirtualBankAccount"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        v["data"]["requestVirtualBankAccount"]["status"], "active",
        "{v}"
    );
    let v = secret(&sb, VBA, json!({"id": id})).await;
    let a = &v["data"]["virtualBankAccount"];
    assert_eq!(
        (&a["accountName"], &a["country"]),
        (&json!("Dalia Otieno"), &json!("US")),
        "{v}"
    );
    let v = secret(&sb, REQUEST_VBA, json!({"c": customer})).await;
    assert_eq!(first_code(&v), "INVALID_TRANSITION", "{v}");
    let v = secret(&sb, REQUEST_VBA, json!({"c": "cus_nobody"})).await;
    assert_eq!(first_code(&v), "NOT_FOUND", "{v}");
    let v = secret(&sb, VBA, json!({"id": "vba_nobody"})).await;
    assert_eq!(v["data"]["virtualBankAccount"], Value::Null, "{v}");
}
