//! Which webhook events the service sends: one per merchant object (a hosted payment's
//! request, an onchain withdrawal, a direct-ramp deposit or withdrawal) created or with a new
//! status, in the service's snake_case shape `{ "event_type", "data" }`. The HTTP server's
//! sender (`webhooks.rs`) delivers them; the in-process fake hands them to the test.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::data::Store;

/// What the observer saw last: each object's status, by kind and id.
type Seen = HashMap<(&'static str, String), String>;

/// The events of the merchant's state `store` now, each with its kind, id and status.
fn events(store: &Store) -> Vec<((&'static str, String), String, Value)> {
    let m = store.merchant();
    let mut out = Vec::new();
    for p in &m.payment_requests {
        let status = crate::payments::status_name(p.status).to_owned();
        let data = json!({
            "id": p.id.as_str(),
            "reference": p.reference,
            "status": status,
            "customer": null,
            "p2p_payment": null,
            "onchain_address": null,
            "onchain_cryptocurrency": p.coin,
            "onchain_txhash": null,
            "created_at": null,
            "payment_link": p.hosted_link,
            "amount": p.amount.0,
            "currency": p.currency,
            "metadata": p.metadata.as_ref().map(|j| j.0.clone()),
        });
        out.push((
            ("hosted", p.id.to_string()),
            status,
            json!({ "event_type": "payment_request.updated", "data": data }),
        ));
    }
    for w in &m.withdrawals {
        let data = json!({
            "id": w.id.as_str(),
            "address": w.address,
            "status": w.status,
            "quantity": w.quantity.0,
            "fee": w.fee.0,
            "symbol": w.symbol,
            "network": w.network,
            "txhash": w.txhash,
        });
        out.push((
            ("onchain", w.id.to_string()),
            w.status.clone(),
            json!({ "event_type": "onchain_tx.updated", "data": data }),
        ));
    }
    for r in &m.ramp.requests {
        let status = r.status.as_str().to_owned();
        let deposit = r.payment_type == crate::direct_ramp::PaymentTypeType::Deposit;
        let event = if deposit {
            json!({ "event_type": "payment_request.updated", "data": {
                "id": r.id.as_str(),
                "reference": r.reference,
                "status": status,
                "p2p_payment": {
                    "id": r.id.as_str(),
                    "exchange_rate": r.exchange_rate.0,
                    "amount": r.amount_local.0,
                    "amount_usd": r.amount_usd.0,
                },
            }})
        } else {
            json!({ "event_type": "fiat_payout.updated", "data": {
                "id": r.id.as_str(),
                "payment_type": "withdrawal",
                "amount_usd": r.amount_usd.0,
                "amount": r.amount_local.0,
                "reference": r.reference,
                "status": status,
            }})
        };
        out.push((("ramp", r.id.to_string()), status, event));
    }
    out
}

/// What a watcher has seen: [`EventWatch::changes`] answers the events since the last look.
pub struct EventWatch {
    seen: Seen,
}

impl EventWatch {
    /// A watcher that has seen what exists now (it is not sent).
    pub fn new(store: &Store) -> EventWatch {
        EventWatch {
            seen: events(store).into_iter().map(|(k, s, _)| (k, s)).collect(),
        }
    }

    /// The events of every object created or with a new status since the last look.
    pub fn changes(&mut self, store: &Store) -> Vec<Value> {
        let mut out = Vec::new();
        for (key, status, event) in events(store) {
            if self.seen.get(&key) != Some(&status) {
                self.seen.insert(key, status);
                out.push(event);
            }
        }
        out
    }
}
