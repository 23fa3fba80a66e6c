//! A game's outcome as stored: the winner's side (`-` for none), a colon, the termination's
//! stable key (`w:resignation`). Games stored before the keys hold the termination's index in
//! the list frozen here as [`LEGACY_ORDER`], and still read.

use chessd_rules::{Outcome, Termination};

use crate::game::codec::text::{parse_side, side};

/// The order of `Termination::ALL` when stores wrote a termination as its index in it (Redis
/// stream entries and feed entries `w:6`, SQLite's `events.termination` column). Frozen: a
/// stored index means the reason at that place here, whatever `Termination` becomes. Never
/// reorder it, never append to it.
pub(super) const LEGACY_ORDER: [Termination; 18] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::InsufficientMaterial,
    Termination::Repetition,
    Termination::FiftyMoveRule,
    Termination::Race,
    Termination::Resignation,
    Termination::Agreement,
    Termination::TimeForfeit,
    Termination::Abandonment,
    Termination::Aborted,
    Termination::ThirdCheck,
    Termination::KingOfTheHill,
    Termination::KingExploded,
    Termination::AllPiecesLost,
    Termination::StalemateWin,
    Termination::HordeDestroyed,
    Termination::NoStart,
];

/// The termination a text names: its key, or (a game stored before the keys) its index in
/// [`LEGACY_ORDER`].
pub(crate) fn parse_termination(text: &str) -> Option<Termination> {
    if text.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        return text
            .parse::<usize>()
            .ok()
            .and_then(|i| LEGACY_ORDER.get(i).copied());
    }
    text.parse().ok()
}

/// The outcome's text.
#[must_use]
pub(crate) fn outcome_text(o: Outcome) -> String {
    format!("{}:{}", o.winner.map_or("-", side), o.termination.key())
}

/// [`outcome_text`]'s form read back, or a legacy `winner:index`.
pub(crate) fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let bad = || format!("outcome {text:?}");
    let (w, t) = text.split_once(':').ok_or_else(bad)?;
    let winner = match w {
        "-" => None,
        w => Some(parse_side(w).map_err(|_| bad())?),
    };
    let termination = parse_termination(t).ok_or_else(bad)?;
    Ok(Outcome {
        winner,
        termination,
    })
}
