//! The xiangqi family: Chinese chess on its 9x10 board of points, exactly as GAMES.md section 4
//! gives it, with Fairy-Stockfish (`xiangqi`) as the oracle for moves, FEN and perft. A third
//! engine beside the 8x8 one and `wide`, sharing only `Color`, `Outcome`, `Termination` and
//! the game record (`Game`, through `Family`).
//!
//! Layout, bottom to top:
//! - `square`: `XiangqiSquare` and the 9x10 numbering (`rank * 9 + file`, 90 bits of a
//!   `u128`). `role`: `XiangqiRole`, `XiangqiPiece`. `attacks`: compile-time tables (the
//!   palaces, the horse with its legs, the elephant with its eyes, soldiers) and the slider
//!   scans (chariot, cannon screens).
//! - `position`: `XiangqiPosition`, attacks on a point and playing a move. `movegen`: legal
//!   moves and perft. `fen`: FEN both ways and the checks of a position. `mv`: `XiangqiMove`
//!   and its text `XiangqiUci`. `end`: what the board alone decides (mate, stalemate loses,
//!   dead position). `repetition`: what the history decides (perpetual check and chase, the
//!   no-capture rule), a pure function over the positions since the last capture. `wxf`: WXF
//!   notation (`C2.5`, `+R-1`), the family's SAN, both ways.
//! - `family`: what the game record (`Game<XiangqiPosition>`, `XiangqiGame`) needs.
//!
//! ```
//! use chessd_rules::xiangqi::XiangqiPosition;
//!
//! let mut pos = XiangqiPosition::new();
//! assert_eq!(pos.perft(2), 1920);
//! pos.play("h3e3").unwrap();
//! assert_eq!(
//!     pos.fen(),
//!     "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
//! );
//! assert!(pos.play("e10e8").is_err());
//! ```

mod attacks;
mod end;
mod family;
mod fen;
mod movegen;
mod mv;
mod position;
mod repetition;
mod role;
mod square;
mod wxf;

pub use family::{XiangqiGame, XiangqiStart};
pub use fen::XiangqiFenError;
pub use movegen::{MAX_MOVES, XiangqiMoves};
pub use mv::{XiangqiMove, XiangqiUci, XiangqiUciError};
pub use position::{START_FEN, XiangqiPosition};
pub use repetition::{FREE_CHECKS, NO_CAPTURE_PLIES, history_outcome};
pub use role::{XiangqiPiece, XiangqiRole};
pub use square::{ParseXiangqiSquareError, XiangqiSquare};
pub use wxf::{parse_wxf, wxf};

impl XiangqiPosition {
    /// Plays a move given as text (`h3e3`); an illegal or malformed one changes nothing.
    pub fn play(&mut self, text: &str) -> Result<XiangqiMove, XiangqiUciError> {
        let m = text.parse::<XiangqiUci>()?.to_move(self)?;
        self.play_unchecked(m);
        Ok(m)
    }
}
