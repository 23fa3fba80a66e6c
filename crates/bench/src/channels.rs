//! The HTTP/2 connections a load runs over, and the bounds every call and stream waits
//! within.

use std::net::SocketAddr;
use std::time::Duration;

use tonic::transport::{Channel, Endpoint};

use crate::error::{BenchError, fail};

/// Longest wait for any single call or stream message: beyond it the bench gives up on it.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Streams per HTTP/2 connection the bench opens at most (hyper's server allows 200 by
/// default, tonic's too).
pub const STREAMS_PER_CONNECTION: usize = 150;

/// One connection to `addr`, opened now (no lazy connect: a server that is not there fails
/// the bench before it measures anything).
pub async fn connect(addr: SocketAddr) -> Result<Channel, BenchError> {
    Endpoint::from_shared(format!("http://{addr}"))
        .map_err(|e| fail("endpoint", e))?
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| fail(&format!("connect to {addr}"), e))
}

/// `n` connections, to `addrs` in turn.
pub async fn connect_all(addrs: &[SocketAddr], n: usize) -> Result<Vec<Channel>, BenchError> {
    let mut channels = Vec::with_capacity(n);
    for i in 0..n {
        channels.push(connect(addrs[i % addrs.len()]).await?);
    }
    Ok(channels)
}

/// Connections for `streams` streams: at least `wanted`, more if each would carry over
/// [`STREAMS_PER_CONNECTION`].
pub fn for_streams(streams: usize, wanted: usize) -> usize {
    wanted.max(streams.div_ceil(STREAMS_PER_CONNECTION))
}
