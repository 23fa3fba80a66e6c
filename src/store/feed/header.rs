//! A game's header in a feed event: the domain codec's header fields (`game::codec`'s
//! `header_fields`), each under the feed's short name ([`SHORT`]), as fields of the event or
//! all in one text ([`joined`]: what a feed line holds after the event's opening fields, and
//! the `h` field of a Redis feed entry written before 2026-12-06).
//! Every event of a game carries the same header, so a feed reader decodes it once per game
//! (`codec::Headers`).
//!
//! The short names are the feed's since its first entry, kept so that every move's entry stays
//! as small as it was and entries of every build read alike; a field without one (a field
//! added to the codec later) goes under the codec's own name.

use std::collections::HashMap;

use crate::game::codec::{decode_header, header_fields};
use crate::game::{GameHeader, GameId};
use crate::store::feed::text::join;

/// The feed's name of each codec field that has a short one. A timed game's `initial_ms` and
/// `increment_ms` share one, [`TIME_CONTROL`].
const SHORT: [(&str, &str); 14] = [
    ("variant", "v"),
    ("start", "s"),
    ("white", "w"),
    ("black", "b"),
    ("draw_rule", "dr"),
    ("created_ms", "ca"),
    ("claim_after_ms", "cl"),
    ("white_id", "wi"),
    ("black_id", "bi"),
    ("labels", "l"),
    ("black_initial_ms", "tcbi"),
    ("black_increment_ms", "tcbn"),
    ("clock_start", "cs"),
    ("first_move_ms", "fm"),
];

/// The field holding a time control as `initial+increment` (milliseconds).
const TIME_CONTROL: &str = "tc";

/// Appends the header's fields to `f`, in the codec's order. Run for every move a SQLite feed
/// row records, so the codec's strings are moved, not copied.
pub(crate) fn fields(g: &GameHeader, f: &mut Vec<(&'static str, String)>) {
    let header = header_fields(g);
    f.reserve(header.len());
    let (mut initial, mut increment) = (None, None);
    for (name, value) in header {
        match name {
            "initial_ms" => initial = Some((f.len(), value)),
            "increment_ms" => increment = Some(value),
            name => {
                let short = SHORT.iter().find(|(long, _)| *long == name);
                f.push((short.map_or(name, |(_, short)| short), value));
            }
        }
    }
    if let Some((at, mut tc)) = initial {
        tc.push('+');
        tc.push_str(increment.as_deref().unwrap_or("0"));
        f.insert(at, (TIME_CONTROL, tc));
    }
}

/// The header's fields in one text, in `text::join`'s form.
#[must_use]
pub(crate) fn joined(g: &GameHeader) -> String {
    let mut f = Vec::new();
    fields(g, &mut f);
    join(&f)
}

/// The header from its fields (`map` an event's fields, or the fields of an `h`).
pub(crate) fn decode(id: GameId, map: &HashMap<&str, &str>) -> Result<GameHeader, String> {
    let mut codec: HashMap<&str, &str> = map
        .iter()
        .map(|(name, value)| {
            let long = SHORT
                .iter()
                .find(|(_, short)| short == name)
                .map_or(*name, |(long, _)| long);
            (long, *value)
        })
        .collect();
    if let Some(text) = map.get(TIME_CONTROL) {
        let (initial, increment) = text
            .split_once('+')
            .ok_or_else(|| format!("feed event: time control {text:?}"))?;
        codec.insert("initial_ms", initial);
        codec.insert("increment_ms", increment);
    }
    decode_header(id, &codec).map_err(|e| format!("feed event: {e}"))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use chessd_rules::{
        ByColor, DrawRule,
        any::{AnyPosition, AnyVariant},
    };
    use proptest::prelude::*;

    use super::*;
    use crate::game::codec::header_tests::stored_header;
    use crate::game::{
        ClockStart, HeaderParts, Labels, PlayerId, Players, StartRules, TimeControl, from_epoch_ms,
    };
    use crate::store::feed::text::split;

    proptest! {
        /// A header reads back from the feed's fields, alone or among an event's.
        #[test]
        fn every_header_reads_back(stored in stored_header()) {
            let h = &stored.header;
            prop_assert_eq!(&decode(h.id, &split(&joined(h)).unwrap()).unwrap(), h);
            let mut f = vec![("k", "c".to_owned()), ("at", "1".to_owned())];
            fields(h, &mut f);
            let map: HashMap<&str, &str> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            prop_assert_eq!(&decode(h.id, &map).unwrap(), h);
        }
    }

    /// The feed's header is written as it was before the domain's header codec, byte for
    /// byte, so entries of every build read alike; such an entry reads back.
    #[test]
    fn the_feed_form_is_unchanged() {
        let header = GameHeader::new(HeaderParts {
            id: GameId::new(from_epoch_ms(1_767_225_600_000), 77),
            players: Players {
                white: "alice".into(),
                black: "bot".into(),
                ids: ByColor::new(
                    Some(PlayerId::checked("ann-1").unwrap()),
                    Some(PlayerId::checked("bot-1").unwrap()),
                ),
            },
            labels: Arc::new(
                Labels::parse("labels", [(&"round".to_owned(), &"2".to_owned())]).unwrap(),
            ),
            start: AnyPosition::new(AnyVariant::Std(chessd_rules::Variant::KingOfTheHill)).into(),
            time_control: Some(TimeControl {
                initial: Duration::from_secs(180),
                increment: Duration::from_millis(1500),
                black_initial: Some(Duration::from_secs(120)),
                black_increment: Some(Duration::from_secs(1)),
                byoyomi: None,
            }),
            start_rules: StartRules {
                clock_start: ClockStart::AfterFirstMoves,
                first_move_timeout: Some(Duration::from_secs(30)),
            },
            draw_rule: DrawRule::Automatic,
            created_at: from_epoch_ms(1_767_225_600_000),
            claim_after: Duration::from_secs(45),
            public_delay: 0,
        });
        let fen = AnyPosition::new(AnyVariant::Std(chessd_rules::Variant::KingOfTheHill)).fen();
        let old = [
            "v",
            "kingofthehill",
            "s",
            &fen,
            "w",
            "alice",
            "b",
            "bot",
            "dr",
            "automatic",
            "ca",
            "1767225600000",
            "cl",
            "45000",
            "wi",
            "ann-1",
            "bi",
            "bot-1",
            "l",
            "round\u{1f}2",
            "tc",
            "180000+1500",
            "tcbi",
            "120000",
            "tcbn",
            "1000",
            "cs",
            "first-moves",
            "fm",
            "30000",
        ]
        .join("\u{1e}");
        assert_eq!(joined(&header), old);
        assert_eq!(decode(header.id, &split(&old).unwrap()).unwrap(), header);
        // The shortest: an untimed game without ids, labels or start rules.
        let plain = GameHeader::new(HeaderParts {
            id: header.id,
            players: Players::default(),
            labels: Arc::default(),
            start: AnyPosition::new(AnyVariant::CHESS).into(),
            time_control: None,
            start_rules: StartRules::default(),
            draw_rule: DrawRule::Claim,
            created_at: from_epoch_ms(5),
            claim_after: Duration::from_secs(60),
            public_delay: 0,
        });
        let fen = AnyPosition::new(AnyVariant::CHESS).fen();
        let old = [
            "v", "chess", "s", &fen, "w", "", "b", "", "dr", "claim", "ca", "5", "cl", "60000",
        ]
        .join("\u{1e}");
        assert_eq!(joined(&plain), old);
    }
}
