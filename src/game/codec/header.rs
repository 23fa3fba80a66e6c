//! A game's header as stored: the one encoder ([`header_fields`], [`game_fields`],
//! [`write_header`]) and the one decoder ([`decode_header`], [`decode_game`], [`read_header`])
//! of a [`GameHeader`], whatever keeps it (the Redis game hash holds [`game_fields`], the
//! SQLite `games` row one column per field, a feed event [`header_fields`], joined in Redis).
//!
//! The fields, by the names the Redis game hash has always had (so no hash is migrated):
//! `variant` (`Variant::key`), `start` (FEN), `white`, `black`, `draw_rule`
//! (`DrawRule::key`), `created_ms`, `claim_after_ms`; when they are not the default,
//! `white_id`, `black_id`, `labels` (`Labels::to_stored`), `initial_ms` and `increment_ms`
//! (timed games; no `increment_ms`: none), `black_initial_ms`, `black_increment_ms`,
//! `clock_start` (`ClockStart`'s text), `first_move_ms`, `byoyomi_ms` and `periods` (a byoyomi
//! time control: one period's length and how many), `public_delay` (plies of the delayed
//! public view). A store's game adds `white_digest`,
//! `black_digest` (hex; empty: no seat token), `takebacks` ([`takebacks_key`]) and, in a game of
//! chance only, `seed` (hex: the secret of `game::chance`, never in a feed event) and `entropy`
//! (1: the players add their own, `game::entropy`). Numbers are whole milliseconds, times
//! since the Unix epoch.
//!
//! Fields left out at their default keep a feed entry, written on every move, short; and a
//! field added later is left out of every game that does not use it, so such a game is
//! written as it was before (the Redis creation fingerprint relies on it).
//!
//! A field that is absent, or empty, reads as its default: games written before it existed
//! have none (no labels, no bound player, clocks from creation, no first-move timer, takebacks
//! off, the time control's default claim grace).

use std::collections::HashMap;
use std::time::Duration;

use chessd_rules::{
    ByColor, Color, DrawRule,
    any::{AnyPosition, AnyVariant},
};

use crate::game::chance::{SEED_BYTES, Seed};
use crate::game::presence::default_claim_after;
use crate::game::{
    Byoyomi, ClockStart, GameHeader, GameId, HeaderParts, Labels, PlayerId, Players, Seats,
    StartRules, TakebackPolicy, TimeControl, TokenDigest, epoch_ms, from_epoch_ms,
};

/// What a store keeps of a game besides its events: the header, and what only the store may
/// see or the record needs (never in a feed event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoredHeader {
    pub header: GameHeader,
    pub seats: Seats,
    pub takebacks: TakebackPolicy,
}

/// A takeback policy's stored key.
#[must_use]
pub(crate) fn takebacks_key(p: TakebackPolicy) -> &'static str {
    match p {
        TakebackPolicy::Off => "off",
        TakebackPolicy::OnRequest => "on-request",
    }
}

/// Whole milliseconds' text (as `u64`: a `u128`'s is slower to write, and no kept duration
/// needs more).
fn ms(d: Duration) -> String {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).to_string()
}

/// The header's fields: what every store and every feed event keeps of it.
#[must_use]
pub(crate) fn header_fields(h: &GameHeader) -> Vec<(&'static str, String)> {
    let mut f = vec![
        ("variant", h.variant().key().to_owned()),
        ("start", h.start.position().fen()),
        ("white", h.players.white.to_string()),
        ("black", h.players.black.to_string()),
        ("draw_rule", h.draw_rule.key().to_owned()),
        ("created_ms", epoch_ms(h.created_at()).to_string()),
        ("claim_after_ms", ms(h.claim_after())),
    ];
    for (c, name) in [(Color::White, "white_id"), (Color::Black, "black_id")] {
        if let Some(id) = &h.players.ids[c] {
            f.push((name, id.to_string()));
        }
    }
    if !h.labels.is_empty() {
        f.push(("labels", h.labels.to_stored()));
    }
    if let Some(tc) = h.time_control() {
        f.push(("initial_ms", ms(tc.initial)));
        f.push(("increment_ms", ms(tc.increment)));
        if let Some(d) = tc.black_initial {
            f.push(("black_initial_ms", ms(d)));
        }
        if let Some(d) = tc.black_increment {
            f.push(("black_increment_ms", ms(d)));
        }
        if let Some(b) = tc.byoyomi {
            f.push(("byoyomi_ms", ms(b.period())));
            f.push(("periods", b.periods().to_string()));
        }
    }
    let rules = h.start_rules();
    if rules.clock_start != ClockStart::OnCreation {
        f.push(("clock_start", rules.clock_start.to_string()));
    }
    if let Some(d) = rules.first_move_timeout {
        f.push(("first_move_ms", ms(d)));
    }
    if h.public_delay() > 0 {
        f.push(("public_delay", h.public_delay().to_string()));
    }
    f
}

/// A store's game: the header's fields, then its seats' digests and its takeback policy.
#[must_use]
pub(crate) fn game_fields(
    h: &GameHeader,
    seats: &Seats,
    takebacks: TakebackPolicy,
) -> Vec<(&'static str, String)> {
    let mut f = header_fields(h);
    for (c, name) in [
        (Color::White, "white_digest"),
        (Color::Black, "black_digest"),
    ] {
        f.push((
            name,
            seats
                .digest(c)
                .map(|d| hex(d.as_bytes()))
                .unwrap_or_default(),
        ));
    }
    f.push(("takebacks", takebacks_key(takebacks).to_owned()));
    // Only a game of chance has a seed; the field's absence keeps other games' rows as they
    // were.
    if let Some(seed) = seats.seed() {
        f.push(("seed", hex(seed.as_bytes())));
    }
    if seats.player_entropy() {
        f.push(("entropy", "1".to_owned()));
    }
    f
}

/// Game `id`'s header from its fields (other fields in `map` are not looked at). Every field
/// is checked; a wrong one is named, never guessed at.
pub(crate) fn decode_header(id: GameId, map: &HashMap<&str, &str>) -> Result<GameHeader, String> {
    // Absent and empty read alike: the default.
    let get = |name: &str| map.get(name).copied().filter(|t| !t.is_empty());
    let field = |name: &str| {
        map.get(name)
            .copied()
            .ok_or_else(|| format!("field {name} missing"))
    };
    let number = |text: &str, name: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("field {name} is not a number"))
    };
    let duration = |name: &str| -> Result<Option<Duration>, String> {
        get(name)
            .map(|t| number(t, name).map(Duration::from_millis))
            .transpose()
    };
    let variant = field("variant")?;
    let variant: AnyVariant = variant
        .parse()
        .map_err(|_| format!("unknown variant {variant:?}"))?;
    let start = AnyPosition::from_fen(variant, field("start")?)
        .map_err(|e| format!("start position: {e}"))?;
    let draw_rule = field("draw_rule")?;
    let draw_rule: DrawRule = draw_rule
        .parse()
        .map_err(|_| format!("draw rule {draw_rule:?}"))?;
    let player = |name: &str| -> Result<Option<PlayerId>, String> {
        get(name)
            .map(|t| PlayerId::checked(t).map_err(|e| format!("field {name}: {e}")))
            .transpose()
    };
    let time_control = match duration("initial_ms")? {
        None => None,
        Some(initial) => Some(TimeControl {
            initial,
            increment: duration("increment_ms")?.unwrap_or_default(),
            black_initial: duration("black_initial_ms")?,
            black_increment: duration("black_increment_ms")?,
            byoyomi: match duration("byoyomi_ms")? {
                None => None,
                Some(period) => {
                    let periods = number(get("periods").unwrap_or("1"), "periods")?;
                    let periods = u32::try_from(periods).unwrap_or(u32::MAX);
                    Some(Byoyomi::new(period, periods).ok_or_else(|| {
                        format!("byoyomi of {periods} periods of {period:?} is out of bounds")
                    })?)
                }
            },
        }),
    };
    let start_rules = StartRules {
        clock_start: get("clock_start")
            .map(str::parse::<ClockStart>)
            .transpose()?
            .unwrap_or_default(),
        first_move_timeout: duration("first_move_ms")?,
    };
    Ok(GameHeader::new(HeaderParts {
        id,
        players: Players {
            white: field("white")?.into(),
            black: field("black")?.into(),
            ids: ByColor::new(player("white_id")?, player("black_id")?),
        },
        labels: get("labels")
            .map(Labels::from_stored)
            .transpose()?
            .unwrap_or_default()
            .shared(),
        start: start.into(),
        time_control,
        start_rules,
        draw_rule,
        created_at: from_epoch_ms(number(field("created_ms")?, "created_ms")?),
        claim_after: duration("claim_after_ms")?
            .unwrap_or_else(|| default_claim_after(time_control)),
        public_delay: match get("public_delay") {
            None => 0,
            Some(t) => u16::try_from(number(t, "public_delay")?)
                .map_err(|_| "field public_delay is out of bounds".to_owned())?,
        },
    }))
}

/// A store's game `id` from its fields ([`game_fields`]' form).
pub(crate) fn decode_game(id: GameId, map: &HashMap<&str, &str>) -> Result<StoredHeader, String> {
    let digest = |name: &str| -> Result<Option<TokenDigest>, String> {
        match map.get(name).copied() {
            None => Err(format!("field {name} missing")),
            Some("") => Ok(None),
            Some(text) => unhex::<32>(text)
                .and_then(|bytes| TokenDigest::from_slice(&bytes))
                .map(Some)
                .ok_or_else(|| format!("field {name} is not a digest")),
        }
    };
    let takebacks = match map.get("takebacks").copied() {
        None | Some("" | "off") => TakebackPolicy::Off,
        Some("on-request") => TakebackPolicy::OnRequest,
        Some(other) => return Err(format!("takebacks {other:?}")),
    };
    let seed = match map.get("seed").copied() {
        None | Some("") => None,
        Some(text) => Some(Seed::from_bytes(
            unhex::<SEED_BYTES>(text).ok_or("field seed is not 64 hex digits")?,
        )),
    };
    Ok(StoredHeader {
        header: decode_header(id, map)?,
        seats: Seats::new(ByColor::new(
            digest("white_digest")?,
            digest("black_digest")?,
        ))
        .with_seed(seed)
        .with_player_entropy(map.get("entropy").copied() == Some("1")),
        takebacks,
    })
}

/// Bytes as lowercase hex digits (a seat digest's stored text).
#[must_use]
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    text
}

/// `2 * N` hex digits (either case) as bytes; `None` for anything else.
#[must_use]
pub(crate) fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    // Digits only: `from_str_radix` alone would read a sign ("+f" is 15).
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}
