//! A record's changes: a seat's actions (moves, resignation, draw offers and claims, abort,
//! time given; an arbiter's clock change; takebacks in `takeback`), and the game ending by
//! itself (flag, first-move timer, abandonment).

use chessd_rules::any::{AnyGame, AnyMove, AnyPosition};
use chessd_rules::wide::{WideMove, WidePosition};
use chessd_rules::{self as rules, ByColor, Color, Outcome, PlayedMove, Rules, Termination};

use crate::game::action::{Action, MoveText};
use crate::game::chance::{Seed, draw_among};
use crate::game::clock::Clock;
use crate::game::error::GameError;
use crate::game::error::InputError;
use crate::game::error::PlayError;
use crate::game::error::SeatError;
use crate::game::event::{Event, game_over_event, move_event, move_info, offer_event};
use crate::game::log::{LogEntry, LogKind, clock_ms};
use crate::game::record::GameRecord;
use crate::game::time::Now;
use crate::game::view::MoveInfo;

impl GameRecord {
    /// Ends the game if, by `now`, the side to move did not make its first move in time (the
    /// first-move timer, unless its flag fell first: `Termination::NoStart`, no result), ran
    /// out of time, or nobody moved for the abandonment time: a game where not both sides have moved is aborted (no result, as an
    /// Abort would); a later one is lost by the side to move, who walked away
    /// (`Termination::Abandonment`). True if the game ended. The outcome goes through the same
    /// game-over event as any other, so watchers are told and a durable store records it.
    pub fn expire(&mut self, now: Now, out: &mut Vec<Event>) -> bool {
        if self.history.game.is_over() {
            return false;
        }
        let first_move = self.timing.first_move.map(|(_, mono)| mono);
        if let Some(outcome) = self.setup_flag(now, first_move) {
            self.finish(outcome, now, out);
            return true;
        }
        if let Some(outcome) = self.no_start(now) {
            self.finish(outcome, now, out);
            return true;
        }
        if let Some(loser) = self.timing.clock.as_ref().and_then(|c| c.flagged(now.mono)) {
            let outcome = self.history.game.flag_outcome(loser);
            self.finish(outcome, now, out);
            return true;
        }
        if self
            .timing
            .abandon_deadline()
            .is_some_and(|at| now.mono >= at)
        {
            let outcome = if self.history.game.ply() < 2 {
                Outcome::draw(Termination::Aborted)
            } else {
                Outcome::win(
                    !self.history.game.position().turn(),
                    Termination::Abandonment,
                )
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
    ) -> Result<Option<MoveInfo>, GameError> {
        self.expire(now, out);
        if let (Action::Move { text, .. }, Some(key)) = (action, request_key)
            && let Some(answered) = self.history.answered.find(key, seat)
        {
            if answered.taken_back {
                return Err(PlayError::MoveTakenBack.into());
            }
            return self
                .answer_again(answered.ply, answered.seq, text)
                .map(Some);
        }
        if self.history.game.is_over() {
            return Err(self.over());
        }
        if matches!(
            action,
            Action::Move { .. }
                | Action::ClaimDraw(_)
                | Action::ProposeTakeback
                | Action::RespondToTakeback { .. }
                | Action::WithdrawTakeback
                | Action::ClaimVictory { .. }
        ) {
            self.refuse_in_setup()?;
            self.refuse_in_entropy()?;
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
                    self.history
                        .answered
                        .remember(key, seat, played.ply, played.seq);
                }
                if *offer_draw && !self.history.game.is_over() {
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
                match self.offers.draw {
                    None => return Err(PlayError::NoDrawOffer.into()),
                    Some(by) if by == seat => {
                        return Err(SeatError::WrongSeat {
                            seat,
                            required: !seat,
                        }
                        .into());
                    }
                    Some(_) if *accept => {
                        self.finish(Outcome::draw(Termination::Agreement), now, out)
                    }
                    Some(_) => {
                        self.offers.draw = None;
                        self.log_plain(LogKind::DrawDeclined(seat), now, out);
                    }
                }
                Ok(None)
            }
            Action::ClaimDraw(claim) => {
                let turn = self.history.game.position().turn();
                if seat != turn {
                    return Err(PlayError::NotYourTurn { turn }.into());
                }
                self.history
                    .game_mut()
                    .claim_draw(*claim)
                    .map_err(|_| PlayError::ClaimNotValid { claim: *claim })?;
                self.after_finish(now, out);
                Ok(None)
            }
            Action::Abort => {
                if self.history.game.ply() >= 2 {
                    return Err(PlayError::AbortTooLate.into());
                }
                self.finish(Outcome::draw(Termination::Aborted), now, out);
                Ok(None)
            }
            Action::AddTime { amount } => {
                self.add_time(seat, *amount, now, out)?;
                Ok(None)
            }
            Action::AdjustClock(adjust) => {
                self.adjust_clock(seat, *adjust, now, out)?;
                Ok(None)
            }
            Action::ProposeTakeback => self.propose_takeback(seat, now, out).map(|()| None),
            Action::RespondToTakeback { accept } => self
                .respond_to_takeback(seat, *accept, now, out)
                .map(|()| None),
            Action::WithdrawTakeback => self.withdraw_takeback(seat, now, out).map(|()| None),
            Action::ClaimVictory { draw, presence } => {
                self.claim_victory(seat, *draw, presence, now, out)?;
                Ok(None)
            }
            Action::Setup { placement, commit } => {
                self.place(seat, placement, *commit, now, out)?;
                Ok(None)
            }
            Action::Entropy { reveal, value } => {
                self.submit_entropy(seat, *reveal, *value, now, out)?;
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
    ) -> Result<MoveInfo, GameError> {
        let current = self.history.game.ply();
        if let Some(expected) = expected_ply
            && expected != current
        {
            return Err(PlayError::PlyMismatch { expected, current }.into());
        }
        let before = self.history.game.position();
        let turn = before.turn();
        if seat != turn {
            return Err(PlayError::NotYourTurn { turn }.into());
        }
        // A copy of 32 bytes: the key lives in the history the move changes.
        let played = match self.draw_key().cloned() {
            Some(key) => play_with_draw(self.history.game_mut(), text, &key)?,
            None => play(self.history.game_mut(), text).map_err(play_error)?,
        };
        self.timing.moved(now);
        let over = self.history.game.is_over();
        if let Some(clock) = &mut self.timing.clock {
            clock.switch(now.mono);
            if over {
                clock.stop(now.mono);
            }
        }
        self.after_move_clocks(now);
        self.offers.after_move(seat);
        let clocks_ms = match &self.timing.clock {
            Some(c) => ByColor::new_with(|side| clock_ms(c.remaining(side, now.mono))),
            None => ByColor::default(),
        };
        let clocks_stopped = over
            || self
                .timing
                .clock
                .as_ref()
                .is_some_and(|c| c.running_at(now.mono).is_none());
        let entry = LogEntry::new(
            now.wall,
            LogKind::Move {
                clocks_ms,
                clocks_stopped,
            },
        );
        let seq = self.history.push(entry);
        let info = MoveInfo {
            mv: played.mv,
            san: played.san,
            ply: played.ply,
            color: seat,
            seq,
        };
        let event = move_event(
            info.seq,
            &entry,
            self.timing.clock.as_ref().map(Clock::control),
            info.clone(),
            self.history.game.position(),
            self.offers.draw,
        );
        out.push(event);
        if over {
            // No offer stands in a game that is over: a game ended on the board drops the
            // mover's offer as every other end does (and as a game restored from its events
            // shows it).
            self.offers.clear();
            self.log_game_over(now, out);
        }
        Ok(info)
    }

    /// The first answer to a retried move request that played ply `ply`, announced as event
    /// `seq`: the same move, and nothing played. A different move under the same request id is
    /// refused.
    fn answer_again(&self, ply: u32, seq: u64, text: &MoveText) -> Result<MoveInfo, GameError> {
        let index = ply.saturating_sub(1) as usize;
        let mut before = self.history.game.start();
        for m in self.history.game.moves().take(index) {
            before.play_unchecked(m);
        }
        let Some(mv) = self.history.game.move_at(index) else {
            return Err(InputError::RequestIdReused.into());
        };
        // In a game of chance the player named the move without the draw the server joined
        // to it.
        let asked = match (before.wide().filter(|p| p.has_chance()), mv) {
            (Some(p), AnyMove::Wide(variant, played)) => player_move(p, text).ok().map(|m| {
                (
                    AnyMove::Wide(variant, m),
                    AnyMove::Wide(variant, played.with_nature(None)),
                )
            }),
            _ => resolve(&before, text).ok().map(|m| (m, mv)),
        };
        if !asked.is_some_and(|(asked, played)| asked == played) {
            return Err(InputError::RequestIdReused.into());
        }
        let mut info = move_info(&before, mv, ply);
        info.seq = seq;
        Ok(info)
    }

    /// `seat` offers a draw; accepts the opponent's standing offer instead, if any.
    fn offer_draw(&mut self, seat: Color, now: Now, out: &mut Vec<Event>) {
        match self.offers.draw {
            Some(by) if by == seat => {}
            Some(_) => self.finish(Outcome::draw(Termination::Agreement), now, out),
            None => {
                self.offers.draw = Some(seat);
                self.log_plain(LogKind::DrawOffered(seat), now, out);
            }
        }
    }

    /// Ends the game with an outcome decided off the board.
    pub(super) fn finish(&mut self, outcome: Outcome, now: Now, out: &mut Vec<Event>) {
        // Callers check that the game is on; were it over, the first outcome stands.
        if self.history.game_mut().finish(outcome).is_ok() {
            self.after_finish(now, out);
        }
    }

    /// The game just ended: stop the clocks, drop the offer, log the end.
    fn after_finish(&mut self, now: Now, out: &mut Vec<Event>) {
        if let Some(clock) = &mut self.timing.clock {
            clock.stop(now.mono);
        }
        self.offers.clear();
        self.log_game_over(now, out);
    }

    fn log_game_over(&mut self, now: Now, out: &mut Vec<Event>) {
        let entry = LogEntry::new(now.wall, LogKind::GameOver);
        let seq = self.history.push(entry);
        if let Some(outcome) = self.history.game.outcome() {
            out.push(game_over_event(
                seq,
                &entry,
                outcome,
                self.history.game.position(),
            ));
        }
    }

    fn log_plain(&mut self, kind: LogKind, now: Now, out: &mut Vec<Event>) {
        let entry = LogEntry::new(now.wall, kind);
        let seq = self.history.push(entry);
        out.extend(offer_event(seq, &entry));
    }
}

/// The move `text` names in `pos`.
fn resolve(pos: &AnyPosition, text: &MoveText) -> Result<AnyMove, GameError> {
    match pos {
        AnyPosition::Std(p) => resolve_among(p, text, &p.legal_moves()).map(AnyMove::Std),
        _ => pos
            .parse_move(&text.to_string())
            .map_err(|e| as_typed(e, text)),
    }
    .map_err(play_error)
}

/// Plays the move `text` names in `game`. The 8x8 engine resolves the text parsed at the
/// edge among the legal moves it generates once; the other families read the text themselves
/// (their squares and letters are not the 8x8 notation's).
fn play(game: &mut AnyGame, text: &MoveText) -> Result<PlayedMove<AnyMove>, rules::PlayError> {
    match game {
        AnyGame::Std(g) => g
            .play_found(|pos, legal| resolve_among(pos, text, legal))
            .map(|p| PlayedMove {
                mv: AnyMove::Std(p.mv),
                san: p.san,
                ply: p.ply,
            }),
        _ => game
            .play_text(&text.to_string())
            .map_err(|e| as_typed(e, text)),
    }
}

/// Plays the move `text` names in a game of chance, joined to the draw that follows it: the
/// one `seed` gives for the ply the move reaches (see `game::chance`), so a retry, a replica
/// or a takeback that comes back to this ply meets the same draw.
fn play_with_draw(
    game: &mut AnyGame,
    text: &MoveText,
    seed: &Seed,
) -> Result<PlayedMove<AnyMove>, GameError> {
    let pos = game.position();
    let Some(p) = pos.wide().filter(|p| p.has_chance()) else {
        return play(game, text).map_err(play_error);
    };
    let m = player_move(p, text)?;
    let nature = draw_among(seed, game.ply() + 1, &p.natures_after(m));
    game.play(AnyMove::Wide(p.variant(), m.with_nature(nature)))
        .map_err(play_error)
}

/// The player's move `text` names in a game of chance: without a draw, which is the server's.
fn player_move(p: &WidePosition, text: &MoveText) -> Result<WideMove, GameError> {
    let typed = text.to_string();
    // The edge refuses such text before it gets here; a draw is never a player's to name.
    if typed.contains('~') {
        return Err(InputError::MalformedMove { text: typed }.into());
    }
    p.parse_player_move(&typed)
        .map_err(|e| play_error(as_typed(e, text)))
}

/// A family's refusal of malformed text names the text as it was typed, as the 8x8 engine's
/// does: the error table's one message then reads the same in every game.
fn as_typed(e: rules::PlayError, text: &MoveText) -> rules::PlayError {
    match e {
        rules::PlayError::Malformed(_) => rules::PlayError::Malformed(text.to_string()),
        other => other,
    }
}

/// The move of `legal` (the legal moves of `pos`) that `text` names.
fn resolve_among(
    pos: &rules::Position,
    text: &MoveText,
    legal: &[rules::Move],
) -> Result<rules::Move, rules::PlayError> {
    match text {
        MoveText::Uci(uci) => uci.to_move_among(pos, legal),
        MoveText::San(san, _) => san.to_move_among(pos, legal),
        MoveText::Other(text) => Err(rules::PlayError::Malformed(text.to_string())),
    }
}

impl GameRecord {
    /// Why an action on the ended game is refused: a game the first-move timer called off
    /// says so (a player who was not ready in time must learn why, not only that it is over).
    fn over(&self) -> GameError {
        over(
            self.history.game.outcome(),
            self.timing.start_rules().first_move_timeout,
        )
    }
}

/// Why an action on a game that ended with `outcome` is refused (see `GameRecord::over`), for
/// a game read packed too.
#[must_use]
pub(super) fn over(
    outcome: Option<Outcome>,
    first_move_timeout: Option<std::time::Duration>,
) -> GameError {
    match (outcome.map(|o| o.termination), first_move_timeout) {
        (Some(Termination::NoStart), Some(timeout)) => {
            GameError::Play(PlayError::NoFirstMove { timeout })
        }
        _ => GameError::Play(PlayError::GameOver),
    }
}

/// The rules engine's refusal of a move, as the domain's error.
fn play_error(e: chessd_rules::PlayError) -> GameError {
    use chessd_rules::PlayError as Rules;
    match e {
        Rules::Illegal(message) => GameError::Play(PlayError::IllegalMove { message }),
        Rules::Ambiguous(message) => GameError::Play(PlayError::AmbiguousMove { message }),
        Rules::Malformed(text) => GameError::Input(InputError::MalformedMove { text }),
        Rules::GameOver => GameError::Play(PlayError::GameOver),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::time::Duration;

    use chessd_rules::{DrawClaim, DrawRule, Outcome, Termination, any::AnyVariant};

    use super::*;
    use crate::api::decode;
    use crate::game::record::answered::ANSWERED_MEMORY;
    use crate::game::{
        Labels, NewGame, Players, RequestId, SeatToken, Seats, StartRules, TimeControl,
    };

    pub(crate) fn record(
        fen: &str,
        time_control: Option<TimeControl>,
    ) -> (GameRecord, ByColor<SeatToken>, Now) {
        record_with(fen, time_control, StartRules::default())
    }

    pub(crate) fn record_with(
        fen: &str,
        time_control: Option<TimeControl>,
        start_rules: StartRules,
    ) -> (GameRecord, ByColor<SeatToken>, Now) {
        let new = NewGame {
            start: AnyPosition::from_fen(AnyVariant::CHESS, fen).unwrap(),
            draw_start: false,
            time_control,
            start_rules,
            players: Players {
                white: "w".into(),
                black: "b".into(),
                ..Players::default()
            },
            draw_rule: DrawRule::Claim,
            request_id: None,
            labels: Labels::default(),
            takebacks: crate::game::TakebackPolicy::Off,
            seat_tokens: ByColor::new(true, true),
            claim_after: crate::game::presence::default_claim_after(time_control),
            public_delay: 0,
            player_entropy: false,
        };
        let tokens = SeatToken::pair().unwrap();
        let now = Now::read();
        (
            GameRecord::new(&new, Seats::of(&tokens.map(Some)), now),
            tokens,
            now,
        )
    }

    fn mv(text: &str) -> Action {
        Action::Move {
            text: decode::move_text(text).unwrap(),
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
        let tc = TimeControl::even(Duration::from_secs(60), Duration::from_secs(1));
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
                    text: decode::move_text("Nf3").unwrap(),
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
        let live: Vec<_> = live
            .iter()
            .map(|e| crate::api::encode::event(e, crate::game::Viewer::Whole))
            .collect();
        assert_eq!(live.len() as u64, rec.last_seq());
        for after in 1..=rec.last_seq() {
            let replayed: Vec<_> = rec
                .replay_after(after)
                .map(|e| crate::api::encode::event(&e, crate::game::Viewer::Whole))
                .collect();
            assert_eq!(replayed, live[after as usize..], "after seq {after}");
        }
    }

    /// A game mated by a side whose draw offer stood ends with no offer standing, as every other
    /// end leaves it (the mating move's own event still shows the offer it was played with).
    #[test]
    fn a_game_ended_on_the_board_drops_the_offer() {
        let (mut rec, _, now) = record("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", None);
        let mut out = Vec::new();
        rec.apply(Color::White, &Action::OfferDraw, None, now, &mut out)
            .unwrap();
        rec.apply(Color::White, &mv("Ra8#"), None, now, &mut out)
            .unwrap();
        assert!(rec.is_over());
        assert_eq!(rec.offers.draw, None);
        let played = out.iter().find_map(|e| match &e.kind {
            crate::game::EventKind::MovePlayed { draw_offer, .. } => Some(*draw_offer),
            _ => None,
        });
        assert_eq!(played, Some(Some(Color::White)));
    }

    /// A retried move request returns the same move and seq and plays nothing; another move
    /// under the same id is refused; the memory of ids is bounded.
    #[test]
    fn retried_moves() {
        let (mut rec, _, now) = record(START, None);
        let mut out = Vec::new();
        let keyed = |text: &str, expected_ply: Option<u32>| Action::Move {
            text: decode::move_text(text).unwrap(),
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
            Err(GameError::Input(InputError::RequestIdReused))
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
        assert_eq!(rec.history.answered.entries().len(), ANSWERED_MEMORY);
        assert!(
            rec.history.answered.entries().iter().all(|a| a.key != 7),
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

        let tc = TimeControl::even(Duration::from_secs(10), Duration::ZERO);
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

    /// The flag falls at the deadline with nobody acting; a move after it is refused.
    #[test]
    fn flag_at_deadline() {
        let tc = TimeControl::even(Duration::from_secs(5), Duration::ZERO);
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
            Err(GameError::Play(PlayError::GameOver))
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
            Err(GameError::Play(PlayError::NotYourTurn { .. }))
        ));
        rec.apply(Color::Black, &claim, None, now, &mut out)
            .unwrap();
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::FiftyMoveRule))
        );
    }
}
