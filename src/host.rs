//! Which JavaScript host this runs in, as far as the merchant client's browser guard
//! ([`crate::keys::browser_guard`]) is concerned: a browser (page or browser worker), where
//! page visitors can read a client's key, or a server runtime, where secret keys belong.
//!
//! The rule ([`HostGlobals::is_browser_like`]) is decided from what each runtime really
//! exposes, read by name from the global object on every check ([`HostGlobals::observe`] on
//! wasm32):
//!
//! | host | what it exposes | treated as |
//! |---|---|---|
//! | browser page (also jsdom, happy-dom) | `document`, `window` | browser |
//! | dedicated, shared or service worker | `WorkerGlobalScope`, browser `navigator.userAgent` | browser |
//! | Node.js | `process.versions.node` | server |
//! | Deno, Deno Deploy (Deno 1 also defines `window`) | `Deno.version.deno` | server |
//! | Bun | `Bun.version` | server |
//! | Cloudflare Workers (workerd; defines `WorkerGlobalScope`) | `navigator.userAgent === "Cloudflare-Workers"` | server |
//! | Vercel Edge, Next.js edge routes (edge-runtime) | `EdgeRuntime` (a string) | server |
//! | any other host without those globals | none of them | server |
//!
//! A `document` always means a page (a real one, or one simulated by jsdom or happy-dom in a
//! Node, Deno or Bun test), so it is checked first; then the server runtimes' own marks; then
//! the browser globals a worker or page has.

// Natively there is no host to observe: the rule is reached by its tests only.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

/// The globals of a JavaScript host that decide whether it is browser-like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostGlobals {
    /// A `document` global: a page (or a DOM simulation such as jsdom).
    pub document: bool,
    /// A `window` global: a page (Deno 1 defines one too).
    pub window: bool,
    /// A `WorkerGlobalScope` global: a browser worker, or workerd.
    pub worker_global_scope: bool,
    /// `process.versions.node` is a string: Node.js (Bun and Deno define it too).
    pub node: bool,
    /// `Deno.version.deno` is a string: Deno or Deno Deploy.
    pub deno: bool,
    /// `Bun.version` is a string: Bun.
    pub bun: bool,
    /// `EdgeRuntime` is a string: Vercel Edge, or a Next.js edge route.
    pub edge_runtime: bool,
    /// `navigator.userAgent` is `"Cloudflare-Workers"`: workerd (Cloudflare Workers, wrangler).
    pub cloudflare_workers: bool,
}

impl HostGlobals {
    /// Whether page visitors can read a client's key here: a page, or a browser worker. Server
    /// runtimes (Node, Deno, Bun, workerd, edge runtimes) are not browser-like, even where they
    /// define a browser global (workerd's `WorkerGlobalScope`, Deno 1's `window`).
    pub fn is_browser_like(&self) -> bool {
        if self.document {
            return true;
        }
        let server =
            self.node || self.deno || self.bun || self.edge_runtime || self.cloudflare_workers;
        !server && (self.window || self.worker_global_scope)
    }

    /// Reads the globals of the running host (by name, catching throwing getters).
    #[cfg(target_arch = "wasm32")]
    pub fn observe() -> Self {
        use crate::json::js_impl::member_or_undefined as member;
        let g = crate::transport::global();
        let defined = |name: &str| !member(&g, name).is_undefined();
        let string_at = |path: &[&str]| {
            path.iter()
                .fold(g.clone(), |value, name| member(&value, name))
                .is_string()
        };
        HostGlobals {
            document: defined("document"),
            window: defined("window"),
            worker_global_scope: defined("WorkerGlobalScope"),
            node: string_at(&["process", "versions", "node"]),
            deno: string_at(&["Deno", "version", "deno"]),
            bun: string_at(&["Bun", "version"]),
            edge_runtime: string_at(&["EdgeRuntime"]),
            cloudflare_workers: member(&member(&g, "navigator"), "userAgent")
                .as_string()
                .as_deref()
                == Some("Cloudflare-Workers"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(f: impl FnOnce(&mut HostGlobals)) -> HostGlobals {
        let mut h = HostGlobals::default();
        f(&mut h);
        h
    }

    #[test]
    fn pages_and_browser_workers_are_browser_like() {
        let page = host(|h| {
            h.document = true;
            h.window = true;
        });
        assert!(page.is_browser_like());
        assert!(host(|h| h.worker_global_scope = true).is_browser_like());
        assert!(host(|h| h.window = true).is_browser_like());
    }

    #[test]
    fn a_dom_simulation_in_a_server_runtime_is_a_page() {
        // jsdom in Node (Vitest, Jest), happy-dom in Bun.
        for server in [
            host(|h| h.node = true),
            host(|h| {
                h.node = true;
                h.bun = true;
            }),
        ] {
            let simulated = HostGlobals {
                document: true,
                window: true,
                ..server
            };
            assert!(simulated.is_browser_like());
        }
    }

    #[test]
    fn server_runtimes_are_not_browser_like() {
        let node = host(|h| h.node = true);
        let deno1 = host(|h| {
            h.deno = true;
            h.window = true;
        });
        let deno2 = host(|h| {
            h.deno = true;
            h.node = true;
        });
        let bun = host(|h| {
            h.bun = true;
            h.node = true;
        });
        let workerd = host(|h| {
            h.worker_global_scope = true;
            h.cloudflare_workers = true;
        });
        let edge = host(|h| h.edge_runtime = true);
        let unknown = HostGlobals::default();
        for (name, h) in [
            ("node", node),
            ("deno 1", deno1),
            ("deno 2", deno2),
            ("bun", bun),
            ("workerd", workerd),
            ("edge", edge),
            ("unknown", unknown),
        ] {
            assert!(!h.is_browser_like(), "{name} is a server");
        }
    }
}
