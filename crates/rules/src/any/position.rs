//! [`AnyPosition`]: a position of either engine family, `Copy` like each family's own, with
//! what the service reads of it (FEN, side to move, legal moves and their notations, hands);
//! and [`AnyStart`], a start as a game record keeps it.

use crate::any::{AnyMove, AnyVariant};
use crate::wide::{WideFenError, WidePosition, WideStart, wide_san_plus_among};
use crate::{
    ByColor, Color, FenError, Outcome, PlayError, Position, Role, Rules, StartPosition,
    san_plus_among,
};

/// A position of a game of either family.
// Unboxed, so it stays `Copy` like each family's own position: positions are made and
// dropped on every move, where a box would be an allocation each.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    Std(Position),
    Wide(WidePosition),
}

impl core::hash::Hash for AnyPosition {
    /// The 8x8 engine's positions hash as they do; a wide one by its FEN, which says all
    /// its equality compares.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        match self {
            AnyPosition::Std(p) => p.hash(state),
            AnyPosition::Wide(p) => p.fen().hash(state),
        }
    }
}

/// A piece a side holds to drop, by the letter a drop names it with, and how many.
pub type HandPiece = (char, u32);

impl From<Position> for AnyPosition {
    fn from(p: Position) -> AnyPosition {
        AnyPosition::Std(p)
    }
}

impl From<WidePosition> for AnyPosition {
    fn from(p: WidePosition) -> AnyPosition {
        AnyPosition::Wide(p)
    }
}

/// Why a FEN is not a position of the game named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyFenError {
    Std(FenError),
    Wide(WideFenError),
}

impl core::fmt::Display for AnyFenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            AnyFenError::Std(e) => e.fmt(f),
            AnyFenError::Wide(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnyFenError {}

impl AnyPosition {
    /// The game's start.
    #[must_use]
    pub fn new(variant: AnyVariant) -> AnyPosition {
        match variant {
            AnyVariant::Std(v) => AnyPosition::Std(Position::new(v)),
            AnyVariant::Wide(v) => AnyPosition::Wide(WidePosition::new(v)),
        }
    }

    /// How many numbered start arrays the game is drawn from: Chess960 960, Capablanca Random
    /// 21,836, Corner and Fortress 360; `None` for a game with one start (and for Massacre,
    /// whose start is a shuffle: [`AnyPosition::shuffled`]).
    #[must_use]
    pub fn numbered_starts(variant: AnyVariant) -> Option<u32> {
        use crate::wide::{CAPARANDOM_ARRAYS, CORNER_ARRAYS, WideVariant as W};
        match variant {
            AnyVariant::Std(crate::Variant::Chess960) => Some(960),
            AnyVariant::Wide(W::CapaRandom) => Some(CAPARANDOM_ARRAYS),
            AnyVariant::Wide(W::Corner | W::Fortress) => Some(CORNER_ARRAYS),
            _ => None,
        }
    }

    /// The game's start numbered `number` (see [`AnyPosition::numbered_starts`]); `None`
    /// past the last or in a game without numbered starts.
    #[must_use]
    pub fn numbered(variant: AnyVariant, number: u32) -> Option<AnyPosition> {
        use crate::wide::WideVariant as W;
        match variant {
            AnyVariant::Std(crate::Variant::Chess960) => AnyPosition::chess960(number).ok(),
            AnyVariant::Wide(W::CapaRandom) => WidePosition::caparandom(number).map(Into::into),
            AnyVariant::Wide(W::Corner) => WidePosition::corner(number).map(Into::into),
            AnyVariant::Wide(W::Fortress) => WidePosition::fortress(number).map(Into::into),
            _ => None,
        }
    }

    /// A start dealt by shuffling, for the games that have one (Massacre: its 64 pieces on
    /// the 64 squares), `draw(n)` a uniform number below `n`; `None` for the others.
    pub fn shuffled(variant: AnyVariant, draw: impl FnMut(usize) -> usize) -> Option<AnyPosition> {
        use crate::wide::WideVariant as W;
        match variant {
            AnyVariant::Wide(W::Massacre) => {
                let fen = crate::wide::massacre_fen(draw);
                WidePosition::from_fen(W::Massacre, &fen)
                    .ok()
                    .map(Into::into)
            }
            _ => None,
        }
    }

    /// Chess960 start `number` (0 to 959).
    pub fn chess960(number: u32) -> Result<AnyPosition, crate::InvalidStartNumber> {
        Position::chess960(number).map(AnyPosition::Std)
    }

    pub fn from_fen(variant: AnyVariant, fen: &str) -> Result<AnyPosition, AnyFenError> {
        match variant {
            AnyVariant::Std(v) => Position::from_fen(v, fen)
                .map(AnyPosition::Std)
                .map_err(AnyFenError::Std),
            AnyVariant::Wide(v) => WidePosition::from_fen(v, fen)
                .map(AnyPosition::Wide)
                .map_err(AnyFenError::Wide),
        }
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        match self {
            AnyPosition::Std(p) => AnyVariant::Std(p.variant()),
            AnyPosition::Wide(p) => AnyVariant::Wide(p.variant()),
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        match self {
            AnyPosition::Std(p) => p.turn(),
            AnyPosition::Wide(p) => p.turn(),
        }
    }

    #[must_use]
    pub fn fen(&self) -> String {
        match self {
            AnyPosition::Std(p) => p.fen(),
            AnyPosition::Wide(p) => p.fen(),
        }
    }

    #[must_use]
    pub fn is_check(&self) -> bool {
        match self {
            AnyPosition::Std(p) => p.is_check(),
            AnyPosition::Wide(p) => p.is_check(),
        }
    }

    /// The game's end that this position alone decides.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            AnyPosition::Std(p) => p.outcome(),
            AnyPosition::Wide(p) => p.outcome(),
        }
    }

    #[must_use]
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Std(p) => p.legal_moves().iter().map(|&m| AnyMove::Std(m)).collect(),
            AnyPosition::Wide(p) => {
                let v = p.variant();
                p.legal_moves()
                    .into_iter()
                    .map(|m| AnyMove::Wide(v, m))
                    .collect()
            }
        }
    }

    /// Every legal move's UCI and SAN (with its mark), the legal moves generated once.
    #[must_use]
    pub fn notations(&self) -> Vec<(String, String)> {
        match self {
            AnyPosition::Std(p) => {
                let legal = p.legal_moves();
                legal
                    .iter()
                    .map(|&m| (m.to_string(), san_plus_among(p, m, &legal).to_string()))
                    .collect()
            }
            AnyPosition::Wide(p) => {
                let legal = p.legal_moves();
                legal
                    .iter()
                    .map(|&m| (m.to_uci(p).to_string(), wide_san_plus_among(p, m, &legal)))
                    .collect()
            }
        }
    }

    /// Plays `m`, a legal move of this position; a move of the other family is ignored
    /// (a bug in the caller, which must not corrupt the position).
    pub fn play_unchecked(&mut self, m: AnyMove) {
        match (self, m) {
            (AnyPosition::Std(p), AnyMove::Std(m)) => p.play_unchecked(m),
            (AnyPosition::Wide(p), AnyMove::Wide(_, m)) => p.play_unchecked(m),
            _ => debug_assert!(false, "a move of another engine family"),
        }
    }

    /// The SAN of legal move `m`, with its check or mate mark.
    #[must_use]
    pub fn san_plus(&self, m: AnyMove) -> String {
        match (self, m) {
            (AnyPosition::Std(p), AnyMove::Std(m)) => crate::san_plus(p, m).to_string(),
            (AnyPosition::Wide(p), AnyMove::Wide(_, m)) => crate::wide::wide_san_plus(p, m),
            _ => m.to_string(),
        }
    }

    /// The legal move `text`, in UCI only, names: how stores read moves back (a stored move
    /// is never SAN).
    pub fn parse_uci(&self, text: &str) -> Result<AnyMove, PlayError> {
        match self {
            AnyPosition::Std(p) => text
                .parse::<crate::UciMove>()
                .map_err(|e| PlayError::Malformed(e.to_string()))?
                .to_move(p)
                .map(AnyMove::Std),
            AnyPosition::Wide(p) => text
                .parse::<crate::wide::WideUci>()
                .map_err(|e| PlayError::Malformed(e.to_string()))?
                .to_move(p)
                .map(|m| AnyMove::Wide(p.variant(), m))
                .map_err(|e| PlayError::Illegal(e.to_string())),
        }
    }

    /// The legal move `text` (UCI or SAN) names.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, PlayError> {
        use crate::Family;
        match self {
            AnyPosition::Std(p) => crate::parse_move(p, text).map(AnyMove::Std),
            AnyPosition::Wide(p) => p
                .parse_among(text, &p.legal_moves())
                .map(|m| AnyMove::Wide(p.variant(), m)),
        }
    }

    /// The pieces each side holds to drop, in the game's order of roles and only when held
    /// (`None` in games without hands).
    #[must_use]
    pub fn hands(&self) -> Option<ByColor<Vec<HandPiece>>> {
        match self {
            AnyPosition::Std(p) => p.pockets().map(|pockets| {
                pockets.map(|pocket| {
                    Role::ALL
                        .iter()
                        .filter(|&&role| pocket.count(role) > 0)
                        .map(|&role| (role.upper_char(), u32::from(pocket.count(role))))
                        .collect()
                })
            }),
            AnyPosition::Wide(p) => p.hands_by_letter(),
        }
    }

    /// The 8x8 engine's position, if this is one.
    #[must_use]
    pub fn std(&self) -> Option<&Position> {
        match self {
            AnyPosition::Std(p) => Some(p),
            AnyPosition::Wide(_) => None,
        }
    }
}

/// A start position as a record keeps it: by name when it is the game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyStart {
    Std(StartPosition),
    Wide(WideStart),
}

impl From<AnyPosition> for AnyStart {
    fn from(p: AnyPosition) -> AnyStart {
        match p {
            AnyPosition::Std(p) => AnyStart::Std(p.into()),
            AnyPosition::Wide(p) => AnyStart::Wide(p.into()),
        }
    }
}

impl AnyStart {
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        match self {
            AnyStart::Std(s) => AnyPosition::Std(s.position()),
            AnyStart::Wide(s) => AnyPosition::Wide(s.position()),
        }
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        match self {
            AnyStart::Std(s) => AnyVariant::Std(s.variant()),
            AnyStart::Wide(s) => AnyVariant::Wide(s.variant()),
        }
    }

    /// The game's own start, not a position set up.
    #[must_use]
    pub fn is_standard(&self) -> bool {
        matches!(
            self,
            AnyStart::Std(StartPosition::Standard(_)) | AnyStart::Wide(WideStart::Standard(_))
        )
    }
}
