//! A line-by-line driver for `tools/xiangqi_oracle.py`: reads `FEN` or `FEN<TAB>MOVES` lines
//! on stdin and answers each with one line, `LEGAL<TAB>FEN<TAB>END`: the legal moves (sorted,
//! space-separated) and the FEN as chessd writes it of the position reached, and the end: for a
//! bare FEN the one the position alone decides, after MOVES (space-separated) the game
//! record's (`Game<XiangqiPosition>` played from FEN, so with the history's rules): `-`, or
//! `WINNER TERMINATION` (`w`, `b` or `draw`, then the termination's key). A refused FEN or
//! move answers `error: WHY`.
//!
//! Two more requests serve the WXF check: `wxf<TAB>FEN` answers `MOVE:WXF` for every legal move
//! (space-separated, each WXF read back to its move first: a text that does not read back is an
//! error), and `read<TAB>FEN<TAB>TEXTS` answers, for each space-separated text, the move chessd
//! reads it as (through the game record's `parse_among`) or `?`.
//!
//! ```text
//! echo 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' |
//!     cargo run --release -p chessd-rules --example xiangqi_lines
//! ```

use std::io::{BufRead, Write};

use chessd_rules::xiangqi::{XiangqiGame, XiangqiPosition, wxf};
use chessd_rules::{DrawRule, Family};

fn notation(fen: &str) -> Result<String, String> {
    let pos = XiangqiPosition::from_fen(fen).map_err(|e| e.to_string())?;
    let legal = pos.legal_moves();
    let mut out = Vec::with_capacity(legal.len());
    for &m in legal.iter() {
        let text = wxf(&pos, m);
        if pos.parse_among(text.as_str(), &legal) != Ok(m) {
            return Err(format!("{text} does not read back to {m}"));
        }
        out.push(format!("{m}:{text}"));
    }
    Ok(out.join(" "))
}

fn read(fen: &str, texts: &str) -> Result<String, String> {
    let pos = XiangqiPosition::from_fen(fen).map_err(|e| e.to_string())?;
    let legal = pos.legal_moves();
    let read: Vec<String> = texts
        .split_whitespace()
        .map(|t| {
            pos.parse_among(t, &legal)
                .map_or("?".into(), |m| m.to_string())
        })
        .collect();
    Ok(read.join(" "))
}

fn answer(line: &str) -> Result<String, String> {
    if let Some(fen) = line.strip_prefix("wxf\t") {
        return notation(fen);
    }
    if let Some((fen, texts)) = line.strip_prefix("read\t").and_then(|r| r.split_once('\t')) {
        return read(fen, texts);
    }
    let (fen, mv) = match line.split_once('\t') {
        Some((fen, mv)) => (fen, Some(mv.trim())),
        None => (line, None),
    };
    let start = XiangqiPosition::from_fen(fen).map_err(|e| e.to_string())?;
    let (pos, outcome) = match mv {
        None => (start, start.outcome()),
        Some(moves) => {
            let mut game = XiangqiGame::new(start, DrawRule::Claim);
            for m in moves.split_whitespace() {
                game.play_text(m).map_err(|e| e.to_string())?;
            }
            (*game.position(), game.outcome())
        }
    };
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    let end = match outcome {
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
