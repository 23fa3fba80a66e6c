//! Ambiguous Chess: reading a player's turn text, and refusing a wrong one with the part at
//! fault named (the execution or the mark).
//!
//! A turn is written as `ambiguous.rs` records it (`g1f3>d5`, `>e4`, `e7e5>d4=e3d4`), and the
//! execution may also be the opponent's move in SAN (`Nf3>d5`, `bxa1=Q>c5`): it always goes
//! to the pending target, so the piece and its square are what the player chooses. The
//! forced move after `=` may be left out; when given it must be the one the mark forces.

use super::mv::{WideMove, WideUci};
use super::position::WidePosition;
use super::san::{WideSan, WideSanError};
use super::square::WideSquare;
use crate::PlayError;

impl WidePosition {
    /// The turn of `legal` (this position's turns) that `text` names.
    pub(crate) fn parse_turn_text(
        &self,
        text: &str,
        legal: &[WideMove],
    ) -> Result<WideMove, PlayError> {
        let malformed = || {
            let shown: String = text.chars().take(16).collect();
            PlayError::Malformed(format!(
                "{shown:?} is not an Ambiguous Chess turn (such as g1f3>d5, Nf3>d5 or >e4 for a mark alone)"
            ))
        };
        let (exec_text, rest) = match text.split_once('>') {
            Some((exec, rest)) => (exec, Some(rest)),
            None => (text, None),
        };
        let (mark, forced) =
            match rest.map(|r| r.split_once('=').map_or((r, None), |(m, f)| (m, Some(f)))) {
                None => (None, None),
                Some((mark, forced)) => {
                    let mark: WideSquare = mark.parse().map_err(|_| malformed())?;
                    let forced = match forced {
                        Some(f) => {
                            let uci: WideUci = f.parse().map_err(|_| malformed())?;
                            if uci.mark.is_some() || uci.drop.is_some() || uci.nature.is_some() {
                                return Err(malformed());
                            }
                            Some((uci.from, uci.to))
                        }
                        None => None,
                    };
                    (Some(mark), forced)
                }
            };
        if exec_text.is_empty() && mark.is_none() {
            return Err(malformed());
        }
        let execution = self.read_execution(exec_text, malformed)?;
        let mut after = *self;
        if let Some(e) = execution {
            after = self.marking_board();
            after.play_board(e);
        }
        let player = self.turn;
        let done = if after.kingless() {
            Some("takes a king and ends the game")
        } else if after.targets().is_empty() {
            Some("leaves you no target to mark, a draw")
        } else {
            None
        };
        let Some(mark) = mark else {
            if done.is_some() {
                return self.find_turn(legal, execution, None, text);
            }
            return Err(PlayError::Illegal(format!(
                "the mark is missing: after the execution {exec_text}, name your own target too, as {exec_text}>{}",
                after.targets()[0]
            )));
        };
        if let Some(why) = done {
            return Err(PlayError::Illegal(format!(
                "the mark {mark} cannot follow: the execution {exec_text} {why}, so the turn is {exec_text} alone"
            )));
        }
        if !after.targets().contains(&mark) {
            let when = if execution.is_some() {
                format!(" after the execution {exec_text}")
            } else {
                String::new()
            };
            return Err(PlayError::Illegal(format!(
                "the mark {mark} is not a target: no {player} piece can move to or capture on it{when}"
            )));
        }
        if let Some((from, to)) = forced {
            match after.reaching(mark)[..] {
                [only] if (only.from(), only.to()) == (from, to) => {}
                [only] => {
                    return Err(PlayError::Illegal(format!(
                        "the mark {mark} forces {}{}, not {from}{to}",
                        only.from(),
                        only.to()
                    )));
                }
                _ => {
                    return Err(PlayError::Illegal(format!(
                        "the mark {mark} forces no move: more than one of your moves reaches it, and your opponent chooses (leave out ={from}{to})"
                    )));
                }
            }
        }
        self.find_turn(legal, execution, Some(mark), text)
    }

    /// The execution `exec_text` names: a move of the marking player's pieces to the pending
    /// target, in UCI or SAN; `None` for a turn that only marks.
    fn read_execution(
        &self,
        exec_text: &str,
        malformed: impl Fn() -> PlayError,
    ) -> Result<Option<WideMove>, PlayError> {
        let opponent = !self.turn;
        let target = match (self.pending, exec_text.is_empty()) {
            (None, true) => return Ok(None),
            (Some(target), true) => {
                return Err(PlayError::Illegal(format!(
                    "the execution is missing: first choose which {opponent} piece goes to {target}, the target {opponent} marked (as {}>…)",
                    self.marking_board().reaching(target)[0].uci_in(self.variant())
                )));
            }
            (None, false) => {
                let example = exec_text
                    .parse::<WideUci>()
                    .map_or_else(|_| "e4".to_string(), |u| u.to.to_string());
                return Err(PlayError::Illegal(format!(
                    "the execution {exec_text} has nothing to execute: no {opponent} target is pending, so this turn only marks yours (as >{example})"
                )));
            }
            (Some(target), false) => target,
        };
        let board = self.marking_board();
        let reaching = board.reaching(target);
        let not_one = || {
            let choices: Vec<String> = reaching
                .iter()
                .map(|m| m.to_uci(&board).to_string())
                .collect();
            PlayError::Illegal(format!(
                "the execution {exec_text} is not a move of a {opponent} piece to {target}, the target {opponent} marked (choose among {})",
                choices.join(", ")
            ))
        };
        if let Ok(uci) = exec_text.parse::<WideUci>() {
            if uci.mark.is_some() || uci.drop.is_some() || uci.nature.is_some() {
                return Err(malformed());
            }
            return reaching
                .iter()
                .copied()
                .find(|m| {
                    let u = m.uci_in(self.variant());
                    (u.from, u.to, u.promotion) == (uci.from, uci.to, uci.promotion)
                })
                .map(Some)
                .ok_or_else(not_one);
        }
        let san = exec_text.parse::<WideSan>().map_err(|_| malformed())?;
        match san.to_move_among(&board, &reaching) {
            Ok(m) => Ok(Some(m)),
            Err(WideSanError::Ambiguous(why)) => Err(PlayError::Ambiguous(format!(
                "the execution {why} names more than one {opponent} piece: name the piece's file or rank"
            ))),
            Err(_) => Err(not_one()),
        }
    }

    /// The turn of `legal` made of `execution` then `mark`.
    fn find_turn(
        &self,
        legal: &[WideMove],
        execution: Option<WideMove>,
        mark: Option<WideSquare>,
        text: &str,
    ) -> Result<WideMove, PlayError> {
        let wanted = match (execution, mark) {
            (Some(e), _) => Some(e.with_mark(mark)),
            (None, Some(mark)) => Some(WideMove::mark_only(mark)),
            (None, None) => None,
        };
        legal
            .iter()
            .copied()
            .find(|&m| Some(m.with_forced(None)) == wanted)
            .ok_or_else(|| {
                PlayError::Illegal(format!("{text} in this {} position", self.variant()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{WidePosition, WideVariant};
    use crate::PlayError;

    fn pos(fen: &str) -> WidePosition {
        WidePosition::from_fen(WideVariant::Ambiguous, fen).unwrap()
    }

    fn read(p: &WidePosition, text: &str) -> Result<String, PlayError> {
        p.parse_turn_text(text, &p.legal_moves())
            .map(|m| m.to_uci(p).to_string())
    }

    fn refusal(p: &WidePosition, text: &str) -> String {
        match read(p, text) {
            Err(
                PlayError::Illegal(why) | PlayError::Ambiguous(why) | PlayError::Malformed(why),
            ) => why,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// After White marked f3, Black's turn: a white piece to f3, then a black target.
    fn after_f3() -> WidePosition {
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 1 1 f3")
    }

    /// The execution may be written in UCI or as the opponent's move in SAN; the forced move
    /// may be left out or given.
    #[test]
    fn a_turn_is_read_in_uci_or_with_a_san_execution() {
        let p = after_f3();
        assert_eq!(read(&p, "g1f3>d5").unwrap(), "g1f3>d5=d7d5");
        assert_eq!(read(&p, "Nf3>d5").unwrap(), "g1f3>d5=d7d5");
        assert_eq!(read(&p, "Nf3>d5=d7d5").unwrap(), "g1f3>d5=d7d5");
        assert_eq!(read(&p, "f3>a6").unwrap(), "f2f3>a6");
        let start = WidePosition::new(WideVariant::Ambiguous);
        assert_eq!(read(&start, ">e4").unwrap(), ">e4=e2e4");
        assert_eq!(read(&start, ">a3").unwrap(), ">a3");
    }

    /// A wrong execution is refused as the execution, naming the ones there are.
    #[test]
    fn a_wrong_execution_is_named() {
        let p = after_f3();
        let why = refusal(&p, "b1c3>d5");
        assert!(why.starts_with("the execution b1c3 is not"), "{why}");
        assert!(why.contains("f2f3") && why.contains("g1f3"), "{why}");
        assert!(refusal(&p, "Nc3>d5").starts_with("the execution Nc3 is not"));
        assert!(refusal(&p, ">d5").starts_with("the execution is missing"));
        let start = WidePosition::new(WideVariant::Ambiguous);
        let why = refusal(&start, "e2e4");
        assert!(
            why.contains("nothing to execute") && why.contains(">e4"),
            "{why}"
        );
    }

    /// A wrong mark is refused as the mark: unreachable, missing, after an end, or a forced
    /// move that is not the one the mark forces.
    #[test]
    fn a_wrong_mark_is_named() {
        let p = after_f3();
        let why = refusal(&p, "g1f3>d4");
        assert!(why.starts_with("the mark d4 is not a target"), "{why}");
        assert!(refusal(&p, "g1f3").starts_with("the mark is missing"));
        assert!(refusal(&p, "g1f3>d5=c7c5").contains("forces d7d5, not c7c5"));
        assert!(refusal(&p, "g1f3>a6=a7a6").contains("forces no move"));
        let p = pos("k3r3/8/8/8/8/8/8/r3K3 w - - 0 1 e1");
        assert_eq!(read(&p, "a1e1").unwrap(), "a1e1");
        assert!(refusal(&p, "a1e1>a2").contains("takes a king"));
    }

    /// Text that is no turn at all is malformed, not illegal.
    #[test]
    fn junk_is_malformed() {
        let p = after_f3();
        for bad in ["g1f3>", "g1f3>d5=", ">", "g1f3>d5=Nf3", "g1f3~3>d5"] {
            assert!(
                matches!(read(&p, bad), Err(PlayError::Malformed(_))),
                "{bad}"
            );
        }
    }
}
