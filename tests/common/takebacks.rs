//! Takebacks seen from a client: [`Follower`], the game as a watcher rebuilds it from the
//! WatchGame stream alone (snapshot, moves, takebacks, offers), to be compared with GetGame;
//! and the two takeback calls.

use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb, watch_game_response::Event};
use tonic::transport::Channel;
use tonic::{Status, Streaming};

use super::{authed, next_event};

/// What a watcher knows of a game, from the events it received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Follower {
    pub ply: u32,
    pub fen: String,
    /// The moves standing, as (uci, san).
    pub moves: Vec<(String, String)>,
    pub last_seq: u64,
    pub draw_offer: i32,
    pub takeback_offer: i32,
    pub over: bool,
}

impl Follower {
    /// The same facts read from GetGame's answer.
    #[must_use]
    pub fn of_game(game: &pb::Game) -> Follower {
        Follower {
            ply: game.ply,
            fen: game.fen.clone(),
            moves: game
                .moves
                .iter()
                .map(|m| (m.uci.clone(), m.san.clone()))
                .collect(),
            last_seq: game.last_seq,
            draw_offer: game.draw_offer,
            takeback_offer: game.takeback_offer,
            over: game.outcome.is_some(),
        }
    }

    /// Takes in one event; panics on an event that does not follow (a gap, a duplicate, a
    /// ply that does not fit).
    pub fn apply(&mut self, event: &pb::WatchGameResponse) {
        let none = pb::Color::Unspecified as i32;
        match &event.event {
            Some(Event::Snapshot(g)) => {
                *self = Follower::of_game(g);
                return;
            }
            // Presence rides between numbered events, with the last one's seq.
            Some(Event::Heartbeat(_) | Event::PlayerPresence(_)) | None => return,
            _ => {}
        }
        assert_eq!(
            event.seq,
            self.last_seq + 1,
            "the event after seq {} (at ply {})",
            self.last_seq,
            self.ply
        );
        self.last_seq = event.seq;
        match &event.event {
            Some(Event::MovePlayed(m)) => {
                let played = m.r#move.as_ref().expect("the move");
                assert_eq!(played.ply, self.ply + 1, "a move's ply follows");
                assert_eq!(played.seq, event.seq);
                self.moves.push((played.uci.clone(), played.san.clone()));
                self.ply = played.ply;
                self.fen = m.fen.clone();
                self.draw_offer = m.draw_offer;
                self.takeback_offer = none;
            }
            Some(Event::DrawOffered(o)) => self.draw_offer = o.by,
            Some(Event::DrawDeclined(_)) => self.draw_offer = none,
            Some(Event::TakebackProposed(p)) => {
                assert_eq!(
                    p.ply + p.plies,
                    self.ply,
                    "a proposal's plies end at the ply"
                );
                self.takeback_offer = p.by;
            }
            Some(Event::TakebackDeclined(_)) => self.takeback_offer = none,
            Some(Event::TakebackWithdrawn(w)) => {
                assert_eq!(w.by, self.takeback_offer, "only the proposer withdraws");
                self.takeback_offer = none;
            }
            Some(Event::MovesTakenBack(t)) => {
                assert_eq!(
                    t.ply + t.plies,
                    self.ply,
                    "a takeback goes back from the ply"
                );
                self.moves.truncate(t.ply as usize);
                self.ply = t.ply;
                self.fen = t.fen.clone();
                self.draw_offer = none;
                self.takeback_offer = none;
            }
            Some(Event::GameOver(o)) => {
                self.fen = o.fen.clone();
                self.over = true;
                self.draw_offer = none;
                self.takeback_offer = none;
            }
            Some(Event::ClockChanged(_) | Event::SetupPlaced(_) | Event::EntropySubmitted(_)) => {}
            Some(Event::Snapshot(_) | Event::Heartbeat(_) | Event::PlayerPresence(_)) | None => {}
        }
    }

    /// Takes in every event until the stream ends.
    pub async fn drain(&mut self, stream: &mut Streaming<pb::WatchGameResponse>) {
        while let Some(event) = next_event(stream)
            .await
            .unwrap_or_else(|s| panic!("stream error: {s:?}"))
        {
            self.apply(&event);
        }
    }

    /// Takes in events until seq `seq` (then the stream may be dropped).
    pub async fn until(&mut self, stream: &mut Streaming<pb::WatchGameResponse>, seq: u64) {
        while self.last_seq < seq {
            let event = next_event(stream)
                .await
                .unwrap_or_else(|s| panic!("stream error: {s:?}"))
                .unwrap_or_else(|| panic!("the stream ended before seq {seq}"));
            self.apply(&event);
        }
    }
}

/// `token`'s seat proposes a takeback.
pub async fn propose(
    client: &mut GameServiceClient<Channel>,
    id: &str,
    token: &str,
) -> Result<pb::Game, Status> {
    let request = pb::ProposeTakebackRequest { game_id: id.into() };
    client
        .propose_takeback(authed(request, token))
        .await
        .map(|r| r.into_inner().game.expect("the game"))
}

/// `token`'s seat answers the standing proposal.
pub async fn respond(
    client: &mut GameServiceClient<Channel>,
    id: &str,
    token: &str,
    accept: bool,
) -> Result<pb::Game, Status> {
    let request = pb::RespondToTakebackRequest {
        game_id: id.into(),
        accept,
    };
    client
        .respond_to_takeback(authed(request, token))
        .await
        .map(|r| r.into_inner().game.expect("the game"))
}

/// `token`'s seat withdraws its own standing proposal.
pub async fn withdraw(
    client: &mut GameServiceClient<Channel>,
    id: &str,
    token: &str,
) -> Result<pb::Game, Status> {
    let request = pb::WithdrawTakebackRequest { game_id: id.into() };
    client
        .withdraw_takeback(authed(request, token))
        .await
        .map(|r| r.into_inner().game.expect("the game"))
}
