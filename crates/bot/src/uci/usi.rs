//! USI, the shogi engines' protocol, as a dialect of the UCI the rest of the bot speaks: the
//! runner writes UCI commands with the server's notation (Fairy-Stockfish's `c3c4`, `P@e5`,
//! `b2h8+` and its FEN), and this file rewrites them for a USI engine (`7g7f`, `P*5e`,
//! `8h2b+`, SFEN) and reads the engine's answers back, so the conversion happens at the pipe
//! and nowhere else.
//!
//! USI names the sides by shogi's convention: sente, who moves first, is "black", so its
//! `btime` and `binc` are the time of chessd's White. An engine's `bestmove resign` and
//! `bestmove win` (the impasse declaration) are messages of their own; `usiok` ends the
//! handshake as `uciok` does.

use std::fmt;
use std::str::FromStr;

use chessd_rules::shogi::{ShogiMove, ShogiPosition, ShogiUsi, ShogiVariant};

use super::message::{self, EngineMessage};
use crate::board::{Geometry, Notation, UciMove};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// UCI, with Fairy-Stockfish's `UCI_Variant` for games other than chess.
    #[default]
    Uci,
    /// USI, for shogi and minishogi.
    Usi,
}

impl Protocol {
    /// The handshake's opening command.
    #[must_use]
    pub const fn hello(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
        }
    }

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended for the engine's side, as USI's `gameover` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    Win,
    Lose,
    Draw,
}

impl GameOver {
    /// The side that played `white` (chessd's White) and a PGN-style result (`1-0`, `0-1`,
    /// `1/2-1/2`); `None` for an aborted game, which USI has no word for.
    #[must_use]
    pub fn of(white: bool, result: &str) -> Option<GameOver> {
        let white_won = match result {
            "1-0" => true,
            "0-1" => false,
            "1/2-1/2" => return Some(GameOver::Draw),
            _ => return None,
        };
        Some(if white_won == white {
            GameOver::Win
        } else {
            GameOver::Lose
        })
    }

    /// The `gameover` command.
    #[must_use]
    pub const fn command(self) -> &'static str {
        match self {
            GameOver::Win => "gameover win",
            GameOver::Lose => "gameover lose",
            GameOver::Draw => "gameover draw",
        }
    }
}

/// A command the dialect cannot write (the server's position or move is not the game's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untranslatable(pub String);

impl fmt::Display for Untranslatable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot say it in USI: {}", self.0)
    }
}

/// The USI dialect of one game of the shogi family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Usi {
    variant: ShogiVariant,
    geometry: Geometry,
    /// The start position's SFEN without its move number, for `position startpos`.
    start: String,
}

/// An SFEN without its trailing move number (the same position at any ply).
fn without_ply(sfen: &str) -> &str {
    sfen.rsplit_once(' ').map_or(sfen, |(head, _)| head)
}

impl Usi {
    /// The dialect for the bot's variant `name`; `None` for a game USI does not play.
    #[must_use]
    pub fn for_variant(name: &str) -> Option<Usi> {
        let variant = ShogiVariant::from_str(name).ok()?;
        let size = u32::from(variant.size());
        let start = ShogiPosition::from_fen(variant, variant.start_fen()).ok()?;
        Some(Usi {
            variant,
            geometry: Geometry::new(size, size)?,
            start: without_ply(&start.sfen()).to_owned(),
        })
    }

    #[must_use]
    pub const fn variant(&self) -> ShogiVariant {
        self.variant
    }

    /// The UCI command `uci` as a USI engine must hear it; commands the two protocols share
    /// (`isready`, `setoption`, `stop`, `ponderhit`, `quit`) pass unchanged.
    pub fn command(&self, uci: &str) -> Result<String, Untranslatable> {
        let (verb, rest) = uci.split_once(' ').unwrap_or((uci, ""));
        match verb {
            "ucinewgame" => Ok("usinewgame".to_owned()),
            "position" => self.position(rest),
            "go" => Ok(go(rest)),
            _ => Ok(uci.to_owned()),
        }
    }

    /// `fen FEN [moves M...]` as `startpos` or `sfen SFEN`, the moves in USI.
    fn position(&self, rest: &str) -> Result<String, Untranslatable> {
        let rest = rest
            .strip_prefix("fen ")
            .ok_or_else(|| Untranslatable(format!("position {rest}")))?;
        let (fen, moves) = match rest.split_once(" moves ") {
            Some((fen, moves)) => (fen, moves),
            None => (rest.strip_suffix(" moves").unwrap_or(rest), ""),
        };
        let position = ShogiPosition::from_fen(self.variant, fen)
            .map_err(|e| Untranslatable(format!("{fen:?}: {e}")))?;
        let sfen = position.sfen();
        let mut out = if without_ply(&sfen) == self.start {
            "position startpos".to_owned()
        } else {
            format!("position sfen {sfen}")
        };
        let mut first = true;
        for text in moves.split_ascii_whitespace() {
            if std::mem::take(&mut first) {
                out.push_str(" moves");
            }
            out.push(' ');
            out.push_str(&self.usi_move(text)?);
        }
        Ok(out)
    }

    /// A server move (`c3c4`, `P@e5`, `b2h8+`) in USI (`7g7f`, `P*5e`, `8h2b+`).
    pub fn usi_move(&self, fsf: &str) -> Result<String, Untranslatable> {
        let mv: ShogiMove = fsf
            .parse()
            .map_err(|e| Untranslatable(format!("move {fsf:?}: {e}")))?;
        Ok(mv.usi(self.variant).to_string())
    }

    /// An engine's USI move as the server writes it; `None` when it is no move on this board.
    #[must_use]
    pub fn server_move(&self, usi: &str) -> Option<UciMove> {
        let mv = usi.parse::<ShogiUsi>().ok()?.to_move(self.variant)?;
        UciMove::parse_on(&mv.to_string(), self.geometry).ok()
    }

    /// One line from a USI engine.
    #[must_use]
    pub fn parse(&self, line: &str) -> EngineMessage {
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("usiok") => EngineMessage::UciOk,
            Some("bestmove") => self.bestmove(words.collect()),
            // `info`, `option`, `id`, `readyok` are written as in UCI; USI's moves in a PV are
            // never read.
            _ => message::parse_in(line, Notation::Wide(self.geometry)),
        }
    }

    fn bestmove(&self, words: Vec<&str>) -> EngineMessage {
        let mv = match words.first() {
            None => return EngineMessage::BadBestMove(String::new()),
            Some(&"resign") => return EngineMessage::Resign,
            Some(&"win") => return EngineMessage::DeclareWin,
            Some(text) => match self.server_move(text) {
                Some(mv) => Some(mv),
                None => return EngineMessage::BadBestMove(text.chars().take(16).collect()),
            },
        };
        let ponder = match words.get(1..3) {
            Some(["ponder", p]) => self.server_move(p),
            _ => None,
        };
        EngineMessage::BestMove { mv, ponder }
    }
}

/// A `go` line's arguments with the sides' times and increments renamed: UCI's White is USI's
/// black (sente). A bare `movetime` becomes USI's `byoyomi` on empty clocks.
fn go(rest: &str) -> String {
    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
    let clocked = words.iter().any(|w| matches!(*w, "wtime" | "btime"));
    let mut out = String::from("go");
    for word in words {
        let renamed = match word {
            "wtime" => "btime",
            "btime" => "wtime",
            "winc" => "binc",
            "binc" => "winc",
            "movetime" if !clocked => {
                out.push_str(" btime 0 wtime 0 byoyomi");
                continue;
            }
            other => other,
        };
        out.push(' ');
        out.push_str(renamed);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shogi() -> Usi {
        Usi::for_variant("shogi").unwrap()
    }

    fn mini() -> Usi {
        Usi::for_variant("minishogi").unwrap()
    }

    const SHOGI_START: &str =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";

    /// Only the shogi family has a USI dialect.
    #[test]
    fn dialects() {
        assert_eq!(shogi().variant(), ShogiVariant::Shogi);
        assert_eq!(mini().variant(), ShogiVariant::Minishogi);
        assert!(Usi::for_variant("xiangqi").is_none());
        assert!(Usi::for_variant("chess").is_none());
    }

    /// The server's moves in USI: files count from the right, ranks are letters from the top,
    /// a drop is `*`; on minishogi's 5x5 board the squares are its own.
    #[test]
    fn moves_to_usi() {
        let s = shogi();
        assert_eq!(s.usi_move("c3c4").unwrap(), "7g7f");
        assert_eq!(s.usi_move("b2h8+").unwrap(), "8h2b+");
        assert_eq!(s.usi_move("P@e5").unwrap(), "P*5e");
        assert!(s.usi_move("7g7f").is_err());
        assert_eq!(mini().usi_move("a2a3").unwrap(), "5d5c");
    }

    /// An engine's USI moves read as the server writes them; moves off the board are none.
    #[test]
    fn moves_from_usi() {
        let s = shogi();
        let text = |t: &str| s.server_move(t).map(|m| m.to_string());
        assert_eq!(text("7g7f").as_deref(), Some("c3c4"));
        assert_eq!(text("8h2b+").as_deref(), Some("b2h8+"));
        assert_eq!(text("P*5e").as_deref(), Some("P@e5"));
        assert_eq!(text("c3c4"), None);
        assert_eq!(text("K*5e"), None);
        let m = mini();
        assert_eq!(
            m.server_move("5d5c").map(|m| m.to_string()).as_deref(),
            Some("a2a3")
        );
        assert_eq!(m.server_move("7g7f"), None);
    }

    /// The start is `startpos`, whatever the FEN's move number; any other position is its
    /// SFEN (sente is `b`, the hand counted); the moves follow in USI.
    #[test]
    fn positions() {
        let s = shogi();
        assert_eq!(
            s.command(&format!("position fen {SHOGI_START}")).unwrap(),
            "position startpos"
        );
        assert_eq!(
            s.command(&format!("position fen {SHOGI_START} moves c3c4 g7g6 b2h8+"))
                .unwrap(),
            "position startpos moves 7g7f 3c3d 8h2b+"
        );
        let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL[Bpp] b - - 0 5";
        assert_eq!(
            s.command(&format!("position fen {fen} moves P@e5"))
                .unwrap(),
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w B2p 10 \
             moves P*5e"
        );
        assert_eq!(
            mini()
                .command("position fen rbsgk/4p/5/P4/KGSBR[] w - - 0 1 moves a2a3")
                .unwrap(),
            "position startpos moves 5d5c"
        );
        assert!(s.command("position fen 8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(s.command("position startpos").is_err());
        assert!(
            s.command(&format!("position fen {SHOGI_START} moves e2e4x"))
                .is_err()
        );
    }

    /// `btime` is sente's (chessd's White) and `binc` its increment; a bare movetime is a
    /// byoyomi on empty clocks; the rest passes.
    #[test]
    fn go_lines() {
        let s = shogi();
        assert_eq!(
            s.command("go wtime 60000 btime 50000 winc 1000 binc 2000")
                .unwrap(),
            "go btime 60000 wtime 50000 binc 1000 winc 2000"
        );
        assert_eq!(
            s.command("go ponder wtime 1 btime 2 winc 0 binc 0 depth 6")
                .unwrap(),
            "go ponder btime 1 wtime 2 binc 0 winc 0 depth 6"
        );
        assert_eq!(
            s.command("go movetime 500 depth 6").unwrap(),
            "go btime 0 wtime 0 byoyomi 500 depth 6"
        );
        assert_eq!(
            s.command("go wtime 9 btime 9 winc 0 binc 0 movetime 500")
                .unwrap(),
            "go btime 9 wtime 9 binc 0 winc 0 movetime 500"
        );
    }

    /// The commands USI names differently, and those it shares.
    #[test]
    fn other_commands() {
        let s = shogi();
        assert_eq!(s.command("ucinewgame").unwrap(), "usinewgame");
        for same in [
            "isready",
            "stop",
            "ponderhit",
            "quit",
            "setoption name USI_Hash value 64",
        ] {
            assert_eq!(s.command(same).unwrap(), same);
        }
        assert_eq!(Protocol::Usi.hello(), "usi");
        assert_eq!(Protocol::Uci.hello(), "uci");
    }

    /// `bestmove` in USI: a move (with its ponder move), `resign`, `win`, or junk.
    #[test]
    fn bestmoves() {
        let s = shogi();
        let mv = |t: &str| Some(UciMove::parse_on(t, Geometry::new(9, 9).unwrap()).unwrap());
        assert_eq!(
            s.parse("bestmove 7g7f"),
            EngineMessage::BestMove {
                mv: mv("c3c4"),
                ponder: None
            }
        );
        assert_eq!(
            s.parse("bestmove 8h2b+ ponder P*5e"),
            EngineMessage::BestMove {
                mv: mv("b2h8+"),
                ponder: mv("P@e5")
            }
        );
        assert_eq!(s.parse("bestmove resign"), EngineMessage::Resign);
        assert_eq!(s.parse("bestmove win"), EngineMessage::DeclareWin);
        assert_eq!(
            s.parse("bestmove e2e4"),
            EngineMessage::BadBestMove("e2e4".into())
        );
        assert_eq!(
            s.parse("bestmove"),
            EngineMessage::BadBestMove(String::new())
        );
    }

    /// `usiok` ends the handshake; `info` lines are read for their score, their USI PV
    /// ignored; options, names and the rest read as in UCI.
    #[test]
    fn other_lines() {
        let s = shogi();
        assert_eq!(s.parse("usiok"), EngineMessage::UciOk);
        assert_eq!(s.parse("readyok"), EngineMessage::ReadyOk);
        let EngineMessage::Info(info) =
            s.parse("info depth 8 seldepth 12 score cp 41 nodes 9000 pv 7g7f 3c3d 8h2b+")
        else {
            panic!("not info");
        };
        assert_eq!(
            (info.depth, info.score),
            (Some(8), Some(message::Score::Cp(41)))
        );
        assert!(matches!(
            s.parse("option name USI_Hash type spin default 256 min 1 max 4096"),
            EngineMessage::Option(_)
        ));
        assert!(matches!(
            s.parse("checkmate notimplemented"),
            EngineMessage::Unknown(_)
        ));
    }

    /// `gameover` from the engine's side: White is the side that moved first.
    #[test]
    fn game_over() {
        assert_eq!(GameOver::of(true, "1-0"), Some(GameOver::Win));
        assert_eq!(GameOver::of(false, "1-0"), Some(GameOver::Lose));
        assert_eq!(GameOver::of(false, "0-1"), Some(GameOver::Win));
        assert_eq!(GameOver::of(true, "1/2-1/2"), Some(GameOver::Draw));
        assert_eq!(GameOver::of(true, "*"), None);
        assert_eq!(GameOver::Lose.command(), "gameover lose");
    }
}
