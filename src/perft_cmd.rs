//! `chessd perft`: counts the legal-move tree of a position from the command line, to check the
//! engine against published counts or another engine (`--divide` splits by first move). It
//! takes every game chessd plays, by key (`chess`, `grand`, `shogi`, `xiangqi`, ...).

use std::io::{self, Write};

use chessd_rules::any::{AnyPosition, AnyVariant};

/// The deepest perft accepted: deeper runs would take years on any position.
pub const MAX_DEPTH: u32 = 20;

/// What `chessd perft` was asked, after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftRequest {
    pub position: AnyPosition,
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
        let game = variant.parse::<AnyVariant>().map_err(|e| {
            let keys: Vec<&str> = AnyVariant::all().map(AnyVariant::key).collect();
            format!("--variant {variant:?}: {e}; the games: {}", keys.join(", "))
        })?;
        let depth = depth
            .parse::<u32>()
            .ok()
            .filter(|d| *d <= MAX_DEPTH)
            .ok_or_else(|| {
                format!("--depth {depth:?}: expected a whole number from 0 to {MAX_DEPTH}")
            })?;
        let bad_fen = |e: &dyn std::fmt::Display| format!("--fen {:?}: {e}", fen.unwrap_or(""));
        let position = match fen {
            Some(fen) => AnyPosition::from_fen(game, fen).map_err(|e| bad_fen(&e))?,
            None => AnyPosition::new(game),
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

    /// Shogi in USI's text as Fairy-Stockfish writes it, minishogi and xiangqi by their keys.
    #[test]
    fn shogi_and_xiangqi() {
        let count = |variant, depth| {
            let req = PerftRequest::parse(variant, depth, None, false).unwrap();
            req.run(&mut Vec::new()).unwrap()
        };
        assert_eq!(count("shogi", "2"), 900);
        assert_eq!(count("minishogi", "3"), 2512);
        assert_eq!(count("xiangqi", "2"), 1920);
        let mut out = Vec::new();
        let req = PerftRequest::parse("xiangqi", "1", None, true).unwrap();
        req.run(&mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("h3e3: 1\n"));
    }

    /// Bad variant, depth or FEN give a one-line reason.
    #[test]
    fn errors_are_one_line() {
        for (v, d, f) in [
            ("checkers", "1", None),
            ("xiangqi", "1", Some("9/9 w - - 0 1")),
            ("chess", "x", None),
            ("chess", "99", None),
            ("racingkings", "1", Some("8/8 w - -")),
        ] {
            let err = PerftRequest::parse(v, d, f, false).unwrap_err();
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
