//! The server's [`Game`] (`wire::Game`): the root's `Game`, except that it carries its two move lists (`moves`, field 8, and `legal_moves`, field 9)
//! as bytes already in protobuf's encoding. A server keeps a game's encoded moves and
//! appends each new one, so an answer with the full view costs what a basic one does however
//! long the game; the bytes on the wire are those of the root's `Game`, which clients decode.
//! [`MoveListWriter`] writes those bytes.

use bytes::{Buf, BufMut, Bytes};
use prost::encoding::{DecodeContext, WireType, encode_key, encode_varint, encoded_len_varint};

/// `Game.moves`' field number.
const MOVES: u32 = 8;
/// `Game.legal_moves`' field number.
const LEGAL_MOVES: u32 = 9;

/// A game as the server sends it: [`crate::Game`]'s fields, with `moves` and `legal_moves`
/// as encoded bytes (see [`MoveListWriter`]) instead of messages.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    /// Every field but the two move lists, which are left empty here.
    pub fields: crate::Game,
    /// `moves`, encoded: one field-8 record per move.
    pub moves: Bytes,
    /// `legal_moves`, encoded: one field-9 record per move.
    pub legal_moves: Bytes,
}

impl prost::Message for Game {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        self.fields.encode_raw(buf);
        // Field order is free in protobuf, and a repeated field's records are read in order.
        buf.put_slice(&self.moves);
        buf.put_slice(&self.legal_moves);
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), prost::DecodeError> {
        match tag {
            MOVES | LEGAL_MOVES => {
                let mut record = crate::MoveNotation::default();
                prost::encoding::message::merge(wire_type, &mut record, buf, ctx)?;
                let list = if tag == MOVES {
                    &mut self.moves
                } else {
                    &mut self.legal_moves
                };
                let mut writer = MoveListWriter::new(tag, std::mem::take(list));
                writer.push(&record.uci, &record.san);
                *list = writer.finish();
                Ok(())
            }
            _ => self.fields.merge_field(tag, wire_type, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        self.fields.encoded_len() + self.moves.len() + self.legal_moves.len()
    }

    fn clear(&mut self) {
        *self = Game::default();
    }
}

/// Writes a repeated `MoveNotation` field record by record, as prost would encode it.
#[derive(Debug)]
pub struct MoveListWriter {
    field: u32,
    buf: Vec<u8>,
}

impl MoveListWriter {
    /// A writer of `Game.moves` records appending to `encoded`.
    #[must_use]
    pub fn moves(encoded: Vec<u8>) -> MoveListWriter {
        MoveListWriter {
            field: MOVES,
            buf: encoded,
        }
    }

    /// A writer of `Game.legal_moves` records.
    #[must_use]
    pub fn legal_moves() -> MoveListWriter {
        MoveListWriter {
            field: LEGAL_MOVES,
            buf: Vec::new(),
        }
    }

    fn new(field: u32, encoded: Bytes) -> MoveListWriter {
        MoveListWriter {
            field,
            buf: encoded.into(),
        }
    }

    /// Appends one move in both notations.
    pub fn push(&mut self, uci: &str, san: &str) {
        let string_len = |s: &str| {
            if s.is_empty() {
                0
            } else {
                1 + encoded_len_varint(s.len() as u64) + s.len()
            }
        };
        let inner = string_len(uci) + string_len(san);
        if inner < 0x80 && !uci.is_empty() && !san.is_empty() {
            // Every list entry the server writes: each key and length is one byte, and the
            // record goes in as one copy instead of six varint loops.
            let key = |field: u32| ((field << 3) | WireType::LengthDelimited as u32) as u8;
            self.buf.reserve(2 + inner);
            self.buf
                .extend_from_slice(&[key(self.field), inner as u8, key(1), uci.len() as u8]);
            self.buf.extend_from_slice(uci.as_bytes());
            self.buf.extend_from_slice(&[key(2), san.len() as u8]);
            self.buf.extend_from_slice(san.as_bytes());
            return;
        }
        encode_key(self.field, WireType::LengthDelimited, &mut self.buf);
        encode_varint(inner as u64, &mut self.buf);
        for (tag, text) in [(1, uci), (2, san)] {
            // proto3 leaves out an empty string, as prost does.
            if !text.is_empty() {
                encode_key(tag, WireType::LengthDelimited, &mut self.buf);
                encode_varint(text.len() as u64, &mut self.buf);
                self.buf.put_slice(text.as_bytes());
            }
        }
    }

    /// The records, for a [`Game`].
    #[must_use]
    pub fn finish(self) -> Bytes {
        Bytes::from(self.buf)
    }

    /// The buffer, to keep appending to later.
    #[must_use]
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::{Game, MoveListWriter};

    fn notation(uci: &str, san: &str) -> crate::MoveNotation {
        crate::MoveNotation {
            uci: uci.into(),
            san: san.into(),
        }
    }

    /// A wire game's bytes are a root `Game`'s, move lists included, and decode back.
    #[test]
    fn wire_game_encodes_as_the_clients_game() {
        let moves = [("e2e4", "e4"), ("e7e5", "e5"), ("d1h5", "Qh5")];
        let legal = [("e8e7", "Ke7"), ("g7g6", "g6")];
        let mut client = crate::Game {
            game_id: "0123456789ABC".into(),
            fen: "some fen".into(),
            ply: 3,
            last_seq: 3,
            ..Default::default()
        };
        let fields = client.clone();
        client.moves = moves.iter().map(|(u, s)| notation(u, s)).collect();
        client.legal_moves = legal.iter().map(|(u, s)| notation(u, s)).collect();

        let mut m = MoveListWriter::moves(Vec::new());
        for (u, s) in moves {
            m.push(u, s);
        }
        let mut l = MoveListWriter::legal_moves();
        for (u, s) in legal {
            l.push(u, s);
        }
        let wire = Game {
            fields,
            moves: m.finish(),
            legal_moves: l.finish(),
        };
        let bytes = wire.encode_to_vec();
        assert_eq!(bytes.len(), wire.encoded_len());
        assert_eq!(crate::Game::decode(bytes.as_slice()).unwrap(), client);
        assert_eq!(
            bytes.len(),
            client.encoded_len(),
            "the same records as prost's"
        );
        assert_eq!(Game::decode(bytes.as_slice()).unwrap(), wire);
    }
}
