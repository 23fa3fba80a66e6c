//! SubmitMove as the bots call it: the answer decoded only as far as the bots read it (the
//! game's ply and status). The full view carries every move played and every legal move; a
//! load generator that decoded them all would spend more of the two cores it shares with the
//! server on each answer than the server spends writing it, and measure itself.

use chessd_proto as pb;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic::{GrpcMethod, Request, Response, Status};

/// `SubmitMoveResponse` with only `game` (field 2); prost skips the move itself.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SubmitMoveSkim {
    #[prost(message, optional, tag = "2")]
    pub game: Option<GameSkim>,
}

/// `Game` with only `ply` (field 7) and `status` (field 12); prost skips every other field,
/// the move lists among them, without decoding them.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GameSkim {
    #[prost(uint32, tag = "7")]
    pub ply: u32,
    #[prost(enumeration = "pb::GameStatus", tag = "12")]
    pub status: i32,
}

/// A SubmitMove client over one channel.
#[derive(Clone, Debug)]
pub struct Skim(tonic::client::Grpc<Channel>);

impl Skim {
    pub fn new(channel: Channel) -> Skim {
        Skim(tonic::client::Grpc::new(channel))
    }

    /// `chessd.v1.GameService/SubmitMove`, its answer skimmed.
    pub async fn submit_move(
        &mut self,
        request: Request<pb::SubmitMoveRequest>,
    ) -> Result<Response<SubmitMoveSkim>, Status> {
        self.0
            .ready()
            .await
            .map_err(|e| Status::unavailable(format!("channel not ready: {e}")))?;
        let mut request = request;
        request
            .extensions_mut()
            .insert(GrpcMethod::new("chessd.v1.GameService", "SubmitMove"));
        let codec = tonic_prost::ProstCodec::<pb::SubmitMoveRequest, SubmitMoveSkim>::default();
        self.0
            .unary(
                request,
                PathAndQuery::from_static("/chessd.v1.GameService/SubmitMove"),
                codec,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;

    /// A full answer skims to the same ply and status it decodes to.
    #[test]
    fn a_full_answer_skims_to_its_ply_and_status() {
        let full = pb::SubmitMoveResponse {
            r#move: Some(pb::PlayedMove {
                uci: "e2e4".into(),
                san: "e4".into(),
                ply: 1,
                ..Default::default()
            }),
            game: Some(pb::Game {
                ply: 41,
                status: pb::GameStatus::Ongoing as i32,
                fen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
                moves: vec![
                    pb::MoveNotation {
                        uci: "e2e4".into(),
                        san: "e4".into(),
                    };
                    41
                ],
                legal_moves: vec![
                    pb::MoveNotation {
                        uci: "a7a6".into(),
                        san: "a6".into(),
                    };
                    20
                ],
                ..Default::default()
            }),
        };
        let skim = SubmitMoveSkim::decode(full.encode_to_vec().as_slice()).expect("decodes");
        let game = skim.game.expect("game");
        assert_eq!(
            (game.ply, game.status),
            (41, pb::GameStatus::Ongoing as i32)
        );
    }
}
