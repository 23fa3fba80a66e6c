//! ExportPgn: a game as PGN, with the Seven Tag Roster and the tags RULES.md lists (the
//! engine writes the moves and the variant's tags; here the service's own: dates, players,
//! time control, and the game's labels as tags of their own); and a shogi game as KIF.

use std::time::{Duration, SystemTime};

use chessd_rules as rules;

use crate::api::encode::setup::board;
use crate::game::setup::awaiting_setup;
use crate::game::{GameView, TimeControl, Viewer, epoch_ms};

/// The game as PGN.
#[must_use]
pub(crate) fn pgn(view: &GameView) -> String {
    let name = |n: &str| {
        if n.is_empty() {
            "?".to_owned()
        } else {
            n.to_owned()
        }
    };
    let tags = rules::PgnTags {
        event: "chessd game".into(),
        site: "chessd".into(),
        date: pgn_date(view.created_at),
        round: "-".into(),
        white: name(&view.players.white),
        black: name(&view.players.black),
        time_control: view.time_control.map(pgn_time_control),
        // Label keys are PGN tag names that no standard tag has (see `game::labels`).
        extra: view
            .labels
            .iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
    };
    let pgn = view.game.pgn(&tags);
    // A game whose setup was never revealed has no start: its record begins on the board that
    // was set up, as the game shows it to whoever may read the record.
    let start = view.game.start();
    match &view.setup {
        Some(setup) if awaiting_setup(&start) => pgn.replacen(
            &format!("[FEN \"{}\"]", start.fen()),
            &format!("[FEN \"{}\"]", board(setup, &start, Viewer::Whole)),
            1,
        ),
        _ => pgn,
    }
}

/// The game as KIF, for a shogi-family game from its own start (empty for any other).
#[must_use]
pub(crate) fn kif(view: &GameView) -> String {
    let players = [&*view.players.white, &*view.players.black];
    view.game.kif(players).unwrap_or_default()
}

/// PGN's TimeControl: `initial+increment` in seconds (`300+3`); byoyomi, which PGN has no
/// form for, as `main+periods x period` with a `b` (`600+3x30b`: ten minutes, then three
/// periods of 30 seconds), the form the page's time controls use too.
fn pgn_time_control(tc: TimeControl) -> String {
    match tc.byoyomi {
        Some(b) => format!(
            "{}+{}x{}b",
            pgn_seconds(tc.initial),
            b.periods(),
            pgn_seconds(b.period())
        ),
        None => format!("{}+{}", pgn_seconds(tc.initial), pgn_seconds(tc.increment)),
    }
}

/// PGN's TimeControl seconds: whole seconds, or with a fraction when the time has one.
fn pgn_seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{:.3}", d.as_secs_f64())
    }
}

/// `YYYY.MM.DD` in UTC.
fn pgn_date(t: SystemTime) -> String {
    let days = (epoch_ms(t) / 86_400_000) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    /// PGN dates are UTC calendar dates.
    #[test]
    fn dates() {
        assert_eq!(pgn_date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000.02.29"
        );
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(1_767_225_599)),
            "2025.12.31"
        );
    }
}
