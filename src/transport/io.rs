//! `Watched`: the byte stream under hyper, which sees what a peer does before hyper makes
//! sense of it:
//! - the **greeting**: the bytes read are matched against the HTTP/2 connection preface and the
//!   header of the first frame, which must be SETTINGS; once that frame has been read whole the
//!   connection has greeted (a peer speaking HTTP/1.1 greets with its first request instead,
//!   which the connection's service sees);
//! - **write stalls**: a write that the peer leaves pending (no byte taken, TCP's window shut)
//!   for the stall timeout fails, so hyper closes the connection. This covers what HTTP/2
//!   keepalive cannot: an HTTP/1.1 gRPC-Web stream whose reader stopped reading.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use crate::transport::state::ConnState;

/// What every HTTP/2 client sends first (RFC 9113, section 3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// The frame type of SETTINGS, which must follow the preface.
const SETTINGS: u8 = 0x4;

/// How far the peer's greeting has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Greeting {
    /// `matched` bytes of the preface seen.
    Preface { matched: usize },
    /// The first frame's 9-byte header, `got` bytes of it so far.
    FrameHeader { header: [u8; 9], got: usize },
    /// The SETTINGS payload, `left` bytes still to come.
    Settings { left: usize },
    /// HTTP/2 greeting complete, or not HTTP/2 (HTTP/1.1 greets with a request): either way
    /// nothing more to watch here.
    Over,
}

impl Greeting {
    /// Takes the next bytes read; `true` once an HTTP/2 greeting is complete.
    fn feed(&mut self, mut bytes: &[u8]) -> bool {
        while let Some((&byte, rest)) = bytes.split_first() {
            match self {
                Greeting::Preface { matched } => {
                    if byte != PREFACE[*matched] {
                        // Not HTTP/2 (`POST /...`, `GET /...`): its first request greets.
                        *self = Greeting::Over;
                        return false;
                    }
                    *matched += 1;
                    if *matched == PREFACE.len() {
                        *self = Greeting::FrameHeader {
                            header: [0; 9],
                            got: 0,
                        };
                    }
                }
                Greeting::FrameHeader { header, got } => {
                    header[*got] = byte;
                    *got += 1;
                    if *got == header.len() {
                        if header[3] != SETTINGS {
                            // A protocol error hyper answers itself; it is not a greeting.
                            *self = Greeting::Over;
                            return false;
                        }
                        let left = u32::from_be_bytes([0, header[0], header[1], header[2]]);
                        if left == 0 {
                            *self = Greeting::Over;
                            return true;
                        }
                        *self = Greeting::Settings {
                            left: left as usize,
                        };
                    }
                }
                Greeting::Settings { left } => {
                    let take = (*left).min(bytes.len());
                    *left -= take;
                    if *left == 0 {
                        *self = Greeting::Over;
                        return true;
                    }
                    bytes = &bytes[take..];
                    continue;
                }
                Greeting::Over => return false,
            }
            bytes = rest;
        }
        false
    }
}

/// A connection's byte stream, watched (see the module doc).
#[derive(Debug)]
pub(super) struct Watched<T> {
    inner: T,
    conn: Arc<ConnState>,
    greeting: Greeting,
    stall_timeout: Duration,
    /// Armed while a write waits on the peer; allocated on the first stall only.
    stall: Option<Pin<Box<Sleep>>>,
    /// The armed deadline is live (`stall` keeps its allocation between stalls).
    stalled: bool,
}

impl<T> Watched<T> {
    pub(super) fn new(inner: T, conn: Arc<ConnState>, stall_timeout: Duration) -> Watched<T> {
        Watched {
            inner,
            conn,
            greeting: Greeting::Preface { matched: 0 },
            stall_timeout,
            stall: None,
            stalled: false,
        }
    }

    /// Passes a write's outcome on; a write left pending past the stall timeout becomes an
    /// error that closes the connection.
    fn watch_write<R>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if polled.is_ready() {
            self.stalled = false;
            return polled;
        }
        let deadline = Instant::now() + self.stall_timeout;
        if !self.stalled {
            self.stalled = true;
            match &mut self.stall {
                Some(sleep) => sleep.as_mut().reset(deadline),
                None => self.stall = Some(Box::pin(tokio::time::sleep_until(deadline))),
            }
        }
        let Some(sleep) = self.stall.as_mut() else {
            return Poll::Pending;
        };
        ready!(sleep.as_mut().poll(cx));
        self.conn.write_stalled();
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the peer took no bytes for the stall timeout",
        )))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        if this.greeting != Greeting::Over && this.greeting.feed(&buf.filled()[before..]) {
            this.conn.greet();
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watch_write(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.watch_write(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch_write(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A peer whose window never opens: every write waits.
    struct Shut;

    impl AsyncWrite for Shut {
        fn poll_write(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            _: &[u8],
        ) -> Poll<io::Result<usize>> {
            Poll::Pending
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Pending
        }
        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    fn conn() -> Arc<ConnState> {
        let addr = "127.0.0.1:1".parse().unwrap();
        Arc::new(ConnState::new(
            1,
            addr,
            addr,
            Arc::default(),
            tokio_util::sync::CancellationToken::new(),
        ))
    }

    /// A write the peer takes nothing of fails after the stall timeout, not before.
    #[tokio::test(start_paused = true)]
    async fn writes_that_stall_fail() {
        use tokio::io::AsyncWriteExt;
        let mut io = Watched::new(Shut, conn(), Duration::from_secs(10));
        let started = Instant::now();
        let failed = io.write_all(b"event").await.unwrap_err();
        assert_eq!(failed.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }

    /// A greeting is the preface and one whole SETTINGS frame, however the bytes are split.
    #[test]
    fn http2_greeting_in_any_pieces() {
        let mut bytes = PREFACE.to_vec();
        // SETTINGS with one 6-byte setting, then a WINDOW_UPDATE that must not matter.
        bytes.extend_from_slice(&[0, 0, 6, SETTINGS, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&[0, 3, 0, 0, 0, 100]);
        let complete = bytes.len();
        bytes.extend_from_slice(&[0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
        for split in 1..bytes.len() {
            let mut g = Greeting::Preface { matched: 0 };
            let first = g.feed(&bytes[..split]);
            let second = g.feed(&bytes[split..]);
            assert_eq!(
                (first, second),
                (split >= complete, split < complete),
                "split at {split}"
            );
            assert_eq!(g, Greeting::Over);
        }
    }

    /// An empty SETTINGS frame completes the greeting with its header.
    #[test]
    fn empty_settings() {
        let mut g = Greeting::Preface { matched: 0 };
        let mut bytes = PREFACE.to_vec();
        bytes.extend_from_slice(&[0, 0, 0, SETTINGS, 0, 0, 0, 0, 0]);
        assert!(g.feed(&bytes));
    }

    /// HTTP/1.1 and garbage are not an HTTP/2 greeting, nor is a preface followed by another
    /// frame type; a preface alone is not finished.
    #[test]
    fn not_a_greeting() {
        for bytes in [
            &b"POST /chessd.v1.GameService/GetGame HTTP/1.1\r\n"[..],
            b"GET / HTTP/1.1\r\n",
            b"\x16\x03\x01",
            b"PRI * HTTP/1.1",
        ] {
            let mut g = Greeting::Preface { matched: 0 };
            assert!(!g.feed(bytes), "{bytes:?}");
            assert_eq!(g, Greeting::Over, "{bytes:?}");
        }
        let mut g = Greeting::Preface { matched: 0 };
        assert!(!g.feed(PREFACE));
        assert_ne!(g, Greeting::Over);
        let mut ping = PREFACE.to_vec();
        ping.extend_from_slice(&[0, 0, 8, 6, 0, 0, 0, 0, 0]);
        let mut g = Greeting::Preface { matched: 0 };
        assert!(!g.feed(&ping));
        assert_eq!(g, Greeting::Over);
    }
}
