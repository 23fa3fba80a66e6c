//! Requests into domain values, validated at the edge: a request becomes precise domain values
//! (a `Position`, a `MoveText`, a `GameId`) or a `ServiceError` that names the field.

use std::time::Duration;

use std::collections::HashMap;

use chessd_rules::{self as rules, ByColor, Color};

use crate::api::clocks;
use crate::api::error::RequestError;
pub use crate::api::fields::game_id;
use crate::api::fields::{duration, echo};
use crate::api::{start, variant_key};
use crate::error::ServiceError;
use crate::game::delay::MAX_PUBLIC_DELAY;
use crate::game::error::InputError;
use crate::game::{
    Action, Byoyomi, FeedFilter, GameId, GameStatus, Labels, MoveText, NewGame, PlayerId, Players,
    RequestId, Revoke, TakebackPolicy, TimeControl, TokenId, whole_ms_duration,
};
use crate::store::{FeedCursor, GameFilter, ListQuery};
use chessd_proto::wire as pb;

/// ListGames page size when the request leaves it at 0.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// The longest player name or id, in characters.
pub const MAX_PLAYER_LEN: usize = 100;

/// The longest initial time of a time control.
pub const MAX_INITIAL_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// The longest increment of a time control.
pub const MAX_INCREMENT: Duration = Duration::from_secs(60 * 60);

/// The shortest byoyomi period.
pub const MIN_BYOYOMI: Duration = Duration::from_secs(1);

/// The longest byoyomi period.
pub const MAX_BYOYOMI: Duration = Duration::from_secs(60 * 60);

pub use crate::api::fen::{MAX_FEN_LEN, position};
pub use crate::api::variant_key::{variant, variant_filter};

/// A name is kept exactly as given (the API promises it): no trimming, which would also
/// turn `"bob\u{85}"` into another player's `"bob"`.
fn player(field: &'static str, name: &str) -> Result<Box<str>, ServiceError> {
    if name.chars().count() > MAX_PLAYER_LEN || name.chars().any(char::is_control) {
        return Err(InputError::InvalidField {
            field,
            message: format!(
                "expected at most {MAX_PLAYER_LEN} characters and no control characters"
            ),
        }
        .into());
    }
    Ok(name.into())
}

/// An initial time in (0, 24 h], or [0, 24 h] when `periods_follow` (byoyomi).
fn initial_time(
    field: &'static str,
    d: Option<prost_types::Duration>,
    periods_follow: bool,
) -> Result<Duration, ServiceError> {
    // Whole milliseconds, as the game's header and every store keep it.
    let initial = whole_ms_duration(duration(field, d)?);
    if (initial.is_zero() && !periods_follow) || initial > MAX_INITIAL_TIME {
        return Err(InputError::InvalidField {
            field,
            message: if periods_follow {
                "expected at most 24 hours".into()
            } else {
                "expected more than zero and at most 24 hours".into()
            },
        }
        .into());
    }
    Ok(initial)
}

/// A byoyomi's periods: `period` in [1 s, 1 h], 1 to 60 of them (0: one); none when `period`
/// is unset, and then `periods` must be 0 too.
fn byoyomi(
    period: Option<prost_types::Duration>,
    periods: u32,
) -> Result<Option<Byoyomi>, ServiceError> {
    let Some(period) = period else {
        if periods != 0 {
            return Err(InputError::InvalidField {
                field: "time_control.periods",
                message: "periods need a byoyomi (time_control.byoyomi)".into(),
            }
            .into());
        }
        return Ok(None);
    };
    let period = whole_ms_duration(duration("time_control.byoyomi", Some(period))?);
    if period < MIN_BYOYOMI || period > MAX_BYOYOMI {
        return Err(InputError::InvalidField {
            field: "time_control.byoyomi",
            message: "expected at least one second and at most one hour".into(),
        }
        .into());
    }
    let byoyomi = Byoyomi::new(period, periods.max(1)).ok_or_else(|| InputError::InvalidField {
        field: "time_control.periods",
        message: format!("expected at most {} periods", Byoyomi::MAX_PERIODS),
    })?;
    Ok(Some(byoyomi))
}

/// An increment in [0, 1 h].
fn increment(
    field: &'static str,
    d: Option<prost_types::Duration>,
) -> Result<Duration, ServiceError> {
    let increment = whole_ms_duration(duration(field, d)?);
    if increment > MAX_INCREMENT {
        return Err(InputError::InvalidField {
            field,
            message: "expected at most one hour".into(),
        }
        .into());
    }
    Ok(increment)
}

/// A time control: initial times in (0, 24 h] (or from zero, with byoyomi), increments in
/// [0, 1 h] (none with byoyomi); Black's, when unset, the same as White's.
fn time_control(tc: Option<pb::TimeControl>) -> Result<Option<TimeControl>, ServiceError> {
    let Some(tc) = tc else { return Ok(None) };
    let byoyomi = byoyomi(tc.byoyomi, tc.periods)?;
    let periods_follow = byoyomi.is_some();
    let tc = TimeControl {
        initial: initial_time("time_control.initial", tc.initial, periods_follow)?,
        increment: increment("time_control.increment", tc.increment)?,
        black_initial: tc
            .black_initial
            .map(|d| initial_time("time_control.black_initial", Some(d), periods_follow))
            .transpose()?,
        black_increment: tc
            .black_increment
            .map(|d| increment("time_control.black_increment", Some(d)))
            .transpose()?,
        byoyomi,
    };
    if periods_follow
        && let Some((field, _)) = [
            ("time_control.increment", tc.increment),
            (
                "time_control.black_increment",
                tc.black_increment.unwrap_or_default(),
            ),
        ]
        .into_iter()
        .find(|(_, d)| !d.is_zero())
    {
        return Err(InputError::InvalidField {
            field,
            message: "a byoyomi time control has no increment".into(),
        }
        .into());
    }
    Ok(Some(tc))
}

/// The draw rule asked for a game of `variant`. Where the players see only part of the board
/// (Dark Chess) neither can see enough to claim: the server decides those draws itself, as
/// `GAMES.md` has it, so the rule is automatic and a claim rule is refused.
fn draw_rule(value: i32, variant: rules::any::AnyVariant) -> Result<rules::DrawRule, ServiceError> {
    let hidden = variant.hides_board();
    match pb::DrawRule::try_from(value) {
        Ok(pb::DrawRule::Unspecified) if hidden => Ok(rules::DrawRule::Automatic),
        Ok(pb::DrawRule::Claim) if hidden => Err(ServiceError::Input(InputError::InvalidField {
            field: "draw_rule",
            message: format!(
                "in {} the players cannot see enough to claim a draw: its draws are automatic",
                variant.key()
            ),
        })),
        Ok(pb::DrawRule::Unspecified | pb::DrawRule::Claim) => Ok(rules::DrawRule::Claim),
        Ok(pb::DrawRule::Automatic) => Ok(rules::DrawRule::Automatic),
        Err(_) => Err(ServiceError::Input(InputError::InvalidField {
            field: "draw_rule",
            message: format!("unknown value {value}"),
        })),
    }
}

/// A CreateGame request, validated. A start position that is already decided is refused: a
/// game must have a move to play.
pub fn new_game(req: pb::CreateGameRequest) -> Result<NewGame, ServiceError> {
    let ids = ByColor::new(
        PlayerId::parse("white_player_id", &req.white_player_id)?,
        PlayerId::parse("black_player_id", &req.black_player_id)?,
    );
    if ids.white().is_some() && ids.white() == ids.black() {
        return Err(InputError::InvalidField {
            field: "black_player_id",
            message: "the same player cannot hold both seats (its token could not tell them apart)"
                .into(),
        }
        .into());
    }
    let seat_tokens = ByColor::new_with(|c: Color| ids[c].is_none() || req.bound_seat_tokens);
    let variant = variant_key::requested(req.variant, &req.variant_key)?;
    let request_id = RequestId::parse(&req.request_id)?;
    let (start, draw_start) = start::position(variant, req.chess960_start, &req.start_fen)?;
    if let Some(outcome) = start.outcome() {
        return Err(RequestError::InvalidFen {
            message: format!("the position is already decided ({})", outcome.termination),
        }
        .into());
    }
    let time_control = time_control(req.time_control)?;
    let asked_claim_after = match req.claim_after {
        Some(d) => Some(duration("claim_after", Some(d))?),
        None => None,
    };
    Ok(NewGame {
        start,
        draw_start,
        start_rules: clocks::start_rules(
            &req,
            time_control.is_some(),
            variant.has_secret_setup() || req.player_entropy,
        )?,
        time_control,
        claim_after: crate::game::presence::claim_after(asked_claim_after, time_control)?,
        players: Players {
            white: player("white_player", &req.white_player)?,
            black: player("black_player", &req.black_player)?,
            ids,
        },
        draw_rule: draw_rule(req.draw_rule, variant)?,
        request_id,
        labels: labels(&req.labels)?,
        takebacks: takebacks(req.takebacks)?,
        seat_tokens,
        public_delay: public_delay(req.public_delay_plies, variant)?,
        player_entropy: player_entropy(req.player_entropy, variant)?,
    })
}

/// The players' entropy (`game::entropy`): only in a game that draws during play. A start
/// drawn at creation is dealt before any player could commit: it stays the server's seed's.
fn player_entropy(on: bool, variant: rules::any::AnyVariant) -> Result<bool, ServiceError> {
    if on && !crate::game::chance::draws_in_play(variant) {
        return Err(InputError::InvalidField {
            field: "player_entropy",
            message: format!(
                "{} draws nothing during play: the players' entropy is for Dice Chess, Dice Chess 10x10 and Behemoth (a start drawn at creation is dealt before anyone could commit)",
                crate::api::variant_key::key(variant)
            ),
        }
        .into());
    }
    Ok(on)
}

/// A delayed public view of `plies`: only in a game that hides its board from spectators, at
/// most `MAX_PUBLIC_DELAY` plies.
fn public_delay(plies: u32, variant: rules::any::AnyVariant) -> Result<u16, ServiceError> {
    let refuse = |message: String| {
        Err(ServiceError::Input(InputError::InvalidField {
            field: "public_delay_plies",
            message,
        }))
    };
    if plies == 0 {
        return Ok(0);
    }
    if !variant.hides_board() {
        return refuse(format!(
            "{} hides nothing from spectators: only a game that does (dark) has a delayed view",
            variant.key()
        ));
    }
    match u16::try_from(plies) {
        Ok(p) if p <= MAX_PUBLIC_DELAY => Ok(p),
        _ => refuse(format!("{plies} plies: at most {MAX_PUBLIC_DELAY}")),
    }
}

fn takebacks(value: i32) -> Result<TakebackPolicy, ServiceError> {
    match pb::TakebackPolicy::try_from(value) {
        Ok(pb::TakebackPolicy::Unspecified | pb::TakebackPolicy::Off) => Ok(TakebackPolicy::Off),
        Ok(pb::TakebackPolicy::OnRequest) => Ok(TakebackPolicy::OnRequest),
        Err(_) => Err(ServiceError::Input(InputError::InvalidField {
            field: "takebacks",
            message: format!("unknown takeback policy {value}"),
        })),
    }
}

/// A request's labels (CreateGame's, or a filter's).
pub fn labels(map: &HashMap<String, String>) -> Result<Labels, ServiceError> {
    Ok(Labels::parse("labels", map.iter())?)
}

/// Move text: UCI first (`e2e4`), then SAN (`Nf3`), then another family's notation (`a10a9`,
/// `P*5e`, `C2.5`); only the syntax is checked here.
pub fn move_text(text: &str) -> Result<MoveText, ServiceError> {
    let text = text.trim();
    if let Ok(uci) = text.parse::<rules::UciMove>() {
        return Ok(MoveText::Uci(uci));
    }
    if let Ok(san) = text.parse::<rules::San>() {
        let typed = rules::WideText::from_ascii(text)
            .or_else(|| rules::WideText::from_ascii(&san.to_string()))
            .unwrap_or_default();
        return Ok(MoveText::San(san, typed));
    }
    match rules::WideText::from_ascii(text) {
        Some(text) if rules::any::is_move_syntax(text.as_str()) => Ok(MoveText::Other(text)),
        _ => Err(ServiceError::Input(InputError::MalformedMove {
            text: echo(text),
        })),
    }
}

/// A SubmitMove request: the game and the action.
pub fn submit_move(req: &pb::SubmitMoveRequest) -> Result<(GameId, Action), ServiceError> {
    let id = game_id(&req.game_id)?;
    let action = Action::Move {
        text: move_text(&req.r#move)?,
        expected_ply: req.expected_ply,
        request_id: RequestId::parse(&req.request_id)?,
        offer_draw: req.offer_draw,
    };
    Ok((id, action))
}

/// The longest placement read: four rows of eight squares and their separators, with room
/// for spaces around them.
const MAX_PLACEMENT: usize = 64;

/// A SubmitSetup request's action (the placement's rules are the game's to check).
pub fn setup(req: &pb::SubmitSetupRequest) -> Result<Action, ServiceError> {
    if req.placement.len() > MAX_PLACEMENT {
        return Err(ServiceError::Input(InputError::InvalidSetup {
            message: format!(
                "{} bytes, expected four FEN rows of at most {MAX_PLACEMENT}",
                req.placement.len()
            ),
        }));
    }
    Ok(Action::Setup {
        placement: req.placement.trim().to_owned(),
        commit: req.commit,
    })
}

/// A SubmitEntropy request's action: exactly one of its commitment and its secret, 64 hex
/// digits (whether a secret matches its commitment is the game's to check).
pub fn entropy(req: &pb::SubmitEntropyRequest) -> Result<Action, ServiceError> {
    let refuse = |field: &'static str, message: &str| {
        ServiceError::Input(InputError::InvalidEntropy {
            field,
            message: message.to_owned(),
        })
    };
    let (field, text, reveal) = match (req.commitment.is_empty(), req.reveal.is_empty()) {
        (false, true) => ("commitment", &req.commitment, false),
        (true, false) => ("reveal", &req.reveal, true),
        _ => {
            return Err(refuse(
                "commitment",
                "send exactly one of commitment and reveal",
            ));
        }
    };
    let value = crate::game::entropy::parse_value(text.trim())
        .ok_or_else(|| refuse(field, "expected 64 hex digits (32 bytes)"))?;
    Ok(Action::Entropy { reveal, value })
}

/// A draw claim (unspecified is refused).
pub fn claim(value: i32) -> Result<rules::DrawClaim, ServiceError> {
    match pb::DrawClaim::try_from(value) {
        Ok(pb::DrawClaim::ThreefoldRepetition) => Ok(rules::DrawClaim::ThreefoldRepetition),
        Ok(pb::DrawClaim::FiftyMoves) => Ok(rules::DrawClaim::FiftyMoves),
        Ok(pb::DrawClaim::Unspecified) | Err(_) => {
            Err(ServiceError::Input(InputError::InvalidField {
                field: "claim",
                message: "expected DRAW_CLAIM_THREEFOLD_REPETITION or DRAW_CLAIM_FIFTY_MOVES"
                    .into(),
            }))
        }
    }
}

fn status_filter(value: i32) -> Result<Option<GameStatus>, ServiceError> {
    match pb::GameStatus::try_from(value) {
        Ok(pb::GameStatus::Unspecified) => Ok(None),
        Ok(pb::GameStatus::Ongoing) => Ok(Some(GameStatus::Ongoing)),
        Ok(pb::GameStatus::Finished) => Ok(Some(GameStatus::Finished)),
        Ok(pb::GameStatus::Aborted) => Ok(Some(GameStatus::Aborted)),
        Err(_) => Err(ServiceError::Input(InputError::InvalidField {
            field: "status",
            message: format!("unknown value {value}"),
        })),
    }
}

/// A ListGames request; the page size defaults to `DEFAULT_PAGE_SIZE` and is capped at
/// `max_page_size`.
pub fn list_query(
    req: &pb::ListGamesRequest,
    max_page_size: usize,
) -> Result<ListQuery, ServiceError> {
    let asked = req.page_size as usize;
    let page_size = if asked == 0 { DEFAULT_PAGE_SIZE } else { asked }
        .min(max_page_size)
        .max(1);
    let before = match req.page_token.trim() {
        "" => None,
        token => Some(
            token
                .parse::<GameId>()
                .map_err(|_| RequestError::InvalidPageToken)?,
        ),
    };
    let player = player("player", &req.player)?;
    Ok(ListQuery {
        page_size,
        before,
        filter: GameFilter {
            status: status_filter(req.status)?,
            variant: variant_key::filter(req.variant, &req.variant_key)?,
            player: (!player.is_empty()).then(|| player.into()),
            player_id: PlayerId::parse("player_id", &req.player_id)?,
            labels: labels(&req.labels)?,
        },
    })
}

/// A WatchGames request: where to start, and what to see.
pub fn feed_request(
    req: &pb::WatchGamesRequest,
) -> Result<(Option<FeedCursor>, FeedFilter), ServiceError> {
    let after = match req.after_cursor.trim() {
        "" => None,
        text => Some(text.parse::<FeedCursor>().map_err(|why| {
            ServiceError::Input(InputError::InvalidField {
                field: "after_cursor",
                message: why.into(),
            })
        })?),
    };
    let filter = FeedFilter {
        labels: labels(&req.labels)?,
        player: PlayerId::parse("player_id", &req.player_id)?,
        variant: variant_key::filter(req.variant, &req.variant_key)?,
        moves: req.include_moves,
    };
    Ok((after, filter))
}

/// An IssuePlayerToken request's player (required).
pub fn token_player(req: &pb::IssuePlayerTokenRequest) -> Result<PlayerId, ServiceError> {
    PlayerId::parse("player_id", &req.player_id)?.ok_or(ServiceError::Input(
        InputError::InvalidField {
            field: "player_id",
            message: "required".into(),
        },
    ))
}

/// What a RevokePlayerToken request ends (one of its fields is required).
pub fn revoke(req: &pb::RevokePlayerTokenRequest) -> Result<Revoke, ServiceError> {
    use pb::revoke_player_token_request::Target;
    match &req.target {
        Some(Target::TokenId(text)) => {
            text.trim()
                .parse::<TokenId>()
                .map(Revoke::Token)
                .map_err(|()| {
                    ServiceError::Input(InputError::InvalidField {
                        field: "token_id",
                        message: "expected the 16 hex digits IssuePlayerToken returned".into(),
                    })
                })
        }
        Some(Target::PlayerId(text)) => PlayerId::parse("player_id", text)?
            .map(Revoke::Player)
            .ok_or(ServiceError::Input(InputError::InvalidField {
                field: "player_id",
                message: "required".into(),
            })),
        None => Err(ServiceError::Input(InputError::InvalidField {
            field: "target",
            message: "set token_id or player_id".into(),
        })),
    }
}

/// AnalyzePosition: decode the request into a position (its variant by number, key or both,
/// as CreateGame's).
pub fn analysis_request(
    req: &pb::AnalyzePositionRequest,
) -> Result<rules::any::AnyPosition, ServiceError> {
    position(
        variant_key::requested(req.variant, &req.variant_key)?,
        &req.fen,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Move text is sorted into UCI and SAN; anything else is malformed (and echoed short).
    #[test]
    fn move_texts() {
        assert!(matches!(move_text("e2e4"), Ok(MoveText::Uci(_))));
        assert!(matches!(move_text(" Nf3 "), Ok(MoveText::San(..))));
        assert!(matches!(move_text("O-O"), Ok(MoveText::San(..))));
        let Err(ServiceError::Input(InputError::MalformedMove { text })) =
            move_text(&"x".repeat(1000))
        else {
            panic!()
        };
        assert_eq!(text.len(), crate::api::fields::ECHO_LEN);
        assert!(move_text("").is_err());
    }

    /// Time controls outside their ranges are refused with the field named.
    /// Time controls are kept in whole milliseconds, as the header and every store keep
    /// them, so a game reads the same before and after it is stored; under a millisecond of
    /// initial time is none.
    #[test]
    fn time_controls_in_whole_milliseconds() {
        let at = |seconds: i64, nanos: i32| Some(prost_types::Duration { seconds, nanos });
        let tc = time_control(Some(pb::TimeControl {
            initial: at(60, 1_500_000),
            increment: at(2, 999_999),
            ..Default::default()
        }))
        .unwrap()
        .unwrap();
        assert_eq!(tc.initial, Duration::from_millis(60_001));
        assert_eq!(tc.increment, Duration::from_secs(2));
        let tiny = time_control(Some(pb::TimeControl {
            initial: at(0, 500_000),
            ..Default::default()
        }));
        assert!(matches!(
            tiny,
            Err(ServiceError::Input(InputError::InvalidField {
                field: "time_control.initial",
                ..
            }))
        ));
    }

    /// Byoyomi: main time may be zero; the period within 1 s to 1 h, 1 to 60 periods (0 read
    /// as one); no increment beside it; no periods without it. Each refusal names its field.
    #[test]
    fn byoyomi_time_controls() {
        let secs = |seconds: i64| Some(prost_types::Duration { seconds, nanos: 0 });
        let tc = |main: i64, inc: i64, period: Option<i64>, periods: u32| {
            time_control(Some(pb::TimeControl {
                initial: secs(main),
                increment: secs(inc),
                byoyomi: period.and_then(secs),
                periods,
                ..Default::default()
            }))
        };
        let ok = tc(600, 0, Some(30), 3).unwrap().unwrap();
        assert_eq!(ok.byoyomi, Byoyomi::new(Duration::from_secs(30), 3));
        let one = tc(0, 0, Some(10), 0).unwrap().unwrap();
        assert_eq!(one.initial, Duration::ZERO);
        assert_eq!(one.byoyomi.map(Byoyomi::periods), Some(1));
        let refused = |r: Result<Option<TimeControl>, ServiceError>| match r {
            Err(ServiceError::Input(InputError::InvalidField { field, .. })) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(tc(0, 0, None, 0)), "time_control.initial");
        assert_eq!(refused(tc(600, 2, Some(30), 1)), "time_control.increment");
        assert_eq!(refused(tc(600, 0, Some(0), 1)), "time_control.byoyomi");
        assert_eq!(refused(tc(600, 0, Some(3601), 1)), "time_control.byoyomi");
        assert_eq!(refused(tc(600, 0, Some(30), 61)), "time_control.periods");
        assert_eq!(refused(tc(600, 0, None, 3)), "time_control.periods");
        let odds = time_control(Some(pb::TimeControl {
            initial: secs(600),
            black_increment: secs(1),
            byoyomi: secs(30),
            ..Default::default()
        }));
        assert_eq!(refused(odds), "time_control.black_increment");
    }

    #[test]
    fn time_controls() {
        let tc = |s: i64, inc: i64| {
            time_control(Some(pb::TimeControl {
                initial: Some(prost_types::Duration {
                    seconds: s,
                    nanos: 0,
                }),
                increment: Some(prost_types::Duration {
                    seconds: inc,
                    nanos: 0,
                }),
                ..Default::default()
            }))
        };
        assert!(tc(300, 2).unwrap().is_some());
        assert!(matches!(
            tc(0, 2),
            Err(ServiceError::Input(InputError::InvalidField {
                field: "time_control.initial",
                ..
            }))
        ));
        assert!(matches!(
            tc(-5, 2),
            Err(ServiceError::Input(InputError::InvalidField {
                field: "time_control.initial",
                ..
            }))
        ));
        assert!(matches!(
            tc(300, 7200),
            Err(ServiceError::Input(InputError::InvalidField {
                field: "time_control.increment",
                ..
            }))
        ));
        assert!(matches!(
            tc(100_000, 0),
            Err(ServiceError::Input(InputError::InvalidField { .. }))
        ));
    }

    /// A decided start position cannot start a game.
    #[test]
    fn decided_start_refused() {
        let req = pb::CreateGameRequest {
            variant: pb::Variant::Chess as i32,
            start_fen: "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1".into(),
            ..Default::default()
        };
        let Err(ServiceError::Request(RequestError::InvalidFen { message })) = new_game(req) else {
            panic!()
        };
        assert!(message.contains("already decided"), "{message}");
    }
}

#[cfg(test)]
mod other_families {
    use super::*;

    /// Another family's move text reaches its game as it was typed: a form the 8x8 parsers
    /// read but print otherwise (a shogi promotion `b2h8+`) must not be rewritten on the way.
    #[test]
    fn text_reaches_the_game_as_typed() {
        for text in [
            "b2h8+", "g7h7+", "P@e5", "+R-1", "C2.5", "H8+7", "c3c4", "P*5e", "7g7f", "Bx2b+",
            "S-4h=", "a10a9", "e7e8c",
        ] {
            let parsed = move_text(text).map(|t| t.to_string()).ok();
            assert_eq!(parsed.as_deref(), Some(text), "{text}");
        }
    }
}
