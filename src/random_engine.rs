//! `chessd random-engine`: a UCI engine that plays a random legal move, in every variant chessd
//! plays, with chessd's own rules. It is the opponent `chessd play` falls back on where no
//! installed engine plays the game (Debian's Fairy-Stockfish does not play Atomic), and a
//! sparring partner for bot authors; chessd-bot drives it like any UCI engine.
//!
//! It speaks what a GUI or chessd-bot sends: `uci`, `isready`, `setoption name UCI_Variant
//! value V` (and `UCI_Chess960`), `ucinewgame`, `position startpos|fen F [moves ...]`, `go`
//! (answered at once, whatever its limits), `stop`, `quit`. A position it cannot read is
//! reported with `info string` and leaves the last good one in place.

use std::io::{self, BufRead, Write};

use chessd_rules::any::{AnyPosition, AnyVariant};

/// Runs the engine on `input` until `quit` or the end of the input, answering on `out`.
pub fn run(input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    let mut variant = AnyVariant::CHESS;
    let mut position = AnyPosition::new(variant);
    for line in input.lines() {
        let line = line?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                writeln!(out, "id name chessd random mover")?;
                writeln!(out, "id author chessd")?;
                let names: Vec<String> = AnyVariant::all()
                    .map(|v| format!("var {}", uci_name(v)))
                    .collect();
                writeln!(
                    out,
                    "option name UCI_Variant type combo default chess {}",
                    names.join(" ")
                )?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("setoption") => {
                let rest: Vec<&str> = words.collect();
                match option(&rest) {
                    Some(("UCI_Variant", value)) => match value.parse::<AnyVariant>() {
                        Ok(v) => {
                            variant = v;
                            position = AnyPosition::new(variant);
                        }
                        Err(_) => writeln!(out, "info string unknown variant {value}")?,
                    },
                    Some(("UCI_Chess960", "true")) if variant == AnyVariant::CHESS => {
                        variant = AnyVariant::Std(chessd_rules::Variant::Chess960);
                    }
                    Some(("UCI_Chess960", "false"))
                        if variant == AnyVariant::Std(chessd_rules::Variant::Chess960) =>
                    {
                        variant = AnyVariant::CHESS;
                    }
                    // Other options (Hash, Threads, ...) mean nothing to a random mover.
                    _ => {}
                }
            }
            Some("position") => match read_position(variant, words) {
                Ok(p) => position = p,
                Err(why) => writeln!(out, "info string {why}")?,
            },
            Some("go") => {
                // The moves a player chooses among, as the server lists them: in a game of
                // chance without the draw the server joins to each in its record.
                let moves = position.notations();
                let pick = match moves.len() {
                    0 => None,
                    n => {
                        let r = getrandom::u64().unwrap_or(0);
                        moves.get((r % n as u64) as usize)
                    }
                };
                match pick {
                    Some((uci, _)) => writeln!(out, "bestmove {uci}")?,
                    None => writeln!(out, "bestmove 0000")?,
                }
            }
            Some("quit") => break,
            // `ucinewgame`, `stop`, `ponderhit` and anything unknown: nothing to do.
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

/// The UCI_Variant name of `variant` (Fairy-Stockfish's spelling).
fn uci_name(variant: AnyVariant) -> &'static str {
    match variant {
        AnyVariant::CHESS | AnyVariant::Std(chessd_rules::Variant::Chess960) => "chess",
        AnyVariant::Std(chessd_rules::Variant::ThreeCheck) => "3check",
        other => other.key(),
    }
}

/// `name N value V` of a `setoption`.
fn option<'a>(words: &[&'a str]) -> Option<(&'a str, &'a str)> {
    match words {
        ["name", name, "value", value] => Some((name, value)),
        _ => None,
    }
}

/// The position of `position startpos|fen F [moves ...]`.
fn read_position<'a>(
    variant: AnyVariant,
    mut words: impl Iterator<Item = &'a str>,
) -> Result<AnyPosition, String> {
    let mut position = match words.next() {
        Some("startpos") => {
            let next = words.next();
            if next.is_some_and(|w| w != "moves") {
                return Err(format!("unexpected {next:?} after startpos"));
            }
            AnyPosition::new(variant)
        }
        Some("fen") => {
            let fen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            let fen = fen.join(" ");
            AnyPosition::from_fen(variant, &fen).map_err(|e| format!("fen {fen:?}: {e}"))?
        }
        other => return Err(format!("position {other:?}: expected startpos or fen")),
    };
    for text in words.filter(|w| *w != "moves") {
        let m = position
            .parse_move(text)
            .map_err(|e| format!("move {text}: {e}"))?;
        position.play_unchecked(m);
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// The handshake lists every variant and ends with uciok; isready is answered.
    #[test]
    fn handshake() {
        let out = session("uci\nisready\nquit\n");
        assert_eq!(
            out.first().map(String::as_str),
            Some("id name chessd random mover")
        );
        assert!(
            out.iter()
                .any(|l| l.contains("var atomic") && l.contains("var 3check"))
        );
        assert_eq!(&out[out.len() - 2..], ["uciok", "readyok"]);
    }

    /// `go` answers a legal move of the position, in the variant set, after the moves given.
    #[test]
    fn plays_a_legal_move_of_the_position() {
        for _ in 0..20 {
            let out = session(
                "setoption name UCI_Variant value atomic\nposition startpos moves e2e4 d7d5\ngo movetime 10\n",
            );
            let best = out.last().unwrap().strip_prefix("bestmove ").unwrap();
            let mut pos = AnyPosition::new(AnyVariant::Std(chessd_rules::Variant::Atomic));
            for m in ["e2e4", "d7d5"] {
                let m = pos.parse_uci(m).unwrap();
                pos.play_unchecked(m);
            }
            assert!(pos.parse_uci(best).is_ok(), "{best} is not legal");
        }
    }

    /// Crazyhouse drops are played and offered; a mated side answers the null move.
    #[test]
    fn drops_and_mate() {
        let out = session(
            "setoption name UCI_Variant value crazyhouse\nposition fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1 moves e2e4 d7d5 e4d5 d8d5\ngo\n",
        );
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
        let mated = session("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo\n");
        assert_eq!(mated.last().map(String::as_str), Some("bestmove 0000"));
    }

    /// A position it cannot read is reported and the last good one kept.
    #[test]
    fn bad_positions_are_reported() {
        let out = session("position startpos moves e2e5\nposition fen nonsense\ngo\n");
        assert!(out[0].starts_with("info string move e2e5"), "{out:?}");
        assert!(out[1].starts_with("info string fen"), "{out:?}");
        assert!(out[2].starts_with("bestmove "), "{out:?}");
    }
}
