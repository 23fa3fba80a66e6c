//! Health as balancers and gRPC's own health checking read it (`grpc.health.v1`):
//! - the status follows a shared store's readiness (Redis reachable or not) until shutdown
//!   begins; from then on it is NOT_SERVING for good ([`Health`]);
//! - `Health/Watch` streams are ended when the drain starts (tonic-health's never end by
//!   themselves), after the NOT_SERVING update, so a client watching health learns it and
//!   does not wait out the whole drain timeout.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::TryFutureExt;
use futures_util::future::{Either, MapOk};
use http_body::{Body, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use tonic::Status;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower::{Layer, Service};

use crate::SERVICE_NAME;
use crate::error::ServiceError;
use crate::store::stream_error::StreamError;

/// The path of the streaming health call.
const WATCH: &str = "/grpc.health.v1.Health/Watch";

/// The health status's one writer: it follows a shared store's readiness until [`stop`],
/// then writes NOT_SERVING last. A single task owns the reporter, so no probe's SERVING can
/// land after the shutdown's NOT_SERVING (two writers, each writing two services, could
/// interleave).
///
/// [`stop`]: Health::stop
#[derive(Debug)]
pub(super) struct Health {
    stopping: CancellationToken,
    writer: JoinHandle<()>,
}

impl Health {
    /// Starts the writer once the first status is written (SERVING with no readiness to
    /// follow, else NOT_SERVING until the store is ready), so a check never finds the service
    /// unknown.
    pub(super) async fn start(
        reporter: HealthReporter,
        ready: Option<watch::Receiver<bool>>,
    ) -> Health {
        let first = if ready.is_some() {
            ServingStatus::NotServing
        } else {
            ServingStatus::Serving
        };
        set(&reporter, first).await;
        let stopping = CancellationToken::new();
        let writer = tokio::spawn(write(reporter, ready, stopping.clone()));
        Health { stopping, writer }
    }

    /// Turns health NOT_SERVING for good; returns once that is what every check and watch
    /// sees.
    pub(super) async fn stop(self) {
        self.stopping.cancel();
        // The writer only ends by returning (a panic there would be a bug; the status is then
        // whatever it last wrote, and the shutdown goes on).
        let _ = self.writer.await;
    }
}

/// The writer's life (see [`Health`]).
async fn write(
    reporter: HealthReporter,
    ready: Option<watch::Receiver<bool>>,
    stopping: CancellationToken,
) {
    if let Some(mut ready) = ready {
        loop {
            let status = if *ready.borrow_and_update() {
                ServingStatus::Serving
            } else {
                ServingStatus::NotServing
            };
            set(&reporter, status).await;
            tokio::select! {
                biased;
                () = stopping.cancelled() => break,
                changed = ready.changed() => if changed.is_err() {
                    // The store is gone: nothing will change it any more.
                    break;
                },
            }
        }
    }
    stopping.cancelled().await;
    set(&reporter, ServingStatus::NotServing).await;
}

/// Sets the status of the server as a whole ("") and of the game service.
async fn set(health: &HealthReporter, status: ServingStatus) {
    health.set_service_status("", status).await;
    health.set_service_status(SERVICE_NAME, status).await;
}

/// The layer that ends `Health/Watch` streams when `draining` is cancelled.
#[derive(Clone, Debug)]
pub(super) struct EndWatchesLayer {
    draining: CancellationToken,
}

impl EndWatchesLayer {
    #[must_use]
    pub(super) fn new(draining: CancellationToken) -> EndWatchesLayer {
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
pub(super) struct EndWatches<S> {
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
        let mut this = self.project();
        if *this.ended {
            return Poll::Ready(None);
        }
        if this.draining.poll(cx).is_ready() {
            // An update already made (NOT_SERVING, written before the drain) goes out first.
            if let Poll::Ready(Some(Ok(frame))) = this.body.as_mut().poll_frame(cx)
                && frame.is_data()
            {
                return Poll::Ready(Some(Ok(frame)));
            }
            *this.ended = true;
            let mut trailers = http::HeaderMap::new();
            // Writing a status into headers fails only for an unencodable message; ours is plain.
            let _ = ServiceError::Stream(StreamError::ShuttingDown {
                resume_after_seq: None,
            })
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

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;
    use tonic::Request;
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_server::Health as _;
    use tonic_health::server::HealthService;

    use super::*;

    /// The status a check of `name` answers; -1 while the service is not yet known.
    async fn status(service: &HealthService, name: &str) -> i32 {
        match service
            .check(Request::new(HealthCheckRequest {
                service: name.into(),
            }))
            .await
        {
            Ok(answer) => answer.into_inner().status,
            Err(status) if status.code() == tonic::Code::NotFound => -1,
            Err(status) => panic!("check of {name:?}: {status:?}"),
        }
    }

    /// Both the server's status and the game service's, as checks see them.
    async fn statuses(service: &HealthService) -> [i32; 2] {
        [
            status(service, "").await,
            status(service, SERVICE_NAME).await,
        ]
    }

    const SERVING: i32 = ServingStatus::Serving as i32;
    const NOT_SERVING: i32 = ServingStatus::NotServing as i32;

    /// Health follows the store's readiness until the shutdown; from then on nothing the store
    /// says turns it back to SERVING, and a watcher's last update is NOT_SERVING.
    #[tokio::test]
    async fn after_stop_the_store_cannot_turn_health_back_on() {
        let (reporter, _) = tonic_health::server::health_reporter();
        let service = HealthService::from_health_reporter(reporter.clone());
        let (ready, readiness) = watch::channel(false);
        let health = Health::start(reporter, Some(readiness)).await;
        let mut updates = service
            .watch(Request::new(HealthCheckRequest {
                service: String::new(),
            }))
            .await
            .unwrap()
            .into_inner();
        ready.send(true).unwrap();
        while statuses(&service).await != [SERVING; 2] {
            tokio::task::yield_now().await;
        }
        health.stop().await;
        assert_eq!(statuses(&service).await, [NOT_SERVING; 2]);
        ready.send_replace(false);
        ready.send_replace(true);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(statuses(&service).await, [NOT_SERVING; 2]);
        let mut last = None;
        while let Ok(Some(update)) =
            tokio::time::timeout(std::time::Duration::from_millis(50), updates.next()).await
        {
            last = Some(update.unwrap().status);
        }
        assert_eq!(last, Some(NOT_SERVING));
    }

    /// The shutdown racing a flapping store (a probe's answer landing as the grace begins),
    /// many times over on several threads: the status after `stop` is NOT_SERVING every time.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_probe_racing_the_shutdown_never_wins() {
        for _ in 0..200 {
            let (reporter, _) = tonic_health::server::health_reporter();
            let service = HealthService::from_health_reporter(reporter.clone());
            let (ready, readiness) = watch::channel(true);
            let health = Health::start(reporter, Some(readiness)).await;
            let flapping = tokio::spawn(async move {
                for i in 0..50 {
                    ready.send_replace(i % 2 == 0);
                    tokio::task::yield_now().await;
                }
            });
            tokio::task::yield_now().await;
            health.stop().await;
            flapping.await.unwrap();
            assert_eq!(statuses(&service).await, [NOT_SERVING; 2]);
        }
    }

    /// Without a store to follow: SERVING, then NOT_SERVING at the stop.
    #[tokio::test]
    async fn without_readiness_serving_until_stopped() {
        let (reporter, _) = tonic_health::server::health_reporter();
        let service = HealthService::from_health_reporter(reporter.clone());
        let health = Health::start(reporter, None).await;
        while statuses(&service).await != [SERVING; 2] {
            tokio::task::yield_now().await;
        }
        health.stop().await;
        assert_eq!(statuses(&service).await, [NOT_SERVING; 2]);
    }
}
