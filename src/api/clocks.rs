//! Clock requests into domain values, validated at the edge: a CreateGame's start rules (when
//! the clocks start, the first-move timer), AddTime's gift and AdjustClock's change, each a
//! domain value or a `ServiceError` that names the field. The bounds are the API's
//! (docs/api.md, rules of play).

use std::time::{Duration, SystemTime};

use chessd_rules::Color;

use crate::api::fields::{duration, game_id};
use crate::error::ServiceError;
use crate::game::error::InputError;
use crate::game::{
    Action, ClockAdjust, ClockStart, DEFAULT_FIRST_MOVE_TIMEOUT, DEFAULT_SETUP_TIMEOUT, GameId,
    StartRules, whole_ms, whole_ms_duration,
};
use chessd_proto::wire as pb;

/// The longest first-move timer.
pub(crate) const MAX_FIRST_MOVE_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// How far ahead a game's clocks may be scheduled to start.
pub(crate) const MAX_CLOCK_START_AHEAD: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// What AddTime gives when the request leaves `amount` unset (lichess's "+15 seconds").
pub(crate) const DEFAULT_ADD_TIME: Duration = Duration::from_secs(15);

/// The most AddTime gives at once.
pub(crate) const MAX_ADD_TIME: Duration = Duration::from_secs(5 * 60);

/// The least AddTime gives at once: each gift is an event in the game's log, so a trickle of
/// tiny ones cannot make it long.
pub(crate) const MIN_ADD_TIME: Duration = Duration::from_secs(1);

/// The most a clock may be set to (AdjustClock).
pub(crate) const MAX_CLOCK: Duration = Duration::from_secs(24 * 60 * 60);

/// A timestamp as wall time, to the millisecond (as every store keeps times).
fn wall_time(field: &'static str, t: prost_types::Timestamp) -> Result<SystemTime, ServiceError> {
    let t = SystemTime::try_from(t).map_err(|_| {
        ServiceError::Input(InputError::InvalidField {
            field,
            message: "not a valid timestamp".into(),
        })
    })?;
    Ok(whole_ms(t))
}

/// When the clocks start and the first-move timer: the clock start only for a timed game
/// (CLOCK_START_AT with its time, at most 30 days ahead; a time already past starts the clocks
/// at once), the timer 30 seconds by default in a timed game (three minutes where it covers a
/// secret setup or the players' entropy, a round before the first move: `secret_setup`), none
/// in an untimed one, none when zero, at most 24 hours.
pub(crate) fn start_rules(
    req: &pb::CreateGameRequest,
    timed: bool,
    secret_setup: bool,
) -> Result<StartRules, ServiceError> {
    let clock_start = match pb::ClockStart::try_from(req.clock_start) {
        Ok(pb::ClockStart::Unspecified | pb::ClockStart::OnCreation) => ClockStart::OnCreation,
        Ok(pb::ClockStart::AfterFirstMoves) => ClockStart::AfterFirstMoves,
        Ok(pb::ClockStart::At) => {
            let at = req.clock_start_at.ok_or(InputError::InvalidField {
                field: "clock_start_at",
                message: "CLOCK_START_AT needs the time the clocks start".into(),
            })?;
            let at = wall_time("clock_start_at", at)?;
            if at > SystemTime::now() + MAX_CLOCK_START_AHEAD {
                return Err(InputError::InvalidField {
                    field: "clock_start_at",
                    message: "expected at most 30 days ahead".into(),
                }
                .into());
            }
            ClockStart::At(at)
        }
        Err(_) => {
            return Err(InputError::InvalidField {
                field: "clock_start",
                message: format!("unknown value {}", req.clock_start),
            }
            .into());
        }
    };
    if req.clock_start_at.is_some() && !matches!(clock_start, ClockStart::At(_)) {
        return Err(InputError::InvalidField {
            field: "clock_start_at",
            message: "only with clock_start CLOCK_START_AT".into(),
        }
        .into());
    }
    if !timed && clock_start != ClockStart::OnCreation {
        return Err(InputError::InvalidField {
            field: "clock_start",
            message: "an untimed game has no clocks to start".into(),
        }
        .into());
    }
    let first_move_timeout = match req.first_move_timeout {
        None if secret_setup => timed.then_some(DEFAULT_SETUP_TIMEOUT),
        None => timed.then_some(DEFAULT_FIRST_MOVE_TIMEOUT),
        Some(d) => {
            let d = whole_ms_duration(duration("first_move_timeout", Some(d))?);
            if d > MAX_FIRST_MOVE_TIMEOUT {
                return Err(InputError::InvalidField {
                    field: "first_move_timeout",
                    message: "expected at most 24 hours (zero: no timer)".into(),
                }
                .into());
            }
            (!d.is_zero()).then_some(d)
        }
    };
    Ok(StartRules {
        clock_start,
        first_move_timeout,
    })
}

/// An AddTime request: the game and the time given (15 seconds by default, from 1 second to
/// 5 minutes).
pub fn add_time(req: &pb::AddTimeRequest) -> Result<(GameId, Action), ServiceError> {
    let id = game_id(&req.game_id)?;
    let amount = match req.amount {
        None => DEFAULT_ADD_TIME,
        Some(d) => duration("amount", Some(d))?,
    };
    if !(MIN_ADD_TIME..=MAX_ADD_TIME).contains(&amount) {
        return Err(InputError::InvalidField {
            field: "amount",
            message: "expected from 1 second to 5 minutes".into(),
        }
        .into());
    }
    Ok((id, Action::AddTime { amount }))
}

/// An AdjustClock request: the game, the side, and the change (a time set from zero to 24
/// hours, or a positive time added or taken off).
pub fn adjust_clock(
    req: &pb::AdjustClockRequest,
) -> Result<(GameId, Color, ClockAdjust), ServiceError> {
    use pb::adjust_clock_request::Change;
    let id = game_id(&req.game_id)?;
    let side = match pb::Color::try_from(req.side) {
        Ok(pb::Color::White) => Color::White,
        Ok(pb::Color::Black) => Color::Black,
        _ => {
            return Err(InputError::InvalidField {
                field: "side",
                message: "expected COLOR_WHITE or COLOR_BLACK".into(),
            }
            .into());
        }
    };
    let positive = |field: &'static str, d: prost_types::Duration| {
        let d = duration(field, Some(d))?;
        if d.is_zero() || d > MAX_CLOCK {
            return Err(ServiceError::from(InputError::InvalidField {
                field,
                message: "expected more than zero and at most 24 hours".into(),
            }));
        }
        Ok(d)
    };
    let adjust = match req.change {
        None => {
            return Err(InputError::InvalidField {
                field: "change",
                message: "expected set_remaining, add or subtract".into(),
            }
            .into());
        }
        Some(Change::SetRemaining(d)) => {
            let d = duration("set_remaining", Some(d))?;
            if d > MAX_CLOCK {
                return Err(InputError::InvalidField {
                    field: "set_remaining",
                    message: "expected at most 24 hours".into(),
                }
                .into());
            }
            ClockAdjust::Set(d)
        }
        Some(Change::Add(d)) => ClockAdjust::Add(positive("add", d)?),
        Some(Change::Subtract(d)) => ClockAdjust::Subtract(positive("subtract", d)?),
    };
    Ok((id, side, adjust))
}
