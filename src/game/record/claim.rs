//! ClaimVictory on a record: the opponent of a side to move that left claims the win (or a
//! draw) once the game's grace period has passed (the rule is `presence::claim_at`).

use std::time::{Duration, SystemTime};

use chessd_rules::{ByColor, Color, Outcome, Termination};

use crate::game::error::PlayError;
use crate::game::event::Event;
use crate::game::presence::{SeatPresence, claim_at};
use crate::game::record::GameRecord;
use crate::game::time::{Now, whole_ms, whole_ms_count};

impl GameRecord {
    /// The game's grace period before a claim.
    #[must_use]
    pub fn claimable_after(mut self, claim_after: Duration) -> GameRecord {
        self.timing.claim_after_ms = whole_ms_count(claim_after);
        self
    }

    /// When the side to move's turn began, in wall time: its opponent's last move (or the
    /// creation), but never before this process took the game back after a restart (the
    /// downtime counts for nobody, as with abandonment). To the millisecond, as the log keeps
    /// times, so the process that saw the move and one that read it agree.
    #[must_use]
    pub fn turn_began(&self, now: Now) -> SystemTime {
        let since = now.mono.saturating_duration_since(self.timing.last_move_at)
            + self.timing.idle_before();
        whole_ms(now.wall.checked_sub(since).unwrap_or(now.wall))
    }

    /// When `seat`'s opponent may claim the game, given `seat`'s presence: while the game is on,
    /// `seat` is to move and gone; `None` otherwise.
    #[must_use]
    pub fn claim_at(&self, seat: Color, presence: SeatPresence, now: Now) -> Option<SystemTime> {
        if self.turn() != Some(seat) {
            return None;
        }
        claim_at(presence, self.turn_began(now), self.timing.claim_after())
    }

    /// `seat` claims the game of its opponent, who is to move and gone: won by `seat` (drawn
    /// with `draw`) by abandonment, or aborted before both sides have moved, as abandonment
    /// would. The caller checked that the game is on.
    pub(super) fn claim_victory(
        &mut self,
        seat: Color,
        draw: bool,
        presence: &ByColor<SeatPresence>,
        now: Now,
        out: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        let turn = self.history.game.position().turn();
        if seat == turn {
            return Err(PlayError::ClaimOnOwnTurn);
        }
        let Some(at) = self.claim_at(turn, presence[turn], now) else {
            return Err(PlayError::OpponentConnected { opponent: turn });
        };
        if now.wall < at {
            return Err(PlayError::ClaimTooEarly { claim_at: at });
        }
        let outcome = if self.history.game.ply() < 2 {
            Outcome::draw(Termination::Aborted)
        } else if draw {
            Outcome::draw(Termination::Abandonment)
        } else {
            Outcome::win(seat, Termination::Abandonment)
        };
        self.finish(outcome, now, out);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use chessd_rules::{ByColor, Color, Outcome, Termination};

    use crate::game::action::{Action, MoveText};
    use crate::game::error::{GameError, PlayError};
    use crate::game::presence::SeatPresence;
    use crate::game::record::apply::tests::record;
    use crate::game::time::Now;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn at(now: Now, secs: u64) -> Now {
        Now {
            mono: now.mono + Duration::from_secs(secs),
            wall: now.wall + Duration::from_secs(secs),
        }
    }

    fn mv(text: &str) -> Action {
        Action::Move {
            text: MoveText::Uci(text.parse().unwrap()),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        }
    }

    fn claim(draw: bool, presence: ByColor<SeatPresence>) -> Action {
        Action::ClaimVictory { draw, presence }
    }

    /// Refused on one's own turn, while the opponent is connected, and before the grace
    /// period (counted from the later of leaving and the turn's start); then granted.
    #[test]
    fn claims_follow_the_grace_period() {
        let (rec, _, now) = record(START, None);
        let mut rec = rec.claimable_after(Duration::from_secs(30));
        let mut out = Vec::new();
        rec.apply(Color::White, &mv("e2e4"), None, at(now, 1), &mut out)
            .unwrap();
        rec.apply(Color::Black, &mv("e7e5"), None, at(now, 2), &mut out)
            .unwrap();
        rec.apply(Color::White, &mv("g1f3"), None, at(now, 10), &mut out)
            .unwrap();
        let gone_at = |secs: u64| SeatPresence {
            connected: false,
            since: Some(now.wall + Duration::from_secs(secs)),
            absent_from: now.wall + Duration::from_secs(secs),
        };
        let black_gone = ByColor::new(SeatPresence::unseen(now.wall), gone_at(5));
        assert!(matches!(
            rec.apply(
                Color::Black,
                &claim(false, black_gone),
                None,
                at(now, 100),
                &mut out
            ),
            Err(GameError::Play(PlayError::ClaimOnOwnTurn))
        ));
        let connected = ByColor::new(
            SeatPresence::unseen(now.wall),
            SeatPresence {
                connected: true,
                ..gone_at(5)
            },
        );
        assert!(matches!(
            rec.apply(
                Color::White,
                &claim(false, connected),
                None,
                at(now, 100),
                &mut out
            ),
            Err(GameError::Play(PlayError::OpponentConnected {
                opponent: Color::Black
            }))
        ));
        // Gone since 5 s, but Black's turn began at 10 s: claimable at 40 s.
        match rec.apply(
            Color::White,
            &claim(false, black_gone),
            None,
            at(now, 39),
            &mut out,
        ) {
            Err(GameError::Play(PlayError::ClaimTooEarly { claim_at })) => {
                // The turn's start is kept to the millisecond.
                let exact = now.wall + Duration::from_secs(40);
                assert!(claim_at <= exact, "{claim_at:?}");
                assert!(exact.duration_since(claim_at).unwrap() < Duration::from_millis(1));
            }
            other => panic!("{other:?}"),
        }
        assert!(!rec.is_over());
        rec.apply(
            Color::White,
            &claim(false, black_gone),
            None,
            at(now, 40),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::win(Color::White, Termination::Abandonment))
        );
        assert!(out.last().unwrap().kind.is_game_over());
    }

    /// The draw instead of the win; before both sides moved, the game is aborted.
    #[test]
    fn draw_claims_and_early_aborts() {
        let (rec, _, now) = record(START, None);
        let mut rec = rec.claimable_after(Duration::from_secs(10));
        let mut out = Vec::new();
        rec.apply(Color::White, &mv("e2e4"), None, now, &mut out)
            .unwrap();
        let black_gone = ByColor::new(
            SeatPresence::unseen(now.wall),
            SeatPresence::unseen(now.wall),
        );
        rec.apply(
            Color::White,
            &claim(false, black_gone),
            None,
            at(now, 10),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::Aborted))
        );

        let (rec, _, now) = record(START, None);
        let mut rec = rec.claimable_after(Duration::from_secs(10));
        rec.apply(Color::White, &mv("e2e4"), None, now, &mut out)
            .unwrap();
        rec.apply(Color::Black, &mv("e7e5"), None, now, &mut out)
            .unwrap();
        let white_gone = ByColor::new(
            SeatPresence::unseen(now.wall),
            SeatPresence::unseen(now.wall),
        );
        rec.apply(
            Color::Black,
            &claim(true, white_gone),
            None,
            at(now, 10),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            rec.game().outcome(),
            Some(Outcome::draw(Termination::Abandonment))
        );
    }
}
