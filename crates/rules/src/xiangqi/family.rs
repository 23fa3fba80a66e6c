//! Xiangqi as a game record plays it: `XiangqiPosition`'s [`Family`] implementation (its
//! repetition key, its move text in WXF, reading moves as points or WXF) and [`XiangqiStart`], a start as a
//! record keeps it. `Game<XiangqiPosition>` ([`XiangqiGame`]) is the record.

use super::movegen::XiangqiMoves;
use super::mv::{XiangqiMove, XiangqiUci};
use super::position::XiangqiPosition;
use super::repetition::{NO_CAPTURE_PLIES, history_outcome};
use super::wxf::{parse_wxf, wxf};
use crate::family::mix;
use crate::{Color, Family, Game, Outcome, PlayError, StandardStart, Start, WideText};

/// A xiangqi game record.
pub type XiangqiGame = Game<XiangqiPosition>;

/// A start: the game's own by name, any other boxed.
pub type XiangqiStart = Start<XiangqiPosition>;

/// Xiangqi is one game: its "variant" is the unit.
impl StandardStart for XiangqiPosition {
    type Variant = ();
    type Draw = core::convert::Infallible;

    fn standard((): ()) -> XiangqiPosition {
        XiangqiPosition::new()
    }

    fn variant_of(&self) {}

    fn draw_in_start(&self) -> Option<core::convert::Infallible> {
        None
    }

    fn drawn((): (), draw: core::convert::Infallible) -> XiangqiPosition {
        match draw {}
    }
}

impl XiangqiPosition {
    /// A key equal for positions with the same pieces on the same points and the same side
    /// to move.
    #[must_use]
    pub fn repetition_key(&self) -> u64 {
        let mut h = mix(self.turn.index() as u64 + 1);
        for bb in self.roles.iter().chain(&self.colors) {
            h = mix(h ^ (*bb as u64)).wrapping_add(0x9E37_79B9_7F4A_7C15);
            h = mix(h ^ ((*bb >> 64) as u64)).wrapping_add(0x9E37_79B9_7F4A_7C15);
        }
        h
    }
}

impl Family for XiangqiPosition {
    type Move = XiangqiMove;
    type Legal = XiangqiMoves;
    /// WXF notation (`C2.5`, `H8+7`, `+R-1`), without a check mark.
    type San = WideText;
    type Start = XiangqiStart;

    fn from_start(start: &XiangqiStart) -> XiangqiPosition {
        start.position()
    }

    fn legal(&self) -> XiangqiMoves {
        self.legal_moves()
    }

    fn play_unchecked(&mut self, m: XiangqiMove) {
        XiangqiPosition::play_unchecked(self, m);
    }

    fn outcome(&self) -> Option<Outcome> {
        XiangqiPosition::outcome(self)
    }

    fn repetition_key(&self) -> u64 {
        XiangqiPosition::repetition_key(self)
    }

    fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The record's fifty- and seventy-five-move rules do not apply: xiangqi's own
    /// no-capture rule does, in [`repetition_outcome`](Family::repetition_outcome).
    fn has_move_count_rule(&self) -> bool {
        false
    }

    /// A capture cannot be undone (soldier moves can be neither undone nor repeated, but the
    /// clock counts only captures, as Fairy-Stockfish's does).
    fn irreversible_moves(&self) -> bool {
        true
    }

    /// WXF names a piece by where its kind stands, not by which other moves share a
    /// destination, so the legal moves are not needed.
    fn san_among(&self, m: XiangqiMove, _legal: &[XiangqiMove]) -> WideText {
        wxf(self, m)
    }

    /// WXF marks no check (nor does Fairy-Stockfish's WXF): `+` there is an operator, so a
    /// mark would read as one.
    fn mark(&self, _san: &mut WideText) {}

    fn illegal(&self, m: XiangqiMove) -> PlayError {
        PlayError::Illegal(format!("{m} in this xiangqi position"))
    }

    /// The two points (`h3e3`), or WXF (`C2.5`).
    fn parse_among(&self, text: &str, legal: &[XiangqiMove]) -> Result<XiangqiMove, PlayError> {
        let text = text.trim();
        let Ok(uci) = text.trim_end_matches(['+', '#']).parse::<XiangqiUci>() else {
            return parse_wxf(self, text, legal).unwrap_or_else(|| {
                let shown: String = text.chars().take(16).collect();
                Err(PlayError::Malformed(format!(
                    "{shown:?} is not a xiangqi move (two points such as h3e3, or WXF such as \
                     C2.5, H8+7 or +R-1)"
                )))
            });
        };
        legal
            .iter()
            .copied()
            .find(|m| m.uci() == uci)
            .ok_or_else(|| PlayError::Illegal(format!("{uci} in this xiangqi position")))
    }

    /// Fairy-Stockfish's rule: a side with no chariot, horse, cannon or soldier.
    fn has_insufficient_material(&self, color: Color) -> bool {
        self.lacks_attackers(color)
    }

    /// Xiangqi's own rules replace threefold/fivefold: [`Family::repetition_outcome`].
    fn has_own_repetition_rule(&self) -> bool {
        true
    }

    /// Perpetual check and chase at a position's third occurrence, and the no-capture rule
    /// ([`super::history_outcome`]). Only the stretch since the last capture can repeat (there
    /// are no drops: a capture changes the material for good), and `self`'s clock counts that
    /// stretch, so the game is replayed only when the keys show a third occurrence in it or the
    /// clock has reached the no-capture limit: on a handful of moves, not on every move of a
    /// long game.
    fn repetition_outcome(
        &self,
        start: &XiangqiStart,
        moves: &[XiangqiMove],
        keys: &[u64],
    ) -> Option<Outcome> {
        let n = moves.len();
        let current = *keys.get(n)?;
        let window = (self.halfmoves as usize).min(n);
        let seen = (0..=window)
            .step_by(2)
            .filter(|&back| keys[n - back] == current)
            .count();
        if seen < 3 && self.halfmoves < NO_CAPTURE_PLIES {
            return None;
        }
        let first = n - window;
        let mut pos = start.position();
        for &m in &moves[..first] {
            pos.play_unchecked(m);
        }
        let mut positions = Vec::with_capacity(window + 1);
        for &m in &moves[first..] {
            positions.push(pos);
            pos.play_unchecked(m);
        }
        positions.push(pos);
        history_outcome(&positions, &moves[first..])
    }
}
