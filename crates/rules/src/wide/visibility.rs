//! What a Dark Chess player sees, as `GAMES.md` gives BrainKing's rule:
//!
//! > A square is visible to a player when at least one holds:
//! > 1. one of the player's own pieces stands on it;
//! > 2. one of the player's pieces has a legal move to it (an empty square it can move to,
//! >    including castling, double-step and en-passant destinations, or an enemy piece it can
//! >    capture);
//! > 3. it is the square directly in front of one of the player's pawns, or one of that
//! >    pawn's two forward diagonal squares (whether empty or occupied).
//! >
//! > Visibility is recomputed for both players after every move, from the real position. The
//! > pawn that an en-passant capture would take is not revealed by rule 2 (its square is not
//! > the destination) [...]
//! >
//! > **What a seat receives**: the board with every non-visible square shown as `?` [...]; its
//! > own castling rights; the en-passant square only if it can use it [...]. It never receives
//! > the opponent's move text, the halfmove clock or the full FEN.
//!
//! The player not to move sees by the moves it would have were it its turn: the same position
//! with the turn passed to it and no en passant square (which only ever belongs to the side to
//! move).

use super::mv::WideMoveKind;
use super::position::WidePosition;
use super::square::WideSquare;
use crate::Color;

/// The width of the shared square numbering: a rank ahead is this many squares on.
const STRIDE: u32 = 12;

impl WidePosition {
    /// The squares `color` sees, as a mask of the shared numbering.
    #[must_use]
    pub fn visible_to(&self, color: Color) -> u128 {
        let own = self.colors[color as usize];
        let mut seen = own;
        let mut mover = *self;
        if mover.turn != color {
            mover.turn = color;
            mover.ep = None;
            mover.ep_victim = None;
        }
        for m in mover.legal_moves() {
            // A castling move is stored as the king taking its rook; the king lands on the
            // square its text names.
            let to = if m.kind() == WideMoveKind::Castle {
                m.uci_in(self.def.variant).to
            } else {
                m.to()
            };
            seen |= to.bit();
        }
        let pawns = self.pieces(color, super::role::WideRole::Pawn);
        let mut rest = pawns;
        while rest != 0 {
            let index = rest.trailing_zeros();
            rest &= rest - 1;
            let file = index % STRIDE;
            let ahead = match color {
                Color::White => index.checked_add(STRIDE),
                Color::Black => index.checked_sub(STRIDE),
            };
            let Some(ahead) = ahead.filter(|&a| a < 128) else {
                continue;
            };
            seen |= 1u128 << ahead;
            if file > 0 {
                seen |= 1u128 << (ahead - 1);
            }
            if file + 1 < u32::from(self.def.width) {
                seen |= 1u128 << (ahead + 1);
            }
        }
        seen & self.def.board
    }

    /// The position as `color` sees it: the board with every square it does not see written
    /// `?`, the side to move, its own castling rights, and the en passant square only when it
    /// may take there (`????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -` for
    /// White at the start). No counters: the halfmove clock would tell of unseen captures.
    #[must_use]
    pub fn fog_fen(&self, color: Color) -> String {
        self.fen_showing(self.visible_to(color), Some(color))
    }

    /// The board as a spectator of a game in play sees it: every square `?`, no castling
    /// right and no en passant square; only the side to move is told.
    #[must_use]
    pub fn blind_fen(&self) -> String {
        self.fen_showing(0, None)
    }

    /// The FEN of this position with the squares outside `seen` written `?`, and `viewer`'s
    /// own castling rights and en passant square (none for a spectator).
    fn fen_showing(&self, seen: u128, viewer: Option<Color>) -> String {
        let full = self.fen();
        let mut fields = full.split(' ');
        let board = fields.next().unwrap_or_default();
        let turn = fields.next().unwrap_or("w");
        let castling = fields.next().unwrap_or("-");
        let mut out = String::with_capacity(board.len() + 16);
        for (row, rank) in board.split('/').zip((0..self.def.height).rev()) {
            if !out.is_empty() {
                out.push('/');
            }
            let mut file = 0u32;
            let mut empty = 0;
            let flush = |out: &mut String, empty: &mut u32| {
                if *empty > 0 {
                    out.push_str(&empty.to_string());
                    *empty = 0;
                }
            };
            let mut digits = 0u32;
            let cells = row.chars().chain(core::iter::once('/'));
            for c in cells {
                if let Some(d) = c.to_digit(10) {
                    digits = digits * 10 + d;
                    continue;
                }
                // A run of empty squares, each seen or not.
                for _ in 0..digits {
                    let sq = WideSquare::at(u32::from(rank) * STRIDE + file);
                    if seen & sq.bit() != 0 {
                        empty += 1;
                    } else {
                        flush(&mut out, &mut empty);
                        out.push('?');
                    }
                    file += 1;
                }
                digits = 0;
                if c == '/' {
                    break;
                }
                let sq = WideSquare::at(u32::from(rank) * STRIDE + file);
                flush(&mut out, &mut empty);
                out.push(if seen & sq.bit() != 0 { c } else { '?' });
                file += 1;
            }
            flush(&mut out, &mut empty);
        }
        let own: String = castling
            .chars()
            .filter(|c| match viewer {
                Some(Color::White) => c.is_ascii_uppercase(),
                Some(Color::Black) => c.is_ascii_lowercase(),
                None => false,
            })
            .collect();
        let ep = match self.ep {
            Some(sq) if Some(self.turn) == viewer => sq.to_string(),
            _ => "-".to_owned(),
        };
        format!(
            "{out} {turn} {} {ep}",
            if own.is_empty() { "-" } else { &own }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::WideVariant;
    use super::*;

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Dark, fen).unwrap()
    }

    /// GAMES.md's example: White at the start sees its two ranks, the squares its pawns and
    /// knights reach, and nothing of Black's half.
    #[test]
    fn the_start_as_white_sees_it() {
        let p = WidePosition::new(WideVariant::Dark);
        assert_eq!(
            p.fog_fen(Color::White),
            "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -"
        );
        assert_eq!(
            p.fog_fen(Color::Black),
            "rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? w kq -"
        );
    }

    /// Rule 3: the squares in front of a pawn and its forward diagonals are seen even when the
    /// pawn cannot move there (blocked ahead, nothing to take on the diagonals).
    #[test]
    fn a_pawn_sees_ahead_and_diagonally() {
        // The white pawn on e4 is blocked by the black pawn on e5: it sees e5, d5 and f5.
        let p = pos("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1");
        let seen = p.visible_to(Color::White);
        for sq in ["e5", "d5", "f5"] {
            let sq: WideSquare = sq.parse().unwrap();
            assert!(seen & sq.bit() != 0, "{sq}");
        }
        let d6: WideSquare = "d6".parse().unwrap();
        assert_eq!(seen & d6.bit(), 0);
    }

    /// Rule 2: a capture reveals the enemy piece taken; a slider sees up to and including the
    /// first piece in its way, nothing behind it.
    #[test]
    fn moves_reveal_their_targets() {
        let p = pos("3qk3/8/8/8/8/3n4/8/3RK3 w - - 0 1");
        // The rook on d1 sees a1-c1, d2 and d3 (the knight it may take), not d4 and beyond;
        // the king sees d2, e2, f2 and f1.
        assert_eq!(
            p.fog_fen(Color::White),
            "????????/????????/????????/????????/????????/???n????/???3??/3RK1?? w - -"
        );
    }

    /// The en passant victim is not revealed by rule 2, and the en passant square is written
    /// only for the side that may take there.
    #[test]
    fn en_passant_shows_the_destination_only() {
        // Black just played d7d5; White's e5 pawn may take on d6.
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let white = p.fog_fen(Color::White);
        assert!(white.ends_with(" w - d6"), "{white}");
        // Black, not to move, is given no en passant square.
        assert!(p.fog_fen(Color::Black).ends_with(" w - -"));
        // The pawn on d5 that the capture would take stays unseen: no rule reaches d5.
        let d5: WideSquare = "d5".parse().unwrap();
        assert_eq!(p.visible_to(Color::White) & d5.bit(), 0, "{white}");
    }

    /// The side not to move sees by the moves it would have: castling destinations included,
    /// and its own castling rights only.
    #[test]
    fn castling_destinations_are_seen() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let black = p.fog_fen(Color::Black);
        assert!(black.starts_with("r3k2r/"), "{black}");
        assert!(black.ends_with(" w kq -"), "{black}");
        let seen = p.visible_to(Color::Black);
        for sq in ["c8", "g8"] {
            let sq: WideSquare = sq.parse().unwrap();
            assert!(seen & sq.bit() != 0, "{sq}");
        }
    }

    /// A spectator of a game in play is shown no square and no right, only whose turn it is.
    #[test]
    fn a_spectator_sees_no_square() {
        let p = pos("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2");
        assert_eq!(
            p.blind_fen(),
            "????????/????????/????????/????????/????????/????????/????????/???????? w - -"
        );
    }
}
