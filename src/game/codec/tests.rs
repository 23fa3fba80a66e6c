//! The codec's round trips: every event kind, drawn at random, reads back as written, through
//! fields and through its line; old games' termination indices still read.

use std::collections::HashMap;

use chessd_rules::{
    ByColor, Color, Outcome, Termination,
    any::{AnyPosition, AnyVariant},
};
use proptest::prelude::*;

use super::*;
use crate::game::codec::outcome::LEGACY_ORDER;
use crate::game::entropy::EntropyStep;
use crate::game::setup::SetupStep;
use crate::game::takeback::Line;
use crate::game::{ClockChange, ClockReason, EntropyRow, EventRow, LogKind, SetupRow};

/// How many kinds [`kind_of`] draws; raise it with a new kind.
const KINDS: u8 = 11;

/// Kind number `k` of a drawn step, with the step's numbers.
fn kind_of(k: u8, n: u32, by: Color, flag: bool, plies: u8) -> LogKind {
    let clocks_ms = ByColor::new(n, n.rotate_left(7));
    match k {
        0 => LogKind::Move {
            clocks_ms,
            clocks_stopped: flag,
        },
        1 => LogKind::DrawOffered(by),
        2 => LogKind::DrawDeclined(by),
        3 => LogKind::GameOver,
        4 => LogKind::ClockChanged {
            clocks_ms,
            change: ClockChange {
                side: by,
                reason: [
                    ClockReason::Given,
                    ClockReason::ArbiterSet,
                    ClockReason::ArbiterAdded,
                    ClockReason::ArbiterSubtracted,
                ][n as usize % 4],
            },
            running: flag,
        },
        5 => LogKind::TakebackProposed(by),
        6 => LogKind::TakebackDeclined(by),
        8 => LogKind::TakebackWithdrawn(by),
        9 => LogKind::Setup {
            seat: by,
            step: [SetupStep::Draft, SetupStep::Commit, SetupStep::Reveal][n as usize % 3],
        },
        10 => LogKind::Entropy {
            seat: by,
            step: [EntropyStep::Commit, EntropyStep::Reveal, EntropyStep::Start][n as usize % 3],
        },
        _ => LogKind::TakenBack {
            plies,
            by,
            clocks_ms,
            running: flag,
        },
    }
}

/// One drawn step: kind, a number, a side, a flag, optional parts.
type Step = (u8, u32, bool, bool, Option<u64>, Option<String>, u8);

fn step() -> impl Strategy<Value = Step> {
    (
        0..KINDS,
        any::<u32>(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(any::<u64>()),
        proptest::option::of("[!-~]{1,16}"),
        0u8..18,
    )
}

/// A game's rows from drawn steps: moves legal where they are played, takebacks of no more
/// than stands.
fn rows_of(steps: &[Step]) -> Vec<EventRow> {
    let mut line = Line::from_start(AnyPosition::new(AnyVariant::CHESS));
    let mut played = 0u32;
    let mut rows = Vec::new();
    for (i, &(k, n, white, flag, clock, ref rid, term)) in steps.iter().enumerate() {
        let by = if white { Color::White } else { Color::Black };
        let plies = 1 + (n % 2) as u8;
        let mut mv = None;
        let kind = match kind_of(k, n, by, flag, plies) {
            LogKind::Move { .. } if line.position().legal_moves().is_empty() => continue,
            LogKind::TakenBack { .. } if played < u32::from(plies) => continue,
            kind @ LogKind::Move { .. } => {
                let legal = line.position().legal_moves();
                let m = legal[n as usize % legal.len()];
                line.play(m);
                played += 1;
                mv = Some(m);
                kind
            }
            kind @ LogKind::TakenBack { plies, .. } => {
                line.take_back(plies).unwrap();
                played -= u32::from(plies);
                kind
            }
            kind => kind,
        };
        let outcome = matches!(kind, LogKind::GameOver).then(|| Outcome {
            winner: flag.then_some(by),
            termination: Termination::ALL[usize::from(term) % Termination::ALL.len()],
        });
        rows.push(EventRow {
            seq: i as u64 + 1,
            at_ms: u64::from(n) * 3,
            kind,
            mv,
            seat: (k != 3 || flag).then_some(by),
            request_id: rid.clone(),
            clocks_ms: clock.map(|c| ByColor::new(c, c / 2)),
            outcome,
            // A placement's text is the codec's to carry, the rules' to check.
            setup: matches!(kind, LogKind::Setup { .. }).then(|| {
                Box::new(SetupRow {
                    placement: format!("{n}/8/8/8"),
                    start: None,
                })
            }),
            // A value is the codec's to carry (a start, which resets the line, is the restore
            // tests' to read back).
            entropy: matches!(kind, LogKind::Entropy { .. }).then(|| {
                Box::new(EntropyRow {
                    value: [n as u8; 32],
                    start: None,
                })
            }),
        });
    }
    for (i, row) in rows.iter_mut().enumerate() {
        row.seq = i as u64 + 1;
    }
    rows
}

proptest! {
    /// Every kind of event reads back as written, as fields and as a line, its moves and
    /// takebacks resolved on the line of the events before it.
    #[test]
    fn every_event_reads_back(steps in proptest::collection::vec(step(), 0..60)) {
        let rows = rows_of(&steps);
        let mut by_fields = Line::from_start(AnyPosition::new(AnyVariant::CHESS));
        let mut by_line = Line::from_start(AnyPosition::new(AnyVariant::CHESS));
        for row in &rows {
            let fields = event_fields(row);
            let map: HashMap<&str, &str> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            prop_assert_eq!(&decode_fields(row.seq, &map, &mut by_fields).unwrap(), row);
            let text = write_event(row);
            prop_assert_eq!(&text, &join(&fields), "the line is the fields joined");
            prop_assert_eq!(&decode_event(row.seq, &text, &mut by_line).unwrap(), row);
        }
        prop_assert_eq!(by_fields.position(), by_line.position());
    }
}

/// A kind's number in [`kind_of`]. Exhaustive: a new `LogKind` variant fails to compile here
/// until the generator draws it.
fn kind_number(kind: &LogKind) -> u8 {
    match kind {
        LogKind::Move { .. } => 0,
        LogKind::DrawOffered(_) => 1,
        LogKind::DrawDeclined(_) => 2,
        LogKind::GameOver => 3,
        LogKind::ClockChanged { .. } => 4,
        LogKind::TakebackProposed(_) => 5,
        LogKind::TakebackDeclined(_) => 6,
        LogKind::TakenBack { .. } => 7,
        LogKind::TakebackWithdrawn(_) => 8,
        LogKind::Setup { .. } => 9,
        LogKind::Entropy { .. } => 10,
    }
}

/// The generator draws every kind there is, each under its own key.
#[test]
fn the_generator_draws_every_kind() {
    let mut keys = Vec::new();
    for k in 0..KINDS {
        let kind = kind_of(k, 1, Color::White, false, 1);
        assert_eq!(kind_number(&kind), k);
        keys.push(kind_key(&kind));
    }
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), usize::from(KINDS));
}

/// The frozen order is the order stores wrote, never reordered: each index names the reason
/// it named when it was written.
#[test]
fn legacy_indices_keep_their_meaning() {
    let frozen = [
        "checkmate",
        "stalemate",
        "insufficient-material",
        "repetition",
        "fifty-move-rule",
        "race",
        "resignation",
        "agreement",
        "time-forfeit",
        "abandonment",
        "aborted",
        "third-check",
        "king-of-the-hill",
        "king-exploded",
        "all-pieces-lost",
        "stalemate-win",
        "horde-destroyed",
        "no-start",
    ];
    let keys: Vec<&str> = LEGACY_ORDER.iter().map(|t| t.key()).collect();
    assert_eq!(keys, frozen);
    assert_eq!(
        parse_outcome("w:6").unwrap(),
        Outcome::win(Color::White, Termination::Resignation)
    );
    assert_eq!(
        parse_outcome("-:17").unwrap(),
        Outcome::draw(Termination::NoStart)
    );
    assert!(parse_outcome("w:18").is_err());
}

/// Every outcome reads back from its text, which names the reason by its key.
#[test]
fn outcomes_read_back() {
    for termination in Termination::ALL {
        for winner in [None, Some(Color::White), Some(Color::Black)] {
            let o = Outcome {
                winner,
                termination,
            };
            let text = outcome_text(o);
            assert!(text.ends_with(termination.key()), "{text}");
            assert_eq!(parse_outcome(&text).unwrap(), o);
        }
    }
    assert_eq!(
        outcome_text(Outcome::win(Color::Black, Termination::TimeForfeit)),
        "b:time-forfeit"
    );
    assert!(parse_outcome("x:checkmate").is_err());
    assert!(parse_outcome("w:Checkmate").is_err());
}
