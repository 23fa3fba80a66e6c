//! `Coalesced`'s tests: what reaches the peer, in how many writes, against a recording peer
//! and against h2 itself.

use super::*;

use std::future::poll_fn;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A peer that records each write call, taking at most `take` bytes of one and nothing
/// while `shut`.
#[derive(Default)]
struct Peer {
    writes: Vec<Vec<u8>>,
    take: Option<usize>,
    shut: bool,
    flushes: usize,
    /// Flushes wait, as TLS's do when the socket takes no more of its records.
    flush_waits: bool,
    closed: bool,
}

impl AsyncWrite for Peer {
    fn poll_write(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.shut {
            return Poll::Pending;
        }
        let n = self.take.map_or(buf.len(), |t| t.min(buf.len()));
        self.writes.push(buf[..n].to_vec());
        Poll::Ready(Ok(n))
    }
    fn poll_flush(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.flush_waits {
            return Poll::Pending;
        }
        self.flushes += 1;
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.closed = true;
        Poll::Ready(Ok(()))
    }
}

fn peer(held: &WriteOut<Peer>) -> MutexGuard<'_, Held<Peer>> {
    lock(&held.held)
}

/// Writes and flushes within one poll reach the peer as one write, when the driver writes
/// out, followed by a flush of the stream beneath (TLS keeps records until then).
#[tokio::test]
async fn one_poll_one_write() {
    use tokio::io::AsyncWriteExt;
    let (mut io, out) = coalesced(Peer::default());
    io.write_all(b"HEADERS").await.unwrap();
    io.write_all(&[7; 1000]).await.unwrap();
    io.flush().await.unwrap();
    io.write_all(b"TRAILERS").await.unwrap();
    io.flush().await.unwrap();
    assert!(peer(&out).io.writes.is_empty());
    poll_fn(|cx| out.poll_write_out(cx)).await.unwrap();
    let held = peer(&out);
    assert_eq!(held.io.writes.len(), 1);
    assert_eq!(held.io.writes[0].len(), 7 + 1000 + 8);
    assert!(held.io.writes[0].ends_with(b"TRAILERS"));
    assert_eq!(held.io.flushes, 1);
    assert_eq!(held.unwritten(), 0);
}

/// A flush of the stream beneath that waits is tried again at the next write-out, even
/// with nothing new held; an idle write-out flushes nothing.
#[tokio::test]
async fn a_waiting_flush_is_finished_later() {
    use tokio::io::AsyncWriteExt;
    let (mut io, out) = coalesced(Peer {
        flush_waits: true,
        ..Peer::default()
    });
    io.write_all(b"DATA").await.unwrap();
    let waker = std::task::Waker::noop();
    let mut cx = Context::from_waker(waker);
    assert!(out.poll_write_out(&mut cx).is_pending());
    assert_eq!(peer(&out).io.writes.len(), 1);
    peer(&out).io.flush_waits = false;
    assert!(matches!(out.poll_write_out(&mut cx), Poll::Ready(Ok(()))));
    assert!(matches!(out.poll_write_out(&mut cx), Poll::Ready(Ok(()))));
    let held = peer(&out);
    assert_eq!((held.io.writes.len(), held.io.flushes), (1, 1));
}

/// A peer that takes part of a write gets the rest in order; a buffer grown large is freed.
#[tokio::test]
async fn partial_writes_continue_in_order() {
    use tokio::io::AsyncWriteExt;
    let (mut io, out) = coalesced(Peer {
        take: Some(3000),
        ..Peer::default()
    });
    let bytes: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
    io.write_all(&bytes).await.unwrap();
    poll_fn(|cx| out.poll_write_out(cx)).await.unwrap();
    let held = peer(&out);
    assert_eq!(held.io.writes.len(), 4);
    assert_eq!(held.io.writes.concat(), bytes);
    assert_eq!(held.out.capacity(), 0);
}

/// A poll that writes as much as the one before finds its buffer allocated at its first
/// write, and never grows it; the buffer is still freed after each write-out.
#[tokio::test]
async fn a_busy_connection_allocates_once_per_poll() {
    use tokio::io::AsyncWriteExt;
    let (mut io, out) = coalesced(Peer::default());
    let piece = [7u8; 100];
    for _ in 0..100 {
        io.write_all(&piece).await.unwrap();
    }
    poll_fn(|cx| out.poll_write_out(cx)).await.unwrap();
    assert_eq!(peer(&out).out.capacity(), 0);
    io.write_all(&piece).await.unwrap();
    let reserved = peer(&out).out.capacity();
    assert!(reserved >= 100 * piece.len(), "reserved {reserved}");
    for _ in 1..100 {
        io.write_all(&piece).await.unwrap();
    }
    assert_eq!(peer(&out).out.capacity(), reserved);
    poll_fn(|cx| out.poll_write_out(cx)).await.unwrap();
    let held = peer(&out);
    assert_eq!(held.io.writes.len(), 2);
    assert_eq!(held.out.capacity(), 0);
}

/// Past the most that may be held, a write writes out first; a peer that takes nothing
/// then holds the writer back instead of letting it hold more.
#[tokio::test]
async fn bounded_by_the_peer() {
    let (io, out) = coalesced(Peer::default());
    let mut io = Box::pin(io);
    let chunk = vec![1u8; HOLD / 2];
    let write = |io: &mut Pin<Box<Coalesced<Peer>>>| {
        io.as_mut()
            .poll_write(&mut Context::from_waker(std::task::Waker::noop()), &chunk)
    };
    assert!(matches!(write(&mut io), Poll::Ready(Ok(n)) if n == HOLD / 2));
    assert!(matches!(write(&mut io), Poll::Ready(Ok(n)) if n == HOLD / 2));
    assert!(peer(&out).io.writes.is_empty());
    // The third would go past the bound: what is held goes out first, in one write.
    assert!(matches!(write(&mut io), Poll::Ready(Ok(_))));
    assert_eq!(peer(&out).io.writes.len(), 1);
    assert_eq!(peer(&out).io.writes[0].len(), HOLD);
    peer(&out).io.shut = true;
    assert!(matches!(write(&mut io), Poll::Ready(Ok(_))));
    assert!(write(&mut io).is_pending());
    assert_eq!(peer(&out).unwritten(), HOLD);
}

/// Counts the writes made to the stream beneath.
struct Counted<T> {
    io: T,
    writes: Arc<AtomicUsize>,
}

impl<T: AsyncRead + Unpin> AsyncRead for Counted<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Counted<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        // Coalesced writes out with `poll_write` alone, so only this one needs counting.
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        if polled.is_ready() {
            self.writes.fetch_add(1, Ordering::Relaxed);
        }
        polled
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// What the server's connection writes, over h2 as hyper drives it, in the one poll after
/// a response of more than 256 bytes and its trailers were queued: the number of writes
/// and whether the client then read the whole response.
async fn one_answer(coalesce: bool) -> (usize, bool) {
    use bytes::Bytes;

    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let writes = Arc::new(AtomicUsize::new(0));
    let counted = Counted {
        io: server_io,
        writes: writes.clone(),
    };
    let (io, out) = coalesced(counted);
    // Without coalescing, the driver has nothing to write out: hyper's writes pass
    // straight to the stream, as they did before `Coalesced`.
    let io: Box<dyn AsyncReadWrite> = if coalesce {
        Box::new(io)
    } else {
        Box::new(Passthrough(io))
    };
    let (mut client, client_conn) = h2::client::handshake(client_io).await.unwrap();
    tokio::spawn(async move { client_conn.await.ok() });
    let request = tokio::spawn(async move {
        let (response, _) = client
            .send_request(http::Request::get("http://x/").body(()).unwrap(), true)
            .unwrap();
        let mut body = response.await.unwrap().into_body();
        let mut len = 0;
        while let Some(chunk) = body.data().await {
            len += chunk.unwrap().len();
        }
        let trailers = body.trailers().await.unwrap();
        len == 1000 && trailers.is_some_and(|t| t.contains_key("grpc-status"))
    });
    let mut server = h2::server::handshake(io).await.unwrap();
    // One poll of the connection, then what it held written out: the driver's step.
    let step = |server: &mut h2::server::Connection<Box<dyn AsyncReadWrite>, Bytes>,
                cx: &mut Context<'_>| {
        let accepted = server.poll_accept(cx);
        assert!(matches!(out.poll_write_out(cx), Poll::Ready(Ok(()))));
        accepted
    };
    let (_, mut respond) = poll_fn(|cx| step(&mut server, cx)).await.unwrap().unwrap();
    let mut stream = respond
        .send_response(http::Response::new(()), false)
        .unwrap();
    stream
        .send_data(Bytes::from(vec![b'm'; 1000]), false)
        .unwrap();
    let mut trailers = http::HeaderMap::new();
    trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
    stream.send_trailers(trailers).unwrap();
    let before = writes.load(Ordering::Relaxed);
    assert!(
        poll_fn(|cx| Poll::Ready(step(&mut server, cx)))
            .await
            .is_pending()
    );
    let made = writes.load(Ordering::Relaxed) - before;
    let drive = poll_fn(|cx| {
        let _ = step(&mut server, cx);
        Poll::<()>::Pending
    });
    tokio::select! {
        whole = request => (made, whole.unwrap()),
        () = drive => unreachable!(),
    }
}

trait AsyncReadWrite: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> AsyncReadWrite for T {}

/// `Coalesced` with its flush passed through: the stream as hyper saw it before.
struct Passthrough<T>(Coalesced<T>);

impl<T: AsyncRead + Unpin> AsyncRead for Passthrough<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Passthrough<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = ready!(Pin::new(&mut self.0).poll_write(cx, buf));
        ready!(lock(&self.0.held).poll_write_out(cx))?;
        Poll::Ready(polled)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = ready!(Pin::new(&mut self.0).poll_write_vectored(cx, bufs));
        ready!(lock(&self.0.held).poll_write_out(cx))?;
        Poll::Ready(polled)
    }
    fn is_write_vectored(&self) -> bool {
        true
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

/// The reason for all this: h2 writes a response of more than 256 bytes and its trailers
/// in two writes (the control, which also shows the test reaches that path); coalesced,
/// the poll that sends them makes one, and the client reads the whole response.
#[tokio::test]
async fn a_large_answer_and_its_trailers_in_one_write() {
    let (plain, whole) = one_answer(false).await;
    assert!(whole);
    assert_eq!(plain, 2, "h2 alone");
    let (coalesced, whole) = one_answer(true).await;
    assert!(whole);
    assert_eq!(coalesced, 1, "coalesced");
}

/// A shutdown writes out what is held before it closes the stream.
#[tokio::test]
async fn shutdown_writes_out_first() {
    use tokio::io::AsyncWriteExt;
    let (mut io, out) = coalesced(Peer::default());
    io.write_all(b"GOAWAY").await.unwrap();
    io.shutdown().await.unwrap();
    let held = peer(&out);
    assert_eq!(held.io.writes, vec![b"GOAWAY".to_vec()]);
    assert!(held.io.closed);
}

/// Counts its wakes.
#[derive(Default)]
struct Wakes(AtomicUsize);

impl std::task::Wake for Wakes {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// A little held is written out one turn of the scheduler later, once: the task is woken to
/// come back, and the next write-out writes whatever the turn added. Nothing held, or much,
/// is not put off.
#[tokio::test]
async fn a_little_is_written_out_a_turn_later_once() {
    use tokio::io::AsyncWriteExt;
    let wakes = Arc::new(Wakes::default());
    let waker = std::task::Waker::from(wakes.clone());
    let mut cx = Context::from_waker(&waker);
    let (mut io, out) = coalesced(Peer::default());
    assert!(!out.defer(&mut cx), "nothing held");
    io.write_all(b"first answer").await.unwrap();
    assert!(out.defer(&mut cx));
    assert_eq!(wakes.0.load(Ordering::Relaxed), 1, "woken to come back");
    assert!(!out.defer(&mut cx), "put off once only");
    io.write_all(b", second answer").await.unwrap();
    assert!(out.poll_write_out(&mut cx).is_ready());
    assert_eq!(
        peer(&out).io.writes,
        [b"first answer, second answer".to_vec()]
    );
    io.write_all(b"third").await.unwrap();
    assert!(out.defer(&mut cx), "a new write-out may be put off again");
    assert!(out.poll_write_out(&mut cx).is_ready());
    io.write_all(&vec![7; HOLD / 2]).await.unwrap();
    assert!(!out.defer(&mut cx), "half of what may be held goes out now");
    assert_eq!(wakes.0.load(Ordering::Relaxed), 2);
}
