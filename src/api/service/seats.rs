//! The handlers by which a seat acts in its game: SubmitMove, the draw and takeback offers,
//! Resign, Abort, AddTime, ClaimVictory, SubmitSetup and SubmitEntropy.

use std::sync::OnceLock;

use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::api::call::{caller, rpc_span, traced};
use crate::api::clocks;
use crate::api::presence::{ClaimClock, fill};
use crate::api::service::GameApi;
use crate::api::{decode, encode};
use crate::error::ServiceError;
use crate::game::{Acted, Action, GameId, Holder, Viewer};
use crate::security::access::Sight;
use crate::store::{Admit, GameStore};
use chessd_proto::wire as pb;

impl<S: GameStore> GameApi<S> {
    /// Runs a seat's action and encodes the game after it.
    async fn seat_action(
        &self,
        metadata: &MetadataMap,
        game_id: &str,
        action: Action,
    ) -> Result<Box<pb::Game>, ServiceError> {
        self.ready()?;
        let id = decode::game_id(game_id)?;
        let (holder, _) = self.holder(metadata).await?;
        let (acted, viewer) = self.act_seen(id, holder, action, |_, _| Ok(())).await?;
        Ok(encode::game_as(
            &acted.view,
            pb::GameView::Full,
            Some(&self.move_lists),
            viewer,
        ))
    }

    /// Runs a seat's action (see `GameStore::act`), with the viewer its answer is written
    /// for: the seat that acted, which the store learns from the credential.
    async fn act_seen(
        &self,
        id: GameId,
        holder: Holder,
        action: Action,
        admit: impl Admit,
    ) -> Result<(Acted, Viewer), ServiceError> {
        let seat = OnceLock::new();
        let acted = self
            .store
            .act(id, holder, action, |acting, turn| {
                // Set once: the store asks `admit` once.
                let _ = seat.set(acting);
                admit(acting, turn)
            })
            .await?;
        let viewer = Sight::acting(seat.get().copied()).viewer(acted.view.hides());
        Ok((acted, viewer))
    }
}

pub(super) async fn submit_move<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::SubmitMoveRequest>,
) -> Result<Response<pb::SubmitMoveResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("SubmitMove", &request, &req.game_id, &req.request_id);
    traced(span, async {
        api.ready()?;
        let (id, action) = decode::submit_move(request.get_ref())?;
        let (holder, key) = api.holder(request.metadata()).await?;
        let admit = api.admit_move(caller(&request), key, id);
        let (acted, viewer) = api.act_seen(id, holder, action, admit).await?;
        Ok(encode::submitted(
            &acted,
            request.get_ref().view,
            &api.move_lists,
            viewer,
        ))
    })
    .await
}

pub(super) async fn resign<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ResignRequest>,
) -> Result<Response<pb::ResignResponse>, Status> {
    let span = rpc_span("Resign", &request, &request.get_ref().game_id, "");
    traced(span, async {
        let game = api
            .seat_action(
                request.metadata(),
                &request.get_ref().game_id,
                Action::Resign,
            )
            .await?;
        Ok(pb::ResignResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn offer_draw<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::OfferDrawRequest>,
) -> Result<Response<pb::OfferDrawResponse>, Status> {
    let span = rpc_span("OfferDraw", &request, &request.get_ref().game_id, "");
    traced(span, async {
        let game = api
            .seat_action(
                request.metadata(),
                &request.get_ref().game_id,
                Action::OfferDraw,
            )
            .await?;
        Ok(pb::OfferDrawResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn respond_to_draw<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::RespondToDrawRequest>,
) -> Result<Response<pb::RespondToDrawResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("RespondToDraw", &request, &req.game_id, "");
    traced(span, async {
        let action = Action::RespondToDraw { accept: req.accept };
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::RespondToDrawResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn claim_draw<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ClaimDrawRequest>,
) -> Result<Response<pb::ClaimDrawResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("ClaimDraw", &request, &req.game_id, "");
    traced(span, async {
        let action = Action::ClaimDraw(decode::claim(req.claim)?);
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::ClaimDrawResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn propose_takeback<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ProposeTakebackRequest>,
) -> Result<Response<pb::ProposeTakebackResponse>, Status> {
    let span = rpc_span("ProposeTakeback", &request, &request.get_ref().game_id, "");
    traced(span, async {
        let game = api
            .seat_action(
                request.metadata(),
                &request.get_ref().game_id,
                Action::ProposeTakeback,
            )
            .await?;
        Ok(pb::ProposeTakebackResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn respond_to_takeback<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::RespondToTakebackRequest>,
) -> Result<Response<pb::RespondToTakebackResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("RespondToTakeback", &request, &req.game_id, "");
    traced(span, async {
        let action = Action::RespondToTakeback { accept: req.accept };
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::RespondToTakebackResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn withdraw_takeback<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::WithdrawTakebackRequest>,
) -> Result<Response<pb::WithdrawTakebackResponse>, Status> {
    let span = rpc_span("WithdrawTakeback", &request, &request.get_ref().game_id, "");
    traced(span, async {
        let game = api
            .seat_action(
                request.metadata(),
                &request.get_ref().game_id,
                Action::WithdrawTakeback,
            )
            .await?;
        Ok(pb::WithdrawTakebackResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn abort<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::AbortRequest>,
) -> Result<Response<pb::AbortResponse>, Status> {
    let span = rpc_span("Abort", &request, &request.get_ref().game_id, "");
    traced(span, async {
        let game = api
            .seat_action(
                request.metadata(),
                &request.get_ref().game_id,
                Action::Abort,
            )
            .await?;
        Ok(pb::AbortResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn add_time<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::AddTimeRequest>,
) -> Result<Response<pb::AddTimeResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("AddTime", &request, &req.game_id, "");
    traced(span, async {
        let (_, action) = clocks::add_time(req)?;
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::AddTimeResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn claim_victory<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ClaimVictoryRequest>,
) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("ClaimVictory", &request, &req.game_id, "");
    traced(span, async {
        api.ready()?;
        let id = decode::game_id(&req.game_id)?;
        let (holder, _) = api.holder(request.metadata()).await?;
        // Read before the claim: a seat that connects in between is too late to stop it,
        // as if it had connected just after.
        let presence = api.store.read_presence(id).await?;
        let action = Action::ClaimVictory {
            draw: req.draw,
            presence,
        };
        let (acted, viewer) = api.act_seen(id, holder, action, |_, _| Ok(())).await?;
        let mut game = encode::game_as(
            &acted.view,
            pb::GameView::Full,
            Some(&api.move_lists),
            viewer,
        );
        fill(&mut game, &ClaimClock::of(&acted.view), &presence);
        Ok(pb::ClaimVictoryResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn submit_setup<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::SubmitSetupRequest>,
) -> Result<Response<pb::SubmitSetupResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("SubmitSetup", &request, &req.game_id, "");
    traced(span, async {
        let action = decode::setup(req)?;
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::SubmitSetupResponse { game: Some(game) })
    })
    .await
}

pub(super) async fn submit_entropy<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::SubmitEntropyRequest>,
) -> Result<Response<pb::SubmitEntropyResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("SubmitEntropy", &request, &req.game_id, "");
    traced(span, async {
        let action = decode::entropy(req)?;
        let game = api
            .seat_action(request.metadata(), &req.game_id, action)
            .await?;
        Ok(pb::SubmitEntropyResponse { game: Some(game) })
    })
    .await
}
