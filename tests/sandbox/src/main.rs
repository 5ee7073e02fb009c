//! `settlement-sandbox`: see README.md beside Cargo.toml.
#![forbid(unsafe_code)]

use std::io::Write;

use settlement_sandbox::cli::{self, Command};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match cli::parse(&args) {
        Ok(Command::Run(o)) => *o,
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            return std::process::ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("settlement-sandbox: {e}\n\n{}", cli::USAGE);
            return std::process::ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("settlement-sandbox: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(opts))
}

async fn run(opts: settlement_sandbox::Options) -> std::process::ExitCode {
    let static_root = opts.static_root.clone();
    let max_per_page = opts.max_per_page;
    let running = match settlement_sandbox::start(opts).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("settlement-sandbox: cannot listen: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    {
        let mut out = std::io::stdout().lock();
        for line in settlement_sandbox::startup_lines(&running) {
            let _ = writeln!(out, "{line}");
        }
        let _ = out.flush();
    }
    eprintln!(
        "settlement-sandbox listening on {} (bot: /service/bot/graphql, merchant: /service/api/graphql, \
         ramp page: /hosted/ramp){}; static root {}; max perPage {}. Ctrl-C or SIGTERM stops it.",
        running.url,
        running
            .ramp_url
            .as_deref()
            .map(|r| format!(", ramp origin {r}"))
            .unwrap_or_default(),
        static_root.display(),
        max_per_page,
    );
    wait_for_signal().await;
    eprintln!("settlement-sandbox: shutting down");
    running.shutdown().await;
    std::process::ExitCode::SUCCESS
}

async fn wait_for_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = ctrl_c.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}
