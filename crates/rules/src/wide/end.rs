//! How a wide-family game ends on the board: checkmate and stalemate, insufficient material,
//! and each game's own ends (`End`): an extinct piece type, a side in Massacre with no
//! capture, the horde taken. Repetition and the fifty-move rule need the record: `WideGame`.

use super::position::WidePosition;
use super::role::WideRole;
use super::square::SQUARES;
use super::variant::{Chance, End, WideVariant};
use crate::{Color, Outcome, Termination};

impl WidePosition {
    /// Neither side can ever checkmate: each has its king alone or with one bishop or knight
    /// (every other piece, the compounds included, is mating material, as `GAMES.md` says),
    /// or only bishops remain and all stand on one square colour. Knightmate: only the two
    /// royal knights are left. Never in a game whose `End` has no material rule.
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        let r = &self.roles;
        match self.def.end {
            End::Checkmate => {}
            End::BareRoyals => return self.occupied() == r[WideRole::Knight.index()],
            End::KnightRelay => {
                return !self.relay_can_mate(Color::White) && !self.relay_can_mate(Color::Black);
            }
            _ => return false,
        }
        let (knights, bishops) = (r[WideRole::Knight.index()], r[WideRole::Bishop.index()]);
        let kings = r[WideRole::King.index()];
        if self.occupied() & !(kings | knights | bishops) != 0 {
            return false;
        }
        // Recycle Chess: the hands count with the board, and a bishop in hand may be dropped
        // on either colour.
        let held = |role: WideRole| {
            u32::from(self.hands[0][role.index()]) + u32::from(self.hands[1][role.index()])
        };
        if held(WideRole::Queen) + held(WideRole::Rook) + held(WideRole::Pawn) != 0 {
            return false;
        }
        let held_minors = held(WideRole::Knight) + held(WideRole::Bishop);
        let minors = knights | bishops;
        if knights == 0 && held_minors == 0 {
            // Bishops only: none can ever reach the other colour, so no mate if all share one.
            let light = light_squares();
            if bishops & light == 0 || bishops & !light == 0 {
                return true;
            }
        }
        // With a knight on the board, only a lone minor piece is no mate.
        minors.count_ones() + held_minors <= 1
    }

    /// Extinction: whether `color` has lost every piece of one of the six chess types (a
    /// promoted king counts as a king).
    #[must_use]
    pub fn is_extinct(&self, color: Color) -> bool {
        [
            WideRole::King,
            WideRole::Queen,
            WideRole::Rook,
            WideRole::Bishop,
            WideRole::Knight,
            WideRole::Pawn,
        ]
        .into_iter()
        .any(|role| self.pieces(color, role) == 0)
    }

    /// The game's end on the board, if it has ended: checkmate, stalemate (a draw), or
    /// insufficient material, and each game's own ends: an extinct piece type, a side in
    /// Massacre with no capture, the horde taken. Repetition and the fifty-move rule need the
    /// record: `WideGame::outcome`.
    ///
    /// Extinction ends as `Extinction`, Massacre's side with no capture loses by
    /// `NoCapture`, the horde taken is `HordeDestroyed`, a king frozen in the Ice Age is
    /// `KingFrozen`, a king taken in a king-capture game `KingCaptured`.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.def.targets {
            return self.ambiguous_outcome();
        }
        let (us, mover) = (self.turn, !self.turn);
        match self.def.end {
            End::Extinction => {
                // Both sides extinct at once: the mover wins (Schmittberger's rule; FSF
                // differs, see GAMES.md).
                if self.is_extinct(us) {
                    return Some(Outcome::win(mover, Termination::Extinction));
                }
                if self.is_extinct(mover) {
                    return Some(Outcome::win(us, Termination::Extinction));
                }
            }
            End::Horde if self.colors[Color::Black.index()] == 0 => {
                return Some(Outcome::win(Color::White, Termination::HordeDestroyed));
            }
            End::IceAge => {
                let frozen = |color| self.royal(color).is_none();
                match (frozen(Color::White), frozen(Color::Black)) {
                    (true, true) => return Some(Outcome::draw(Termination::KingFrozen)),
                    (true, false) => {
                        return Some(Outcome::win(Color::Black, Termination::KingFrozen));
                    }
                    (false, true) => {
                        return Some(Outcome::win(Color::White, Termination::KingFrozen));
                    }
                    (false, false) => {}
                }
            }
            End::KingCapture => {
                let ended = if self.def.chance == Chance::Behemoth {
                    self.behemoth_outcome()
                } else {
                    self.king_capture_outcome()
                };
                if let Some(outcome) = ended {
                    return Some(outcome);
                }
            }
            End::Massacre if !self.has_legal_move() => {
                return Some(Outcome::win(mover, Termination::NoCapture));
            }
            _ => {}
        }
        if !self.can_move() {
            return Some(if self.is_check() {
                Outcome::win(mover, Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        self.is_insufficient_material()
            .then_some(Outcome::draw(Termination::InsufficientMaterial))
    }
}

impl WidePosition {
    /// The king-capture games' own ends: a side without a king has lost (Dice 10x10: without
    /// its last one); Dark Chess's two bare kings draw.
    fn king_capture_outcome(&self) -> Option<Outcome> {
        let kingless = |color| self.pieces(color, WideRole::King) == 0;
        match (kingless(Color::White), kingless(Color::Black)) {
            (true, _) => return Some(Outcome::win(Color::Black, Termination::KingCaptured)),
            (_, true) => return Some(Outcome::win(Color::White, Termination::KingCaptured)),
            _ => {}
        }
        (self.def.variant == WideVariant::Dark
            && self.occupied() == self.roles[WideRole::King.index()])
        .then_some(Outcome::draw(Termination::InsufficientMaterial))
    }
}

/// The light squares of the shared numbering (a1 is dark; a square is light when file + rank
/// is odd).
pub(super) const fn light_squares() -> u128 {
    let mut bb = 0u128;
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = (sq % 12, sq / 12);
        if (file + rank) % 2 == 1 {
            bb |= 1 << sq;
        }
        sq += 1;
    }
    bb
}
