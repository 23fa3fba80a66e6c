//! How a game's hash looks in Redis: its header, seat digests and takeback policy (the domain
//! codec's `game_fields`, under the names the hash has always had), the summary the scripts
//! keep, and the creation's fingerprint (its stream entries are `stream`'s, the domain codec's
//! event line).
//!
//! Everything written is plain text (fields of a hash, fields of a stream entry), so an
//! operator can read a game with `redis-cli HGETALL` and `XRANGE`. Decoding checks every field
//! and says which one is wrong: a damaged game is refused (INTERNAL, logged), never guessed at.
//!
//! Seat tokens never reach Redis: the game hash keeps their SHA-256 digests (`game::Seats`;
//! empty for a seat bound to a player without a seat token). A CreateGame retried on another
//! replica therefore cannot get the tokens back (see the store's `create`).
//!
//! Fields added since the first layout (`labels`, `white_id`, `black_id`, `nonce`,
//! `feed_id`; `black_initial_ms`, `black_increment_ms`, `clock_start`, `first_move_ms`,
//! `takebacks`, `claim_after_ms`) are optional when read (the codec's rule: absent or empty is
//! the default), so a game written by an earlier version reads as a game without labels or
//! bound players, with the same time for both sides, clocks from its creation and no
//! first-move timer.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use chessd_rules::{ByColor, Color, Outcome, any::AnyVariant};

pub(super) use crate::game::codec::unhex;
use crate::game::codec::{
    decode_game, game_fields, header_fields, outcome_text, parse_outcome, takebacks_key,
};
use crate::game::{
    GameHeader, GameId, GameRecord, GameStatus, Labels, Now, PlayerId, Players, Seats, StartRules,
    TakebackPolicy, epoch_ms,
};
use crate::store::feed::header as feed_header;
use crate::store::redis::keys::{self, hex, sha256};
use crate::store::redis::scripts::APPEND_STATE;
pub(super) use crate::store::redis::stream::{
    Entry, decode_rows, entry, entry_fields, entry_is, event_key, event_key_text,
};

/// What a creation request asks for, hashed: a retry must ask for the same. (The parts a game
/// of the first layout could not have are hashed only when present, so its fingerprint is
/// what it always was.)
#[must_use]
pub(super) fn fingerprint(meta: &Meta) -> String {
    let h = &meta.header;
    let tc = h
        .time_control()
        .map(|tc| {
            let mut text = format!("{}+{}", tc.initial.as_millis(), tc.increment.as_millis());
            // Black's own times only when given, so an even game fingerprints as it always did.
            if tc.black_initial.is_some() || tc.black_increment.is_some() {
                text += &format!(
                    "/{}+{}",
                    tc.initial_of(Color::Black).as_millis(),
                    tc.increment_of(Color::Black).as_millis()
                );
            }

            text
        })
        .unwrap_or_default();
    let fen = h.start.position().fen();
    let mut parts: Vec<Vec<u8>> = vec![
        fen.into_bytes(),
        h.variant().key().as_bytes().to_vec(),
        tc.into_bytes(),
        h.players.white.as_bytes().to_vec(),
        h.players.black.as_bytes().to_vec(),
        h.draw_rule.key().as_bytes().to_vec(),
    ];
    let bound = h.players.ids.white().is_some() || h.players.ids.black().is_some();
    if bound || !h.labels.is_empty() {
        parts.push(h.labels.to_stored().into_bytes());
        for c in [Color::White, Color::Black] {
            parts.push(
                h.players.ids[c]
                    .as_ref()
                    .map_or(Vec::new(), |p| p.as_str().into()),
            );
            parts.push(vec![u8::from(meta.seats.digest(c).is_some())]);
        }
    }
    if h.start_rules() != StartRules::default() {
        parts.push(start_rules_text(h.start_rules()).into_bytes());
    }
    if meta.takebacks != TakebackPolicy::Off {
        parts.push(takebacks_key(meta.takebacks).as_bytes().to_vec());
    }
    // Hashed only when it is not the default, so a game that could not choose keeps the
    // fingerprint it always had.
    if h.claim_after() != crate::game::presence::default_claim_after(h.time_control()) {
        parts.push(format!("claim_after={}", h.claim_after().as_millis()).into_bytes());
    }
    // The players' entropy is the seats', not the header's: hashed apart, and only when asked
    // for, so every other game keeps its fingerprint.
    if meta.seats.player_entropy() {
        parts.push(b"player_entropy".to_vec());
    }
    // A header field added after these is hashed as `name=value` with no change here: the
    // codec leaves it out at its default, so a game without it keeps its fingerprint.
    for (name, value) in header_fields(h) {
        if !HASHED.contains(&name) {
            parts.push(format!("{name}={value}").into_bytes());
        }
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    hex(&sha256("chessd create fingerprint", &parts))
}

/// The header fields [`fingerprint`] hashes in its own way, or leaves out (`created_ms`: a
/// retry is made later than the game it finds).
const HASHED: [&str; 16] = [
    "variant",
    "start",
    "white",
    "black",
    "draw_rule",
    "created_ms",
    "claim_after_ms",
    "white_id",
    "black_id",
    "labels",
    "initial_ms",
    "increment_ms",
    "black_initial_ms",
    "black_increment_ms",
    "clock_start",
    "first_move_ms",
];

/// A game's start rules as one line of text, for fingerprints.
fn start_rules_text(rules: StartRules) -> String {
    format!(
        "{} {}",
        rules.clock_start,
        rules
            .first_move_timeout
            .map_or(String::new(), |t| t.as_millis().to_string())
    )
}

/// What never changes in a game once created: its header and its seats' token digests.
#[derive(Clone, Debug)]
pub(super) struct Meta {
    pub header: Arc<GameHeader>,
    /// SHA-256 of each seat's token (none for a seat without one).
    pub seats: Seats,
    /// The `takebacks` field; absent (a game of an earlier layout): off.
    pub takebacks: TakebackPolicy,
    /// The header as the line of each of the game's feed entries holds it, written once per
    /// game a replica holds rather than on every move (see [`Meta::feed_header`]).
    pub feed_header: OnceLock<String>,
    /// The names a move's append gives its script, written once (see [`Meta::append_names`]).
    pub append_names: OnceLock<Arc<keys::AppendNames>>,
}

impl Meta {
    /// The header in one text, for the line of each of the game's feed entries.
    pub(super) fn feed_header(&self) -> &str {
        self.feed_header
            .get_or_init(|| feed_header::joined(&self.header))
    }

    /// The keys, id and channel of the game's append script.
    pub(super) fn append_names(&self) -> &Arc<keys::AppendNames> {
        self.append_names
            .get_or_init(|| Arc::new(keys::AppendNames::of(&self.header)))
    }
}

/// Where a game stands, as the list reads it from the game hash (kept by the scripts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    pub status: GameStatus,
    pub ply: u32,
    /// The current position's FEN.
    pub fen: String,
    pub outcome: Option<Outcome>,
}

impl Summary {
    /// The values of the fields that change as the game goes on, in the order of
    /// [`APPEND_STATE`], the names the append script writes them under.
    fn values(&self) -> [Cow<'_, str>; 4] {
        [
            Cow::Borrowed(status_key(self.status)),
            Cow::Owned(self.ply.to_string()),
            Cow::Borrowed(&self.fen),
            self.outcome
                .map_or(Cow::Borrowed(""), |o| Cow::Owned(outcome_text(o))),
        ]
    }

    /// The fields that change as the game goes on, as `(field, value)` pairs.
    #[must_use]
    pub(super) fn fields(&self) -> Vec<(&'static str, String)> {
        APPEND_STATE
            .into_iter()
            .zip(self.values().map(Cow::into_owned))
            .collect()
    }

    /// The values of [`fields`](Summary::fields), as the append script takes them.
    pub(super) fn put_values(&self, args: &mut ::redis::Cmd) {
        for value in self.values() {
            args.arg(value.as_ref());
        }
    }
}

/// A status as the hash keeps it: a fixed key per status, not its place in the enum (the
/// scripts and the feed's reader compare it to `0`, so the keys stay digits).
fn status_key(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "0",
        GameStatus::Finished => "1",
        GameStatus::Aborted => "2",
    }
}

/// Every field of a new game's hash (its seq starts at 0). `nonce` names this creation: the
/// create script compares it to tell its own creation, run again, from another game that drew
/// the same id.
#[must_use]
pub(super) fn new_game_fields(
    meta: &Meta,
    summary: &Summary,
    nonce: &str,
) -> Vec<(&'static str, String)> {
    let mut fields = game_fields(&meta.header, &meta.seats, meta.takebacks);
    fields.push(("seq", "0".to_owned()));
    fields.push(("nonce", nonce.to_owned()));
    fields.extend(summary.fields());
    fields
}

/// The game hash of game `id` read back.
pub(super) fn decode_meta(id: GameId, map: &HashMap<String, String>) -> Result<Meta, String> {
    let fields: HashMap<&str, &str> = map.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let stored = decode_game(id, &fields)?;
    Ok(Meta {
        header: Arc::new(stored.header),
        seats: stored.seats,
        takebacks: stored.takebacks,
        feed_header: OnceLock::new(),
        append_names: OnceLock::new(),
    })
}

/// A monotonic deadline as Unix milliseconds.
pub(super) fn deadline_ms(record: &GameRecord, now: Now) -> Option<u64> {
    record.deadline().map(|d| {
        let left = d.saturating_duration_since(now.mono);
        epoch_ms(now.wall + left)
    })
}

pub(super) fn summary(record: &GameRecord) -> Summary {
    summary_with(record, None)
}

/// [`summary`], with the position's FEN when the caller already has it written.
pub(super) fn summary_with(record: &GameRecord, fen: Option<&str>) -> Summary {
    let game = record.game();
    debug_assert!(
        fen.is_none_or(|f| f == game.position().fen()),
        "the FEN given is the current position's"
    );
    Summary {
        status: GameStatus::of(game.outcome()),
        ply: game.ply(),
        fen: fen.map_or_else(|| game.position().fen(), str::to_owned),
        outcome: game.outcome(),
    }
}

/// The result-count field a finished game raises (`-`: aborted, counted nowhere).
pub(super) fn result_field(variant: AnyVariant, record: &GameRecord) -> String {
    match record.game().outcome() {
        None => String::new(),
        Some(o) if o.termination.is_abort() => "-".into(),
        Some(o) => {
            let side = match o.winner {
                Some(Color::White) => "w",
                Some(Color::Black) => "b",
                None => "d",
            };
            format!("{}:{side}", variant.key())
        }
    }
}

/// The fields ListGames reads from a game hash, in this order (the last three are absent
/// from games of the first layout).
pub(super) const SUMMARY_FIELDS: [&str; 10] = [
    "variant", "white", "black", "status", "ply", "fen", "outcome", "labels", "white_id",
    "black_id",
];

/// A game as a list reads it from its hash.
pub(super) struct Listed {
    pub variant: AnyVariant,
    pub players: Players,
    pub labels: Labels,
    pub summary: Summary,
}

/// A game hash's [`SUMMARY_FIELDS`] read back (`None`: the game is gone).
pub(super) fn decode_summary(values: &[Option<String>]) -> Result<Option<Listed>, String> {
    let [
        Some(v),
        Some(w),
        Some(b),
        Some(st),
        Some(ply),
        Some(fen),
        Some(o),
        labels,
        white_id,
        black_id,
    ] = values
    else {
        return Ok(None);
    };
    let id = |text: &Option<String>| -> Result<Option<PlayerId>, String> {
        match text.as_deref() {
            None | Some("") => Ok(None),
            Some(t) => PlayerId::checked(t).map(Some),
        }
    };
    let labels = match labels {
        Some(text) => Labels::from_stored(text)?,
        None => Labels::default(),
    };
    let variant: AnyVariant = v.parse().map_err(|_| "unknown variant".to_owned())?;
    let status = [
        GameStatus::Ongoing,
        GameStatus::Finished,
        GameStatus::Aborted,
    ]
    .into_iter()
    .find(|&s| status_key(s) == st)
    .ok_or_else(|| format!("status {st:?}"))?;
    Ok(Some(Listed {
        variant,
        players: Players {
            white: w.as_str().into(),
            black: b.as_str().into(),
            ids: ByColor::new(id(white_id)?, id(black_id)?),
        },
        labels,
        summary: Summary {
            status,
            ply: ply.parse().map_err(|_| "ply".to_owned())?,
            fen: fen.clone(),
            outcome: if o.is_empty() {
                None
            } else {
                Some(parse_outcome(o)?)
            },
        },
    }))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{DrawRule, any::AnyPosition};

    use super::*;
    use crate::game::{ClockStart, HeaderParts, TimeControl, from_epoch_ms};

    /// The hash stores digests only: a token's clear text appears nowhere in it.
    #[test]
    fn digests_not_tokens() {
        let tokens = crate::game::SeatToken::pair().unwrap();
        let id: GameId = "0000000000001".parse().unwrap();
        let meta = Meta {
            header: Arc::new(GameHeader::new(HeaderParts {
                id,
                players: Players {
                    white: "w".into(),
                    black: "b".into(),
                    ..Players::default()
                },
                labels: Arc::default(),
                start: AnyPosition::new(AnyVariant::CHESS).into(),
                time_control: None,
                start_rules: StartRules::default(),
                draw_rule: DrawRule::Claim,
                created_at: from_epoch_ms(1),
                claim_after: Duration::from_secs(7),
                public_delay: 0,
            })),
            seats: Seats::of(&tokens.map(Some)),
            takebacks: TakebackPolicy::OnRequest,
            feed_header: OnceLock::new(),
            append_names: OnceLock::new(),
        };
        let summary = Summary {
            status: GameStatus::Ongoing,
            ply: 0,
            fen: meta.header.start.position().fen(),
            outcome: None,
        };
        let fields = new_game_fields(&meta, &summary, "n");
        for token in [tokens.white(), tokens.black()] {
            assert!(fields.iter().all(|(_, v)| !v.contains(&token.to_string())));
        }
        let map: HashMap<String, String> =
            fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        let back = decode_meta(id, &map).unwrap();
        assert_eq!(back.seats.seat_of(tokens.black()).unwrap(), Color::Black);
        assert_eq!(back.header, meta.header);
        assert_eq!(back.takebacks, TakebackPolicy::OnRequest);
    }

    /// A game hash of the first layout (no labels, no player ids, no nonce) reads as a game
    /// without labels or bound players, and keeps the fingerprint it always had.
    #[test]
    fn first_layout_hashes_still_read() {
        let map: HashMap<String, String> = [
            ("variant", "chess"),
            ("start", AnyVariant::CHESS.start_fen()),
            ("white", "alice"),
            ("black", "bob"),
            ("draw_rule", "claim"),
            ("white_digest", &"ab".repeat(32)),
            ("black_digest", &"cd".repeat(32)),
            ("created_ms", "1700000000000"),
            ("seq", "0"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let id: GameId = "0000000000002".parse().unwrap();
        let meta = decode_meta(id, &map).unwrap();
        assert!(meta.header.labels.is_empty());
        assert_eq!(meta.takebacks, TakebackPolicy::Off);
        assert_eq!(meta.header.players.ids, ByColor::new(None, None));
        assert!(meta.seats.digest(Color::White).is_some());
        let old = hex(&sha256(
            "chessd create fingerprint",
            &[
                AnyVariant::CHESS.start_fen().as_bytes(),
                b"chess",
                b"",
                b"alice",
                b"bob",
                b"claim",
            ],
        ));
        assert_eq!(fingerprint(&meta), old);
        let summary: Vec<Option<String>> = ["chess", "alice", "bob", "0", "0", "x", ""]
            .into_iter()
            .map(|v| Some(v.to_owned()))
            .chain([None, None, None])
            .collect();
        let listed = decode_summary(&summary).unwrap().unwrap();
        assert!(listed.labels.is_empty());
    }

    proptest::proptest! {
        /// Every header field the codec wrote when the generic `name=value` parts came is
        /// hashed in its own way, so no game's fingerprint changed with them; only fields
        /// added since (a byoyomi's, a delayed view's) take the generic way.
        #[test]
        fn todays_fields_fingerprint_as_before(
            stored in crate::game::codec::header_tests::stored_header()
        ) {
            for (name, _) in header_fields(&stored.header) {
                proptest::prop_assert!(
                    HASHED.contains(&name)
                        || ["byoyomi_ms", "periods", "public_delay"].contains(&name),
                    "{}",
                    name
                );
            }
        }
    }

    /// A game hash as the build before the domain's header codec wrote it (every field, empty
    /// ones too: `labels`, `white_id`, `clock_start "creation"`) reads back as that game.
    #[test]
    fn todays_layout_hashes_still_read() {
        let digest = "ef".repeat(32);
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
        let hash = |extra: &[(&str, &str)]| -> HashMap<String, String> {
            [
                ("variant", "chess960"),
                ("start", fen),
                ("white", "ann"),
                ("black", "bob"),
                ("draw_rule", "automatic"),
                ("white_digest", digest.as_str()),
                ("black_digest", ""),
                ("created_ms", "1700000000000"),
                ("seq", "0"),
                ("nonce", "n"),
                ("labels", ""),
                ("white_id", ""),
                ("black_id", "bot-1"),
                ("claim_after_ms", "45000"),
                ("initial_ms", "180000"),
                ("increment_ms", "2000"),
                ("black_initial_ms", "60000"),
                ("first_move_ms", "30000"),
                ("takebacks", "on-request"),
                ("status", "0"),
                ("ply", "0"),
                ("fen", fen),
                ("outcome", ""),
            ]
            .iter()
            .chain(extra)
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
        };
        let id: GameId = "0000000000003".parse().unwrap();
        let meta = decode_meta(id, &hash(&[("clock_start", "creation")])).unwrap();
        let h = &meta.header;
        assert_eq!(
            h.variant(),
            AnyVariant::Std(chessd_rules::Variant::Chess960)
        );
        assert_eq!(h.start.position().fen(), fen);
        assert_eq!(h.draw_rule, DrawRule::Automatic);
        assert!(h.labels.is_empty());
        assert_eq!(h.players.ids.white(), &None);
        assert_eq!(
            h.players.ids.black().as_ref().map(PlayerId::as_str),
            Some("bot-1")
        );
        assert_eq!(
            h.time_control(),
            Some(TimeControl {
                black_initial: Some(Duration::from_secs(60)),
                ..TimeControl::even(Duration::from_secs(180), Duration::from_secs(2))
            })
        );
        assert_eq!(h.start_rules().clock_start, ClockStart::OnCreation);
        assert_eq!(
            h.start_rules().first_move_timeout,
            Some(Duration::from_secs(30))
        );
        assert_eq!(h.claim_after(), Duration::from_secs(45));
        assert_eq!(h.created_at(), from_epoch_ms(1_700_000_000_000));
        assert!(meta.seats.digest(Color::White).is_some());
        assert!(meta.seats.digest(Color::Black).is_none());
        assert_eq!(meta.takebacks, TakebackPolicy::OnRequest);
        // Written again, the hash holds the same values under the same names (empty ones and
        // the default clock start are left out: they read the same).
        let again = new_game_fields(
            &meta,
            &Summary {
                status: GameStatus::Ongoing,
                ply: 0,
                fen: fen.to_owned(),
                outcome: None,
            },
            "n",
        );
        let old = hash(&[("clock_start", "creation")]);
        for (k, v) in &again {
            assert_eq!(old.get(*k), Some(v), "field {k}");
        }
        for (k, v) in &old {
            assert!(
                v.is_empty() || *k == "clock_start" || again.iter().any(|(n, _)| n == k),
                "field {k} lost"
            );
        }
        // A clock start other than the default, as today's layout writes it.
        let meta = decode_meta(id, &hash(&[("clock_start", "at:1700000060000")])).unwrap();
        assert_eq!(
            meta.header.start_rules().clock_start,
            ClockStart::At(from_epoch_ms(1_700_000_060_000))
        );
    }
}
