//! Massacre Chess (`massacre`), as `GAMES.md` gives it:
//!
//! > **Setup, drawn at creation.** Each side has 8 queens, 8 rooks, 8 bishops, 8 knights and
//! > nothing else; the 64 pieces are shuffled over all 64 squares, colours mixed, every
//! > permutation equally likely. If White happens to have no capture, the board is drawn
//! > again **(decision)**.
//! > **Every move must capture** an enemy piece; other moves do not exist. There are no
//! > kings, no check, no promotion, no castling, no en passant (FEN fields `-`).
//! > **A player who cannot capture loses**; a player with no pieces left has no move and
//! > loses too.
//!
//! FSF's `[massacre]` (`mustCapture`) lets a side with no capture make a quiet move instead;
//! here it has lost, so perft counts differ from FSF's only below a position with no capture.

use super::variant::{End, GameDef, WideVariant};

pub(crate) const DEF: GameDef = GameDef {
    royal: [None; 2],
    must_capture: true,
    end: End::Massacre,
    ..GameDef::standard(
        WideVariant::Massacre,
        (8, 8),
        "rBbnbqNn/bQrnQRRr/rrqbNqQb/bBNqbNBN/bNRrrrBQ/QRQqRnNB/qBRnnqNQ/BBQnqnRR w - - 0 1",
        *b"PNBRQ\0\0\0\0",
        &[],
        false,
        None,
    )
};

/// The 64 pieces of a Massacre start, in the order a shuffle permutes them.
const ARMY: &[u8; 64] = b"QQQQQQQQRRRRRRRRBBBBBBBBNNNNNNNNqqqqqqqqrrrrrrrrbbbbbbbbnnnnnnnn";

/// A fair Massacre start: `draw(n)` must return a uniform number below `n` (the caller's
/// seeded generator, so the draw can be checked afterwards). A Fisher-Yates shuffle of the
/// 64 pieces, drawn again while White has no capture.
pub fn massacre_fen(mut draw: impl FnMut(usize) -> usize) -> String {
    loop {
        let mut board = *ARMY;
        for i in (1..board.len()).rev() {
            board.swap(i, draw(i + 1).min(i));
        }
        let ranks: Vec<&str> = board
            .chunks(8)
            .map(|r| core::str::from_utf8(r).unwrap_or_default())
            .collect();
        let fen = format!("{} w - - 0 1", ranks.join("/"));
        let ok = super::WidePosition::from_fen(WideVariant::Massacre, &fen)
            .is_ok_and(|p| p.has_legal_move());
        if ok {
            return fen;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use super::massacre_fen;
    use crate::{Color, Termination};

    /// Only captures are moves, and the side with none loses.
    #[test]
    fn captures_only_and_no_capture_loses() {
        let p = WidePosition::from_fen(WideVariant::Massacre, "8/8/8/3q4/8/8/3R4/N7 w - - 0 1")
            .unwrap();
        let moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(&p).to_string())
            .collect();
        assert_eq!(moves, ["d2d5"]);
        let p =
            WidePosition::from_fen(WideVariant::Massacre, "8/8/8/8/8/8/3R4/q7 w - - 0 1").unwrap();
        let o = p.outcome().unwrap();
        assert_eq!(
            (o.winner, o.termination),
            (Some(Color::Black), Termination::NoCapture)
        );
    }

    /// A drawn start holds the 64 pieces and White can capture.
    #[test]
    fn drawn_starts_are_full_boards() {
        let mut state = 7u64;
        let fen = massacre_fen(|n| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            ((state >> 33) % n as u64) as usize
        });
        let p = WidePosition::from_fen(WideVariant::Massacre, &fen).unwrap();
        assert_eq!(p.occupied().count_ones(), 64);
        assert!(p.has_legal_move());
    }
}
