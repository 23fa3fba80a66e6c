//! Domain values into protobuf: moves in UCI and SAN, positions as FEN, times as protobuf
//! `Timestamp`/`Duration`, events for WatchGame and WatchGames, result counts, analyses.
//! What a position holds besides its FEN (geometry, hands, pockets) is `api::board`'s.

use std::time::{Duration, SystemTime};

use chessd_rules::{self as rules, Rules};

use std::collections::HashMap;

use bytes::Bytes;
use chessd_proto::wire as pb;

use crate::api::board::{checks_given, geometry, hands, pockets};
use crate::api::move_lists::{self, MoveLists};
use crate::api::variant_key;
use crate::game::{
    Acted, ClockChange, ClockReading, ClockReason, ClockStart, Created, Event, EventKind,
    FeedEvent, FeedKind, GameHeader, GameStatus, GameSummary, GameView, IssuedToken, Labels,
    MoveInfo, Players, Stats, TakebackPolicy, TimeControl,
};
use crate::store::GamePage;

/// Server time as a protobuf timestamp.
#[must_use]
pub fn timestamp(t: SystemTime) -> prost_types::Timestamp {
    t.into()
}

/// A duration as protobuf (saturating: clocks never exceed a few days).
#[must_use]
pub fn proto_duration(d: Duration) -> prost_types::Duration {
    prost_types::Duration::try_from(d).unwrap_or(prost_types::Duration {
        seconds: i64::MAX,
        nanos: 0,
    })
}

/// Labels as the protobuf map.
fn labels(l: &Labels) -> HashMap<String, String> {
    l.iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// The player id bound to `side`'s seat, or "".
fn player_id(players: &Players, side: rules::Color) -> String {
    players.ids[side]
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default()
}

fn color(c: rules::Color) -> i32 {
    match c {
        rules::Color::White => pb::Color::White as i32,
        rules::Color::Black => pb::Color::Black as i32,
    }
}

/// A side, or unspecified.
#[must_use]
pub fn maybe_color(c: Option<rules::Color>) -> i32 {
    c.map_or(pb::Color::Unspecified as i32, color)
}

/// The API's value of a variant (`decode::variant` reads it back).
#[must_use]
pub fn proto_variant(v: rules::Variant) -> i32 {
    use rules::Variant as V;
    (match v {
        V::Chess => pb::Variant::Chess,
        V::RacingKings => pb::Variant::RacingKings,
        V::Chess960 => pb::Variant::Chess960,
        V::ThreeCheck => pb::Variant::ThreeCheck,
        V::KingOfTheHill => pb::Variant::KingOfTheHill,
        V::Antichess => pb::Variant::Antichess,
        V::Atomic => pb::Variant::Atomic,
        V::Horde => pb::Variant::Horde,
        V::Crazyhouse => pb::Variant::Crazyhouse,
    }) as i32
}

fn status(s: GameStatus) -> i32 {
    match s {
        GameStatus::Ongoing => pb::GameStatus::Ongoing as i32,
        GameStatus::Finished => pb::GameStatus::Finished as i32,
        GameStatus::Aborted => pb::GameStatus::Aborted as i32,
    }
}

fn termination(t: rules::Termination) -> i32 {
    use rules::Termination as T;
    (match t {
        T::Checkmate => pb::Termination::Checkmate,
        T::Stalemate => pb::Termination::Stalemate,
        T::InsufficientMaterial => pb::Termination::InsufficientMaterial,
        T::Repetition => pb::Termination::Repetition,
        T::FiftyMoveRule => pb::Termination::FiftyMoveRule,
        T::Race => pb::Termination::Race,
        T::Resignation => pb::Termination::Resignation,
        T::Agreement => pb::Termination::Agreement,
        T::TimeForfeit => pb::Termination::TimeForfeit,
        T::Abandonment => pb::Termination::Abandonment,
        T::Aborted => pb::Termination::Aborted,
        T::ThirdCheck => pb::Termination::ThirdCheck,
        T::KingOfTheHill => pb::Termination::KingOfTheHill,
        T::KingExploded => pb::Termination::KingExploded,
        T::AllPiecesLost => pb::Termination::AllPiecesLost,
        T::StalemateWin => pb::Termination::StalemateWin,
        T::HordeDestroyed => pb::Termination::HordeDestroyed,
        T::NoStart => pb::Termination::NoStart,
    }) as i32
}

/// How a game ended.
#[must_use]
pub fn outcome(o: rules::Outcome) -> pb::Outcome {
    let result = match (o.termination, o.winner) {
        (t, _) if t.is_abort() => pb::GameResult::Unspecified,
        (_, Some(rules::Color::White)) => pb::GameResult::WhiteWins,
        (_, Some(rules::Color::Black)) => pb::GameResult::BlackWins,
        (_, None) => pb::GameResult::Draw,
    };
    pb::Outcome {
        result: result as i32,
        winner: maybe_color(o.winner),
        termination: termination(o.termination),
        pgn_result: o.result().to_owned(),
    }
}

fn clocks(c: &ClockReading) -> pb::Clocks {
    pb::Clocks {
        white_remaining: Some(proto_duration(*c.remaining.white())),
        black_remaining: Some(proto_duration(*c.remaining.black())),
        running: maybe_color(c.running),
        read_at: Some(timestamp(c.read_at)),
    }
}

fn takeback_policy(p: TakebackPolicy) -> i32 {
    match p {
        TakebackPolicy::Off => pb::TakebackPolicy::Off as i32,
        TakebackPolicy::OnRequest => pb::TakebackPolicy::OnRequest as i32,
    }
}

fn proto_time_control(tc: TimeControl) -> pb::TimeControl {
    pb::TimeControl {
        initial: Some(proto_duration(tc.initial)),
        increment: Some(proto_duration(tc.increment)),
        black_initial: tc.black_initial.map(proto_duration),
        black_increment: tc.black_increment.map(proto_duration),
    }
}

fn clock_start(start: ClockStart) -> i32 {
    (match start {
        ClockStart::OnCreation => pb::ClockStart::OnCreation,
        ClockStart::AfterFirstMoves => pb::ClockStart::AfterFirstMoves,
        ClockStart::At(_) => pb::ClockStart::At,
    }) as i32
}

/// A clock change off the board, with both clocks after it.
fn clock_changed(change: ClockChange, c: &ClockReading) -> pb::ClockChanged {
    pb::ClockChanged {
        side: color(change.side),
        by: maybe_color(change.by()),
        reason: (match change.reason {
            ClockReason::Given => pb::ClockChangeReason::Given,
            ClockReason::ArbiterSet => pb::ClockChangeReason::ArbiterSet,
            ClockReason::ArbiterAdded => pb::ClockChangeReason::ArbiterAdded,
            ClockReason::ArbiterSubtracted => pb::ClockChangeReason::ArbiterSubtracted,
        }) as i32,
        clocks: Some(clocks(c)),
    }
}

/// Every legal move of `pos` in both notations.
fn notations(pos: &rules::Position) -> Vec<pb::MoveNotation> {
    let legal = pos.legal_moves();
    legal
        .iter()
        .map(|&m| pb::MoveNotation {
            uci: m.to_string(),
            san: rules::san_plus_among(pos, m, &legal).to_string(),
        })
        .collect()
}

/// The full state of a game, its move list encoded afresh (creations, snapshots).
#[must_use]
pub fn game(view: &GameView) -> pb::Game {
    game_as(view, pb::GameView::Full, None)
}

/// The state of a game in `detail`: the basic view leaves out the move list and the legal
/// moves. With `lists`, the move list is the server's encoded one, extended by the moves
/// since its last answer about the game.
#[must_use]
pub fn game_as(view: &GameView, detail: pb::GameView, lists: Option<&MoveLists>) -> pb::Game {
    let full = detail != pb::GameView::Basic;
    let g = &view.game;
    let pos = g.position();
    let moves = match (full, lists) {
        (false, _) => Bytes::new(),
        (true, Some(lists)) => lists.encoded(view.id, g),
        (true, None) => move_lists::all_moves(g),
    };
    let legal_moves = if g.is_over() || !full {
        Bytes::new()
    } else {
        move_lists::legal_moves(pos)
    };
    let fields = chessd_proto::Game {
        game_id: view.id.to_string(),
        variant: proto_variant(pos.variant()),
        white_player: view.players.white.clone(),
        black_player: view.players.black.clone(),
        start_fen: start_fen(g.start()),
        fen: pos.fen(),
        ply: g.ply(),
        // In `moves` and `legal_moves` below, encoded.
        moves: Vec::new(),
        legal_moves: Vec::new(),
        turn: color(pos.turn()),
        in_check: pos.is_check(),
        status: status(view.status()),
        outcome: g.outcome().map(outcome),
        time_control: view.time_control.map(proto_time_control),
        clocks: view.clocks.as_ref().map(clocks),
        draw_rule: match g.draw_rule() {
            rules::DrawRule::Claim => pb::DrawRule::Claim as i32,
            rules::DrawRule::Automatic => pb::DrawRule::Automatic as i32,
        },
        draw_offer: maybe_color(view.draw_offer),
        takebacks: takeback_policy(view.takebacks),
        takeback_offer: maybe_color(view.takeback_offer),
        last_seq: view.last_seq,
        created_at: Some(timestamp(view.created_at)),
        pockets: pockets(pos),
        checks_given: checks_given(pos),
        labels: labels(&view.labels),
        white_player_id: player_id(&view.players, rules::Color::White),
        black_player_id: player_id(&view.players, rules::Color::Black),
        clock_start: if view.time_control.is_some() {
            clock_start(view.start_rules.clock_start)
        } else {
            pb::ClockStart::Unspecified as i32
        },
        first_move_deadline: view.first_move_deadline.map(timestamp),
        clock_start_at: match view.start_rules.clock_start {
            ClockStart::At(at) => Some(timestamp(at)),
            _ => None,
        },
        // Presence is not the game's: the API sets it where it reads it (`api::presence`).
        white_presence: None,
        black_presence: None,
        geometry: Some(geometry(pos.variant())),
        variant_key: variant_key::key(pos.variant()),
        hands: hands(pos),
    };
    pb::Game {
        fields,
        moves,
        legal_moves,
    }
}

/// A game's start as FEN. Most games begin from their variant's start, whose FEN is a
/// constant: copied rather than written out again on every answer (SubmitMove's included).
fn start_fen(start: &rules::Position) -> String {
    let variant = start.variant();
    if *start == rules::Position::new(variant) {
        variant.start_fen().to_owned()
    } else {
        start.fen()
    }
}

/// A game in a list.
#[must_use]
pub fn summary(s: &GameSummary) -> pb::GameSummary {
    pb::GameSummary {
        game_id: s.id.to_string(),
        variant: proto_variant(s.variant),
        white_player: s.players.white.clone(),
        black_player: s.players.black.clone(),
        status: status(GameStatus::of(s.outcome)),
        outcome: s.outcome.map(outcome),
        ply: s.ply,
        fen: s.position.fen(),
        created_at: Some(timestamp(s.created_at)),
        labels: labels(&s.labels),
        white_player_id: player_id(&s.players, rules::Color::White),
        black_player_id: player_id(&s.players, rules::Color::Black),
        variant_key: variant_key::key(s.variant),
        geometry: Some(geometry(s.variant)),
    }
}

/// A page of games.
#[must_use]
pub fn page(p: &GamePage) -> pb::ListGamesResponse {
    pb::ListGamesResponse {
        games: p.games.iter().map(summary).collect(),
        next_page_token: p.next.map(|id| id.to_string()).unwrap_or_default(),
    }
}

/// A move as played.
#[must_use]
pub fn played(m: &MoveInfo) -> pb::PlayedMove {
    pb::PlayedMove {
        uci: m.mv.to_string(),
        san: m.san.clone(),
        ply: m.ply,
        color: color(m.color),
        seq: m.seq,
    }
}

/// A new game with its seat tokens.
#[must_use]
pub fn created(c: &Created) -> pb::CreateGameResponse {
    pb::CreateGameResponse {
        game: Some(game(&c.view)),
        white_token: c.tokens.white().map(|t| t.to_string()).unwrap_or_default(),
        black_token: c.tokens.black().map(|t| t.to_string()).unwrap_or_default(),
    }
}

/// The answer to SubmitMove, with the game in `detail` (unknown values mean the full view).
#[must_use]
pub fn submitted(a: &Acted, detail: i32, lists: &MoveLists) -> pb::SubmitMoveResponse {
    let detail = pb::GameView::try_from(detail).unwrap_or(pb::GameView::Full);
    pb::SubmitMoveResponse {
        r#move: a.played.as_ref().map(played),
        game: Some(game_as(&a.view, detail, Some(lists))),
    }
}

/// One event of a WatchGame stream.
#[must_use]
pub fn event(e: &Event) -> pb::WatchGameResponse {
    use pb::watch_game_response::Event as E;
    let body = match &e.kind {
        EventKind::Snapshot(view) => E::Snapshot(game(view)),
        EventKind::MovePlayed {
            played: m,
            position,
            clocks: c,
            draw_offer,
        } => E::MovePlayed(pb::MovePlayed {
            r#move: Some(played(m)),
            fen: position.fen(),
            clocks: c.as_ref().map(clocks),
            draw_offer: maybe_color(*draw_offer),
        }),
        EventKind::DrawOffered { by } => E::DrawOffered(pb::DrawOffered { by: color(*by) }),
        EventKind::DrawDeclined { by } => E::DrawDeclined(pb::DrawDeclined { by: color(*by) }),
        EventKind::TakebackProposed { by, plies, ply } => {
            E::TakebackProposed(pb::TakebackProposed {
                by: color(*by),
                plies: u32::from(*plies),
                ply: *ply,
            })
        }
        EventKind::TakebackDeclined { by } => {
            E::TakebackDeclined(pb::TakebackDeclined { by: color(*by) })
        }
        EventKind::MovesTakenBack {
            by,
            plies,
            ply,
            position,
            clocks: c,
        } => E::MovesTakenBack(pb::MovesTakenBack {
            by: color(*by),
            plies: u32::from(*plies),
            ply: *ply,
            fen: position.fen(),
            clocks: c.as_ref().map(clocks),
        }),
        EventKind::GameOver {
            outcome: o,
            position,
        } => E::GameOver(pb::GameOver {
            outcome: Some(outcome(*o)),
            fen: position.fen(),
        }),
        EventKind::ClockChanged { change, clocks: c } => E::ClockChanged(clock_changed(*change, c)),
    };
    pb::WatchGameResponse {
        seq: e.seq,
        server_time: Some(timestamp(e.at)),
        event: Some(body),
        seat: pb::Color::Unspecified as i32,
    }
}

/// A heartbeat after event `seq`.
#[must_use]
pub fn heartbeat(seq: u64, at: SystemTime) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        seq,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_game_response::Event::Heartbeat(pb::Heartbeat {})),
        seat: pb::Color::Unspecified as i32,
    }
}

/// What never changes in a game, as every feed event repeats it.
#[must_use]
pub fn header(g: &GameHeader) -> pb::GameHeader {
    pb::GameHeader {
        game_id: g.id.to_string(),
        variant: proto_variant(g.variant()),
        white_player: g.players.white.clone(),
        black_player: g.players.black.clone(),
        white_player_id: player_id(&g.players, rules::Color::White),
        black_player_id: player_id(&g.players, rules::Color::Black),
        labels: labels(&g.labels),
        time_control: g.time_control.map(proto_time_control),
        start_fen: start_fen(&g.start),
        draw_rule: match g.draw_rule {
            rules::DrawRule::Claim => pb::DrawRule::Claim as i32,
            rules::DrawRule::Automatic => pb::DrawRule::Automatic as i32,
        },
        created_at: Some(timestamp(g.created_at)),
        variant_key: variant_key::key(g.variant()),
        geometry: Some(geometry(g.variant())),
    }
}

/// One event of a WatchGames stream, after which the stream stands at `cursor` (empty for a
/// running game announced at a player-mode stream's start). `seat` is the stream's player's
/// seat (player mode).
#[must_use]
pub fn feed_event(
    e: &FeedEvent,
    cursor: String,
    seat: Option<rules::Color>,
) -> pb::WatchGamesResponse {
    use pb::watch_games_response::Event as E;
    let seat = maybe_color(seat);
    let body = match &e.kind {
        FeedKind::Created => E::GameCreated(pb::GameCreated {
            game: Some(header(&e.game)),
            seat,
        }),
        FeedKind::Moved {
            played,
            fen,
            clocks: c,
            draw_offer,
        } => E::GameMoved(pb::GameMoved {
            game_id: e.game.id.to_string(),
            r#move: Some(pb::PlayedMove {
                uci: played.uci.to_string(),
                san: played.san.clone(),
                ply: played.ply,
                color: color(played.color),
                seq: played.seq,
            }),
            fen: fen.clone(),
            clocks: c.as_ref().map(|c| clocks(&c.reading())),
            draw_offer: maybe_color(*draw_offer),
            seat,
        }),
        FeedKind::TakenBack {
            ply,
            fen,
            clocks: c,
            seq,
        } => E::GameTakenBack(pb::GameTakenBack {
            game_id: e.game.id.to_string(),
            ply: *ply,
            fen: fen.clone(),
            clocks: c.as_ref().map(|c| clocks(&c.reading())),
            seq: *seq,
            seat,
        }),
        FeedKind::Finished {
            outcome: o,
            fen,
            ply,
        } => E::GameFinished(pb::GameFinished {
            game: Some(header(&e.game)),
            outcome: Some(outcome(*o)),
            fen: fen.clone(),
            ply: *ply,
            ended_at: Some(timestamp(e.at)),
            seat,
        }),
    };
    pb::WatchGamesResponse {
        cursor,
        server_time: Some(timestamp(e.at)),
        event: Some(body),
    }
}

/// A WatchGames heartbeat: the stream stands at `cursor`.
#[must_use]
pub fn feed_heartbeat(cursor: String, at: SystemTime) -> pb::WatchGamesResponse {
    pb::WatchGamesResponse {
        cursor,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_games_response::Event::Heartbeat(pb::Heartbeat {})),
    }
}

/// A player token just issued: its secret, shown this once.
#[must_use]
pub fn issued(t: &IssuedToken) -> pb::IssuePlayerTokenResponse {
    pb::IssuePlayerTokenResponse {
        player_id: t.player.to_string(),
        token: t.token.to_string(),
        token_id: t.id.to_string(),
    }
}

/// Result counts and shares per variant.
#[must_use]
pub fn stats(s: &Stats) -> pb::GetStatsResponse {
    let share = |n: u64, total: u64| {
        if total == 0 {
            0.0
        } else {
            n as f64 / total as f64
        }
    };
    pb::GetStatsResponse {
        variants: s
            .variants
            .iter()
            .map(|v| {
                let total = v.finished();
                pb::VariantStats {
                    variant: proto_variant(v.variant),
                    finished_games: total,
                    white_wins: v.white_wins,
                    black_wins: v.black_wins,
                    draws: v.draws,
                    white_win_share: share(v.white_wins, total),
                    black_win_share: share(v.black_wins, total),
                    draw_share: share(v.draws, total),
                    variant_key: variant_key::key(v.variant),
                }
            })
            .collect(),
    }
}

/// AnalyzePosition: what the engine says about a position.
#[must_use]
pub fn analysis(pos: &rules::Position) -> pb::AnalyzePositionResponse {
    pb::AnalyzePositionResponse {
        fen: pos.fen(),
        turn: color(pos.turn()),
        legal_moves: notations(pos),
        in_check: pos.is_check(),
        outcome: pos.outcome().map(outcome),
        pockets: pockets(pos),
        checks_given: checks_given(pos),
        hands: hands(pos),
        geometry: Some(geometry(pos.variant())),
        variant_key: variant_key::key(pos.variant()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer's start FEN is what writing the start out gives: the variant's constant for a
    /// standard start, the position itself for any other (move counters included).
    #[test]
    fn start_fen_is_the_written_start() {
        for variant in rules::Variant::ALL {
            let start = rules::Position::new(variant);
            assert_eq!(start_fen(&start), start.fen(), "{variant}");
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let Ok(start) = rules::Position::from_fen(rules::Variant::Chess, fen) else {
                panic!("{fen} is a valid position");
            };
            assert_eq!(start_fen(&start), fen);
        }
    }
}
