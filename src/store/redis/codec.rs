//! How a game looks in Redis: key names, the game hash, stream entries, seat digests and
//! request-id keys.
//!
//! Everything written is plain text (fields of a hash, fields of a stream entry), so an
//! operator can read a game with `redis-cli HGETALL` and `XRANGE`. Decoding checks every field
//! and says which one is wrong: a damaged game is refused (INTERNAL, logged), never guessed at.
//!
//! Seat tokens never reach Redis: the game hash keeps their SHA-256 digests (`game::Seats`;
//! empty for a seat bound to a player without a seat token). A CreateGame retried on another
//! replica therefore cannot get the tokens back (see the store's `create`). Stream entries are
//! the domain's `EventRow`s, field by field.
//!
//! Fields added since the first layout (`labels`, `white_id`, `black_id`, `nonce`,
//! `feed_id`; `black_initial_ms`, `black_increment_ms`, `clock_start`, `first_move_ms`) are
//! optional when read: a game written by an earlier version has none, and reads as a game
//! without labels or bound players, with the same time for both sides, clocks from its
//! creation and no first-move timer.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use chessd_rules::{
    ByColor, Color, DrawRule, Outcome, Position, Rules, Termination, UciMove, Variant,
};

use crate::game::LogEntry;
use crate::game::takeback::Line;
use crate::game::{
    ClockChange, ClockStart, EventRow, GameHeader, GameId, GameRecord, GameStatus, Labels, LogKind,
    Now, PlayerId, Players, Seats, StartRules, TakebackPolicy, TimeControl, TokenDigest, epoch_ms,
    from_epoch_ms,
};
use crate::store::feed::header as feed_header;
use crate::store::redis::keys::{self, hex, sha256};

/// `2 * N` hex digits as bytes.
pub fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// What a creation request asks for, hashed: a retry must ask for the same. (The parts a game
/// of the first layout could not have are hashed only when present, so its fingerprint is
/// what it always was.)
#[must_use]
pub fn fingerprint(meta: &Meta) -> String {
    let h = &meta.header;
    let tc = h
        .time_control
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
    let fen = h.start.fen();
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
    if h.start_rules != StartRules::default() {
        parts.push(start_rules_text(h.start_rules).into_bytes());
    }
    if meta.takebacks != TakebackPolicy::Off {
        parts.push(takebacks_code(meta.takebacks).as_bytes().to_vec());
    }
    // Hashed only when it is not the default, so a game that could not choose keeps the
    // fingerprint it always had.
    if h.claim_after != crate::game::presence::default_claim_after(h.time_control) {
        parts.push(format!("claim_after={}", h.claim_after.as_millis()).into_bytes());
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    hex(&sha256("chessd create fingerprint", &parts))
}

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
pub struct Meta {
    pub header: Arc<GameHeader>,
    /// SHA-256 of each seat's token (none for a seat without one).
    pub seats: Seats,
    /// The `takebacks` field; absent (a game of an earlier layout): off.
    pub takebacks: TakebackPolicy,
    /// The header as a feed entry's `h` field holds it, written once per game a replica holds
    /// rather than on every move (see [`Meta::feed_header`]).
    pub feed_header: OnceLock<String>,
    /// The names a move's append gives its script, written once (see [`Meta::append_names`]).
    pub append_names: OnceLock<keys::AppendNames>,
}

impl Meta {
    /// The header in one text, for the `h` field of the game's feed entries.
    pub fn feed_header(&self) -> &str {
        self.feed_header
            .get_or_init(|| feed_header::joined(&self.header))
    }

    /// The keys, id and channel of the game's append script.
    pub fn append_names(&self) -> &keys::AppendNames {
        self.append_names
            .get_or_init(|| keys::AppendNames::of(&self.header))
    }
}

fn takebacks_code(p: TakebackPolicy) -> &'static str {
    match p {
        TakebackPolicy::Off => "off",
        TakebackPolicy::OnRequest => "on-request",
    }
}

/// Where a game stands, as the list reads it from the game hash (kept by the scripts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: GameStatus,
    pub ply: u32,
    /// The current position's FEN.
    pub fen: String,
    pub outcome: Option<Outcome>,
}

impl Summary {
    /// The fields that change as the game goes on, as `(field, value)` pairs.
    #[must_use]
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("status", (self.status as u8).to_string()),
            ("ply", self.ply.to_string()),
            ("fen", self.fen.clone()),
            (
                "outcome",
                self.outcome.map(outcome_text).unwrap_or_default(),
            ),
        ]
    }
}

/// A seat's digest as the hash keeps it ("": no seat token).
fn digest_field(seats: &Seats, c: Color) -> String {
    seats
        .digest(c)
        .map(|d| hex(d.as_bytes()))
        .unwrap_or_default()
}

/// Every field of a new game's hash (its seq starts at 0). `nonce` names this creation: the
/// create script compares it to tell its own creation, run again, from another game that drew
/// the same id.
#[must_use]
pub fn new_game_fields(meta: &Meta, summary: &Summary, nonce: &str) -> Vec<(&'static str, String)> {
    let h = &meta.header;
    let mut fields = vec![
        ("variant", h.variant().key().to_owned()),
        ("start", h.start.fen()),
        ("white", h.players.white.clone()),
        ("black", h.players.black.clone()),
        ("draw_rule", h.draw_rule.key().to_owned()),
        ("white_digest", digest_field(&meta.seats, Color::White)),
        ("black_digest", digest_field(&meta.seats, Color::Black)),
        ("created_ms", epoch_ms(h.created_at).to_string()),
        ("seq", "0".to_owned()),
        ("nonce", nonce.to_owned()),
        ("labels", h.labels.to_stored()),
        (
            "white_id",
            h.players
                .ids
                .white()
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        ),
        (
            "black_id",
            h.players
                .ids
                .black()
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
        ),
    ];
    fields.push(("claim_after_ms", h.claim_after.as_millis().to_string()));
    if let Some(tc) = h.time_control {
        fields.push(("initial_ms", tc.initial.as_millis().to_string()));
        fields.push(("increment_ms", tc.increment.as_millis().to_string()));
        if let Some(d) = tc.black_initial {
            fields.push(("black_initial_ms", d.as_millis().to_string()));
        }
        if let Some(d) = tc.black_increment {
            fields.push(("black_increment_ms", d.as_millis().to_string()));
        }
    }
    fields.push(("clock_start", h.start_rules.clock_start.to_string()));
    if let Some(t) = h.start_rules.first_move_timeout {
        fields.push(("first_move_ms", t.as_millis().to_string()));
    }
    fields.push(("takebacks", takebacks_code(meta.takebacks).to_owned()));
    fields.extend(summary.fields());
    fields
}

/// A bound player id as the hash keeps it ("": none), read back.
fn player_field(map: &HashMap<String, String>, name: &str) -> Result<Option<PlayerId>, String> {
    match map.get(name).map(String::as_str) {
        None | Some("") => Ok(None),
        Some(text) => PlayerId::checked(text)
            .map(Some)
            .map_err(|e| format!("field {name}: {e}")),
    }
}

/// The game hash of game `id` read back.
pub fn decode_meta(id: GameId, map: &HashMap<String, String>) -> Result<Meta, String> {
    let field = |name: &str| -> Result<&str, String> {
        map.get(name)
            .map(String::as_str)
            .ok_or_else(|| format!("field {name} missing"))
    };
    let number = |name: &str| -> Result<u64, String> {
        field(name)?
            .parse()
            .map_err(|_| format!("field {name} is not a number"))
    };
    let variant: Variant = field("variant")?
        .parse()
        .map_err(|_| "unknown variant".to_owned())?;
    let start =
        Position::from_fen(variant, field("start")?).map_err(|e| format!("start position: {e}"))?;
    let draw_rule = field("draw_rule")?;
    let draw_rule: DrawRule = draw_rule
        .parse()
        .map_err(|_| format!("draw rule {draw_rule:?}"))?;
    let optional_ms = |name: &str| -> Result<Option<Duration>, String> {
        map.contains_key(name)
            .then(|| number(name).map(Duration::from_millis))
            .transpose()
    };
    let time_control = if map.contains_key("initial_ms") {
        Some(TimeControl {
            initial: Duration::from_millis(number("initial_ms")?),
            increment: Duration::from_millis(number("increment_ms")?),
            black_initial: optional_ms("black_initial_ms")?,
            black_increment: optional_ms("black_increment_ms")?,
        })
    } else {
        None
    };
    let start_rules = StartRules {
        clock_start: map
            .get("clock_start")
            .map(|t| t.parse::<ClockStart>())
            .transpose()?
            .unwrap_or_default(),
        first_move_timeout: optional_ms("first_move_ms")?,
    };
    let digest = |name: &str| -> Result<Option<TokenDigest>, String> {
        match field(name)? {
            "" => Ok(None),
            text => unhex::<32>(text)
                .and_then(|bytes| TokenDigest::from_slice(&bytes))
                .map(Some)
                .ok_or_else(|| format!("field {name} is not a digest")),
        }
    };
    let labels = match map.get("labels") {
        Some(text) => Labels::from_stored(text)?,
        None => Labels::default(),
    };
    let takebacks = match map.get("takebacks").map(String::as_str) {
        None | Some("off") => TakebackPolicy::Off,
        Some("on-request") => TakebackPolicy::OnRequest,
        Some(other) => return Err(format!("takebacks {other:?}")),
    };
    Ok(Meta {
        header: Arc::new(GameHeader {
            id,
            players: Players {
                white: field("white")?.to_owned(),
                black: field("black")?.to_owned(),
                ids: ByColor::new(
                    player_field(map, "white_id")?,
                    player_field(map, "black_id")?,
                ),
            },
            labels: Arc::new(labels),
            start,
            time_control,
            start_rules,
            draw_rule,
            created_at: from_epoch_ms(number("created_ms")?),
            // A game of an earlier version has none: it has the default.
            claim_after: if map.contains_key("claim_after_ms") {
                Duration::from_millis(number("claim_after_ms")?)
            } else {
                crate::game::presence::default_claim_after(time_control)
            },
        }),
        seats: Seats::new(ByColor::new(
            digest("white_digest")?,
            digest("black_digest")?,
        )),
        takebacks,
        feed_header: OnceLock::new(),
        append_names: OnceLock::new(),
    })
}

/// A monotonic deadline as Unix milliseconds.
pub fn deadline_ms(record: &GameRecord, now: Now) -> Option<u64> {
    record.deadline().map(|d| {
        let left = d.saturating_duration_since(now.mono);
        epoch_ms(now.wall + left)
    })
}

pub fn summary(record: &GameRecord) -> Summary {
    let game = record.game();
    Summary {
        status: GameStatus::of(game.outcome()),
        ply: game.ply(),
        fen: game.position().fen(),
        outcome: game.outcome(),
    }
}

/// The result-count field a finished game raises (`-`: aborted, counted nowhere).
pub fn result_field(variant: Variant, record: &GameRecord) -> String {
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
pub const SUMMARY_FIELDS: [&str; 10] = [
    "variant", "white", "black", "status", "ply", "fen", "outcome", "labels", "white_id",
    "black_id",
];

/// A game as a list reads it from its hash.
pub struct Listed {
    pub variant: Variant,
    pub players: Players,
    pub labels: Labels,
    pub summary: Summary,
}

/// A game hash's [`SUMMARY_FIELDS`] read back (`None`: the game is gone).
pub fn decode_summary(values: &[Option<String>]) -> Result<Option<Listed>, String> {
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
    let variant: Variant = v.parse().map_err(|_| "unknown variant".to_owned())?;
    let status = match st.as_str() {
        "0" => GameStatus::Ongoing,
        "1" => GameStatus::Finished,
        "2" => GameStatus::Aborted,
        other => return Err(format!("status {other:?}")),
    };
    Ok(Some(Listed {
        variant,
        players: Players {
            white: w.clone(),
            black: b.clone(),
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

/// An outcome as text: winner (`w`, `b` or `-`), a colon, the termination's index.
fn outcome_text(o: Outcome) -> String {
    let winner = match o.winner {
        Some(Color::White) => "w",
        Some(Color::Black) => "b",
        None => "-",
    };
    let term = Termination::ALL
        .iter()
        .position(|&t| t == o.termination)
        .unwrap_or(0);
    format!("{winner}:{term}")
}

fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let (w, t) = text
        .split_once(':')
        .ok_or_else(|| format!("outcome {text:?}"))?;
    let winner = match w {
        "w" => Some(Color::White),
        "b" => Some(Color::Black),
        "-" => None,
        _ => return Err(format!("outcome {text:?}")),
    };
    let termination = t
        .parse::<usize>()
        .ok()
        .and_then(|i| Termination::ALL.get(i).copied())
        .ok_or_else(|| format!("outcome {text:?}"))?;
    Ok(Outcome {
        winner,
        termination,
    })
}

fn color_text(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(format!("side {other:?}")),
    }
}

/// An event's stream-entry fields, as `field value field value ...`.
#[must_use]
pub fn row_fields(row: &EventRow) -> Vec<String> {
    let mut f: Vec<String> = vec![
        "at".into(),
        row.at_ms.to_string(),
        "kind".into(),
        kind_name(&row.kind).into(),
    ];
    match row.kind {
        LogKind::Move {
            clocks_ms,
            clocks_stopped,
        } => {
            f.push("log_clocks".into());
            f.push(format!("{},{}", clocks_ms.white(), clocks_ms.black()));
            f.push("stopped".into());
            f.push(if clocks_stopped { "1" } else { "0" }.into());
        }
        LogKind::DrawOffered(_)
        | LogKind::DrawDeclined(_)
        | LogKind::GameOver
        | LogKind::TakebackProposed(_)
        | LogKind::TakebackDeclined(_) => {}
        LogKind::ClockChanged {
            clocks_ms,
            change,
            running,
        } => {
            f.push("log_clocks".into());
            f.push(format!("{},{}", clocks_ms.white(), clocks_ms.black()));
            f.push("change".into());
            f.push(change.to_string());
            f.push("running".into());
            f.push(if running { "1" } else { "0" }.into());
        }
        LogKind::TakenBack {
            plies,
            clocks_ms,
            running,
            ..
        } => {
            f.push("plies".into());
            f.push(plies.to_string());
            f.push("log_clocks".into());
            f.push(format!("{},{}", clocks_ms.white(), clocks_ms.black()));
            f.push("running".into());
            f.push(if running { "1" } else { "0" }.into());
        }
    }
    if let Some(mv) = row.mv {
        f.push("uci".into());
        f.push(mv.to_string());
    }
    if let Some(seat) = row.seat {
        f.push("seat".into());
        f.push(color_text(seat).into());
    }
    if let Some(rid) = &row.request_id {
        f.push("request_id".into());
        f.push(rid.clone());
    }
    if let Some(clocks) = row.clocks_ms {
        f.push("clocks".into());
        f.push(format!("{},{}", clocks.white(), clocks.black()));
    }
    if let Some(o) = row.outcome {
        f.push("outcome".into());
        f.push(outcome_text(o));
    }
    f
}

/// A stream entry as XRANGE returns it: its id and its fields, flattened.
pub type Entry = (String, Vec<String>);

/// What tells an event apart from another a store may hold at the same seq (see `cache`):
/// its time in milliseconds and its kind's stored name.
pub type EventKey = (u64, &'static str);

/// The key of the copy's event `entry`.
#[must_use]
pub fn event_key(entry: &LogEntry) -> EventKey {
    (entry.at_ms, kind_name(&entry.kind))
}

/// An event key as the game hash keeps it (`last`), `ms:kind`; "" for none.
#[must_use]
pub fn event_key_text(key: Option<EventKey>) -> String {
    key.map(|(ms, kind)| format!("{ms}:{kind}"))
        .unwrap_or_default()
}

/// Whether stream entry `entry` is event `seq` with the key `key`.
#[must_use]
pub fn entry_is(entry: &Entry, seq: u64, key: EventKey) -> bool {
    let (id, flat) = entry;
    let field = |name: &str| {
        flat.chunks_exact(2)
            .find(|kv| kv[0] == name)
            .map(|kv| kv[1].as_str())
    };
    *id == format!("{seq}-0")
        && field("at").and_then(|t| t.parse::<u64>().ok()) == Some(key.0)
        && field("kind") == Some(key.1)
}

/// A kind's name in the stream (`kind`).
fn kind_name(kind: &LogKind) -> &'static str {
    match kind {
        LogKind::Move { .. } => "move",
        LogKind::DrawOffered(_) => "offer",
        LogKind::DrawDeclined(_) => "decline",
        LogKind::GameOver => "over",
        LogKind::ClockChanged { .. } => "clock",
        LogKind::TakebackProposed(_) => "tb-offer",
        LogKind::TakebackDeclined(_) => "tb-decline",
        LogKind::TakenBack { .. } => "tb",
    }
}

/// Decodes entries that follow event `first_seq - 1` on `line` (the moves standing after the
/// events before them, advanced here past every move and takeback).
pub fn decode_rows(
    line: &mut Line<'_>,
    first_seq: u64,
    entries: &[Entry],
) -> Result<Vec<EventRow>, String> {
    let mut rows = Vec::with_capacity(entries.len());
    for (i, (id, flat)) in entries.iter().enumerate() {
        let seq = first_seq + i as u64;
        if id != &format!("{seq}-0") {
            return Err(format!("entry {id} where event {seq} was expected"));
        }
        let fields: HashMap<&str, &str> = flat
            .chunks_exact(2)
            .map(|kv| (kv[0].as_str(), kv[1].as_str()))
            .collect();
        let get = |name: &str| fields.get(name).copied();
        let bad = |what: &str| format!("event {seq}: {what}");
        let at_ms = get("at")
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| bad("time"))?;
        let seat = get("seat").map(parse_color).transpose()?;
        let pair = |text: &str| -> Option<ByColor<u64>> {
            let (a, b) = text.split_once(',')?;
            Some(ByColor::new(a.parse().ok()?, b.parse().ok()?))
        };
        let clocks_ms = match get("clocks") {
            Some(text) => Some(pair(text).ok_or_else(|| bad("clocks"))?),
            None => None,
        };
        let outcome = get("outcome").map(parse_outcome).transpose()?;
        let mut mv = None;
        let kind = match get("kind") {
            Some("move") => {
                let text = get("uci").ok_or_else(|| bad("a move without its move"))?;
                let uci: UciMove = text.parse().map_err(|_| bad("malformed move"))?;
                let position = line.position();
                let m = uci
                    .to_move(position)
                    .map_err(|e| bad(&format!("{text} in {}: {e}", position.fen())))?;
                line.play(m);
                mv = Some(m);
                let log = get("log_clocks")
                    .and_then(pair)
                    .ok_or_else(|| bad("move clocks"))?;
                LogKind::Move {
                    clocks_ms: log.map(|ms| u32::try_from(ms).unwrap_or(u32::MAX)),
                    clocks_stopped: get("stopped") == Some("1"),
                }
            }
            Some("offer") => LogKind::DrawOffered(seat.ok_or_else(|| bad("offer without side"))?),
            Some("decline") => {
                LogKind::DrawDeclined(seat.ok_or_else(|| bad("decline without side"))?)
            }
            Some("over") => LogKind::GameOver,
            Some("clock") => {
                let log = get("log_clocks")
                    .and_then(pair)
                    .ok_or_else(|| bad("change clocks"))?;
                let change: ClockChange = get("change")
                    .ok_or_else(|| bad("a clock change without its change"))?
                    .parse()
                    .map_err(|e: String| bad(&e))?;
                LogKind::ClockChanged {
                    clocks_ms: log.map(|ms| u32::try_from(ms).unwrap_or(u32::MAX)),
                    change,
                    running: get("running") == Some("1"),
                }
            }
            Some("tb-offer") => {
                LogKind::TakebackProposed(seat.ok_or_else(|| bad("takeback without side"))?)
            }
            Some("tb-decline") => {
                LogKind::TakebackDeclined(seat.ok_or_else(|| bad("takeback without side"))?)
            }
            Some("tb") => {
                let plies: u8 = get("plies")
                    .and_then(|t| t.parse().ok())
                    .filter(|&p| p > 0)
                    .ok_or_else(|| bad("takeback plies"))?;
                line.take_back(plies).map_err(|e| bad(&e))?;
                let log = get("log_clocks")
                    .and_then(pair)
                    .ok_or_else(|| bad("takeback clocks"))?;
                LogKind::TakenBack {
                    plies,
                    by: seat.ok_or_else(|| bad("takeback without side"))?,
                    clocks_ms: log.map(|ms| u32::try_from(ms).unwrap_or(u32::MAX)),
                    running: get("running") == Some("1"),
                }
            }
            _ => return Err(bad("unknown kind")),
        };
        rows.push(EventRow {
            seq,
            at_ms,
            kind,
            mv,
            seat,
            request_id: get("request_id").map(str::to_owned),
            clocks_ms,
            outcome,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash stores digests only: a token's clear text appears nowhere in it.
    #[test]
    fn digests_not_tokens() {
        let tokens = crate::game::SeatToken::pair().unwrap();
        let id: GameId = "0000000000001".parse().unwrap();
        let meta = Meta {
            header: Arc::new(GameHeader {
                id,
                players: Players {
                    white: "w".into(),
                    black: "b".into(),
                    ..Players::default()
                },
                labels: Arc::default(),
                start: Position::new(Variant::Chess),
                time_control: None,
                start_rules: StartRules::default(),
                draw_rule: DrawRule::Claim,
                created_at: from_epoch_ms(1),
                claim_after: Duration::from_secs(7),
            }),
            seats: Seats::of(&tokens.map(Some)),
            takebacks: TakebackPolicy::OnRequest,
            feed_header: OnceLock::new(),
            append_names: OnceLock::new(),
        };
        let summary = Summary {
            status: GameStatus::Ongoing,
            ply: 0,
            fen: meta.header.start.fen(),
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
            ("start", Variant::Chess.start_fen()),
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
                Variant::Chess.start_fen().as_bytes(),
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

    /// Rows survive the trip through stream fields, moves resolved in their position.
    #[test]
    fn rows_round_trip() {
        let start = Position::new(Variant::Chess);
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        let rows = vec![
            EventRow {
                seq: 1,
                at_ms: 1_000,
                kind: LogKind::Move {
                    clocks_ms: ByColor::new(59_000, 60_000),
                    clocks_stopped: false,
                },
                mv: Some(e4),
                seat: Some(Color::White),
                request_id: Some("r 1".into()),
                clocks_ms: Some(ByColor::new(59_000, 60_000)),
                outcome: None,
            },
            EventRow {
                seq: 2,
                at_ms: 1_500,
                kind: LogKind::DrawOffered(Color::Black),
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: None,
                outcome: None,
            },
            EventRow {
                seq: 3,
                at_ms: 1_700,
                kind: LogKind::ClockChanged {
                    clocks_ms: ByColor::new(74_000, 60_000),
                    change: ClockChange {
                        side: Color::White,
                        reason: crate::game::ClockReason::Given,
                    },
                    running: true,
                },
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: Some(ByColor::new(74_000, 60_000)),
                outcome: None,
            },
            EventRow {
                seq: 4,
                at_ms: 1_600,
                kind: LogKind::TakebackProposed(Color::White),
                mv: None,
                seat: Some(Color::White),
                request_id: None,
                clocks_ms: None,
                outcome: None,
            },
            EventRow {
                seq: 5,
                at_ms: 1_700,
                kind: LogKind::TakebackDeclined(Color::Black),
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: None,
                outcome: None,
            },
            EventRow {
                seq: 6,
                at_ms: 1_800,
                kind: LogKind::TakenBack {
                    plies: 1,
                    by: Color::White,
                    clocks_ms: ByColor::new(58_000, 60_000),
                    running: true,
                },
                mv: None,
                seat: Some(Color::White),
                request_id: None,
                clocks_ms: Some(ByColor::new(58_000, 60_000)),
                outcome: None,
            },
            EventRow {
                seq: 7,
                at_ms: 2_000,
                kind: LogKind::GameOver,
                mv: None,
                seat: None,
                request_id: None,
                clocks_ms: Some(ByColor::new(1, 2)),
                outcome: Some(Outcome::win(Color::White, Termination::Resignation)),
            },
        ];
        let entries: Vec<Entry> = rows
            .iter()
            .map(|r| (format!("{}-0", r.seq), row_fields(r)))
            .collect();
        let mut line = Line::from_start(start);
        assert_eq!(decode_rows(&mut line, 1, &entries).unwrap(), rows);
        assert_eq!(line.position(), &start, "e4 was taken back");
        let mut line = Line::from_start(start);
        assert_eq!(decode_rows(&mut line, 1, &entries[..1]).unwrap(), rows[..1]);
        assert_eq!(line.position().turn(), Color::Black);
        let mut line = Line::from_start(start);
        assert!(decode_rows(&mut line, 2, &entries).is_err(), "a gap");
        let mut line = Line::from_start(start);
        assert!(
            decode_rows(&mut line, 6, &entries[5..6]).is_err(),
            "a takeback of more moves than stand"
        );
        // Each stored entry is known again by its event's key, and by no other.
        for (row, entry) in rows.iter().zip(&entries) {
            let key = event_key(&LogEntry {
                at_ms: row.at_ms,
                kind: row.kind,
            });
            assert!(entry_is(entry, row.seq, key), "{entry:?}");
            assert!(!entry_is(entry, row.seq + 1, key), "another seq");
            assert!(
                !entry_is(entry, row.seq, (key.0 + 1, key.1)),
                "another time"
            );
        }
        assert!(!entry_is(&entries[0], 1, (1_000, "offer")), "another kind");
        assert_eq!(event_key_text(Some((1_000, "move"))), "1000:move");
        assert_eq!(event_key_text(None), "");
    }
}
