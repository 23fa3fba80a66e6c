//! Playing a move on the 8x8 board, for perft: what `WidePosition::play_board` does to a
//! position of the four games (the tests hold the two to the same positions), with Ice Age's
//! refreeze and Cheshire Cat's vanishing squares.

use super::movegen::castling_targets;
use super::tables::{Bb, bit, king, pawn, rays, squares};
use super::{CHESHIRE, CYLINDER, ICE, KING, Narrow, NarrowMove, PAWN, ROOK};
use crate::Color;
use crate::wide::mv::WideMoveKind;

impl Narrow {
    /// The role standing on `sq`, taken off the board.
    #[inline(always)]
    fn remove(&mut self, sq: u32) -> Option<usize> {
        let b = bit(sq);
        if (self.colors[0] | self.colors[1]) & b == 0 {
            return None;
        }
        self.colors[0] &= !b;
        self.colors[1] &= !b;
        let role = self.roles.iter().position(|r| r & b != 0)?;
        self.roles[role] &= !b;
        Some(role)
    }

    #[inline(always)]
    fn put(&mut self, sq: u32, color: Color, role: usize) {
        self.colors[color.index()] |= bit(sq);
        self.roles[role] |= bit(sq);
    }

    /// Plays `m`, a legal move of game `G` here.
    pub(super) fn play_in<const G: u8>(&mut self, m: NarrowMove) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (u32::from(m.from), u32::from(m.to));
        let ep = self.ep.take();
        self.halfmoves += 1;
        if m.kind == WideMoveKind::Castle {
            let (king_to, rook_to) = castling_targets(from, to);
            self.remove(from);
            self.remove(to);
            self.put(king_to, us, KING);
            self.put(rook_to, us, ROOK);
            self.castles[us.index()] = [None; 2];
        } else {
            if G == ICE && self.ice & bit(to) != 0 {
                // Ice Age: taking ice is a capture for the fifty-move count (GAMES.md).
                self.ice ^= bit(to);
                self.halfmoves = 0;
            }
            if self.remove(to).is_some() {
                self.halfmoves = 0;
                for right in &mut self.castles[them.index()] {
                    if *right == Some(m.to) {
                        *right = None;
                    }
                }
            }
            let Some(role) = self.remove(from) else {
                return;
            };
            let rights = &mut self.castles[us.index()];
            match role {
                PAWN => {
                    self.halfmoves = 0;
                    match m.kind {
                        WideMoveKind::EnPassant => {
                            if let Some(ep) = ep {
                                let ep = u32::from(ep);
                                self.remove(if us == Color::White { ep - 8 } else { ep + 8 });
                            }
                        }
                        WideMoveKind::DoubleStep => {
                            // Only a square an enemy pawn can take on is kept: positions
                            // that differ by an unusable one are the same position.
                            let back = (from + to) / 2;
                            if pawn(G == CYLINDER, us, back) & self.pieces(them, PAWN) != 0 {
                                self.ep = Some(back as u8);
                            }
                        }
                        _ => {}
                    }
                }
                KING if from / 8 == if us == Color::White { 0 } else { 7 } => *rights = [None; 2],
                _ => {
                    for right in rights {
                        if *right == Some(m.from) {
                            *right = None;
                        }
                    }
                }
            }
            let role = m.promotion.map_or(role, |r| r.index());
            self.put(to, us, role);
        }
        if us == Color::Black {
            if G == ICE && self.fullmoves.is_multiple_of(20) {
                self.ice_age();
            }
            self.fullmoves += 1;
        }
        self.turn = them;
        if G == CHESHIRE {
            // The square left vanishes, a king that moved loses its queen move, and no en
            // passant crosses a vanished square.
            self.vanished |= bit(from);
            if self.pieces(us, KING) & bit(to) != 0 {
                self.fresh_kings[us.index()] = false;
            }
            if self
                .ep
                .is_some_and(|ep| self.vanished & bit(u32::from(ep)) != 0)
            {
                self.ep = None;
            }
        }
    }

    /// Ice Age's refreeze after a Black move whose number is a multiple of 20: the empty
    /// squares not enclosed by pieces and the isolated pieces become ice, both read on the
    /// board before either change. The twin of `WidePosition::ice_age` (`iceage.rs`, the
    /// service's), held to it by the tests' playouts past the 20th and 40th moves.
    #[cold]
    #[inline(never)]
    fn ice_age(&mut self) {
        let pieces = self.colors[0] | self.colors[1];
        let mut frost: Bb = 0;
        for sq in squares(!pieces & !self.ice) {
            let sides = king(false, sq) & rays(false, sq).0;
            if sides & !pieces != 0 {
                frost |= bit(sq);
            }
        }
        let isolated = squares(pieces)
            .filter(|&sq| king(false, sq) & pieces == 0)
            .fold(0, |bb, sq| bb | bit(sq));
        for sq in squares(isolated) {
            let color = if self.colors[0] & bit(sq) != 0 {
                Color::White
            } else {
                Color::Black
            };
            let Some(role) = self.remove(sq) else {
                continue;
            };
            let rights = &mut self.castles[color.index()];
            if role == KING {
                *rights = [None; 2];
            }
            for right in rights {
                if *right == Some(sq as u8) {
                    *right = None;
                }
            }
        }
        self.ice |= frost | isolated;
        if self.ep.is_some_and(|ep| self.ice & bit(u32::from(ep)) != 0) {
            self.ep = None;
        }
        if self.pieces(Color::White, KING) == 0 || self.pieces(Color::Black, KING) == 0 {
            self.extinct = true;
        }
    }
}
