//! How a game looks in Redis: key names, the game hash, stream entries, seat digests and
//! request-id keys.
//!
//! Everything written is plain text (fields of a hash, fields of a stream entry), so an
//! operator can read a game with `redis-cli HGETALL` and `XRANGE`. Decoding checks every field
//! and says which one is wrong: a damaged game is refused (INTERNAL, logged), never guessed at.
//!
//! Seat tokens never reach Redis: the game hash keeps their SHA-256 digests
//! ([`seat_digests`] is the one place that makes them). A CreateGame retried on another
//! replica therefore cannot get the tokens back (see the store's `create`).

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chessd_rules::{
    Color, DrawRule, Move, Outcome, Position, Rules, Termination, UciMove, Variant,
};
use sha2::{Digest, Sha256};

use crate::error::ServiceError;
use crate::store::events::LogKind;
use crate::store::journal::EventRow;
use crate::store::{GameId, GameStatus, Players, TimeControl};
use crate::token::{SeatToken, TokenDigest};

/// Buckets the games are sharded into. Every key a script touches is one bucket's: the
/// game's own keys and its bucket's list, deadlines, finished set, live count and result
/// counts share the bucket's hash tag, so each script is one atomic change in one Redis
/// Cluster slot, and the counts stay exact. Readers go over every bucket (ListGames merges
/// their lists, GetStats sums their counts, every replica sweeps every bucket's deadlines), so
/// more buckets spread a cluster's load more evenly at the price of more reads per list and
/// sweep. Part of the key layout: changing it moves games to other keys.
pub const BUCKETS: usize = 16;

// A bucket is read from an id's low bits, of which there are 22: a power of two keeps every
// bucket equally likely and lets [`in_bucket`] place an id in a chosen one.
const _: () = assert!(BUCKETS.is_power_of_two() && BUCKETS <= 1 << 22);

/// Keys of the layout before buckets (one shared list, deadline set, counts), checked at start
/// so a deployment never serves while games of the old layout sit unseen.
pub const OLD_LAYOUT_KEYS: [&str; 3] = ["chessd:games", "chessd:live", "chessd:stats"];

/// A game's bucket: its id's random low bits, so games spread evenly and every replica finds
/// the bucket from the id alone.
#[must_use]
pub fn bucket_of(id: GameId) -> usize {
    (id.get() % BUCKETS as u64) as usize
}

/// `random` with its low bits replaced so that the id drawn from it falls in `bucket`.
#[must_use]
pub fn in_bucket(random: u64, bucket: usize) -> u64 {
    (random & !(BUCKETS as u64 - 1)) | bucket as u64
}

/// The bucket a CreateGame request id's record lives in (the game it makes is drawn in the
/// same bucket, so the script sees both).
#[must_use]
pub fn bucket_of_request(request_id: &str) -> usize {
    let h = sha256("chessd create bucket", &[request_id.as_bytes()]);
    (u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]) % BUCKETS as u64) as usize
}

/// A bucket's keys: `{chessd:bNN}` is the hash tag that puts them all in one cluster slot.
#[must_use]
pub fn bucket_key(bucket: usize, name: &str) -> String {
    format!("{{chessd:b{bucket:02}}}:{name}")
}

/// Every game id of a bucket, ordered by id (a sorted set with score 0, read by lexical range:
/// ids are fixed-width base32, so text order is creation order).
#[must_use]
pub fn games_key(bucket: usize) -> String {
    bucket_key(bucket, "games")
}

/// Deadlines of a bucket's ongoing games, the earlier of the flag and `--abandon-after` since
/// the last move (score: Unix milliseconds).
#[must_use]
pub fn deadlines_key(bucket: usize) -> String {
    bucket_key(bucket, "deadlines")
}

/// A bucket's finished games (score: when they ended, Unix milliseconds), for the count limit
/// and retention.
#[must_use]
pub fn finished_key(bucket: usize) -> String {
    bucket_key(bucket, "finished")
}

/// A bucket's result counts: `<variant>:w`, `<variant>:b`, `<variant>:d`.
#[must_use]
pub fn stats_key(bucket: usize) -> String {
    bucket_key(bucket, "stats")
}

/// A bucket's ongoing games, for `--max-live-games` across replicas.
#[must_use]
pub fn live_key(bucket: usize) -> String {
    bucket_key(bucket, "live")
}

/// How long a CreateGame request id is remembered (a retry comes within seconds).
pub const CREATE_MEMORY: Duration = Duration::from_secs(24 * 60 * 60);

/// The game's hash, in its bucket's slot.
#[must_use]
pub fn game_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("game:{id}"))
}

/// The game's event stream; entry `<seq>-0` is event `seq`.
#[must_use]
pub fn events_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("events:{id}"))
}

/// The pub/sub channel that announces a game's new events (the payload is the last seq).
/// Published with plain PUBLISH, which a Redis Cluster relays to every node, so its slot does
/// not matter (see `follow`).
#[must_use]
pub fn channel(id: GameId) -> String {
    format!("chessd:{{{id}}}:appended")
}

/// The game a channel name announces.
#[must_use]
pub fn game_of_channel(name: &str) -> Option<GameId> {
    name.strip_prefix("chessd:{")?
        .strip_suffix("}:appended")?
        .parse()
        .ok()
}

/// A SHA-256 of `parts`, each length-prefixed so no two lists hash alike.
fn sha256(domain: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(domain.as_bytes());
    for part in parts {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// The digests a game keeps of its seat tokens, White first: the only form in which tokens
/// are stored.
#[must_use]
pub fn seat_digests(tokens: &[SeatToken; 2]) -> [TokenDigest; 2] {
    tokens.map(|t| t.digest())
}

/// The seat whose digest `token` has. Both seats are compared in constant time, always.
pub fn seat_of(digests: &[TokenDigest; 2], token: &SeatToken) -> Result<Color, ServiceError> {
    let presented = token.digest();
    let white = digests[0].matches(&presented);
    let black = digests[1].matches(&presented);
    match (white, black) {
        (true, _) => Ok(Color::White),
        (false, true) => Ok(Color::Black),
        (false, false) => Err(ServiceError::InvalidToken),
    }
}

/// The key a move's request id is remembered by. Every replica must compute the same key, so
/// it is a hash with no per-process secret: SHA-256, whose 64-bit prefix nobody can aim a
/// collision at.
#[must_use]
pub fn request_key(request_id: &str) -> u64 {
    let h = sha256("chessd move request", &[request_id.as_bytes()]);
    u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]])
}

/// The Redis key of a CreateGame request id's record (the id itself is not stored), in the
/// bucket [`bucket_of_request`] names.
#[must_use]
pub fn create_key(request_id: &str) -> String {
    let digest = hex(&sha256("chessd create request", &[request_id.as_bytes()]));
    bucket_key(bucket_of_request(request_id), &format!("create:{digest}"))
}

/// What a creation request asks for, hashed: a retry must ask for the same.
#[must_use]
pub fn fingerprint(meta: &Meta) -> String {
    let tc = meta
        .time_control
        .map(|tc| format!("{}+{}", tc.initial.as_millis(), tc.increment.as_millis()))
        .unwrap_or_default();
    hex(&sha256(
        "chessd create fingerprint",
        &[
            meta.start.fen().as_bytes(),
            meta.start.variant().key().as_bytes(),
            tc.as_bytes(),
            meta.players.white.as_bytes(),
            meta.players.black.as_bytes(),
            draw_rule_code(meta.draw_rule).as_bytes(),
        ],
    ))
}

/// Unix milliseconds.
#[must_use]
pub fn epoch_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What never changes in a game once created.
#[derive(Clone, Debug)]
pub struct Meta {
    pub start: Position,
    pub draw_rule: DrawRule,
    pub time_control: Option<TimeControl>,
    pub players: Players,
    /// SHA-256 of each seat's token, White first.
    pub digests: [TokenDigest; 2],
    pub created_at_ms: u64,
}

fn draw_rule_code(rule: DrawRule) -> &'static str {
    match rule {
        DrawRule::Claim => "claim",
        DrawRule::Automatic => "automatic",
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

/// Every field of a new game's hash (its seq starts at 0).
#[must_use]
/// The `white_digest` field's value for `meta`: the create script compares it to tell its own
/// creation, run again, from another game that drew the same id.
pub fn white_digest_field(meta: &Meta) -> String {
    hex(meta.digests[0].as_bytes())
}

pub fn new_game_fields(meta: &Meta, summary: &Summary) -> Vec<(&'static str, String)> {
    let mut fields = vec![
        ("variant", meta.start.variant().key().to_owned()),
        ("start", meta.start.fen()),
        ("white", meta.players.white.clone()),
        ("black", meta.players.black.clone()),
        ("draw_rule", draw_rule_code(meta.draw_rule).to_owned()),
        ("white_digest", white_digest_field(meta)),
        ("black_digest", hex(meta.digests[1].as_bytes())),
        ("created_ms", meta.created_at_ms.to_string()),
        ("seq", "0".to_owned()),
    ];
    if let Some(tc) = meta.time_control {
        fields.push(("initial_ms", tc.initial.as_millis().to_string()));
        fields.push(("increment_ms", tc.increment.as_millis().to_string()));
    }
    fields.extend(summary.fields());
    fields
}

/// The game hash read back.
pub fn decode_meta(map: &HashMap<String, String>) -> Result<Meta, String> {
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
    let draw_rule = match field("draw_rule")? {
        "claim" => DrawRule::Claim,
        "automatic" => DrawRule::Automatic,
        other => return Err(format!("draw rule {other:?}")),
    };
    let time_control = if map.contains_key("initial_ms") {
        Some(TimeControl {
            initial: Duration::from_millis(number("initial_ms")?),
            increment: Duration::from_millis(number("increment_ms")?),
        })
    } else {
        None
    };
    let digest = |name: &str| -> Result<TokenDigest, String> {
        unhex::<32>(field(name)?)
            .and_then(|bytes| TokenDigest::from_slice(&bytes))
            .ok_or_else(|| format!("field {name} is not a digest"))
    };
    Ok(Meta {
        start,
        draw_rule,
        time_control,
        players: Players {
            white: field("white")?.to_owned(),
            black: field("black")?.to_owned(),
        },
        digests: [digest("white_digest")?, digest("black_digest")?],
        created_at_ms: number("created_ms")?,
    })
}

/// The fields ListGames reads from a game hash, in this order.
pub const SUMMARY_FIELDS: [&str; 7] = [
    "variant", "white", "black", "status", "ply", "fen", "outcome",
];

/// A game hash's [`SUMMARY_FIELDS`] read back (`None`: the game is gone).
pub fn decode_summary(
    values: &[Option<String>],
) -> Result<Option<(Variant, Players, Summary)>, String> {
    let [
        Some(v),
        Some(w),
        Some(b),
        Some(st),
        Some(ply),
        Some(fen),
        Some(o),
    ] = values
    else {
        return Ok(None);
    };
    let variant: Variant = v.parse().map_err(|_| "unknown variant".to_owned())?;
    let status = match st.as_str() {
        "0" => GameStatus::Ongoing,
        "1" => GameStatus::Finished,
        "2" => GameStatus::Aborted,
        other => return Err(format!("status {other:?}")),
    };
    Ok(Some((
        variant,
        Players {
            white: w.clone(),
            black: b.clone(),
        },
        Summary {
            status,
            ply: ply.parse().map_err(|_| "ply".to_owned())?,
            fen: fen.clone(),
            outcome: if o.is_empty() {
                None
            } else {
                Some(parse_outcome(o)?)
            },
        },
    )))
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

/// One event as a stream entry stores it: the journal's row, which `GameRecord::restore`
/// plays back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub seq: u64,
    pub at_ms: u64,
    pub kind: LogKind,
    pub mv: Option<Move>,
    pub seat: Option<Color>,
    pub request_id: Option<String>,
    pub clocks_ms: Option<[u64; 2]>,
    pub outcome: Option<Outcome>,
}

impl From<EventRow> for Row {
    fn from(r: EventRow) -> Row {
        Row {
            seq: r.seq,
            at_ms: r.at_ms,
            kind: r.kind,
            mv: r.mv,
            seat: r.seat,
            request_id: r.request_id,
            clocks_ms: r.clocks_ms,
            outcome: r.outcome,
        }
    }
}

impl Row {
    #[must_use]
    pub fn to_event_row(&self) -> EventRow {
        EventRow {
            seq: self.seq,
            at_ms: self.at_ms,
            kind: self.kind,
            mv: self.mv,
            seat: self.seat,
            request_id: self.request_id.clone(),
            clocks_ms: self.clocks_ms,
            outcome: self.outcome,
        }
    }

    /// The entry's fields, as `field value field value ...`.
    #[must_use]
    pub fn fields(&self) -> Vec<String> {
        let mut f: Vec<String> = vec!["at".into(), self.at_ms.to_string(), "kind".into()];
        match self.kind {
            LogKind::Move {
                clocks_ms,
                clocks_stopped,
            } => {
                f.push("move".into());
                f.push("log_clocks".into());
                f.push(format!("{},{}", clocks_ms[0], clocks_ms[1]));
                f.push("stopped".into());
                f.push(if clocks_stopped { "1" } else { "0" }.into());
            }
            LogKind::DrawOffered(_) => f.push("offer".into()),
            LogKind::DrawDeclined(_) => f.push("decline".into()),
            LogKind::GameOver => f.push("over".into()),
        }
        if let Some(mv) = self.mv {
            f.push("uci".into());
            f.push(mv.to_string());
        }
        if let Some(seat) = self.seat {
            f.push("seat".into());
            f.push(color_text(seat).into());
        }
        if let Some(rid) = &self.request_id {
            f.push("request_id".into());
            f.push(rid.clone());
        }
        if let Some([w, b]) = self.clocks_ms {
            f.push("clocks".into());
            f.push(format!("{w},{b}"));
        }
        if let Some(o) = self.outcome {
            f.push("outcome".into());
            f.push(outcome_text(o));
        }
        f
    }
}

/// A stream entry as XRANGE returns it: its id and its fields, flattened.
pub type Entry = (String, Vec<String>);

/// Decodes entries that follow event `first_seq - 1` in `position` (the position after the
/// events before them, advanced here past every move).
pub fn decode_rows(
    position: &mut Position,
    first_seq: u64,
    entries: &[Entry],
) -> Result<Vec<Row>, String> {
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
        let pair = |text: &str| -> Option<[u64; 2]> {
            let (a, b) = text.split_once(',')?;
            Some([a.parse().ok()?, b.parse().ok()?])
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
                let m = uci
                    .to_move(position)
                    .map_err(|e| bad(&format!("{text} in {}: {e}", position.fen())))?;
                position.play_unchecked(m);
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
            _ => return Err(bad("unknown kind")),
        };
        rows.push(Row {
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

    /// Digests open the right seat only; a token's clear text appears nowhere in them.
    #[test]
    fn digests_identify_seats() {
        let tokens = [
            SeatToken::generate().unwrap(),
            SeatToken::generate().unwrap(),
        ];
        let digests = seat_digests(&tokens);
        assert_eq!(seat_of(&digests, &tokens[0]).unwrap(), Color::White);
        assert_eq!(seat_of(&digests, &tokens[1]).unwrap(), Color::Black);
        assert!(matches!(
            seat_of(&digests, &SeatToken::generate().unwrap()),
            Err(ServiceError::InvalidToken)
        ));
        let stored = hex(digests[0].as_bytes()) + &hex(digests[1].as_bytes());
        assert!(!stored.contains(&tokens[0].to_string()));
    }

    /// Rows survive the trip through stream fields, moves resolved in their position.
    #[test]
    fn rows_round_trip() {
        let start = Position::new(Variant::Chess);
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        let rows = vec![
            Row {
                seq: 1,
                at_ms: 1_000,
                kind: LogKind::Move {
                    clocks_ms: [59_000, 60_000],
                    clocks_stopped: false,
                },
                mv: Some(e4),
                seat: Some(Color::White),
                request_id: Some("r 1".into()),
                clocks_ms: Some([59_000, 60_000]),
                outcome: None,
            },
            Row {
                seq: 2,
                at_ms: 1_500,
                kind: LogKind::DrawOffered(Color::Black),
                mv: None,
                seat: Some(Color::Black),
                request_id: None,
                clocks_ms: None,
                outcome: None,
            },
            Row {
                seq: 3,
                at_ms: 2_000,
                kind: LogKind::GameOver,
                mv: None,
                seat: None,
                request_id: None,
                clocks_ms: Some([1, 2]),
                outcome: Some(Outcome::win(Color::White, Termination::Resignation)),
            },
        ];
        let entries: Vec<Entry> = rows
            .iter()
            .map(|r| (format!("{}-0", r.seq), r.fields()))
            .collect();
        let mut position = start;
        assert_eq!(decode_rows(&mut position, 1, &entries).unwrap(), rows);
        assert_eq!(position.turn(), Color::Black);
        let mut position = start;
        assert!(decode_rows(&mut position, 2, &entries).is_err(), "a gap");
    }

    /// Channel names carry the game id back.
    #[test]
    fn channels_name_games() {
        let id: GameId = "0000000000001".parse().unwrap();
        assert_eq!(game_of_channel(&channel(id)), Some(id));
        assert_eq!(game_of_channel("chessd:{zz}:appended"), None);
    }

    /// A game's keys and its bucket's shared keys carry one hash tag (one cluster slot), and a
    /// creation's request record is in the bucket of the game drawn for it.
    #[test]
    fn a_game_and_its_bucket_share_a_tag() {
        let tag = |key: &str| key[..key.find('}').unwrap() + 1].to_owned();
        for n in 0..64u64 {
            let id = GameId::new(UNIX_EPOCH + Duration::from_secs(1_700_000_000), n);
            let b = bucket_of(id);
            assert_eq!(b, (n % BUCKETS as u64) as usize);
            let tags = [
                tag(&game_key(id)),
                tag(&events_key(id)),
                tag(&games_key(b)),
                tag(&deadlines_key(b)),
                tag(&finished_key(b)),
                tag(&stats_key(b)),
                tag(&live_key(b)),
            ];
            assert!(tags.iter().all(|t| *t == tags[0]), "{tags:?}");
        }
        let id = GameId::new(SystemTime::now(), in_bucket(u64::MAX, 5));
        assert_eq!(bucket_of(id), 5);
        let rid = "create-1";
        assert_eq!(
            tag(&create_key(rid)),
            tag(&games_key(bucket_of_request(rid)))
        );
        assert!(OLD_LAYOUT_KEYS.iter().all(|k| !k.starts_with('{')));
    }
}
