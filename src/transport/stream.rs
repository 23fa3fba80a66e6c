//! Calls on a connection: the service hyper calls for each request, the executor hyper spawns
//! each HTTP/2 stream on, and what they hand the handlers.
//!
//! - Each call counts as open on its connection from the request until its response body is
//!   dropped (`CallGuard` rides in the future, then in the body), which is what the idle
//!   timeout measures.
//! - Each call gets a [`StreamReset`] in its request extensions: the way to end the call's
//!   transport at once. A stream whose peer grants no flow-control window is never polled
//!   again by hyper, so nothing inside it can end it; only dropping hyper's task for the
//!   stream can (h2 then sends RST_STREAM). hyper calls the service and then, in the same
//!   synchronous step, hands the stream's task to the executor; the service leaves the call's
//!   token on the connection and the executor takes it, so every HTTP/2 stream task is spawned
//!   with its own token. An HTTP/1.1 connection carries one call at a time, so there the token
//!   is the connection's own: resetting the call closes the connection.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use pin_project_lite::pin_project;
use tokio_util::sync::CancellationToken;
use tonic::transport::server::TcpConnectInfo;
use tower::ServiceExt;
use tower::util::Oneshot;

use crate::transport::state::{CallGuard, ConnState};
use crate::woken::WhenWoken;

/// Ends a call's transport at once (see the module doc): RST_STREAM for an HTTP/2 stream, the
/// connection closed for HTTP/1.1. Calls served some other way get one that does nothing.
#[derive(Clone, Debug, Default)]
pub struct StreamReset(CancellationToken);

impl StreamReset {
    /// Ends the call's transport. Idempotent.
    pub fn reset(&self) {
        self.0.cancel();
    }
}

/// The service hyper calls on one connection: the shared services, with the connection's
/// facts added to each request.
#[derive(Clone, Debug)]
pub(super) struct ConnService<S> {
    pub(super) inner: S,
    pub(super) conn: Arc<ConnState>,
}

impl<S, B> hyper::service::Service<http::Request<Incoming>> for ConnService<S>
where
    S: tower::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<B>,
            Error = Infallible,
        > + Clone,
{
    type Response = http::Response<Tracked<B>>;
    type Error = Infallible;
    type Future = TrackedFuture<Oneshot<S, http::Request<tonic::body::Body>>>;

    fn call(&self, request: http::Request<Incoming>) -> Self::Future {
        // An HTTP/1.1 peer greets with its first request (HTTP/2 greets in `io`).
        self.conn.greet();
        let token = if request.version() == http::Version::HTTP_2 {
            let token = CancellationToken::new();
            self.conn.offer_stream_token(token.clone());
            token
        } else {
            self.conn.close_token()
        };
        let mut request = request.map(tonic::body::Body::new);
        let extensions = request.extensions_mut();
        extensions.insert(TcpConnectInfo {
            local_addr: Some(self.conn.local),
            remote_addr: Some(self.conn.peer),
        });
        extensions.insert(StreamReset(token));
        TrackedFuture {
            inner: self.inner.clone().oneshot(request),
            guard: Some(self.conn.begin_call()),
        }
    }
}

pin_project! {
    /// A call's future, counting the call as open.
    pub struct TrackedFuture<F> {
        #[pin]
        inner: F,
        guard: Option<CallGuard>,
    }
}

impl<F, B> Future for TrackedFuture<F>
where
    F: Future<Output = Result<http::Response<B>, Infallible>>,
{
    type Output = Result<http::Response<Tracked<B>>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(response) = ready!(this.inner.poll(cx));
        let guard = this.guard.take();
        Poll::Ready(Ok(response.map(|body| Tracked {
            body,
            _guard: guard,
        })))
    }
}

pin_project! {
    /// A response body, counting its call as open until it is dropped.
    pub struct Tracked<B> {
        #[pin]
        body: B,
        _guard: Option<CallGuard>,
    }
}

impl<B: Body> Body for Tracked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        self.project().body.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The executor of one connection's HTTP/2 stream tasks (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct StreamExec {
    pub(super) conn: Arc<ConnState>,
}

impl<F> hyper::rt::Executor<F> for StreamExec
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, task: F) {
        match self.conn.take_stream_token() {
            Some(token) => {
                tokio::spawn(async move {
                    tokio::select! {
                        biased;
                        // Dropping the task drops h2's handles of the stream: RST_STREAM.
                        // Polled only when it wakes: a stream's task is polled for each of
                        // its messages.
                        () = WhenWoken::new(token.cancelled()) => {}
                        () = task => {}
                    }
                });
            }
            None => {
                tokio::spawn(task);
            }
        }
    }
}
