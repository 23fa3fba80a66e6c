//! What a position holds besides its FEN, as the API spells it: the board's geometry, the
//! general hands (`Hands`, any variant's pieces by letter) and their chess-shaped forms kept
//! for v1 clients (Crazyhouse's `Pockets`, Three-check's `CheckCounts`).

use chessd_proto::wire as pb;
use chessd_rules::any::{AnyPosition, AnyVariant};
use chessd_rules::{self as rules, Rules};

/// The board a game is played on: 8 by 8 for the 8x8 engine's games, the game's own size for
/// the others (6x6, 10x8, 10x10; shogi 9x9, minishogi 5x5, xiangqi 9 files by 10 ranks).
#[must_use]
pub(crate) fn geometry(variant: AnyVariant) -> pb::BoardGeometry {
    let (files, ranks) = variant.size();
    pb::BoardGeometry {
        files: u32::from(files),
        ranks: u32::from(ranks),
    }
}

/// The pieces each side holds to drop (`None` in games without hands), each piece by the
/// letter a drop names it with, in the roles' order and only when held.
#[must_use]
pub(crate) fn hands(pos: &AnyPosition) -> Option<pb::Hands> {
    let hand = |pieces: &[(char, u32)]| pb::Hand {
        pieces: pieces
            .iter()
            .map(|&(letter, count)| pb::PieceCount {
                piece: letter.to_string(),
                count,
            })
            .collect(),
    };
    pos.hands().map(|h| pb::Hands {
        white: Some(hand(h.white())),
        black: Some(hand(h.black())),
    })
}

/// Crazyhouse's pockets (`None` in other games): the chess-shaped form of [`hands`].
#[must_use]
pub(crate) fn pockets(pos: &AnyPosition) -> Option<pb::Pockets> {
    let pocket = |p: &rules::Pocket| pb::Pocket {
        pawns: u32::from(p.count(rules::Role::Pawn)),
        knights: u32::from(p.count(rules::Role::Knight)),
        bishops: u32::from(p.count(rules::Role::Bishop)),
        rooks: u32::from(p.count(rules::Role::Rook)),
        queens: u32::from(p.count(rules::Role::Queen)),
    };
    pos.std()?.pockets().map(|p| pb::Pockets {
        white: Some(pocket(p.white())),
        black: Some(pocket(p.black())),
    })
}

/// Three-check's checks given so far (`None` in other games): three less the checks each
/// side still needs.
#[must_use]
pub(crate) fn checks_given(pos: &AnyPosition) -> Option<pb::CheckCounts> {
    pos.std()?.remaining_checks().map(|left| pb::CheckCounts {
        white: u32::from(3u8.saturating_sub(*left.white())),
        black: u32::from(3u8.saturating_sub(*left.black())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(hand: Option<&pb::Hand>) -> Vec<(String, u32)> {
        hand.map(|h| {
            h.pieces
                .iter()
                .map(|p| (p.piece.clone(), p.count))
                .collect()
        })
        .unwrap_or_default()
    }

    /// A hand says what the pocket says, by letter and only for pieces held.
    #[test]
    fn hands_match_pockets() {
        let fen = "rnbqkb1r/ppp1pppp/8/3N4/8/8/PPPP1PPP/R1BQKBNR[NPp] b KQkq - 0 4";
        let Ok(pos) = rules::any::AnyPosition::from_fen(
            rules::any::AnyVariant::Std(rules::Variant::Crazyhouse),
            fen,
        ) else {
            panic!("{fen} is a crazyhouse position");
        };
        let h = hands(&pos).expect("crazyhouse has hands");
        assert_eq!(pieces(h.white.as_ref()), [("P".into(), 1), ("N".into(), 1)]);
        assert_eq!(pieces(h.black.as_ref()), [("P".into(), 1)]);
        let p = pockets(&pos).expect("and pockets");
        assert_eq!(
            p.white.map(|w| (w.pawns, w.knights, w.queens)),
            Some((1, 1, 0))
        );
        assert!(hands(&rules::any::AnyPosition::new(rules::any::AnyVariant::CHESS)).is_none());
    }

    /// The 8x8 engine's games are on 8 by 8 boards; the other families' on their own.
    #[test]
    fn every_board_has_its_size() {
        for variant in AnyVariant::all() {
            let size = match variant.key() {
                "losalamos" => (6, 6),
                "janus" | "embassy" | "capablanca" | "caparandom" => (10, 8),
                "grand" | "dice10x10" => (10, 10),
                "shogi" => (9, 9),
                "minishogi" => (5, 5),
                "xiangqi" => (9, 10),
                _ => (8, 8),
            };
            assert_eq!(
                geometry(variant),
                pb::BoardGeometry {
                    files: size.0,
                    ranks: size.1
                },
                "{variant}"
            );
        }
    }

    /// Loop Chess's hands are written with the game's letters.
    #[test]
    fn wide_hands_by_letter() {
        let Ok(pos) = AnyPosition::from_fen(
            AnyVariant::by_key("loop").unwrap_or(AnyVariant::CHESS),
            "rnbqkb1r/ppp1pppp/8/3N4/8/8/PPPP1PPP/R1BQKBNR[NPp] b KQkq - 0 4",
        ) else {
            panic!("a loop position");
        };
        let h = hands(&pos).expect("loop has hands");
        assert_eq!(pieces(h.white.as_ref()), [("P".into(), 1), ("N".into(), 1)]);
        assert_eq!(pieces(h.black.as_ref()), [("P".into(), 1)]);
        assert!(pockets(&pos).is_none());
    }
}
