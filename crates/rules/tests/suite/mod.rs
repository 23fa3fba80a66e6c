//! The perft data files' format, read by every perft suite (`perft.rs`, `wide.rs`): `id NAME`,
//! `epd FEN`, then `perft DEPTH NODES` lines for that position.

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
