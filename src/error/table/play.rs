//! The error table's rows for [`Layer::Play`]: the game's state refuses the action (moves,
//! claims, draws, takebacks, clocks).

use chessd_rules::DrawClaim;
use tonic::Code;

use crate::error::table::{Layer, Row, row};
use crate::game::epoch_ms;
use crate::game::error::PlayError;

/// The rows of the errors `table::row_of` routes here.
pub(super) fn row_of(error: &PlayError) -> Row {
    use Code::{Aborted, FailedPrecondition};
    use PlayError as E;
    match error {
        E::IllegalMove { message } => row(
            Layer::Play,
            FailedPrecondition,
            "ILLEGAL_MOVE",
            format!("illegal move: {message}"),
        ),
        E::AmbiguousMove { message } => row(
            Layer::Play,
            FailedPrecondition,
            "AMBIGUOUS_MOVE",
            format!("ambiguous move: {message}"),
        ),
        E::NotYourTurn { turn } => row(
            Layer::Play,
            FailedPrecondition,
            "NOT_YOUR_TURN",
            format!("not your turn: {turn} is to move"),
        )
        .meta("turn", turn.name()),
        E::GameOver => row(Layer::Play, FailedPrecondition, "GAME_OVER", "the game is over"),
        E::NoFirstMove { timeout } => row(
            Layer::Play,
            FailedPrecondition,
            "GAME_OVER",
            format!(
                "the game is over: aborted, no first move within {} s (the first-move timer: create games when both players are ready, or with first_move_timeout 0 for none)",
                timeout.as_secs()
            ),
        )
        .meta("termination", "no_start")
        .meta("first_move_timeout_ms", timeout.as_millis()),
        E::ClaimNotValid { claim } => row(
            Layer::Play,
            FailedPrecondition,
            "DRAW_CLAIM_INVALID",
            match claim {
                DrawClaim::ThreefoldRepetition => {
                    "no draw by threefold repetition: the current position has not occurred three times"
                }
                DrawClaim::FiftyMoves => {
                    "no draw by the fifty-move rule: fewer than 100 half-moves without a capture or pawn move"
                }
            },
        )
        .meta("claim", claim_name(*claim)),
        E::AbortTooLate => row(
            Layer::Play,
            FailedPrecondition,
            "ABORT_NOT_ALLOWED",
            "too late to abort: both sides have moved (resign instead)",
        ),
        E::ClaimOnOwnTurn => row(
            Layer::Play,
            FailedPrecondition,
            "CLAIM_ON_OWN_TURN",
            "it is your turn: a claim is only against an opponent who left while it is to move",
        ),
        E::OpponentConnected { opponent } => row(
            Layer::Play,
            FailedPrecondition,
            "OPPONENT_CONNECTED",
            format!("{opponent} is connected: no claim while it watches the game"),
        )
        .meta("opponent", opponent.name()),
        E::ClaimTooEarly { claim_at } => row(
            Layer::Play,
            FailedPrecondition,
            "CLAIM_TOO_EARLY",
            format!(
                "too early to claim: the opponent has not been gone for the game's grace period (claim at {} ms since the epoch)",
                epoch_ms(*claim_at)
            ),
        )
        .meta("claim_at_ms", epoch_ms(*claim_at)),
        E::NoDrawOffer => row(
            Layer::Play,
            FailedPrecondition,
            "NO_DRAW_OFFER",
            "there is no draw offer to answer",
        ),
        E::TakebacksOff => row(
            Layer::Play,
            FailedPrecondition,
            "TAKEBACKS_OFF",
            "takebacks are off in this game",
        ),
        E::NothingToTakeBack => row(
            Layer::Play,
            FailedPrecondition,
            "NOTHING_TO_TAKE_BACK",
            "you have no move to take back",
        ),
        E::NoTakebackProposal => row(
            Layer::Play,
            FailedPrecondition,
            "NO_TAKEBACK_PROPOSAL",
            "there is no takeback proposal to answer",
        ),
        E::TakebackPending { by } => row(
            Layer::Play,
            FailedPrecondition,
            "TAKEBACK_PENDING",
            format!("{by}'s takeback proposal stands: answer it with RespondToTakeback"),
        )
        .meta("proposed_by", by.name()),
        E::MoveTakenBack => row(
            Layer::Play,
            FailedPrecondition,
            "MOVE_TAKEN_BACK",
            "the move of this request_id was taken back: send the move again with a new request_id",
        ),
        E::PlyMismatch { expected, current } => row(
            Layer::Play,
            Aborted,
            "PLY_MISMATCH",
            format!("the game is at ply {current}, not at the expected ply {expected}"),
        )
        .meta("expected_ply", expected)
        .meta("current_ply", current),
        E::GameUntimed => row(
            Layer::Play,
            FailedPrecondition,
            "GAME_UNTIMED",
            "the game has no clocks",
        ),
        E::SetupPending => row(
            Layer::Play,
            FailedPrecondition,
            "SETUP_PENDING",
            "the players are still placing their armies: play begins when both placements are final (SubmitSetup)",
        ),
        E::NoSetup { revealed: false } => row(
            Layer::Play,
            FailedPrecondition,
            "NO_SETUP",
            "this game has no setup phase: only Screen and Crazy Screen Chess are set up behind a screen",
        ),
        E::NoSetup { revealed: true } => row(
            Layer::Play,
            FailedPrecondition,
            "NO_SETUP",
            "the setup is over: both placements were final and the game has started",
        ),
        E::SetupFinal => row(
            Layer::Play,
            FailedPrecondition,
            "SETUP_FINAL",
            "your placement is final and stands: a final placement cannot change",
        ),
        E::TooManyPlacements => row(
            Layer::Play,
            FailedPrecondition,
            "TOO_MANY_PLACEMENTS",
            format!(
                "you have made {} placements, as many as a game keeps: send one with commit",
                crate::game::setup::MAX_PLACEMENTS
            ),
        ),
        E::EntropyPending { reveals } => row(
            Layer::Play,
            FailedPrecondition,
            "ENTROPY_PENDING",
            if *reveals {
                "the players' entropy is not in: play begins when both secrets are revealed (SubmitEntropy with reveal)"
            } else {
                "the players' entropy is not in: awaiting both commitments, then both secrets (SubmitEntropy)"
            },
        )
        .meta("awaiting", if *reveals { "reveals" } else { "commitments" }),
        E::NoEntropyPhase { done: false } => row(
            Layer::Play,
            FailedPrecondition,
            "NO_ENTROPY_PHASE",
            "this game has no players' entropy: only a game created with player_entropy takes commitments and secrets",
        ),
        E::NoEntropyPhase { done: true } => row(
            Layer::Play,
            FailedPrecondition,
            "NO_ENTROPY_PHASE",
            "the players' entropy is in: both secrets were revealed and the game has started",
        ),
        E::EntropyOutOfOrder { committed: true } => row(
            Layer::Play,
            FailedPrecondition,
            "ENTROPY_OUT_OF_ORDER",
            "your commitment stands: a commitment cannot change (send your secret once both are in)",
        ),
        E::EntropyOutOfOrder { committed: false } => row(
            Layer::Play,
            FailedPrecondition,
            "ENTROPY_OUT_OF_ORDER",
            "not both commitments are in: a secret is revealed only after both seats have committed",
        ),
    }
}

fn claim_name(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::ThreefoldRepetition => "threefold repetition",
        DrawClaim::FiftyMoves => "fifty moves",
    }
}
