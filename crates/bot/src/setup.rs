//! A placement for a game with a secret setup (Screen and Crazy Screen Chess), as the bot
//! makes one: the back rank shuffled on the seat's first rank with the bishops on squares of
//! both colours, and one pawn on each file on one of the three ranks before it. It keeps every
//! rule of both games (eight pawn files, no pawn on the first rank, bishops of both colours),
//! so the server accepts it as final; no engine sets up such a game, so the bot does it itself.

use chessd_rules::Color;
use chessd_rules::wide::{WideVariant, screen_half};

use crate::board::Side;

/// Four FEN rows of `side`'s half, top to bottom (White: ranks 4 to 1; Black: 8 to 5), drawn
/// with `random` (a fresh random number per call).
#[must_use]
pub fn random_half(side: Side, mut random: impl FnMut() -> u64) -> String {
    let mut below = |n: usize| (random() % n as u64) as usize;
    // Bishops on one light and one dark square of the first rank, then the rest shuffled
    // into the squares left.
    let mut rank: [Option<char>; 8] = [None; 8];
    rank[2 * below(4)] = Some('b');
    rank[2 * below(4) + 1] = Some('b');
    for piece in ['q', 'n', 'n', 'r', 'r', 'k'] {
        let free: Vec<usize> = (0..8).filter(|&f| rank[f].is_none()).collect();
        rank[free[below(free.len())]] = Some(piece);
    }
    // Rows away from the first rank: 0 is next to it, 2 the farthest.
    let mut rows = [[None::<char>; 8]; 3];
    let pawn_rows: [usize; 8] = std::array::from_fn(|_| below(3));
    for (file, row) in pawn_rows.into_iter().enumerate() {
        rows[row][file] = Some('p');
    }
    let case = |c: char| match side {
        Side::White => c.to_ascii_uppercase(),
        Side::Black => c,
    };
    // Each empty square written `1`: the rules engine reads it and writes the half back in
    // FEN's own form.
    let text =
        |row: &[Option<char>; 8]| -> String { row.iter().map(|c| c.map_or('1', case)).collect() };
    let first = text(&rank);
    let [next, middle, far] = rows.map(|r| text(&r));
    let (color, raw) = match side {
        // Top to bottom: rank 4 (far) down to rank 1.
        Side::White => (Color::White, format!("{far}/{middle}/{next}/{first}")),
        // Top to bottom: rank 8 (its first) down to rank 5 (far).
        Side::Black => (Color::Black, format!("{first}/{next}/{middle}/{far}")),
    };
    // The half keeps Screen Chess's rules by construction, so it reads back.
    screen_half(WideVariant::Screen, color, &raw).map_or(raw, |half| half.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every half drawn is one Screen Chess (and so Crazy Screen) accepts, for both sides.
    #[test]
    fn every_half_keeps_the_rules() {
        let mut state = 7u64;
        let mut random = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 33
        };
        for _ in 0..500 {
            for (side, color) in [(Side::White, Color::White), (Side::Black, Color::Black)] {
                let half = random_half(side, &mut random);
                assert!(!half.contains("11"), "{half}: written in FEN's own form");
                for v in [WideVariant::Screen, WideVariant::CrazyScreen] {
                    let checked = screen_half(v, color, &half);
                    assert!(checked.is_ok(), "{half}: {checked:?}");
                }
            }
        }
    }
}
