//! A webhook event read back from the API (secret key, on a server): what
//! [`MerchantClient::confirm_event`] answers. Which read, and its argument, is the core's rule
//! ([`WebhookEvent::read_back`]), the same one the npm package's `merchant.confirmEvent(event)`
//! follows; this file only makes that read.

use super::MerchantClient;
use crate::error::Error;
use crate::transport::Transport;
use crate::types::{FieldOptions, OnchainWithdrawal, PaymentRequest};
use crate::webhook::{ReadBack, WebhookEvent};

/// The current state, read from the API, of what a webhook event is about.
#[derive(Clone, Debug, PartialEq)]
pub enum EventState {
    /// A `payment_request.updated` event's payment request, read by its reference
    /// (`merchantPaymentRequest`; `id hostedLink amount currency reference status` and the
    /// rest of [`PaymentRequest`]'s default selection).
    PaymentRequest(PaymentRequest),
    /// An `onchain_tx.updated` event's withdrawal, read by its id (`onchainWithdrawal`).
    OnchainWithdrawal(OnchainWithdrawal),
}

impl EventState {
    /// The status the API gives (`created`, `picked_up`, `completed`, … for a payment request;
    /// `pending`, `completed` or `failed` for an onchain withdrawal), when it has one.
    pub fn status(&self) -> Option<&str> {
        match self {
            EventState::PaymentRequest(p) => p.status.as_deref(),
            EventState::OnchainWithdrawal(w) => w.status.as_deref(),
        }
    }
}

impl<T: Transport> MerchantClient<T> {
    /// Reads back from the API the current state of what a verified webhook `event` is about
    /// (secret key), so value is released on the API's word, not the webhook's (a static
    /// token stops no replay): a `payment_request.updated` event reads
    /// [`MerchantClient::payment_request`] with its `data.reference`, an `onchain_tx.updated`
    /// one [`MerchantClient::onchain_withdrawal`] with its `data.id`, each with its default
    /// fields; `None` when the service does not know it. The API has no read of a fiat
    /// payout or a chargeback by id, so a `fiat_payout.updated`, `chargeback.initiated` or
    /// unknown event is `invalid_input` (naming `event`), as is an event without the
    /// reference or id needed (naming `event.data.reference` or `event.data.id`), before
    /// anything is sent. A read, so retried. For other fields, call the read itself with
    /// [`WebhookEvent::read_back`]'s argument.
    ///
    /// ```no_run
    /// # async fn handle(merchant: settlement_wasm::MerchantClient<settlement_wasm::DefaultTransport>, headers: Vec<(String, String)>, body: Vec<u8>) -> Result<(), settlement_wasm::Error> {
    /// use settlement_wasm::{webhook, EventState};
    /// let event = webhook::verify(headers, &body, &["the token set in the dashboard"])?;
    /// if let Some(EventState::PaymentRequest(p)) = merchant.confirm_event(&event).await? {
    ///     if p.status.as_deref() == Some("completed") { /* release the goods */ }
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn confirm_event(&self, event: &WebhookEvent) -> Result<Option<EventState>, Error> {
        Ok(match event.read_back()? {
            ReadBack::PaymentRequest { reference } => self
                .payment_request(&reference, FieldOptions::default())
                .await?
                .map(EventState::PaymentRequest),
            ReadBack::OnchainWithdrawal { id } => self
                .onchain_withdrawal(&id, FieldOptions::default())
                .await?
                .map(EventState::OnchainWithdrawal),
        })
    }
}
