//! `chessd perft`: counts the legal-move tree of a position from the command line, to check the
//! engine against published counts or another engine (`--divide` splits by first move). It
//! takes the 8x8 games and the rules crate's wide family (`janus`, `grand`, ...), which the
//! service does not play yet.

use std::io::{self, Write};

use chessd_rules::wide::{WidePosition, WideVariant};
use chessd_rules::{Position, Variant};

/// The deepest perft accepted: deeper runs would take years on any position.
pub const MAX_DEPTH: u32 = 20;

/// The position perft starts from: one of the 8x8 engine's or one of the wide family's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerftPosition {
    Board(Position),
    /// Boxed: a wide position (hands, 120 squares) is almost three times an 8x8 one.
    Wide(Box<WidePosition>),
}

impl PerftPosition {
    fn perft(&self, depth: u32) -> u64 {
        match self {
            PerftPosition::Board(p) => p.perft(depth),
            PerftPosition::Wide(p) => p.perft(depth),
        }
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        match self {
            PerftPosition::Board(p) => p
                .divide(depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect(),
            PerftPosition::Wide(p) => p
                .divide(depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect(),
        }
    }
}

/// What `chessd perft` was asked, after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftRequest {
    pub position: PerftPosition,
    pub depth: u32,
    pub divide: bool,
}

impl PerftRequest {
    /// Validates the raw arguments; the error is one line that says what was wrong.
    pub fn parse(
        variant: &str,
        depth: &str,
        fen: Option<&str>,
        divide: bool,
    ) -> Result<PerftRequest, String> {
        // The wide family's keys are tried first: none of them is an 8x8 game's name.
        let game = match variant.parse::<WideVariant>() {
            Ok(wide) => Err(wide),
            Err(_) => Ok(variant.parse::<Variant>().map_err(|e| {
                let keys: Vec<&str> = WideVariant::ALL.iter().map(|v| v.key()).collect();
                format!(
                    "--variant {variant:?}: {e}; wide-board games: {}",
                    keys.join(", ")
                )
            })?),
        };
        let depth = depth
            .parse::<u32>()
            .ok()
            .filter(|d| *d <= MAX_DEPTH)
            .ok_or_else(|| {
                format!("--depth {depth:?}: expected a whole number from 0 to {MAX_DEPTH}")
            })?;
        let bad_fen = |e: &dyn std::fmt::Display| format!("--fen {:?}: {e}", fen.unwrap_or(""));
        let position = match (game, fen) {
            (Ok(v), Some(fen)) => {
                PerftPosition::Board(Position::from_fen(v, fen).map_err(|e| bad_fen(&e))?)
            }
            (Ok(v), None) => PerftPosition::Board(Position::new(v)),
            (Err(v), Some(fen)) => PerftPosition::Wide(Box::new(
                WidePosition::from_fen(v, fen).map_err(|e| bad_fen(&e))?,
            )),
            (Err(v), None) => PerftPosition::Wide(Box::new(WidePosition::new(v))),
        };
        Ok(PerftRequest {
            position,
            depth,
            divide,
        })
    }

    /// Prints the divide lines (sorted by UCI) if asked, then the total alone on the last line.
    pub fn run(&self, out: &mut impl Write) -> io::Result<u64> {
        let total = if self.divide {
            let mut rows = self.position.divide(self.depth);
            rows.sort();
            for (uci, nodes) in &rows {
                writeln!(out, "{uci}: {nodes}")?;
            }
            if self.depth == 0 {
                1
            } else {
                rows.iter().map(|(_, n)| n).sum()
            }
        } else {
            self.position.perft(self.depth)
        };
        writeln!(out, "{total}")?;
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Divide lists every first move and the last line is the total alone.
    #[test]
    fn divide_then_total() {
        let req = PerftRequest::parse("chess", "2", None, true).unwrap();
        let mut out = Vec::new();
        assert_eq!(req.run(&mut out).unwrap(), 400);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 21);
        assert_eq!(lines[0], "a2a3: 20");
        assert_eq!(*lines.last().unwrap(), "400");
    }

    /// The wide family by its keys: Janus's castling as the king's move, Capablanca Random's
    /// as the king taking its rook, and a bad 10x8 FEN refused in one line.
    #[test]
    fn wide_games() {
        let req = PerftRequest::parse("grand", "2", None, false).unwrap();
        assert_eq!(req.run(&mut Vec::new()).unwrap(), 4225);
        let fen = "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1";
        let divide = |variant| {
            let mut out = Vec::new();
            let req = PerftRequest::parse(variant, "1", Some(fen), true).unwrap();
            req.run(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert!(divide("janus").contains("e1i1: 1\n") && divide("janus").contains("e1b1: 1\n"));
        assert!(
            divide("caparandom").contains("e1j1: 1\n")
                && divide("caparandom").contains("e1a1: 1\n")
        );
        let err = PerftRequest::parse("janus", "1", Some("10/10 w - -"), false).unwrap_err();
        assert!(err.contains("--fen") && !err.contains('\n'), "{err}");
    }

    /// Bad variant, depth or FEN give a one-line reason.
    #[test]
    fn errors_are_one_line() {
        for (v, d, f) in [
            ("shogi", "1", None),
            ("chess", "x", None),
            ("chess", "99", None),
            ("racingkings", "1", Some("8/8 w - -")),
        ] {
            let err = PerftRequest::parse(v, d, f, false).unwrap_err();
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
