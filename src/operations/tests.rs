use super::*;
use crate::error::Code;
use crate::graphql::is_read_only;
use crate::testing::{mutations, VariablesInOrder};
use crate::types::PaymentMethodFieldInput;

#[test]
fn default_documents_are_exact() {
    assert_eq!(
        PROFILE.document(PROFILE.fields),
        "query Profile { profile { id email accountBalance escrowBalance bonusEarnings depositAddress \
verificationStatus autoUpdateDepositRate autoUpdateWithdrawalRate creditLine usedCreditLine depositMargin \
withdrawalMargin averageDepositRate averageWithdrawalRate depositsCompleted withdrawalsCompleted \
totalDepositFiatAmount totalDepositUsdAmount totalWithdrawalFiatAmount totalWithdrawalUsdAmount \
enforceReceiptUpload } }"
    );
    assert!(!PROFILE_FIELDS.contains("apiKey"));
    assert_eq!(
        ORDER_HISTORY.document(ORDER_HISTORY.fields),
        "query OrderHistory($page: Int!, $perPage: Int, $filter: OrderHistoryFilter) { \
orderHistory(page: $page, perPage: $perPage, filter: $filter) { data { id status paymentType exchangeRate \
exchangeRateMinusSurcharge orderId source instant createdAt expiresAt expiresAtSecs reassigning \
reassignAfter reassignAfterSecs agentCutOfFees fxSpreadRevenue } pagination { page perPage total } \
} }"
    );
    assert_eq!(
        WITHDRAWAL_INFO.document(WITHDRAWAL_INFO.fields),
        "query WithdrawalInfo($symbol: String!) { withdrawalInfo(symbol: $symbol) { symbol networks \
addressRegex memoRegex } }"
    );
}

#[test]
fn merchant_documents_are_exact() {
    let doc = |q: &Operation| q.document(q.fields);
    assert_eq!(
        doc(&ACCOUNT),
        "query Account { account { id accountBalance depositAddress } }"
    );
    assert_eq!(
        doc(&AVAILABLE_COUNTRIES),
        "query AvailableCountries { availableCountries { id name code currency { isoCode name } } }"
    );
    assert_eq!(
        doc(&PAYMENT_METHOD_TYPES),
        "query PaymentMethodTypes($country: ID!) { p2pPaymentMethodTypes(country: $country) { id \
identifier label fields { label identifier required } } }"
    );
    assert_eq!(
        doc(&MARKET_RATE),
        "query MarketRate($countryCode: String!) { marketRate(countryCode: $countryCode) { \
depositRate withdrawalRate } }"
    );
    assert_eq!(
        doc(&RAMP_LIMITS),
        "query RampLimits { rampLimits { minimumDepositUsd maximumDepositUsd minimumWithdrawalUsd \
maximumWithdrawalUsd dailyLimitUsd } }"
    );
    assert_eq!(
        doc(&RAMPABLE_ASSETS),
        "query RampableAssets { rampableAssets { name symbol networks contractAddress } }"
    );
    assert_eq!(
        doc(&MERCHANT_PAYMENT_REQUEST),
        "query MerchantPaymentRequest($reference: String!) { merchantPaymentRequest(reference: \
$reference) { id paymentType hostedLink amount currency reference status } }"
    );
}

#[test]
fn every_declared_query_is_read_only_and_retryable() {
    for op in ALL {
        let mutation = mutations().iter().any(|m| std::ptr::eq(*m, *op));
        assert_eq!(op.kind == Kind::Mutation, mutation, "{}", op.name);
        assert_eq!(op.retryable(), !mutation, "{}", op.name);
        assert_eq!(
            is_read_only(&op.document(op.fields)),
            !mutation,
            "{}",
            op.name
        );
    }
    // Every mutation is the bot's but `confirmTransaction` (the merchant's public-key one)
    // and the merchant's secret-key ones; only merchant operations need the secret key.
    for op in mutations() {
        let merchant = op.name == CONFIRM_TRANSACTION.name || op.secret_key;
        let endpoint = if merchant {
            Endpoint::Merchant
        } else {
            Endpoint::Bot
        };
        assert_eq!(op.endpoint, endpoint, "{}", op.name);
    }
    for op in ALL.iter().filter(|op| op.secret_key) {
        assert_eq!(op.endpoint, Endpoint::Merchant, "{}", op.name);
    }
    // A mutation (MUTATIONS declares six) is never retried, and the read-only scan agrees.
    let m = Operation {
        kind: Kind::Mutation,
        ..WITHDRAWAL_INFO
    };
    assert!(!m.retryable());
    let doc = m.document("id");
    assert!(doc.starts_with("mutation WithdrawalInfo($symbol: String!) { "));
    assert!(!is_read_only(&doc));
}

#[test]
fn expected_shapes_follow_the_return_types() {
    use crate::graphql::Expect;
    let shape = |op: &Operation| match op.expect() {
        Expect::Data => ("data", ""),
        Expect::Object(f) => ("object", f),
        Expect::ObjectOrNull(f) => ("object or null", f),
        Expect::Boolean(f) => ("boolean", f),
        Expect::List(f) => ("list", f),
        Expect::Page(f) => ("page", f),
        Expect::Connection(p, _) => ("connection", p),
    };
    assert_eq!(shape(&PROFILE), ("object", "profile"));
    assert_eq!(shape(&ORDER_HISTORY), ("page", "orderHistory"));
    assert_eq!(
        shape(&WITHDRAWAL_INFO),
        ("object or null", "withdrawalInfo")
    );
    assert_eq!(shape(&ACCOUNT), ("object", "account"));
    assert_eq!(shape(&AVAILABLE_COUNTRIES), ("list", "availableCountries"));
    assert_eq!(
        shape(&PAYMENT_METHOD_TYPES),
        ("list", "p2pPaymentMethodTypes")
    );
    assert_eq!(shape(&MARKET_RATE), ("object or null", "marketRate"));
    assert_eq!(shape(&RAMP_LIMITS), ("object", "rampLimits"));
    assert_eq!(shape(&RAMPABLE_ASSETS), ("list", "rampableAssets"));
    assert_eq!(
        shape(&MERCHANT_PAYMENT_REQUEST),
        ("object or null", "merchantPaymentRequest")
    );
    // Mutations: a `Boolean` leaf must be true or false; the nullable object is required
    // (a mutation's null without an error is no answer).
    for op in &mutations()[..5] {
        assert_eq!(shape(op), ("boolean", op.field));
    }
    assert_eq!(
        shape(&UPDATE_PAYMENT_METHOD_LIQUIDITY),
        ("object", "updatePaymentMethodLiquidity")
    );
}

#[test]
fn mutation_documents_are_exact() {
    let doc = |q: &Operation| q.document(q.fields);
    assert_eq!(
        doc(&ACCEPT_WITHDRAWAL),
        "mutation AcceptWithdrawal($p2pPayment: ID!) { acceptWithdrawal(p2pPayment: $p2pPayment) }"
    );
    assert_eq!(
        doc(&CANCEL_WITHDRAWAL),
        "mutation CancelWithdrawal($p2pPayment: ID!) { cancelWithdrawal(p2pPayment: $p2pPayment) }"
    );
    assert_eq!(
        doc(&MARK_DEPOSIT_AS_RECEIVED),
        "mutation MarkDepositAsReceived($p2pPayment: ID!) { markDepositAsReceived(p2pPayment: \
$p2pPayment) }"
    );
    assert_eq!(
        doc(&MARK_WITHDRAWAL_AS_PAID),
        "mutation MarkWithdrawalAsPaid($p2pPayment: ID!, $paymentMethod: ID!, $receipt: String) { \
markWithdrawalAsPaid(p2pPayment: $p2pPayment, paymentMethod: $paymentMethod, receipt: $receipt) }"
    );
    assert_eq!(
        doc(&UPDATE_RATES),
        "mutation UpdateRates($depositRate: Decimal, $depositMargin: Decimal, $withdrawalRate: \
Decimal, $withdrawalMargin: Decimal) { updateRates(depositRate: $depositRate, depositMargin: \
$depositMargin, withdrawalRate: $withdrawalRate, withdrawalMargin: $withdrawalMargin) }"
    );
    assert_eq!(
        doc(&UPDATE_PAYMENT_METHOD_LIQUIDITY),
        "mutation UpdatePaymentMethodLiquidity($paymentMethod: ID, $paymentMethodType: String, \
$amountLocal: Decimal!) { updatePaymentMethodLiquidity(paymentMethod: $paymentMethod, \
paymentMethodType: $paymentMethodType, amountLocal: $amountLocal) { id value displayValue \
localCurrencyAvailable deleted ownership designation instant } }"
    );
}

#[test]
fn confirm_transaction_is_declared_and_its_hash_checked() {
    assert_eq!(
        CONFIRM_TRANSACTION.document(CONFIRM_TRANSACTION.fields),
        "mutation ConfirmTransaction($paymentRequest: ID!, $transactionHash: String!) { \
confirmTransaction(paymentRequest: $paymentRequest, transactionHash: $transactionHash) }"
    );
    assert_eq!(CONFIRM_TRANSACTION.endpoint, Endpoint::Merchant);
    assert!(!CONFIRM_TRANSACTION.retryable());
    let s = |v: &str| Value::Str(v.into());
    let evm = format!("0x{}", "aB".repeat(32));
    let tron = "7c2d".repeat(16);
    let solana =
        "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    for hash in [
        evm.as_str(),
        &tron,
        solana,
        &"z".repeat(43),
        &"1".repeat(88),
    ] {
        assert_eq!(
            CONFIRM_TRANSACTION
                .variables_in_order(vec![s(" mpr_1 "), s(hash)])
                .unwrap(),
            vec![("paymentRequest", s("mpr_1")), ("transactionHash", s(hash))],
            "{hash}"
        );
    }
    let refusals = [
        (vec![s(" "), s(&evm)], "paymentRequest"),
        (vec![Value::Null, s(&evm)], "paymentRequest"),
        (vec![s("mpr_1"), s("")], "transactionHash"),
        (vec![s("mpr_1"), Value::Null], "transactionHash"),
        (
            vec![s("mpr_1"), s(&format!("0x{}", "ab".repeat(31)))],
            "transactionHash",
        ),
        (
            vec![s("mpr_1"), s(&format!("0x{}", "ab".repeat(33)))],
            "transactionHash",
        ),
        (
            vec![s("mpr_1"), s(&format!("0X{}", "ab".repeat(32)))],
            "transactionHash",
        ),
        (
            vec![s("mpr_1"), s(&format!("0x{}", "gh".repeat(32)))],
            "transactionHash",
        ),
        (vec![s("mpr_1"), s(&format!(" {evm}"))], "transactionHash"),
        // An EVM address is not a transaction hash.
        (
            vec![s("mpr_1"), s("0x5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D5A4D")],
            "transactionHash",
        ),
        (vec![s("mpr_1"), s(&"1".repeat(42))], "transactionHash"),
        (vec![s("mpr_1"), s(&"1".repeat(89))], "transactionHash"),
        (vec![s("mpr_1"), s(&"0".repeat(50))], "transactionHash"),
        (vec![s("mpr_1"), s(&"l".repeat(50))], "transactionHash"),
    ];
    for (values, field) in refusals {
        let shown = format!("{values:?}");
        let e = CONFIRM_TRANSACTION.variables_in_order(values).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{shown}"
        );
    }
}

#[test]
fn hosted_payment_declarations_and_their_checks() {
    assert_eq!(
        INITIATE_HOSTED_PAYMENT.document(INITIATE_HOSTED_PAYMENT.fields),
        "mutation InitiateHostedPayment($amount: Decimal!, $currency: P2PPaymentCurrency, \
$countryCode: String!, $email: String!, $paymentType: P2PPaymentTypeType!, $reference: String!, \
$firstName: String!, $lastName: String!, $redirectUrl: String, $metadata: JSON) { \
initiateHostedPayment(amount: $amount, currency: $currency, countryCode: $countryCode, email: \
$email, paymentType: $paymentType, reference: $reference, firstName: $firstName, lastName: \
$lastName, redirectUrl: $redirectUrl, metadata: $metadata) { id hostedLink status } }"
    );
    assert_eq!(
        CANCEL_HOSTED_PAYMENT.document(CANCEL_HOSTED_PAYMENT.fields),
        "mutation CancelHostedPayment($paymentRequest: ID!) { cancelHostedPayment(paymentRequest: \
$paymentRequest) }"
    );
    for op in [&INITIATE_HOSTED_PAYMENT, &CANCEL_HOSTED_PAYMENT] {
        assert!(op.secret_key && !op.retryable(), "{}", op.name);
        assert_eq!(op.endpoint, Endpoint::Merchant);
    }
    let secret: Vec<&str> = ALL
        .iter()
        .filter(|op| op.secret_key)
        .map(|op| op.method)
        .collect();
    assert_eq!(
        secret,
        [
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
            "onchainWithdrawal",
            "merchantCustomers",
            "merchantCustomer",
            "requestVirtualBankAccount",
            "virtualBankAccount"
        ]
    );
    let s = |v: &str| Value::Str(v.into());
    let n = || Value::Null;
    // amount, currency, countryCode, email, paymentType, reference, firstName, lastName,
    // redirectUrl, metadata
    let good = || {
        vec![
            s("25000.00"),
            s("local_currency"),
            s("ng"),
            s("ada@example.com"),
            s("deposit"),
            s(" order 42 "),
            s(" Ada "),
            s("Obi"),
            s("https://shop.example/done?o=42"),
            Value::Json(serde_json::json!({ "cart": [1, 2] })),
        ]
    };
    assert_eq!(
        INITIATE_HOSTED_PAYMENT.variables_in_order(good()).unwrap(),
        vec![
            ("amount", s("25000.00")),
            ("currency", s("local_currency")),
            ("countryCode", s("NG")),
            ("email", s("ada@example.com")),
            ("paymentType", s("deposit")),
            ("reference", s(" order 42 ")),
            ("firstName", s("Ada")),
            ("lastName", s("Obi")),
            ("redirectUrl", s("https://shop.example/done?o=42")),
            (
                "metadata",
                Value::Json(serde_json::json!({ "cart": [1, 2] }))
            ),
        ]
    );
    let mut minimal = good();
    for i in [1, 8, 9] {
        minimal[i] = n();
    }
    assert_eq!(
        INITIATE_HOSTED_PAYMENT
            .variables_in_order(minimal)
            .unwrap()
            .len(),
        7
    );
    let with = |i: usize, v: Value| {
        let mut values = good();
        values[i] = v;
        values
    };
    for (values, field) in [
        (with(0, s("1e3")), "amount"),
        (with(0, s("-5")), "amount"),
        (with(0, n()), "amount"),
        (with(1, s("NGN")), "currency"),
        (with(1, s("USD")), "currency"),
        (with(1, s("Local_Currency")), "currency"),
        (with(2, s("NGA")), "countryCode"),
        (with(3, s("ada")), "email"),
        (with(3, s("ada@example")), "email"),
        (with(3, s("a da@example.com")), "email"),
        (with(3, s("@example.com")), "email"),
        (with(4, s("Deposit")), "paymentType"),
        (with(4, s("refund")), "paymentType"),
        (with(5, s("  ")), "reference"),
        (with(6, s("")), "firstName"),
        (with(7, s(" ")), "lastName"),
        (with(8, s("ftp://shop.example/")), "redirectUrl"),
        (with(8, s("/done")), "redirectUrl"),
        (with(8, s("https://u:p@shop.example/")), "redirectUrl"),
        (with(9, Value::Json(serde_json::json!([1, 2]))), "metadata"),
        (with(9, Value::Json(serde_json::json!("text"))), "metadata"),
        (with(9, s("{}")), "metadata"),
    ] {
        let shown = format!("{values:?}");
        let e = INITIATE_HOSTED_PAYMENT
            .variables_in_order(values)
            .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{shown}"
        );
    }
    let e = CANCEL_HOSTED_PAYMENT
        .variables_in_order(vec![s(" ")])
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("paymentRequest"));
}

#[test]
fn withdraw_onchain_is_declared_and_checked() {
    assert_eq!(
        WITHDRAW_ONCHAIN.document(WITHDRAW_ONCHAIN.fields),
        "mutation WithdrawOnchain($address: String!, $amountUsd: Decimal!, $network: String, \
$metadata: JSON) { withdrawOnchain(address: $address, amountUsd: $amountUsd, network: $network, \
metadata: $metadata) { id status } }"
    );
    assert!(WITHDRAW_ONCHAIN.secret_key && !WITHDRAW_ONCHAIN.retryable());
    let s = |v: &str| Value::Str(v.into());
    let n = || Value::Null;
    assert_eq!(
        WITHDRAW_ONCHAIN
            .variables_in_order(vec![s(" 0xabc "), s("150.00"), s(" CELO "), n()])
            .unwrap(),
        vec![
            ("address", s("0xabc")),
            ("amountUsd", s("150.00")),
            ("network", s("CELO"))
        ]
    );
    for (values, field) in [
        (vec![s(" "), s("1.00"), n(), n()], "address"),
        (vec![n(), s("1.00"), n(), n()], "address"),
        (vec![s("0xabc"), s("1,00"), n(), n()], "amountUsd"),
        (vec![s("0xabc"), Value::Int(1), n(), n()], "amountUsd"),
        (vec![s("0xabc"), s("1.00"), s(""), n()], "network"),
        (
            vec![
                s("0xabc"),
                s("1.00"),
                n(),
                Value::Json(serde_json::json!(null)),
            ],
            "metadata",
        ),
    ] {
        let shown = format!("{values:?}");
        let e = WITHDRAW_ONCHAIN.variables_in_order(values).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(field), "{shown}");
    }
}

/// The customers, onchain withdrawal and virtual bank account operations: secret key,
/// merchant endpoint; the reads retried, `requestVirtualBankAccount` (it charges a fee) sent
/// once; `merchantCustomers` under `account`, a connection; every argument checked.
#[test]
fn customer_and_account_declarations_and_their_checks() {
    use crate::graphql::Expect;
    let doc = |q: &Operation| q.document(q.fields);
    assert_eq!(
        doc(&ONCHAIN_WITHDRAWAL),
        "query OnchainWithdrawal($id: ID!) { onchainWithdrawal(id: $id) { quantity symbol network \
address txhash txhashUrl fee status createdAt } }"
    );
    assert_eq!(
        doc(&MERCHANT_CUSTOMERS),
        "query MerchantCustomers($after: String) { account { merchantCustomers(after: $after) { \
nodes { id email firstName lastName } pageInfo { endCursor hasNextPage } } } }"
    );
    assert_eq!(
        MERCHANT_CUSTOMERS.document("email"),
        "query MerchantCustomers($after: String) { account { merchantCustomers(after: $after) { \
nodes { email } pageInfo { endCursor hasNextPage } } } }"
    );
    assert_eq!(
        doc(&MERCHANT_CUSTOMER),
        "query MerchantCustomer($email: String!) { merchantCustomer(email: $email) { id email \
firstName lastName } }"
    );
    assert_eq!(
        doc(&REQUEST_VIRTUAL_BANK_ACCOUNT),
        "mutation RequestVirtualBankAccount($customer: ID!) { requestVirtualBankAccount(customer: \
$customer) { id status } }"
    );
    assert_eq!(
        doc(&VIRTUAL_BANK_ACCOUNT),
        "query VirtualBankAccount($id: ID!) { virtualBankAccount(id: $id) { id accountName \
accountNumber bankName city country line1 postalCode state routingNumber status createdAt } }"
    );
    for op in [
        &ONCHAIN_WITHDRAWAL,
        &MERCHANT_CUSTOMERS,
        &MERCHANT_CUSTOMER,
        &REQUEST_VIRTUAL_BANK_ACCOUNT,
        &VIRTUAL_BANK_ACCOUNT,
    ] {
        assert!(
            op.secret_key && op.endpoint == Endpoint::Merchant,
            "{}",
            op.name
        );
        assert_eq!(
            op.retryable(),
            op.name != "RequestVirtualBankAccount",
            "{}",
            op.name
        );
    }
    assert_eq!(
        MERCHANT_CUSTOMERS.expect(),
        Expect::Connection("account", "merchantCustomers")
    );
    assert_eq!(
        ONCHAIN_WITHDRAWAL.expect(),
        Expect::ObjectOrNull("onchainWithdrawal")
    );
    assert_eq!(
        REQUEST_VIRTUAL_BANK_ACCOUNT.expect(),
        Expect::Object("requestVirtualBankAccount")
    );
    let s = |v: &str| Value::Str(v.into());
    assert_eq!(
        ONCHAIN_WITHDRAWAL.variables([("id", s(" ow_1 "))]).unwrap(),
        vec![("id", s("ow_1"))]
    );
    // A cursor is sent exactly as given; absent, the first page.
    assert_eq!(
        MERCHANT_CUSTOMERS
            .variables([("after", s(" c=1 "))])
            .unwrap(),
        vec![("after", s(" c=1 "))]
    );
    assert_eq!(MERCHANT_CUSTOMERS.variables([]).unwrap(), vec![]);
    for (op, name, value) in [
        (&ONCHAIN_WITHDRAWAL, "id", s(" ")),
        (&MERCHANT_CUSTOMERS, "after", s("  ")),
        (&MERCHANT_CUSTOMER, "email", s("not-an-email")),
        (&MERCHANT_CUSTOMER, "email", Value::Null),
        (&REQUEST_VIRTUAL_BANK_ACCOUNT, "customer", s("")),
        (&VIRTUAL_BANK_ACCOUNT, "id", Value::Int(3)),
    ] {
        let e = op.variables([(name, value)]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some(name), "{}", op.name);
    }
}

/// The direct-ramp operations: declared for the secret key on the merchant endpoint, the
/// two quote reads retried, the seven mutations sent once, and every argument checked.
#[test]
fn direct_ramp_declarations_and_their_checks() {
    assert_eq!(
        RAMP_QUOTE.document(RAMP_QUOTE.fields),
        "query RampQuote($customer: ID!, $amount: Decimal!, $currency: P2PPaymentCurrency!, \
$paymentType: PaymentTypeType, $paymentMethodType: String!, $country: String) { \
rampQuote(customer: $customer, amount: $amount, currency: $currency, paymentType: $paymentType, \
paymentMethodType: $paymentMethodType, country: $country) { id exchangeRate paymentType } }"
    );
    assert_eq!(
        ADD_PAYMENT_METHOD.document(ADD_PAYMENT_METHOD.fields),
        "mutation AddPaymentMethod($customer: ID!, $paymentMethodType: String!, $fields: \
[P2PPaymentMethodFieldInput!]!, $ownership: P2PPaymentMethodOwnership) { \
addPaymentMethod(customer: $customer, paymentMethodType: $paymentMethodType, fields: $fields, \
ownership: $ownership) { id value fields { identifier value } } }"
    );
    assert_eq!(
        INITIATE_RAMP_QUOTE_DEPOSIT.document(INITIATE_RAMP_QUOTE_DEPOSIT.fields),
        "mutation InitiateRampQuoteDeposit($rampQuote: ID!, $reference: String, $phoneNumber: \
String, $bankAccountNumber: String, $onchainTransferInfo: OnchainTransferInfo) { \
initiateRampQuoteDeposit(rampQuote: $rampQuote, reference: $reference, phoneNumber: \
$phoneNumber, bankAccountNumber: $bankAccountNumber, onchainTransferInfo: \
$onchainTransferInfo) { id status agent paymentDetails exchangeRate amountLocal amountUsd \
expiresAt } }"
    );
    assert_eq!(
        CANCEL_DEPOSIT.document(CANCEL_DEPOSIT.fields),
        "mutation CancelDeposit($paymentRequest: ID!) { cancelDeposit(paymentRequest: \
$paymentRequest) }"
    );
    for op in [&RAMP_QUOTE, &REFRESH_RAMP_QUOTE] {
        assert!(op.secret_key && op.retryable(), "{}", op.name);
        assert_eq!(op.endpoint, Endpoint::Merchant);
    }
    for op in [
        &CREATE_CUSTOMER,
        &ADD_PAYMENT_METHOD,
        &INITIATE_RAMP_QUOTE_DEPOSIT,
        &INITIATE_RAMP_QUOTE_WITHDRAWAL,
        &MARK_DEPOSIT_AS_PAID,
        &MARK_WITHDRAWAL_AS_RECEIVED,
        &CANCEL_DEPOSIT,
    ] {
        assert!(op.secret_key && !op.retryable(), "{}", op.name);
        assert_eq!(op.endpoint, Endpoint::Merchant);
    }

    let s = |v: &str| Value::Str(v.into());
    let n = || Value::Null;
    let pair = |identifier: &str, value: &str| PaymentMethodFieldInput {
        identifier: identifier.into(),
        value: value.into(),
    };
    let info =
        |address: &str, cryptocurrency: &str, network: &str| crate::types::OnchainTransferInfo {
            address: address.into(),
            cryptocurrency: cryptocurrency.into(),
            network: network.into(),
        };
    // Each operation: good values, what is sent, then one bad value at a time.
    type Case = (
        &'static Operation,
        Vec<Value>,
        Variables,
        Vec<(usize, Value, &'static str)>,
    );
    let cases: Vec<Case> = vec![
        (
            &RAMP_QUOTE,
            vec![
                s(" cus_1 "),
                s("25000.00"),
                s("usd"),
                s("deposit"),
                s(" bank_transfer "),
                s("ng"),
            ],
            vec![
                ("customer", s("cus_1")),
                ("amount", s("25000.00")),
                ("currency", s("usd")),
                ("paymentType", s("deposit")),
                ("paymentMethodType", s("bank_transfer")),
                ("country", s("NG")),
            ],
            vec![
                (0, s(" "), "customer"),
                (0, n(), "customer"),
                (1, s("25,000"), "amount"),
                (1, s("-1"), "amount"),
                (2, s("NGN"), "currency"),
                (2, s("USD"), "currency"),
                (2, n(), "currency"),
                (3, s("Deposit"), "paymentType"),
                (4, s(""), "paymentMethodType"),
                (5, s("NGA"), "country"),
            ],
        ),
        (
            &REFRESH_RAMP_QUOTE,
            vec![s(" rq_1 "), s("100")],
            vec![("rampQuote", s("rq_1")), ("amount", s("100"))],
            vec![(0, s(" "), "rampQuote"), (1, s("1e2"), "amount")],
        ),
        (
            &CREATE_CUSTOMER,
            vec![s("ada@example.com"), s(" Ada "), s("Obi"), s(" c_ng ")],
            vec![
                ("email", s("ada@example.com")),
                ("firstName", s("Ada")),
                ("lastName", s("Obi")),
                ("country", s("c_ng")),
            ],
            vec![
                (0, s("ada@example"), "email"),
                (0, n(), "email"),
                (1, s(" "), "firstName"),
                (2, s(""), "lastName"),
                (3, s(" "), "country"),
            ],
        ),
        (
            &ADD_PAYMENT_METHOD,
            vec![
                s("cus_1"),
                s("bank_transfer"),
                Value::FieldInputs(vec![
                    pair(" accountNumber ", " 0123 "),
                    pair("bankName", "GTB"),
                ]),
                s("third_party"),
            ],
            vec![
                ("customer", s("cus_1")),
                ("paymentMethodType", s("bank_transfer")),
                (
                    "fields",
                    Value::FieldInputs(vec![
                        pair("accountNumber", " 0123 "),
                        pair("bankName", "GTB"),
                    ]),
                ),
                ("ownership", s("third_party")),
            ],
            vec![
                (0, s(""), "customer"),
                (1, s(" "), "paymentMethodType"),
                (2, Value::FieldInputs(vec![]), "fieldValues"),
                (2, n(), "fieldValues"),
                (2, s("accountNumber=0123"), "fieldValues"),
                (
                    2,
                    Value::FieldInputs(vec![pair(" ", "1")]),
                    "fieldValues[0].identifier",
                ),
                (
                    2,
                    Value::FieldInputs(vec![pair("a", "1"), pair("b", "  ")]),
                    "fieldValues[1].value",
                ),
                (
                    2,
                    Value::FieldInputs(vec![pair("a", "1"), pair(" a", "2")]),
                    "fieldValues[1].identifier",
                ),
                (
                    2,
                    Value::FieldInputs(vec![pair(&"x".repeat(65), "1")]),
                    "fieldValues[0].identifier",
                ),
                (
                    2,
                    Value::FieldInputs(vec![pair("a", "1"); 33]),
                    "fieldValues",
                ),
                (3, s("shared"), "ownership"),
                (3, s("personal"), "ownership"),
                (3, s("FIRST_PARTY"), "ownership"),
            ],
        ),
        (
            &INITIATE_RAMP_QUOTE_DEPOSIT,
            vec![
                s("rq_1"),
                s(" dep 1 "),
                s(" +254 712-345678 "),
                s(" 0123456789 "),
                Value::OnchainTransferInfo(info("0xAbC", "usd_tether", "celo")),
            ],
            vec![
                ("rampQuote", s("rq_1")),
                ("reference", s(" dep 1 ")),
                ("phoneNumber", s("+254 712-345678")),
                ("bankAccountNumber", s("0123456789")),
                (
                    "onchainTransferInfo",
                    Value::OnchainTransferInfo(info("0xAbC", "usd_tether", "celo")),
                ),
            ],
            vec![
                (0, n(), "rampQuote"),
                (1, s("  "), "reference"),
                (2, s("12345"), "phoneNumber"),
                (2, s("+2547123456789012"), "phoneNumber"),
                (2, s("+254--712345678"), "phoneNumber"),
                (2, s("call 0712345678"), "phoneNumber"),
                (3, s(" "), "bankAccountNumber"),
                (
                    4,
                    Value::Json(serde_json::json!({ "network": "CELO" })),
                    "onchainTransferInfo",
                ),
                (
                    4,
                    Value::OnchainTransferInfo(info(" ", "usd_tether", "celo")),
                    "onchainTransferInfo.address",
                ),
                (
                    4,
                    Value::OnchainTransferInfo(info("0x1", "", "celo")),
                    "onchainTransferInfo.cryptocurrency",
                ),
                (
                    4,
                    Value::OnchainTransferInfo(info("0x1", "usd_tether", "  ")),
                    "onchainTransferInfo.network",
                ),
            ],
        ),
        (
            &INITIATE_RAMP_QUOTE_WITHDRAWAL,
            vec![s("rq_1"), s(" pm_1 "), n()],
            vec![("rampQuote", s("rq_1")), ("paymentMethod", s("pm_1"))],
            vec![(1, s(" "), "paymentMethod"), (2, s(""), "reference")],
        ),
        (
            &MARK_DEPOSIT_AS_PAID,
            vec![s("rpr_1"), s(" RCPT 0042 ")],
            vec![
                ("paymentRequest", s("rpr_1")),
                ("receipt", s(" RCPT 0042 ")),
            ],
            vec![(0, s(" "), "paymentRequest"), (1, s("  "), "receipt")],
        ),
        (
            &MARK_WITHDRAWAL_AS_RECEIVED,
            vec![s(" rpr_1 ")],
            vec![("paymentRequest", s("rpr_1"))],
            vec![(0, s(""), "paymentRequest")],
        ),
        (
            &CANCEL_DEPOSIT,
            vec![s("rpr_1")],
            vec![("paymentRequest", s("rpr_1"))],
            vec![(0, n(), "paymentRequest")],
        ),
    ];
    for (op, good, sent, bad) in cases {
        assert_eq!(
            op.variables_in_order(good.clone()).unwrap(),
            sent,
            "{}",
            op.name
        );
        for (i, value, field) in bad {
            let mut values = good.clone();
            values[i] = value;
            let shown = format!("{}: {values:?}", op.name);
            let e = op.variables_in_order(values).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_deref()),
                (Code::InvalidInput, Some(field)),
                "{shown}"
            );
        }
    }
    // Optional arguments left out are not sent.
    assert_eq!(
        INITIATE_RAMP_QUOTE_DEPOSIT
            .variables_in_order(vec![s("rq_1"), n(), n(), n(), n()])
            .unwrap(),
        vec![("rampQuote", s("rq_1"))]
    );
    assert_eq!(
        RAMP_QUOTE
            .variables_in_order(vec![s("c"), s("1"), s("local_currency"), n(), s("m"), n()])
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn mutation_values_are_checked() {
    let s = |v: &str| Value::Str(v.into());
    let n = || Value::Null;
    assert_eq!(
        ACCEPT_WITHDRAWAL
            .variables_in_order(vec![s(" p2p_000001 ")])
            .unwrap(),
        vec![("p2pPayment", s("p2p_000001"))]
    );
    assert_eq!(
        MARK_WITHDRAWAL_AS_PAID
            .variables_in_order(vec![s("p2p_1"), s("pm_1"), n()])
            .unwrap(),
        vec![("p2pPayment", s("p2p_1")), ("paymentMethod", s("pm_1"))]
    );
    // A receipt is "a receipt URL or reference": any text but blank, sent as given.
    for receipt in [
        "https://r.example/x?y=1",
        "http://r.example/x",
        "RCPT-2024-0042",
        " ref 7 ",
    ] {
        assert_eq!(
            MARK_WITHDRAWAL_AS_PAID
                .variables_in_order(vec![s("p2p_1"), s("pm_1"), s(receipt)])
                .unwrap()[2],
            ("receipt", s(receipt))
        );
    }
    // Decimals are sent exactly as given; unset members are left out.
    assert_eq!(
        UPDATE_RATES
            .variables_in_order(vec![n(), s("1.50"), s("0"), n()])
            .unwrap(),
        vec![("depositMargin", s("1.50")), ("withdrawalRate", s("0"))]
    );
    assert_eq!(
        UPDATE_PAYMENT_METHOD_LIQUIDITY
            .variables_in_order(vec![n(), s("mpesa"), s("250000.00")])
            .unwrap(),
        vec![
            ("paymentMethodType", s("mpesa")),
            ("amountLocal", s("250000.00"))
        ]
    );
    let refusals: Vec<(&Operation, Vec<Value>, &str)> = vec![
        (&ACCEPT_WITHDRAWAL, vec![s("")], "p2pPayment"),
        (&CANCEL_WITHDRAWAL, vec![s("  ")], "p2pPayment"),
        (&MARK_DEPOSIT_AS_RECEIVED, vec![n()], "p2pPayment"),
        (&MARK_DEPOSIT_AS_RECEIVED, vec![Value::Int(5)], "p2pPayment"),
        (
            &MARK_WITHDRAWAL_AS_PAID,
            vec![s("p"), s(""), n()],
            "paymentMethod",
        ),
        (
            &MARK_WITHDRAWAL_AS_PAID,
            vec![s(""), s("pm"), n()],
            "p2pPayment",
        ),
        (
            &MARK_WITHDRAWAL_AS_PAID,
            vec![s("p"), s("pm"), s("")],
            "receipt",
        ),
        (
            &MARK_WITHDRAWAL_AS_PAID,
            vec![s("p"), s("pm"), s(" \t")],
            "receipt",
        ),
        (&UPDATE_RATES, vec![n(), n(), n(), n()], "rates"),
        (&UPDATE_RATES, vec![s("-1.5"), n(), n(), n()], "depositRate"),
        (
            &UPDATE_RATES,
            vec![n(), s("1e3"), n(), n()],
            "depositMargin",
        ),
        (
            &UPDATE_RATES,
            vec![n(), n(), s("1.5.0"), n()],
            "withdrawalRate",
        ),
        (
            &UPDATE_RATES,
            vec![n(), n(), n(), s(" 1.5")],
            "withdrawalMargin",
        ),
        (
            &UPDATE_RATES,
            vec![n(), n(), n(), s(".5")],
            "withdrawalMargin",
        ),
        (
            &UPDATE_RATES,
            vec![n(), n(), n(), s("")],
            "withdrawalMargin",
        ),
        (
            &UPDATE_RATES,
            vec![n(), n(), n(), s("-0")],
            "withdrawalMargin",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![n(), n(), s("1.00")],
            "paymentMethod",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![s("pm_1"), s("mpesa"), s("1.00")],
            "paymentMethod",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![s(" "), n(), s("1.00")],
            "paymentMethod",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![n(), s(""), s("1.00")],
            "paymentMethodType",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![n(), s("mpesa"), n()],
            "amountLocal",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![n(), s("mpesa"), s("-5")],
            "amountLocal",
        ),
        (
            &UPDATE_PAYMENT_METHOD_LIQUIDITY,
            vec![n(), s("mpesa"), s("1,000")],
            "amountLocal",
        ),
    ];
    for (op, values, field) in refusals {
        let shown = format!("{values:?}");
        let e = op.variables_in_order(values).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{} {shown}: {}",
            op.name,
            e.message
        );
        assert!(e.message.contains(field), "{}", e.message);
    }
}

#[test]
fn values_are_checked_and_normalised() {
    let s = |v: &str| Value::Str(v.into());
    assert_eq!(
        WITHDRAWAL_INFO
            .variables_in_order(vec![s("  USDC ")])
            .unwrap(),
        vec![("symbol", s("USDC"))]
    );
    assert_eq!(
        PAYMENT_METHOD_TYPES
            .variables_in_order(vec![s(" 2 ")])
            .unwrap(),
        vec![("country", s("2"))]
    );
    assert_eq!(
        MARKET_RATE.variables_in_order(vec![s("ng")]).unwrap(),
        vec![("countryCode", s("NG"))]
    );
    assert_eq!(
        MERCHANT_PAYMENT_REQUEST
            .variables_in_order(vec![s(" REF ")])
            .unwrap(),
        vec![("reference", s(" REF "))]
    );
    // Unset and empty optional arguments are left out.
    assert_eq!(
        ORDER_HISTORY
            .variables_in_order(vec![
                Value::Int(3),
                Value::Null,
                Value::Filter(OrderHistoryFilter::default())
            ])
            .unwrap(),
        vec![("page", Value::Int(3))]
    );
    let f = OrderHistoryFilter {
        status: Some("paid".into()),
        ..Default::default()
    };
    assert_eq!(
        ORDER_HISTORY
            .variables_in_order(vec![
                Value::Int(1),
                Value::Int(50),
                Value::Filter(f.clone())
            ])
            .unwrap(),
        vec![
            ("page", Value::Int(1)),
            ("perPage", Value::Int(50)),
            ("filter", Value::Filter(f))
        ]
    );
    // Refusals name the argument as callers know it.
    for (op, values, field) in [
        (&PAYMENT_METHOD_TYPES, vec![s(" ")], "countryId"),
        (&MARKET_RATE, vec![s("NGA")], "countryCode"),
        (&MARKET_RATE, vec![Value::Int(1)], "countryCode"),
        (&WITHDRAWAL_INFO, vec![Value::Null], "symbol"),
        (&MERCHANT_PAYMENT_REQUEST, vec![s("")], "reference"),
        (
            &ORDER_HISTORY,
            vec![Value::Int(0), Value::Null, Value::Null],
            "page",
        ),
        (
            &ORDER_HISTORY,
            vec![Value::Null, Value::Null, Value::Null],
            "page",
        ),
        (
            &ORDER_HISTORY,
            vec![Value::Int(1), Value::Int(0), Value::Null],
            "perPage",
        ),
        (
            &ORDER_HISTORY,
            vec![
                Value::Int(1),
                Value::Null,
                Value::Filter(OrderHistoryFilter {
                    date_from: Some("2024-02-30".into()),
                    ..Default::default()
                }),
            ],
            "filter.dateFrom",
        ),
    ] {
        let e = op.variables_in_order(values).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            (Code::InvalidInput, Some(field)),
            "{}",
            op.name
        );
    }
    assert_eq!(
        PAYMENT_METHOD_TYPES.arg("countryId").unwrap().name,
        "country"
    );
    assert!(PAYMENT_METHOD_TYPES.arg("country").is_none());
    // Values travel by name: a name that is not an argument, or one given twice, is refused
    // naming it; a required argument left out is refused naming it.
    let e = PROFILE.variables([("x", s("x"))]).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("x"));
    let e = MARKET_RATE.variables([]).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("countryCode"));
    let e = PAYMENT_METHOD_TYPES
        .variables([("country", s("2"))])
        .unwrap_err();
    assert_eq!(
        e.field.as_deref(),
        Some("country"),
        "the caller's name is countryId"
    );
    let e = WITHDRAWAL_INFO
        .variables([("symbol", s("USDC")), ("symbol", s("ETH"))])
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("symbol"));
    // The order the names come in does not matter.
    assert_eq!(
        ORDER_HISTORY
            .variables([("perPage", Value::Int(5)), ("page", Value::Int(2))])
            .unwrap(),
        vec![("page", Value::Int(2)), ("perPage", Value::Int(5))]
    );
}

mod conformance;

/// The Rust shell has a method for every declaration: each operation's method, called with
/// valid arguments over a fake transport, sends exactly that operation, with each value under
/// its own argument's name: every argument of a method gets a value of its own, and the
/// variables sent are compared, by name, with what this table says (so swapping two
/// arguments in a method, `first_name` for `last_name`, fails here). A declaration whose
/// method is missing here fails (add the method to `BotClient` / `MerchantClient`, then here).
#[test]
fn every_operation_has_a_method_in_the_rust_shell() {
    use crate::testing::FakeTransport;
    use crate::types::*;
    use crate::{BotClient, BotOptions, ClientOptions, MerchantClient, MerchantOptions};
    use futures::executor::block_on;
    use serde_json::json;

    let client = ClientOptions {
        endpoint: Some("https://settlement.invalid/graphql".into()),
        ..ClientOptions::default()
    };
    let bot: BotClient<FakeTransport> =
        BotClient::with_transport(BotOptions::clone(&client), FakeTransport::new(1)).unwrap();
    let merchant = MerchantClient::with_transport(
        MerchantOptions {
            client,
            ..MerchantOptions::default()
        },
        FakeTransport::new(1),
    )
    .unwrap();
    let f = FieldOptions::default;
    let c = CallOptions::default;
    let hash = format!("0x{}", "ab".repeat(32));
    for op in ALL {
        // Each attempt fails (the fake has no replies): only the request sent matters here.
        let expected = block_on(async {
            match op.method {
                "profile" => (bot.profile(f()).await.map(drop), json!({})),
                "orderHistory" => (
                    bot.order_history(OrderHistoryArgs {
                        page: 2,
                        per_page: Some(7),
                        ..Default::default()
                    })
                    .await
                    .map(drop),
                    json!({"page": 2, "perPage": 7}),
                ),
                "withdrawalInfo" => (
                    bot.withdrawal_info("USDC", f()).await.map(drop),
                    json!({"symbol": "USDC"}),
                ),
                "acceptWithdrawal" => (
                    bot.accept_withdrawal("p1", c()).await.map(drop),
                    json!({"p2pPayment": "p1"}),
                ),
                "cancelWithdrawal" => (
                    bot.cancel_withdrawal("p2", c()).await.map(drop),
                    json!({"p2pPayment": "p2"}),
                ),
                "markDepositAsReceived" => (
                    bot.mark_deposit_as_received("p3", c()).await.map(drop),
                    json!({"p2pPayment": "p3"}),
                ),
                "markWithdrawalAsPaid" => (
                    bot.mark_withdrawal_as_paid(MarkWithdrawalAsPaidArgs {
                        p2p_payment: "p1".into(),
                        payment_method: "m1".into(),
                        receipt: Some("https://r.example/1".into()),
                        ..Default::default()
                    })
                    .await
                    .map(drop),
                    json!({"p2pPayment": "p1", "paymentMethod": "m1",
                           "receipt": "https://r.example/1"}),
                ),
                "updateRates" => (
                    bot.update_rates(UpdateRatesArgs {
                        deposit_rate: Some("1.1".into()),
                        deposit_margin: Some("1.2".into()),
                        withdrawal_rate: Some("1.3".into()),
                        withdrawal_margin: Some("1.4".into()),
                        ..Default::default()
                    })
                    .await
                    .map(drop),
                    json!({"depositRate": "1.1", "depositMargin": "1.2",
                           "withdrawalRate": "1.3", "withdrawalMargin": "1.4"}),
                ),
                "updatePaymentMethodLiquidity" => (
                    bot.update_payment_method_liquidity(UpdateLiquidityArgs {
                        payment_method: Some("m1".into()),
                        amount_local: "1.00".into(),
                        ..Default::default()
                    })
                    .await
                    .map(drop),
                    json!({"paymentMethod": "m1", "amountLocal": "1.00"}),
                ),
                "account" => (merchant.account(f()).await.map(drop), json!({})),
                "availableCountries" => {
                    (merchant.available_countries(f()).await.map(drop), json!({}))
                }
                "paymentMethodTypes" => (
                    merchant.payment_method_types("c1", f()).await.map(drop),
                    json!({"country": "c1"}),
                ),
                "marketRate" => (
                    merchant.market_rate("NG", f()).await.map(drop),
                    json!({"countryCode": "NG"}),
                ),
                "rampLimits" => (merchant.ramp_limits(f()).await.map(drop), json!({})),
                "rampableAssets" => (merchant.rampable_assets(f()).await.map(drop), json!({})),
                "paymentRequest" => (
                    merchant.payment_request("ref-1", f()).await.map(drop),
                    json!({"reference": "ref-1"}),
                ),
                "initiateHostedPayment" => (
                    merchant
                        .initiate_hosted_payment(InitiateHostedPaymentArgs {
                            amount: "25000.00".into(),
                            currency: Some("local_currency".into()),
                            country_code: "NG".into(),
                            email: "ada@example.com".into(),
                            payment_type: "deposit".into(),
                            reference: "order-1".into(),
                            first_name: "Ada".into(),
                            last_name: "Obi".into(),
                            redirect_url: Some("https://shop.example/done".into()),
                            metadata: Some(json!({"k": 1})),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"amount": "25000.00", "currency": "local_currency", "countryCode": "NG",
                           "email": "ada@example.com", "paymentType": "deposit",
                           "reference": "order-1", "firstName": "Ada", "lastName": "Obi",
                           "redirectUrl": "https://shop.example/done", "metadata": {"k": 1}}),
                ),
                "cancelHostedPayment" => (
                    merchant.cancel_hosted_payment("mpr_1", c()).await.map(drop),
                    json!({"paymentRequest": "mpr_1"}),
                ),
                "withdrawOnchain" => (
                    merchant
                        .withdraw_onchain(WithdrawOnchainArgs {
                            address: "0xabc".into(),
                            amount_usd: "10.00".into(),
                            network: Some("CELO".into()),
                            metadata: Some(json!({"k": 2})),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"address": "0xabc", "amountUsd": "10.00", "network": "CELO",
                           "metadata": {"k": 2}}),
                ),
                "onchainWithdrawal" => (
                    merchant.onchain_withdrawal("ow_1", f()).await.map(drop),
                    json!({"id": "ow_1"}),
                ),
                "merchantCustomers" => (
                    merchant
                        .merchant_customers(MerchantCustomersArgs {
                            after: Some("cur_1".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"after": "cur_1"}),
                ),
                "merchantCustomer" => (
                    merchant
                        .merchant_customer("ada@example.com", f())
                        .await
                        .map(drop),
                    json!({"email": "ada@example.com"}),
                ),
                "requestVirtualBankAccount" => (
                    merchant
                        .request_virtual_bank_account("cus_1", f())
                        .await
                        .map(drop),
                    json!({"customer": "cus_1"}),
                ),
                "virtualBankAccount" => (
                    merchant.virtual_bank_account("vba_1", f()).await.map(drop),
                    json!({"id": "vba_1"}),
                ),
                "rampQuote" => (
                    merchant
                        .ramp_quote(RampQuoteArgs {
                            customer: "cus_1".into(),
                            amount: "100".into(),
                            currency: "usd".into(),
                            payment_type: Some("withdrawal".into()),
                            payment_method_type: "bank_transfer".into(),
                            country: Some("NG".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"customer": "cus_1", "amount": "100", "currency": "usd",
                           "paymentType": "withdrawal", "paymentMethodType": "bank_transfer",
                           "country": "NG"}),
                ),
                "refreshRampQuote" => (
                    merchant
                        .refresh_ramp_quote(RefreshRampQuoteArgs {
                            ramp_quote: "rq_1".into(),
                            amount: Some("5".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"rampQuote": "rq_1", "amount": "5"}),
                ),
                "createCustomer" => (
                    merchant
                        .create_customer(CreateCustomerArgs {
                            email: "ada@example.com".into(),
                            first_name: "Ada".into(),
                            last_name: "Obi".into(),
                            country: "c_ng".into(),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"email": "ada@example.com", "firstName": "Ada", "lastName": "Obi",
                           "country": "c_ng"}),
                ),
                "addPaymentMethod" => (
                    merchant
                        .add_payment_method(AddPaymentMethodArgs {
                            customer: "cus_1".into(),
                            payment_method_type: "bank_transfer".into(),
                            field_values: vec![PaymentMethodFieldInput {
                                identifier: "accountNumber".into(),
                                value: "0123".into(),
                            }],
                            ownership: Some("first_party".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"customer": "cus_1", "paymentMethodType": "bank_transfer",
                           "fields": [{"identifier": "accountNumber", "value": "0123"}],
                           "ownership": "first_party"}),
                ),
                "initiateRampQuoteDeposit" => (
                    merchant
                        .initiate_ramp_quote_deposit(InitiateRampQuoteDepositArgs {
                            ramp_quote: "rq_1".into(),
                            reference: Some("dep-1".into()),
                            phone_number: Some("+254712345678".into()),
                            bank_account_number: Some("0123456789".into()),
                            onchain_transfer_info: Some(OnchainTransferInfo {
                                address: "0x1".into(),
                                cryptocurrency: "usd_tether".into(),
                                network: "celo".into(),
                            }),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"rampQuote": "rq_1", "reference": "dep-1",
                           "phoneNumber": "+254712345678", "bankAccountNumber": "0123456789",
                           "onchainTransferInfo": {"address": "0x1",
                               "cryptocurrency": "usd_tether", "network": "celo"}}),
                ),
                "initiateRampQuoteWithdrawal" => (
                    merchant
                        .initiate_ramp_quote_withdrawal(InitiateRampQuoteWithdrawalArgs {
                            ramp_quote: "rq_1".into(),
                            payment_method: "pm_1".into(),
                            reference: Some("wd-1".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"rampQuote": "rq_1", "paymentMethod": "pm_1", "reference": "wd-1"}),
                ),
                "markDepositAsPaid" => (
                    merchant
                        .mark_deposit_as_paid(MarkDepositAsPaidArgs {
                            payment_request: "rpr_1".into(),
                            receipt: Some("https://r.example/2".into()),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"paymentRequest": "rpr_1", "receipt": "https://r.example/2"}),
                ),
                "markWithdrawalAsReceived" => (
                    merchant
                        .mark_withdrawal_as_received("rpr_2", c())
                        .await
                        .map(drop),
                    json!({"paymentRequest": "rpr_2"}),
                ),
                "cancelDeposit" => (
                    merchant.cancel_deposit("rpr_3", c()).await.map(drop),
                    json!({"paymentRequest": "rpr_3"}),
                ),
                "confirmTransaction" => (
                    merchant
                        .confirm_transaction(ConfirmTransactionArgs {
                            payment_request: "mpr_1".into(),
                            transaction_hash: hash.clone(),
                            ..Default::default()
                        })
                        .await
                        .map(drop),
                    json!({"paymentRequest": "mpr_1", "transactionHash": hash}),
                ),
                other => panic!("{}: no Rust method {other} in this test's table", op.name),
            }
            .1
        });
        let transport = match op.endpoint {
            Endpoint::Bot => bot.transport(),
            Endpoint::Merchant => merchant.transport(),
        };
        let last = transport.request(transport.sent() - 1).json();
        assert_eq!(last["operationName"], op.name, "{}", op.method);
        let sent = last
            .get("variables")
            .filter(|v| !v.is_null())
            .cloned()
            .unwrap_or_else(|| json!({}));
        assert_eq!(sent, expected, "{}: the variables sent, by name", op.method);
    }
}

/// The npm method's TypeScript signature, from the declaration: its parameters (the one
/// argument first when there is exactly one, then the options; the options are required when
/// an argument among them is required or a rule applies) and its promise's type.
fn typescript_signature(op: &Operation) -> String {
    let required = op.args.iter().any(|a| a.ty.ends_with('!')) || op.rule != Rule::None;
    let params = match op.args {
        [] => format!("options?: {}", op.typescript_options()),
        [arg] if op.parent.is_none() => {
            format!(
                "{}: string, options?: {}",
                arg.caller,
                op.typescript_options()
            )
        }
        _ if required => format!("options: {}", op.typescript_options()),
        _ => format!("options?: {}", op.typescript_options()),
    };
    format!("{}({params}): Promise<{}>;", op.method, op.result)
}

/// The TypeScript shell's method names and signatures, generated from the declarations: the
/// npm classes are checked against them (`pkg-template/src/bot-client.ts`, `merchant-client.ts`, `server.ts`), so
/// `tsc` fails the build when a declaration has no method there, or when a method's
/// parameters or result differ from what its declaration says. This test fails when the
/// generated file is stale; `UPDATE_GENERATED=1 cargo test` rewrites it.
#[test]
fn typescript_method_names_are_current() {
    let names = |endpoint: Endpoint, secret_key: bool| {
        of(endpoint)
            .filter(|op| op.secret_key == secret_key)
            .map(|op| format!("\n  | {:?}", op.method))
            .collect::<String>()
    };
    // The type names the signatures use, imported from the glue (derived from the Rust types).
    let named: Vec<String> = ALL
        .iter()
        .flat_map(|op| [op.result.to_owned(), op.typescript_options()])
        .collect();
    let mut types: Vec<&str> = named
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|t| !t.is_empty() && !["null", "boolean", "string"].contains(t))
        .collect();
    types.sort_unstable();
    types.dedup();
    let imports: String = types.iter().map(|t| format!("\n  {t},")).collect();
    let signatures: String = ALL
        .iter()
        .map(|op| format!("\n  {}", typescript_signature(op)))
        .collect();
    let expected = format!(
        "// Generated from src/operations.rs by the native test \
`typescript_method_names_are_current`;\n\
// do not edit (UPDATE_GENERATED=1 cargo test rewrites it).\n\
import type {{{imports}\n}} from \"./glue/settlement_wasm.js\";\n\n\
/** The methods of `BotClient` that run a built-in operation. */\n\
export type BotMethod ={};\n\n\
/** The methods of `MerchantClient` that run a built-in operation, in every entry. */\n\
export type MerchantMethod ={};\n\n\
/** The methods of `MerchantClient` that need the secret key: the server entries' only. */\n\
export type ServerMerchantMethod ={};\n\n\
/**\n * Each built-in operation's method as its declaration types it: its parameters and its\n\
 * result. The classes are checked against these (`tsc` fails when a method differs).\n */\n\
export interface MethodSignatures {{{signatures}\n}}\n",
        names(Endpoint::Bot, false),
        names(Endpoint::Merchant, false),
        names(Endpoint::Merchant, true)
    );
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/pkg-template/src/operations.ts"
    );
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(path, &expected).expect("write pkg-template/src/operations.ts");
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "pkg-template/src/operations.ts is stale: run `UPDATE_GENERATED=1 cargo test` \
(expected:\n{expected})"
    );
}

/// Every type a declaration names for TypeScript (`result`, `options`) is one the Rust types
/// declare (tsify), by that name: a renamed Rust type, or a `result` that names no type,
/// fails here (and `tsc` fails on the generated import).
#[test]
#[cfg(feature = "typescript")]
fn declared_typescript_types_are_derived_from_rust_types() {
    use crate::types::*;
    use tsify::Tsify;
    let decls = [
        AgentProfile::DECL,
        OrderHistoryPage::DECL,
        WithdrawalInfo::DECL,
        P2PPaymentMethod::DECL,
        Account::DECL,
        Country::DECL,
        PaymentMethodType::DECL,
        MarketRate::DECL,
        RampLimits::DECL,
        RampableAsset::DECL,
        PaymentRequest::DECL,
        OnchainWithdrawal::DECL,
        RampQuote::DECL,
        Customer::DECL,
        CustomerPaymentMethod::DECL,
        QuotePaymentRequest::DECL,
        MerchantCustomer::DECL,
        MerchantCustomerPage::DECL,
        VirtualBankAccount::DECL,
        FieldOptions::DECL,
        CallOptions::DECL,
        OrderHistoryArgs::DECL,
        MarkWithdrawalAsPaidArgs::DECL,
        UpdateRatesArgs::DECL,
        UpdateLiquidityArgs::DECL,
        ConfirmTransactionArgs::DECL,
        InitiateHostedPaymentArgs::DECL,
        WithdrawOnchainArgs::DECL,
        RampQuoteArgs::DECL,
        RefreshRampQuoteArgs::DECL,
        CreateCustomerArgs::DECL,
        AddPaymentMethodArgs::DECL,
        InitiateRampQuoteDepositArgs::DECL,
        InitiateRampQuoteWithdrawalArgs::DECL,
        MarkDepositAsPaidArgs::DECL,
        MerchantCustomersArgs::DECL,
    ]
    .join("\n");
    // The `declare`d aliases of `FieldOptions` (one type, several names).
    let aliases = [
        "ProfileOptions",
        "WithdrawalInfoOptions",
        "MerchantCallOptions",
    ];
    let mut problems = vec![];
    for op in ALL {
        for t in [op.result.to_owned(), op.typescript_options()] {
            for name in t.split(|c: char| !c.is_ascii_alphanumeric()) {
                if name.is_empty() || ["null", "boolean", "string"].contains(&name) {
                    continue;
                }
                let declared = decls.contains(&format!("interface {name} "))
                    || decls.contains(&format!("type {name} "))
                    || aliases.contains(&name);
                if !declared {
                    problems.push(format!("{}: {name} is not a derived type", op.method));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The npm README's method tables are prose, so this checks them against the declarations:
/// every operation has a row for its method (`| \`method(…)\` |`) naming its result type.
#[test]
fn npm_readme_tables_name_every_operation_and_its_result() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/pkg-template/README.md");
    let readme = std::fs::read_to_string(path).expect("pkg-template/README.md");
    let mut problems = vec![];
    for op in ALL {
        let start = format!("| `{}(", op.method);
        let rows: Vec<&str> = readme.lines().filter(|l| l.starts_with(&start)).collect();
        // In a Markdown table cell a `|` is written `\|`.
        let result = format!("`{}`", op.result.replace('|', "\\|"));
        match rows.as_slice() {
            [] => problems.push(format!("{}: no README row for {}", op.name, op.method)),
            [row] if !row.contains(&result) => problems.push(format!(
                "{}: the row of {} does not name {result}",
                op.name, op.method
            )),
            [_] => {}
            _ => problems.push(format!(
                "{}: {} rows for {}",
                op.name,
                rows.len(),
                op.method
            )),
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
