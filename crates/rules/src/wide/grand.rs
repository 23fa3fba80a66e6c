//! Grand Chess (`grand`), as `GAMES.md` gives it:
//!
//! > 10x10: rooks on a1/j1, the other pieces on rank 2 (FEN `1NBQKCABN1`: marshal `C` on f2,
//! > cardinal `A` on g2), pawns on rank 3; Black mirrors on ranks 10, 9, 8.
//! > Pawns on their start rank may double-step; en passant applies. **No castling.**
//! > **Promotion** is optional on ranks 8 and 9 and compulsory on rank 10 (Black: 3, 2 / 1),
//! > and only to a piece type the player has lost, i.e. of which fewer are on the board than
//! > at the start (queen, marshal, cardinal: one each; rook, bishop, knight: two each). A pawn
//! > on rank 9 with nothing to promote to cannot advance to rank 10, but still gives check
//! > from there. Written `b9b10q`, `c9c10c`.

use super::role::WideRole;
use super::square::{board_mask, rank_mask};
use super::variant::{CAPABLANCA_LETTERS, Chance, End, GameDef, Pawn, Site, WideVariant};

const BOARD: u128 = board_mask(10, 10);

pub(crate) const DEF: GameDef = GameDef {
    variant: WideVariant::Grand,
    key: WideVariant::Grand.key(),
    width: 10,
    height: 10,
    board: BOARD,
    start: "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
    letters: CAPABLANCA_LETTERS,
    promotions: &super::capablanca::PROMOTIONS,
    // By `WideRole::index`: pawn, knight, bishop, rook, queen, king, archbishop, chancellor.
    promotion_limits: Some([0, 2, 2, 2, 1, 0, 1, 1, 0]),
    promotion_optional: [
        (rank_mask(7) | rank_mask(8)) & BOARD,
        (rank_mask(1) | rank_mask(2)) & BOARD,
    ],
    promotion_forced: [rank_mask(9) & BOARD, rank_mask(0) & BOARD],
    // Pawns start on ranks 3 and 8: the square after the first step is on rank 4 or 7.
    double_step_via: [rank_mask(3) & BOARD, rank_mask(6) & BOARD],
    castling: None,
    royal: [Some(WideRole::King); 2],
    castler: [WideRole::King; 2],
    must_capture: false,
    first_rank_pawns: [false; 2],
    end: End::Checkmate,
    pawn: Pawn::Chess,
    pawn_captures: super::attacks::CHESS_PAWN,
    drops: false,
    site: Site::None,
    narrow: None,
    self_capture: false,
    pawns_leave: false,
    ice: false,
    chance: Chance::None,
    targets: false,
};
