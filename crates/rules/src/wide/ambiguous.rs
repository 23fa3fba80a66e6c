//! Ambiguous Chess (`ambiguous`), as `GAMES.md` gives it:
//!
//! > **King-capture conventions; no castling.** Promotion and en passant otherwise standard.
//! > A player does not choose a move, only a **target square**: an empty square or an enemy
//! > piece that at least one of their pieces can legally move to or capture. The **opponent**
//! > then chooses which of that player's pieces goes there (and, for a pawn promoting there,
//! > which piece it becomes).
//! > **A turn** has two parts, in this order: (1) **execute** the opponent's pending target by
//! > choosing one of the opponent's pieces that can legally go there, and (2) **mark** one's
//! > own target. White's first turn is a mark only. The position is the board plus the
//! > pending target (seventh FEN field, `-` when none).
//! > **Forced execution.** When exactly one legal move reaches a marked target (counting each
//! > promotion choice as a separate move), it is executed at once, at the moment of marking,
//! > and the opponent's next turn is a mark only.
//! > **En passant**: a mark made right after an executed double step may be the skipped
//! > square; the capture is legal when executed.
//! > **End.** A move that captures a king ends the game at once (no mark follows): the king's
//! > opponent wins, whoever chose the move. A player with no possible target draws.
//!
//! One legal "move" of a position is one whole turn, so a game record keeps one entry a ply
//! and no position between two entries waits for anything: the execution (absent on a turn
//! that only marks), then the mark (absent when the execution took a king or left no target),
//! then the move the mark forced, if one did. Its text is GAMES.md's tokens in that order, the
//! forced move after `=`: `g1f3>d5`, `>e4`, `e7e5>d4=e3d4` (Black executed e7e5 and marked d4,
//! which only e3d4 reaches, so White's pawn took on d4 at once and White's next turn only marks).
//!
//! Counters, by turns: the halfmove count restarts on a turn in which any part captured or
//! moved a pawn, and the move number grows after Black's turn. The en passant field, when a
//! target is pending, is the marking player's (written only when the mark is that square).
//! A turn that ends the game (a king taken, or no target left after the execution) leaves the
//! side to move as it was.

use super::mv::WideMove;
use super::position::WidePosition;
use super::role::WideRole;
use super::square::WideSquare;
use super::variant::{CHESS_LETTERS, CHESS_PROMOTIONS, End, GameDef, WideVariant};
use crate::{Color, Outcome, Termination};

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    end: End::KingCapture,
    targets: true,
    ..GameDef::standard(
        WideVariant::Ambiguous,
        (8, 8),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 -",
        CHESS_LETTERS,
        &CHESS_PROMOTIONS,
        true,
        None,
    )
};

impl WidePosition {
    /// Ambiguous Chess: the target the player not to move marked, which the side to move now
    /// executes with that player's pieces; `None` when the turn is a mark only.
    #[must_use]
    pub fn pending(&self) -> Option<WideSquare> {
        self.pending
    }

    /// The board moves of the side whose pieces move next on this board.
    fn board_moves(&self) -> Vec<WideMove> {
        let mut moves = Vec::with_capacity(64);
        self.generate(&mut moves);
        moves
    }

    /// The board moves reaching `target`.
    pub(super) fn reaching(&self, target: WideSquare) -> Vec<WideMove> {
        let mut moves = self.board_moves();
        moves.retain(|m| m.to() == target);
        moves
    }

    /// The squares the side to move may mark, each once, in the generator's order.
    pub(super) fn targets(&self) -> Vec<WideSquare> {
        let mut targets: Vec<WideSquare> = Vec::new();
        for m in self.board_moves() {
            if !targets.contains(&m.to()) {
                targets.push(m.to());
            }
        }
        targets
    }

    pub(super) fn kingless(&self) -> bool {
        Color::ALL
            .into_iter()
            .any(|c| self.pieces(c, WideRole::King) == 0)
    }

    /// The board as the player who marked the pending target moves on it.
    pub(super) fn marking_board(&self) -> WidePosition {
        let mut board = *self;
        board.turn = !self.turn;
        board
    }

    /// The squares the side to move may mark, each once in the generator's order, with the
    /// origin of the one move reaching it when only one does (the mark forces that move).
    fn marks(&self) -> Vec<(WideSquare, Option<WideSquare>)> {
        let moves = self.board_moves();
        let mut marks: Vec<(WideSquare, Option<WideSquare>)> = Vec::new();
        for m in &moves {
            if marks.iter().any(|&(t, _)| t == m.to()) {
                continue;
            }
            let mut reaching = moves.iter().filter(|o| o.to() == m.to());
            let forced = match (reaching.next(), reaching.next()) {
                (Some(only), None) => Some(only.from()),
                _ => None,
            };
            marks.push((m.to(), forced));
        }
        marks
    }

    /// Every whole turn (see the file's header), each carrying the move its mark forces.
    pub(crate) fn turns(&self) -> Vec<WideMove> {
        if self.ambiguous_outcome().is_some() {
            return Vec::new();
        }
        let Some(pending) = self.pending else {
            return self
                .marks()
                .into_iter()
                .map(|(t, forced)| WideMove::mark_only(t).with_forced(forced))
                .collect();
        };
        let board = self.marking_board();
        let mut turns = Vec::new();
        for execution in board.reaching(pending) {
            let mut after = board;
            after.play_board(execution);
            let marks = if after.kingless() {
                Vec::new()
            } else {
                after.marks()
            };
            if marks.is_empty() {
                turns.push(execution);
            }
            turns.extend(
                marks
                    .into_iter()
                    .map(|(t, forced)| execution.with_mark(Some(t)).with_forced(forced)),
            );
        }
        turns
    }

    /// Whether board move `m` captures or moves a pawn.
    fn resets_count(&self, m: WideMove) -> bool {
        self.pieces(self.turn, WideRole::Pawn) & m.from().bit() != 0
            || self.occupied() & m.to().bit() != 0
    }

    /// Plays whole turn `m`, which must be legal here.
    pub(crate) fn play_turn(&mut self, m: WideMove) {
        let player = self.turn;
        let (halfmoves, fullmoves) = (self.halfmoves, self.fullmoves);
        let mut reset = false;
        let mut pos = *self;
        if m.executes() {
            pos = self.marking_board();
            reset |= pos.resets_count(m);
            pos.play_board(m.with_mark(None));
        }
        pos.pending = None;
        if let Some(target) = m.mark() {
            match pos.reaching(target)[..] {
                [forced] => {
                    reset |= pos.resets_count(forced);
                    pos.play_board(forced);
                }
                _ => {
                    pos.pending = Some(target);
                    if pos.ep != Some(target) {
                        pos.ep = None;
                        pos.ep_victim = None;
                    }
                    pos.turn = !player;
                }
            }
        }
        pos.halfmoves = if reset { 0 } else { halfmoves + 1 };
        pos.fullmoves = fullmoves + u32::from(player == Color::Black);
        *self = pos;
    }

    /// The one board move turn `m`'s mark forces, if it forces one.
    pub(crate) fn forced_after(&self, m: WideMove) -> Option<(WideSquare, WideSquare)> {
        let target = m.mark()?;
        let mut pos = *self;
        if m.executes() {
            pos = self.marking_board();
            pos.play_board(m.with_mark(None));
        }
        match pos.reaching(target)[..] {
            [forced] => Some((forced.from(), forced.to())),
            _ => None,
        }
    }

    /// A king taken: its opponent has won. No target to mark: a draw.
    pub(crate) fn ambiguous_outcome(&self) -> Option<Outcome> {
        for color in Color::ALL {
            if self.pieces(color, WideRole::King) == 0 {
                return Some(Outcome::win(!color, Termination::KingCaptured));
            }
        }
        (self.pending.is_none() && self.board_moves().is_empty())
            .then_some(Outcome::draw(Termination::Stalemate))
    }

    /// A pending target must be one at least two moves of the marking player reach (one
    /// alone would have been executed at once), and no game may be over with it.
    pub(crate) fn check_pending(&self) -> Result<(), &'static str> {
        let Some(target) = self.pending else {
            return Ok(());
        };
        if self.kingless() {
            return Err("no target is pending in a finished game");
        }
        if self.marking_board().reaching(target).len() < 2 {
            return Err("the pending target is not one at least two moves of its player reach");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::sorted_ucis;
    use super::super::{WideGame, WidePosition, WideVariant};
    use crate::{Color, DrawRule, Outcome, Termination};

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Ambiguous, fen).unwrap()
    }

    /// White's first turn is a mark only: every square a white piece can reach, a square one
    /// move alone reaches executed at once (`=`), a square two reach left pending.
    #[test]
    fn the_first_turn_marks_and_one_move_alone_is_executed_at_once() {
        let mut p = WidePosition::new(WideVariant::Ambiguous);
        let turns = sorted_ucis(&p);
        assert_eq!(turns.len(), 16);
        assert!(turns.contains(&">a3".to_string()) && turns.contains(&">e4=e2e4".to_string()));
        p.play(">a3").unwrap();
        assert_eq!(p.pending(), Some("a3".parse().unwrap()));
        assert_eq!(p.turn(), Color::Black);
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 a3"
        );
        // Black chooses which white piece goes to a3, then marks.
        let turns = sorted_ucis(&p);
        assert!(
            turns
                .iter()
                .all(|t| t.starts_with("a2a3>") || t.starts_with("b1a3>"))
        );
        p.play("b1a3>e5=e7e5").unwrap();
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/8/N7/PPPPPPPP/R1BQKBNR w - - 0 2 -"
        );
        // The mark was executed at once: White's turn is a mark only.
        assert!(sorted_ucis(&p).iter().all(|t| t.starts_with('>')));
    }

    /// A turn's forced move may be left out of its text (the mark decides it), but a wrong one
    /// is refused.
    #[test]
    fn the_forced_move_is_read_with_or_without_its_text() {
        let mut p = WidePosition::new(WideVariant::Ambiguous);
        assert!(p.clone().play(">e4=d2d4").is_err());
        assert!(p.clone().play("e2e4").is_err());
        let m = p.play(">e4").unwrap();
        assert_eq!(
            m.to_uci(&WidePosition::new(WideVariant::Ambiguous))
                .to_string(),
            ">e4=e2e4"
        );
    }

    /// A pawn promoting on the target is never forced alone: the opponent chooses the piece.
    #[test]
    fn the_opponent_chooses_the_promotion() {
        let mut p = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1 -");
        p.play(">a8").unwrap();
        assert_eq!(p.pending(), Some("a8".parse().unwrap()));
        let executions: Vec<String> = sorted_ucis(&p)
            .into_iter()
            .map(|t| t[..5].to_string())
            .collect();
        assert!(
            ["a7a8q", "a7a8r", "a7a8b", "a7a8n"]
                .iter()
                .all(|e| executions.iter().any(|x| x == e))
        );
        p.play("a7a8n>g8").unwrap();
        assert_eq!(
            p.piece_at("a8".parse().unwrap()).map(|x| x.role),
            Some(super::WideRole::Knight)
        );
    }

    /// A mark right after an executed double step may be the skipped square, and the capture
    /// is executed from the unchanged board.
    #[test]
    fn en_passant_onto_a_marked_skipped_square() {
        let mut p = pos("7k/3p4/1n6/2P1P3/8/8/8/7K w - - 0 1 d5");
        p.play("d7d5>d6").unwrap();
        assert_eq!(p.fen(), "7k/8/1n6/2PpP3/8/8/8/7K b - d6 0 1 d6");
        assert_eq!(pos(&p.fen()), p);
        let turns = sorted_ucis(&p);
        assert!(turns.iter().any(|t| t.starts_with("e5d6>")));
        p.play("e5d6>h7").unwrap();
        assert!(p.piece_at("d5".parse().unwrap()).is_none());
        // Another mark drops the square.
        let mut p = pos("7k/3p4/1n6/2P1P3/8/8/8/7K w - - 0 1 d5");
        p.play("d7d5>h2").unwrap();
        assert_eq!(p.ep_square(), None);
    }

    /// A move that takes a king ends the game at once, whoever chose it, and no mark follows.
    #[test]
    fn a_captured_king_ends_the_game_at_once() {
        let p = pos("k3r3/8/8/8/8/8/8/r3K3 w - - 0 1 e1");
        assert_eq!(sorted_ucis(&p), ["a1e1", "e8e1"]);
        let mut after = p;
        after.play("a1e1").unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome::win(Color::Black, Termination::KingCaptured))
        );
        assert!(after.legal_moves().is_empty());
        // A forced execution that takes the king ends the marking player's own turn.
        let mut p = pos("4k3/8/8/8/8/8/8/4RK2 w - - 0 1 -");
        p.play(">e8=e1e8").unwrap();
        assert_eq!(
            p.outcome(),
            Some(Outcome::win(Color::White, Termination::KingCaptured))
        );
    }

    /// A player with no target to mark draws: at the start of a turn, or once the execution
    /// is made.
    #[test]
    fn no_target_draws() {
        let p = pos("7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1 -");
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.outcome(), Some(Outcome::draw(Termination::Stalemate)));
        let p = pos("3r3k/8/5r2/8/1p6/pPp5/PRP5/KB6 w - - 0 1 d6");
        assert_eq!(sorted_ucis(&p), ["d8d6", "f6d6"]);
        let mut after = p;
        after.play("f6d6").unwrap();
        assert_eq!(after.outcome(), Some(Outcome::draw(Termination::Stalemate)));
    }

    /// The seventh field is the pending target; one that fewer than two moves reach cannot
    /// be pending, since one alone would have been executed at once.
    #[test]
    fn the_pending_target_is_the_seventh_field() {
        assert!(
            WidePosition::from_fen(
                WideVariant::Ambiguous,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 e4"
            )
            .is_err()
        );
        assert!(
            WidePosition::from_fen(
                WideVariant::Ambiguous,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 e9"
            )
            .is_err()
        );
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 f3");
        assert_eq!(
            p.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 f3"
        );
    }

    /// The longest turn, a promoting execution and a forced move, is written whole in the
    /// record and read back from it.
    #[test]
    fn the_longest_turn_is_written_whole() {
        let mut game = WideGame::new(
            pos("7k/8/8/2p5/3P4/8/1p6/7K w - - 0 1 b1"),
            DrawRule::Automatic,
        );
        assert_eq!(game.play_text("b2b1q>c5").unwrap().san, "b2b1q>c5=d4c5");
        let mut again = pos("7k/8/8/2p5/3P4/8/1p6/7K w - - 0 1 b1");
        again.play("b2b1q>c5=d4c5").unwrap();
        assert_eq!(&again, game.position());
    }

    /// Every listed turn's SAN is its record text, the same as its UCI: the turn has no other.
    #[test]
    fn a_turn_s_san_is_its_record_text() {
        let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 f3");
        let listed = crate::any::AnyPosition::Wide(p).notations();
        assert!(listed.iter().any(|(uci, _)| uci == "g1f3>d5=d7d5"));
        for (uci, san) in listed {
            assert_eq!(uci, san);
        }
    }

    /// A recorded turn's text is whole without its position: the forced move rides in it.
    #[test]
    fn a_recorded_turn_writes_its_forced_move() {
        let mut game = WideGame::new(
            WidePosition::new(WideVariant::Ambiguous),
            DrawRule::Automatic,
        );
        game.play_text(">e4").unwrap();
        game.play_text(">f6").unwrap();
        let texts: Vec<String> = game
            .moves()
            .iter()
            .map(|m| m.uci_in(WideVariant::Ambiguous).to_string())
            .collect();
        assert_eq!(texts, [">e4=e2e4", ">f6"]);
    }

    /// A record keeps one entry a turn, written as its tokens, and takes one back whole.
    #[test]
    fn a_record_keeps_one_entry_a_turn() {
        let mut game = WideGame::new(
            WidePosition::new(WideVariant::Ambiguous),
            DrawRule::Automatic,
        );
        assert_eq!(game.play_text(">f3").unwrap().san, ">f3");
        assert_eq!(game.play_text("g1f3>d5").unwrap().san, "g1f3>d5=d7d5");
        game.take_back(1).unwrap();
        assert_eq!(game.position().pending(), Some("f3".parse().unwrap()));
        game.play_text("f2f3>e5").unwrap();
        assert_eq!(game.position().turn(), Color::White);
    }
}
