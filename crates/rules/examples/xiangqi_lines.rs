//! A line-by-line driver for `tools/xiangqi_oracle.py`: reads `FEN` or `FEN<TAB>MOVE` lines on
//! stdin and answers each with one line, `MOVES<TAB>FEN<TAB>END`: the position's legal moves
//! (sorted, space-separated), its FEN as chessd writes it (after MOVE when one is given), and
//! the end the position alone decides (`-`, or `winner termination`). A refused FEN or move
//! answers `error: WHY`.
//!
//! ```text
//! echo 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' |
//!     cargo run --release -p chessd-rules --example xiangqi_lines
//! ```

use std::io::{BufRead, Write};

use chessd_rules::xiangqi::XiangqiPosition;

fn answer(line: &str) -> Result<String, String> {
    let (fen, mv) = match line.split_once('\t') {
        Some((fen, mv)) => (fen, Some(mv.trim())),
        None => (line, None),
    };
    let mut pos = XiangqiPosition::from_fen(fen).map_err(|e| e.to_string())?;
    if let Some(mv) = mv {
        pos.play(mv).map_err(|e| e.to_string())?;
    }
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    let end = match pos.outcome() {
        None => "-".to_string(),
        Some(o) => format!(
            "{} {}",
            o.winner
                .map_or("draw", |c| if c.is_white() { "w" } else { "b" }),
            o.termination.key()
        ),
    };
    Ok(format!("{}\t{}\t{end}", moves.join(" "), pos.fen()))
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let text = answer(line.trim_end()).unwrap_or_else(|e| format!("error: {e}"));
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
