//! Standard algebraic notation: written exactly (disambiguation by file, then rank, then both;
//! `+` and `#` suffixes; `=Q` promotions, `=K` in antichess; `O-O`; crazyhouse drops `N@f3`,
//! `P@e4`), read leniently (missing or extra `+`/`#`, annotations `!?`, `0-0`, a missing `x`
//! or `=`, python-chess's `@e4` for a pawn drop). `+` marks a check and `#` a check the
//! opponent cannot answer (mate, or three-check's third check); Racing Kings and antichess
//! SAN never carry either, having no check. (python-chess also writes `#` after a move that
//! ends the game by a variant rule without check, such as reaching the hill.)

use core::fmt;
use core::str::FromStr;

use crate::{File, Move, PlayError, Rank, Role, Rules, Square, Text, UciMove, attacks};

/// A SAN move as written, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    Castle {
        long: bool,
    },
    /// A crazyhouse drop.
    Put {
        role: Role,
        to: Square,
    },
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
}

/// A string that is not SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSanError;

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a san move such as Nf3, exd5, e8=Q, O-O or N@f3")
    }
}

impl std::error::Error for ParseSanError {}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<San, ParseSanError> {
        let s = s.trim();
        let s = s.strip_suffix("e.p.").unwrap_or(s).trim_end();
        let s = s.trim_end_matches(['+', '#', '!', '?']);
        match s {
            "O-O" | "0-0" | "o-o" => return Ok(San::Castle { long: false }),
            "O-O-O" | "0-0-0" | "o-o-o" => return Ok(San::Castle { long: true }),
            _ => {}
        }
        let b = s.as_bytes();
        if !b.is_ascii() || b.len() < 2 || b.len() > 7 {
            return Err(ParseSanError);
        }
        if let Some(at) = b.iter().position(|&c| c == b'@') {
            let role = match &b[..at] {
                [] => Role::Pawn,
                [c] => Role::from_char(*c as char)
                    .filter(|_| c.is_ascii_uppercase())
                    .ok_or(ParseSanError)?,
                _ => return Err(ParseSanError),
            };
            let to = Square::from_ascii(&b[at + 1..]).map_err(|_| ParseSanError)?;
            return Ok(San::Put { role, to });
        }
        let (role, mut rest) = match b[0] {
            b'K' => (Role::King, &b[1..]),
            b'Q' => (Role::Queen, &b[1..]),
            b'R' => (Role::Rook, &b[1..]),
            b'B' => (Role::Bishop, &b[1..]),
            b'N' => (Role::Knight, &b[1..]),
            _ => (Role::Pawn, b),
        };
        let mut promotion = None;
        if role == Role::Pawn
            && let Some(&last) = rest.last()
            && let Some(r) = Role::from_char(last as char).filter(|r| *r != Role::Pawn)
        {
            promotion = Some(r);
            rest = &rest[..rest.len() - 1];
            rest = rest.strip_suffix(b"=").unwrap_or(rest);
        }
        if rest.len() < 2 {
            return Err(ParseSanError);
        }
        let to = Square::from_ascii(&rest[rest.len() - 2..]).map_err(|_| ParseSanError)?;
        let mut prefix = &rest[..rest.len() - 2];
        let mut capture = false;
        if let Some(p) = prefix
            .strip_suffix(b"x")
            .or_else(|| prefix.strip_suffix(b":"))
        {
            prefix = p;
            capture = true;
        }
        let (file, rank) = match prefix {
            [] => (None, None),
            [c] => match (File::from_char(*c as char), Rank::from_char(*c as char)) {
                (Some(f), _) => (Some(f), None),
                (_, Some(r)) => (None, Some(r)),
                _ => return Err(ParseSanError),
            },
            [f, r] => match (File::from_char(*f as char), Rank::from_char(*r as char)) {
                (Some(f), Some(r)) => (Some(f), Some(r)),
                _ => return Err(ParseSanError),
            },
            _ => return Err(ParseSanError),
        };
        if role == Role::Pawn && rank.is_some() && file.is_none() {
            return Err(ParseSanError);
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl San {
    /// The one legal move of `pos` this SAN names.
    pub fn to_move<P: Rules>(&self, pos: &P) -> Result<Move, PlayError> {
        self.to_move_among(pos, &pos.legal_moves())
    }

    /// The one move of `legal` (the legal moves of `pos`) this SAN names.
    pub fn to_move_among<P: Rules>(&self, pos: &P, legal: &[Move]) -> Result<Move, PlayError> {
        let mut found = None;
        let mut count = 0;
        for &m in legal {
            let hit = match *self {
                San::Castle { long } => m.is_castle() && (m.to() < m.from()) == long,
                San::Put { role, to } => m.is_drop() && m.role() == role && m.to() == to,
                San::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                    capture: _,
                } => {
                    !m.is_castle()
                        && !m.is_drop()
                        && m.role() == role
                        && m.to() == to
                        && m.promotion() == promotion
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                }
            };
            if hit {
                found = Some(m);
                count += 1;
            }
        }
        match (found, count) {
            (Some(m), 1) => Ok(m),
            (None, _) => Err(PlayError::Illegal(format!(
                "{self} is not legal in {}",
                pos.fen()
            ))),
            _ => Err(PlayError::Ambiguous(format!(
                "{self} fits {count} legal moves in {}",
                pos.fen()
            ))),
        }
    }
}

impl San {
    /// The SAN as written, without suffix: `O-O`, `N@f3`, `Nbd7`, `exd8=Q`.
    #[must_use]
    pub fn text(&self) -> Text {
        let mut text = Text::new();
        self.write(&mut text);
        text
    }

    fn write(&self, text: &mut Text) {
        match *self {
            San::Castle { long: false } => text.push_str("O-O"),
            San::Castle { long: true } => text.push_str("O-O-O"),
            San::Put { role, to } => {
                text.push(role.upper_char());
                text.push('@');
                push_square(text, to);
            }
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    text.push(role.upper_char());
                }
                if let Some(file) = file {
                    text.push(file.char());
                }
                if let Some(rank) = rank {
                    text.push(rank.char());
                }
                if capture {
                    text.push('x');
                }
                push_square(text, to);
                if let Some(p) = promotion {
                    text.push('=');
                    text.push(p.upper_char());
                }
            }
        }
    }
}

fn push_square(text: &mut Text, sq: Square) {
    text.push(sq.file().char());
    text.push(sq.rank().char());
}

impl fmt::Display for San {
    /// [`San::text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

/// The SAN of a legal move `m` of `pos`, without check suffix.
#[must_use]
pub fn san_of<P: Rules>(pos: &P, m: Move) -> San {
    san_with(pos, m, None)
}

/// [`san_of`] with the position's legal moves already at hand (the game record generates them
/// once per move and shares them between the legality check and the disambiguation).
pub(crate) fn san_among<P: Rules>(pos: &P, m: Move, legal: &[Move]) -> San {
    san_with(pos, m, Some(legal))
}

/// `legal`: the legal moves of `pos` if known; generated only when a rival might exist.
fn san_with<P: Rules>(pos: &P, m: Move, legal: Option<&[Move]>) -> San {
    if m.is_castle() {
        return San::Castle {
            long: m.to() < m.from(),
        };
    }
    if m.is_drop() {
        return San::Put {
            role: m.role(),
            to: m.to(),
        };
    }
    let capture = m.is_en_passant() || pos.board().by_color(!pos.turn()).contains(m.to());
    let role = m.role();
    let (mut file, mut rank) = (None, None);
    if role == Role::Pawn {
        if capture {
            file = Some(m.from().file());
        }
    } else if rivals_may_exist(pos, m) {
        let generated;
        let legal = match legal {
            Some(moves) => moves,
            None => {
                generated = pos.legal_moves();
                &generated[..]
            }
        };
        // Rivals: other pieces of the role that can reach the same square.
        let (mut rival, mut same_file, mut same_rank) = (false, false, false);
        for o in legal.iter().filter(|o| {
            o.role() == role
                && o.to() == m.to()
                && o.from() != m.from()
                && !o.is_castle()
                && !o.is_drop()
        }) {
            rival = true;
            same_file |= o.from().file() == m.from().file();
            same_rank |= o.from().rank() == m.from().rank();
        }
        if rival {
            if !same_file {
                file = Some(m.from().file());
            } else if !same_rank {
                rank = Some(m.from().rank());
            } else {
                file = Some(m.from().file());
                rank = Some(m.from().rank());
            }
        }
    }
    San::Normal {
        role,
        file,
        rank,
        capture,
        to: m.to(),
        promotion: m.promotion(),
    }
}

/// Whether another piece of `m`'s role attacks its target square, so that the SAN may need
/// its origin: a board lookup spares most moves the scan of every legal move. (Piece moves are
/// symmetric: a piece on `a` reaches `b` as one on `b` reaches `a`, through the same
/// occupancy.)
fn rivals_may_exist<P: Rules>(pos: &P, m: Move) -> bool {
    let board = pos.board();
    let ours = board.by_piece(m.role().of(pos.turn())).without(m.from());
    ours.any() && (attacks::attacks(pos.turn(), m.role(), m.to(), board.occupied()) & ours).any()
}

/// The SAN of a legal move with its `+` or `#` suffix, as PGN and the service write it.
#[must_use]
pub fn san_plus<P: Rules>(pos: &P, m: Move) -> String {
    let mut text = san_of(pos, m).to_string();
    if let Some(suffix) = suffix_of(pos, m) {
        text.push(suffix);
    }
    text
}

/// A move's SAN with its `+` or `#` suffix ([`san_plus`] as a value: written without an
/// allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SanPlus {
    pub san: San,
    pub suffix: Option<char>,
}

impl SanPlus {
    /// The SAN with its suffix: `Qxf7#`, `e4`.
    #[must_use]
    pub fn text(&self) -> Text {
        let mut text = Text::new();
        self.san.write(&mut text);
        if let Some(c) = self.suffix {
            text.push(c);
        }
        text
    }
}

impl fmt::Display for SanPlus {
    /// [`SanPlus::text`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

/// [`san_plus`] of `m` with `legal`, the legal moves of `pos`, already at hand: listing every
/// legal move's SAN generates them once, not once per move.
#[must_use]
pub fn san_plus_among<P: Rules>(pos: &P, m: Move, legal: &[Move]) -> SanPlus {
    SanPlus {
        san: san_among(pos, m, legal),
        suffix: suffix_of(pos, m),
    }
}

/// The suffix `m` earns in `pos`: the move is played only when it gives check, to tell `#`
/// from `+`.
fn suffix_of<P: Rules>(pos: &P, m: Move) -> Option<char> {
    if !pos.gives_check(m) {
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    check_suffix(&after)
}

/// The suffix of the move that led to `after`: `#` for a check with no legal reply, `+` for
/// another check, none without check.
pub(crate) fn check_suffix<P: Rules>(after: &P) -> Option<char> {
    if !after.is_check() {
        return None;
    }
    Some(if after.count_legal_moves() == 0 {
        '#'
    } else {
        '+'
    })
}

/// Reads a move written in UCI or SAN (UCI is tried first; `Nf3` and `e2e4` never overlap).
pub fn parse_move<P: Rules>(pos: &P, text: &str) -> Result<Move, PlayError> {
    parse_move_among(pos, text, &pos.legal_moves())
}

/// [`parse_move`] against `legal`, the legal moves of `pos` the caller already has.
pub(crate) fn parse_move_among<P: Rules>(
    pos: &P,
    text: &str,
    legal: &[Move],
) -> Result<Move, PlayError> {
    let text = text.trim();
    if let Ok(uci) = text.parse::<UciMove>() {
        return uci.to_move_among(pos, legal);
    }
    match text.parse::<San>() {
        Ok(san) => san.to_move_among(pos, legal),
        Err(_) => {
            let shown: String = text.chars().take(16).collect();
            Err(PlayError::Malformed(format!(
                "{shown:?} is neither uci (e2e4, e7e8q, N@f3) nor san (Nf3, exd5, O-O, N@f3)"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Position, Variant};

    fn pos(fen: &str) -> Chess {
        Rules::from_setup(fen.parse().unwrap()).unwrap()
    }

    fn san(fen: &str, uci: &str) -> String {
        let p = pos(fen);
        let m = uci.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        san_plus(&p, m)
    }

    /// Disambiguation uses the file, then the rank, then both.
    #[test]
    fn disambiguation() {
        // Knights on b1 and f1 both reach d2: file.
        assert_eq!(san("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
        // Rooks on a1 and a5 both reach a3: rank.
        assert_eq!(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
        // Queens on a1, a3, c1 all reach b2: both.
        assert_eq!(san("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2"), "Qa1b2");
        // A pinned rival does not count.
        assert_eq!(san("4k3/8/8/8/8/8/8/1N2KN1r w - - 0 1", "b1d2"), "Nd2");
    }

    /// Check and mate suffixes, captures, promotions and castling are written exactly.
    #[test]
    fn suffixes_and_forms() {
        assert_eq!(
            san(
                "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
                "d8h4"
            ),
            "Qh4#"
        );
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"), "Ra8+");
        assert_eq!(san("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O");
        assert_eq!(san("3nk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q"), "cxd8=Q+");
        assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
    }

    /// Lenient reading: missing or extra suffixes, 0-0, annotations, missing `=`.
    #[test]
    fn lenient_reading() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["O-O", "0-0", "O-O+", "O-O!?"] {
            assert_eq!(parse_move(&p, text).unwrap().to_string(), "e1g1", "{text}");
        }
        let p = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(parse_move(&p, "b8Q").unwrap().to_string(), "b7b8q");
        assert_eq!(parse_move(&p, "b8=N+").unwrap().to_string(), "b7b8n");
        assert!(matches!(parse_move(&p, "b8"), Err(PlayError::Illegal(_))));
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert!(matches!(
            parse_move(&p, "Nd2"),
            Err(PlayError::Ambiguous(_))
        ));
        assert!(matches!(
            parse_move(&p, "Zz9"),
            Err(PlayError::Malformed(_))
        ));
    }

    /// Racing Kings SAN never carries check or mate suffixes (no move may give check).
    #[test]
    fn racing_kings_has_no_suffixes() {
        let p = Position::new(Variant::RacingKings);
        for m in p.legal_moves().iter() {
            let text = san_plus(&p, *m);
            assert!(!text.ends_with('+') && !text.ends_with('#'), "{text}");
        }
    }

    /// Every legal move's SAN from one shared list is the SAN each gets alone, suffixes too.
    #[test]
    fn san_plus_among_agrees_with_san_plus() {
        let cases = [
            (
                Variant::Chess,
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            ),
            (Variant::Chess, "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1"),
            (
                Variant::Crazyhouse,
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[P] b KQkq - 0 2",
            ),
            // White to move with a pawn in hand: drops, one of them (P@d7) giving check.
            (
                Variant::Crazyhouse,
                "rnbqkbnr/ppp2ppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3",
            ),
            (Variant::Atomic, "4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1"),
        ];
        for (variant, fen) in cases {
            let p = Position::from_fen(variant, fen).unwrap();
            let legal = p.legal_moves();
            for &m in legal.iter() {
                assert_eq!(
                    san_plus_among(&p, m, &legal).to_string(),
                    san_plus(&p, m),
                    "{fen}: {m}"
                );
            }
        }
    }
}
