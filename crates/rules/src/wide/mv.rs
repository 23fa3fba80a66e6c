//! `WideMove`, a move of the wide family as the generator makes it, and `WideUci`, its text
//! as Fairy-Stockfish writes it (`a10a9`, `e7e8c`, castling `e1i1` or king-takes-rook `f1j1`).
//!
//! A castling move is stored as the king taking its own rook in every game, so one
//! representation serves fixed and random start arrays; only its text depends on the game.

use core::fmt;
use core::str::FromStr;

use super::nature::Nature;
use super::position::WidePosition;
use super::role::WideRole;
use super::square::WideSquare;
use super::variant::WideVariant;

/// What kind of move a `WideMove` is, beyond its squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WideMoveKind {
    Normal,
    /// A pawn's two-square step (it may leave an en passant square).
    DoubleStep,
    EnPassant,
    /// The king castles with the rook on `to`.
    Castle,
    /// Loop Chess: a piece of the hand, the move's `promotion` role, is put on `to`.
    Drop,
}

/// A move: a few bytes, `Copy`. In the games of chance a record's move may carry the draw
/// that follows it (`nature`: the next player's roll, the Behemoth's step), written after the
/// move (`e2e4~3`, `e2e4~SE4`); the position's own legal moves never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WideMove {
    from: WideSquare,
    to: WideSquare,
    promotion: Option<WideRole>,
    kind: WideMoveKind,
    nature: Option<Nature>,
    /// Ambiguous Chess: the target the turn marks after its execution.
    mark: Option<WideSquare>,
    /// Ambiguous Chess: whether the turn executes a pending target (false: a mark only, and
    /// `from`, `to` and `kind` mean nothing).
    executes: bool,
    /// Ambiguous Chess: where the one move reaching the mark came from, when the mark forced
    /// it; set on the position's own turns, so a turn's text is whole without its position.
    forced: Option<WideSquare>,
}

impl WideMove {
    #[inline]
    pub(crate) const fn new(
        from: WideSquare,
        to: WideSquare,
        promotion: Option<WideRole>,
        kind: WideMoveKind,
    ) -> WideMove {
        WideMove {
            from,
            to,
            promotion,
            kind,
            nature: None,
            mark: None,
            executes: true,
            forced: None,
        }
    }

    /// Ambiguous Chess: the target the turn marks, if it marks one.
    #[must_use]
    pub const fn mark(self) -> Option<WideSquare> {
        self.mark
    }

    /// Ambiguous Chess: whether the turn begins by executing the opponent's target.
    #[must_use]
    pub const fn executes(self) -> bool {
        self.executes
    }

    /// Ambiguous Chess: this execution followed by marking `mark` (or none).
    #[must_use]
    pub(crate) const fn with_mark(self, mark: Option<WideSquare>) -> WideMove {
        WideMove {
            mark,
            forced: None,
            ..self
        }
    }

    /// Ambiguous Chess: this turn, whose mark forced the move from `from` (or none).
    #[must_use]
    pub(crate) const fn with_forced(self, from: Option<WideSquare>) -> WideMove {
        WideMove {
            forced: from,
            ..self
        }
    }

    /// Ambiguous Chess: a turn that only marks `mark`.
    #[must_use]
    pub(crate) const fn mark_only(mark: WideSquare) -> WideMove {
        WideMove {
            mark: Some(mark),
            executes: false,
            ..WideMove::new(mark, mark, None, WideMoveKind::Normal)
        }
    }

    /// The draw of chance that follows the move, when the move carries one.
    #[must_use]
    pub const fn nature(self) -> Option<Nature> {
        self.nature
    }

    /// The same move carrying `nature` (or none).
    #[must_use]
    pub const fn with_nature(self, nature: Option<Nature>) -> WideMove {
        WideMove { nature, ..self }
    }

    #[must_use]
    pub const fn from(self) -> WideSquare {
        self.from
    }

    /// The destination; for castling, the square of the rook the king castles with.
    #[must_use]
    pub const fn to(self) -> WideSquare {
        self.to
    }

    #[must_use]
    pub const fn promotion(self) -> Option<WideRole> {
        self.promotion
    }

    #[must_use]
    pub const fn kind(self) -> WideMoveKind {
        self.kind
    }

    /// The move's UCI text in `position` (which names the game and, for castling, where the
    /// king lands).
    #[must_use]
    pub fn to_uci(self, position: &WidePosition) -> WideUci {
        let mut uci = self.uci_in(position.variant());
        if position.def.targets && uci.forced.is_none() {
            uci.forced = position.forced_after(self);
        }
        uci
    }

    /// The move's UCI text in a game of `variant`: its letters and castling squares are the
    /// game's, never the position's.
    #[must_use]
    pub fn uci_in(self, variant: WideVariant) -> WideUci {
        let def = variant.def();
        if self.kind == WideMoveKind::Drop {
            return WideUci {
                from: self.to,
                to: self.to,
                promotion: None,
                drop: self.promotion.map(|r| def.letter(r).to_ascii_uppercase()),
                nature: self.nature,
                mark: None,
                executes: true,
                forced: None,
            };
        }
        let to = if self.kind == WideMoveKind::Castle
            && !def.castling.is_some_and(|c| c.king_takes_rook)
        {
            def.castling_targets(self.from, self.to).0
        } else {
            self.to
        };
        WideUci {
            from: self.from,
            to,
            promotion: self.promotion.map(|r| def.letter(r)),
            drop: None,
            nature: self.nature,
            mark: self.mark,
            executes: self.executes,
            forced: self.forced.zip(self.mark),
        }
    }
}

/// A move in UCI text, not yet checked against a position: two squares and an optional
/// lower-case promotion letter (whose role depends on the game), or a drop (`P@e5`: the
/// upper-case letter in `drop`, the square in both `from` and `to`), and in the games of
/// chance the draw that follows (`e2e4~3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WideUci {
    pub from: WideSquare,
    pub to: WideSquare,
    pub promotion: Option<char>,
    pub drop: Option<char>,
    pub nature: Option<Nature>,
    /// Ambiguous Chess: the target marked after the execution (`>e5`).
    pub mark: Option<WideSquare>,
    /// Ambiguous Chess: false for a turn that only marks (`>e4`; `from` and `to` unused).
    pub executes: bool,
    /// Ambiguous Chess: the one move that reached the mark, executed at once (`=e2e4`).
    pub forced: Option<(WideSquare, WideSquare)>,
}

impl fmt::Display for WideUci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.executes {
        } else if let Some(letter) = self.drop {
            write!(f, "{letter}@{}", self.to)?;
        } else {
            write!(f, "{}{}", self.from, self.to)?;
            if let Some(c) = self.promotion {
                write!(f, "{c}")?;
            }
        }
        if let Some(mark) = self.mark {
            write!(f, ">{mark}")?;
        }
        if let Some((from, to)) = self.forced {
            write!(f, "={from}{to}")?;
        }
        match self.nature {
            Some(n) => write!(f, "{n}"),
            None => Ok(()),
        }
    }
}

/// Why a UCI text or move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideUciError {
    /// The text is not two square names and an optional promotion letter.
    Syntax(String),
    /// Well formed, but no legal move in the position (the text and the game are named).
    Illegal { uci: String, variant: WideVariant },
}

impl fmt::Display for WideUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WideUciError::Syntax(s) => write!(
                f,
                "invalid uci move {s:?} (expected two squares such as e2e4 or a9a10, and an optional promotion letter)"
            ),
            WideUciError::Illegal { uci, variant } => {
                write!(f, "illegal move {uci} in this {variant} position")
            }
        }
    }
}

impl std::error::Error for WideUciError {}

impl FromStr for WideUci {
    type Err = WideUciError;

    fn from_str(text: &str) -> Result<WideUci, WideUciError> {
        let err = || WideUciError::Syntax(text.to_string());
        if !text.is_ascii() {
            return Err(err());
        }
        if let Some(at) = text.find('>') {
            return parse_turn(text, at);
        }
        let (s, nature) = match text.find('~') {
            Some(at) => (
                &text[..at],
                Some(text[at..].parse::<Nature>().map_err(|_| err())?),
            ),
            None => (text, None),
        };
        if let Some((letter, square)) = s.split_once('@') {
            let mut letters = letter.chars();
            let (Some(letter), None) = (letters.next(), letters.next()) else {
                return Err(err());
            };
            if !letter.is_ascii_uppercase() {
                return Err(err());
            }
            let to = square.parse().map_err(|_| err())?;
            return Ok(WideUci {
                from: to,
                to,
                promotion: None,
                drop: Some(letter),
                nature,
                mark: None,
                executes: true,
                forced: None,
            });
        }
        let promotion = s
            .chars()
            .last()
            .filter(char::is_ascii_lowercase)
            .filter(|_| s.len() >= 5);
        let body = &s[..s.len() - usize::from(promotion.is_some())];
        // The second square starts at the second letter: "a10b9" splits as "a10" + "b9".
        let split = body
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i)
            .ok_or_else(err)?;
        let from = body[..split].parse().map_err(|_| err())?;
        let to = body[split..].parse().map_err(|_| err())?;
        Ok(WideUci {
            from,
            to,
            promotion,
            drop: None,
            nature,
            mark: None,
            executes: true,
            forced: None,
        })
    }
}

/// Ambiguous Chess's turn text: an execution (or nothing), `>` and the mark, and `=` with the
/// move the mark forced (`g1f3>d5`, `>e4`, `e7e5>d4=e3d4`).
fn parse_turn(text: &str, at: usize) -> Result<WideUci, WideUciError> {
    let err = || WideUciError::Syntax(text.to_string());
    let (exec, rest) = (&text[..at], &text[at + 1..]);
    let (mark, forced) = match rest.split_once('=') {
        Some((mark, forced)) => (mark, Some(forced)),
        None => (rest, None),
    };
    let mark: WideSquare = mark.parse().map_err(|_| err())?;
    let forced = match forced {
        Some(f) => {
            let m: WideUci = f.parse()?;
            if m.promotion.is_some() || m.drop.is_some() || m.nature.is_some() {
                return Err(err());
            }
            Some((m.from, m.to))
        }
        None => None,
    };
    let mut uci = if exec.is_empty() {
        WideUci {
            from: mark,
            to: mark,
            promotion: None,
            drop: None,
            nature: None,
            mark: None,
            executes: false,
            forced: None,
        }
    } else {
        let m: WideUci = exec.parse()?;
        if m.drop.is_some() || m.nature.is_some() {
            return Err(err());
        }
        m
    };
    uci.mark = Some(mark);
    uci.forced = forced;
    Ok(uci)
}

impl WideUci {
    /// Whether this text names the move whose full text is `full`. Ambiguous Chess: the
    /// forced move may be left out, since the mark decides it.
    pub(crate) fn names(&self, full: WideUci) -> bool {
        full == *self
            || (self.forced.is_none()
                && WideUci {
                    forced: None,
                    ..full
                } == *self)
    }

    /// The legal move of `position` this text names.
    /// With a draw of chance, the move carries it, if that draw may follow the move.
    pub fn to_move(&self, position: &WidePosition) -> Result<WideMove, WideUciError> {
        let bare = WideUci {
            nature: None,
            ..*self
        };
        position
            .legal_moves()
            .into_iter()
            .find(|m| bare.names(m.to_uci(position)))
            .filter(|m| {
                self.nature
                    .is_none_or(|n| position.natures_after(*m).contains(&n))
            })
            .map(|m| m.with_nature(self.nature))
            .ok_or_else(|| WideUciError::Illegal {
                uci: self.to_string(),
                variant: position.variant(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank 10 and promotion letters split right; junk is refused, not a panic.
    #[test]
    fn parse_uci_text() {
        for text in [
            "a10a9",
            "b9b10q",
            "e7e8c",
            "b7b8j",
            "a2a4",
            "j10j9",
            "e2e4~3",
            "a7a8b~SE4",
        ] {
            assert_eq!(text.parse::<WideUci>().unwrap().to_string(), text);
        }
        for bad in [
            "", "e2", "e2e", "e2e4qq", "e2e11", "é2e4", "E2E4", "e2-e4", "a10", "e2e4~", "e2e4~7",
            "~3",
        ] {
            assert!(bad.parse::<WideUci>().is_err(), "{bad}");
        }
    }
}
