//! The accept loop: hyper HTTP/1.1 connections served by the axum router, with a
//! per-connection handle that lets a handler drop the TCP connection without answering
//! (the `drop` fault).

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::ServiceExt;

/// Inserted into every request's extensions; `abort()` kills the connection.
#[derive(Default, Debug)]
pub struct ConnControl {
    aborted: AtomicBool,
    notify: Notify,
}

impl ConnControl {
    /// Closes the TCP connection with a reset, without sending any HTTP response.
    pub fn abort(&self) {
        self.aborted.store(true, Ordering::SeqCst);
        self.notify.notify_one();
    }

    fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::SeqCst)
    }
}

/// A TCP stream that, when dropped after an abort, closes with RST (SO_LINGER 0) so the
/// peer sees a hard network error instead of an orderly end of stream.
struct AbortableStream {
    inner: TcpStream,
    ctl: Arc<ConnControl>,
}

impl Drop for AbortableStream {
    fn drop(&mut self) {
        if self.ctl.is_aborted() {
            let _ = socket2::SockRef::from(&self.inner).set_linger(Some(Duration::ZERO));
        }
    }
}

impl AsyncRead for AbortableStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for AbortableStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Accepts connections until `shutdown` flips, serving each with `app`.
pub async fn serve(listener: TcpListener, app: Router, mut shutdown: watch::Receiver<bool>) {
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => stream,
                Err(_) => {
                    // e.g. EMFILE: back off briefly instead of spinning.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            _ = shutdown.changed() => break,
        };
        tokio::spawn(serve_connection(stream, app.clone()));
    }
}

async fn serve_connection(stream: TcpStream, app: Router) {
    let _ = stream.set_nodelay(true);
    let ctl = Arc::new(ConnControl::default());
    let io = TokioIo::new(AbortableStream {
        inner: stream,
        ctl: ctl.clone(),
    });
    let req_ctl = ctl.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(req_ctl.clone());
        app.clone().oneshot(req.map(axum::body::Body::new))
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = ctl.notify.notified() => {
            // Dropping `conn` (at the end of this scope) drops the stream: RST, no response.
        }
    }
}
