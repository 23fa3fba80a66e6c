//! chessd-proto: the `chessd.v1` gRPC API as Rust types, generated from the repository's
//! `proto/chessd/v1/chessd.proto` by this crate's `build.rs`.
//!
//! It holds what every side of the API shares, so the service and each client generate it
//! once:
//! - the messages and enums (`GameView`, `SubmitMoveRequest`, ...), with the proto comments
//!   as their docs;
//! - the server ([`game_service_server::GameServiceServer`] and its
//!   [`game_service_server::GameService`] trait);
//! - the client ([`game_service_client::GameServiceClient`]);
//! - [`FILE_DESCRIPTOR_SET`], the encoded descriptors for server reflection;
//! - [`wire`], the server's copy of the types, whose `Game` carries its move lists encoded.

#![forbid(unsafe_code)]

/// The generated code, kept private so its lint exemptions stay here.
mod pb {
    #![allow(
        clippy::all,
        clippy::pedantic,
        missing_docs,
        rustdoc::all,
        unreachable_pub
    )]
    tonic::include_proto!("chessd.v1");

    /// The encoded descriptors of `chessd.v1` and its imports, for server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("chessd_descriptor");
}

pub use pb::*;

mod wire_game;

/// The server's side of the API: the same types as the crate root, except that `Game` is
/// [`wire::Game`], whose move lists are bytes encoded once (see its docs), and the messages
/// that hold a game (and the server trait) are generated again around it.
pub mod wire {
    #![allow(
        clippy::all,
        clippy::pedantic,
        missing_docs,
        rustdoc::all,
        unreachable_pub
    )]
    // Every type that holds no game is the root's; the explicit `Game` below and the
    // generated messages shadow the root's names.
    pub use crate::wire_game::{Game, MoveListWriter};
    pub use crate::*;
    include!(concat!(env!("OUT_DIR"), "/wire/chessd.v1.rs"));
}

#[cfg(test)]
mod tests {
    use prost::Message;

    /// Reflection serves this set as it is: it must decode and describe the game service with
    /// its comments (source info), or `grpcurl describe` shows bare names.
    #[test]
    fn descriptor_set_describes_the_game_service_with_comments() {
        let set = prost_types::FileDescriptorSet::decode(super::FILE_DESCRIPTOR_SET)
            .expect("the descriptor set decodes");
        let file = set
            .file
            .iter()
            .find(|f| f.package() == "chessd.v1")
            .expect("chessd.v1 is in the set");
        assert!(
            file.service.iter().any(|s| s.name() == "GameService"),
            "no GameService in {:?}",
            file.name()
        );
        let commented = file
            .source_code_info
            .as_ref()
            .is_some_and(|info| info.location.iter().any(|l| l.leading_comments.is_some()));
        assert!(commented, "the descriptors lost the proto comments");
    }

    /// The server's name as health checks and reflection know it.
    #[test]
    fn service_name_is_the_fully_qualified_one() {
        assert_eq!(
            super::game_service_server::SERVICE_NAME,
            "chessd.v1.GameService"
        );
    }
}
