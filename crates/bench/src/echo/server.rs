//! `chessd-bench echo serve`: the EchoService on plain `tonic::transport::Server`, with
//! tonic's defaults and no layers, until Ctrl-C or SIGTERM.
//!
//! Echo answers with its request's move. Subscribe opens a receiver on the topic's
//! `tokio::sync::broadcast` and streams what Publish sends to it; a stream that falls more
//! than [`TOPIC_BUFFER`] moves behind ends with DATA_LOSS, as chessd ends a watcher that
//! cannot keep up.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll, ready};

use tokio::sync::broadcast;
use tokio_stream::Stream;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tonic::transport::server::TcpIncoming;
use tonic::{Request, Response, Status};

use super::{
    EchoRequest, EchoResponse, EchoService, EchoServiceServer, PublishRequest, PublishResponse,
    SubscribeRequest, SubscribeResponse,
};
use crate::error::{BenchError, fail};
use crate::flags::EchoServeArgs;
use crate::report::write_lines;

/// Moves a topic holds for its slowest stream.
pub const TOPIC_BUFFER: usize = 1024;
/// Topics at once; beyond it Subscribe answers RESOURCE_EXHAUSTED.
const MAX_TOPICS: usize = 10_000;

/// The service: topics by name.
#[derive(Default)]
pub struct Echo {
    /// A std mutex: held only to look a topic up or add one, never across an `.await`.
    topics: Mutex<HashMap<String, broadcast::Sender<SubscribeResponse>>>,
}

impl Echo {
    fn topics(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<SubscribeResponse>>> {
        self.topics.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[tonic::async_trait]
impl EchoService for Echo {
    async fn echo(&self, request: Request<EchoRequest>) -> Result<Response<EchoResponse>, Status> {
        Ok(Response::new(EchoResponse {
            r#move: request.into_inner().r#move,
        }))
    }

    type SubscribeStream = Deliveries;

    async fn subscribe(
        &self,
        request: Request<SubscribeRequest>,
    ) -> Result<Response<Deliveries>, Status> {
        let topic = request.into_inner().topic;
        let mut topics = self.topics();
        if !topics.contains_key(&topic) && topics.len() >= MAX_TOPICS {
            // Topics whose streams have all ended make room first.
            topics.retain(|_, tx| tx.receiver_count() > 0);
            if topics.len() >= MAX_TOPICS {
                return Err(Status::resource_exhausted(format!(
                    "at most {MAX_TOPICS} topics at once"
                )));
            }
        }
        let receiver = topics
            .entry(topic)
            .or_insert_with(|| broadcast::channel(TOPIC_BUFFER).0)
            .subscribe();
        Ok(Response::new(Deliveries {
            inner: BroadcastStream::new(receiver),
            ended: false,
        }))
    }

    async fn publish(
        &self,
        request: Request<PublishRequest>,
    ) -> Result<Response<PublishResponse>, Status> {
        let PublishRequest { topic, r#move } = request.into_inner();
        let receivers = match self.topics().get(&topic) {
            // No open stream is no error: nobody hears it.
            Some(tx) => tx.send(SubscribeResponse { r#move }).unwrap_or(0),
            None => 0,
        };
        Ok(Response::new(PublishResponse {
            receivers: u32::try_from(receivers).unwrap_or(u32::MAX),
        }))
    }
}

/// One Subscribe stream: the topic's moves until the client leaves or falls too far behind.
pub struct Deliveries {
    inner: BroadcastStream<SubscribeResponse>,
    ended: bool,
}

impl Stream for Deliveries {
    type Item = Result<SubscribeResponse, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match ready!(Pin::new(&mut self.inner).poll_next(cx)) {
            Some(Ok(delivery)) => Poll::Ready(Some(Ok(delivery))),
            Some(Err(BroadcastStreamRecvError::Lagged(missed))) => {
                self.ended = true;
                Poll::Ready(Some(Err(Status::data_loss(format!(
                    "the stream fell {missed} moves behind (buffer {TOPIC_BUFFER})"
                )))))
            }
            None => Poll::Ready(None),
        }
    }
}

/// Binds `addr` and serves until `shutdown` resolves; `bound` hears the address first (the
/// real port when `addr` asks for port 0).
pub async fn serve(
    addr: SocketAddr,
    bound: impl FnOnce(SocketAddr),
    shutdown: impl Future<Output = ()>,
) -> Result<(), BenchError> {
    let incoming = TcpIncoming::bind(addr)
        .map_err(|e| fail(&format!("listen on {addr}"), e))?
        .with_nodelay(Some(true));
    let local = incoming
        .local_addr()
        .map_err(|e| fail("listener address", e))?;
    bound(local);
    tonic::transport::Server::builder()
        .add_service(EchoServiceServer::new(Echo::default()))
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await
        .map_err(|e| fail("echo server", e))
}

/// `echo serve`: serves on `--addr` until Ctrl-C or SIGTERM, after printing
/// `echo: listening on ADDR` on `out`.
pub async fn run(args: &EchoServeArgs, out: &mut dyn Write) -> Result<(), BenchError> {
    args.check()?;
    let mut said = Ok(());
    let result = serve(
        args.addr,
        |addr| said = write_lines(out, [format!("echo: listening on {addr}")]),
        stop_signal(),
    )
    .await;
    said.and(result)
}

/// Ctrl-C or SIGTERM, whichever comes first.
async fn stop_signal() {
    let ctrl_c = async {
        // Without a handler the signal's default action stops the process anyway.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    () = ctrl_c => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => ctrl_c.await,
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}
