//! A hidden game's delayed public view (`CreateGameRequest.public_delay_plies`). In a game whose
//! board spectators may not see in play (Dark Chess), a spectator is shown, instead of nothing,
//! the whole game as it stood `public_delay` plies ago: its board, its moves, its record. The
//! seats and the platform see what they always do; once the game is over everyone sees all of
//! it; lists and the feed show spectators what they show of any hidden game.
//!
//! [`delayed_view`] is the game a spectator reads (GetGame, ExportPgn, a watch's snapshot);
//! [`DelayedLine`] turns the events a spectator's stream carries into those of the delayed
//! game: when ply `n` is played, the move of ply `n - delay`, under the event's own seq (so a
//! stream's resume point stays a point of the game's log); a takeback when one takes the
//! delayed game back; nothing for a move within the first `delay` plies.

use std::sync::Arc;

use chessd_rules::any::AnyGame;

use crate::game::event::{Event, EventKind, SharedFen};
use crate::game::view::{GameView, MoveInfo};
use crate::game::viewer::Viewer;

/// The longest delay a game may have, in plies.
pub(crate) const MAX_PUBLIC_DELAY: u16 = 1000;

/// Whether a spectator of `view` is shown the delayed view: the game has a delay, hides its
/// board, and is in play.
#[must_use]
pub(crate) fn applies(view: &GameView) -> bool {
    view.public_delay > 0 && view.game.variant().hides_board() && !view.game.is_over()
}

/// `game`'s first `ply` plies, replayed from its start.
fn prefix(game: &AnyGame, ply: u32) -> AnyGame {
    let mut shown = AnyGame::new(game.start(), game.draw_rule());
    for mv in game.moves().take(ply as usize) {
        // The game's own moves, in order: each is legal where it was played.
        if shown.play(mv).is_err() {
            break;
        }
    }
    shown
}

/// The game a spectator of `view` is shown, when the delayed view applies to it: the game as
/// it stood `public_delay` plies ago (its start, before that many), with the clocks, offers
/// and last seq of now.
#[must_use]
pub(crate) fn delayed_view(view: &GameView) -> Option<GameView> {
    if !applies(view) {
        return None;
    }
    let shown = view.game.ply().saturating_sub(u32::from(view.public_delay));
    Some(GameView {
        game: Arc::new(prefix(&view.game, shown)),
        delayed: true,
        ..view.clone()
    })
}

/// The delayed view `viewer` is shown of `view` instead of what it sees now, if any: a
/// spectator's (shown nothing of a hidden game in play) of a game with a delay.
#[must_use]
pub(crate) fn for_viewer(view: &GameView, viewer: Viewer) -> Option<GameView> {
    (viewer == Viewer::Blind)
        .then(|| delayed_view(view))
        .flatten()
}

/// A spectator's stream of a game with a delayed view: the whole game as it stands (from the
/// stream's snapshot and the events since) and the delayed game shown.
#[derive(Debug)]
pub(crate) struct DelayedLine {
    full: AnyGame,
    shown: AnyGame,
    delay: u32,
}

/// What a delayed spectator's stream carries for one of the game's events.
#[derive(Debug)]
pub(crate) enum Seen {
    /// The event of the delayed game, shown whole (boxed: a move event is large, and most
    /// events pass as they are).
    Delayed(Box<Event>),
    /// Nothing: a move the delayed game has not reached.
    Nothing,
    /// The event itself (one that shows no board, or the game's end).
    AsIs,
}

impl DelayedLine {
    /// The line of a stream whose snapshot is `view`, when the delayed view applies to it,
    /// and the snapshot the stream shows in its place.
    #[must_use]
    pub(crate) fn of(snapshot: &Event) -> Option<(DelayedLine, Event)> {
        let EventKind::Snapshot(view) = &snapshot.kind else {
            return None;
        };
        let delayed = delayed_view(view)?;
        let line = DelayedLine {
            full: (*view.game).clone(),
            shown: (*delayed.game).clone(),
            delay: u32::from(view.public_delay),
        };
        let shown = Event {
            seq: snapshot.seq,
            at: snapshot.at,
            kind: EventKind::Snapshot(Box::new(delayed)),
        };
        Some((line, shown))
    }

    /// The ply the delayed game should be at.
    fn due(&self) -> u32 {
        self.full.ply().saturating_sub(self.delay)
    }

    /// What the stream carries for `event`, the game's next.
    pub(crate) fn after(&mut self, event: &Event) -> Seen {
        match &event.kind {
            EventKind::MovePlayed {
                played,
                clocks,
                draw_offer,
                ..
            } => {
                // The game's own next move: legal where it was played.
                if self.full.play(played.mv).is_err() || self.shown.ply() >= self.due() {
                    return Seen::Nothing;
                }
                let index = self.shown.ply() as usize;
                let Some(mv) = self.full.move_at(index) else {
                    return Seen::Nothing;
                };
                let color = self.shown.position().turn();
                let Ok(shown) = self.shown.play(mv) else {
                    return Seen::Nothing;
                };
                Seen::Delayed(Box::new(Event {
                    seq: event.seq,
                    at: event.at,
                    kind: EventKind::MovePlayed {
                        played: MoveInfo {
                            mv,
                            san: shown.san,
                            ply: shown.ply,
                            color,
                            seq: event.seq,
                        },
                        position: self.shown.position(),
                        fen: SharedFen::default(),
                        clocks: *clocks,
                        draw_offer: *draw_offer,
                    },
                }))
            }
            EventKind::MovesTakenBack {
                by, plies, clocks, ..
            } => {
                // A takeback the game just made: its plies were played.
                let _ = self.full.take_back(usize::from(*plies));
                let back = self.shown.ply().saturating_sub(self.due());
                if back == 0 {
                    return Seen::Nothing;
                }
                let _ = self.shown.take_back(back as usize);
                Seen::Delayed(Box::new(Event {
                    seq: event.seq,
                    at: event.at,
                    kind: EventKind::MovesTakenBack {
                        by: *by,
                        plies: u8::try_from(back).unwrap_or(u8::MAX),
                        ply: self.shown.ply(),
                        position: self.shown.position(),
                        clocks: *clocks,
                    },
                }))
            }
            _ => Seen::AsIs,
        }
    }
}

#[cfg(test)]
mod tests {
    use chessd_rules::any::{AnyPosition, AnyVariant};
    use chessd_rules::{ByColor, Color, DrawRule};

    use super::*;
    use crate::game::{
        Action, GameHeader, GameId, GameRecord, Labels, MoveText, NewGame, Now, Players, SeatToken,
        Seats, StartRules, TakebackPolicy,
    };

    const MOVES: [&str; 5] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"];

    /// A Dark Chess game with a delay of `delay` plies, its header, and the time.
    fn dark(delay: u16) -> (GameRecord, GameHeader, Now) {
        let new = NewGame {
            start: AnyPosition::new(AnyVariant::by_key("dark").unwrap()),
            draw_start: false,
            time_control: None,
            start_rules: StartRules::default(),
            players: Players::default(),
            draw_rule: DrawRule::Automatic,
            request_id: None,
            labels: Labels::default(),
            takebacks: TakebackPolicy::OnRequest,
            seat_tokens: ByColor::new(true, true),
            claim_after: std::time::Duration::from_secs(60),
            public_delay: delay,
            player_entropy: false,
        };
        let now = Now::read();
        let tokens = SeatToken::pair().unwrap();
        let record = GameRecord::new(&new, Seats::of(&tokens.map(Some)), now);
        (
            record,
            GameHeader::of(GameId::new(now.wall, 1), &new, now.wall),
            now,
        )
    }

    fn play(record: &mut GameRecord, now: Now, ply: usize) -> Vec<Event> {
        let action = Action::Move {
            text: MoveText::Uci(MOVES[ply].parse().unwrap()),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        };
        let seat = if ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let mut out = Vec::new();
        record.apply(seat, &action, None, now, &mut out).unwrap();
        out
    }

    fn ucis(game: &AnyGame) -> Vec<String> {
        game.moves().map(|m| m.to_string()).collect()
    }

    /// The game a spectator reads: as it stood `delay` plies ago, its start before that; none
    /// without a delay, or once the game is over.
    #[test]
    fn the_game_as_it_stood() {
        let (mut record, header, now) = dark(2);
        for ply in 0..MOVES.len() {
            let shown = delayed_view(&record.view(&header, now)).expect("a delayed view");
            assert!(shown.delayed);
            assert_eq!(
                ucis(&shown.game),
                MOVES[..ply.saturating_sub(2)],
                "ply {ply}"
            );
            play(&mut record, now, ply);
        }
        let (record, header, now) = dark(0);
        assert!(delayed_view(&record.view(&header, now)).is_none());
        let (record, header, now) = dark(2);
        let view = record.view(&header, now);
        assert!(for_viewer(&view, Viewer::Blind).is_some());
        assert!(for_viewer(&view, Viewer::Seat(Color::White)).is_none());
        assert!(for_viewer(&view, Viewer::Whole).is_none());
    }

    /// A stream's events: each move shown `delay` plies late under the live event's seq,
    /// nothing before that, and a takeback that reaches the delayed game taking it back.
    #[test]
    fn a_stream_shows_each_move_late() {
        let (mut record, header, now) = dark(2);
        let snapshot = Event {
            seq: 0,
            at: now.wall,
            kind: EventKind::Snapshot(Box::new(record.view(&header, now))),
        };
        let (mut line, shown) = DelayedLine::of(&snapshot).expect("a delayed view");
        assert!(matches!(shown.kind, EventKind::Snapshot(v) if v.game.ply() == 0));
        let mut seen = Vec::new();
        for ply in 0..MOVES.len() {
            for event in play(&mut record, now, ply) {
                match line.after(&event) {
                    Seen::Delayed(shown) => {
                        let Event {
                            seq,
                            kind: EventKind::MovePlayed { played, .. },
                            ..
                        } = *shown
                        else {
                            panic!("{shown:?}");
                        };
                        assert_eq!((seq, played.seq), (event.seq, event.seq));
                        seen.push((ply + 1, played.ply, played.mv.to_string()));
                    }
                    Seen::Nothing => seen.push((ply + 1, 0, String::new())),
                    other => panic!("{other:?}"),
                }
            }
        }
        let want: Vec<(usize, u32, String)> = [(1, 0, ""), (2, 0, "")]
            .into_iter()
            .map(|(n, k, m)| (n, k, m.to_owned()))
            .chain((3..=5).map(|n| (n, n as u32 - 2, MOVES[n - 3].to_owned())))
            .collect();
        assert_eq!(seen, want);
        // White takes back its last move (ply 5): the delayed game goes back from 3 to 2.
        let mut out = Vec::new();
        record
            .apply(Color::White, &Action::ProposeTakeback, None, now, &mut out)
            .unwrap();
        record
            .apply(
                Color::Black,
                &Action::RespondToTakeback { accept: true },
                None,
                now,
                &mut out,
            )
            .unwrap();
        let taken: Vec<Seen> = out.iter().map(|e| line.after(e)).collect();
        assert!(
            matches!(taken[0], Seen::AsIs),
            "the proposal shows no board"
        );
        let Seen::Delayed(shown) = &taken[1] else {
            panic!("{taken:?}");
        };
        let EventKind::MovesTakenBack { plies, ply, .. } = &shown.kind else {
            panic!("{shown:?}");
        };
        assert_eq!((*plies, *ply), (1, 2));
    }
}
