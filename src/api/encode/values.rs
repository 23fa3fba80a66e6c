//! The small values every message repeats: times, colours, variants, statuses, outcomes,
//! clocks and time controls, labels and player ids.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use chessd_rules as rules;

use crate::game::{
    Byoyomi, ClockReading, ClockStart, GameStatus, Labels, Players, TakebackPolicy, TimeControl,
};
use chessd_proto::wire as pb;

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
pub(super) fn labels(l: &Labels) -> HashMap<String, String> {
    l.iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// The player id bound to `side`'s seat, or "".
pub(super) fn player_id(players: &Players, side: rules::Color) -> String {
    players.ids[side]
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default()
}

pub(super) fn color(c: rules::Color) -> i32 {
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
pub fn proto_variant(v: rules::any::AnyVariant) -> i32 {
    use rules::Variant as V;
    let rules::any::AnyVariant::Std(v) = v else {
        // The games beyond the first nine have no number: their key names them.
        return pb::Variant::Unspecified as i32;
    };
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

pub(super) fn status(s: GameStatus) -> i32 {
    match s {
        GameStatus::Ongoing => pb::GameStatus::Ongoing as i32,
        GameStatus::Finished => pb::GameStatus::Finished as i32,
        GameStatus::Aborted => pb::GameStatus::Aborted as i32,
    }
}

pub(super) fn termination(t: rules::Termination) -> i32 {
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
        T::Extinction => pb::Termination::Extinction,
        T::NoCapture => pb::Termination::NoCapture,
        T::StalemateLoss => pb::Termination::StalemateLoss,
        T::PerpetualCheck => pb::Termination::PerpetualCheck,
        T::PerpetualChase => pb::Termination::PerpetualChase,
        T::RepetitionLoss => pb::Termination::RepetitionLoss,
        T::Impasse => pb::Termination::Impasse,
        T::KingFrozen => pb::Termination::KingFrozen,
        T::KingCaptured => pb::Termination::KingCaptured,
        T::KingDestroyed => pb::Termination::KingDestroyed,
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

pub(super) fn clocks(c: &ClockReading) -> pb::Clocks {
    pb::Clocks {
        white_remaining: Some(proto_duration(*c.remaining.white())),
        black_remaining: Some(proto_duration(*c.remaining.black())),
        running: maybe_color(c.running),
        read_at: Some(timestamp(c.read_at)),
        white_periods: c.periods(rules::Color::White),
        black_periods: c.periods(rules::Color::Black),
    }
}

pub(super) fn takeback_policy(p: TakebackPolicy) -> i32 {
    match p {
        TakebackPolicy::Off => pb::TakebackPolicy::Off as i32,
        TakebackPolicy::OnRequest => pb::TakebackPolicy::OnRequest as i32,
    }
}

pub(super) fn proto_time_control(tc: TimeControl) -> pb::TimeControl {
    pb::TimeControl {
        initial: Some(proto_duration(tc.initial)),
        increment: Some(proto_duration(tc.increment)),
        black_initial: tc.black_initial.map(proto_duration),
        black_increment: tc.black_increment.map(proto_duration),
        byoyomi: tc.byoyomi.map(|b| proto_duration(b.period())),
        periods: tc.byoyomi.map_or(0, Byoyomi::periods),
    }
}

pub(super) fn clock_start(start: ClockStart) -> i32 {
    (match start {
        ClockStart::OnCreation => pb::ClockStart::OnCreation,
        ClockStart::AfterFirstMoves => pb::ClockStart::AfterFirstMoves,
        ClockStart::At(_) => pb::ClockStart::At,
    }) as i32
}
