//! Corner Chess (`corner`), as `GAMES.md` gives it:
//!
//! > **Setup, drawn at creation.** White's king stands on h1 and Black's on a8 (each player's
//! > right-hand corner). White's queen, two rooks, two bishops and two knights fill a1-g1 in
//! > a random order with the two bishops on squares of opposite colour; Black's back rank is
//! > White's turned through 180 degrees (a white queen on c1 means a black queen on f8). Pawns
//! > stand on ranks 2 and 7 as usual. There are exactly **360** arrays (12 bishop placements
//! > x 30 arrangements of Q, R, R, N, N); each is equally likely.
//! > **Play** is standard chess with **no castling** (castling field `-`).
//!
//! The arrays are numbered 0 to 359: `bishops * 30 + rest`, where `bishops` is the dark
//! square's rank among a1, c1, e1, g1 times 3 plus the light square's among b1, d1, f1, and
//! `rest` the rank of the other five pieces' order among the 30, in alphabetical order of
//! their letters (`NNQRR` first). Fortress Chess draws from the same arrays.

use super::variant::{CHESS_LETTERS, CHESS_PROMOTIONS, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::Corner,
    (8, 8),
    "krnbqnbr/pppppppp/8/8/8/8/PPPPPPPP/RBNQBNRK w - - 0 1",
    CHESS_LETTERS,
    &CHESS_PROMOTIONS,
    true,
    None,
);

/// How many arrays the rule allows.
pub const CORNER_ARRAYS: u32 = 360;

/// The orders of Q, R, R, N, N on five squares, alphabetically.
fn rests() -> Vec<[u8; 5]> {
    let mut out = Vec::with_capacity(30);
    for code in 0..5u32.pow(5) {
        let mut r = [0u8; 5];
        let mut c = code;
        for slot in &mut r {
            *slot = b"NNQRR"[(c % 5) as usize];
            c /= 5;
        }
        r.reverse();
        let mut sorted = r;
        sorted.sort_unstable();
        if &sorted == b"NNQRR" && !out.contains(&r) {
            out.push(r);
        }
    }
    out.sort_unstable();
    out
}

/// White's back rank (a1 to h1, upper case) of the array numbered `index`, or `None` past the
/// last.
#[must_use]
pub fn corner_array(index: u32) -> Option<[u8; 8]> {
    if index >= CORNER_ARRAYS {
        return None;
    }
    let (bishops, rest) = (index / 30, index % 30);
    let (dark, light) = ((bishops / 3) as usize * 2, (bishops % 3) as usize * 2 + 1);
    let mut rank = [0u8; 8];
    rank[7] = b'K';
    rank[dark] = b'B';
    rank[light] = b'B';
    let order = rests()[rest as usize];
    let mut pieces = order.iter();
    for slot in rank.iter_mut().filter(|s| **s == 0) {
        *slot = pieces.next().copied().unwrap_or(b'Q');
    }
    Some(rank)
}

/// The start FEN of Corner Chess array `index`, with `extra` put between the pawn ranks
/// (Fortress Chess's three pawns a side; `8/8/8/8` for Corner Chess).
pub(crate) fn corner_fen(index: u32, black_extra: &str, white_extra: &str) -> Option<String> {
    let white = corner_array(index)?;
    let black: String = white
        .iter()
        .rev()
        .map(|c| c.to_ascii_lowercase() as char)
        .collect();
    let white = core::str::from_utf8(&white).ok()?;
    Some(format!(
        "{black}/pppppppp/{black_extra}/8/8/{white_extra}/PPPPPPPP/{white} w - - 0 1"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use super::*;

    /// 360 different arrays, bishops on opposite colours, the rule's example among them, and
    /// each start a legal Corner Chess position with no castling.
    #[test]
    fn every_array() {
        let all: Vec<[u8; 8]> = (0..CORNER_ARRAYS).filter_map(corner_array).collect();
        assert_eq!(all.len(), 360);
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 360);
        for rank in &all {
            let bishops: Vec<usize> = (0..8).filter(|&f| rank[f] == b'B').collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2);
        }
        assert!(all.contains(b"RBNQBNRK"));
        assert_eq!(corner_array(360), None);
        for i in 0..CORNER_ARRAYS {
            let fen = corner_fen(i, "8", "8").unwrap();
            let p = WidePosition::from_fen(WideVariant::Corner, &fen).unwrap();
            assert_eq!(p.castling_rooks(crate::Color::White), [None; 2]);
        }
        let example =
            WidePosition::corner(all.iter().position(|r| r == b"RBNQBNRK").unwrap() as u32);
        assert_eq!(example, Some(WidePosition::new(WideVariant::Corner)));
    }
}
