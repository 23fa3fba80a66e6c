//! The Lua scripts: each change to a game is one script, so Redis applies all of it or none
//! of it, and no other client's command runs in between.
//!
//! - [`CREATE`]: a new game (or the one an earlier creation with the same request id made):
//!   the live-game limit, the game hash, the list, the deadline (flag or abandonment), the
//!   request record, the label indexes, the bound players' running games, and the creation's
//!   feed entry (its id kept in the hash as `feed_id`), announced on the feed channel.
//! - [`APPEND_MANY`]: compare-and-append, for one game or many in one call. For each game it
//!   checks that the game's last seq (and last event) is the one the replica played from,
//!   then appends the events to the stream, updates the game hash (seq, status, ply,
//!   position, outcome), the deadline (flag or abandonment), and, when the game ended, the
//!   live count, the finished set, the result counts and the bound players' running games;
//!   appends the feed entries (moves, the end) to the bucket's feed lane; announces the new
//!   seq on the game's channel; and, once per call, each grown lane on the feed channel. A
//!   game whose replica played from a stale seq is left unwritten and answered with its seq.
//! - [`FEED_READ`]: a page of one feed lane after a cursor's position, or why it cannot be
//!   read from there (trimmed past it), in one atomic step.
//! - [`FEED_TRIM`]: trims a feed lane to its retention and its share of the event cap,
//!   recording the last id trimmed (what makes an old cursor refused rather than gapped).
//! - [`REDEADLINE`]: the deadline sweep's repair of a due entry whose game did not end (see
//!   `sweep`): the entry is set to the game's true deadline, only if the game is still at the
//!   seq the sweep read, so it never undoes a concurrent APPEND_MANY's deadline.
//! - [`RELEASE`]: gives back the finished-games trim lease (see `sweep`) only if it is still
//!   the caller's.
//!
//! Redis Cluster: every key a script declares is its game's bucket's (`keys::BUCKETS`: the
//! game's hash and stream and the bucket's list, deadlines, finished set, live count, result
//! counts and request records share one hash tag; RELEASE's only key is the lease, which is
//! alone in its slot), so each script runs on one slot's primary
//! and stays one atomic change, on a Cluster as on one Redis. The one exception is the
//! live-game limit, which spans buckets: on one Redis, CREATE is also given the other buckets'
//! live counts as keys and checks the limit exactly; on a Cluster, where that would be
//! CROSSSLOT, the replica reads the other buckets' counts just before and passes their sum, so
//! creations racing in different buckets may overshoot the limit by their number.

use std::sync::LazyLock;

use ::redis::Script;

/// The name of the script whose SHA-1 (as EVALSHA sends it, in hex) is `sha`, for traces
/// (the batched append keeps the name a lone one had).
pub(super) fn name_of(sha: &[u8]) -> Option<&'static str> {
    [
        (&*CREATE, "create"),
        (&*APPEND_MANY, "append"),
        (&*REDEADLINE, "redeadline"),
        (&*RELEASE, "release"),
        (&*FEED_READ, "feed_read"),
        (&*FEED_TRIM, "feed_trim"),
    ]
    .into_iter()
    .find(|(script, _)| script.get_hash().as_bytes() == sha)
    .map(|(_, name)| name)
}

/// KEYS: game hash, games list, deadlines, live count, request record (without a request id a
/// key of the bucket that is never written: a Cluster routes by every declared key), feed
/// lane, then `nlabels` label indexes, `nplayers` running-games sets of the bound players,
/// then other buckets' live counts (one Redis only; added to the live count).
/// ARGV: id, live limit, deadline ms ("" for none), fingerprint, request memory in seconds
/// ("" without a request id), live games counted outside these keys, the creation's nonce,
/// nlabels, nplayers, the feed channel, the bucket, the number of feed entry field strings and
/// those strings, then the game hash's field/value pairs.
/// Returns `{"created"}`, `{"exists", id, fingerprint}` (a retry), `{"full"}` (the
/// live limit) or `{"taken"}` (the id exists: draw another). The game already existing with
/// this creation's nonce is `{"created"}`: the same script run twice, which the cluster
/// client does when a reply is lost (a random nonce names its creation).
pub(super) static CREATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local game, games, deadlines, live, request, feed = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local id, limit, deadline = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local nlabels, nplayers = tonumber(ARGV[8]), tonumber(ARGV[9])
local remembered = ARGV[5] ~= ''
if remembered then
  local found = redis.call('HMGET', request, 'id', 'fingerprint')
  if found[1] then
    return {'exists', found[1], found[2]}
  end
end
if redis.call('EXISTS', game) == 1 then
  if redis.call('HGET', game, 'nonce') == ARGV[7] then
    return {'created'}
  end
  return {'taken'}
end
local counted = tonumber(ARGV[6]) + (tonumber(redis.call('GET', live)) or 0)
for k = 7 + nlabels + nplayers, #KEYS do
  counted = counted + (tonumber(redis.call('GET', KEYS[k])) or 0)
end
if counted >= limit then
  return {'full'}
end
redis.call('INCR', live)
local nfeed = tonumber(ARGV[12])
local entry = {}
for j = 1, nfeed do
  entry[j] = ARGV[12 + j]
end
local fields = {}
for i = 13 + nfeed, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
local feed_id = redis.call('XADD', feed, '*', unpack(entry))
redis.call('HSET', game, 'feed_id', feed_id, unpack(fields))
redis.call('ZADD', games, 0, id)
for k = 7, 6 + nlabels do
  redis.call('ZADD', KEYS[k], 0, id)
end
for k = 7 + nlabels, 6 + nlabels + nplayers do
  redis.call('SADD', KEYS[k], id)
end
if deadline ~= '' then
  redis.call('ZADD', deadlines, deadline, id)
end
if remembered then
  redis.call('HSET', request, 'id', id, 'fingerprint', ARGV[4])
  redis.call('EXPIRE', request, tonumber(ARGV[5]))
end
redis.call('PUBLISH', ARGV[10], ARGV[11])
return {'created'}
",
    )
});

/// The game hash fields [`APPEND_MANY`] names itself, in the order their values come (the
/// summary's, `codec::Summary::fields`): constant names are Lua literals, not arguments.
pub(super) const APPEND_STATE: [&str; 4] = ["status", "ply", "fen", "outcome"];

/// Compare-and-append for several games in one call, each game's exactly as if alone, one
/// after another, so many moves cost one script call and one round trip (see `batch`). On a
/// Cluster a call holds one bucket's games (one slot); on one Redis, any games.
///
/// KEYS: for each game in turn: its hash, event stream, deadlines, result counts, live count,
/// finished set, feed lane, then the running-games sets of its bound players (left when the
/// game ends).
/// ARGV: the feed channel, the number of games, then a block for each game: the number of
/// arguments in it after these two, its number of keys, then: expected seq, id, deadline ms
/// ("" for none), result field ("" while the game goes on, "-" for an aborted game, else the
/// count to raise), end time ms, the game's channel, bucket, the expected last event's key
/// (`codec::EventKey` as `ms:kind`, "" at seq 0), the new last event's key, the values of
/// [`APPEND_STATE`], then the number of events and, for each, its number of field strings and
/// those strings, then the number of feed entries and, for each, the same.
/// Returns two numbers for each game: `1, seq` (appended; the new last seq), `0, seq` (stale:
/// the current seq; nothing written; also when the seq matches but the last event is another:
/// Redis went back in time and on along another line) or `-1, 0` (no such game). A stale
/// replica reads the game again, so the entries it missed are not sent back. The hash's `last`
/// (the last event's key) is checked only where it is written: games older than it have none.
/// The feed channel is told once per bucket whose lane grew.
pub(super) static APPEND_MANY: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local feed_channel = ARGV[1]
local out = {}
local grown = {}
local function append(k, i)
  local game, events, deadlines, stats, live, finished, feed =
    KEYS[k], KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5], KEYS[k + 6]
  local held = redis.call('HMGET', game, 'seq', 'last')
  if not held[1] then
    return -1, 0
  end
  local seq = tonumber(held[1])
  if seq ~= tonumber(ARGV[i]) or (held[2] and held[2] ~= ARGV[i + 7]) then
    return 0, seq
  end
  local id, deadline, result, ended_ms, channel, bucket =
    ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5], ARGV[i + 6]
  local last, state = ARGV[i + 8], i + 9
  local j = i + 13
  local nevents = tonumber(ARGV[j])
  j = j + 1
  for _ = 1, nevents do
    local nfields = tonumber(ARGV[j])
    seq = seq + 1
    redis.call('XADD', events, seq .. '-0', unpack(ARGV, j + 1, j + nfields))
    j = j + nfields + 1
  end
  local nfeed = tonumber(ARGV[j])
  j = j + 1
  for _ = 1, nfeed do
    local nfields = tonumber(ARGV[j])
    redis.call('XADD', feed, '*', unpack(ARGV, j + 1, j + nfields))
    j = j + nfields + 1
  end
  redis.call('HSET', game, 'seq', seq, 'last', last, 'status', ARGV[state],
    'ply', ARGV[state + 1], 'fen', ARGV[state + 2], 'outcome', ARGV[state + 3])
  if deadline == '' then
    redis.call('ZREM', deadlines, id)
  else
    redis.call('ZADD', deadlines, deadline, id)
  end
  if result ~= '' then
    redis.call('DECR', live)
    redis.call('ZADD', finished, ended_ms, id)
    if result ~= '-' then
      redis.call('HINCRBY', stats, result, 1)
    end
    for p = k + 7, k + tonumber(ARGV[i - 1]) - 1 do
      redis.call('SREM', KEYS[p], id)
    end
  end
  redis.call('PUBLISH', channel, seq)
  if nfeed > 0 then
    grown[bucket] = true
  end
  return 1, seq
end
local i, k = 3, 1
for g = 1, tonumber(ARGV[2]) do
  local status, seq = append(k, i + 2)
  out[2 * g - 1] = status
  out[2 * g] = seq
  k = k + tonumber(ARGV[i + 1])
  i = i + 2 + tonumber(ARGV[i])
end
for bucket in pairs(grown) do
  redis.call('PUBLISH', feed_channel, bucket)
end
return out
",
    )
});

/// KEYS: game hash, deadlines (the game's bucket's).
/// ARGV: the seq the sweep read the game at, id, the game's deadline ms ("" for none).
/// Sets the game's deadline entry to the deadline its record has, only if the game is still
/// at that seq (a concurrent APPEND_MANY already wrote the right deadline) and only if the entry
/// is still there (`XX`: the sweep never adds one). Returns 1 if it rewrote, else 0.
pub(super) static REDEADLINE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local game, deadlines = KEYS[1], KEYS[2]
local seq, id, deadline = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HGET', game, 'seq')
if not current or tonumber(current) ~= tonumber(seq) then
  return 0
end
if deadline == '' then
  redis.call('ZREM', deadlines, id)
else
  redis.call('ZADD', deadlines, 'XX', deadline, id)
end
return 1
",
    )
});

/// KEYS: the finished-games trim lease. ARGV: the token this replica took it with.
/// Releases the lease only if it is still this replica's (it may have expired and been taken
/// by another). Returns 1 if released, else 0.
pub(super) static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
",
    )
});

/// Compares two stream ids (`ms-n`) in Lua: -1, 0 or 1.
const COMPARE_IDS: &str = r"
local function parse(id)
  local dash = string.find(id, '-', 1, true)
  return tonumber(string.sub(id, 1, dash - 1)), tonumber(string.sub(id, dash + 1))
end
local function compare(a, b)
  local am, an = parse(a)
  local bm, bn = parse(b)
  if am ~= bm then return am < bm and -1 or 1 end
  if an ~= bn then return an < bn and -1 or 1 end
  return 0
end
";

/// KEYS: a feed lane, its floor (the last id trimmed).
/// ARGV: the id after which to read, the most entries to return.
/// Returns `{"ok", entries}` (as XRANGE gives them; none: the cursor is at the lane's end),
/// `{"gone", floor}` (entries after the id were trimmed: resuming from it would skip them) or
/// `{"ahead", last}` (the id is past anything this lane ever held: not a cursor of this feed).
/// One script, so no trim can fall between the check and the read.
pub(super) static FEED_READ: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        r"{COMPARE_IDS}
local feed, floor_key = KEYS[1], KEYS[2]
local after, count = ARGV[1], tonumber(ARGV[2])
local floor = redis.call('GET', floor_key) or '0-0'
if compare(after, floor) < 0 then
  return {{'gone', floor}}
end
local entries = redis.call('XRANGE', feed, '(' .. after, '+', 'COUNT', count)
if #entries == 0 then
  local last = redis.call('XREVRANGE', feed, '+', '-', 'COUNT', 1)
  local newest = floor
  if #last > 0 and compare(last[1][1], newest) > 0 then
    newest = last[1][1]
  end
  if compare(after, newest) > 0 then
    return {{'ahead', newest}}
  end
end
return {{'ok', entries}}
"
    ))
});

/// KEYS: a feed lane, its floor.
/// ARGV: the oldest id to keep by time (`<ms>-0`), the most entries to keep.
/// Trims the lane to both, raises the floor to the last id trimmed, and returns how many
/// entries went.
pub(super) static FEED_TRIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(&format!(
        r"{COMPARE_IDS}
local feed, floor_key = KEYS[1], KEYS[2]
local keep_from, cap = ARGV[1], tonumber(ARGV[2])
local len = redis.call('XLEN', feed)
local last_gone = nil
local old = redis.call('XREVRANGE', feed, '(' .. keep_from, '-', 'COUNT', 1)
if #old > 0 then
  last_gone = old[1][1]
end
if len > cap then
  local over = redis.call('XRANGE', feed, '-', '+', 'COUNT', len - cap)
  local id = over[#over][1]
  if last_gone == nil or compare(id, last_gone) > 0 then
    last_gone = id
  end
end
if last_gone == nil then
  return 0
end
local floor = redis.call('GET', floor_key) or '0-0'
if compare(last_gone, floor) > 0 then
  redis.call('SET', floor_key, last_gone)
end
local before = redis.call('XLEN', feed)
local dash = string.find(last_gone, '-', 1, true)
local ms, n = string.sub(last_gone, 1, dash - 1), tonumber(string.sub(last_gone, dash + 1))
redis.call('XTRIM', feed, 'MINID', ms .. '-' .. (n + 1))
return before - redis.call('XLEN', feed)
"
    ))
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each script is known by the hash EVALSHA sends; any other hash is no script of ours.
    #[test]
    fn names_by_hash() {
        assert_eq!(name_of(APPEND_MANY.get_hash().as_bytes()), Some("append"));
        assert_eq!(name_of(CREATE.get_hash().as_bytes()), Some("create"));
        assert_eq!(
            name_of(REDEADLINE.get_hash().as_bytes()),
            Some("redeadline")
        );
        assert_eq!(name_of(RELEASE.get_hash().as_bytes()), Some("release"));
        assert_eq!(name_of(FEED_READ.get_hash().as_bytes()), Some("feed_read"));
        assert_eq!(name_of(FEED_TRIM.get_hash().as_bytes()), Some("feed_trim"));
        assert_eq!(name_of(b"0000000000000000000000000000000000000000"), None);
    }
}
