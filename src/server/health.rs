//! Health as balancers and gRPC's own health checking read it (`grpc.health.v1`):
//! - the status follows a shared store's readiness (Redis reachable or not) until shutdown
//!   begins, which then owns it;
//! - `Health/Watch` streams are ended when the drain starts (tonic-health's never end by
//!   themselves), so a client watching health does not wait out the whole drain timeout.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::TryFutureExt;
use futures_util::future::{Either, MapOk};
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tonic::Status;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower::{Layer, Service};

use crate::SERVICE_NAME;
use crate::error::ServiceError;

/// The path of the streaming health call.
const WATCH: &str = "/grpc.health.v1.Health/Watch";

/// Sets the status of the server as a whole ("") and of the game service.
pub async fn set(health: &HealthReporter, status: ServingStatus) {
    health.set_service_status("", status).await;
    health.set_service_status(SERVICE_NAME, status).await;
}

/// Keeps the health status in step with a shared store's readiness until `stopping`.
pub async fn follow_readiness(
    mut ready: tokio::sync::watch::Receiver<bool>,
    health: HealthReporter,
    stopping: CancellationToken,
) {
    loop {
        let status = if *ready.borrow_and_update() {
            ServingStatus::Serving
        } else {
            ServingStatus::NotServing
        };
        if stopping.is_cancelled() {
            return;
        }
        set(&health, status).await;
        tokio::select! {
            changed = ready.changed() => if changed.is_err() { return },
            () = stopping.cancelled() => return,
        }
    }
}

/// The layer that ends `Health/Watch` streams when `draining` is cancelled.
#[derive(Clone, Debug)]
pub struct EndWatchesLayer {
    draining: CancellationToken,
}

impl EndWatchesLayer {
    #[must_use]
    pub fn new(draining: CancellationToken) -> EndWatchesLayer {
        EndWatchesLayer { draining }
    }
}

impl<S> Layer<S> for EndWatchesLayer {
    type Service = EndWatches<S>;

    fn layer(&self, inner: S) -> EndWatches<S> {
        EndWatches {
            inner,
            draining: self.draining.clone(),
        }
    }
}

/// See [`EndWatchesLayer`].
#[derive(Clone, Debug)]
pub struct EndWatches<S> {
    inner: S,
    draining: CancellationToken,
}

type Wrap =
    Box<dyn FnOnce(http::Response<tonic::body::Body>) -> http::Response<tonic::body::Body> + Send>;

impl<S, B> Service<http::Request<B>> for EndWatches<S>
where
    S: Service<http::Request<B>, Response = http::Response<tonic::body::Body>>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    /// Other calls go through with their own future, unboxed.
    type Future = Either<MapOk<S::Future, Wrap>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        if request.uri().path() != WATCH {
            return Either::Right(self.inner.call(request));
        }
        let draining = self.draining.clone();
        let wrap: Wrap = Box::new(move |response| {
            response.map(|body| {
                tonic::body::Body::new(EndOnDrain {
                    body,
                    draining: draining.cancelled_owned(),
                    ended: false,
                })
            })
        });
        Either::Left(self.inner.call(request).map_ok(wrap))
    }
}

pin_project! {
    /// A health Watch body that ends, with UNAVAILABLE (SHUTTING_DOWN) in its trailers, when
    /// the drain starts. tonic yields whole messages per frame, so the end falls between
    /// messages.
    struct EndOnDrain {
        #[pin]
        body: tonic::body::Body,
        #[pin]
        draining: WaitForCancellationFutureOwned,
        ended: bool,
    }
}

impl Body for EndOnDrain {
    type Data = hyper::body::Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if *this.ended {
            return Poll::Ready(None);
        }
        if this.draining.poll(cx).is_ready() {
            *this.ended = true;
            let mut trailers = http::HeaderMap::new();
            // Writing a status into headers fails only for an unencodable message; ours is plain.
            let _ = ServiceError::ShuttingDown {
                resume_after_seq: None,
            }
            .status()
            .add_header(&mut trailers);
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        this.body.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
