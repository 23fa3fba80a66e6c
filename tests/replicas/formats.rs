//! Entries as earlier builds wrote them still read: a game's stream entries and the feed's
//! lane entries rewritten into the form they had before the one-line form (each field of the
//! event its own; a feed entry's header in one field, `h`) answer GetGame and resume
//! WatchGames exactly as the entries this build writes, and a game goes on from them.

use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::{self as pb, watch_games_response::Event};
use redis::AsyncCommands;
use redis::streams::StreamRangeReply;
use tonic::Streaming;

use crate::support::{self, Redis, authed};

/// The separator of the one-line form.
const SEP: char = '\u{1e}';

/// A feed event's own fields (after the header); every other field past `k`, `at` and `g` is
/// the header's.
const FEED_KIND_FIELDS: [&str; 13] = [
    "uci", "san", "ply", "c", "seq", "fen", "clk", "do", "o", "rv", "cm", "ws", "bs",
];

fn quick(mut config: ServerConfig) -> ServerConfig {
    config.heartbeat = Duration::from_millis(200);
    config
}

async fn next(stream: &mut Streaming<pb::WatchGamesResponse>) -> pb::WatchGamesResponse {
    tokio::time::timeout(Duration::from_secs(20), stream.message())
        .await
        .expect("a feed message within 20 s")
        .expect("the feed goes on")
        .expect("the feed does not end")
}

/// The next `n` events of `stream`, heartbeats skipped.
async fn events(
    stream: &mut Streaming<pb::WatchGamesResponse>,
    n: usize,
) -> Vec<pb::WatchGamesResponse> {
    let mut out = Vec::new();
    while out.len() < n {
        let m = next(stream).await;
        if !matches!(m.event, Some(Event::Heartbeat(_))) {
            out.push(m);
        }
    }
    out
}

async fn feed(
    client: &mut support::Client,
    after_cursor: &str,
) -> Streaming<pb::WatchGamesResponse> {
    client
        .watch_games(pb::WatchGamesRequest {
            after_cursor: after_cursor.into(),
            include_moves: true,
            ..Default::default()
        })
        .await
        .unwrap_or_else(|s| panic!("WatchGames: {}", s.message()))
        .into_inner()
}

/// A line's fields as `(name, value)` pairs.
fn pairs(line: &str) -> Vec<(String, String)> {
    let parts: Vec<&str> = line.split(SEP).collect();
    assert!(parts.len().is_multiple_of(2), "a line of pairs: {line:?}");
    parts
        .chunks_exact(2)
        .map(|kv| (kv[0].to_owned(), kv[1].to_owned()))
        .collect()
}

/// The one field of an entry this build wrote.
fn line_of(entry: &redis::streams::StreamId) -> String {
    assert_eq!(entry.map.len(), 1, "one field: {entry:?}");
    let value = entry.map.get("e").expect("the line, `e`");
    redis::from_redis_value_ref(value).expect("a string")
}

/// A game stream entry's fields as earlier builds wrote them: the line's fields, each its own.
fn old_event(line: &str) -> Vec<(String, String)> {
    pairs(line)
}

/// A feed entry's fields as earlier builds wrote them: `k`, `at`, `g`, the header's fields
/// joined in `h`, then the event's own.
fn old_feed(line: &str) -> Vec<(String, String)> {
    let all = pairs(line);
    let (opening, rest) = all.split_at(3);
    assert_eq!(
        opening.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["k", "at", "g"]
    );
    let own_from = rest
        .iter()
        .position(|(k, _)| FEED_KIND_FIELDS.contains(&k.as_str()))
        .unwrap_or(rest.len());
    let (header, own) = rest.split_at(own_from);
    let h = header
        .iter()
        .flat_map(|(k, v)| [k.as_str(), v.as_str()])
        .collect::<Vec<_>>()
        .join(&SEP.to_string());
    let mut out = opening.to_vec();
    out.push(("h".into(), h));
    out.extend(own.iter().cloned());
    out
}

/// Rewrites every entry of stream `key`, ids kept, into `old(line)`'s fields; how many.
async fn rewrite(
    conn: &mut redis::aio::MultiplexedConnection,
    key: &str,
    old: fn(&str) -> Vec<(String, String)>,
) -> usize {
    let reply: StreamRangeReply = conn.xrange_all(key).await.expect("XRANGE");
    let _: () = conn.del(key).await.expect("DEL");
    for entry in &reply.ids {
        let fields = old(&line_of(entry));
        let _: String = conn.xadd(key, &entry.id, &fields).await.expect("XADD");
    }
    reply.ids.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_of_earlier_builds_still_read() {
    let redis = Redis::start();
    let config = || quick(crate::common::on_redis(redis.url(), false));
    let a = support::replica_with(config()).await;
    let mut client = a.client().await;

    // A cursor from before the game: the first heartbeat's.
    let mut live = feed(&mut client, "").await;
    let before = loop {
        let m = next(&mut live).await;
        if matches!(m.event, Some(Event::Heartbeat(_))) && !m.cursor.is_empty() {
            break m.cursor;
        }
    };
    let seats = support::create(&mut client, Some(support::tc(300, 2))).await;
    for (side, uci) in [('w', "e2e4"), ('b', "e7e5"), ('w', "g1f3")] {
        support::play(&mut client, &seats, side, uci).await;
    }
    let game = support::get(&mut client, &seats.id)
        .await
        .expect("the game");
    // Created and three moves.
    let written = events(&mut live, 4).await;
    drop(live);

    // Every entry of the game's stream and of every feed lane, into the earlier form.
    let rc = redis::Client::open(redis.url()).expect("redis url");
    let mut conn = rc
        .get_multiplexed_async_connection()
        .await
        .expect("redis connection");
    let streams: Vec<String> = conn
        .keys(format!("*:events:{}", seats.id))
        .await
        .expect("KEYS");
    assert_eq!(streams.len(), 1, "{streams:?}");
    assert_eq!(
        rewrite(&mut conn, &streams[0], old_event).await,
        3,
        "three moves"
    );
    let lanes: Vec<String> = conn.keys("{chessd:b*}:feed").await.expect("KEYS");
    let mut lane_entries = 0;
    for lane in &lanes {
        lane_entries += rewrite(&mut conn, lane, old_feed).await;
    }
    assert_eq!(lane_entries, 4, "the creation and three moves");

    // A replica that never saw the game reads it, and the feed, as they were.
    let b = support::replica_with(config()).await;
    let mut other = b.client().await;
    let read = support::get(&mut other, &seats.id)
        .await
        .expect("the game on B");
    assert_eq!(read.moves, game.moves);
    assert_eq!(read.fen, game.fen);
    assert_eq!(read.last_seq, game.last_seq);
    let mut resumed = feed(&mut other, &before).await;
    assert_eq!(events(&mut resumed, 4).await, written);

    // The game goes on from the earlier entries: the new ones follow them, and both read.
    support::play(&mut other, &seats, 'b', "b8c6").await;
    let resign = pb::ResignRequest {
        game_id: seats.id.clone(),
    };
    other
        .resign(authed(resign, &seats.white))
        .await
        .expect("resign on B");
    let more = events(&mut resumed, 2).await;
    assert!(
        matches!(more[0].event, Some(Event::GameMoved(_))),
        "{:?}",
        more[0]
    );
    assert!(
        matches!(more[1].event, Some(Event::GameFinished(_))),
        "{:?}",
        more[1]
    );
    let c = support::replica_with(config()).await;
    let mut third = c.client().await;
    let last = support::get(&mut third, &seats.id)
        .await
        .expect("the game on C");
    let ucis: Vec<_> = last.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(last.status, pb::GameStatus::Finished as i32);
    let mut from_start = feed(&mut third, &before).await;
    let all = events(&mut from_start, 6).await;
    assert_eq!(all[..4], written[..]);
    assert_eq!(all[4..], more[..]);
}
