//! Capablanca Random Chess (`caparandom`), as `GAMES.md` gives it:
//!
//! > 10x8 with Capablanca's pieces (archbishop `A`, chancellor `C`); the back rank is **drawn
//! > at creation** from the arrays that satisfy all of: bishops on squares of opposite colour;
//! > queen and archbishop on squares of opposite colour; king between the two rooks; **every
//! > pawn protected** by a piece of its own side; Black mirrors White file by file. There are
//! > **21,836** such arrays; each is equally likely.
//! > **Castling** as in Chess960: the king ends on **c1** with the rook on d1, or on **i1** with
//! > the rook on h1; every square between each piece and its destination empty except for
//! > those two, the king not in check and not passing or landing on an attacked square.
//! > Written king-takes-rook (`f1j1`), as FSF writes it; FEN castling rights as in `RULES.md`
//! > (X-FEN letters, `KQkq` for the outermost rooks).
//! > Promotion to Q, R, B, N, A or C. Everything else standard.
//!
//! The arrays are numbered like Chess960's Scharnagl numbers, so a seed draws an index: here
//! the number of an array is its rank in the alphabetical order of its back-rank letters
//! (`AB...` first), 0 to 21,835.

use super::variant::{CAPABLANCA_LETTERS, CastlingDef, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef::standard(
    WideVariant::CapaRandom,
    (10, 8),
    "rbqnkcnabr/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQNKCNABR w KQkq - 0 1",
    CAPABLANCA_LETTERS,
    &super::capablanca::PROMOTIONS,
    true,
    Some(CastlingDef {
        king_takes_rook: true,
        ..super::capablanca::CASTLING
    }),
);

/// How many arrays the rule allows.
pub const CAPARANDOM_ARRAYS: u32 = 21_836;

/// The pieces of one back rank, in the alphabetical order the numbering follows.
const PIECES: [u8; 10] = *b"ABBCKNNQRR";

/// Whether a back rank (upper-case letters, a-file first) obeys every rule of the draw.
#[must_use]
pub fn is_caparandom_array(rank: &[u8; 10]) -> bool {
    let mut sorted = *rank;
    sorted.sort_unstable();
    if sorted != PIECES {
        return false;
    }
    let files = |p: u8| (0..10).filter(move |&f| rank[f] == p);
    let parity = |p: u8| files(p).map(|f| f % 2).collect::<Vec<_>>();
    let (bishops, rooks) = (parity(b'B'), files(b'R').collect::<Vec<_>>());
    let king = files(b'K').next().unwrap_or(0);
    bishops[0] != bishops[1]
        && parity(b'Q') != parity(b'A')
        && rooks[0] < king
        && king < rooks[1]
        && (0..10).all(|pawn| (0..10).any(|f| protects(rank[f], f.abs_diff(pawn))))
}

/// Whether a piece on the first rank protects the second-rank square `distance` files away.
fn protects(piece: u8, distance: usize) -> bool {
    match piece {
        b'K' | b'Q' => distance <= 1,
        b'R' => distance == 0,
        b'B' => distance == 1,
        b'N' => distance == 2,
        b'A' => distance == 1 || distance == 2,
        b'C' => distance == 0 || distance == 2,
        _ => false,
    }
}

/// The back rank numbered `index` (upper case, a-file first), or `None` past the last one.
#[must_use]
pub fn caparandom_array(index: u32) -> Option<[u8; 10]> {
    let mut found = None;
    let mut count = 0;
    visit(&mut [0; 10], 0, &mut [false; 10], &mut |rank| {
        if count == index {
            found = Some(*rank);
        }
        count += 1;
        found.is_none()
    });
    found
}

/// Every array, in the order of their numbers.
#[must_use]
pub fn caparandom_arrays() -> Vec<[u8; 10]> {
    let mut all = Vec::with_capacity(CAPARANDOM_ARRAYS as usize);
    visit(&mut [0; 10], 0, &mut [false; 10], &mut |rank| {
        all.push(*rank);
        true
    });
    all
}

/// Calls `f` on every valid array in order until it returns false; returns false if stopped.
fn visit(
    rank: &mut [u8; 10],
    at: usize,
    used: &mut [bool; 10],
    f: &mut impl FnMut(&[u8; 10]) -> bool,
) -> bool {
    if at == 10 {
        return !is_caparandom_array(rank) || f(rank);
    }
    for i in 0..10 {
        // Equal letters are taken in order only, so each array is made once.
        if used[i] || (i > 0 && PIECES[i] == PIECES[i - 1] && !used[i - 1]) {
            continue;
        }
        used[i] = true;
        rank[at] = PIECES[i];
        let go_on = visit(rank, at + 1, used, f);
        used[i] = false;
        if !go_on {
            return false;
        }
    }
    true
}

/// The FEN of the start position numbered `index`.
pub(crate) fn caparandom_fen(index: u32) -> Option<String> {
    let white = caparandom_array(index)?;
    let white = String::from_utf8_lossy(&white).into_owned();
    Some(format!(
        "{}/pppppppppp/10/10/10/10/PPPPPPPPPP/{white} w KQkq - 0 1",
        white.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule's count is 21,836, and every array the numbering yields obeys the rule.
    #[test]
    fn there_are_21836_arrays_each_valid() {
        let all = caparandom_arrays();
        assert_eq!(all.len(), CAPARANDOM_ARRAYS as usize);
        assert!(all.iter().all(is_caparandom_array));
        assert!(all.windows(2).all(|w| w[0] < w[1]), "in order, no repeats");
        assert_eq!(caparandom_array(0), Some(all[0]));
        assert_eq!(caparandom_array(21_835), all.last().copied());
        assert_eq!(caparandom_array(21_836), None);
    }

    /// The rule's example array is one of them; Capablanca's own is not: its archbishop (c1)
    /// and queen (e1) share a square colour.
    #[test]
    fn rule_checks() {
        assert!(is_caparandom_array(b"RBQNKCNABR"));
        // Bishops on the same colour.
        assert!(!is_caparandom_array(b"RBQNKCNBAR"));
        // King outside the rooks.
        assert!(!is_caparandom_array(b"KRQNBCNABR"));
        assert!(!is_caparandom_array(b"RNABQKBCNR"));
    }
}
