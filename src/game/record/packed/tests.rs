//! The packed record's checks: random finished games unpack into the games they were, a retry
//! of the last move is still answered, and the move and number encodings round-trip.

use proptest::prelude::*;

use super::*;
use crate::api::{decode, encode};
use crate::game::record::apply::tests::record;
use crate::game::{Action, GameId, RequestId, TimeControl};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// One drawn step: what to do, a number, which seat, milliseconds before it.
type Step = (u8, u32, bool, u16);

/// Plays `steps` on a new game (timed or not, takebacks allowed), ends it by resignation if
/// the steps did not, and returns it with its header and the time it ended.
fn finished(steps: &[Step], timed: bool) -> (GameRecord, GameHeader, Now) {
    let tc = timed.then(|| TimeControl::even(Duration::from_secs(60), Duration::from_secs(1)));
    let (rec, _, start) = record(START, tc);
    let mut rec = rec.with_takebacks(TakebackPolicy::OnRequest);
    // Half the games carry a seed, as a game of chance does.
    if steps.len() % 2 == 1 {
        rec.seats = rec
            .seats
            .clone()
            .with_seed(Some(Seed::from_bytes([steps.len() as u8; 32])));
    }
    let header = header_of(&rec);
    let mut now = start;
    let mut out = Vec::new();
    for (i, &(what, n, white, wait)) in steps.iter().enumerate() {
        now.mono += Duration::from_millis(u64::from(wait));
        now.wall += Duration::from_millis(u64::from(wait));
        let seat = if white { Color::White } else { Color::Black };
        let action = match what % 10 {
            0..=2 | 8 | 9 => {
                let legal = rec.game().position().legal_moves();
                let Some(&mv) = legal.get(n as usize % legal.len().max(1)) else {
                    continue;
                };
                let turn = rec.game().position().turn();
                let rid = RequestId::parse(&format!("r{i}")).unwrap();
                let action = Action::Move {
                    text: decode::move_text(&mv.to_string()).unwrap(),
                    expected_ply: None,
                    request_id: rid.filter(|_| n % 3 != 0),
                    offer_draw: n % 7 == 0,
                };
                let key = (n % 3 != 0).then_some(u64::from(n) << 8 | i as u64);
                let _ = rec.apply(turn, &action, key, now, &mut out);
                continue;
            }
            3 => Action::OfferDraw,
            4 => Action::RespondToDraw { accept: n % 5 == 0 },
            5 => Action::ProposeTakeback,
            6 if n % 4 == 3 => Action::WithdrawTakeback,
            6 => Action::RespondToTakeback { accept: n % 2 == 0 },
            _ => Action::AddTime {
                amount: Duration::from_millis(u64::from(n % 10_000) + 1),
            },
        };
        // Refusals (not one's turn, nothing to answer) are part of the draw.
        let _ = rec.apply(seat, &action, None, now, &mut out);
    }
    if !rec.is_over() {
        rec.apply(Color::White, &Action::Resign, None, now, &mut out)
            .unwrap();
    }
    (rec, header, now)
}

/// The header of a test game.
fn header_of(rec: &GameRecord) -> GameHeader {
    GameHeader::new(crate::game::HeaderParts {
        id: GameId::new(rec.timing.created_at(), 7),
        players: crate::game::action::Players::default(),
        labels: std::sync::Arc::default(),
        start: rec.game().start_position().clone(),
        time_control: rec.time_control(),
        start_rules: rec.timing.start_rules(),
        draw_rule: rec.game().draw_rule(),
        created_at: rec.timing.created_at(),
        claim_after: rec.timing.claim_after(),
        public_delay: 0,
    })
}

fn step() -> impl Strategy<Value = Step> {
    (any::<u8>(), any::<u32>(), any::<bool>(), 0u16..1500)
}

/// What a reader sees of a record: every answer built from it.
fn seen(rec: &GameRecord, header: &GameHeader, now: Now) -> String {
    let events: Vec<_> = rec
        .replay_after(0)
        .map(|e| encode::event(&e, crate::game::Viewer::Whole))
        .collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        encode::game(&rec.view(header, now), crate::game::Viewer::Whole),
        events,
        rec.rows_after(0, now, None),
        rec.history.log,
        rec.seats(),
        rec.ended_at_ms(),
        rec.deadline(),
    )
}

proptest! {
    /// A finished game unpacks into the game it was: every answer a reader gets from it,
    /// its stored rows, its log, seats and end, and each seat's latest answered request;
    /// packing it again gives the same bytes.
    #[test]
    fn unpacks_into_the_game_it_was(
        steps in proptest::collection::vec(step(), 0..120),
        timed in any::<bool>(),
    ) {
        let (rec, header, now) = finished(&steps, timed);
        let packed = rec.pack(&header, now);
        let back = packed.unpack(&header, None, now).unwrap();
        prop_assert_eq!(seen(&back, &header, now), seen(&rec, &header, now));
        prop_assert_eq!(back.history.answered.entries(), latest_per_seat(&rec.history.answered));
        prop_assert_eq!(packed.outcome(), rec.game().outcome());
        prop_assert_eq!(packed.ply(), rec.game().ply());
        prop_assert_eq!(&packed.seats(), rec.seats());
        prop_assert_eq!(&back.pack(&header, now).bytes, &packed.bytes);
    }

    /// A move sent after the end gets from the packed game the refusal the rebuilt game gives
    /// it, and only a retry of a kept answer is left to the rebuilt game: for each seat, its
    /// own latest answered key, the other seat's, a key never used and none.
    #[test]
    fn a_late_move_is_refused_as_the_rebuilt_game_refuses_it(
        steps in proptest::collection::vec(step(), 0..120),
        timed in any::<bool>(),
    ) {
        let (rec, header, now) = finished(&steps, timed);
        let packed = rec.pack(&header, now);
        let kept: Vec<u64> = rec.history.answered.answers().map(|a| a.key).collect();
        let late = Action::Move {
            text: decode::move_text("e2e4").unwrap(),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        };
        for seat in Color::ALL {
            for key in kept.iter().copied().map(Some).chain([Some(u64::MAX), None]) {
                let mut back = packed.unpack(&header, None, now).unwrap();
                let retry = key.is_some_and(|k| back.history.answered.find(k, seat).is_some());
                match packed.late_move(&header, seat, key) {
                    None => prop_assert!(retry, "{seat:?} {key:?}: left to the rebuilt game"),
                    Some(refusal) => {
                        prop_assert!(!retry, "{seat:?} {key:?}: a retry refused");
                        let rebuilt = back.apply(seat, &late, key, now, &mut Vec::new());
                        prop_assert_eq!(
                            format!("{:?}", rebuilt.err()),
                            format!("{:?}", Some(refusal))
                        );
                    }
                }
            }
        }
    }
}

/// A game mated on the clock unpacks as it was (the mating move stopped the clocks); a
/// retry of that move still gets its answer and plays nothing, and another request is
/// refused as the game is over.
#[test]
fn the_last_move_is_still_answered() {
    let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
    let (mut rec, _, now) = record("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Some(tc));
    let mate = Action::Move {
        text: decode::move_text("a1a8").unwrap(),
        expected_ply: None,
        request_id: RequestId::parse("mate").unwrap(),
        offer_draw: false,
    };
    rec.apply(Color::White, &mate, Some(42), now, &mut Vec::new())
        .unwrap();
    assert!(rec.is_over());
    let header = header_of(&rec);
    let mut back = rec.pack(&header, now).unpack(&header, None, now).unwrap();
    assert!(matches!(
        back.history.log[0].kind,
        LogKind::Move {
            clocks_stopped: true,
            ..
        }
    ));
    assert_eq!(seen(&back, &header, now), seen(&rec, &header, now));
    let mut out = Vec::new();
    let again = back
        .apply(Color::White, &mate, Some(42), now, &mut out)
        .unwrap();
    assert_eq!(again.map(|m| m.ply), Some(1));
    assert!(out.is_empty(), "nothing played twice");
    let other = back.apply(Color::White, &mate, Some(43), now, &mut out);
    assert!(other.is_err(), "{other:?}");
}

/// Moves of every shape keep their two bytes: promotions, drops, castling.
#[test]
fn move_codes_round_trip() {
    for text in [
        "e2e4", "e7e8q", "a2a1n", "N@f3", "P@a2", "e1g1", "e1h1", "h7h8k",
    ] {
        let uci: UciMove = text.parse().unwrap();
        assert_eq!(move_uci(move_code(uci)), Some(uci), "{text}");
    }
}

/// Zigzag keeps small changes of either sign in one byte's worth.
#[test]
fn zigzag_round_trips() {
    for n in [0, 1, -1, 63, -64, i64::from(u32::MAX), -i64::from(u32::MAX)] {
        assert_eq!(unzigzag(zigzag(n)), n);
    }
    assert!(zigzag(-64) < 128);
}
