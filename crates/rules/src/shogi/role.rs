//! `ShogiRole` and `ShogiPiece`: the fourteen kinds of shogi piece (eight unpromoted, six
//! promoted), their letters in FEN, SFEN and moves, promotion both ways, and the index a hand
//! keeps them by.

use crate::Color;

/// A kind of piece. The first seven are the ones a hand holds, in that order (`index` 0-6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ShogiRole {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    /// Promoted pawn (tokin): moves as a gold.
    ProPawn,
    ProLance,
    ProKnight,
    ProSilver,
    /// Promoted bishop: the bishop plus one orthogonal step.
    Horse,
    /// Promoted rook: the rook plus one diagonal step.
    Dragon,
}

/// Kinds of piece.
pub(crate) const ROLES: usize = 14;
/// Kinds a hand holds (pawn to rook).
pub(crate) const HAND_ROLES: usize = 7;

impl ShogiRole {
    /// The kinds a hand holds, weakest first (pawn to rook): the first of [`ShogiRole::ALL`].
    pub const HAND: [ShogiRole; HAND_ROLES] = {
        let mut hand = [ShogiRole::Pawn; HAND_ROLES];
        let mut i = 0;
        while i < HAND_ROLES {
            hand[i] = ShogiRole::ALL[i];
            i += 1;
        }
        hand
    };

    pub const ALL: [ShogiRole; ROLES] = [
        ShogiRole::Pawn,
        ShogiRole::Lance,
        ShogiRole::Knight,
        ShogiRole::Silver,
        ShogiRole::Gold,
        ShogiRole::Bishop,
        ShogiRole::Rook,
        ShogiRole::King,
        ShogiRole::ProPawn,
        ShogiRole::ProLance,
        ShogiRole::ProKnight,
        ShogiRole::ProSilver,
        ShogiRole::Horse,
        ShogiRole::Dragon,
    ];

    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub(crate) const fn from_index(i: usize) -> ShogiRole {
        ShogiRole::ALL[i]
    }

    /// The promoted form, if this kind promotes.
    #[must_use]
    pub const fn promoted(self) -> Option<ShogiRole> {
        match self {
            ShogiRole::Pawn => Some(ShogiRole::ProPawn),
            ShogiRole::Lance => Some(ShogiRole::ProLance),
            ShogiRole::Knight => Some(ShogiRole::ProKnight),
            ShogiRole::Silver => Some(ShogiRole::ProSilver),
            ShogiRole::Bishop => Some(ShogiRole::Horse),
            ShogiRole::Rook => Some(ShogiRole::Dragon),
            _ => None,
        }
    }

    /// The kind a capture puts in hand: promoted pieces go back to their unpromoted form.
    #[must_use]
    pub const fn unpromoted(self) -> ShogiRole {
        match self {
            ShogiRole::ProPawn => ShogiRole::Pawn,
            ShogiRole::ProLance => ShogiRole::Lance,
            ShogiRole::ProKnight => ShogiRole::Knight,
            ShogiRole::ProSilver => ShogiRole::Silver,
            ShogiRole::Horse => ShogiRole::Bishop,
            ShogiRole::Dragon => ShogiRole::Rook,
            other => other,
        }
    }

    #[must_use]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > (ShogiRole::King as u8)
    }

    /// The letter of the unpromoted kind, upper case (`P`; `+P` is written with a `+`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            ShogiRole::Pawn => 'P',
            ShogiRole::Lance => 'L',
            ShogiRole::Knight => 'N',
            ShogiRole::Silver => 'S',
            ShogiRole::Gold => 'G',
            ShogiRole::Bishop => 'B',
            ShogiRole::Rook => 'R',
            _ => 'K',
        }
    }

    /// The unpromoted kind a letter names, either case.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<ShogiRole> {
        match c.to_ascii_uppercase() {
            'P' => Some(ShogiRole::Pawn),
            'L' => Some(ShogiRole::Lance),
            'N' => Some(ShogiRole::Knight),
            'S' => Some(ShogiRole::Silver),
            'G' => Some(ShogiRole::Gold),
            'B' => Some(ShogiRole::Bishop),
            'R' => Some(ShogiRole::Rook),
            'K' => Some(ShogiRole::King),
            _ => None,
        }
    }
}

/// A piece: a kind and a side (White is sente, upper case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShogiPiece {
    pub color: Color,
    pub role: ShogiRole,
}

impl ShogiPiece {
    /// The mailbox code: 0 is an empty square.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.role as u8 + ROLES as u8 * self.color.index() as u8
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<ShogiPiece> {
        if code == 0 {
            return None;
        }
        let i = (code - 1) as usize;
        Some(ShogiPiece {
            color: if i < ROLES {
                Color::White
            } else {
                Color::Black
            },
            role: ShogiRole::ALL[i % ROLES],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A captured dragon goes to hand as a rook; kings and golds never promote.
    #[test]
    fn promotion_both_ways() {
        assert_eq!(ShogiRole::Dragon.unpromoted(), ShogiRole::Rook);
        assert_eq!(ShogiRole::Rook.promoted(), Some(ShogiRole::Dragon));
        assert_eq!(ShogiRole::Gold.promoted(), None);
        assert_eq!(ShogiRole::King.promoted(), None);
        for role in ShogiRole::ALL {
            if let Some(p) = role.promoted() {
                assert_eq!(p.unpromoted(), role);
                assert!(p.is_promoted() && !role.is_promoted());
            }
        }
    }

    /// Every piece's mailbox code reads back as the piece.
    #[test]
    fn codes_round_trip() {
        for color in [Color::White, Color::Black] {
            for role in ShogiRole::ALL {
                let piece = ShogiPiece { color, role };
                assert_eq!(ShogiPiece::from_code(piece.code()), Some(piece));
            }
        }
        assert_eq!(ShogiPiece::from_code(0), None);
    }
}
