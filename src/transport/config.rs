//! The transport's bounds ([`TransportConfig`]) and their defaults.

use std::time::Duration;

/// Open connections at once (see `listener` for what happens at the cap).
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// Concurrent HTTP/2 streams (calls and watches) per connection.
pub const DEFAULT_MAX_STREAMS_PER_CONNECTION: u32 = 256;
/// How often an idle HTTP/2 connection is pinged, so dead peers (and their watch streams) are
/// noticed.
pub const DEFAULT_KEEPALIVE_INTERVAL: Duration = Duration::from_secs(30);
/// How long a keepalive ping may go unanswered before the connection is closed.
pub const DEFAULT_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a new connection has to greet: finish its TLS handshake, then send the HTTP/2
/// preface and SETTINGS (any client does at once) or an HTTP/1.1 request.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a connection may stay open with no call before it is sent GOAWAY (clients
/// reconnect when they next need to; keepalive pings alone do not keep it).
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(300);
/// How long a peer may take nothing: no byte of a pending write, or no event of its watch
/// stream. Then the connection is closed, or the watch stream cut.
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest an HTTP/1.1 connection waits for a request's headers, idle keep-alive
/// included (hyper's own default, made explicit).
pub(super) const HTTP1_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// Accept-loop warnings are logged at most this often (a flood would otherwise flood the log).
pub(super) const LOG_EVERY: Duration = Duration::from_secs(10);

/// The transport's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportConfig {
    /// Open connections at once.
    pub max_connections: usize,
    /// Concurrent HTTP/2 streams per connection.
    pub max_streams_per_connection: u32,
    /// HTTP/2 keepalive: how often an idle connection is pinged.
    pub keepalive_interval: Duration,
    /// HTTP/2 keepalive: how long a ping may go unanswered.
    pub keepalive_timeout: Duration,
    /// See [`DEFAULT_HANDSHAKE_TIMEOUT`].
    pub handshake_timeout: Duration,
    /// See [`DEFAULT_IDLE_TIMEOUT`].
    pub idle_timeout: Duration,
    /// See [`DEFAULT_STALL_TIMEOUT`].
    pub stall_timeout: Duration,
}

impl Default for TransportConfig {
    fn default() -> TransportConfig {
        TransportConfig {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_streams_per_connection: DEFAULT_MAX_STREAMS_PER_CONNECTION,
            keepalive_interval: DEFAULT_KEEPALIVE_INTERVAL,
            keepalive_timeout: DEFAULT_KEEPALIVE_TIMEOUT,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            stall_timeout: DEFAULT_STALL_TIMEOUT,
        }
    }
}
