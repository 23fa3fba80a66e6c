//! The header codec's round trip: random headers (every variant, standard, Chess960 and
//! played-into starts, every time control shape, clock start, takeback policy and draw rule,
//! labels, bound players, seats with and without tokens) read back as written, through fields
//! and through the line. [`stored_header`] is shared with the stores' own round trips.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use chessd_rules::{
    ByColor, DrawRule,
    any::{AnyPosition, AnyVariant},
};
use proptest::prelude::*;

use super::*;
use crate::game::chance::Seed;
use crate::game::{
    Byoyomi, ClockStart, GameHeader, GameId, HeaderParts, Labels, PlayerId, Players, Seats,
    StartRules, TakebackPolicy, TimeControl, TokenDigest, from_epoch_ms,
};

/// A start: the variant's own, Chess960's numbered ones, or a few moves into the variant.
fn start() -> impl Strategy<Value = AnyPosition> {
    (0..AnyVariant::COUNT, 0u32..960, 0usize..6, any::<u32>()).prop_map(|(v, n, plies, pick)| {
        let variant = AnyVariant::all().nth(v).unwrap_or(AnyVariant::CHESS);
        let mut position = if variant == AnyVariant::Std(chessd_rules::Variant::Chess960) {
            AnyPosition::chess960(n).unwrap()
        } else {
            AnyPosition::new(variant)
        };
        for i in 0..plies {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(pick as usize).rotate_left(i as u32 * 5) % legal.len()];
            position.play_unchecked(m);
        }
        position
    })
}

/// Milliseconds a header keeps (it keeps at most `u32::MAX - 1`).
fn kept_ms() -> impl Strategy<Value = Duration> {
    (0u64..u64::from(u32::MAX - 1)).prop_map(Duration::from_millis)
}

fn byoyomi() -> impl Strategy<Value = Option<Byoyomi>> {
    proptest::option::of((1u64..u64::from(u32::MAX), 1..=Byoyomi::MAX_PERIODS))
        .prop_map(|b| b.and_then(|(ms, n)| Byoyomi::new(Duration::from_millis(ms), n)))
}

fn time_control() -> impl Strategy<Value = Option<TimeControl>> {
    proptest::option::of((
        kept_ms(),
        kept_ms(),
        proptest::option::of(kept_ms()),
        proptest::option::of(kept_ms()),
        byoyomi(),
    ))
    .prop_map(|tc| {
        tc.map(
            |(initial, increment, black_initial, black_increment, byoyomi)| TimeControl {
                initial,
                increment,
                black_initial,
                black_increment,
                byoyomi,
            },
        )
    })
}

fn start_rules() -> impl Strategy<Value = StartRules> {
    (0u8..3, 0u64..1 << 44, proptest::option::of(kept_ms())).prop_map(|(k, at, first_move)| {
        StartRules {
            clock_start: match k {
                0 => ClockStart::OnCreation,
                1 => ClockStart::AfterFirstMoves,
                _ => ClockStart::At(from_epoch_ms(at)),
            },
            first_move_timeout: first_move,
        }
    })
}

fn labels() -> impl Strategy<Value = Labels> {
    proptest::collection::btree_map("[a-z][a-z0-9_]{0,8}", "[^\\p{Cc}]{1,12}", 0..5)
        .prop_map(|map: BTreeMap<String, String>| Labels::parse("labels", map.iter()).unwrap())
}

fn players() -> impl Strategy<Value = Players> {
    (
        "[^\\p{Cc}]{0,12}",
        "[^\\p{Cc}]{0,12}",
        proptest::option::of("[!-~]{1,16}"),
        proptest::option::of("[!-~]{1,16}"),
    )
        .prop_map(|(white, black, white_id, black_id)| Players {
            white: white.into(),
            black: black.into(),
            ids: ByColor::new(
                white_id.map(|t| PlayerId::checked(&t).unwrap()),
                black_id.map(|t| PlayerId::checked(&t).unwrap()),
            ),
        })
}

fn seats() -> impl Strategy<Value = Seats> {
    let digest = proptest::option::of(any::<[u8; 32]>())
        .prop_map(|d| d.map(|d| TokenDigest::from_slice(&d).unwrap()));
    let seed = proptest::option::of(any::<[u8; 32]>()).prop_map(|s| s.map(Seed::from_bytes));
    (digest.clone(), digest, seed)
        .prop_map(|(w, b, seed)| Seats::new(ByColor::new(w, b)).with_seed(seed))
}

/// A random game header with its store-only parts.
pub(crate) fn stored_header() -> impl Strategy<Value = StoredHeader> {
    (
        (any::<u64>(), start(), players(), labels()),
        (time_control(), start_rules(), any::<bool>(), 0u64..1 << 44),
        (
            kept_ms(),
            seats(),
            any::<bool>(),
            prop_oneof![Just(0u16), any::<u16>()],
        ),
    )
        .prop_map(
            |(
                (random, start, players, labels),
                (time_control, start_rules, automatic, created_ms),
                (claim_after, seats, takebacks, public_delay),
            )| StoredHeader {
                header: GameHeader::new(HeaderParts {
                    id: GameId::new(from_epoch_ms(created_ms), random),
                    players,
                    labels: labels.shared(),
                    start: start.into(),
                    time_control,
                    start_rules,
                    draw_rule: if automatic {
                        DrawRule::Automatic
                    } else {
                        DrawRule::Claim
                    },
                    created_at: from_epoch_ms(created_ms),
                    claim_after,
                    public_delay,
                }),
                seats,
                takebacks: if takebacks {
                    TakebackPolicy::OnRequest
                } else {
                    TakebackPolicy::Off
                },
            },
        )
}

fn map_of<'a>(fields: &'a [(&'static str, String)]) -> HashMap<&'static str, &'a str> {
    fields.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

proptest! {
    /// A header reads back as written: a store's game through its fields, and the header alone
    /// through its fields.
    #[test]
    fn every_header_reads_back(stored in stored_header()) {
        let id = stored.header.id;
        let fields = game_fields(&stored.header, &stored.seats, stored.takebacks);
        prop_assert_eq!(&decode_game(id, &map_of(&fields)).unwrap(), &stored);
        let fields = header_fields(&stored.header);
        prop_assert_eq!(&decode_header(id, &map_of(&fields)).unwrap(), &stored.header);
    }

    /// Every field name is written once, and none of a store's own (digests, takebacks)
    /// reaches the header's fields, which feed events carry.
    #[test]
    fn a_header_keeps_no_seat_digest(stored in stored_header()) {
        let fields = header_fields(&stored.header);
        let names: std::collections::HashSet<&str> = fields.iter().map(|(k, _)| *k).collect();
        prop_assert_eq!(names.len(), fields.len());
        prop_assert!(!names.iter().any(|n| n.ends_with("_digest") || *n == "takebacks"));
    }
}

/// A game stored before a field existed (only the first layout's fields) reads with every
/// later field at its default; a damaged field is named.
#[test]
fn absent_fields_read_as_defaults_and_damage_is_named() {
    let fen = AnyPosition::new(AnyVariant::CHESS).fen();
    let digest = "ab".repeat(32);
    let mut map: HashMap<&str, &str> = [
        ("variant", "chess"),
        ("start", fen.as_str()),
        ("white", "ann"),
        ("black", "bob"),
        ("draw_rule", "claim"),
        ("created_ms", "1700000000000"),
        ("white_digest", digest.as_str()),
        ("black_digest", ""),
    ]
    .into_iter()
    .collect();
    let id: GameId = "0000000000002".parse().unwrap();
    let stored = decode_game(id, &map).unwrap();
    let h = &stored.header;
    assert!(h.labels.is_empty() && h.players.ids == ByColor::new(None, None));
    assert_eq!(h.time_control(), None);
    assert_eq!(h.start_rules(), StartRules::default());
    assert_eq!(
        h.claim_after(),
        crate::game::presence::default_claim_after(None)
    );
    assert_eq!(stored.takebacks, TakebackPolicy::Off);
    assert!(stored.seats.digest(chessd_rules::Color::Black).is_none());
    // A timed game without an increment field has none.
    map.insert("initial_ms", "60000");
    let tc = decode_header(id, &map).unwrap().time_control().unwrap();
    assert_eq!(tc.increment, Duration::ZERO);
    for (name, bad, said) in [
        ("variant", "chess9", "variant"),
        ("draw_rule", "1", "draw rule"),
        ("created_ms", "x", "created_ms"),
        ("white_id", "a b", "white_id"),
        ("clock_start", "soon", "clock start"),
        ("white_digest", "00", "white_digest"),
        ("takebacks", "1", "takebacks"),
        ("byoyomi_ms", "0", "byoyomi"),
        ("byoyomi_ms", "-5", "byoyomi_ms"),
    ] {
        let mut damaged = map.clone();
        damaged.insert(name, bad);
        let err = decode_game(id, &damaged).unwrap_err();
        assert!(err.contains(said), "{name}: {err}");
    }
    map.remove("white");
    assert!(
        decode_game(id, &map)
            .unwrap_err()
            .contains("field white missing")
    );
}
