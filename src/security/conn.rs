//! The cap on open connections (`--max-connections`): the incoming stream takes a semaphore
//! permit before each accept and the connection holds it until it closes, so beyond the cap
//! new connections wait in the kernel's accept queue instead of costing memory and tasks here.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::server::{Connected, TcpConnectInfo};

/// A TCP connection holding its place under the cap.
#[derive(Debug)]
pub struct Capped {
    stream: TcpStream,
    /// Released when the connection is dropped.
    _permit: OwnedSemaphorePermit,
}

impl Connected for Capped {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.stream.connect_info()
    }
}

impl AsyncRead for Capped {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Capped {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// After an accept error (out of file descriptors, typically), the loop pauses this long
/// rather than spinning on the same error.
const ACCEPT_ERROR_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// Accepts connections from `listener`, at most `max` open at once. An accept task feeds a
/// channel of one: it takes a permit, accepts, hands the connection over, and stops when the
/// server drops the stream (which closes the listening socket at once).
pub fn incoming(listener: TcpListener, max: usize) -> ReceiverStream<io::Result<Capped>> {
    let (tx, rx) = mpsc::channel(1);
    let permits = Arc::new(Semaphore::new(max.clamp(1, Semaphore::MAX_PERMITS)));
    tokio::spawn(async move {
        loop {
            let permit = tokio::select! {
                permit = permits.clone().acquire_owned() => permit,
                () = tx.closed() => return,
            };
            // The semaphore is never closed; an error would mean it was.
            let Ok(permit) = permit else { return };
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                () = tx.closed() => return,
            };
            let failed = accepted.is_err();
            let item = accepted.map(|(stream, _)| {
                // Moves are small and latency matters more than packet count. Failing to set
                // the option only costs latency.
                let _ = stream.set_nodelay(true);
                Capped {
                    stream,
                    _permit: permit,
                }
            });
            if tx.send(item).await.is_err() {
                return;
            }
            if failed {
                tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
            }
        }
    });
    ReceiverStream::new(rx)
}
