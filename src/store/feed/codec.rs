//! A feed event as `(field, value)` text pairs, written as one line ([`line()`],
//! [`line_with_header`]): what a SQLite feed row and a Redis feed entry hold, so both stores
//! read back exactly what the memory store keeps. Redis entries of builds before 2026-12-06
//! hold the fields one by one, the header in one of them (`h`), and still read ([`decode`]).
//!
//! Every value is plain text without control characters (names, labels and player ids refuse
//! them; FEN, SAN and numbers have none), so an operator can read an entry with `XRANGE` or
//! `sqlite3`. Decoding checks every field and says which one is wrong.

use std::collections::HashMap;
use std::sync::Arc;

use chessd_rules::ByColor;

use crate::game::codec::{outcome_text, parse_outcome, parse_side, side};
use crate::game::{
    FeedClocks, FeedEntropy, FeedEvent, FeedKind, FeedMove, GameHeader, GameId, epoch_ms,
    from_epoch_ms,
};
use crate::store::feed::header;
#[cfg(test)]
use crate::store::feed::text::join;
use crate::store::feed::text::{FieldSink, LineWriter, field, number, split};

/// Headers decoded so far, by game, so the events of one game share one header (and its
/// start position is parsed once).
pub(crate) type Headers = HashMap<GameId, Arc<GameHeader>>;

/// The event as fields: what it is, when, its game's id, the game's header (see `header`)
/// field by field, then what happened: a [`line()`]'s fields one by one.
#[cfg(test)]
#[must_use]
pub(crate) fn fields(event: &FeedEvent) -> Vec<(&'static str, String)> {
    let mut f = Vec::new();
    put_opening(event, &mut f);
    header::fields(&event.game, &mut f);
    put_kind(&event.kind, &mut f);
    f
}

/// The event as a SQLite feed row's body holds it: what it is, when, its game's id, the
/// game's header (see `header`) field by field, then what happened, in `text::join`'s form.
#[must_use]
pub(crate) fn line(event: &FeedEvent) -> String {
    line_with_header(event, &header::joined(&event.game))
}

/// The event as a Redis feed entry holds it: a [`line()`] (a SQLite row's form, read by
/// [`decode_joined`]), written with the game's header already joined ([`header::joined`],
/// kept by the store for each game it holds), so a move formats only its own fields. One
/// string, where the entry's own fields were a dozen (the header among them as `h`), each an
/// argument the append script copies and `XADD` stores; the header stays in every entry, so
/// an entry still reads on its own.
#[must_use]
pub(crate) fn line_with_header(event: &FeedEvent, joined_header: &str) -> String {
    let mut line = LineWriter::with_capacity(joined_header.len() + 160);
    put_opening(event, &mut line);
    line.joined(joined_header);
    put_kind(&event.kind, &mut line);
    line.finish()
}

/// The event as Redis feed entries held it before [`line_with_header`]: its fields, the
/// header in one, `h`. Entries of this form are still read ([`decode`]); tests write them.
#[cfg(test)]
fn fields_with_header(event: &FeedEvent, joined_header: &str) -> Vec<(&'static str, String)> {
    let mut f = Vec::new();
    put_opening(event, &mut f);
    f.push(("h", joined_header.to_owned()));
    put_kind(&event.kind, &mut f);
    f
}

/// What the event is, when, and its game's id.
fn put_opening(event: &FeedEvent, f: &mut impl FieldSink) {
    f.put(
        "k",
        match event.kind {
            FeedKind::Created => "c",
            FeedKind::Moved { .. } => "m",
            FeedKind::TakenBack { .. } => "t",
            FeedKind::Finished { .. } => "f",
            FeedKind::Entropy(_) => "e",
        },
    );
    f.put("at", epoch_ms(event.at));
    f.put("g", event.game.id);
}

/// What happened, after the header.
fn put_kind(kind: &FeedKind, f: &mut impl FieldSink) {
    match kind {
        FeedKind::Created => {}
        FeedKind::Moved {
            played,
            fen,
            clocks,
            draw_offer,
        } => {
            f.put("uci", played.uci);
            f.put("san", &played.san);
            f.put("ply", played.ply);
            f.put("c", side(played.color));
            f.put("seq", played.seq);
            f.put("fen", fen);
            if let Some(c) = clocks {
                f.put("clk", clock_text(c));
            }
            if let Some(by) = draw_offer {
                f.put("do", side(*by));
            }
        }
        FeedKind::TakenBack {
            ply,
            fen,
            clocks,
            seq,
        } => {
            f.put("ply", ply);
            f.put("seq", seq);
            f.put("fen", fen);
            if let Some(c) = clocks {
                f.put("clk", clock_text(c));
            }
        }
        FeedKind::Finished { outcome, fen, ply } => {
            f.put("o", outcome_text(*outcome));
            f.put("fen", fen);
            f.put("ply", ply);
        }
        FeedKind::Entropy(e) => {
            f.put("c", side(e.by));
            f.put("rv", u8::from(e.revealed));
            f.put("seq", e.seq);
            if !e.commitment.is_empty() {
                f.put("cm", &e.commitment);
            }
            if let Some(secrets) = &e.secrets {
                f.put("ws", secrets.white());
                f.put("bs", secrets.black());
            }
            if let Some(start) = &e.start {
                f.put("fen", start);
            }
        }
    }
}

/// A clock reading as the `clk` field holds it (no byoyomi: a reader has the header's).
fn clock_text(c: &FeedClocks) -> String {
    format!(
        "{},{},{},{}",
        c.remaining_ms.white(),
        c.remaining_ms.black(),
        c.running.map_or("-", side),
        c.read_at_ms
    )
}

/// [`join`]'s form read back, then decoded.
pub(crate) fn decode_joined(text: &str, headers: &mut Headers) -> Result<FeedEvent, String> {
    decode(&split(text)?, headers)
}

/// An event from its fields. The header is taken from `headers` when its game's is there
/// (and put there otherwise).
pub(crate) fn decode(
    map: &HashMap<&str, &str>,
    headers: &mut Headers,
) -> Result<FeedEvent, String> {
    let id: GameId = field(map, "g")?
        .parse()
        .map_err(|_| "feed event: bad game id".to_owned())?;
    let game = match headers.get(&id) {
        Some(game) => game.clone(),
        None => {
            let game = Arc::new(match map.get("h") {
                Some(joined) => header::decode(id, &split(joined)?)?,
                None => header::decode(id, map)?,
            });
            headers.insert(id, game.clone());
            game
        }
    };
    let at = from_epoch_ms(number(map, "at")?);
    let ply = |map: &HashMap<&str, &str>| -> Result<u32, String> {
        u32::try_from(number(map, "ply")?).map_err(|_| "feed event: ply out of range".to_owned())
    };
    let kind = match field(map, "k")? {
        "c" => FeedKind::Created,
        "m" => {
            let clocks = match map.get("clk") {
                None => None,
                Some(text) => Some(clock_reading(text)?),
            };
            FeedKind::Moved {
                played: FeedMove {
                    uci: field(map, "uci")?
                        .parse()
                        .map_err(|_| "feed event: malformed uci".to_owned())?,
                    san: field(map, "san")?.into(),
                    ply: ply(map)?,
                    color: parse_side(field(map, "c")?)?,
                    seq: number(map, "seq")?,
                },
                fen: field(map, "fen")?.into(),
                clocks,
                draw_offer: map.get("do").map(|t| parse_side(t)).transpose()?,
            }
        }
        "t" => FeedKind::TakenBack {
            ply: ply(map)?,
            fen: field(map, "fen")?.into(),
            clocks: map.get("clk").map(|t| clock_reading(t)).transpose()?,
            seq: number(map, "seq")?,
        },
        "f" => {
            let text = field(map, "o")?;
            let outcome = parse_outcome(text).map_err(|e| format!("feed event: {e}"))?;
            FeedKind::Finished {
                outcome,
                fen: field(map, "fen")?.into(),
                ply: ply(map)?,
            }
        }
        "e" => FeedKind::Entropy(Box::new(FeedEntropy {
            by: parse_side(field(map, "c")?)?,
            revealed: field(map, "rv")? == "1",
            commitment: map.get("cm").copied().unwrap_or_default().into(),
            secrets: match (map.get("ws"), map.get("bs")) {
                (Some(w), Some(b)) => Some(ByColor::new((*w).into(), (*b).into())),
                _ => None,
            },
            start: map.get("fen").map(|&f| f.into()),
            seq: number(map, "seq")?,
        })),
        other => return Err(format!("feed event: kind {other:?}")),
    };
    Ok(FeedEvent { game, at, kind })
}

fn clock_reading(text: &str) -> Result<FeedClocks, String> {
    let bad = || format!("feed event: clocks {text:?}");
    let parts: Vec<&str> = text.split(',').collect();
    let [w, b, running, read] = parts.as_slice() else {
        return Err(bad());
    };
    let clock = |t: &str| t.parse::<u32>().map_err(|_| bad());
    Ok(FeedClocks {
        remaining_ms: ByColor::new(clock(w)?, clock(b)?),
        running: match *running {
            "-" => None,
            side => Some(parse_side(side)?),
        },
        read_at_ms: read.parse::<u64>().map_err(|_| bad())?,
    })
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use chessd_rules::{
        Color, DrawRule, Outcome, Termination,
        any::{AnyPosition, AnyVariant},
    };

    use std::time::Duration;

    use super::*;
    use crate::game::{
        ClockReading, ClockStart, HeaderParts, Labels, PlayerId, Players, StartRules, TimeControl,
        whole_ms,
    };

    fn sample_header() -> Arc<GameHeader> {
        let labels: Vec<(String, String)> = vec![
            ("tournament".into(), "spring \"open\"".into()),
            ("round".into(), "2".into()),
        ];
        Arc::new(GameHeader::new(HeaderParts {
            id: GameId::new(from_epoch_ms(1_767_225_600_000), 77),
            players: Players {
                white: "alice".into(),
                black: "bot ☀".into(),
                ids: ByColor::new(None, Some(PlayerId::checked("bot-1").unwrap())),
            },
            labels: Arc::new(Labels::parse("labels", labels.iter().map(|(k, v)| (k, v))).unwrap()),
            start: AnyPosition::new(AnyVariant::Std(chessd_rules::Variant::RacingKings)).into(),
            time_control: Some(TimeControl {
                black_initial: Some(Duration::from_secs(120)),
                ..TimeControl::even(Duration::from_secs(180), Duration::from_millis(1500))
            }),
            start_rules: StartRules {
                clock_start: ClockStart::At(from_epoch_ms(1_767_225_700_000)),
                first_move_timeout: Some(Duration::from_secs(30)),
            },
            draw_rule: DrawRule::Automatic,
            created_at: from_epoch_ms(1_767_225_600_000),
            claim_after: Duration::from_secs(45),
            public_delay: 0,
        }))
    }

    /// Each kind of event reads back as it was, through fields and through the joined form.
    #[test]
    fn events_round_trip() {
        let game = sample_header();
        let at = whole_ms(SystemTime::now());
        let events = [
            FeedEvent::created(game.clone()),
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::Moved {
                    played: FeedMove {
                        uci: "h2h3".parse().unwrap(),
                        san: "Kh3".into(),
                        ply: 1,
                        color: Color::White,
                        seq: 1,
                    },
                    fen: "8/8/8/8/8/7K/krbnNBR1/qrbnNBRQ b - - 1 1".into(),
                    clocks: Some(FeedClocks::from(&ClockReading {
                        remaining: ByColor::new(
                            Duration::from_millis(181_000),
                            Duration::from_secs(180),
                        ),
                        running: Some(Color::Black),
                        read_at: at,
                        byoyomi: None,
                    })),
                    draw_offer: Some(Color::White),
                },
            },
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::TakenBack {
                    ply: 0,
                    fen: "8/8/8/8/8/8/krbnNBR1/qrbnNBRQ w - - 0 1".into(),
                    clocks: Some(FeedClocks::from(&ClockReading {
                        remaining: ByColor::new(
                            Duration::from_millis(179_500),
                            Duration::from_secs(180),
                        ),
                        running: Some(Color::White),
                        read_at: at,
                        byoyomi: None,
                    })),
                    seq: 3,
                },
            },
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::Entropy(Box::new(FeedEntropy {
                    by: Color::Black,
                    revealed: false,
                    commitment: "ab".repeat(32).into(),
                    secrets: None,
                    start: None,
                    seq: 2,
                })),
            },
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::Entropy(Box::new(FeedEntropy {
                    by: Color::White,
                    revealed: true,
                    commitment: "".into(),
                    secrets: Some(ByColor::new("11".repeat(32).into(), "22".repeat(32).into())),
                    start: Some("8/8/8/8/8/8/krbnNBR1/qrbnNBRQ w - - 0 1".into()),
                    seq: 4,
                })),
            },
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::TakenBack {
                    ply: 4,
                    fen: "8/8/8/8/8/8/krbnNBR1/qrbnNBRQ w - - 0 1".into(),
                    clocks: None,
                    seq: 9,
                },
            },
            FeedEvent {
                game: game.clone(),
                at,
                kind: FeedKind::Finished {
                    outcome: Outcome::win(Color::Black, Termination::Race),
                    fen: "k7/8/8/8/8/8/8/7K w - - 0 30".into(),
                    ply: 59,
                },
            },
        ];
        let mut headers = Headers::new();
        let mut redis_headers = Headers::new();
        let joined_header = header::joined(&game);
        for event in &events {
            let f = fields(event);
            let map: HashMap<&str, &str> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            assert_eq!(&decode(&map, &mut Headers::new()).unwrap(), event);
            assert_eq!(&decode_joined(&join(&f), &mut headers).unwrap(), event);
            // Redis's form: the same line, the header written joined beforehand.
            assert_eq!(line_with_header(event, &joined_header), join(&f));
            assert_eq!(line(event), join(&f));
            // Redis's form before: the header in one field, read alone and with the header
            // known.
            let r = fields_with_header(event, &joined_header);
            assert!(r.len() < f.len());
            let map: HashMap<&str, &str> = r.iter().map(|(k, v)| (*k, v.as_str())).collect();
            assert_eq!(&decode(&map, &mut Headers::new()).unwrap(), event);
            assert_eq!(&decode(&map, &mut redis_headers).unwrap(), event);
        }
        assert_eq!(headers.len(), 1, "one header per game");
        assert_eq!(redis_headers.len(), 1, "one header per game");
    }

    /// A damaged field is named, never guessed at.
    #[test]
    fn damage_is_named() {
        let f = fields(&FeedEvent::created(sample_header()));
        let broken: Vec<(&str, String)> = f
            .into_iter()
            .map(|(k, v)| {
                if k == "v" {
                    (k, "chess9".into())
                } else {
                    (k, v)
                }
            })
            .collect();
        let err = decode_joined(&join(&broken), &mut Headers::new()).unwrap_err();
        assert!(err.contains("variant"), "{err}");
        assert!(
            decode_joined("k\u{1e}c", &mut Headers::new())
                .unwrap_err()
                .contains("field g missing")
        );
        // A damaged header in `h` is named as one in its own fields is.
        let event = FeedEvent::created(sample_header());
        let joined = header::joined(&event.game).replacen("racingkings", "chess9", 1);
        let r = fields_with_header(&event, &joined);
        let map: HashMap<&str, &str> = r.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let err = decode(&map, &mut Headers::new()).unwrap_err();
        assert!(err.contains("variant"), "{err}");
        let r = fields_with_header(&event, "v\u{1e}chess\u{1e}s");
        let map: HashMap<&str, &str> = r.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let err = decode(&map, &mut Headers::new()).unwrap_err();
        assert!(err.contains("without a value"), "{err}");
    }
}
