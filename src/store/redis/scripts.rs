//! The Lua scripts: each change to a game is one script, so Redis applies all of it or none
//! of it, and no other client's command runs in between.
//!
//! - [`CREATE`]: a new game (or the one an earlier creation with the same request id made):
//!   the live-game limit, the game hash, the list, the deadline (flag or abandonment), the
//!   request record.
//! - [`APPEND`]: compare-and-append. It checks that the game's last seq is the one the replica
//!   played from, then appends the events to the stream, updates the game hash (seq, status,
//!   ply, position, outcome), the deadline (flag or abandonment), and, when the game ended,
//!   the live count, the finished set and the result counts; then announces the new seq on
//!   the game's channel. A replica that played from a stale seq gets the events it missed back
//!   and nothing is written.
//! - [`REDEADLINE`]: the deadline sweep's repair of a due entry whose game did not end (see
//!   `sweep`): the entry is set to the game's true deadline, only if the game is still at the
//!   seq the sweep read, so it never undoes a concurrent APPEND's deadline.
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

/// The name of the script whose SHA-1 (as EVALSHA sends it, in hex) is `sha`, for traces.
pub fn name_of(sha: &[u8]) -> Option<&'static str> {
    [
        (&*CREATE, "create"),
        (&*APPEND, "append"),
        (&*REDEADLINE, "redeadline"),
        (&*RELEASE, "release"),
    ]
    .into_iter()
    .find(|(script, _)| script.get_hash().as_bytes() == sha)
    .map(|(_, name)| name)
}

/// KEYS: game hash, games list, deadlines, live count, request record (without a request id a
/// key of the bucket that is never written: a Cluster routes by every declared key), then
/// other buckets' live counts (one Redis only; added to the live count).
/// ARGV: id, live limit, deadline ms ("" for none), fingerprint, request memory in seconds
/// ("" without a request id), live games counted outside these keys, the new game's
/// `white_digest`, then the game hash's field/value pairs.
/// Returns `{"created"}`, `{"exists", id, fingerprint}` (a retry), `{"full"}` (the
/// live limit) or `{"taken"}` (the id exists: draw another). The game already existing with
/// this creation's White digest is `{"created"}`: the same script run twice, which the cluster
/// client does when a reply is lost (a random token's digest names its creation).
pub static CREATE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local game, games, deadlines, live, request = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id, limit, deadline = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local remembered = ARGV[5] ~= ''
if remembered then
  local found = redis.call('HMGET', request, 'id', 'fingerprint')
  if found[1] then
    return {'exists', found[1], found[2]}
  end
end
if redis.call('EXISTS', game) == 1 then
  if redis.call('HGET', game, 'white_digest') == ARGV[7] then
    return {'created'}
  end
  return {'taken'}
end
local counted = tonumber(ARGV[6]) + (tonumber(redis.call('GET', live)) or 0)
for k = 6, #KEYS do
  counted = counted + (tonumber(redis.call('GET', KEYS[k])) or 0)
end
if counted >= limit then
  return {'full'}
end
redis.call('INCR', live)
local fields = {}
for i = 8, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', game, unpack(fields))
redis.call('ZADD', games, 0, id)
if deadline ~= '' then
  redis.call('ZADD', deadlines, deadline, id)
end
if remembered then
  redis.call('HSET', request, 'id', id, 'fingerprint', ARGV[4])
  redis.call('EXPIRE', request, tonumber(ARGV[5]))
end
return {'created'}
",
    )
});

/// KEYS: game hash, event stream, deadlines, result counts, live count, finished set.
/// ARGV: expected seq, id, deadline ms ("" for none), result field ("" while the game goes on,
/// "-" for an aborted game, else the count to raise), end time ms, channel, then the number
/// of hash field/value strings and those strings, then the number of events and, for each,
/// its number of field strings and those strings.
/// Returns `{1, seq, {}}` (appended; the new last seq), `{0, seq, entries}` (stale: the current
/// seq and the stream entries after the expected one, so the replica catches up without another
/// round trip) or `{-1, 0, {}}` (no such game).
pub static APPEND: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local game, events, deadlines, stats, live, finished =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local current = redis.call('HGET', game, 'seq')
if not current then
  return {-1, 0, {}}
end
local seq = tonumber(current)
if seq ~= tonumber(ARGV[1]) then
  return {0, seq, redis.call('XRANGE', events, (tonumber(ARGV[1]) + 1) .. '-0', '+')}
end
local id, deadline, result, ended_ms, channel = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local i = 7
local nstate = tonumber(ARGV[i])
local state = {}
for j = 1, nstate do
  state[j] = ARGV[i + j]
end
i = i + nstate + 1
local nevents = tonumber(ARGV[i])
i = i + 1
for _ = 1, nevents do
  local nfields = tonumber(ARGV[i])
  local fields = {}
  for j = 1, nfields do
    fields[j] = ARGV[i + j]
  end
  i = i + nfields + 1
  seq = seq + 1
  redis.call('XADD', events, seq .. '-0', unpack(fields))
end
redis.call('HSET', game, 'seq', seq, unpack(state))
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
end
redis.call('PUBLISH', channel, seq)
return {1, seq, {}}
",
    )
});

/// KEYS: game hash, deadlines (the game's bucket's).
/// ARGV: the seq the sweep read the game at, id, the game's deadline ms ("" for none).
/// Sets the game's deadline entry to the deadline its record has, only if the game is still
/// at that seq (a concurrent APPEND already wrote the right deadline) and only if the entry
/// is still there (`XX`: the sweep never adds one). Returns 1 if it rewrote, else 0.
pub static REDEADLINE: LazyLock<Script> = LazyLock::new(|| {
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
pub static RELEASE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
",
    )
});

#[cfg(test)]
mod tests {
    use super::*;

    /// Each script is known by the hash EVALSHA sends; any other hash is no script of ours.
    #[test]
    fn names_by_hash() {
        assert_eq!(name_of(APPEND.get_hash().as_bytes()), Some("append"));
        assert_eq!(name_of(CREATE.get_hash().as_bytes()), Some("create"));
        assert_eq!(
            name_of(REDEADLINE.get_hash().as_bytes()),
            Some("redeadline")
        );
        assert_eq!(name_of(RELEASE.get_hash().as_bytes()), Some("release"));
        assert_eq!(name_of(b"0000000000000000000000000000000000000000"), None);
    }
}
