//! What a position holds besides its FEN, as the API spells it: the board's geometry, the
//! general hands (`Hands`, any variant's pieces by letter) and their chess-shaped forms kept
//! for v1 clients (Crazyhouse's `Pockets`, Three-check's `CheckCounts`).

use chessd_proto::wire as pb;
use chessd_rules::{self as rules, Rules};

/// The board a variant is played on. Every variant chessd plays today is 8 by 8; the match
/// is exhaustive so that a variant on another board has to say its size here.
#[must_use]
pub(crate) fn geometry(variant: rules::Variant) -> pb::BoardGeometry {
    use rules::Variant as V;
    let (files, ranks) = match variant {
        V::Chess
        | V::RacingKings
        | V::Chess960
        | V::ThreeCheck
        | V::KingOfTheHill
        | V::Antichess
        | V::Atomic
        | V::Horde
        | V::Crazyhouse => (8, 8),
    };
    pb::BoardGeometry { files, ranks }
}

/// The pieces each side holds to drop (`None` in variants without hands), each piece by the
/// letter a drop names it with, in the roles' order (P, N, B, R, Q, K) and only when held.
#[must_use]
pub(crate) fn hands(pos: &rules::Position) -> Option<pb::Hands> {
    let hand = |p: &rules::Pocket| pb::Hand {
        pieces: rules::Role::ALL
            .iter()
            .filter(|&&role| p.count(role) > 0)
            .map(|&role| pb::PieceCount {
                piece: role.upper_char().to_string(),
                count: u32::from(p.count(role)),
            })
            .collect(),
    };
    pos.pockets().map(|p| pb::Hands {
        white: Some(hand(p.white())),
        black: Some(hand(p.black())),
    })
}

/// Crazyhouse's pockets (`None` in other variants): the chess-shaped form of [`hands`].
#[must_use]
pub(crate) fn pockets(pos: &rules::Position) -> Option<pb::Pockets> {
    let pocket = |p: &rules::Pocket| pb::Pocket {
        pawns: u32::from(p.count(rules::Role::Pawn)),
        knights: u32::from(p.count(rules::Role::Knight)),
        bishops: u32::from(p.count(rules::Role::Bishop)),
        rooks: u32::from(p.count(rules::Role::Rook)),
        queens: u32::from(p.count(rules::Role::Queen)),
    };
    pos.pockets().map(|p| pb::Pockets {
        white: Some(pocket(p.white())),
        black: Some(pocket(p.black())),
    })
}

/// Three-check's checks given so far (`None` in other variants): three less the checks each
/// side still needs.
#[must_use]
pub(crate) fn checks_given(pos: &rules::Position) -> Option<pb::CheckCounts> {
    pos.remaining_checks().map(|left| pb::CheckCounts {
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
        let Ok(pos) = rules::Position::from_fen(rules::Variant::Crazyhouse, fen) else {
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
        assert!(hands(&rules::Position::new(rules::Variant::Chess)).is_none());
    }

    /// Every variant played today is on an 8 by 8 board.
    #[test]
    fn every_board_is_eight_by_eight() {
        for variant in rules::Variant::ALL {
            assert_eq!(
                geometry(variant),
                pb::BoardGeometry { files: 8, ranks: 8 },
                "{variant}"
            );
        }
    }
}
