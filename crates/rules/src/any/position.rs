//! [`AnyPosition`]: a position of any engine family, `Copy` like each family's own, with
//! what the service reads of it (FEN, side to move, legal moves and their notations, hands);
//! and [`AnyStart`], a start as a game record keeps it.

use crate::any::{AnyMove, AnyVariant, Member};
use crate::shogi::{ShogiFenError, ShogiPosition, ShogiRole, ShogiStart};
use crate::wide::{WideFenError, WidePosition, WideStart, wide_san_plus_among};
use crate::xiangqi::{XiangqiFenError, XiangqiPosition, XiangqiStart, XiangqiUci};
use crate::{
    ByColor, Color, Family, FenError, Outcome, PlayError, Position, Role, Rules, Start,
    StartPosition, san_plus_among,
};

/// A position of a game of any family.
// Unboxed, so it stays `Copy` like each family's own position: positions are made and
// dropped on every move, where a box would be an allocation each.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    Std(Position),
    Wide(WidePosition),
    Shogi(ShogiPosition),
    Xiangqi(XiangqiPosition),
}

impl core::hash::Hash for AnyPosition {
    /// The 8x8 engine's positions hash as they do; another family's by its FEN, which says
    /// all its equality compares.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        match self {
            AnyPosition::Std(p) => p.hash(state),
            other => other.fen().hash(state),
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

impl From<ShogiPosition> for AnyPosition {
    fn from(p: ShogiPosition) -> AnyPosition {
        AnyPosition::Shogi(p)
    }
}

impl From<XiangqiPosition> for AnyPosition {
    fn from(p: XiangqiPosition) -> AnyPosition {
        AnyPosition::Xiangqi(p)
    }
}

/// Why a FEN is not a position of the game named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyFenError {
    Std(FenError),
    Wide(WideFenError),
    Shogi(ShogiFenError),
    Xiangqi(XiangqiFenError),
}

impl core::fmt::Display for AnyFenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        each!(AnyFenError, self, e => e.fmt(f))
    }
}

impl std::error::Error for AnyFenError {}

/// `m`'s SAN among `legal` with the mark of the position it leads to, by the family's own
/// notation.
fn san_plus_of<P: Family>(p: &P, m: P::Move, legal: &[P::Move]) -> String {
    let mut san = p.san_among(m, legal);
    let mut after = *p;
    after.play_unchecked(m);
    after.mark(&mut san);
    san.to_string()
}

/// Plays `m` if it is a move of `p`'s family; another family's is a bug in the caller, which
/// must not corrupt the position.
fn play_member<P: Member>(p: &mut P, m: AnyMove) {
    match P::unwrap(m) {
        Some(m) => p.play_unchecked(m),
        None => debug_assert!(false, "a move of another engine family"),
    }
}

impl AnyPosition {
    /// The game's start.
    #[must_use]
    pub fn new(variant: AnyVariant) -> AnyPosition {
        match variant {
            AnyVariant::Std(v) => AnyPosition::Std(Position::new(v)),
            AnyVariant::Wide(v) => AnyPosition::Wide(WidePosition::new(v)),
            AnyVariant::Shogi(v) => AnyPosition::Shogi(ShogiPosition::new(v)),
            AnyVariant::Xiangqi => AnyPosition::Xiangqi(XiangqiPosition::new()),
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

    /// Whether the game's start is dealt by shuffling ([`AnyPosition::shuffled`]): Massacre.
    #[must_use]
    pub fn shuffles(variant: AnyVariant) -> bool {
        matches!(
            variant,
            AnyVariant::Wide(crate::wide::WideVariant::Massacre)
        )
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
            AnyVariant::Shogi(v) => ShogiPosition::from_fen(v, fen)
                .map(AnyPosition::Shogi)
                .map_err(AnyFenError::Shogi),
            AnyVariant::Xiangqi => XiangqiPosition::from_fen(fen)
                .map(AnyPosition::Xiangqi)
                .map_err(AnyFenError::Xiangqi),
        }
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        match self {
            AnyPosition::Std(p) => AnyVariant::Std(p.variant()),
            AnyPosition::Wide(p) => AnyVariant::Wide(p.variant()),
            AnyPosition::Shogi(p) => AnyVariant::Shogi(p.variant()),
            AnyPosition::Xiangqi(_) => AnyVariant::Xiangqi,
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        each!(AnyPosition, self, p => p.turn())
    }

    #[must_use]
    pub fn fen(&self) -> String {
        each!(AnyPosition, self, p => p.fen())
    }

    /// The position as FEN, as `seat` may see it (`None`: a spectator): in a game that hides
    /// the board ([`AnyVariant::hides_board`]), the seat's view with every square it does not
    /// see written `?` and no move counters, and no square at all for a spectator; the whole
    /// FEN in any other game.
    #[must_use]
    pub fn fen_seen_by(&self, seat: Option<Color>) -> String {
        match self {
            AnyPosition::Wide(w) if self.variant().hides_board() => match seat {
                Some(color) => w.fog_fen(color),
                None => w.blind_fen(),
            },
            _ => self.fen(),
        }
    }

    #[must_use]
    pub fn is_check(&self) -> bool {
        each!(AnyPosition, self, p => p.is_check())
    }

    /// The game's end that this position alone decides.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        each!(AnyPosition, self, p => Family::outcome(p))
    }

    #[must_use]
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        each!(AnyPosition, self, p => p.legal().iter().map(|&m| p.wrap(m)).collect())
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
            AnyPosition::Shogi(p) => notations_of(p),
            AnyPosition::Xiangqi(p) => notations_of(p),
        }
    }

    /// Plays `m`, a legal move of this position; a move of another family is ignored (a bug
    /// in the caller, which must not corrupt the position).
    pub fn play_unchecked(&mut self, m: AnyMove) {
        each!(AnyPosition, self, p => play_member(p, m));
    }

    /// The SAN of legal move `m`, with its check or mate mark.
    #[must_use]
    pub fn san_plus(&self, m: AnyMove) -> String {
        match (self, m) {
            (AnyPosition::Std(p), AnyMove::Std(m)) => crate::san_plus(p, m).to_string(),
            (AnyPosition::Wide(p), AnyMove::Wide(_, m)) => crate::wide::wide_san_plus(p, m),
            (AnyPosition::Shogi(p), AnyMove::Shogi(_, m)) => san_plus_of(p, m, &p.legal()),
            (AnyPosition::Xiangqi(p), AnyMove::Xiangqi(m)) => san_plus_of(p, m, &p.legal()),
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
            AnyPosition::Shogi(p) => {
                let m = crate::shogi::ShogiMove::parse_any(text, p.variant())
                    .map_err(|e| PlayError::Malformed(e.to_string()))?;
                if p.legal().contains(&m) {
                    Ok(p.wrap(m))
                } else {
                    Err(p.illegal(m))
                }
            }
            AnyPosition::Xiangqi(p) => text
                .parse::<XiangqiUci>()
                .map_err(|e| PlayError::Malformed(e.to_string()))?
                .to_move(p)
                .map(AnyMove::Xiangqi)
                .map_err(|e| PlayError::Illegal(e.to_string())),
        }
    }

    /// The legal move `text` (UCI or the game's SAN) names.
    pub fn parse_move(&self, text: &str) -> Result<AnyMove, PlayError> {
        match self {
            AnyPosition::Std(p) => crate::parse_move(p, text).map(AnyMove::Std),
            AnyPosition::Wide(p) => parse_member(p, text),
            AnyPosition::Shogi(p) => parse_member(p, text),
            AnyPosition::Xiangqi(p) => parse_member(p, text),
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
            AnyPosition::Shogi(p) => {
                let hand = |color: Color| {
                    ShogiRole::HAND
                        .into_iter()
                        .filter(|&role| p.in_hand(color, role) > 0)
                        .map(|role| (role.letter(), u32::from(p.in_hand(color, role))))
                        .collect()
                };
                Some(ByColor::new(hand(Color::White), hand(Color::Black)))
            }
            AnyPosition::Xiangqi(_) => None,
        }
    }

    /// The 8x8 engine's position, if this is one.
    #[must_use]
    pub fn std(&self) -> Option<&Position> {
        match self {
            AnyPosition::Std(p) => Some(p),
            _ => None,
        }
    }

    /// The wide family's position, if this is one: where the games of chance are set
    /// (`WidePosition::set_roll`, `WidePosition::apply_step`).
    #[must_use]
    pub fn wide(&self) -> Option<&WidePosition> {
        match self {
            AnyPosition::Wide(p) => Some(p),
            _ => None,
        }
    }

    /// The wide family's position to change, if this is one (to roll Dice Chess's die or
    /// step the Behemoth).
    pub fn wide_mut(&mut self) -> Option<&mut WidePosition> {
        match self {
            AnyPosition::Wide(p) => Some(p),
            _ => None,
        }
    }

    /// Whether the position waits for the server's draw before the side to move may act
    /// (Dice Chess's roll, the Behemoth's step): it has no legal move until then.
    #[must_use]
    pub fn awaits_chance(&self) -> bool {
        self.wide()
            .is_some_and(|p| p.awaits_roll() || p.awaits_step())
    }
}

/// Every legal move's UCI and SAN in a family whose SAN is the record's own.
fn notations_of<P: Member>(p: &P) -> Vec<(String, String)> {
    let legal = p.legal();
    legal
        .iter()
        .map(|&m| (p.wrap(m).to_string(), san_plus_of(p, m, &legal)))
        .collect()
}

/// The legal move `text` names, read by the family itself.
fn parse_member<P: Member>(p: &P, text: &str) -> Result<AnyMove, PlayError> {
    p.parse_among(text, &p.legal()).map(|m| p.wrap(m))
}

/// A start position as a record keeps it: by name when it is the game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyStart {
    Std(StartPosition),
    Wide(WideStart),
    Shogi(ShogiStart),
    Xiangqi(XiangqiStart),
}

impl From<AnyPosition> for AnyStart {
    fn from(p: AnyPosition) -> AnyStart {
        match p {
            AnyPosition::Std(p) => AnyStart::Std(p.into()),
            AnyPosition::Wide(p) => AnyStart::Wide(p.into()),
            AnyPosition::Shogi(p) => AnyStart::Shogi(p.into()),
            AnyPosition::Xiangqi(p) => AnyStart::Xiangqi(p.into()),
        }
    }
}

impl AnyStart {
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        each!(AnyStart, self, s => AnyPosition::from(s.position()))
    }

    #[must_use]
    pub fn variant(&self) -> AnyVariant {
        match self {
            AnyStart::Std(s) => AnyVariant::Std(s.variant()),
            AnyStart::Wide(s) => AnyVariant::Wide(s.variant()),
            AnyStart::Shogi(s) => AnyVariant::Shogi(s.variant()),
            AnyStart::Xiangqi(_) => AnyVariant::Xiangqi,
        }
    }

    /// The game's own start, not a position set up.
    #[must_use]
    pub fn is_standard(&self) -> bool {
        each!(AnyStart, self, s => matches!(s, Start::Standard(_)))
    }
}
