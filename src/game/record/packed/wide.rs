//! A wide-family move as the packed record keeps it: its UCI text's parts as codes, not
//! letters. Two bytes for the squares (the 12x10 numbering needs seven bits a square) and two
//! flags; a byte more for an Ambiguous Chess mark, one for a promotion, a drop or a turn that
//! only marks, one for a draw of chance (Dice Chess's roll, the Behemoth's step).
//!
//! The bytes, in order:
//! - two, little-endian: bits 0-6 the destination, 7-13 the origin (as `WideUci` gives them:
//!   a drop's square twice, a castling king's landing square where the game writes it so),
//!   bit 14 the mark byte follows, bit 15 the chance byte follows;
//! - the mark byte: bits 0-6 the marked square, or [`NO_MARK`]; bit 7 the letter byte follows;
//! - the letter byte: bits 0-4 the promotion's or drop's letter (1 `a` to 26 `z`, 0 none),
//!   bit 5 a drop (its letter upper-case), bit 6 a turn that executes nothing;
//! - the chance byte: a face less one (0 to 5), or six plus the step's place among
//!   `BehemothStep::all()`.
//!
//! An Ambiguous Chess turn's forced move (`=e2e4`) is left out: the mark decides it, and the
//! text without it names the same turn. A move is read back as its text is, through
//! `WideUci::to_move` on the position before it, so it is checked as legal there.

use chessd_rules::wide::{BehemothStep, Face, Nature, WideMove, WidePosition, WideSquare, WideUci};

use super::take_byte;

/// The mark byte's value for a move that marks nothing.
const NO_MARK: u8 = 0x7f;
const MARK_FOLLOWS: u16 = 1 << 14;
const CHANCE_FOLLOWS: u16 = 1 << 15;
const LETTER_FOLLOWS: u8 = 1 << 7;
const DROP: u8 = 1 << 5;
const MARK_ONLY: u8 = 1 << 6;
/// Chance codes below this are a die's faces, less one.
const FIRST_STEP: u8 = 6;

/// Writes `uci` (a move's text in its game: `WideMove::uci_in`).
pub(super) fn pack(uci: WideUci, out: &mut Vec<u8>) {
    let letter = match (uci.promotion, uci.drop) {
        (Some(c), _) => letter_code(c.to_ascii_lowercase()),
        (None, Some(c)) => letter_code(c.to_ascii_lowercase()) | DROP,
        (None, None) => 0,
    } | if uci.executes { 0 } else { MARK_ONLY };
    let extras = uci.mark.is_some() || letter != 0;
    let base = uci.to.index() as u16
        | (uci.from.index() as u16) << 7
        | if extras { MARK_FOLLOWS } else { 0 }
        | if uci.nature.is_some() {
            CHANCE_FOLLOWS
        } else {
            0
        };
    out.extend_from_slice(&base.to_le_bytes());
    if extras {
        let mark = uci.mark.map_or(NO_MARK, |s| s.index() as u8);
        out.push(mark | if letter != 0 { LETTER_FOLLOWS } else { 0 });
        if letter != 0 {
            out.push(letter);
        }
    }
    if let Some(nature) = uci.nature {
        out.push(chance_code(nature));
    }
}

/// The move [`pack`] wrote, legal in `before`.
pub(super) fn unpack(bytes: &mut &[u8], before: &WidePosition) -> Result<WideMove, String> {
    let uci = read(bytes)?;
    uci.to_move(before).map_err(|e| e.to_string())
}

/// The text [`pack`] wrote, without its forced move.
fn read(bytes: &mut &[u8]) -> Result<WideUci, String> {
    let base = u16::from_le_bytes([take_byte(bytes)?, take_byte(bytes)?]);
    let square = |index: u16| {
        WideSquare::from_index((index & 0x7f) as u8).ok_or_else(|| format!("square {index}"))
    };
    let mut uci = WideUci {
        from: square(base >> 7)?,
        to: square(base)?,
        promotion: None,
        drop: None,
        nature: None,
        mark: None,
        executes: true,
        forced: None,
    };
    if base & MARK_FOLLOWS != 0 {
        let mark = take_byte(bytes)?;
        if mark & !LETTER_FOLLOWS != NO_MARK {
            uci.mark = Some(square(u16::from(mark))?);
        }
        if mark & LETTER_FOLLOWS != 0 {
            let letter = take_byte(bytes)?;
            uci.executes = letter & MARK_ONLY == 0;
            match letter & 0x1f {
                0 => {}
                n @ 1..=26 if letter & DROP != 0 => uci.drop = Some((b'A' + n - 1) as char),
                n @ 1..=26 => uci.promotion = Some((b'a' + n - 1) as char),
                n => return Err(format!("letter {n}")),
            }
        }
    }
    if base & CHANCE_FOLLOWS != 0 {
        let code = take_byte(bytes)?;
        uci.nature = Some(if code < FIRST_STEP {
            Nature::Roll(Face::from_number(code + 1).ok_or("a face")?)
        } else {
            Nature::Step(
                BehemothStep::all()
                    .nth(usize::from(code - FIRST_STEP))
                    .ok_or_else(|| format!("step {code}"))?,
            )
        });
    }
    Ok(uci)
}

/// 1 for `a` to 26 for `z`; 0 (none) for anything else, which no game's letters are.
fn letter_code(c: char) -> u8 {
    if c.is_ascii_lowercase() {
        c as u8 - b'a' + 1
    } else {
        0
    }
}

fn chance_code(nature: Nature) -> u8 {
    match nature {
        Nature::Roll(face) => face.number() - 1,
        Nature::Step(step) => {
            FIRST_STEP + BehemothStep::all().position(|s| s == step).unwrap_or(0) as u8
        }
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::any::{AnyMove, AnyPosition, AnyVariant};
    use chessd_rules::wide::{WideUci, WideVariant};

    use super::*;

    /// Reads back what `pack` wrote and checks nothing is left over.
    fn round_trip(uci: WideUci) -> (WideUci, usize) {
        let mut out = Vec::new();
        pack(uci, &mut out);
        let mut bytes = &out[..];
        let back = read(&mut bytes).unwrap();
        assert!(bytes.is_empty(), "{uci}: bytes left");
        (back, out.len())
    }

    /// Every part of a move's text comes back, in the bytes the module promises: a plain
    /// move in two, each of a mark, a letter and a draw a byte more; a forced move is left
    /// out, since the mark decides it.
    #[test]
    fn every_part_of_the_text_comes_back() {
        for (text, len) in [
            ("a10l1", 2),
            ("e2e4", 2),
            ("b9b10q", 4),
            ("e7e8c", 4),
            ("P@e5", 4),
            ("J@a10", 4),
            ("e2e4~3", 3),
            ("a7a8q~SE4", 5),
            ("h2h3~NW4", 3),
            ("g1f3>d5", 3),
            (">e4", 4),
            ("b2b1q>c5", 4),
        ] {
            let uci: WideUci = text.parse().unwrap();
            let (back, bytes) = round_trip(uci);
            assert_eq!((back.to_string().as_str(), bytes), (text, len));
        }
        let forced: WideUci = "e7e5>d4=e3d4".parse().unwrap();
        assert_eq!(round_trip(forced).0.to_string(), "e7e5>d4");
    }

    /// Cut-short bytes and codes no move has are refused, not a panic.
    #[test]
    fn damaged_bytes_are_refused() {
        let mut out = Vec::new();
        pack("b2b1q>c5".parse().unwrap(), &mut out);
        for len in 0..out.len() {
            assert!(read(&mut &out[..len]).is_err(), "{len} bytes");
        }
        assert!(read(&mut &[0x7f, 0][..]).is_err(), "square 127");
        assert!(read(&mut &[0, 0x80, 38][..]).is_err(), "chance code 38");
        assert!(read(&mut &[0, 0x40, 0x80, 27][..]).is_err(), "letter 27");
    }

    /// Along random games of every wide game, each legal move (with each draw of chance
    /// that may follow it) reads back as itself from the position before it.
    #[test]
    fn legal_moves_read_back_as_themselves() {
        let mut checked = 0;
        for variant in WideVariant::ALL {
            let mut position = AnyPosition::new(AnyVariant::Wide(variant));
            for ply in 0..24usize {
                let AnyPosition::Wide(before) = &mut position else {
                    unreachable!()
                };
                if let Some(&face) = before
                    .rollable_faces()
                    .first()
                    .filter(|_| before.awaits_roll())
                {
                    before.set_roll(face).unwrap();
                }
                let before = *before;
                let legal = position.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &m in &legal {
                    let AnyMove::Wide(_, wide) = m else {
                        unreachable!()
                    };
                    let mut out = Vec::new();
                    pack(wide.uci_in(variant), &mut out);
                    let back = unpack(&mut &out[..], &before).unwrap();
                    assert_eq!(back, wide, "{variant} {}: {m}", before.fen());
                    checked += 1;
                }
                let pick = legal[(ply * 7919 + legal.len() / 2) % legal.len()];
                position.play_unchecked(pick);
            }
        }
        assert!(checked > 10_000, "{checked} moves checked");
    }
}
