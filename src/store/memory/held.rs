//! A game's record as the memory store holds it ([`Held`]): an ongoing game's as it is, a
//! finished game's packed (`game::record::PackedRecord`, a few bytes a move), since most games
//! a server holds are finished and read rarely. A call on a finished game unpacks it for the
//! call and packs it again as the call ends (see `EntryState::open` and `settle`).

use std::borrow::Cow;
use std::time::Duration;

use chessd_rules::{Color, Outcome};

use crate::error::ServiceError;
use crate::game::{GameHeader, GameRecord, Now, PackedRecord, Seats};

/// The record of one game.
#[derive(Debug)]
pub(super) enum Held {
    /// An ongoing game (or a finished one during a call on it). Boxed, so a packed game's
    /// slot is not the size of a live record.
    Live(Box<GameRecord>),
    Packed(PackedRecord),
}

impl Held {
    /// `record`, packed if its game is over.
    #[must_use]
    pub(super) fn of(record: GameRecord, header: &GameHeader, now: Now) -> Held {
        if record.is_over() {
            Held::Packed(record.pack(header, now))
        } else {
            Held::Live(Box::new(record))
        }
    }

    /// Packs the record if its game is over (after a call that may have ended it or read it).
    pub(super) fn settle(&mut self, header: &GameHeader, now: Now) {
        if let Held::Live(record) = self
            && record.is_over()
        {
            *self = Held::Packed(record.pack(header, now));
        }
    }

    /// The record to read: a finished game's rebuilt (and dropped after), nothing changed.
    pub(super) fn read(
        &self,
        header: &GameHeader,
        abandon_after: Option<Duration>,
        now: Now,
    ) -> Result<Cow<'_, GameRecord>, ServiceError> {
        match self {
            Held::Live(record) => Ok(Cow::Borrowed(record)),
            Held::Packed(packed) => unpack(packed, header, abandon_after, now).map(Cow::Owned),
        }
    }

    /// The record to change: a finished game's is rebuilt in place (see `settle`).
    pub(super) fn live(
        &mut self,
        header: &GameHeader,
        abandon_after: Option<Duration>,
        now: Now,
    ) -> Result<&mut GameRecord, ServiceError> {
        if let Held::Packed(packed) = self {
            *self = Held::Live(Box::new(unpack(packed, header, abandon_after, now)?));
        }
        match self {
            Held::Live(record) => Ok(record),
            Held::Packed(_) => Err(ServiceError::Internal("a packed game stayed packed".into())),
        }
    }

    /// The seats' token digests and whose turn it is (nobody's in a finished game).
    #[must_use]
    pub(super) fn seats_and_turn(&self) -> (Seats, Option<Color>) {
        match self {
            Held::Live(record) => (record.seats().clone(), record.turn()),
            Held::Packed(packed) => (packed.seats(), None),
        }
    }

    #[must_use]
    pub(super) fn outcome(&self) -> Option<Outcome> {
        match self {
            Held::Live(record) => record.game().outcome(),
            Held::Packed(packed) => packed.outcome(),
        }
    }

    #[must_use]
    pub(super) fn is_packed(&self) -> bool {
        matches!(self, Held::Packed(_))
    }

    /// Bytes held beside the entry: the boxed record and its heap, or the packed bytes.
    #[cfg(test)]
    #[must_use]
    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Held::Live(record) => size_of::<GameRecord>() + record.heap_bytes(),
            Held::Packed(packed) => packed.bytes() - size_of::<PackedRecord>(),
        }
    }
}

/// A packed game rebuilt. It was packed by this process from a game that was whole, so a
/// failure is a bug: an internal error (logged with its cause) rather than a wrong game.
fn unpack(
    packed: &PackedRecord,
    header: &GameHeader,
    abandon_after: Option<Duration>,
    now: Now,
) -> Result<GameRecord, ServiceError> {
    packed.unpack(header, abandon_after, now).map_err(|e| {
        ServiceError::Internal(format!("finished game {} does not unpack: {e}", header.id).into())
    })
}
