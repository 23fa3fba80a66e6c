//! A game's end as the Python references write it in their `.moves` files (the termination's
//! key and the PGN result, `-` while the game is on), for the tests that replay those games.

use chessd_rules::{Color, Outcome};

pub fn end_text(outcome: Option<Outcome>) -> String {
    outcome.map_or_else(
        || "-".to_string(),
        |o| {
            let result = match o.winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            };
            format!("{} {result}", o.termination.key())
        },
    )
}
