//! [`is_move_syntax`]: whether a text could be a move in some game chessd plays, checked at
//! the edge before any game reads it (the game then decides what it names).

/// Whether `text` is written like a move of some family: UCI (`e2e4`, `a10a9`, `P@e5`), SAN
/// (`Nf3`, `O-O`, `Ca10`), shogi's USI and Western notation (`7g7f`, `P*5e`, `Bx2b+`,
/// `S-4h=`), xiangqi's WXF (`C2.5`, `H8+7`, `+R-1`), or an Ambiguous Chess turn (`g1f3>d5`,
/// `>e4`, `bxa1=Q>c5=d4c5`). Only the alphabet and length are
/// checked: the game the move is played in reads it and refuses what it does not name.
#[must_use]
pub fn is_move_syntax(text: &str) -> bool {
    (2..=14).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"@*+-=.#x/>".contains(&b))
        && text.bytes().any(|b| b.is_ascii_digit() || b == b'O')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every family's notation passes; text no notation writes does not.
    #[test]
    fn notations_pass_and_junk_does_not() {
        for ok in [
            "e2e4",
            "a10a9",
            "P@e5",
            "Nf3",
            "O-O",
            "e8=Q+",
            "7g7f",
            "P*5e",
            "8h2b+",
            "Bx2b+",
            "S-4h=",
            "C2.5",
            "H8+7",
            "+R-1",
            "h3e3",
            "b10c8",
            ">e4",
            "g1f3>d5",
            "bxa1=Q>c5=d4c5",
        ] {
            assert!(is_move_syntax(ok), "{ok}");
        }
        for bad in [
            "",
            "e",
            "zz",
            "e2 e4",
            "e2e4;drop",
            "٣",
            "Nf3Nf3Nf3Nf3Nf3",
            "g1f3>d5=d7d5~3",
        ] {
            assert!(!is_move_syntax(bad), "{bad}");
        }
    }
}
