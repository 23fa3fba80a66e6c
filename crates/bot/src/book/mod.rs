//! Polyglot opening books (`--book FILE`): a file of 16-byte entries (key, move, weight,
//! learn; big-endian), sorted by key. Lookups binary-search the file in place, so a book of
//! any size costs no memory; a lookup is a few small reads.
//!
//! Only standard chess positions are looked up (the variant table says which variants may use
//! a book). A book move is only a proposal: the server judges it, and an illegal one (a hash
//! collision, a corrupt book) makes the bot leave the book for the rest of the game.

pub mod key;

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::board::{PieceLetter, Role, Square, UciMove};
use crate::fen;

/// Bytes per entry.
const ENTRY: u64 = 16;

/// How a move is picked among a position's book moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BookChoice {
    /// At random, in proportion to the weights (varied openings).
    #[default]
    Weighted,
    /// Always the move of the highest weight.
    Best,
}

/// An open book.
#[derive(Debug)]
pub struct Book {
    file: File,
    entries: u64,
    path: PathBuf,
}

/// Why a book cannot be used.
#[derive(Debug)]
pub enum BookError {
    Io {
        path: PathBuf,
        error: io::Error,
    },
    /// The size is not a whole number of entries.
    NotABook {
        path: PathBuf,
        size: u64,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "book {}: {error}", path.display()),
            BookError::NotABook { path, size } => write!(
                f,
                "book {}: not a polyglot book (its size, {size} bytes, is not a multiple of 16)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// One entry's move and weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: UciMove,
    pub weight: u16,
}

impl Book {
    /// Opens `path` and checks that it has the shape of a book.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let io = |error| BookError::Io {
            path: path.to_owned(),
            error,
        };
        let file = File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size % ENTRY != 0 {
            return Err(BookError::NotABook {
                path: path.to_owned(),
                size,
            });
        }
        Ok(Book {
            file,
            entries: size / ENTRY,
            path: path.to_owned(),
        })
    }

    /// The book's file, for logs.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn entry(&mut self, index: u64) -> io::Result<(u64, u16, u16)> {
        let mut buf = [0u8; ENTRY as usize];
        self.file.seek(SeekFrom::Start(index * ENTRY))?;
        self.file.read_exact(&mut buf)?;
        let key = u64::from_be_bytes(buf[0..8].try_into().expect("8 bytes"));
        let mv = u16::from_be_bytes([buf[8], buf[9]]);
        let weight = u16::from_be_bytes([buf[10], buf[11]]);
        Ok((key, mv, weight))
    }

    /// The moves the book holds for `fen` reached by `last_move`, weight zero left out.
    pub fn moves(&mut self, fen: &str, last_move: Option<&str>) -> io::Result<Vec<BookMove>> {
        let Some(key) = key::key(fen, last_move) else {
            return Ok(Vec::new());
        };
        let Some(board) = fen::board(fen) else {
            return Ok(Vec::new());
        };
        // The first entry whose key is not below `key`.
        let (mut low, mut high) = (0, self.entries);
        while low < high {
            let mid = low + (high - low) / 2;
            if self.entry(mid)?.0 < key {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        let mut found = Vec::new();
        let mut index = low;
        // A position with more moves than this is a corrupt book, not an opening.
        while index < self.entries && found.len() < 256 {
            let (k, raw, weight) = self.entry(index)?;
            if k != key {
                break;
            }
            index += 1;
            if weight == 0 {
                continue;
            }
            if let Some(mv) = decode(raw, &board) {
                found.push(BookMove { mv, weight });
            }
        }
        Ok(found)
    }
}

/// Picks one of `moves` (`random` is a uniform random number).
#[must_use]
pub fn choose(moves: &[BookMove], how: BookChoice, random: u64) -> Option<UciMove> {
    match how {
        BookChoice::Best => moves.iter().max_by_key(|m| m.weight).map(|m| m.mv),
        BookChoice::Weighted => {
            let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
            if total == 0 {
                return None;
            }
            let mut pick = random % total;
            for m in moves {
                let w = u64::from(m.weight);
                if pick < w {
                    return Some(m.mv);
                }
                pick -= w;
            }
            None
        }
    }
}

/// A book move as UCI: polyglot writes castling as the king taking its rook (`e1h1`), which
/// standard chess UCI writes as the king's two-square step (`e1g1`). `None` for the null move.
fn decode(raw: u16, board: &fen::Board) -> Option<UciMove> {
    let square = |bits: u16| Square::new((bits & 7) as u8, ((bits >> 3) & 7) as u8);
    let to = square(raw)?;
    let from = square(raw >> 6)?;
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    if from == to {
        return None;
    }
    let king_on_start = board[from.index()].is_some_and(|p| p.role == Role::King)
        && from.file() == 4
        && (from.rank() == 0 || from.rank() == 7);
    let to = match to.file() {
        7 if king_on_start && to.rank() == from.rank() => Square::new(6, to.rank())?,
        0 if king_on_start && to.rank() == from.rank() => Square::new(2, to.rank())?,
        _ => to,
    };
    Some(UciMove::Normal {
        from,
        to,
        promotion: promotion.map(PieceLetter::of),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tempfile;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn raw(from: &str, to: &str, promo: u16) -> u16 {
        let sq = |s: &str| {
            let b = s.as_bytes();
            u16::from(b[0] - b'a') | (u16::from(b[1] - b'1') << 3)
        };
        sq(to) | (sq(from) << 6) | (promo << 12)
    }

    fn write_book(entries: &[(u64, u16, u16)]) -> tempfile::TempPath {
        let mut sorted = entries.to_vec();
        sorted.sort_by_key(|e| e.0);
        let mut bytes = Vec::new();
        for (k, m, w) in sorted {
            bytes.extend_from_slice(&k.to_be_bytes());
            bytes.extend_from_slice(&m.to_be_bytes());
            bytes.extend_from_slice(&w.to_be_bytes());
            bytes.extend_from_slice(&0u32.to_be_bytes());
        }
        tempfile::write(&bytes)
    }

    /// A lookup finds exactly the entries of the position's key, skips zero weights, and
    /// turns castling from king-takes-rook into the two-square step.
    #[test]
    fn lookup_and_castling() {
        let start = key::key(START, None).unwrap();
        let castle_fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let castle = key::key(castle_fen, None).unwrap();
        let path = write_book(&[
            (start, raw("e2", "e4", 0), 10),
            (start, raw("d2", "d4", 0), 5),
            (start, raw("a2", "a3", 0), 0),
            (castle, raw("e1", "h1", 0), 3),
            (castle, raw("e1", "a1", 0), 2),
            (1, raw("g1", "f3", 0), 7),
            (u64::MAX, raw("b1", "c3", 0), 7),
        ]);
        let mut book = Book::open(&path).unwrap();
        let moves = book.moves(START, None).unwrap();
        let texts: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(texts.len(), 2);
        assert!(texts.contains(&"e2e4".to_owned()) && texts.contains(&"d2d4".to_owned()));
        let castles: Vec<String> = book
            .moves(castle_fen, None)
            .unwrap()
            .iter()
            .map(|m| m.mv.to_string())
            .collect();
        assert_eq!(castles.len(), 2);
        assert!(castles.contains(&"e1g1".to_owned()) && castles.contains(&"e1c1".to_owned()));
        let other = "8/8/8/8/8/8/8/K6k w - - 0 1";
        assert!(book.moves(other, None).unwrap().is_empty());
    }

    /// A promotion's piece is read from its three bits.
    #[test]
    fn promotion_decoding() {
        let board = fen::board("8/4P3/8/8/8/8/8/K6k w - - 0 1").unwrap();
        assert_eq!(
            decode(raw("e7", "e8", 4), &board).unwrap().to_string(),
            "e7e8q"
        );
        assert_eq!(
            decode(raw("e7", "e8", 1), &board).unwrap().to_string(),
            "e7e8n"
        );
        assert_eq!(decode(0, &board), None);
    }

    /// Weighted choice follows the weights; best takes the heaviest.
    #[test]
    fn choosing() {
        let m = |t: &str, weight| BookMove {
            mv: t.parse().unwrap(),
            weight,
        };
        let moves = [m("e2e4", 3), m("d2d4", 1)];
        assert_eq!(
            choose(&moves, BookChoice::Best, 0).unwrap().to_string(),
            "e2e4"
        );
        let picks: Vec<String> = (0..4)
            .map(|r| choose(&moves, BookChoice::Weighted, r).unwrap().to_string())
            .collect();
        assert_eq!(picks, ["e2e4", "e2e4", "e2e4", "d2d4"]);
        assert_eq!(choose(&[], BookChoice::Weighted, 0), None);
    }

    /// A file whose size is not a whole number of entries is refused with its size.
    #[test]
    fn not_a_book() {
        let path = tempfile::write(&[0u8; 17]);
        let err = Book::open(&path).unwrap_err().to_string();
        assert!(err.contains("17 bytes"), "{err}");
    }
}
