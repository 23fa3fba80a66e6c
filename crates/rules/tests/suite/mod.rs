//! The perft data files' format, read by every perft suite (`perft.rs`, `wide.rs`,
//! `shogi.rs`): `id NAME`, `epd FEN`, then `perft DEPTH NODES` lines for that position; and
//! the check a family's suite runs.

/// One `perft` line with the position it belongs to.
pub struct Line {
    pub id: String,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
}

pub fn suite(text: &str) -> Vec<Line> {
    let (mut id, mut fen) = (String::new(), String::new());
    let mut lines = Vec::new();
    for raw in text.lines().map(str::trim) {
        if let Some(rest) = raw.strip_prefix("id ") {
            id = rest.to_string();
        } else if let Some(rest) = raw.strip_prefix("epd ") {
            fen = rest.to_string();
        } else if let Some(rest) = raw.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok()).expect("perft depth");
            let nodes = it.next().and_then(|n| n.parse().ok()).expect("perft nodes");
            lines.push(Line {
                id: id.clone(),
                fen: fen.clone(),
                depth,
                nodes,
            });
        }
    }
    assert!(!lines.is_empty(), "empty perft suite");
    lines
}

/// Checks each line of `text` whose count `keep` accepts against `perft(fen, depth)`, naming
/// `game` in a failure; returns how many lines ran.
#[allow(dead_code)] // `perft.rs` runs its own loop (it reads castling modes per line).
pub fn check(
    game: &str,
    text: &str,
    keep: impl Fn(u64) -> bool,
    perft: impl Fn(&str, u32) -> u64,
) -> usize {
    let lines: Vec<Line> = suite(text).into_iter().filter(|l| keep(l.nodes)).collect();
    for Line {
        id,
        fen,
        depth,
        nodes,
    } in &lines
    {
        assert_eq!(
            perft(fen, *depth),
            *nodes,
            "{game} {id} ({fen}) depth {depth}"
        );
    }
    lines.len()
}
