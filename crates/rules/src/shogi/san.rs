//! Western (Hodges) notation, the shogi family's SAN: the piece's letter (`+` before a
//! promoted piece's), its origin only when another piece of the same kind could go to the
//! same square, `-` for a move, `x` for a capture, `*` for a drop, the destination as USI
//! names it, then `+` for a promotion or `=` for a promotion declined: `P-7f`, `Bx2b+`,
//! `S*5e`, `G6i-5h`, `S-2c=`. Shogi notation marks no check.

use super::mv::ShogiMove;
use super::position::ShogiPosition;
use super::role::ShogiPiece;
use crate::WideText;

/// Whether `m` (a move of a piece, not a drop) could also have been played with the other
/// promotion choice.
fn had_choice(m: ShogiMove, legal: &[ShogiMove]) -> bool {
    legal
        .iter()
        .any(|&o| o.from() == m.from() && o.to() == m.to() && o.is_promotion() != m.is_promotion())
}

/// `m`'s Western notation among `legal` (the position's legal moves, which it must be one of).
#[must_use]
pub fn western_among(pos: &ShogiPosition, m: ShogiMove, legal: &[ShogiMove]) -> WideText {
    let mut text = WideText::new();
    let variant = pos.variant();
    let size = variant.size();
    let square = |sq: crate::shogi::ShogiSquare| sq.usi(size).map(|u| u.to_string());
    let to = square(m.to()).unwrap_or_default();
    let Some(from) = m.from() else {
        if let Some(role) = m.drop_role() {
            text.push(role.letter());
        }
        text.push('*');
        text.push_str(&to);
        return text;
    };
    let piece = pos.piece_at(from);
    let Some(ShogiPiece { role, .. }) = piece else {
        return text;
    };
    if role.is_promoted() {
        text.push('+');
    }
    text.push(role.letter());
    let rival = legal.iter().any(|&o| {
        o.to() == m.to()
            && o.from()
                .is_some_and(|f| f != from && pos.piece_at(f) == piece)
    });
    if rival {
        text.push_str(&square(from).unwrap_or_default());
    }
    text.push(if pos.piece_at(m.to()).is_some() {
        'x'
    } else {
        '-'
    });
    text.push_str(&to);
    if m.is_promotion() {
        text.push('+');
    } else if had_choice(m, legal) {
        text.push('=');
    }
    text
}

/// `m`'s Western notation in `pos`.
#[must_use]
pub fn western(pos: &ShogiPosition, m: ShogiMove) -> WideText {
    western_among(pos, m, &pos.legal_moves())
}

#[cfg(test)]
mod tests {
    use super::super::ShogiVariant;
    use super::*;

    fn text(fen: &str, m: &str) -> String {
        let pos = ShogiPosition::from_fen(ShogiVariant::Shogi, fen).unwrap();
        let m = ShogiMove::parse_any(m, ShogiVariant::Shogi).unwrap();
        western(&pos, m).as_str().to_string()
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    /// `P-7f`; a capture promoting `Bx2b+`, declining `Bx2b=`; a drop `B*5e`.
    #[test]
    fn moves_captures_promotions_drops() {
        assert_eq!(text(START, "7g7f"), "P-7f");
        let open = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        assert_eq!(text(open, "8h2b+"), "Bx2b+");
        assert_eq!(text(open, "8h2b"), "Bx2b=");
        let hand = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5";
        assert_eq!(text(hand, "B*5e"), "B*5e");
    }

    /// Two golds that can reach 5h: the origin says which.
    #[test]
    fn origin_only_when_ambiguous() {
        assert_eq!(text(START, "6i5h"), "G6i-5h");
        assert_eq!(text(START, "6i7h"), "G-7h");
    }

    /// A promoted piece is written with its `+`.
    #[test]
    fn promoted_piece() {
        let fen = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
        let pos = ShogiPosition::from_fen(ShogiVariant::Shogi, fen).unwrap();
        assert!(
            pos.legal_moves()
                .iter()
                .all(|&m| !western(&pos, m).as_str().is_empty())
        );
        let horse = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 5";
        assert_eq!(text(horse, "2b3a"), "+Bx3a");
    }
}
