//! `GameRecord`: one game's rules of play on top of the engine's `Game`: seats and their
//! token digests, the clock, draw offers, idempotent move retries and the event log.
//!
//! It is synchronous and does no I/O: every change takes the current time as an argument and
//! appends the events it caused to a caller's vector, which the store then publishes. A durable
//! store can reuse it as is.
//!
//! Draw offers: a player may offer at any time; the offer stands until the opponent accepts or
//! declines it, or plays a move (which declines it without a separate event). Offering while the
//! opponent's offer stands accepts it. Offering again while one's own offer stands changes
//! nothing.

mod extend;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::SystemTime;

use chessd_rules::{Color, DrawRule, Game, Move, Outcome, PlayError, Position, Rules, Termination};
use tokio::time::Instant;

use super::events::{
    LogEntry, LogKind, Replay, clock_ms, game_over_event, move_event, move_info, mover_of,
    offer_after_move, offer_event,
};
use super::journal::EventRow;
use super::{
    Action, Clock, ClockReading, Event, GameView, MoveInfo, MoveText, NewGame, Players, RequestId,
    TimeControl,
};
use crate::error::ServiceError;
use crate::store::GameId;
use crate::token::{SeatToken, TokenDigest};

/// How many answered move request ids a game remembers (the oldest is forgotten first). A retry
/// normally follows its request within seconds, long before 16 more moves.
pub const ANSWERED_MEMORY: usize = 16;

/// The current time on both clocks the store uses.
#[derive(Clone, Copy, Debug)]
pub struct Now {
    /// Monotonic (tokio's clock: pausable in tests), for the chess clocks.
    pub mono: Instant,
    /// Wall time, for the times clients see.
    pub wall: SystemTime,
}

impl Now {
    #[must_use]
    pub fn read() -> Now {
        Now {
            mono: Instant::now(),
            wall: SystemTime::now(),
        }
    }
}

/// A game as storage gives it back (see [`GameRecord::restore`]).
#[derive(Debug)]
pub struct Stored {
    pub start: Position,
    pub draw_rule: DrawRule,
    pub time_control: Option<TimeControl>,
    /// The seats' token digests, indexed by `Color::index`.
    pub digests: [TokenDigest; 2],
    pub created_at: SystemTime,
    /// Every event, seq 1 first.
    pub events: Vec<EventRow>,
    /// Time the side to move had used since the last event when the server was last known to
    /// be running (it is charged; the downtime after it is not).
    pub charged: std::time::Duration,
}

/// A move answered under a request id.
#[derive(Clone, Copy, Debug)]
struct Answered {
    /// The request id, hashed with the store's secret key.
    key: u64,
    seat: Color,
    ply: u32,
}

/// One game's state.
#[derive(Debug)]
pub struct GameRecord {
    /// Shared with the views handed out: a view takes a reference, not a copy of every move,
    /// and the next change copies the game only if a view still holds it (answers are encoded
    /// and dropped long before the next move, so in practice it never does).
    game: Arc<Game>,
    /// Digests of the seats' tokens, indexed by `Color::index` (never the tokens: see
    /// `token::TokenDigest`).
    digests: [TokenDigest; 2],
    clock: Option<Clock>,
    /// The side whose draw offer stands.
    draw_offer: Option<Color>,
    /// One entry per event: `log[i]` has seq `i + 1`.
    log: Vec<LogEntry>,
    /// Request ids of recent moves, at most `ANSWERED_MEMORY` (allocated on first use).
    answered: VecDeque<Answered>,
    created_at: SystemTime,
    /// The monotonic time of the latest move (or of the creation, or of the restart that
    /// brought the game back: downtime counts for nobody, as with clocks).
    last_move_at: Instant,
    /// How long the game had already gone without a move at `last_move_at`: zero, except for
    /// a game read from a store shared with other processes (see
    /// [`GameRecord::idle_since_last_move`]).
    idle_before: std::time::Duration,
    /// A game with no move for this long is abandoned (see [`GameRecord::expire`]); `None`:
    /// never.
    abandon_after: Option<std::time::Duration>,
}

impl GameRecord {
    /// A new game. The start position must not be decided already (the caller checks).
    #[must_use]
    pub fn new(new: &NewGame, digests: [TokenDigest; 2], now: Now) -> GameRecord {
        GameRecord {
            game: Arc::new(Game::new(new.start, new.draw_rule)),
            digests,
            clock: new
                .time_control
                .map(|tc| Clock::start(tc, new.start.turn(), now.mono)),
            draw_offer: None,
            log: Vec::new(),
            answered: VecDeque::new(),
            created_at: now.wall,
            last_move_at: now.mono,
            idle_before: std::time::Duration::ZERO,
            abandon_after: None,
        }
    }

    /// Ends the game once nobody has moved for `after` (the store's `--abandon-after`).
    #[must_use]
    pub fn abandoned_after(mut self, after: Option<std::time::Duration>) -> GameRecord {
        self.abandon_after = after;
        self
    }

    /// A game rebuilt from its stored events, played again through the engine, with its clock
    /// running from `now` (the downtime is charged to nobody). `key` hashes a move's request id
    /// as the store does, so retries from before the restart are still recognised. An event
    /// that does not fit the game (a gap, an illegal move) is an error: the store refuses to
    /// start rather than serve a game that is not what it was.
    pub fn restore(
        stored: Stored,
        key: impl Fn(&str) -> u64,
        now: Now,
    ) -> Result<GameRecord, String> {
        let mut game = Game::new(stored.start, stored.draw_rule);
        let mut log = Vec::with_capacity(stored.events.len());
        let mut draw_offer = None;
        let mut answered = VecDeque::new();
        let mut clocks_ms = None;
        for (i, row) in stored.events.iter().enumerate() {
            let seq = i as u64 + 1;
            if row.seq != seq {
                return Err(format!("event {seq} is missing (found {})", row.seq));
            }
            match row.kind {
                LogKind::Move { .. } => {
                    let mv = row
                        .mv
                        .ok_or_else(|| format!("event {seq}: a move without its move"))?;
                    let mover = game.position().turn();
                    game.play(mv).map_err(|e| {
                        format!(
                            "event {seq}: {mv} cannot be played in {}: {e}",
                            game.position().fen()
                        )
                    })?;
                    draw_offer = offer_after_move(draw_offer, mover);
                    if let Some(rid) = &row.request_id {
                        if answered.len() == ANSWERED_MEMORY {
                            answered.pop_front();
                        }
                        answered.push_back(Answered {
                            key: key(rid),
                            seat: mover,
                            ply: game.ply(),
                        });
                    }
                }
                LogKind::DrawOffered(by) => draw_offer = Some(by),
                LogKind::DrawDeclined(_) => draw_offer = None,
                LogKind::GameOver => {
                    // A game that ended on the board already has its outcome from the moves.
                    if !game.is_over() {
                        let outcome = row
                            .outcome
                            .ok_or_else(|| format!("event {seq}: game over without an outcome"))?;
                        game.finish(outcome)
                            .map_err(|e| format!("event {seq}: cannot end the game: {e}"))?;
                    }
                    draw_offer = None;
                }
            }
            clocks_ms = row.clocks_ms.or(clocks_ms);
            log.push(LogEntry {
                at_ms: row.at_ms,
                kind: row.kind,
            });
        }
        let clock = stored.time_control.map(|tc| {
            let mut remaining = clocks_ms.map_or([tc.initial; 2], |ms: [u64; 2]| {
                ms.map(std::time::Duration::from_millis)
            });
            let running = (!game.is_over()).then(|| game.position().turn());
            if let Some(side) = running {
                remaining[side.index()] = remaining[side.index()].saturating_sub(stored.charged);
            }
            Clock::resume(tc, remaining, running, now.mono)
        });
        Ok(GameRecord {
            game: Arc::new(game),
            digests: stored.digests,
            clock,
            draw_offer,
            log,
            answered,
            created_at: stored.created_at,
            last_move_at: now.mono,
            idle_before: std::time::Duration::ZERO,
            abandon_after: None,
        })
    }

    /// The events after `after_seq` as the journal stores them, read at `now` (right after the
    /// action that made them). `request_id` is the request id of the move among them, if any.
    #[must_use]
    pub fn journal_rows(
        &self,
        after_seq: u64,
        now: Now,
        request_id: Option<&RequestId>,
    ) -> Vec<EventRow> {
        let new = self.log.get(after_seq as usize..).unwrap_or_default();
        let new_moves = new
            .iter()
            .filter(|e| matches!(e.kind, LogKind::Move { .. }))
            .count();
        let moves = self.game.moves();
        let mut index = moves.len().saturating_sub(new_moves);
        let clocks_ms = self.clock.as_ref().map(|c| {
            Color::ALL.map(|side| {
                u64::try_from(c.remaining(side, now.mono).as_millis()).unwrap_or(u64::MAX)
            })
        });
        let mut seq = after_seq;
        new.iter()
            .map(|entry| {
                seq += 1;
                let mut row = EventRow {
                    seq,
                    at_ms: entry.at_ms,
                    kind: entry.kind,
                    mv: None,
                    seat: None,
                    request_id: None,
                    clocks_ms,
                    outcome: None,
                };
                match entry.kind {
                    LogKind::Move { .. } => {
                        row.mv = moves.get(index).copied();
                        row.seat = Some(mover_of(&self.game, index));
                        row.request_id = request_id.map(|r| r.as_str().to_owned());
                        index += 1;
                    }
                    LogKind::DrawOffered(by) | LogKind::DrawDeclined(by) => row.seat = Some(by),
                    LogKind::GameOver => row.outcome = self.game.outcome(),
                }
                row
            })
            .collect()
    }

    /// When the game ended, in milliseconds since the Unix epoch (its game-over event).
    #[must_use]
    pub fn ended_at_ms(&self) -> Option<u64> {
        if self.game.is_over() {
            self.log.last().map(|e| e.at_ms)
        } else {
            None
        }
    }

    /// The seat `token` belongs to. Its digest is compared with both seats' in constant time,
    /// always.
    pub fn seat_of(&self, token: &SeatToken) -> Result<Color, ServiceError> {
        let digest = token.digest();
        let white = self.digests[Color::White.index()].matches(&digest);
        let black = self.digests[Color::Black.index()].matches(&digest);
        match (white, black) {
            (true, _) => Ok(Color::White),
            (false, true) => Ok(Color::Black),
            (false, false) => Err(ServiceError::InvalidToken),
        }
    }

    /// The seats' token digests (for storage).
    #[must_use]
    pub fn digests(&self) -> [TokenDigest; 2] {
        self.digests
    }

    /// The game to change: copied first only if a view handed out earlier still shares it.
    fn game_mut(&mut self) -> &mut Game {
        Arc::make_mut(&mut self.game)
    }

    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The seq of the latest event (0 before any).
    #[must_use]
    pub fn last_seq(&self) -> u64 {
        self.log.len() as u64
    }

    /// When the game ends by itself if nobody acts, while it goes on: the running side's flag
    /// falls, or the game is abandoned, whichever comes first.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.game.is_over() {
            return None;
        }
        let flag = self.clock.as_ref().and_then(Clock::deadline);
        let abandon = self.abandon_deadline();
        match (flag, abandon) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn abandon_deadline(&self) -> Option<Instant> {
        self.abandon_after.and_then(|after| {
            self.last_move_at
                .checked_add(after.saturating_sub(self.idle_before))
        })
    }

    /// Times abandonment from the wall time of the last move in the log (or of the creation)
    /// rather than from when this process read the game. For a store shared by several
    /// processes (Redis replicas): the game sat idle while no process held it, and unlike a
    /// restart's downtime that counts, or a game would never be abandoned once the replica that
    /// saw its last move is gone.
    pub fn idle_since_last_move(&mut self, now: Now) {
        let moved_ms = self
            .log
            .iter()
            .rev()
            .find(|e| matches!(e.kind, LogKind::Move { .. }))
            .map(|e| e.at_ms);
        let moved = moved_ms.map_or(self.created_at, |ms| {
            SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(ms)
        });
        self.last_move_at = now.mono;
        self.idle_before = now.wall.duration_since(moved).unwrap_or_default();
    }

    /// Ends the game if, by `now`, the side to move ran out of time, or nobody moved for the
    /// abandonment time: a game where not both sides have moved is aborted (no result, as an
    /// Abort would); a later one is lost by the side to move, who walked away
    /// (`Termination::Abandonment`). True if the game ended. The outcome goes through the same
    /// game-over event as any other, so watchers are told and a durable store records it.
    pub fn expire(&mut self, now: Now, out: &mut Vec<Event>) -> bool {
        if self.game.is_over() {
            return false;
        }
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now.mono)) {
            let outcome = self.game.flag_outcome(loser);
            self.finish(outcome, now, out);
            return true;
        }
        if self.abandon_deadline().is_some_and(|at| now.mono >= at) {
            let outcome = if self.game.ply() < 2 {
                Outcome::draw(Termination::Aborted)
            } else {
                Outcome::win(!self.game.position().turn(), Termination::Abandonment)
            };
            self.finish(outcome, now, out);
            return true;
        }
        false
    }

    /// Performs `seat`'s action at `now`; `request_key` is the hashed request id of a move.
    /// A flag that fell before `now` ends the game first. Events go to `out`, also when the
    /// action itself is refused (the flag's game-over event).
    pub fn apply(
        &mut self,
        seat: Color,
        action: &Action,
        request_key: Option<u64>,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<Option<MoveInfo>, ServiceError> {
        self.expire(now, out);
        if let (Action::Move { text, .. }, Some(key)) = (action, request_key)
            && let Some(answered) = self
                .answered
                .iter()
                .find(|a| a.key == key && a.seat == seat)
        {
            return self.answer_again(answered.ply, text).map(Some);
        }
        if self.game.is_over() {
            return Err(ServiceError::GameOver);
        }
        match action {
            Action::Move {
                text,
                expected_ply,
                offer_draw,
                ..
            } => {
                let played = self.play(seat, text, *expected_ply, now, out)?;
                if let Some(key) = request_key {
                    if self.answered.len() == ANSWERED_MEMORY {
                        self.answered.pop_front();
                    }
                    self.answered.push_back(Answered {
                        key,
                        seat,
                        ply: played.ply,
                    });
                }
                if *offer_draw && !self.game.is_over() {
                    self.offer_draw(seat, now, out);
                }
                Ok(Some(played))
            }
            Action::Resign => {
                self.finish(Outcome::win(!seat, Termination::Resignation), now, out);
                Ok(None)
            }
            Action::OfferDraw => {
                self.offer_draw(seat, now, out);
                Ok(None)
            }
            Action::RespondToDraw { accept } => {
                match self.draw_offer {
                    None => return Err(ServiceError::NoDrawOffer),
                    Some(by) if by == seat => {
                        return Err(ServiceError::WrongSeat {
                            seat,
                            required: !seat,
                        });
                    }
                    Some(_) if *accept => {
                        self.finish(Outcome::draw(Termination::Agreement), now, out)
                    }
                    Some(_) => {
                        self.draw_offer = None;
                        self.log_plain(LogKind::DrawDeclined(seat), now, out);
                    }
                }
                Ok(None)
            }
            Action::ClaimDraw(claim) => {
                let turn = self.game.position().turn();
                if seat != turn {
                    return Err(ServiceError::NotYourTurn { turn });
                }
                self.game_mut()
                    .claim_draw(*claim)
                    .map_err(|_| ServiceError::ClaimNotValid { claim: *claim })?;
                self.after_finish(now, out);
                Ok(None)
            }
            Action::Abort => {
                if self.game.ply() >= 2 {
                    return Err(ServiceError::AbortTooLate);
                }
                self.finish(Outcome::draw(Termination::Aborted), now, out);
                Ok(None)
            }
        }
    }

    /// Plays `seat`'s move.
    fn play(
        &mut self,
        seat: Color,
        text: &MoveText,
        expected_ply: Option<u32>,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<MoveInfo, ServiceError> {
        let current = self.game.ply();
        if let Some(expected) = expected_ply
            && expected != current
        {
            return Err(ServiceError::PlyMismatch { expected, current });
        }
        let before = *self.game.position();
        let turn = before.turn();
        if seat != turn {
            return Err(ServiceError::NotYourTurn { turn });
        }
        let played = self
            .game_mut()
            .play_found(|pos, legal| resolve_among(pos, text, legal))
            .map_err(play_error)?;
        self.last_move_at = now.mono;
        self.idle_before = std::time::Duration::ZERO;
        let over = self.game.is_over();
        if let Some(clock) = &mut self.clock {
            clock.switch(now.mono);
            if over {
                clock.stop(now.mono);
            }
        }
        self.draw_offer = offer_after_move(self.draw_offer, seat);
        let clocks_ms = match &self.clock {
            Some(c) => Color::ALL.map(|side| clock_ms(c.remaining(side, now.mono))),
            None => [0; 2],
        };
        let entry = LogEntry::new(
            now.wall,
            LogKind::Move {
                clocks_ms,
                clocks_stopped: over,
            },
        );
        self.log.push(entry);
        let info = MoveInfo {
            mv: played.mv,
            san: played.san,
            ply: played.ply,
            color: seat,
            seq: self.last_seq(),
        };
        let event = move_event(
            info.seq,
            &entry,
            self.clock.is_some(),
            info.clone(),
            *self.game.position(),
            self.draw_offer,
        );
        out.push(event);
        if over {
            self.log_game_over(now, out);
        }
        Ok(info)
    }

    /// The first answer to a retried move request that played ply `ply`: the same move, and
    /// nothing played. A different move under the same request id is refused.
    fn answer_again(&self, ply: u32, text: &MoveText) -> Result<MoveInfo, ServiceError> {
        let index = ply.saturating_sub(1) as usize;
        let mut before = *self.game.start();
        for &m in self.game.moves().iter().take(index) {
            before.play_unchecked(m);
        }
        let Some(&mv) = self.game.moves().get(index) else {
            return Err(ServiceError::RequestIdReused);
        };
        if resolve(&before, text).ok() != Some(mv) {
            return Err(ServiceError::RequestIdReused);
        }
        let mut info = move_info(&before, mv, ply);
        info.seq = self.seq_of_move(index);
        Ok(info)
    }

    /// The seq of the event that announced move `index` (0-based).
    fn seq_of_move(&self, index: usize) -> u64 {
        self.log
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.kind, LogKind::Move { .. }))
            .nth(index)
            .map_or(0, |(i, _)| i as u64 + 1)
    }

    /// `seat` offers a draw; accepts the opponent's standing offer instead, if any.
    fn offer_draw(&mut self, seat: Color, now: Now, out: &mut Vec<Event>) {
        match self.draw_offer {
            Some(by) if by == seat => {}
            Some(_) => self.finish(Outcome::draw(Termination::Agreement), now, out),
            None => {
                self.draw_offer = Some(seat);
                self.log_plain(LogKind::DrawOffered(seat), now, out);
            }
        }
    }

    /// Ends the game with an outcome decided off the board.
    fn finish(&mut self, outcome: Outcome, now: Now, out: &mut Vec<Event>) {
        // Callers check that the game is on; were it over, the first outcome stands.
        if self.game_mut().finish(outcome).is_ok() {
            self.after_finish(now, out);
        }
    }

    /// The game just ended: stop the clocks, drop the offer, log the end.
    fn after_finish(&mut self, now: Now, out: &mut Vec<Event>) {
        if let Some(clock) = &mut self.clock {
            clock.stop(now.mono);
        }
        self.draw_offer = None;
        self.log_game_over(now, out);
    }

    fn log_game_over(&mut self, now: Now, out: &mut Vec<Event>) {
        let entry = LogEntry::new(now.wall, LogKind::GameOver);
        self.log.push(entry);
        if let Some(outcome) = self.game.outcome() {
            out.push(game_over_event(
                self.last_seq(),
                &entry,
                outcome,
                *self.game.position(),
            ));
        }
    }

    fn log_plain(&mut self, kind: LogKind, now: Now, out: &mut Vec<Event>) {
        let entry = LogEntry::new(now.wall, kind);
        self.log.push(entry);
        out.extend(offer_event(self.last_seq(), &entry));
    }

    /// The game as it is at `now`, for rendering outside the lock.
    #[must_use]
    pub fn view(&self, id: GameId, players: &Players, now: Now) -> GameView {
        GameView {
            id,
            players: players.clone(),
            game: self.game.clone(),
            time_control: self.clock.as_ref().map(Clock::control),
            clocks: self.clock.as_ref().map(|c| ClockReading {
                remaining: Color::ALL.map(|side| c.remaining(side, now.mono)),
                running: if self.game.is_over() {
                    None
                } else {
                    c.running()
                },
                read_at: now.wall,
            }),
            draw_offer: self.draw_offer,
            last_seq: self.last_seq(),
            created_at: self.created_at,
        }
    }

    /// The events after `after_seq` (at most `last_seq`), to be made outside the lock.
    #[must_use]
    pub fn replay_after(&self, after_seq: u64) -> Replay {
        Replay::after(&self.game, &self.log, self.clock.is_some(), after_seq)
    }

    /// The time control, for fingerprints of retried creations.
    #[must_use]
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clock.as_ref().map(Clock::control)
    }

    /// Bytes this game holds on the heap (its fixed size is `size_of::<GameRecord>()`).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        size_of_val(self.game.moves())
            + (self.game.ply() as usize + 1) * size_of::<u64>()
            + self.log.capacity() * size_of::<LogEntry>()
            + self.answered.capacity() * size_of::<Answered>()
    }
}

/// The move `text` names in `pos`.
pub fn resolve(pos: &Position, text: &MoveText) -> Result<Move, ServiceError> {
    resolve_among(pos, text, &pos.legal_moves()).map_err(play_error)
}

/// The move of `legal` (the legal moves of `pos`) that `text` names.
fn resolve_among(pos: &Position, text: &MoveText, legal: &[Move]) -> Result<Move, PlayError> {
    match text {
        MoveText::Uci(uci) => uci.to_move_among(pos, legal),
        MoveText::San(san) => san.to_move_among(pos, legal),
    }
}

fn play_error(e: PlayError) -> ServiceError {
    match e {
        PlayError::Illegal(message) => ServiceError::IllegalMove { message },
        PlayError::Ambiguous(message) => ServiceError::AmbiguousMove { message },
        PlayError::Malformed(text) => ServiceError::MalformedMove { text },
        PlayError::GameOver => ServiceError::GameOver,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{DrawClaim, DrawRule, Variant};

    use super::*;
    use crate::convert;
    use crate::store::{Players, RequestId};

    fn record(fen: &str, time_control: Option<TimeControl>) -> (GameRecord, [SeatToken; 2], Now) {
        let new = NewGame {
            start: Position::from_fen(Variant::Chess, fen).unwrap(),
            time_control,
            players: Players {
                white: "w".into(),
                black: "b".into(),
            },
            draw_rule: DrawRule::Claim,
            request_id: None,
        };
        let tokens = [
            SeatToken::generate().unwrap(),
            SeatToken::generate().unwrap(),
        ];
        let now = Now::read();
        (
            GameRecord::new(&new, tokens.map(|t| t.digest()), now),
            tokens,
            now,
        )
    }

    fn mv(text: &str) -> Action {
        Action::Move {
            text: convert::move_text(text).unwrap(),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// Replaying from any seq gives exactly the events watchers saw live (same content, same
    /// times, same clocks), so a resumed watcher cannot tell the difference.
    #[test]
    fn replay_matches_live_events() {
        let tc = TimeControl {
            initial: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        let (mut rec, _, now) = record(START, Some(tc));
        let script = [
            (Color::White, mv("e4")),
            (Color::White, Action::OfferDraw),
            (Color::Black, Action::RespondToDraw { accept: false }),
            (Color::Black, mv("e5")),
            (Color::Black, Action::OfferDraw),
            (
                Color::White,
                Action::Move {
                    text: convert::move_text("Nf3").unwrap(),
                    expected_ply: Some(2),
                    request_id: None,
                    offer_draw: true,
                },
            ),
            (Color::Black, mv("Nc6")),
            (Color::White, Action::Resign),
        ];
        let mut live = Vec::new();
        for (i, (seat, action)) in script.iter().enumerate() {
            let at = Now {
                mono: now.mono + Duration::from_millis(700 * i as u64),
                wall: now.wall,
            };
            rec.apply(*seat, action, None, at, &mut live).unwrap();
        }
        let live: Vec<_> = live.iter().map(convert::event).collect();
        assert_eq!(live.len() as u64, rec.last_seq());
        for after in 1..=rec.last_seq() {
            let replayed: Vec<_> = rec
                .replay_after(after)
                .map(|e| convert::event(&e))
                .collect();
            assert_eq!(replayed, live[after as usize..], "after seq {after}");
        }
    }

    /// A game rebuilt from the rows the journal stored is the game it was: same moves,
    /// outcome, offers, seqs, replayed events and answered request ids, and its clocks as they
    /// stood at the last event.
    #[test]
    fn restore_from_journal_rows() {
        let tc = TimeControl {
            initial: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        let (mut rec, tokens, now) = record(START, Some(tc));
        let keyed = |text: &str, rid: &str| Action::Move {
            text: convert::move_text(text).unwrap(),
            expected_ply: None,
            request_id: RequestId::parse(rid).unwrap(),
            offer_draw: false,
        };
        let script = [
            (Color::White, keyed("e4", "a")),
            (Color::White, Action::OfferDraw),
            (Color::Black, Action::RespondToDraw { accept: false }),
            (Color::Black, keyed("e5", "b")),
            (Color::Black, Action::OfferDraw),
        ];
        let key = |rid: &str| rid.len() as u64 * 1000 + u64::from(rid.as_bytes()[0]);
        let mut rows = Vec::new();
        let mut live = Vec::new();
        let mut at = now;
        for (i, (seat, action)) in script.iter().enumerate() {
            at = Now {
                mono: now.mono + Duration::from_millis(500 * i as u64),
                wall: now.wall + Duration::from_millis(500 * i as u64),
            };
            let before = rec.last_seq();
            let rid = match action {
                Action::Move { request_id, .. } => request_id.clone(),
                _ => None,
            };
            let request_key = rid.as_ref().map(|r| key(r.as_str()));
            rec.apply(*seat, action, request_key, at, &mut live)
                .unwrap();
            rows.extend(rec.journal_rows(before, at, rid.as_ref()));
        }
        let stored = Stored {
            start: *rec.game().start(),
            draw_rule: rec.game().draw_rule(),
            time_control: Some(tc),
            digests: tokens.map(|t| t.digest()),
            created_at: rec.created_at,
            events: rows,
            charged: Duration::ZERO,
        };
        let back = GameRecord::restore(stored, key, at).unwrap();
        assert_eq!(back.game().moves(), rec.game().moves());
        assert_eq!(back.draw_offer, Some(Color::Black));
        assert_eq!(back.log, rec.log);
        assert_eq!(back.seat_of(&tokens[1]).unwrap(), Color::Black);
        let clocks =
            |r: &GameRecord| Color::ALL.map(|c| r.clock.as_ref().unwrap().remaining(c, at.mono));
        assert_eq!(clocks(&back), clocks(&rec));
        let events =
            |r: &GameRecord| -> Vec<_> { r.replay_after(0).map(|e| convert::event(&e)).collect() };
        assert_eq!(events(&back), events(&rec));
        // The retry of "b" after the restart is still recognised.
        let mut out = Vec::new();
        let mut back = back;
        let again = back
            .apply(
                Color::Black,
                &keyed("e7e5", "b"),
                Some(key("b")),
                at,
                &mut out,
            )
            .unwrap();
        assert_eq!(again.map(|m| m.ply), Some(2));
        assert!(out.is_empty(), "nothing played twice");
        // The game goes on and ends as usual.
        back.apply(Color::White, &Action::Resign, None, at, &mut out)
            .unwrap();
        assert!(back.is_over());
    }

    /// A retried move request returns the same move and seq and plays nothing; another move
    /// under the same id is refused; the memory of ids is bounded.
    #[test]
    fn retried_moves() {
        let (mut rec, _, now) = record(START, None);
        let mut out = Vec::new();
        let keyed = |text: &str, expected_ply: Option<u32>| Action::Move {
            text: convert::move_text(text).unwrap(),
            expected_ply,
            request_id: RequestId::parse("r").unwrap(),
            offer_draw: false,
        };
        let first = rec
            .apply(Color::White, &keyed("e4", Some(0)), Some(7), now, &mut out)
            .unwrap();
        let again = rec
            .apply(
                Color::White,
                &keyed("e2e4", Some(0)),
                Some(7),
                now,
                &mut out,
            )
            .unwrap();
        assert_eq!(first, again);
        assert_eq!(rec.game().ply(), 1);
        assert_eq!(out.len(), 1, "the retry published nothing");
        assert!(matches!(
            rec.apply(Color::White, &keyed("d4", Some(0)), Some(7), now, &mut out),
            Err(ServiceError::RequestIdReused)
        ));
        for (i, text) in [
            "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
            "c3", "O-O", "h3", "Nb8",
        ]
        .iter()
        .enumerate()
        {
            let seat = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let action = keyed(text, None);
            rec.apply(seat, &action, Some(100 + i as u64), now, &mut out)
                .unwrap();
        }
        assert_eq!(rec.answered.len(), ANSWERED_MEMORY);
        assert!(
            rec.answered.iter().all(|a| a.key != 7),
            "the oldest id is forgotten"
        );
    }

    /// `secs` seconds after `now`, on both clocks.
    fn at(now: Now, secs: u64) -> Now {
        Now {
            mono: now.mono + Duration::from_secs(secs),
            wall: now.wall + Duration::from_secs(secs),
        }
    }

    /// With no move for the abandonment time a game ends by itself: aborted before both sides
    /// moved, else lost by the side to move; a move restarts the wait; the flag still comes
    /// first when it is earlier.
    #[test]
    fn abandonment() {
        let after = Some(Duration::from_secs(60));
        let (rec, _, now) = record(START, None);
        let mut rec = rec.abandoned_after(after);
        assert_eq!(rec.deadline(), Some(now.mono + Duration::from_secs(60)));
        let mut out = Vec::new();
        assert!(!rec.expire(at(now, 59), &mut out));
        assert!(rec.expire(at(now, 60), &mut out));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::Aborted))
        );
        assert!(out.last().unwrap().kind.is_game_over());
        assert_eq!(rec.deadline(), None);

        let (rec, _, now) = record(START, None);
        let mut rec = rec.abandoned_after(after);
        let mv = |text: &str| Action::Move {
            text: MoveText::Uci(text.parse().unwrap()),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        };
        let mut out = Vec::new();
        rec.apply(Color::White, &mv("e2e4"), None, at(now, 50), &mut out)
            .unwrap();
        rec.apply(Color::Black, &mv("e7e5"), None, at(now, 100), &mut out)
            .unwrap();
        assert!(
            !rec.expire(at(now, 159), &mut out),
            "the wait restarts at each move"
        );
        assert!(rec.expire(at(now, 160), &mut out));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::win(Color::Black, Termination::Abandonment))
        );

        let tc = TimeControl {
            initial: Duration::from_secs(10),
            increment: Duration::ZERO,
        };
        let (rec, _, now) = record(START, Some(tc));
        let rec = rec.abandoned_after(after);
        assert_eq!(
            rec.deadline(),
            Some(now.mono + Duration::from_secs(10)),
            "the flag first"
        );
    }

    /// A game read by another process (a Redis replica) is abandoned on the time of its last
    /// move (or creation) as the log says, not on when it was read; its next move restarts the
    /// wait as usual.
    #[test]
    fn abandonment_timed_from_the_log() {
        let after = Some(Duration::from_secs(60));
        let (rec, _, now) = record(START, None);
        let mut rec = rec.abandoned_after(after);
        rec.idle_since_last_move(at(now, 45));
        let mut out = Vec::new();
        assert!(!rec.expire(at(now, 59), &mut out));
        assert!(rec.expire(at(now, 60), &mut out), "idle since its creation");

        let (rec, _, now) = record(START, None);
        let mut rec = rec.abandoned_after(after);
        let mut out = Vec::new();
        rec.apply(Color::White, &mv("e2e4"), None, at(now, 50), &mut out)
            .unwrap();
        rec.apply(Color::Black, &mv("e7e5"), None, at(now, 100), &mut out)
            .unwrap();
        // A draw offer is no move: the wait still runs from e7e5.
        rec.apply(
            Color::White,
            &Action::OfferDraw,
            None,
            at(now, 120),
            &mut out,
        )
        .unwrap();
        rec.idle_since_last_move(at(now, 130));
        assert!(!rec.expire(at(now, 159), &mut out));
        rec.apply(Color::White, &mv("g1f3"), None, at(now, 140), &mut out)
            .unwrap();
        assert!(!rec.expire(at(now, 199), &mut out), "a move restarts it");
        assert!(rec.expire(at(now, 200), &mut out));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::win(Color::White, Termination::Abandonment))
        );
    }

    /// The seat comes from the token; a foreign token is refused.
    #[test]
    fn seats_from_tokens() {
        let (rec, tokens, _) = record(START, None);
        assert_eq!(rec.seat_of(&tokens[0]).unwrap(), Color::White);
        assert_eq!(rec.seat_of(&tokens[1]).unwrap(), Color::Black);
        assert!(matches!(
            rec.seat_of(&SeatToken::generate().unwrap()),
            Err(ServiceError::InvalidToken)
        ));
    }

    /// The flag falls at the deadline with nobody acting; a move after it is refused.
    #[test]
    fn flag_at_deadline() {
        let tc = TimeControl {
            initial: Duration::from_secs(5),
            increment: Duration::ZERO,
        };
        let (mut rec, _, now) = record(START, Some(tc));
        assert_eq!(rec.deadline(), Some(now.mono + Duration::from_secs(5)));
        let mut out = Vec::new();
        assert!(!rec.expire(
            Now {
                mono: now.mono + Duration::from_millis(4999),
                ..now
            },
            &mut out
        ));
        let late = Now {
            mono: now.mono + Duration::from_secs(5),
            ..now
        };
        assert!(matches!(
            rec.apply(Color::White, &mv("e4"), None, late, &mut out),
            Err(ServiceError::GameOver)
        ));
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::win(Color::Black, Termination::TimeForfeit))
        );
        assert_eq!(rec.deadline(), None);
        assert_eq!(out.len(), 1, "the game-over event");
    }

    /// Claims follow the engine; only the side to move may claim.
    #[test]
    fn claims() {
        let (mut rec, _, now) = record("4k3/8/8/8/8/8/8/R3K3 b - - 100 60", None);
        let mut out = Vec::new();
        let claim = Action::ClaimDraw(DrawClaim::FiftyMoves);
        assert!(matches!(
            rec.apply(Color::White, &claim, None, now, &mut out),
            Err(ServiceError::NotYourTurn { .. })
        ));
        rec.apply(Color::Black, &claim, None, now, &mut out)
            .unwrap();
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::FiftyMoveRule))
        );
    }
}
