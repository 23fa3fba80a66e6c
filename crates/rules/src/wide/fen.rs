//! FEN of the wide family, read and written as Fairy-Stockfish does: digits may exceed 8
//! (`10`), pieces use the game's letters, castling is `KQkq` or X-FEN file letters (`JAja`,
//! what Fairy-Stockfish prints for Capablanca Random), the half-move and move counters may be
//! left out. Reading validates the position; every refusal names what is wrong.

use core::fmt;

use super::dice::Face;
use super::position::{KING_SIDE, QUEEN_SIDE, WidePosition};
use super::role::{WidePiece, WideRole};
use super::square::WideSquare;
use super::variant::{Chance, End, Site, WideVariant};
use crate::Color;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WideFenError {
    /// The board field is malformed: the reason says where.
    Board(String),
    Turn(String),
    Castling(String),
    EnPassant(String),
    Counter(String),
    /// More fields than the game has.
    Trailing(String),
    /// The seventh field of a game of chance: Dice Chess's roll, Behemoth's awaited step.
    Chance(String),
    /// The fields parse but the position breaks a rule of the game.
    Position(&'static str),
}

impl fmt::Display for WideFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WideFenError::Board(why) => write!(f, "invalid fen board: {why}"),
            WideFenError::Turn(s) => write!(f, "invalid fen side to move {s:?} (expected w or b)"),
            WideFenError::Castling(why) => write!(f, "invalid fen castling rights: {why}"),
            WideFenError::EnPassant(why) => write!(f, "invalid fen en passant square: {why}"),
            WideFenError::Counter(s) => write!(f, "invalid fen move counter {s:?}"),
            WideFenError::Trailing(s) => write!(f, "unexpected text after the fen: {s:?}"),
            WideFenError::Chance(why) => write!(f, "invalid fen chance field: {why}"),
            WideFenError::Position(why) => write!(f, "invalid position: {why}"),
        }
    }
}

impl std::error::Error for WideFenError {}

/// The largest move counter a FEN may give, as the 8x8 engine's.
const MAX_COUNTER: u32 = u16::MAX as u32;

impl WidePosition {
    /// The position a FEN of `variant` describes.
    pub fn from_fen(variant: WideVariant, fen: &str) -> Result<WidePosition, WideFenError> {
        let def = variant.def();
        let mut pos = WidePosition::empty(def);
        let mut fields = fen.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| WideFenError::Board("empty fen".into()))?;
        let board = read_hand(&mut pos, board)?;
        read_board(&mut pos, board)?;
        pos.turn = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => return Err(WideFenError::Turn(other.into())),
        };
        // Cheshire Cat's kings' queen-move rights come before the check test, which they
        // change: read the third field now (and again below, where it is validated).
        if def.site == Site::CheshireCat {
            let mut ahead = fen.split_whitespace().skip(2);
            read_fresh_kings(&mut pos, ahead.next().unwrap_or("-"))?;
        }
        validate_pieces(&pos)?;
        pos.extinct = match pos.def.end {
            End::Extinction => pos.is_extinct(Color::White) || pos.is_extinct(Color::Black),
            // A finished Ice Age game: a king froze.
            End::IceAge => Color::ALL.into_iter().any(|c| pos.royal(c).is_none()),
            // A finished king-capture game: a side has lost its last king.
            End::KingCapture => Color::ALL
                .into_iter()
                .any(|c| pos.pieces(c, WideRole::King) == 0),
            _ => false,
        };
        let castling = fields.next().unwrap_or("-");
        let ep = fields.next().unwrap_or("-");
        match def.site {
            Site::CheshireCat => {
                read_fresh_kings(&mut pos, castling)?;
                read_ep(&mut pos, ep)?;
                // No en passant across a vanished square.
                if pos.ep.is_some_and(|sq| pos.vanished & sq.bit() != 0) {
                    pos.ep = None;
                    pos.ep_victim = None;
                }
            }
            // Knight Relay has no en passant: a square in the field is accepted and ignored.
            Site::KnightRelay => read_castling(&mut pos, castling)?,
            _ if def.targets => {
                read_castling(&mut pos, castling)?;
                // The seventh field comes first: with a target pending, the square belongs to
                // the pawns of the player who marked it, the side not to move.
                let pending = fen.split_whitespace().nth(6).unwrap_or("-");
                pos.pending = read_pending(pending)?;
                if pos.pending.is_some() {
                    pos.turn = !pos.turn;
                    read_ep(&mut pos, ep)?;
                    pos.turn = !pos.turn;
                } else {
                    read_ep(&mut pos, ep)?;
                }
            }
            _ => {
                read_castling(&mut pos, castling)?;
                read_ep(&mut pos, ep)?;
            }
        }
        for (i, field) in fields.by_ref().take(2).enumerate() {
            // Larger values are typos, not games, and would overflow as moves are played.
            let n = field
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= MAX_COUNTER)
                .ok_or_else(|| WideFenError::Counter(field.into()))?;
            if i == 0 {
                pos.halfmoves = n;
            } else {
                pos.fullmoves = n.max(1);
            }
        }
        if def.chance != Chance::None
            && let Some(field) = fields.next()
        {
            read_chance(&mut pos, field)?;
        }
        if def.targets {
            // Read above; checked now that the whole position is known.
            fields.next();
            pos.check_pending()
                .map_err(|why| WideFenError::Chance(why.to_string()))?;
        }
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(WideFenError::Trailing(rest.join(" ")));
        }
        Ok(pos)
    }

    /// The position's FEN, in Fairy-Stockfish's form (castling as `KQkq` where the outermost
    /// rook castles, else the rook's file letter).
    #[must_use]
    pub fn fen(&self) -> String {
        let def = self.def;
        let mut out = String::new();
        for rank in (0..def.height).rev() {
            let mut empty = 0;
            for file in 0..def.width {
                let sq = WideSquare::at(u32::from(rank) * 12 + u32::from(file));
                match self.piece_at(sq) {
                    None if (self.vanished | self.ice | self.behemoth) & sq.bit() != 0 => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out.push('*');
                    }
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        let letter = def.letters[p.role.index()] as char;
                        out.push(if p.color == Color::White {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if def.drops {
            out.push('[');
            for color in Color::ALL {
                // Written Q, R, B, N, P (GAMES.md's order), White's first.
                for role in [
                    WideRole::Queen,
                    WideRole::Rook,
                    WideRole::Bishop,
                    WideRole::Knight,
                    WideRole::Pawn,
                ] {
                    let letter = def.letters[role.index()] as char;
                    let letter = if color == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    for _ in 0..self.hands[color.index()][role.index()] {
                        out.push(letter);
                    }
                }
            }
            out.push(']');
        }
        out.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        let mut rights = String::new();
        if def.site == Site::CheshireCat {
            for (color, letter) in [(Color::White, 'K'), (Color::Black, 'k')] {
                if self.fresh_kings[color.index()] {
                    rights.push(letter);
                }
            }
        }
        for color in Color::ALL {
            for side in [KING_SIDE, QUEEN_SIDE] {
                let Some(rook) = self.castles[color.index()][side] else {
                    continue;
                };
                let letter = if self.outermost_rook(color, side) == Some(rook) {
                    if side == KING_SIDE { 'K' } else { 'Q' }
                } else {
                    (b'A' + rook.file()) as char
                };
                rights.push(if color == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
        out += if rights.is_empty() { "-" } else { &rights };
        let ep = if def.targets && self.pending.is_some() {
            // The square is the marking player's: written as that player's position has it.
            let mut theirs = *self;
            theirs.turn = !theirs.turn;
            theirs.written_ep()
        } else {
            self.written_ep()
        };
        match ep {
            Some(ep) => out += &format!(" {ep}"),
            None => out += " -",
        }
        out += &format!(" {} {}", self.halfmoves, self.fullmoves);
        match def.chance {
            Chance::Dice => match self.roll {
                Some(face) => out += &format!(" {face}"),
                None => out += " -",
            },
            Chance::Behemoth if self.step_pending => out += " ~",
            Chance::Behemoth if self.destroyed => out += " x",
            _ => {}
        }
        if def.targets {
            match self.pending {
                Some(sq) => out += &format!(" {sq}"),
                None => out += " -",
            }
        }
        out
    }

    /// The rook farthest from `color`'s king on `side` of it, on the back rank.
    fn outermost_rook(&self, color: Color, side: usize) -> Option<WideSquare> {
        let king = self.castling_king(color)?.bit();
        let rank = self.def.back_rank(color);
        let rooks = self.pieces(color, WideRole::Rook) & super::square::rank_mask(rank);
        if king & super::square::rank_mask(rank) == 0 {
            return None;
        }
        let below_king = king - 1;
        if side == KING_SIDE {
            let r = rooks & !below_king & !king;
            (r != 0).then(|| WideSquare::at(127 - r.leading_zeros()))
        } else {
            let r = rooks & below_king;
            (r != 0).then(|| WideSquare::at(r.trailing_zeros()))
        }
    }
}

/// Loop Chess: the hands after the board (`...RNBQKBNR[Qp]`, any order, `[]` when empty), or
/// none; returns the board without them. Other games refuse a hand.
fn read_hand<'a>(pos: &mut WidePosition, board: &'a str) -> Result<&'a str, WideFenError> {
    let Some((board, hand)) = board.split_once('[') else {
        return Ok(board);
    };
    if !pos.def.drops {
        return Err(WideFenError::Board(format!("{} has no hands", pos.def.key)));
    }
    let hand = hand
        .strip_suffix(']')
        .ok_or_else(|| WideFenError::Board(format!("unclosed hand [{hand}")))?;
    for c in hand.bytes() {
        let role = pos
            .def
            .role_of(c)
            .filter(|r| *r != WideRole::King)
            .ok_or_else(|| WideFenError::Board(format!("{:?} is no piece of a hand", c as char)))?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let count = &mut pos.hands[color.index()][role.index()];
        *count = count
            .checked_add(1)
            .filter(|&n| n <= 64)
            .ok_or_else(|| WideFenError::Board("too many pieces in hand".into()))?;
    }
    Ok(board)
}

fn read_board(pos: &mut WidePosition, board: &str) -> Result<(), WideFenError> {
    let def = pos.def;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != usize::from(def.height) {
        return Err(WideFenError::Board(format!(
            "{} ranks, {} has {}",
            rows.len(),
            def.key,
            def.height
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = def.height - 1 - i as u8;
        let too_wide = || {
            WideFenError::Board(format!(
                "rank {} ({row:?}) is not {} squares wide",
                rank + 1,
                def.width
            ))
        };
        let bytes = row.as_bytes();
        let (mut at, mut file) = (0, 0u8);
        while at < bytes.len() {
            let c = bytes[at];
            if c.is_ascii_digit() {
                let run = bytes[at..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let n: u8 = row[at..at + run]
                    .parse()
                    .ok()
                    .filter(|&n| n > 0 && c != b'0')
                    .ok_or_else(|| {
                        WideFenError::Board(format!("bad empty-square count in {row:?}"))
                    })?;
                file = file
                    .checked_add(n)
                    .filter(|&f| f <= def.width)
                    .ok_or_else(too_wide)?;
                at += run;
                continue;
            }
            // Ice Age's ice cube, Cheshire Cat's vanished square, the Behemoth.
            if c == b'*'
                && (def.ice || def.site == Site::CheshireCat || def.chance == Chance::Behemoth)
            {
                let sq = WideSquare::new(file, rank)
                    .filter(|_| file < def.width)
                    .ok_or_else(too_wide)?;
                if def.ice {
                    pos.ice |= sq.bit();
                } else if def.chance == Chance::Behemoth {
                    if pos.behemoth != 0 {
                        return Err(WideFenError::Board("more than one Behemoth (*)".into()));
                    }
                    pos.behemoth = sq.bit();
                } else {
                    pos.vanished |= sq.bit();
                }
                file += 1;
                at += 1;
                continue;
            }
            let role = def.role_of(c).ok_or_else(|| {
                WideFenError::Board(format!("{:?} is no piece of {}", c as char, def.key))
            })?;
            let sq = WideSquare::new(file, rank)
                .filter(|_| file < def.width)
                .ok_or_else(too_wide)?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.put(sq, WidePiece { color, role });
            file += 1;
            at += 1;
        }
        if file != def.width {
            return Err(too_wide());
        }
    }
    if def.chance == Chance::Behemoth && pos.behemoth == 0 {
        return Err(WideFenError::Board("the Behemoth (*) is missing".into()));
    }
    Ok(())
}

fn validate_pieces(pos: &WidePosition) -> Result<(), WideFenError> {
    let def = pos.def;
    for color in Color::ALL {
        // Ice Age: a king may have frozen, which ends the game.
        let kings = if def.ice { 0..=1 } else { 1..=1 };
        if let Some(royal) = def.royal[color.index()]
            && !kings.contains(&pos.pieces(color, royal).count_ones())
        {
            return Err(WideFenError::Position(if royal == WideRole::King {
                "each side needs exactly one king"
            } else {
                "each side needs exactly one royal piece"
            }));
        }
    }
    let first = |color: Color| {
        if def.first_rank_pawns[color.index()] {
            0
        } else {
            super::square::rank_mask(def.back_rank(color))
        }
    };
    let last = |color: Color| {
        let leaves = if def.pawns_leave {
            super::square::rank_mask(def.back_rank(!color)) & def.board
        } else {
            0
        };
        def.promotion_forced[color.index()] | leaves
    };
    if pos.pieces(Color::White, WideRole::Pawn) & (first(Color::White) | last(Color::White)) != 0
        || pos.pieces(Color::Black, WideRole::Pawn) & (first(Color::Black) | last(Color::Black))
            != 0
    {
        return Err(WideFenError::Position("a pawn on its first or last rank"));
    }
    let them = !pos.turn;
    if let Some(king) = pos.royal(them)
        && pos.attackers(king, pos.occupied(), pos.turn) != 0
    {
        return Err(WideFenError::Position("the side not to move is in check"));
    }
    // Screen Chess's start is the players' free placement, not a game's history: any
    // number of pieces may attack White's king there.
    let placed = matches!(def.variant, WideVariant::Screen | WideVariant::CrazyScreen);
    if !placed && pos.checkers().count_ones() > 2 {
        return Err(WideFenError::Position("more than two pieces give check"));
    }
    Ok(())
}

/// Cheshire Cat's third field: `K` or `k` while that king has not moved (and may move as a
/// queen), `-` for neither. The game has no castling: `Q` and `q` are accepted and ignored.
fn read_fresh_kings(pos: &mut WidePosition, field: &str) -> Result<(), WideFenError> {
    pos.fresh_kings = [false; 2];
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        match c {
            'K' => pos.fresh_kings[Color::White.index()] = true,
            'k' => pos.fresh_kings[Color::Black.index()] = true,
            'Q' | 'q' => {}
            _ => {
                return Err(WideFenError::Castling(format!(
                    "{c:?} is no king's right of cheshirecat (K, k or -)"
                )));
            }
        }
    }
    Ok(())
}

/// The seventh field of a game of chance: Dice Chess's roll, `-` before it, or a face that
/// can come up in the position; Behemoth's `~` (its step awaited) or `x` (its last step
/// destroyed a king).
fn read_chance(pos: &mut WidePosition, field: &str) -> Result<(), WideFenError> {
    if field == "-" {
        return Ok(());
    }
    if pos.def.chance == Chance::Behemoth {
        let kingless = Color::ALL
            .into_iter()
            .any(|c| pos.pieces(c, WideRole::King) == 0);
        match (field, kingless) {
            ("~", false) => pos.step_pending = true,
            ("x", true) => pos.destroyed = true,
            ("~" | "x", _) => {
                return Err(WideFenError::Chance(format!(
                    "{field}: {}",
                    if kingless {
                        "no step follows a captured king"
                    } else {
                        "no king was destroyed"
                    }
                )));
            }
            _ => {
                return Err(WideFenError::Chance(format!(
                    "{field:?} is no Behemoth state (~ a step awaited, x a king destroyed, -)"
                )));
            }
        }
        return Ok(());
    }
    let face: Face = field
        .parse()
        .map_err(|e: super::dice::ParseFaceError| WideFenError::Chance(e.to_string()))?;
    pos.set_roll(face)
        .map_err(|e| WideFenError::Chance(e.to_string()))
}

/// Ambiguous Chess's seventh field: the pending target, `-` when none.
fn read_pending(field: &str) -> Result<Option<WideSquare>, WideFenError> {
    if field == "-" {
        return Ok(None);
    }
    field
        .parse()
        .map(Some)
        .map_err(|_| WideFenError::Chance(format!("{field:?} is no target square (or -)")))
}

fn read_castling(pos: &mut WidePosition, field: &str) -> Result<(), WideFenError> {
    if field == "-" {
        return Ok(());
    }
    let Some(castling) = pos.def.castling else {
        return Err(WideFenError::Castling(format!(
            "{} has no castling",
            pos.def.key
        )));
    };
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = pos.def.back_rank(color);
        let Some(king) = pos.castling_king(color).filter(|k| k.rank() == rank) else {
            return Err(WideFenError::Castling(format!(
                "{c}: the king is not on its first rank"
            )));
        };
        let rook = match c.to_ascii_uppercase() {
            'K' => pos.outermost_rook(color, KING_SIDE),
            'Q' => pos.outermost_rook(color, QUEEN_SIDE),
            f @ 'A'..='L' => WideSquare::new(f as u8 - b'A', rank)
                .filter(|sq| pos.pieces(color, WideRole::Rook) & sq.bit() != 0),
            _ => {
                return Err(WideFenError::Castling(format!(
                    "{c:?} is no castling right"
                )));
            }
        }
        .ok_or_else(|| WideFenError::Castling(format!("{c}: no rook to castle with")))?;
        let side = if rook.file() > king.file() {
            KING_SIDE
        } else {
            QUEEN_SIDE
        };
        // A game with a fixed start castles only from it: the king on its file, the rook in
        // the corner.
        if !castling.king_takes_rook {
            let start = WidePosition::new_unchecked_start(pos.variant());
            if start.castling_king(color) != Some(king)
                || !(rook.file() == 0 || rook.file() == pos.def.width - 1)
            {
                return Err(WideFenError::Castling(format!(
                    "{c}: {} castles only from the start squares",
                    pos.def.key
                )));
            }
        }
        if pos.castles[color.index()][side].is_some_and(|r| r != rook) {
            return Err(WideFenError::Castling(format!(
                "{c}: two rights on one side"
            )));
        }
        pos.castles[color.index()][side] = Some(rook);
    }
    Ok(())
}

fn read_ep(pos: &mut WidePosition, field: &str) -> Result<(), WideFenError> {
    if field == "-" {
        return Ok(());
    }
    let ep: WideSquare = field
        .parse()
        .map_err(|_| WideFenError::EnPassant(format!("{field:?} is no square")))?;
    let us = pos.turn;
    let sign: i8 = if us == Color::White { -1 } else { 1 };
    // The square `(df, dr)` (White's sense, turned for Black) away from `sq`, on the board.
    let step = |sq: WideSquare, (df, dr): (i8, i8), k: i8| {
        let file = i16::from(sq.file()) + i16::from(df * sign * k);
        let rank = i16::from(sq.rank()) + i16::from(dr * sign * k);
        u8::try_from(file)
            .ok()
            .zip(u8::try_from(rank).ok())
            .and_then(|(f, r)| WideSquare::new(f, r))
            .filter(|sq| pos.def.board & sq.bit() != 0)
    };
    // The step of the side that just moved which skipped `ep`: its pawn left the square
    // before it and stands on the square after it.
    let via = pos.def.double_step_via[(!us).index()];
    let victim = pos.def.pawn.moves().iter().find_map(|&d| {
        let (origin, victim) = (step(ep, d, -1)?, step(ep, d, 1)?);
        (via & ep.bit() != 0
            && pos.occupied() & (ep.bit() | origin.bit()) == 0
            && pos.pieces(!us, WideRole::Pawn) & victim.bit() != 0)
            .then_some(victim)
    });
    let Some(victim) = victim else {
        return Err(WideFenError::EnPassant(format!(
            "{field}: no pawn of the side that just moved has skipped it"
        )));
    };
    // Kept only if a pawn can use it, as the position after the double step would have it.
    if pos.def.pawn_captures[(!us).index()][ep.index()] & pos.pieces(us, WideRole::Pawn) != 0 {
        pos.ep = Some(ep);
        pos.ep_victim = Some(victim);
    }
    Ok(())
}

impl WidePosition {
    /// `board`'s pieces alone, unchecked, White to move: for testing a start that no FEN may
    /// give (Screen Chess's decided at once).
    pub(crate) fn board_only(
        variant: WideVariant,
        board: &str,
    ) -> Result<WidePosition, WideFenError> {
        let mut pos = WidePosition::empty(variant.def());
        read_board(&mut pos, board)?;
        Ok(pos)
    }

    /// The start board only, for comparing a FEN's king and rooks with it.
    fn new_unchecked_start(variant: WideVariant) -> WidePosition {
        let def = variant.def();
        let mut pos = WidePosition::empty(def);
        let board = def.start.split(['[', ' ']).next().unwrap_or("");
        // The start FENs are constants of this crate and read in the tests.
        let _ = read_board(&mut pos, board);
        pos
    }
}
