//! Between protobuf and the domain: the only module that knows both the generated types and the
//! engine's.
//!
//! Decoding validates at the edge: a request becomes precise domain values (a `Position`, a
//! `MoveText`, a `GameId`) or a `ServiceError` that names the field. Encoding renders domain
//! values (moves in UCI and SAN, positions as FEN, times as protobuf `Timestamp`/`Duration`).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chessd_rules::{self as rules, Rules};

use crate::error::ServiceError;
use crate::proto as pb;
use crate::store::{
    Acted, Action, ClockReading, Created, Event, EventKind, GameFilter, GameId, GamePage,
    GameStatus, GameSummary, GameView, ListQuery, MoveInfo, MoveText, NewGame, Players, RequestId,
    Stats, TimeControl,
};

/// ListGames page size when the request leaves it at 0.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// The longest player name or id, in characters.
pub const MAX_PLAYER_LEN: usize = 100;

/// The longest FEN accepted (the longest legal FEN is under 100 bytes).
pub const MAX_FEN_LEN: usize = 128;

/// The longest initial time of a time control.
pub const MAX_INITIAL_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// The longest increment of a time control.
pub const MAX_INCREMENT: Duration = Duration::from_secs(60 * 60);

/// At most this many characters of a client's text are echoed back in an error message.
const ECHO_LEN: usize = 24;

// ---- decoding -------------------------------------------------------------------------------

/// A game id from its text.
pub fn game_id(text: &str) -> Result<GameId, ServiceError> {
    text.trim().parse().map_err(|_| ServiceError::InvalidGameId)
}

/// A required variant.
pub fn variant(value: i32) -> Result<rules::Variant, ServiceError> {
    variant_filter(value)?.ok_or(ServiceError::InvalidVariant)
}

/// A variant filter: unspecified means any.
pub fn variant_filter(value: i32) -> Result<Option<rules::Variant>, ServiceError> {
    match pb::Variant::try_from(value) {
        Ok(pb::Variant::Unspecified) => Ok(None),
        Ok(pb::Variant::Chess) => Ok(Some(rules::Variant::Chess)),
        Ok(pb::Variant::RacingKings) => Ok(Some(rules::Variant::RacingKings)),
        Err(_) => Err(ServiceError::InvalidVariant),
    }
}

/// A position of `variant` from FEN.
pub fn position(variant: rules::Variant, fen: &str) -> Result<rules::Position, ServiceError> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err(ServiceError::InvalidFen {
            message: "empty".into(),
        });
    }
    if fen.len() > MAX_FEN_LEN {
        return Err(ServiceError::InvalidFen {
            message: format!("longer than {MAX_FEN_LEN} bytes"),
        });
    }
    rules::Position::from_fen(variant, fen).map_err(|e| ServiceError::InvalidFen {
        message: e.to_string(),
    })
}

/// A name is kept exactly as given (the API promises it): no trimming, which would also
/// turn `"bob\u{85}"` into another player's `"bob"`.
fn player(field: &'static str, name: &str) -> Result<String, ServiceError> {
    if name.chars().count() > MAX_PLAYER_LEN || name.chars().any(char::is_control) {
        return Err(ServiceError::InvalidField {
            field,
            message: format!(
                "expected at most {MAX_PLAYER_LEN} characters and no control characters"
            ),
        });
    }
    Ok(name.to_owned())
}

fn duration(
    field: &'static str,
    d: Option<prost_types::Duration>,
) -> Result<Duration, ServiceError> {
    let Some(d) = d else {
        return Ok(Duration::ZERO);
    };
    Duration::try_from(d).map_err(|_| ServiceError::InvalidField {
        field,
        message: "negative or out of range".into(),
    })
}

/// A time control: initial time in (0, 24 h], increment in [0, 1 h].
fn time_control(tc: Option<pb::TimeControl>) -> Result<Option<TimeControl>, ServiceError> {
    let Some(tc) = tc else { return Ok(None) };
    let initial = duration("time_control.initial", tc.initial)?;
    let increment = duration("time_control.increment", tc.increment)?;
    if initial.is_zero() || initial > MAX_INITIAL_TIME {
        return Err(ServiceError::InvalidField {
            field: "time_control.initial",
            message: "expected more than zero and at most 24 hours".into(),
        });
    }
    if increment > MAX_INCREMENT {
        return Err(ServiceError::InvalidField {
            field: "time_control.increment",
            message: "expected at most one hour".into(),
        });
    }
    Ok(Some(TimeControl { initial, increment }))
}

fn draw_rule(value: i32) -> Result<rules::DrawRule, ServiceError> {
    match pb::DrawRule::try_from(value) {
        Ok(pb::DrawRule::Unspecified | pb::DrawRule::Claim) => Ok(rules::DrawRule::Claim),
        Ok(pb::DrawRule::Automatic) => Ok(rules::DrawRule::Automatic),
        Err(_) => Err(ServiceError::InvalidField {
            field: "draw_rule",
            message: format!("unknown value {value}"),
        }),
    }
}

/// A CreateGame request, validated. A start position that is already decided is refused: a
/// game must have a move to play.
pub fn new_game(req: pb::CreateGameRequest) -> Result<NewGame, ServiceError> {
    let variant = variant(req.variant)?;
    let start = if req.start_fen.trim().is_empty() {
        rules::Position::new(variant)
    } else {
        position(variant, &req.start_fen)?
    };
    if let Some(outcome) = start.outcome() {
        return Err(ServiceError::InvalidFen {
            message: format!("the position is already decided ({})", outcome.termination),
        });
    }
    Ok(NewGame {
        start,
        time_control: time_control(req.time_control)?,
        players: Players {
            white: player("white_player", &req.white_player)?,
            black: player("black_player", &req.black_player)?,
        },
        draw_rule: draw_rule(req.draw_rule)?,
        request_id: RequestId::parse(&req.request_id)?,
    })
}

/// Move text: UCI first (`e2e4`), then SAN (`Nf3`); only the syntax is checked here.
pub fn move_text(text: &str) -> Result<MoveText, ServiceError> {
    let text = text.trim();
    if let Ok(uci) = text.parse::<rules::UciMove>() {
        return Ok(MoveText::Uci(uci));
    }
    match text.parse::<rules::San>() {
        Ok(san) => Ok(MoveText::San(san)),
        Err(_) => Err(ServiceError::MalformedMove {
            text: text.chars().take(ECHO_LEN).collect(),
        }),
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

/// A draw claim (unspecified is refused).
pub fn claim(value: i32) -> Result<rules::DrawClaim, ServiceError> {
    match pb::DrawClaim::try_from(value) {
        Ok(pb::DrawClaim::ThreefoldRepetition) => Ok(rules::DrawClaim::ThreefoldRepetition),
        Ok(pb::DrawClaim::FiftyMoves) => Ok(rules::DrawClaim::FiftyMoves),
        Ok(pb::DrawClaim::Unspecified) | Err(_) => Err(ServiceError::InvalidField {
            field: "claim",
            message: "expected DRAW_CLAIM_THREEFOLD_REPETITION or DRAW_CLAIM_FIFTY_MOVES".into(),
        }),
    }
}

fn status_filter(value: i32) -> Result<Option<GameStatus>, ServiceError> {
    match pb::GameStatus::try_from(value) {
        Ok(pb::GameStatus::Unspecified) => Ok(None),
        Ok(pb::GameStatus::Ongoing) => Ok(Some(GameStatus::Ongoing)),
        Ok(pb::GameStatus::Finished) => Ok(Some(GameStatus::Finished)),
        Ok(pb::GameStatus::Aborted) => Ok(Some(GameStatus::Aborted)),
        Err(_) => Err(ServiceError::InvalidField {
            field: "status",
            message: format!("unknown value {value}"),
        }),
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
                .map_err(|_| ServiceError::InvalidPageToken)?,
        ),
    };
    let player = player("player", &req.player)?;
    Ok(ListQuery {
        page_size,
        before,
        filter: GameFilter {
            status: status_filter(req.status)?,
            variant: variant_filter(req.variant)?,
            player: (!player.is_empty()).then_some(player),
        },
    })
}

// ---- encoding -------------------------------------------------------------------------------

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

fn color(c: rules::Color) -> i32 {
    match c {
        rules::Color::White => pb::Color::White as i32,
        rules::Color::Black => pb::Color::Black as i32,
    }
}

fn maybe_color(c: Option<rules::Color>) -> i32 {
    c.map_or(pb::Color::Unspecified as i32, color)
}

fn proto_variant(v: rules::Variant) -> i32 {
    match v {
        rules::Variant::Chess => pb::Variant::Chess as i32,
        rules::Variant::RacingKings => pb::Variant::RacingKings as i32,
        // The API has no value for the other variants yet.
        _ => pb::Variant::Unspecified as i32,
    }
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
        // The API has no value for the other variants' ends yet.
        _ => pb::Termination::Unspecified,
    }) as i32
}

/// How a game ended.
#[must_use]
pub fn outcome(o: rules::Outcome) -> pb::Outcome {
    let result = match (o.termination, o.winner) {
        (rules::Termination::Aborted, _) => pb::GameResult::Unspecified,
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
        white_remaining: Some(proto_duration(c.remaining[rules::Color::White.index()])),
        black_remaining: Some(proto_duration(c.remaining[rules::Color::Black.index()])),
        running: maybe_color(c.running),
        read_at: Some(timestamp(c.read_at)),
    }
}

fn proto_time_control(tc: TimeControl) -> pb::TimeControl {
    pb::TimeControl {
        initial: Some(proto_duration(tc.initial)),
        increment: Some(proto_duration(tc.increment)),
    }
}

fn notation(pos: &rules::Position, m: rules::Move) -> pb::MoveNotation {
    pb::MoveNotation {
        uci: m.to_string(),
        san: rules::san_plus(pos, m),
    }
}

/// Every legal move of `pos` in both notations.
fn legal_moves(pos: &rules::Position) -> Vec<pb::MoveNotation> {
    pos.legal_moves()
        .iter()
        .map(|&m| notation(pos, m))
        .collect()
}

/// The full state of a game.
#[must_use]
pub fn game(view: &GameView) -> pb::Game {
    game_as(view, pb::GameView::Full)
}

/// The state of a game in `detail`: the basic view leaves out the move list and the legal
/// moves, which cost time and bytes in proportion to the game (SAN is worked out for every
/// move played and every legal move).
#[must_use]
pub fn game_as(view: &GameView, detail: pb::GameView) -> pb::Game {
    let full = detail != pb::GameView::Basic;
    let g = &view.game;
    let pos = g.position();
    let moves = if full {
        g.moves()
            .iter()
            .zip(g.sans())
            .map(|(m, san)| pb::MoveNotation {
                uci: m.to_string(),
                san: san.to_owned(),
            })
            .collect()
    } else {
        Vec::new()
    };
    pb::Game {
        game_id: view.id.to_string(),
        variant: proto_variant(pos.variant()),
        white_player: view.players.white.clone(),
        black_player: view.players.black.clone(),
        start_fen: start_fen(g.start()),
        fen: pos.fen(),
        ply: g.ply(),
        moves,
        legal_moves: if g.is_over() || !full {
            Vec::new()
        } else {
            legal_moves(pos)
        },
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
        last_seq: view.last_seq,
        created_at: Some(timestamp(view.created_at)),
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
        white_token: c.white_token.to_string(),
        black_token: c.black_token.to_string(),
    }
}

/// The answer to SubmitMove, with the game in `detail` (unknown values mean the full view).
#[must_use]
pub fn submitted(a: &Acted, detail: i32) -> pb::SubmitMoveResponse {
    let detail = pb::GameView::try_from(detail).unwrap_or(pb::GameView::Full);
    pb::SubmitMoveResponse {
        r#move: a.played.as_ref().map(played),
        game: Some(game_as(&a.view, detail)),
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
        EventKind::GameOver {
            outcome: o,
            position,
        } => E::GameOver(pb::GameOver {
            outcome: Some(outcome(*o)),
            fen: position.fen(),
        }),
    };
    pb::WatchGameResponse {
        seq: e.seq,
        server_time: Some(timestamp(e.at)),
        event: Some(body),
    }
}

/// A heartbeat after event `seq`.
#[must_use]
pub fn heartbeat(seq: u64, at: SystemTime) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        seq,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_game_response::Event::Heartbeat(pb::Heartbeat {})),
    }
}

/// The game as PGN, with the tags RULES.md lists.
#[must_use]
pub fn pgn(view: &GameView) -> String {
    let name = |n: &str| {
        if n.is_empty() {
            "?".to_owned()
        } else {
            n.to_owned()
        }
    };
    let tags = rules::PgnTags {
        event: "chessd game".into(),
        site: "chessd".into(),
        date: pgn_date(view.created_at),
        round: "-".into(),
        white: name(&view.players.white),
        black: name(&view.players.black),
        time_control: view
            .time_control
            .map(|tc| format!("{}+{}", pgn_seconds(tc.initial), pgn_seconds(tc.increment))),
    };
    rules::write_pgn(&view.game, &tags)
}

/// PGN's TimeControl seconds: whole seconds, or with a fraction when the time has one.
fn pgn_seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{:.3}", d.as_secs_f64())
    }
}

/// `YYYY.MM.DD` in UTC.
fn pgn_date(t: SystemTime) -> String {
    let days = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
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
                }
            })
            .collect(),
    }
}

/// AnalyzePosition: decode the request into a position.
pub fn analysis_request(req: &pb::AnalyzePositionRequest) -> Result<rules::Position, ServiceError> {
    position(variant(req.variant)?, &req.fen)
}

/// AnalyzePosition: what the engine says about a position.
#[must_use]
pub fn analysis(pos: &rules::Position) -> pb::AnalyzePositionResponse {
    pb::AnalyzePositionResponse {
        fen: pos.fen(),
        turn: color(pos.turn()),
        legal_moves: legal_moves(pos),
        in_check: pos.is_check(),
        outcome: pos.outcome().map(outcome),
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

    /// PGN dates are UTC calendar dates.
    #[test]
    fn dates() {
        assert_eq!(pgn_date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000.02.29"
        );
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(1_767_225_599)),
            "2025.12.31"
        );
    }

    /// Move text is sorted into UCI and SAN; anything else is malformed (and echoed short).
    #[test]
    fn move_texts() {
        assert!(matches!(move_text("e2e4"), Ok(MoveText::Uci(_))));
        assert!(matches!(move_text(" Nf3 "), Ok(MoveText::San(_))));
        assert!(matches!(move_text("O-O"), Ok(MoveText::San(_))));
        let Err(ServiceError::MalformedMove { text }) = move_text(&"x".repeat(1000)) else {
            panic!()
        };
        assert_eq!(text.len(), ECHO_LEN);
        assert!(move_text("").is_err());
    }

    /// Time controls outside their ranges are refused with the field named.
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
            }))
        };
        assert!(tc(300, 2).unwrap().is_some());
        assert!(matches!(
            tc(0, 2),
            Err(ServiceError::InvalidField {
                field: "time_control.initial",
                ..
            })
        ));
        assert!(matches!(
            tc(-5, 2),
            Err(ServiceError::InvalidField {
                field: "time_control.initial",
                ..
            })
        ));
        assert!(matches!(
            tc(300, 7200),
            Err(ServiceError::InvalidField {
                field: "time_control.increment",
                ..
            })
        ));
        assert!(matches!(
            tc(100_000, 0),
            Err(ServiceError::InvalidField { .. })
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
        let Err(ServiceError::InvalidFen { message }) = new_game(req) else {
            panic!()
        };
        assert!(message.contains("already decided"), "{message}");
    }
}
