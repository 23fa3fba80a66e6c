//! `chessd perft`: counts the legal-move tree of a position from the command line, to check the
//! engine against published counts or another engine (`--divide` splits by first move).

use std::io::{self, Write};

use chessd_rules::{Position, Variant};

/// The deepest perft accepted: deeper runs would take years on any position.
pub const MAX_DEPTH: u32 = 20;

/// What `chessd perft` was asked, after validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftRequest {
    pub position: Position,
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
        let variant: Variant = variant
            .parse()
            .map_err(|e| format!("--variant {variant:?}: {e}"))?;
        let depth = depth
            .parse::<u32>()
            .ok()
            .filter(|d| *d <= MAX_DEPTH)
            .ok_or_else(|| {
                format!("--depth {depth:?}: expected a whole number from 0 to {MAX_DEPTH}")
            })?;
        let position = match fen {
            Some(fen) => {
                Position::from_fen(variant, fen).map_err(|e| format!("--fen {fen:?}: {e}"))?
            }
            None => Position::new(variant),
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
            let mut rows: Vec<(String, u64)> = self
                .position
                .divide(self.depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect();
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
