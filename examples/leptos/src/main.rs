//! The agent's profile and first ten orders, read with `BotClient` (over `fetch`) from the
//! service at `?base=<url>`, with the agent key `?key=<key>`. Each value is shown in an
//! element with an id the test reads: `#profile-id`, `#balance`, `li.order`, `#status`.

use futures_util::StreamExt;
use leptos::prelude::*;
use settlement_wasm::{BotClient, BotOptions, FieldOptions, OrdersArgs};

/// The query parameter `name` of the page's URL.
fn param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// One row of the orders list.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    id: String,
    status: String,
}

#[component]
fn App() -> impl IntoView {
    let (profile_id, set_profile_id) = signal(String::new());
    let (balance, set_balance) = signal(String::new());
    let (rows, set_rows) = signal(Vec::<Row>::new());
    let (status, set_status) = signal("loading".to_owned());

    let options = BotOptions {
        base_url: param("base"),
        api_key: param("key"),
        ..BotOptions::default()
    };
    match BotClient::new(options) {
        Err(e) => set_status.set(format!("error: {e}")),
        Ok(bot) => leptos::task::spawn_local(async move {
            // A clone for the orders stream, which owns it.
            let orders = bot.clone();
            match bot.profile(FieldOptions::default()).await {
                Ok(p) => {
                    set_profile_id.set(p.id.unwrap_or_default());
                    set_balance.set(p.account_balance.unwrap_or_default());
                }
                Err(e) => return set_status.set(format!("error: {} ({})", e, e.code_str())),
            }
            let args = OrdersArgs {
                per_page: Some(4),
                ..OrdersArgs::default()
            };
            let stream = match orders.orders(args) {
                Ok(o) => o.into_stream(),
                Err(e) => return set_status.set(format!("error: {e}")),
            };
            let mut first = stream.take(10);
            while let Some(order) = first.next().await {
                match order {
                    Ok(o) => set_rows.update(|rows| {
                        rows.push(Row {
                            id: o.id.unwrap_or_default(),
                            status: o.status.unwrap_or_default(),
                        })
                    }),
                    Err(e) => return set_status.set(format!("error: {e}")),
                }
            }
            set_status.set("done".to_owned());
        }),
    }

    view! {
        <h1>"Agent"</h1>
        <p>"Profile: " <span id="profile-id">{profile_id}</span></p>
        <p>"Balance: " <span id="balance">{balance}</span></p>
        <ul id="orders">
            {move || {
                rows.get()
                    .into_iter()
                    .map(|Row { id, status }| {
                        let text = format!("{id} {status}");
                        view! { <li class="order" data-id=id>{text}</li> }
                    })
                    .collect::<Vec<_>>()
            }}
        </ul>
        <p id="status">{status}</p>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    mount_to_body(App);
}
