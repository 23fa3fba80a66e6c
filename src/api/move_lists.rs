//! Move lists in protobuf's encoding: a game's `moves` kept per game and extended by each new
//! move, so the full view of a long game costs what a short one does; and a position's
//! `legal_moves`, written straight into bytes.
//!
//! [`MoveLists`] is a bounded cache of the games this server answered for lately. An entry
//! keeps the moves it encoded, so a game whose record no longer starts with them (a takeback)
//! is encoded afresh rather than answered from the old list.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use bytes::Bytes;
use chessd_proto::wire::MoveListWriter;
use chessd_rules::any::AnyMove;
use chessd_rules::{self as rules, Rules};

use crate::game::{GameId, HIDDEN_MOVE, Viewer};

/// Shards of the cache: calls on different games rarely wait for one another.
const SHARDS: usize = 16;

/// Games kept per shard; beyond it an arbitrary entry is dropped (it is only a cache).
const GAMES_PER_SHARD: usize = 256;

/// One game's list as last encoded.
#[derive(Debug, Default)]
struct Entry {
    moves: Vec<AnyMove>,
    /// Shared with the answers that carry it: once they are sent, the list is extended in
    /// place, and an answer copies no list at all.
    encoded: Bytes,
}

/// The encoded move lists of recently answered games.
#[derive(Debug, Default)]
pub struct MoveLists {
    /// By the game id's low bits. A std mutex per shard: held to extend one list and copy
    /// its bytes out, never across an `.await`.
    shards: [Mutex<HashMap<GameId, Entry>>; SHARDS],
}

impl MoveLists {
    /// `game`'s `moves` field, encoded: the cached list extended by the moves since, or the
    /// whole list when the cache cannot serve it. A finished game leaves the cache.
    pub fn encoded(&self, id: GameId, game: &rules::any::AnyGame) -> Bytes {
        let mut shard = self.shards[(id.get() as usize) % SHARDS]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if !shard.contains_key(&id)
            && shard.len() >= GAMES_PER_SHARD
            && let Some(&victim) = shard.keys().next()
        {
            shard.remove(&victim);
        }
        let entry = shard.entry(id).or_default();
        let ply = game.ply() as usize;
        let agree = || game.moves().zip(&entry.moves).all(|(a, &b)| a == b);
        if !(ply >= entry.moves.len() && agree()) {
            if entry.moves.len() >= ply && agree() {
                // An answer about an earlier ply than one already given (calls answered out
                // of order): the longer list stays for the calls to come.
                drop(shard);
                return Bytes::from(encode_moves(game, 0, Vec::new()));
            }
            *entry = Entry::default();
        }
        let known = entry.moves.len();
        if ply > known {
            entry.moves.extend(game.moves_from(known));
            // An answer still holding the list (not yet written out) keeps its bytes; the
            // list then grows in a copy.
            let list = match std::mem::take(&mut entry.encoded).try_into_mut() {
                Ok(unique) => Vec::from(unique),
                Err(shared) => shared.to_vec(),
            };
            entry.encoded = Bytes::from(encode_moves(game, known, list));
        }
        let bytes = entry.encoded.clone();
        if game.is_over() {
            shard.remove(&id);
        }
        bytes
    }
}

/// `game`'s moves from index `from` on, appended to `encoded` (the records of those before).
fn encode_moves(game: &rules::any::AnyGame, from: usize, encoded: Vec<u8>) -> Vec<u8> {
    let mut writer = MoveListWriter::moves(encoded);
    if let Some(g) = game.std() {
        // The 8x8 engine's UCI is written on the stack: this list is on every full answer.
        let moves = g.moves().get(from..).unwrap_or_default();
        for (&m, san) in moves.iter().zip(g.sans_from(from)) {
            writer.push(m.uci_text().as_str(), san);
        }
    } else {
        for (m, san) in game.moves_from(from).zip(game.sans_from(from)) {
            writer.push(&m.to_string(), san);
        }
    }
    writer.into_inner()
}

/// `game`'s `moves` field, encoded afresh (for answers outside the cache: creations,
/// snapshots).
pub fn all_moves(game: &rules::any::AnyGame) -> Bytes {
    Bytes::from(encode_moves(game, 0, Vec::new()))
}

/// `game`'s `moves` field as `viewer` sees it (a hidden game in play): its own moves in full,
/// every other move as [`HIDDEN_MOVE`] in both notations, so the count and the turns stay.
/// Never cached: a hidden game's lists differ by viewer.
pub fn seen_moves(game: &rules::any::AnyGame, viewer: Viewer) -> Bytes {
    let mut writer = MoveListWriter::moves(Vec::new());
    let mut mover = game.start().turn();
    for (m, san) in game.moves().zip(game.sans()) {
        if viewer.sees_moves_of(mover) {
            writer.push(&m.to_string(), san);
        } else {
            writer.push(HIDDEN_MOVE, HIDDEN_MOVE);
        }
        mover = !mover;
    }
    Bytes::from(writer.into_inner())
}

/// Every legal move of `pos` in both notations, encoded as `legal_moves`.
pub fn legal_moves(pos: &rules::any::AnyPosition) -> Bytes {
    let mut writer = MoveListWriter::legal_moves();
    if let Some(pos) = pos.std() {
        // On the stack, as above: every full answer lists every legal move.
        let legal = pos.legal_moves();
        for &m in legal.iter() {
            let san = rules::san_plus_among(pos, m, &legal).text();
            writer.push(m.uci_text().as_str(), san.as_str());
        }
    } else {
        for (uci, san) in pos.notations() {
            writer.push(&uci, &san);
        }
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use chessd_rules::{
        DrawRule,
        any::{AnyGame, AnyPosition, AnyVariant},
    };
    use prost::Message;

    use super::*;

    /// The `moves` field as prost encodes the client's messages.
    fn reference(game: &AnyGame) -> Vec<chessd_proto::MoveNotation> {
        game.moves()
            .zip(game.sans())
            .map(|(m, san)| chessd_proto::MoveNotation {
                uci: m.to_string(),
                san: san.to_owned(),
            })
            .collect()
    }

    fn decoded(moves: Bytes, legal_moves: Bytes) -> chessd_proto::Game {
        let wire = chessd_proto::wire::Game {
            fields: chessd_proto::Game::default(),
            moves,
            legal_moves,
        };
        chessd_proto::Game::decode(wire.encode_to_vec().as_slice()).expect("decodes")
    }

    /// Plays the first legal move `n` times (a drop, a castle or a promotion when the
    /// generator lists one first; in a game of chance, with its first possible draw). Dice
    /// Chess's start, whose first roll the server makes at creation, has none.
    fn play(game: &mut AnyGame, n: usize) {
        for _ in 0..n {
            let Some(&m) = game.position().legal_moves().first() else {
                return;
            };
            if game.is_over() {
                return;
            }
            game.play(m).expect("legal");
        }
    }

    /// A list extended move by move decodes to every move played, in both notations, in each
    /// variant; and every position's legal moves decode to AnalyzePosition's list.
    #[test]
    fn extended_lists_decode_to_every_move() {
        let lists = MoveLists::default();
        for (i, variant) in AnyVariant::all().enumerate() {
            let id = GameId::new(std::time::SystemTime::UNIX_EPOCH, i as u64);
            let mut game = AnyGame::new(AnyPosition::new(variant), DrawRule::Claim);
            for _ in 0..40 {
                let got = decoded(lists.encoded(id, &game), legal_moves(&game.position()));
                assert_eq!(
                    got.moves,
                    reference(&game),
                    "{variant} at ply {}",
                    game.ply()
                );
                assert_eq!(
                    got.legal_moves,
                    crate::api::encode::analysis(&game.position()).legal_moves,
                    "{variant} at ply {}",
                    game.ply()
                );
                play(&mut game, 3);
            }
        }
    }

    /// A game whose moves no longer start with the cached ones (another game under the id, as
    /// after a takeback) is encoded afresh; an answer about an earlier ply than the cache's
    /// is right and leaves the longer list for later calls.
    #[test]
    fn lists_follow_the_game_not_the_cache() {
        let lists = MoveLists::default();
        let id = GameId::new(std::time::SystemTime::UNIX_EPOCH, 7);
        let mut long = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        play(&mut long, 12);
        let _ = lists.encoded(id, &long);
        let mut short = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        play(&mut short, 5);
        assert_eq!(
            decoded(lists.encoded(id, &short), Bytes::new()).moves,
            reference(&short)
        );
        play(&mut long, 2);
        assert_eq!(
            decoded(lists.encoded(id, &long), Bytes::new()).moves,
            reference(&long)
        );
        let mut other = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        let m = other.position().legal_moves()[5];
        other.play(m).expect("legal");
        assert_eq!(
            decoded(lists.encoded(id, &other), Bytes::new()).moves,
            reference(&other)
        );
    }

    /// A real takeback on the cached game: after each of one and two plies taken back, and
    /// after other moves are played in their place (the same length as the list cached, or
    /// longer), the list is the game's, never the cache's.
    #[test]
    fn lists_follow_takebacks() {
        let lists = MoveLists::default();
        let id = GameId::new(std::time::SystemTime::UNIX_EPOCH, 8);
        let mut game = AnyGame::new(AnyPosition::new(AnyVariant::CHESS), DrawRule::Claim);
        play(&mut game, 10);
        let check = |game: &AnyGame| {
            assert_eq!(
                decoded(lists.encoded(id, game), Bytes::new()).moves,
                reference(game),
                "at ply {}",
                game.ply()
            );
        };
        check(&game);
        game.take_back(1).expect("a move to take back");
        check(&game);
        // Another move at ply 10: as long as the cached list, not its extension.
        let other = game.position().legal_moves()[1];
        game.play(other).expect("legal");
        check(&game);
        game.take_back(2).expect("two moves to take back");
        check(&game);
        let m = game.position().legal_moves()[2];
        game.play(m).expect("legal");
        play(&mut game, 3);
        check(&game);
    }
}
