//! What the bot knows of its game, built from the WatchGame stream: the start and the moves
//! (the engine's `position` command), the current FEN, whose turn it is, the clocks, a
//! standing draw offer, and how often each position occurred since the last capture or pawn
//! move (for repetition claims).
//!
//! Repetitions are counted from the positions the bot saw: a bot that joins a game after its
//! first move sees only its current position, so it may miss a repetition that includes
//! earlier ones (the server would accept the claim; the bot does not know to make it). The
//! same holds after a takeback, which starts the count again from the position it leaves.
//!
//! A takeback (in a game that allows them) is a new state, as a snapshot is: the moves after
//! its ply go, and whatever the bot was thinking about is dropped. The bot never proposes or
//! accepts one itself.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::board::{Geometry, Side};
use crate::clock::ClockReading;
use crate::fen;
use crate::proto::{self, watch_game_response::Event};

/// A stream the bot cannot make sense of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateError {
    /// A move event skipped a ply (the stream promises none).
    Gap { have: u32, got: u32 },
    /// A FEN without a side to move.
    BadFen(String),
    /// A board larger than a square's name can reach (`Geometry::MAX_FILES` x `MAX_RANKS`).
    BadGeometry { files: u32, ranks: u32 },
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StateError::Gap { have, got } => {
                write!(f, "move event for ply {got} while at ply {have}")
            }
            StateError::BadFen(fen) => write!(f, "unreadable position from the server: {fen:?}"),
            StateError::BadGeometry { files, ranks } => {
                write!(f, "a {files}x{ranks} board is beyond what the bot can play")
            }
        }
    }
}

impl std::error::Error for StateError {}

/// What a message changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Nothing,
    /// A whole new state (the first message, after a resync, or moves taken back).
    Snapshot,
    Moved {
        uci: String,
        by: Side,
    },
    DrawOffered(Side),
    DrawDeclined(Side),
    Over,
}

/// A draw the side to move can claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Threefold,
    FiftyMoves,
}

/// The game as the bot knows it.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The API's `Variant` number (unspecified for a game known by key only).
    pub variant: i32,
    /// The game's stable key (`capablanca`); empty from a server from before the keys.
    pub variant_key: String,
    /// The board's size, for reading the engine's moves.
    pub geometry: Geometry,
    pub start_fen: String,
    /// Every move, in UCI.
    pub moves: Vec<String>,
    pub fen: String,
    pub ply: u32,
    pub turn: Side,
    pub clocks: Option<ClockReading>,
    /// White's increment.
    pub increment: Duration,
    /// The byoyomi period of a byoyomi clock.
    pub byoyomi: Option<Duration>,
    /// Black's (its own when the time control gives it one).
    pub black_increment: Duration,
    pub draw_offer: Option<Side>,
    pub outcome: Option<proto::Outcome>,
    /// A secret setup not revealed yet (Screen Chess): whose placement is final.
    pub setup: Option<proto::Setup>,
    /// The players' entropy before both secrets are in: whose commitment is made.
    pub entropy: Option<proto::Entropy>,
    /// Occurrences of each position since the last irreversible move (repetition keys).
    seen: HashMap<String, u32>,
}

fn turn_of(fen: &str) -> Result<Side, StateError> {
    fen::side_to_move(fen).ok_or_else(|| StateError::BadFen(fen.chars().take(120).collect()))
}

impl GameState {
    /// The state a snapshot describes, received at `received`.
    pub fn from_snapshot(game: proto::Game, received: Instant) -> Result<GameState, StateError> {
        let turn = turn_of(&game.fen)?;
        let geometry = Geometry::from_proto(game.geometry.as_ref()).ok_or_else(|| {
            let g = game.geometry.unwrap_or_default();
            StateError::BadGeometry {
                files: g.files,
                ranks: g.ranks,
            }
        })?;
        let mut seen = HashMap::new();
        seen.insert(fen::repetition_key(&game.fen), 1);
        let over = matches!(
            proto::GameStatus::try_from(game.status),
            Ok(proto::GameStatus::Finished | proto::GameStatus::Aborted)
        );
        let tc = game.time_control.as_ref();
        let own = |d: Option<&prost_types::Duration>| d.and_then(|d| Duration::try_from(*d).ok());
        let increment = own(tc.and_then(|tc| tc.increment.as_ref())).unwrap_or(Duration::ZERO);
        let black_increment =
            own(tc.and_then(|tc| tc.black_increment.as_ref())).unwrap_or(increment);
        let byoyomi = own(tc.and_then(|tc| tc.byoyomi.as_ref())).filter(|p| !p.is_zero());
        Ok(GameState {
            variant: game.variant,
            variant_key: game.variant_key,
            geometry,
            start_fen: game.start_fen,
            moves: game.moves.into_iter().map(|m| m.uci).collect(),
            fen: game.fen,
            ply: game.ply,
            turn,
            clocks: game
                .clocks
                .as_ref()
                .and_then(|c| ClockReading::from_proto(c, received)),
            increment,
            black_increment,
            byoyomi,
            draw_offer: Side::from_proto(game.draw_offer),
            setup: game.setup.filter(|_| !over),
            entropy: game
                .entropy
                .filter(|e| !over && e.phase != proto::EntropyPhase::Done as i32),
            outcome: if over {
                Some(game.outcome.unwrap_or_default())
            } else {
                None
            },
            seen,
        })
    }

    /// `side`'s increment.
    #[must_use]
    pub fn increment_of(&self, side: Side) -> Duration {
        match side {
            Side::White => self.increment,
            Side::Black => self.black_increment,
        }
    }

    /// Whether `side` has still to make its placement final in a secret setup.
    #[must_use]
    pub fn must_place(&self, side: Side) -> bool {
        let Some(setup) = &self.setup else {
            return false;
        };
        let seat = match side {
            Side::White => setup.white.as_ref(),
            Side::Black => setup.black.as_ref(),
        };
        seat.is_none_or(|s| s.state != proto::SetupState::Final as i32)
    }

    /// Takes in one stream message received at `received`.
    pub fn apply(
        &mut self,
        message: proto::WatchGameResponse,
        received: Instant,
    ) -> Result<Change, StateError> {
        match message.event {
            Some(Event::Snapshot(game)) => {
                *self = GameState::from_snapshot(game, received)?;
                Ok(Change::Snapshot)
            }
            Some(Event::MovePlayed(played)) => {
                let mv = played.r#move.unwrap_or_default();
                if mv.ply <= self.ply {
                    return Ok(Change::Nothing);
                }
                if mv.ply != self.ply + 1 {
                    return Err(StateError::Gap {
                        have: self.ply,
                        got: mv.ply,
                    });
                }
                let by = self.turn;
                self.turn = turn_of(&played.fen)?;
                self.ply = mv.ply;
                self.moves.push(mv.uci.clone());
                if fen::halfmove_clock(&played.fen) == Some(0) {
                    // No position before a capture or pawn move can occur again.
                    self.seen.clear();
                }
                *self
                    .seen
                    .entry(fen::repetition_key(&played.fen))
                    .or_default() += 1;
                self.fen = played.fen;
                self.draw_offer = Side::from_proto(played.draw_offer);
                if let Some(c) = played.clocks.as_ref() {
                    self.clocks = ClockReading::from_proto(c, received);
                }
                Ok(Change::Moved { uci: mv.uci, by })
            }
            Some(Event::DrawOffered(offer)) => match Side::from_proto(offer.by) {
                Some(by) => {
                    self.draw_offer = Some(by);
                    Ok(Change::DrawOffered(by))
                }
                None => Ok(Change::Nothing),
            },
            Some(Event::DrawDeclined(declined)) => {
                self.draw_offer = None;
                Ok(Side::from_proto(declined.by).map_or(Change::Nothing, Change::DrawDeclined))
            }
            Some(Event::GameOver(over)) => {
                self.outcome = Some(over.outcome.unwrap_or_default());
                if !over.fen.is_empty() {
                    self.fen = over.fen;
                }
                if let Some(c) = &mut self.clocks {
                    c.running = None;
                }
                self.draw_offer = None;
                Ok(Change::Over)
            }
            // Time given, or an arbiter's change: the clocks the engine is told about.
            Some(Event::ClockChanged(changed)) => {
                if let Some(c) = changed.clocks.as_ref() {
                    self.clocks = ClockReading::from_proto(c, received);
                }
                Ok(Change::Nothing)
            }
            Some(Event::MovesTakenBack(back)) => {
                self.turn = turn_of(&back.fen)?;
                self.moves.truncate(back.ply as usize);
                self.ply = back.ply;
                self.seen.clear();
                self.seen.insert(fen::repetition_key(&back.fen), 1);
                self.fen = back.fen;
                self.draw_offer = None;
                if let Some(c) = back.clocks.as_ref() {
                    self.clocks = ClockReading::from_proto(c, received);
                }
                Ok(Change::Snapshot)
            }
            // The reveal of a secret setup: the game starts from the joined halves.
            Some(Event::SetupPlaced(placed)) if !placed.start_fen.is_empty() => {
                self.setup = None;
                self.turn = turn_of(&placed.start_fen)?;
                self.moves.clear();
                self.ply = 0;
                self.seen.clear();
                self.seen.insert(fen::repetition_key(&placed.start_fen), 1);
                self.start_fen.clone_from(&placed.start_fen);
                self.fen = placed.start_fen;
                Ok(Change::Snapshot)
            }
            Some(Event::SetupPlaced(placed)) => {
                let seat = self
                    .setup
                    .as_mut()
                    .and_then(|s| match Side::from_proto(placed.by) {
                        Some(Side::White) => s.white.as_mut(),
                        Some(Side::Black) => s.black.as_mut(),
                        None => None,
                    });
                if let Some(seat) = seat {
                    seat.state = if placed.committed {
                        proto::SetupState::Final
                    } else {
                        proto::SetupState::Draft
                    } as i32;
                }
                Ok(Change::Nothing)
            }
            // The second secret: play begins from the start it gives (Dice Chess's roll).
            Some(Event::EntropySubmitted(sent)) if !sent.start_fen.is_empty() => {
                self.entropy = None;
                self.turn = turn_of(&sent.start_fen)?;
                self.seen.clear();
                self.seen.insert(fen::repetition_key(&sent.start_fen), 1);
                self.start_fen.clone_from(&sent.start_fen);
                self.fen = sent.start_fen;
                Ok(Change::Snapshot)
            }
            Some(Event::EntropySubmitted(sent)) => {
                if let Some(round) = &mut self.entropy
                    && !sent.revealed
                {
                    match Side::from_proto(sent.by) {
                        Some(Side::White) => round.white_commitment = sent.commitment,
                        Some(Side::Black) => round.black_commitment = sent.commitment,
                        None => {}
                    }
                }
                Ok(Change::Nothing)
            }
            Some(
                Event::TakebackProposed(_)
                | Event::TakebackDeclined(_)
                | Event::TakebackWithdrawn(_)
                | Event::Heartbeat(_)
                | Event::PlayerPresence(_),
            )
            | None => Ok(Change::Nothing),
        }
    }

    /// The engine's `position` command for the current position, plus `extra` moves (the
    /// move to ponder on).
    #[must_use]
    pub fn position_command(&self, extra: &[String]) -> String {
        // A game that hides the board (its views write unseen squares `?`) has no moves to
        // replay, only the seat's view of now: given as a position whose moves are the seat's.
        if self.fen.contains('?')
            && let Some(view) = fen::engine_view(&self.fen)
        {
            return format!("position fen {view}");
        }
        let mut command = format!("position fen {}", self.start_fen);
        let mut moves = self.moves.iter().chain(extra).peekable();
        if moves.peek().is_some() {
            command.push_str(" moves");
            for m in moves {
                command.push(' ');
                command.push_str(m);
            }
        }
        command
    }

    /// A draw the side to move could claim now, as far as the bot saw the game.
    #[must_use]
    pub fn claimable(&self) -> Option<Claim> {
        if fen::halfmove_clock(&self.fen).is_some_and(|n| n >= 100) {
            return Some(Claim::FiftyMoves);
        }
        let count = self.seen.get(&fen::repetition_key(&self.fen)).copied();
        count.is_some_and(|n| n >= 3).then_some(Claim::Threefold)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn snapshot() -> GameState {
        let game = proto::Game {
            variant: proto::Variant::Chess as i32,
            start_fen: START.into(),
            fen: START.into(),
            status: proto::GameStatus::Ongoing as i32,
            ..Default::default()
        };
        GameState::from_snapshot(game, Instant::now()).unwrap()
    }

    fn moved(ply: u32, uci: &str, fen: &str) -> proto::WatchGameResponse {
        proto::WatchGameResponse {
            seq: u64::from(ply),
            server_time: None,
            event: Some(Event::MovePlayed(proto::MovePlayed {
                r#move: Some(proto::PlayedMove {
                    uci: uci.into(),
                    ply,
                    ..Default::default()
                }),
                fen: fen.into(),
                clocks: None,
                draw_offer: 0,
            })),
            ..Default::default()
        }
    }

    /// Moves extend the engine's position command and flip the turn; a replayed move is
    /// ignored and a skipped ply is an error.
    #[test]
    fn moves_and_gaps() {
        let mut s = snapshot();
        assert_eq!(s.position_command(&[]), format!("position fen {START}"));
        let after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let change = s.apply(moved(1, "e2e4", after), Instant::now()).unwrap();
        assert_eq!(
            change,
            Change::Moved {
                uci: "e2e4".into(),
                by: Side::White
            }
        );
        assert_eq!((s.ply, s.turn), (1, Side::Black));
        assert_eq!(
            s.position_command(&["e7e5".into()]),
            format!("position fen {START} moves e2e4 e7e5")
        );
        assert_eq!(
            s.apply(moved(1, "e2e4", after), Instant::now()),
            Ok(Change::Nothing)
        );
        assert_eq!(
            s.apply(moved(3, "g1f3", after), Instant::now()),
            Err(StateError::Gap { have: 1, got: 3 })
        );
    }

    /// Moves taken back leave the engine's position command and the turn as they were at the
    /// takeback's ply; the next move follows from there; proposals change nothing.
    #[test]
    fn takebacks_rewind() {
        let mut s = snapshot();
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        s.apply(moved(1, "e2e4", e4), Instant::now()).unwrap();
        s.apply(moved(2, "e7e5", e5), Instant::now()).unwrap();
        let message = |event| proto::WatchGameResponse {
            seq: 3,
            event: Some(event),
            ..Default::default()
        };
        let proposed = message(Event::TakebackProposed(proto::TakebackProposed {
            by: proto::Color::Black as i32,
            plies: 1,
            ply: 1,
        }));
        assert_eq!(s.apply(proposed, Instant::now()), Ok(Change::Nothing));
        let back = message(Event::MovesTakenBack(proto::MovesTakenBack {
            by: proto::Color::Black as i32,
            plies: 1,
            ply: 1,
            fen: e4.into(),
            clocks: None,
        }));
        assert_eq!(s.apply(back, Instant::now()), Ok(Change::Snapshot));
        assert_eq!((s.ply, s.turn), (1, Side::Black));
        assert_eq!(
            s.position_command(&[]),
            format!("position fen {START} moves e2e4")
        );
        let c5 = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        s.apply(moved(2, "c7c5", c5), Instant::now()).unwrap();
        assert_eq!(
            s.position_command(&[]),
            format!("position fen {START} moves e2e4 c7c5")
        );
    }

    /// A position seen three times is claimable; so is a half-move clock of 100.
    #[test]
    fn claims() {
        let mut s = snapshot();
        let cycle = [
            (
                "g1f3",
                "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
            ),
            (
                "g8f6",
                "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            ),
            (
                "f3g1",
                "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2",
            ),
            (
                "f6g8",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
            ),
        ];
        let mut ply = 0;
        for round in 0..2 {
            for (uci, fen) in cycle {
                ply += 1;
                s.apply(moved(ply, uci, fen), Instant::now()).unwrap();
            }
            let expected = (round == 1).then_some(Claim::Threefold);
            assert_eq!(s.claimable(), expected, "after round {round}");
        }
        s.fen = "8/8/8/8/8/8/k7/K7 w - - 100 80".into();
        assert_eq!(s.claimable(), Some(Claim::FiftyMoves));
    }

    /// Offers come and go with their events; the game-over event ends the game.
    #[test]
    fn offers_and_end() {
        let mut s = snapshot();
        let event = |e| proto::WatchGameResponse {
            seq: 9,
            server_time: None,
            event: Some(e),
            ..Default::default()
        };
        let black = proto::Color::Black as i32;
        assert_eq!(
            s.apply(
                event(Event::DrawOffered(proto::DrawOffered { by: black })),
                Instant::now()
            ),
            Ok(Change::DrawOffered(Side::Black))
        );
        assert_eq!(s.draw_offer, Some(Side::Black));
        s.apply(
            event(Event::DrawDeclined(proto::DrawDeclined { by: 1 })),
            Instant::now(),
        )
        .unwrap();
        assert_eq!(s.draw_offer, None);
        let over = proto::GameOver {
            outcome: Some(proto::Outcome {
                pgn_result: "1-0".into(),
                ..Default::default()
            }),
            fen: START.into(),
        };
        assert_eq!(
            s.apply(event(Event::GameOver(over)), Instant::now()),
            Ok(Change::Over)
        );
        assert!(s.is_over());
    }

    /// A game known by key only, on a 10x10 board: the key and the board come from the
    /// snapshot, and the moves go to the engine as the server wrote them.
    #[test]
    fn wide_game() {
        let start = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1";
        let game = proto::Game {
            variant: proto::Variant::Unspecified as i32,
            variant_key: "grand".into(),
            geometry: Some(proto::BoardGeometry {
                files: 10,
                ranks: 10,
            }),
            start_fen: start.into(),
            fen: start.into(),
            status: proto::GameStatus::Ongoing as i32,
            ..Default::default()
        };
        let mut s = GameState::from_snapshot(game.clone(), Instant::now()).unwrap();
        assert_eq!(
            (s.variant_key.as_str(), s.geometry),
            (
                "grand",
                Geometry {
                    files: 10,
                    ranks: 10
                }
            )
        );
        let after = "r8r/1nbqkcabn1/pppppppppp/10/10/10/P9/1PPPPPPPPP/1NBQKCABN1/R8R b - - 0 1";
        s.apply(moved(1, "a3a4", after), Instant::now()).unwrap();
        assert_eq!(
            s.position_command(&["a8a7".into()]),
            format!("position fen {start} moves a3a4 a8a7")
        );
        let too_big = proto::Game {
            geometry: Some(proto::BoardGeometry {
                files: 16,
                ranks: 16,
            }),
            ..game
        };
        assert_eq!(
            GameState::from_snapshot(too_big, Instant::now()).err(),
            Some(StateError::BadGeometry {
                files: 16,
                ranks: 16
            })
        );
    }
}
