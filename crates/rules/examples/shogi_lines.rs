//! The shogi family's side of `tools/shogi_oracle.py`, the differential test against
//! Fairy-Stockfish: reads lines `VARIANT<TAB>FEN<TAB>MOVE` (MOVE may be empty) from stdin,
//! plays MOVE (FSF or USI text) on FEN and answers one line per request: the resulting FEN,
//! a tab, and its legal moves in FSF's text, sorted, space-separated; or `error: ...`.
//!
//! ```text
//! printf 'shogi\tlnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1\tc3c4\n' \
//!     | cargo run --release -p chessd-rules --example shogi_lines
//! ```

use std::io::{BufRead, Write};

use chessd_rules::shogi::{ShogiPosition, ShogiVariant};

fn answer(line: &str) -> Result<String, String> {
    let mut fields = line.split('\t');
    let variant: ShogiVariant = fields
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e| format!("{e}"))?;
    let fen = fields.next().ok_or("no FEN")?;
    let mut pos = ShogiPosition::from_fen(variant, fen).map_err(|e| format!("{fen}: {e}"))?;
    if let Some(m) = fields.next().filter(|m| !m.is_empty()) {
        pos.play(m).map_err(|e| e.to_string())?;
    }
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    Ok(format!("{}\t{}", pos.fen(), moves.join(" ")))
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines().map_while(Result::ok) {
        let reply = answer(line.trim_end()).unwrap_or_else(|e| format!("error: {e}"));
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
