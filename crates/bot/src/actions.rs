//! The calls a player makes, each with its retries and its refusals sorted into what the
//! runner does next: learn which side the seat plays, submit a move, resign, answer a draw
//! offer, claim a draw.
//!
//! A lost answer is retried with the same request (for a move: the same `request_id` and
//! `expected_ply`), so the server plays nothing twice and a stale retry fails instead of
//! landing on a later position.

use std::future::Future;
use std::time::Duration;

use tonic::Status;

use crate::board::Side;
use crate::client::{self, Api, CALL_TIMEOUT, Failure, Seat};
use crate::game::Claim;
use crate::proto;

type GameClient = proto::game_service_client::GameServiceClient<tonic::transport::Channel>;

/// Attempts of one call before its last failure is final.
pub const MAX_ATTEMPTS: u32 = 20;

/// Runs `call` until it succeeds, fails for good, or fails [`MAX_ATTEMPTS`] times; each retry
/// is logged with `what`. Returns the answer and the number of attempts.
pub async fn retrying<T, F, Fut>(what: &str, mut call: F) -> (Result<T, Status>, u32)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<tonic::Response<T>, Status>>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        let status = match call().await {
            Ok(response) => return (Ok(response.into_inner()), attempt),
            Err(status) => status,
        };
        let wait = match client::failure(&status) {
            Failure::Fatal => return (Err(status), attempt),
            _ if attempt >= MAX_ATTEMPTS => return (Err(status), attempt),
            Failure::Later(wait) => wait,
            Failure::Transient => client::backoff(attempt),
        };
        tracing::warn!(
            call = what,
            attempt,
            code = ?status.code(),
            error = status.message(),
            "call failed or its answer was lost; sending the same request again"
        );
        tokio::time::sleep(wait).await;
    }
}

/// One unary call on `seat`'s behalf with retries: `method` is the client method to call.
async fn unary<Req, Resp, F, Fut>(
    api: &Api,
    seat: &Seat,
    what: &str,
    request: &Req,
    timeout: Duration,
    method: F,
) -> (Result<Resp, Status>, u32)
where
    Req: Clone,
    F: Fn(GameClient, tonic::Request<Req>) -> Fut,
    Fut: Future<Output = Result<tonic::Response<Resp>, Status>>,
{
    retrying(what, || {
        method(
            api.client(),
            api.request(seat.bearer(), request.clone(), Some(timeout)),
        )
    })
    .await
}

/// How a move submission ended.
#[derive(Debug)]
pub enum Submitted {
    Played {
        attempts: u32,
    },
    /// The server refused the move itself (illegal, malformed): the engine's fault.
    Refused(String),
    /// The game moved on or ended meanwhile (a stale ply, not the seat's turn after all, the
    /// game over): the stream will tell.
    Stale,
}

/// How long one attempt may take while `budget` is left on the bot's clock.
fn attempt_timeout(budget: Option<Duration>) -> Duration {
    budget.map_or(CALL_TIMEOUT, |b| {
        (b / 2).clamp(Duration::from_secs(1), CALL_TIMEOUT)
    })
}

/// Submits `mv` at `ply` under `request_id`, offering a draw with it if `offer_draw`.
pub async fn submit(
    api: &Api,
    seat: &Seat,
    mv: &str,
    ply: u32,
    request_id: &str,
    offer_draw: bool,
    budget: Option<Duration>,
) -> Result<Submitted, Status> {
    let request = proto::SubmitMoveRequest {
        game_id: seat.game_id.clone(),
        r#move: mv.to_owned(),
        expected_ply: Some(ply),
        request_id: request_id.to_owned(),
        offer_draw,
        // The stream brings the new position: the answer need not carry the whole game.
        view: proto::GameView::Basic as i32,
    };
    let timeout = attempt_timeout(budget);
    let (answer, attempts) = unary(
        api,
        seat,
        "SubmitMove",
        &request,
        timeout,
        |mut c, r| async move { c.submit_move(r).await },
    )
    .await;
    match answer {
        Ok(_) => Ok(Submitted::Played { attempts }),
        Err(status) => match client::reason(&status).as_str() {
            "ILLEGAL_MOVE" | "MALFORMED_MOVE" | "AMBIGUOUS_MOVE" => {
                Ok(Submitted::Refused(status.message().to_owned()))
            }
            "NOT_YOUR_TURN" | "PLY_MISMATCH" | "GAME_OVER" | "REQUEST_ID_REUSED" => {
                Ok(Submitted::Stale)
            }
            _ => Err(status),
        },
    }
}

/// The side the seat plays, as GetGame's `seat` names it; `None` when the token holds no
/// seat in the game (a wrong token, another game's, or a revoked player token).
pub async fn seat_side(api: &Api, seat: &Seat) -> Result<Option<Side>, Status> {
    let request = proto::GetGameRequest {
        game_id: seat.game_id.clone(),
    };
    let (answer, _) = unary(
        api,
        seat,
        "GetGame",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.get_game(r).await },
    )
    .await;
    Ok(Side::from_proto(answer?.seat))
}

/// Resigns.
pub async fn resign(api: &Api, seat: &Seat) -> Result<(), Status> {
    let request = proto::ResignRequest {
        game_id: seat.game_id.clone(),
    };
    let (answer, _) = unary(
        api,
        seat,
        "Resign",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.resign(r).await },
    )
    .await;
    ignore_stale(answer.map(drop))
}

/// Makes `placement` the seat's final placement in a secret setup.
pub async fn submit_setup(api: &Api, seat: &Seat, placement: String) -> Result<(), Status> {
    let request = proto::SubmitSetupRequest {
        game_id: seat.game_id.clone(),
        placement,
        commit: true,
    };
    let (answer, _) = unary(
        api,
        seat,
        "SubmitSetup",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.submit_setup(r).await },
    )
    .await;
    ignore_stale(answer.map(drop))
}

/// Sends the seat's commitment or (`reveal`) its secret, 64 hex digits, in a game with the
/// players' entropy.
pub async fn submit_entropy(
    api: &Api,
    seat: &Seat,
    value: String,
    reveal: bool,
) -> Result<(), Status> {
    let (commitment, reveal) = if reveal {
        (String::new(), value)
    } else {
        (value, String::new())
    };
    let request = proto::SubmitEntropyRequest {
        game_id: seat.game_id.clone(),
        commitment,
        reveal,
    };
    let (answer, _) = unary(
        api,
        seat,
        "SubmitEntropy",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.submit_entropy(r).await },
    )
    .await;
    ignore_stale(answer.map(drop))
}

/// Accepts or declines the opponent's standing offer.
pub async fn respond_to_draw(api: &Api, seat: &Seat, accept: bool) -> Result<(), Status> {
    let request = proto::RespondToDrawRequest {
        game_id: seat.game_id.clone(),
        accept,
    };
    let (answer, _) = unary(
        api,
        seat,
        "RespondToDraw",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.respond_to_draw(r).await },
    )
    .await;
    ignore_stale(answer.map(drop))
}

/// Claims a draw; `Ok(false)` when the server says the claim does not hold.
pub async fn claim_draw(api: &Api, seat: &Seat, claim: Claim) -> Result<bool, Status> {
    let request = proto::ClaimDrawRequest {
        game_id: seat.game_id.clone(),
        claim: match claim {
            Claim::Threefold => proto::DrawClaim::ThreefoldRepetition,
            Claim::FiftyMoves => proto::DrawClaim::FiftyMoves,
        } as i32,
    };
    let (answer, _) = unary(
        api,
        seat,
        "ClaimDraw",
        &request,
        CALL_TIMEOUT,
        |mut c, r| async move { c.claim_draw(r).await },
    )
    .await;
    match answer {
        Ok(_) => Ok(true),
        Err(status) if client::reason(&status) == "DRAW_CLAIM_INVALID" => Ok(false),
        Err(status) => ignore_stale(Err(status)).map(|()| false),
    }
}

/// A refusal because the game moved on (ended, the offer was withdrawn) is no error: the
/// stream says what happened.
fn ignore_stale(answer: Result<(), Status>) -> Result<(), Status> {
    match answer {
        Err(status)
            if matches!(
                client::reason(&status).as_str(),
                "GAME_OVER"
                    | "NO_DRAW_OFFER"
                    | "NOT_YOUR_TURN"
                    | "WRONG_SEAT"
                    | "NO_SETUP"
                    | "SETUP_FINAL"
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}
