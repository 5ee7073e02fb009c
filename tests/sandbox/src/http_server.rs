//! Starting the HTTP server: listeners, the router, the webhook sender, the order ticker.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::service::ServiceOptions;
use crate::{cli, data, net, server, webhooks};
pub use server::build_router;
use server::{AppState, Config};

/// How to start a sandbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// 0 picks a free port.
    pub port: u16,
    /// Second listener (another browser origin) serving the same app.
    pub ramp_port: Option<u16>,
    pub static_root: std::path::PathBuf,
    pub max_per_page: i32,
    pub log_to_stderr: bool,
    /// Every this many seconds, a new pending order for agent 1 (the demo agent).
    pub new_order_every: Option<u64>,
    /// Where webhooks go (`--webhook-url`, `--webhook-token`); also settable at run time.
    pub webhook: Option<webhooks::Target>,
    /// The data set (`--seed N`; 0, the default: the sandbox's usual data).
    pub seed: data::DataSeed,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            port: cli::DEFAULT_PORT,
            ramp_port: None,
            static_root: server::default_static_root(),
            max_per_page: cli::DEFAULT_MAX_PER_PAGE,
            log_to_stderr: true,
            new_order_every: None,
            webhook: None,
            seed: 0,
        }
    }
}

/// A started sandbox: listeners bound to 127.0.0.1, serving in background tasks.
pub struct Running {
    pub url: String,
    pub ramp_url: Option<String>,
    pub state: Arc<AppState>,
    /// The webhook sender (its log, its target).
    pub webhooks: Arc<webhooks::Webhooks>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Running {
    /// Stops accepting connections and waits for the accept loops to end.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}

/// Binds 127.0.0.1 (only) and starts serving.
pub async fn start(opts: Options) -> std::io::Result<Running> {
    let main = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, opts.port))).await?;
    let url = format!("http://127.0.0.1:{}", main.local_addr()?.port());
    let ramp = match opts.ramp_port {
        Some(p) => Some(TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, p))).await?),
        None => None,
    };
    let ramp_url = match &ramp {
        Some(l) => Some(format!("http://127.0.0.1:{}", l.local_addr()?.port())),
        None => None,
    };
    let state = AppState::with_options(
        Config {
            max_per_page: opts.max_per_page,
            base_url: url.clone(),
            ramp_url: ramp_url.clone(),
            static_root: opts.static_root,
            log_to_stderr: opts.log_to_stderr,
        },
        ServiceOptions {
            seed: opts.seed,
            ..ServiceOptions::default()
        },
    );
    let hooks = webhooks::Webhooks::start(opts.webhook.clone(), opts.log_to_stderr);
    let app = build_router(state.clone()).merge(webhooks::routes(hooks.clone()));
    let (tx, rx) = watch::channel(false);
    let mut tasks = vec![tokio::spawn(net::serve(main, app.clone(), rx.clone()))];
    tasks.push(tokio::spawn(webhooks::observe(
        state.store.clone(),
        hooks.clone(),
        rx.clone(),
    )));
    if let Some(l) = ramp {
        tasks.push(tokio::spawn(net::serve(l, app, rx.clone())));
    }
    if let Some(secs) = opts.new_order_every {
        tasks.push(tokio::spawn(new_orders(state.clone(), secs, rx)));
    }
    Ok(Running {
        url,
        ramp_url,
        state,
        webhooks: hooks,
        shutdown: tx,
        tasks,
    })
}

/// `--new-order-every`: a new pending order for agent 1 every `secs` seconds, until shutdown.
async fn new_orders(state: Arc<AppState>, secs: u64, mut shutdown: watch::Receiver<bool>) {
    let period = std::time::Duration::from_secs(secs.max(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            _ = ticks.tick() => {
                state.store.create_pending_order(0, None, state.store.clock.now_secs());
            }
            _ = shutdown.changed() => return,
        }
    }
}

/// The start-up lines printed to stdout (parsed by other tools).
pub fn startup_lines(running: &Running) -> Vec<String> {
    let mut lines = vec![format!("SANDBOX_URL={}", running.url)];
    if let Some(r) = &running.ramp_url {
        lines.push(format!("SANDBOX_RAMP_URL={r}"));
    }
    for (name, key) in data::KEY_NAMES {
        lines.push(format!("{name}={key}"));
    }
    lines.push("SANDBOX_READY".to_string());
    lines
}
