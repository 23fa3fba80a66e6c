//! PGN export of a [`Game`]: the Seven Tag Roster, then `Variant`, `SetUp`/`FEN` (when the game
//! did not start from its variant's start position, and always in Chess960, whose readers need
//! the arrangement), `TimeControl`, `Termination`, then the caller's own tags; movetext in SAN (drops `N@f3`, antichess
//! `=K`) wrapped at 80 columns, ending with the result.

use crate::{Color, Game, Outcome, Rules, Variant};

/// The tags the game record does not know itself; the service fills them in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTags {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// PGN's form: `600+5` (seconds + increment), or `None` for an untimed game (written `-`).
    pub time_control: Option<String>,
    /// More tags, written in this order after the others. Their names must be PGN tag names
    /// (letters, digits, `_`) and must not repeat one of the tags above.
    pub extra: Vec<(String, String)>,
}

impl Default for PgnTags {
    fn default() -> PgnTags {
        PgnTags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "-".into(),
            white: "?".into(),
            black: "?".into(),
            time_control: None,
            extra: Vec::new(),
        }
    }
}

fn tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            // Tag values are one line; control characters would break the file.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// The longest movetext line.
const WIDTH: usize = 80;

/// The game as PGN text.
#[must_use]
pub fn write_pgn(game: &Game, tags: &PgnTags) -> String {
    let start = game.start();
    let start_fen = start.fen();
    let variant = start.variant();
    // A reader that knows only standard chess can still set up any game: the FEN is written
    // unless the game starts from the standard arrangement (a variant's own start on the
    // standard board, such as Three-check's, needs none). Chess960 always names its start.
    let standard_board =
        |fen: &str| fen.split(' ').next() == Variant::Chess.start_fen().split(' ').next();
    let set_up = variant == Variant::Chess960
        || start_fen != variant.start_fen()
        || !standard_board(variant.start_fen());
    write_record(
        Record {
            outcome: game.outcome(),
            variant: variant.pgn_name(),
            set_up: set_up.then_some(start_fen.as_str()),
            turn: start.turn(),
            fullmoves: start.fullmoves(),
            sans: Box::new(game.sans()),
        },
        tags,
    )
}

/// What a PGN says of a game, whatever its engine family.
pub(crate) struct Record<'a> {
    pub(crate) outcome: Option<Outcome>,
    /// The `Variant` tag's value.
    pub(crate) variant: &'a str,
    /// The start's FEN, when the `SetUp` and `FEN` tags are written.
    pub(crate) set_up: Option<&'a str>,
    /// The side to move and the move number at the start.
    pub(crate) turn: Color,
    pub(crate) fullmoves: u32,
    pub(crate) sans: Box<dyn ExactSizeIterator<Item = &'a str> + 'a>,
}

/// The PGN text of `record`.
pub(crate) fn write_record(mut record: Record<'_>, tags: &PgnTags) -> String {
    let result = record.outcome.map_or("*", |o| o.result());
    let mut out = String::new();
    tag(&mut out, "Event", &tags.event);
    tag(&mut out, "Site", &tags.site);
    tag(&mut out, "Date", &tags.date);
    tag(&mut out, "Round", &tags.round);
    tag(&mut out, "White", &tags.white);
    tag(&mut out, "Black", &tags.black);
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", record.variant);
    if let Some(fen) = record.set_up {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", fen);
    }
    tag(
        &mut out,
        "TimeControl",
        tags.time_control.as_deref().unwrap_or("-"),
    );
    tag(
        &mut out,
        "Termination",
        record
            .outcome
            .map_or("unterminated", |o| o.termination.pgn_tag()),
    );
    for (name, value) in &tags.extra {
        tag(&mut out, name, value);
    }
    out.push('\n');

    let mut tokens = Vec::with_capacity(record.sans.len() * 3 / 2 + 1);
    let mut number = record.fullmoves;
    let mut turn = record.turn;
    for (i, san) in record.sans.by_ref().enumerate() {
        if turn.is_white() {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_owned());
        if !turn.is_white() {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push(result.to_string());

    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, DrawRule, Outcome, Position, Termination};

    /// A short game: tags in order, numbered movetext, result at the end.
    #[test]
    fn scholars_mate() {
        let mut game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
        for m in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
            game.play_text(m).unwrap();
        }
        let tags = PgnTags {
            white: "Ann \"A\"".into(),
            black: "Bob".into(),
            ..PgnTags::default()
        };
        let pgn = write_pgn(&game, &tags);
        let want = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"Ann \\\"A\\\"\"]\n\
            [Black \"Bob\"]\n[Result \"1-0\"]\n[Variant \"Standard\"]\n[TimeControl \"-\"]\n[Termination \"normal\"]\n\n\
            1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n";
        assert_eq!(pgn, want);
    }

    /// The caller's own tags follow the standard ones, escaped like them, before the moves.
    #[test]
    fn extra_tags_after_the_others() {
        let game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
        let tags = PgnTags {
            extra: vec![
                ("round_name".into(), "semi \"final\"".into()),
                ("tournament".into(), "spring".into()),
            ],
            ..PgnTags::default()
        };
        let pgn = write_pgn(&game, &tags);
        assert!(
            pgn.contains("[Termination \"unterminated\"]\n[round_name \"semi \\\"final\\\"\"]\n[tournament \"spring\"]\n\n*"),
            "{pgn}"
        );
    }

    /// Racing Kings: the Variant tag and the start FEN; Black to move starts with `N...`.
    #[test]
    fn racing_kings_and_black_first() {
        let start = Position::from_fen(
            Variant::RacingKings,
            "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b - - 0 7",
        )
        .unwrap();
        let mut game = Game::new(start, DrawRule::Claim);
        game.play_text("Ka3").unwrap();
        game.finish(Outcome::win(Color::Black, Termination::Resignation))
            .unwrap();
        let pgn = write_pgn(&game, &PgnTags::default());
        assert!(pgn.contains("[Variant \"Racing Kings\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b - - 0 7\"]\n"), "{pgn}");
        assert!(pgn.ends_with("7... Ka3 0-1\n\n"), "{pgn}");
    }

    /// Chess960 always names its start; a variant's own start on the standard board needs no
    /// FEN, one on another board (Horde, Racing Kings) does; SAN drops and king promotions
    /// appear as written.
    #[test]
    fn variant_tags() {
        let pgn = |pos: Position, moves: &[&str]| {
            let mut game = Game::new(pos, DrawRule::Claim);
            for m in moves {
                game.play_text(m).unwrap();
            }
            write_pgn(&game, &PgnTags::default())
        };
        let c960 = pgn(Position::new(Variant::Chess960), &[]);
        assert!(c960.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n"), "{c960}");
        let koth = pgn(Position::new(Variant::KingOfTheHill), &["e4"]);
        assert!(
            koth.contains("[Variant \"King of the Hill\"]\n[TimeControl"),
            "{koth}"
        );
        let horde = pgn(Position::new(Variant::Horde), &["d5"]);
        assert!(
            horde.contains("[Variant \"Horde\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1\"]"),
            "{horde}"
        );
        let zh = Position::from_fen(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        let zh = pgn(zh.unwrap(), &["N@f6+"]);
        assert!(zh.contains("[Variant \"Crazyhouse\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1\"]"), "{zh}");
        assert!(zh.contains("1. N@f6+ *"), "{zh}");
        let anti = Position::from_fen(Variant::Antichess, "8/P7/8/8/8/8/8/7k w - - 0 1");
        assert!(pgn(anti.unwrap(), &["a8=K"]).contains("1. a8=K *"));
    }

    /// Movetext lines never exceed 80 columns.
    #[test]
    fn wraps_at_80_columns() {
        let mut game = Game::new(Position::new(Variant::Chess), DrawRule::Claim);
        for _ in 0..10 {
            for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                if game.play_text(m).is_err() {
                    break;
                }
            }
        }
        let pgn = write_pgn(&game, &PgnTags::default());
        let body = pgn.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 1);
        assert!(body.lines().all(|l| l.len() <= 80), "{body}");
    }
}
