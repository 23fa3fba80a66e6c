//! [`AnyGame`]: a game record of any engine family (the one generic [`Game`] over each
//! family's position), with the record's operations dispatched once per call and its moves
//! and positions handed out in the family-neutral vocabulary.

use std::borrow::Cow;

use crate::any::position::AnyStart;
use crate::any::unplayed::Unplayed;
use crate::any::{AnyMove, AnyPosition, AnyVariant, Member};
use crate::shogi::ShogiGame;
use crate::wide::WideGame;
use crate::xiangqi::XiangqiGame;
use crate::{
    ClaimError, Color, DrawClaim, DrawRule, Game, Outcome, PlayError, PlayedMove, TakeBackError,
};

/// A game of any family.
// The 8x8 record inline: it is nearly every game, and boxing it would cost each one an
// allocation and an indirection on every move.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyGame {
    Std(Game),
    /// Boxed, as the other families' are: their positions are several times an 8x8 one, and
    /// most games are 8x8.
    Wide(Box<WideGame>),
    Shogi(Box<ShogiGame>),
    Xiangqi(Box<XiangqiGame>),
    /// A game of one of those families before its first change: its start, not yet its boxed
    /// record (see [`Unplayed`]).
    Unplayed(Unplayed),
}

/// `each!` over a record: `$body` in every family's arm, `$unplayed` for a game not made yet.
macro_rules! each_game {
    ($value:expr, $x:ident => $body:expr, $u:pat => $unplayed:expr) => {
        match $value {
            AnyGame::Std($x) => $body,
            AnyGame::Wide($x) => $body,
            AnyGame::Shogi($x) => $body,
            AnyGame::Xiangqi($x) => $body,
            AnyGame::Unplayed($u) => $unplayed,
        }
    };
}

/// The 8x8 record's iterator, or another family's boxed: the 8x8 path, nearly every call,
/// allocates nothing.
enum Either<'a, A, T> {
    A(A),
    B(Box<dyn ExactSizeIterator<Item = T> + 'a>),
}

impl<T, A: Iterator<Item = T>> Iterator for Either<'_, A, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self {
            Either::A(a) => a.next(),
            Either::B(b) => b.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Either::A(a) => a.size_hint(),
            Either::B(b) => b.size_hint(),
        }
    }
}

impl<T, A: ExactSizeIterator<Item = T>> ExactSizeIterator for Either<'_, A, T> {}

fn any_played<M>(p: PlayedMove<M>, f: impl FnOnce(M) -> AnyMove) -> PlayedMove<AnyMove> {
    PlayedMove {
        mv: f(p.mv),
        san: p.san,
        ply: p.ply,
    }
}

/// A family's moves from index `from` on, in the neutral vocabulary.
fn moves_of<P: Member>(
    g: &Game<P>,
    from: usize,
) -> Box<dyn ExactSizeIterator<Item = AnyMove> + '_> {
    let pos = g.position();
    Box::new(
        g.moves()
            .get(from..)
            .unwrap_or_default()
            .iter()
            .map(move |&m| pos.wrap(m)),
    )
}

fn play_of<P: Member>(g: &mut Game<P>, m: AnyMove) -> Result<PlayedMove<AnyMove>, PlayError> {
    match P::unwrap(m) {
        Some(m) => {
            let played = g.play(m)?;
            Ok(any_played(played, |m| g.position().wrap(m)))
        }
        None if g.is_over() => Err(PlayError::GameOver),
        None => Err(PlayError::Illegal(format!("{m} is a move of another game"))),
    }
}

fn play_text_of<P: Member>(g: &mut Game<P>, text: &str) -> Result<PlayedMove<AnyMove>, PlayError> {
    let played = g.play_text(text)?;
    Ok(any_played(played, |m| g.position().wrap(m)))
}

fn take_back_of<P: Member>(g: &mut Game<P>, plies: usize) -> Result<Vec<AnyMove>, TakeBackError> {
    let taken = g.take_back(plies)?;
    let pos = g.position();
    Ok(taken.into_iter().map(|m| pos.wrap(m)).collect())
}

/// A boxed record's bytes: the box and what the record keeps on the heap.
fn boxed_bytes<P: crate::Family>(g: &Game<P>) -> usize {
    size_of::<Game<P>>() + g.heap_bytes()
}

impl AnyGame {
    /// A game from `start`; a start already decided gives a finished game.
    #[must_use]
    pub fn new(start: AnyPosition, draw_rule: DrawRule) -> AnyGame {
        let game = AnyGame::recorded(start, draw_rule);
        Unplayed::of(&game).map_or(game, AnyGame::Unplayed)
    }

    /// The record of a game from `start`, made now whatever its family.
    pub(super) fn recorded(start: AnyPosition, draw_rule: DrawRule) -> AnyGame {
        match start {
            AnyPosition::Std(p) => AnyGame::Std(Game::new(p, draw_rule)),
            AnyPosition::Wide(p) => AnyGame::Wide(Box::new(Game::new(p, draw_rule))),
            AnyPosition::Shogi(p) => AnyGame::Shogi(Box::new(Game::new(p, draw_rule))),
            AnyPosition::Xiangqi(p) => AnyGame::Xiangqi(Box::new(Game::new(p, draw_rule))),
        }
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        match self {
            AnyGame::Std(g) => AnyVariant::Std(crate::Rules::variant(g.position())),
            AnyGame::Wide(g) => AnyVariant::Wide(g.position().variant()),
            AnyGame::Shogi(g) => AnyVariant::Shogi(g.position().variant()),
            AnyGame::Xiangqi(_) => AnyVariant::Xiangqi,
            AnyGame::Unplayed(u) => u.variant(),
        }
    }

    /// The record to read a figure of that an unplayed game does not answer by itself: made
    /// for the call (rare: claims, flags and KIF before the first move).
    fn made(&self) -> Cow<'_, AnyGame> {
        match self {
            AnyGame::Unplayed(u) => Cow::Owned(u.record()),
            made => Cow::Borrowed(made),
        }
    }

    #[must_use]
    pub fn start(&self) -> AnyPosition {
        each_game!(self, g => AnyPosition::from(g.start()), u => u.position())
    }

    /// The start as kept: by name when it is the game's own.
    #[must_use]
    pub fn start_position(&self) -> AnyStart {
        match self {
            AnyGame::Std(g) => AnyStart::Std(g.start_position().clone()),
            AnyGame::Wide(g) => AnyStart::Wide(g.start_position().clone()),
            AnyGame::Shogi(g) => AnyStart::Shogi(g.start_position().clone()),
            AnyGame::Xiangqi(g) => AnyStart::Xiangqi(g.start_position().clone()),
            AnyGame::Unplayed(u) => u.start().clone(),
        }
    }

    #[must_use]
    pub fn position(&self) -> AnyPosition {
        each_game!(self, g => AnyPosition::from(*g.position()), u => u.position())
    }

    /// The 8x8 engine's record, if this is one.
    #[must_use]
    pub fn std(&self) -> Option<&Game> {
        match self {
            AnyGame::Std(g) => Some(g),
            _ => None,
        }
    }

    /// Half-moves played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        each_game!(self, g => g.ply(), _ => 0)
    }

    /// Move `index` (0 for the first), if played.
    #[must_use]
    pub fn move_at(&self, index: usize) -> Option<AnyMove> {
        each_game!(
            self,
            g => g.moves().get(index).map(|&m| g.position().wrap(m)),
            _ => None
        )
    }

    /// The moves from index `from` on (none past the end).
    pub fn moves_from(&self, from: usize) -> impl ExactSizeIterator<Item = AnyMove> + '_ {
        match self {
            AnyGame::Std(g) => Either::A(
                g.moves()
                    .get(from..)
                    .unwrap_or_default()
                    .iter()
                    .map(|&m| AnyMove::Std(m)),
            ),
            AnyGame::Wide(g) => Either::B(moves_of(g, from)),
            AnyGame::Shogi(g) => Either::B(moves_of(g, from)),
            AnyGame::Xiangqi(g) => Either::B(moves_of(g, from)),
            AnyGame::Unplayed(_) => Either::B(Box::new(core::iter::empty())),
        }
    }

    /// Every move played.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = AnyMove> + '_ {
        self.moves_from(0)
    }

    /// The SAN (with marks) of the moves from index `from` on, as recorded when played.
    pub fn sans_from(&self, from: usize) -> impl ExactSizeIterator<Item = &str> + '_ {
        match self {
            AnyGame::Std(g) => Either::A(g.sans_from(from)),
            AnyGame::Wide(g) => Either::B(Box::new(g.sans_from(from))),
            AnyGame::Shogi(g) => Either::B(Box::new(g.sans_from(from))),
            AnyGame::Xiangqi(g) => Either::B(Box::new(g.sans_from(from))),
            AnyGame::Unplayed(_) => Either::B(Box::new(core::iter::empty())),
        }
    }

    /// The SAN of every move played.
    pub fn sans(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.sans_from(0)
    }

    #[must_use]
    pub fn draw_rule(&self) -> DrawRule {
        each_game!(self, g => g.draw_rule(), u => u.draw_rule())
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        // An unplayed game's start decides nothing (`Unplayed::of`).
        each_game!(self, g => g.outcome(), _ => None)
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    #[must_use]
    pub fn repetitions(&self) -> usize {
        each_game!(self, g => g.repetitions(), _ => 1)
    }

    /// Plays a legal move; an illegal one, one of another family or a finished game leaves
    /// everything unchanged.
    pub fn play(&mut self, m: AnyMove) -> Result<PlayedMove<AnyMove>, PlayError> {
        match self {
            AnyGame::Std(g) => play_of(g, m),
            AnyGame::Wide(g) => play_of(g, m),
            AnyGame::Shogi(g) => play_of(g, m),
            AnyGame::Xiangqi(g) => play_of(g, m),
            AnyGame::Unplayed(u) => {
                let mut made = u.record();
                made.play(m).inspect(|_| *self = made)
            }
        }
    }

    /// Plays a move written in UCI or the game's SAN.
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove<AnyMove>, PlayError> {
        match self {
            AnyGame::Std(g) => play_text_of(g, text),
            AnyGame::Wide(g) => play_text_of(g, text),
            AnyGame::Shogi(g) => play_text_of(g, text),
            AnyGame::Xiangqi(g) => play_text_of(g, text),
            AnyGame::Unplayed(u) => {
                let mut made = u.record();
                made.play_text(text).inspect(|_| *self = made)
            }
        }
    }

    #[must_use]
    pub fn can_claim(&self, claim: DrawClaim) -> bool {
        each_game!(self, g => g.can_claim(claim), _ => self.made().can_claim(claim))
    }

    pub fn claim_draw(&mut self, claim: DrawClaim) -> Result<Outcome, ClaimError> {
        each_game!(self, g => g.claim_draw(claim), u => {
            let mut made = u.record();
            made.claim_draw(claim).inspect(|_| *self = made)
        })
    }

    /// Records an ending decided off the board; refused if the game is over.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        each_game!(self, g => g.finish(outcome), u => {
            let mut made = u.record();
            made.finish(outcome).inspect(|()| *self = made)
        })
    }

    /// Takes back the last `plies` moves; the moves taken back, the earliest first.
    pub fn take_back(&mut self, plies: usize) -> Result<Vec<AnyMove>, TakeBackError> {
        match self {
            AnyGame::Std(g) => take_back_of(g, plies),
            AnyGame::Wide(g) => take_back_of(g, plies),
            AnyGame::Shogi(g) => take_back_of(g, plies),
            AnyGame::Xiangqi(g) => take_back_of(g, plies),
            AnyGame::Unplayed(_) if plies > 0 => Err(TakeBackError::TooFew {
                asked: plies,
                played: 0,
            }),
            AnyGame::Unplayed(_) => Ok(Vec::new()),
        }
    }

    /// The outcome when `loser`'s flag falls.
    #[must_use]
    pub fn flag_outcome(&self, loser: Color) -> Outcome {
        each_game!(self, g => g.flag_outcome(loser), _ => self.made().flag_outcome(loser))
    }

    /// Bytes this record keeps on the heap for its moves and repetition keys (another
    /// family's boxed record too, or an unplayed game's boxed start).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        match self {
            AnyGame::Std(g) => g.heap_bytes(),
            AnyGame::Wide(g) => boxed_bytes(g),
            AnyGame::Shogi(g) => boxed_bytes(g),
            AnyGame::Xiangqi(g) => boxed_bytes(g),
            AnyGame::Unplayed(u) => u.heap_bytes(),
        }
    }
}

impl From<Game> for AnyGame {
    fn from(g: Game) -> AnyGame {
        AnyGame::Std(g)
    }
}

impl AnyGame {
    /// The game as KIF (Kakinoki's format) with `players` (sente's, gote's name): a shogi or
    /// minishogi game (one set up from another position opens with its board diagram);
    /// `None` for any other game.
    #[must_use]
    pub fn kif(&self, players: [&str; 2]) -> Option<String> {
        match self {
            AnyGame::Shogi(g) => {
                let start = g.start_position().position();
                crate::shogi::write_kif(&start, g.moves(), g.outcome(), players)
            }
            AnyGame::Unplayed(_) => self.made().kif(players),
            _ => None,
        }
    }

    /// The game as PGN text: the 8x8 engine's games as [`crate::write_pgn`] writes them;
    /// another family's game names its game in the `Variant` tag as Fairy-Stockfish's readers
    /// spell it and always gives its start (`SetUp`, `FEN`): no chess reader knows its board.
    #[must_use]
    pub fn pgn(&self, tags: &crate::PgnTags) -> String {
        if let AnyGame::Std(g) = self {
            return crate::write_pgn(g, tags);
        }
        let start = self.start();
        let fen = start.fen();
        let fullmoves = match start {
            AnyPosition::Std(p) => crate::Rules::fullmoves(&p),
            AnyPosition::Wide(p) => p.fullmoves(),
            AnyPosition::Shogi(p) => p.fullmoves(),
            AnyPosition::Xiangqi(p) => p.fullmoves(),
        };
        crate::pgn::write_record(
            crate::pgn::Record {
                outcome: self.outcome(),
                variant: self.variant().pgn_name(),
                set_up: Some(&fen),
                turn: start.turn(),
                fullmoves,
                sans: Box::new(self.sans()),
            },
            tags,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Termination;

    fn janus() -> AnyGame {
        let Some(variant) = AnyVariant::by_key("janus") else {
            panic!("janus is a game");
        };
        AnyGame::new(AnyPosition::new(variant), DrawRule::Claim)
    }

    /// A wide game through the one vocabulary: moves in UCI or SAN, their SAN kept, a
    /// takeback that restores the position, a threefold claim, and the PGN with its FEN.
    #[test]
    fn a_wide_game_is_played_taken_back_claimed_and_written() {
        let mut game = janus();
        let start = game.position();
        let first = game.play_text("e2e4").map(|p| p.san);
        assert_eq!(first.as_deref(), Ok("e4"));
        assert_eq!(game.take_back(1).map(|m| m.len()), Ok(1));
        assert_eq!(game.position(), start);
        for m in [
            "c1d3", "c8d6", "d3c1", "d6c8", "c1d3", "c8d6", "d3c1", "d6c8",
        ] {
            assert!(game.play_text(m).is_ok(), "{m}");
        }
        assert_eq!(game.outcome(), None);
        assert!(game.can_claim(DrawClaim::ThreefoldRepetition));
        let claimed = game.claim_draw(DrawClaim::ThreefoldRepetition);
        assert_eq!(claimed.map(|o| o.termination), Ok(Termination::Repetition));
        let pgn = game.pgn(&crate::PgnTags::default());
        assert!(pgn.contains("[Variant \"Janus\"]"), "{pgn}");
        assert!(pgn.contains("[FEN \"rjnbkqbnjr/"), "{pgn}");
        assert!(pgn.contains("1. Nd3 Nd6 2. Nc1 Nc8"), "{pgn}");
        assert_eq!(game.sans().count(), 8);
        assert_eq!(
            game.moves().map(|m| m.to_string()).next().as_deref(),
            Some("c1d3")
        );
    }

    /// A move of the other family is refused, not played.
    #[test]
    fn a_move_of_another_family_is_refused() {
        let mut chess = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        let Some(&janus_move) = janus().position().legal_moves().first() else {
            panic!("janus has moves at the start");
        };
        assert!(matches!(chess.play(janus_move), Err(PlayError::Illegal(_))));
        assert_eq!(chess.ply(), 0);
    }
}
