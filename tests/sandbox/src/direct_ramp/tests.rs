use super::*;
use crate::data::Store;

const NOW: i64 = 1_780_000_000;

fn field(identifier: &str, value: &str) -> FieldInput {
    FieldInput {
        identifier: identifier.into(),
        value: value.into(),
    }
}

fn bank_fields() -> Vec<FieldInput> {
    vec![
        field("bank_name", "GTBank"),
        field("account_number", "0123456789"),
        field("account_name", "Ada Obi"),
    ]
}

fn quote(customer: &str, payment_type: PaymentTypeType) -> QuoteRequest {
    QuoteRequest {
        customer: customer.into(),
        amount: Decimal::text("154550.00"),
        currency: "local_currency".into(),
        payment_type,
        payment_method_type: "bank_transfer".into(),
        country: Some("ng".into()),
    }
}

/// A ramp with one Nigerian customer who has a bank account.
fn ramp(store: &Store) -> (DirectRamp, Customer, CustomerPaymentMethod) {
    let mut r = DirectRamp::default();
    let c = r
        .create_customer("ada@example.com", " Ada ", "Obi", "1", &store.countries)
        .unwrap();
    let pm = r
        .add_payment_method(
            c.id.as_str(),
            "bank_transfer",
            &bank_fields(),
            Some(Ownership::FirstParty),
            &store.countries,
        )
        .unwrap();
    (r, c, pm)
}

#[test]
fn customers_and_payment_methods() {
    let store = Store::seeded();
    let (mut r, c, pm) = ramp(&store);
    assert_eq!(
        (c.first_name.as_str(), c.country.code.as_str()),
        ("Ada", "NG")
    );
    assert_eq!(pm.display_value, "•••• 6789");
    assert_eq!(pm.value, "0123456789");
    assert_eq!(pm.fields.len(), 3);
    assert_eq!(
        (
            pm.fields[0].identifier.as_str(),
            pm.fields[0].value.as_str()
        ),
        ("bank_name", "GTBank")
    );
    let countries = &store.countries;
    // By ISO code too; an unknown country, a bad email, a blank name.
    assert!(r
        .create_customer("b@example.com", "B", "C", "ke", countries)
        .is_ok());
    let code = |e: MutationError| e.code;
    assert_eq!(
        code(
            r.create_customer("b@example.com", "B", "C", "zz", countries)
                .unwrap_err()
        ),
        NOT_FOUND
    );
    assert_eq!(
        code(
            r.create_customer("b@example", "B", "C", "1", countries)
                .unwrap_err()
        ),
        BAD_USER_INPUT
    );
    assert_eq!(
        code(
            r.create_customer("b@example.com", " ", "C", "1", countries)
                .unwrap_err()
        ),
        BAD_USER_INPUT
    );
    let id = c.id.as_str();
    // A type of another country, a missing required field, a field the type lacks.
    assert_eq!(
        code(
            r.add_payment_method(id, "mpesa", &bank_fields(), None, countries)
                .unwrap_err()
        ),
        NOT_FOUND
    );
    assert_eq!(
        code(
            r.add_payment_method("cus_9999", "bank_transfer", &bank_fields(), None, countries)
                .unwrap_err()
        ),
        NOT_FOUND
    );
    let e = r
        .add_payment_method(id, "bank_transfer", &bank_fields()[..2], None, countries)
        .unwrap_err();
    assert_eq!(e.code, BAD_USER_INPUT);
    assert!(e.message.contains("account_name"), "{}", e.message);
    let mut extra = bank_fields();
    extra.push(field("pin", "1234"));
    let e = r
        .add_payment_method(id, "bank_transfer", &extra, None, countries)
        .unwrap_err();
    assert!(
        !e.message.contains("pin"),
        "a caller's identifier is not repeated: {}",
        e.message
    );
}

#[test]
fn quotes_expire_and_refresh() {
    let store = Store::seeded();
    let (mut r, c, _) = ramp(&store);
    let countries = &store.countries;
    let q = r
        .ramp_quote(
            &quote(c.id.as_str(), PaymentTypeType::Deposit),
            countries,
            NOW,
        )
        .unwrap();
    assert_eq!(q.exchange_rate.0, "1545.50");
    assert_eq!(
        (q.amount_local.0.as_str(), q.amount_usd.0.as_str()),
        ("154550.00", "100.00")
    );
    assert_eq!(q.expires_at_secs, NOW + QUOTE_TTL_SECS);
    // In USD: the local amount follows the withdrawal rate.
    let w = r
        .ramp_quote(
            &QuoteRequest {
                currency: "usd".into(),
                amount: Decimal::text("10"),
                ..quote(c.id.as_str(), PaymentTypeType::Withdrawal)
            },
            countries,
            NOW,
        )
        .unwrap();
    assert_eq!(
        (w.amount_local.0.as_str(), w.exchange_rate.0.as_str()),
        ("15122.50", "1512.25")
    );
    let bad = |q: QuoteRequest| r.clone().ramp_quote(&q, countries, NOW).unwrap_err().code;
    let base = || quote(c.id.as_str(), PaymentTypeType::Deposit);
    assert_eq!(
        bad(QuoteRequest {
            country: Some("KE".into()),
            ..base()
        }),
        BAD_USER_INPUT
    );
    assert_eq!(
        bad(QuoteRequest {
            amount: Decimal::text("0"),
            ..base()
        }),
        BAD_USER_INPUT
    );
    assert_eq!(
        bad(QuoteRequest {
            payment_method_type: "mpesa".into(),
            ..base()
        }),
        NOT_FOUND
    );
    assert_eq!(
        bad(QuoteRequest {
            customer: "cus_9999".into(),
            ..base()
        }),
        NOT_FOUND
    );
    // Past its expiry the quote is refused, typed; a refresh makes it usable again.
    let later = NOW + QUOTE_TTL_SECS;
    let d = DepositRequest {
        ramp_quote: q.id.to_string(),
        bank_account_number: Some("0123456789".into()),
        ..Default::default()
    };
    let e = r.initiate_deposit(&d, countries, later).unwrap_err();
    assert_eq!(e.code, QUOTE_EXPIRED);
    let fresh = r
        .refresh_ramp_quote(q.id.as_str(), Some(&Decimal::text("309100")), later)
        .unwrap();
    assert_eq!(fresh.id, q.id);
    assert_eq!(fresh.expires_at_secs, later + QUOTE_TTL_SECS);
    assert_eq!(fresh.amount_usd.0, "200.00");
    assert!(r.initiate_deposit(&d, countries, later).is_ok());
    // Used: neither refreshed nor used again.
    assert_eq!(
        r.refresh_ramp_quote(q.id.as_str(), None, later)
            .unwrap_err()
            .code,
        INVALID_TRANSITION
    );
    assert_eq!(
        r.initiate_deposit(&d, countries, later).unwrap_err().code,
        INVALID_TRANSITION
    );
    assert_eq!(
        r.refresh_ramp_quote("rq_9999", None, later)
            .unwrap_err()
            .code,
        NOT_FOUND
    );
    // The test hook.
    let q2 = r.ramp_quote(&base(), countries, NOW).unwrap();
    r.expire_quote(q2.id.as_str(), NOW).unwrap();
    let d2 = DepositRequest {
        ramp_quote: q2.id.to_string(),
        ..d
    };
    assert_eq!(
        r.initiate_deposit(&d2, countries, NOW).unwrap_err().code,
        QUOTE_EXPIRED
    );
}

#[test]
fn a_deposit_is_pending_then_paid_then_completed_or_canceled() {
    let store = Store::seeded();
    let (mut r, c, _) = ramp(&store);
    let countries = &store.countries;
    let deposit = |r: &mut DirectRamp, reference: &str| {
        let q = r
            .ramp_quote(
                &quote(c.id.as_str(), PaymentTypeType::Deposit),
                countries,
                NOW,
            )
            .unwrap();
        r.initiate_deposit(
            &DepositRequest {
                ramp_quote: q.id.to_string(),
                reference: Some(reference.into()),
                bank_account_number: Some("0123456789".into()),
                ..Default::default()
            },
            countries,
            NOW,
        )
    };
    let p = deposit(&mut r, "dep-1").unwrap();
    assert_eq!(
        (p.status, p.agent.as_deref()),
        (Status::Pending, Some(SANDBOX_AGENT))
    );
    assert_eq!(p.payment_details.0["accountName"], SANDBOX_AGENT);
    assert_eq!(
        deposit(&mut r, "dep-1").unwrap_err().code,
        crate::payments::DUPLICATE_REFERENCE
    );
    let id = p.id.as_str();
    // Not paid yet: the agent has nothing to confirm; a deposit is not a withdrawal.
    assert_eq!(r.complete(id).unwrap_err().code, INVALID_TRANSITION);
    assert_eq!(
        r.mark_withdrawal_as_received(id).unwrap_err().code,
        INVALID_TRANSITION
    );
    // A receipt is "a receipt URL or reference": any text but blank.
    assert_eq!(
        r.mark_deposit_as_paid(id, Some("  ")).unwrap_err().code,
        BAD_USER_INPUT
    );
    assert_eq!(r.mark_deposit_as_paid(id, Some("RCPT-0042")), Ok(true));
    assert_eq!(r.requests[0].status, Status::Paid);
    assert_eq!(r.requests[0].receipt.as_deref(), Some("RCPT-0042"));
    // Paid: neither paid again nor canceled; the agent confirms it.
    assert_eq!(r.cancel_deposit(id).unwrap_err().code, INVALID_TRANSITION);
    assert_eq!(
        r.mark_deposit_as_paid(id, None).unwrap_err().code,
        INVALID_TRANSITION
    );
    assert_eq!(r.complete(id).unwrap().status, Status::Completed);
    assert_eq!(r.complete(id).unwrap_err().code, INVALID_TRANSITION);
    // Another one, canceled before it is paid.
    let p = deposit(&mut r, "dep-2").unwrap();
    assert_eq!(r.cancel_deposit(p.id.as_str()), Ok(true));
    assert_eq!(
        r.mark_deposit_as_paid(p.id.as_str(), Some("https://r.example/1"))
            .unwrap_err()
            .code,
        INVALID_TRANSITION
    );
    assert_eq!(r.cancel_deposit("rpr_9999").unwrap_err().code, NOT_FOUND);
    assert_eq!(r.cancel_deposit(" ").unwrap_err().code, BAD_USER_INPUT);
    // A bank quote needs the customer's account number.
    let q = r
        .ramp_quote(
            &quote(c.id.as_str(), PaymentTypeType::Deposit),
            countries,
            NOW,
        )
        .unwrap();
    let e = r
        .initiate_deposit(
            &DepositRequest {
                ramp_quote: q.id.to_string(),
                ..Default::default()
            },
            countries,
            NOW,
        )
        .unwrap_err();
    assert!(e.message.contains("bankAccountNumber"), "{}", e.message);
}

#[test]
fn a_withdrawal_goes_to_the_customers_payment_method() {
    let store = Store::seeded();
    let (mut r, c, pm) = ramp(&store);
    let countries = &store.countries;
    let q = r
        .ramp_quote(
            &quote(c.id.as_str(), PaymentTypeType::Withdrawal),
            countries,
            NOW,
        )
        .unwrap();
    // A deposit quote is not a withdrawal's, nor the other way round.
    let dq = r
        .ramp_quote(
            &quote(c.id.as_str(), PaymentTypeType::Deposit),
            countries,
            NOW,
        )
        .unwrap();
    assert_eq!(
        r.initiate_withdrawal(dq.id.as_str(), pm.id.as_str(), None, NOW)
            .unwrap_err()
            .code,
        BAD_USER_INPUT
    );
    let d = DepositRequest {
        ramp_quote: q.id.to_string(),
        bank_account_number: Some("1".into()),
        ..Default::default()
    };
    assert_eq!(
        r.initiate_deposit(&d, countries, NOW).unwrap_err().code,
        BAD_USER_INPUT
    );
    // Another customer's payment method is not found.
    let other = r
        .create_customer("b@example.com", "B", "C", "1", countries)
        .unwrap();
    let theirs = r
        .add_payment_method(
            other.id.as_str(),
            "bank_transfer",
            &bank_fields(),
            None,
            countries,
        )
        .unwrap();
    assert_eq!(
        r.initiate_withdrawal(q.id.as_str(), theirs.id.as_str(), None, NOW)
            .unwrap_err()
            .code,
        NOT_FOUND
    );
    let w = r
        .initiate_withdrawal(q.id.as_str(), pm.id.as_str(), Some("wd-1"), NOW)
        .unwrap();
    assert_eq!(w.payment_details.0["paymentMethod"], pm.id.as_str());
    // A withdrawal starts picked_up: an agent has it at once.
    assert_eq!(
        (w.status, w.agent.as_deref()),
        (Status::PickedUp, Some(SANDBOX_AGENT))
    );
    let id = w.id.as_str();
    assert_eq!(r.cancel_deposit(id).unwrap_err().code, INVALID_TRANSITION);
    assert_eq!(r.complete(id).unwrap_err().code, INVALID_TRANSITION);
    assert_eq!(
        r.mark_deposit_as_paid(id, None).unwrap_err().code,
        INVALID_TRANSITION
    );
    assert_eq!(r.mark_withdrawal_as_received(id), Ok(true));
    assert_eq!(
        r.mark_withdrawal_as_received(id).unwrap_err().code,
        INVALID_TRANSITION
    );
}
