//! Command line: `settlement-sandbox [--port N] [--ramp-port N] [--static-root DIR] [--max-per-page N] [--seed N] …`.

use std::path::PathBuf;

use crate::Options;

pub const DEFAULT_PORT: u16 = 8787;
pub const DEFAULT_MAX_PER_PAGE: i32 = 100;

pub const USAGE: &str = "\
usage: settlement-sandbox [--port N] [--ramp-port N] [--static-root DIR] [--max-per-page N]
                          [--seed N] [--new-order-every SECS] [--quiet]
                          [--webhook-url URL --webhook-token TOKEN]

  --port N          port on 127.0.0.1 (default 8787; 0 picks a free port)
  --ramp-port N     also serve the same app on this port (a second browser origin)
  --static-root DIR serve DIR/www at / and DIR/pkg at /pkg/ (default: the repository root)
  --max-per-page N  largest accepted orderHistory perPage (default 100)
  --seed N          another data set of the same shape (0..2^53-1; default 0, the usual
                    data): the same N gives the same data here and in the testing
                    package's createFakeService({ seed: N })
  --new-order-every SECS
                    a new pending order for agent 1 every SECS seconds (make demo: 20)
  --quiet           do not print one stderr line per GraphQL request
  --webhook-url URL POST webhook events (the service's shape) to this http:// URL on every
                    change of a hosted payment, onchain withdrawal or direct-ramp request
  --webhook-token TOKEN
                    the token sent in X-CASHRAMP-TOKEN (needed with --webhook-url)
";

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(Box<Options>),
    Help,
}

fn value<'a>(
    name: &str,
    it: &mut impl Iterator<Item = &'a String>,
    inline: Option<&'a str>,
) -> Result<&'a str, String> {
    match inline {
        Some(v) => Ok(v),
        None => it
            .next()
            .map(String::as_str)
            .ok_or_else(|| format!("{name} needs a value")),
    }
}

/// Parses the arguments after the program name. `--opt N` and `--opt=N` both work.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut opts = Options::default();
    let (mut webhook_url, mut webhook_token) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (arg.as_str(), None),
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "--quiet" => opts.log_to_stderr = false,
            "--port" => opts.port = parse_port(name, value(name, &mut it, inline)?)?,
            "--ramp-port" => {
                opts.ramp_port = Some(parse_port(name, value(name, &mut it, inline)?)?)
            }
            "--static-root" => opts.static_root = PathBuf::from(value(name, &mut it, inline)?),
            "--max-per-page" => {
                let v = value(name, &mut it, inline)?;
                opts.max_per_page = match v.parse::<i32>() {
                    Ok(n) if n >= 1 => n,
                    _ => {
                        return Err(format!(
                            "--max-per-page must be a positive integer, got '{v}'"
                        ))
                    }
                }
            }
            "--seed" => {
                let v = value(name, &mut it, inline)?;
                opts.seed = match v.parse::<u64>() {
                    Ok(n) if n < 1 << 53 => n,
                    _ => {
                        return Err(format!(
                        "--seed must be an integer 0..2^53-1 (as JavaScript can hold), got '{v}'"
                    ))
                    }
                }
            }
            "--new-order-every" => {
                let v = value(name, &mut it, inline)?;
                opts.new_order_every = match v.parse::<u64>() {
                    Ok(n) if n >= 1 => Some(n),
                    _ => {
                        return Err(format!(
                            "--new-order-every must be a positive number of seconds, got '{v}'"
                        ))
                    }
                }
            }
            "--webhook-url" => {
                let v = value(name, &mut it, inline)?;
                if !v.starts_with("http://") {
                    return Err(format!("--webhook-url must be an http:// URL, got '{v}'"));
                }
                webhook_url = Some(v.to_owned());
            }
            "--webhook-token" => {
                let v = value(name, &mut it, inline)?;
                if v.is_empty() {
                    return Err("--webhook-token must not be empty".to_owned());
                }
                webhook_token = Some(v.to_owned());
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    opts.webhook = match (webhook_url, webhook_token) {
        (Some(url), Some(token)) => Some(crate::webhooks::Target { url, token }),
        (None, None) => None,
        _ => return Err("--webhook-url and --webhook-token go together".to_owned()),
    };
    Ok(Command::Run(Box::new(opts)))
}

fn parse_port(name: &str, v: &str) -> Result<u16, String> {
    v.parse()
        .map_err(|_| format!("{name} must be a port number 0..65535, got '{v}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_options() {
        let Command::Run(o) = parse(&args(&[
            "--port",
            "0",
            "--ramp-port=9001",
            "--static-root",
            "/tmp/x",
            "--max-per-page",
            "1000",
        ]))
        .unwrap() else {
            panic!()
        };
        assert_eq!((o.port, o.ramp_port, o.max_per_page), (0, Some(9001), 1000));
        assert_eq!(o.static_root, PathBuf::from("/tmp/x"));
        let Command::Run(d) = parse(&[]).unwrap() else {
            panic!()
        };
        assert_eq!((d.port, d.ramp_port, d.max_per_page), (8787, None, 100));
        assert!(parse(&args(&["--port"])).is_err());
        assert!(parse(&args(&["--port", "x"])).is_err());
        assert!(parse(&args(&["--max-per-page", "0"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
        let Command::Run(w) = parse(&args(&[
            "--webhook-url=http://127.0.0.1:3000/webhooks",
            "--webhook-token",
            "t0k",
        ]))
        .unwrap() else {
            panic!()
        };
        assert_eq!(
            w.webhook,
            Some(crate::webhooks::Target {
                url: "http://127.0.0.1:3000/webhooks".into(),
                token: "t0k".into()
            })
        );
        assert!(parse(&args(&["--webhook-url", "http://x/"])).is_err());
        assert!(parse(&args(&[
            "--webhook-url",
            "https://x/",
            "--webhook-token",
            "t"
        ]))
        .is_err());
        let Command::Run(n) = parse(&args(&["--new-order-every", "20"])).unwrap() else {
            panic!()
        };
        assert_eq!(n.new_order_every, Some(20));
        assert_eq!(d.new_order_every, None);
        let Command::Run(s) = parse(&args(&["--seed", "42"])).unwrap() else {
            panic!()
        };
        assert_eq!((s.seed, d.seed), (42, 0));
        assert!(parse(&args(&["--seed", "-1"])).is_err());
        assert!(parse(&args(&["--seed", "9007199254740992"])).is_err());
        assert!(parse(&args(&["--new-order-every", "0"])).is_err());
        assert_eq!(parse(&args(&["--help"])).unwrap(), Command::Help);
    }
}
