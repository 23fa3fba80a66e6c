//! The echo yardstick: bare tonic with no game behind it, so chessd's figures can be read as
//! a fraction of what the transport alone does on the same machine in the same run.
//!
//! - `server`: `chessd-bench echo serve`, the EchoService of `proto/echo/v1/echo.proto`: a
//!   unary Echo, and Subscribe/Publish over one `tokio::sync::broadcast` per topic.
//! - `unary`: `echo load-unary`, closed-loop Echo calls, measured like chessd's SubmitMove.
//! - `fanout`: `echo load-fanout`, streams on one topic and a publisher, measured like
//!   chessd's WatchGame deliveries.
//!
//! Both loads send [`sample_move`], the size of a SubmitMove request.

pub mod fanout;
pub mod server;
pub mod unary;

/// The generated code, kept private so its lint exemptions stay here.
mod pb {
    #![allow(
        clippy::all,
        clippy::pedantic,
        missing_docs,
        rustdoc::all,
        unreachable_pub
    )]
    tonic::include_proto!("echo.v1");
}

pub use pb::echo_service_client::EchoServiceClient;
pub use pb::echo_service_server::{EchoService, EchoServiceServer};
pub use pb::{
    EchoRequest, EchoResponse, Move, PublishRequest, PublishResponse, SubscribeRequest,
    SubscribeResponse,
};

/// The one topic the fan-out load uses.
pub const TOPIC: &str = "game";

/// A move as a game service passes it: a 13-character game id (chessd's length), 1. e4 in
/// UCI, its ply and the position after it; `sent_nanos` is the sender's clock.
pub fn sample_move(sent_nanos: u64) -> Move {
    Move {
        game_id: "0KC3M8Y4ZQ2T7".into(),
        uci: "e2e4".into(),
        ply: 1,
        fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
        sent_nanos,
    }
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;

    /// The sample stays move-sized: about 90 bytes, as docs/performance.md states.
    #[test]
    fn the_sample_is_move_sized() {
        let echo = EchoRequest {
            r#move: Some(sample_move(1_000_000_000_000)),
        };
        let e = echo.encoded_len();
        assert!((80..=100).contains(&e), "echo request is {e} bytes");
    }
}
