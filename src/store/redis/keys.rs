//! Where a game lives in Redis: the buckets games are sharded into, the key names (every key of
//! a bucket shares its hash tag, so one cluster slot holds it all), the pub/sub channel names,
//! the keys request ids are remembered by, and the keys of the feed and of player tokens.

use std::time::Duration;

use sha2::{Digest, Sha256};

pub(super) use crate::game::codec::hex;
use crate::game::{GameHeader, GameId};

/// Buckets the games are sharded into. Every key a script touches is one bucket's: the
/// game's own keys and its bucket's list, deadlines, finished set, live count and result
/// counts share the bucket's hash tag, so each script is one atomic change in one Redis
/// Cluster slot, and the counts stay exact. Readers go over every bucket (ListGames merges
/// their lists, GetStats sums their counts, every replica sweeps every bucket's deadlines), so
/// more buckets spread a cluster's load more evenly at the price of more reads per list and
/// sweep. Part of the key layout: changing it moves games to other keys.
pub(super) const BUCKETS: usize = 16;

// A bucket is read from an id's low bits, of which there are 22: a power of two keeps every
// bucket equally likely and lets [`in_bucket`] place an id in a chosen one.
const _: () = assert!(BUCKETS.is_power_of_two() && BUCKETS <= 1 << 22);

/// Keys of the layout before buckets (one shared list, deadline set, counts), checked at start
/// so a deployment never serves while games of the old layout sit unseen.
pub(super) const OLD_LAYOUT_KEYS: [&str; 3] = ["chessd:games", "chessd:live", "chessd:stats"];

/// A game's bucket: its id's random low bits, so games spread evenly and every replica finds
/// the bucket from the id alone.
#[must_use]
pub(super) fn bucket_of(id: GameId) -> usize {
    (id.get() % BUCKETS as u64) as usize
}

/// `random` with its low bits replaced so that the id drawn from it falls in `bucket`.
#[must_use]
pub(super) fn in_bucket(random: u64, bucket: usize) -> u64 {
    (random & !(BUCKETS as u64 - 1)) | bucket as u64
}

/// The bucket a CreateGame request id's record lives in (the game it makes is drawn in the
/// same bucket, so the script sees both).
#[must_use]
pub(super) fn bucket_of_request(request_id: &str) -> usize {
    let h = sha256("chessd create bucket", &[request_id.as_bytes()]);
    (u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]) % BUCKETS as u64) as usize
}

/// A bucket's keys: `{chessd:bNN}` is the hash tag that puts them all in one cluster slot.
#[must_use]
pub(super) fn bucket_key(bucket: usize, name: &str) -> String {
    format!("{{chessd:b{bucket:02}}}:{name}")
}

/// A bucket's fence (`--redis-min-replicas`, see `ack`): a counter written only so that a WAIT
/// after it confirms what the bucket's primary held before. Nothing reads it.
#[must_use]
pub(super) fn fence_key(bucket: usize) -> String {
    bucket_key(bucket, "fence")
}

/// Every game id of a bucket, ordered by id (a sorted set with score 0, read by lexical range:
/// ids are fixed-width base32, so text order is creation order).
#[must_use]
pub(super) fn games_key(bucket: usize) -> String {
    bucket_key(bucket, "games")
}

/// Deadlines of a bucket's ongoing games, the earlier of the flag and `--abandon-after` since
/// the last move (score: Unix milliseconds).
#[must_use]
pub(super) fn deadlines_key(bucket: usize) -> String {
    bucket_key(bucket, "deadlines")
}

/// A bucket's finished games (score: when they ended, Unix milliseconds), for the count limit
/// and retention.
#[must_use]
pub(super) fn finished_key(bucket: usize) -> String {
    bucket_key(bucket, "finished")
}

/// A bucket's result counts: `<variant>:w`, `<variant>:b`, `<variant>:d`.
#[must_use]
pub(super) fn stats_key(bucket: usize) -> String {
    bucket_key(bucket, "stats")
}

/// A bucket's ongoing games, for `--max-live-games` across replicas.
#[must_use]
pub(super) fn live_key(bucket: usize) -> String {
    bucket_key(bucket, "live")
}

/// A bucket's lane of the feed: a stream with one entry per feed event of the bucket's games
/// (entry ids assigned by Redis, `<ms>-<n>`), written by the same script as the change.
#[must_use]
pub(super) fn feed_key(bucket: usize) -> String {
    bucket_key(bucket, "feed")
}

/// The last entry id trimmed from a bucket's feed lane (`0-0` or absent: none): a cursor
/// before it would skip what was trimmed.
#[must_use]
pub(super) fn feed_floor_key(bucket: usize) -> String {
    bucket_key(bucket, "feed:floor")
}

/// A bucket's running games of one player (a set of game ids), what a player-mode feed
/// starts with. The player id is hashed: any printable id makes a tidy key.
#[must_use]
pub(super) fn player_games_key(bucket: usize, player: &str) -> String {
    let h = hex(&sha256("chessd player", &[player.as_bytes()])[..16]);
    bucket_key(bucket, &format!("player:{h}"))
}

/// A bucket's games carrying one label (a sorted set of ids, score 0, like `games_key`):
/// ListGames and GetStats filtered by labels read it instead of every game.
#[must_use]
pub(super) fn label_key(bucket: usize, key: &str, value: &str) -> String {
    let h = hex(&sha256("chessd label", &[key.as_bytes(), value.as_bytes()])[..16]);
    bucket_key(bucket, &format!("label:{h}"))
}

/// The feed's epoch (see `feed::cursor`): drawn by the first replica that reads the feed, so a
/// cursor from another Redis, or from before a flush, is refused. Alone in its slot.
pub(super) const FEED_EPOCH_KEY: &str = "{chessd:feed}:epoch";

/// The channel the scripts publish on when a feed lane grows (the payload is the bucket): a
/// replica's feed follower then reads the lanes (see `feed`).
pub(super) const FEED_CHANNEL: &str = "chessd:feed";

/// The channel a revocation is announced on, so every replica ends the revoked token's feeds
/// at once.
pub(super) const REVOKED_CHANNEL: &str = "chessd:revoked";

/// The channel a seat's presence change is announced on (the payload is the game id), so
/// every replica's watchers of the game hear it (see `presence`).
pub(super) const PRESENCE_CHANNEL: &str = "chessd:presence";

/// The game's presence leases: a sorted set of `<w|b>:<replica>` members scored by the Unix
/// milliseconds their lease ends, in the game's bucket slot.
#[must_use]
pub(super) fn presence_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("presence:{id}"))
}

/// When each seat of the game was last seen connected (`w`, `b`) and last connected
/// (`w_since`, `b_since`), in Unix milliseconds: a hash beside the leases.
#[must_use]
pub(super) fn seen_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("seen:{id}"))
}

/// A player token, by its id: a hash of its digest and its player. Its own slot: a token is
/// looked up by its id alone.
#[must_use]
pub(super) fn player_token_key(id: &str) -> String {
    format!("{{chessd:ptok:{id}}}")
}

/// A player's token ids (a set), for revoking every token of the player.
#[must_use]
pub(super) fn player_tokens_key(player: &str) -> String {
    let h = hex(&sha256("chessd player", &[player.as_bytes()])[..16]);
    format!("{{chessd:ptoks:{h}}}")
}

/// How long a CreateGame request id is remembered (a retry comes within seconds).
pub(super) const CREATE_RECORD_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The game's hash, in its bucket's slot.
#[must_use]
pub(super) fn game_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("game:{id}"))
}

/// The game's event stream; entry `<seq>-0` is event `seq`.
#[must_use]
pub(super) fn events_key(id: GameId) -> String {
    bucket_key(bucket_of(id), &format!("events:{id}"))
}

/// The pub/sub channel that announces a game's new events (the payload is the last seq).
/// Published with plain PUBLISH, which a Redis Cluster relays to every node, so its slot does
/// not matter (see `follow`).
#[must_use]
pub(super) fn channel(id: GameId) -> String {
    format!("chessd:{{{id}}}:appended")
}

/// The names a game's append script is given, the same on every move: written once per game a
/// replica holds (`Meta::append_names`) rather than formatted, and a bound player's key hashed,
/// on every move.
#[derive(Clone, Debug)]
pub(super) struct AppendNames {
    /// The script's `KEYS`, in its order: the game's hash and stream, its bucket's deadlines,
    /// stats, live count, finished set and feed lane, then each bound player's games.
    pub keys: Vec<String>,
    /// The game id as text.
    pub id: String,
    /// The game's pub/sub channel ([`channel`]).
    pub channel: String,
}

impl AppendNames {
    #[must_use]
    pub(super) fn of(header: &GameHeader) -> AppendNames {
        let id = header.id;
        let bucket = bucket_of(id);
        let mut keys = vec![
            game_key(id),
            events_key(id),
            deadlines_key(bucket),
            stats_key(bucket),
            live_key(bucket),
            finished_key(bucket),
            feed_key(bucket),
        ];
        keys.extend(
            header
                .players
                .bound()
                .map(|p| player_games_key(bucket, p.as_str())),
        );
        AppendNames {
            keys,
            id: id.to_string(),
            channel: channel(id),
        }
    }
}

/// The game a channel name announces.
#[must_use]
pub(super) fn game_of_channel(name: &str) -> Option<GameId> {
    name.strip_prefix("chessd:{")?
        .strip_suffix("}:appended")?
        .parse()
        .ok()
}

/// A SHA-256 of `parts`, each length-prefixed so no two lists hash alike.
pub(super) fn sha256(domain: &str, parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(domain.as_bytes());
    for part in parts {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

/// The key a move's request id is remembered by. Every replica must compute the same key, so
/// it is a hash with no per-process secret: SHA-256, whose 64-bit prefix nobody can aim a
/// collision at.
#[must_use]
pub(super) fn request_key(request_id: &str) -> u64 {
    let h = sha256("chessd move request", &[request_id.as_bytes()]);
    u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]])
}

/// The Redis key of a CreateGame request id's record (the id itself is not stored), in the
/// bucket [`bucket_of_request`] names.
#[must_use]
pub(super) fn create_key(request_id: &str) -> String {
    let digest = hex(&sha256("chessd create request", &[request_id.as_bytes()]));
    bucket_key(bucket_of_request(request_id), &format!("create:{digest}"))
}

#[cfg(test)]
mod tests {
    use std::time::{SystemTime, UNIX_EPOCH};

    use super::*;

    /// Channel names carry the game id back.
    #[test]
    fn channels_name_games() {
        let id: GameId = "0000000000001".parse().unwrap();
        assert_eq!(game_of_channel(&channel(id)), Some(id));
        assert_eq!(game_of_channel("chessd:{zz}:appended"), None);
    }

    /// The append's names are the keys in the script's order (the bound player's last), the
    /// id and the channel; hex is lowercase, two digits a byte.
    #[test]
    fn append_names_in_the_scripts_order() {
        use chessd_rules::{
            ByColor, DrawRule,
            any::{AnyPosition, AnyVariant},
        };

        use crate::game::{HeaderParts, PlayerId, Players, StartRules};

        let id = GameId::new(UNIX_EPOCH + Duration::from_secs(1_700_000_000), 37);
        let b = bucket_of(id);
        let player = PlayerId::parse("white_player_id", "user:1").unwrap();
        let header = GameHeader::new(HeaderParts {
            id,
            players: Players {
                ids: ByColor::new(player, None),
                ..Players::default()
            },
            labels: std::sync::Arc::default(),
            start: AnyPosition::new(AnyVariant::CHESS).into(),
            time_control: None,
            start_rules: StartRules::default(),
            draw_rule: DrawRule::Claim,
            created_at: UNIX_EPOCH,
            claim_after: Duration::from_secs(7),
            public_delay: 0,
        });
        let names = AppendNames::of(&header);
        assert_eq!(
            names.keys,
            [
                game_key(id),
                events_key(id),
                deadlines_key(b),
                stats_key(b),
                live_key(b),
                finished_key(b),
                feed_key(b),
                player_games_key(b, "user:1"),
            ]
        );
        assert_eq!(names.id, id.to_string());
        assert_eq!(game_of_channel(&names.channel), Some(id));
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
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
                tag(&feed_key(b)),
                tag(&feed_floor_key(b)),
                tag(&player_games_key(b, "user:1")),
                tag(&label_key(b, "round", "{x}")),
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
