//! The handlers behind an API key: IssuePlayerToken, RevokePlayerToken and AdjustClock (an
//! arbiter acting for no seat).

use tonic::{Request, Response, Status};

use crate::api::call::{caller, rpc_span, traced};
use crate::api::service::GameApi;
use crate::api::{clocks, decode, encode};
use crate::game::{Action, Holder};
use crate::security::access::Sight;
use crate::store::GameStore;
use chessd_proto::wire as pb;

pub(super) async fn issue_player_token<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::IssuePlayerTokenRequest>,
) -> Result<Response<pb::IssuePlayerTokenResponse>, Status> {
    let span = rpc_span("IssuePlayerToken", &request, "", "");
    traced(span, async {
        api.ready()?;
        let player = decode::token_player(request.get_ref())?;
        let issued = api.store.issue_player_token(player).await?;
        tracing::info!(token_id = %issued.id, player_id = %issued.player, "player token issued");
        Ok(encode::issued(&issued))
    })
    .await
}

pub(super) async fn revoke_player_token<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::RevokePlayerTokenRequest>,
) -> Result<Response<pb::RevokePlayerTokenResponse>, Status> {
    let span = rpc_span("RevokePlayerToken", &request, "", "");
    traced(span, async {
        api.ready()?;
        let what = decode::revoke(request.get_ref())?;
        let revoked = api.store.revoke_player_tokens(what.clone()).await?;
        tracing::info!(?what, revoked, "player tokens revoked");
        Ok(pb::RevokePlayerTokenResponse {
            revoked: u32::try_from(revoked).unwrap_or(u32::MAX),
        })
    })
    .await
}

pub(super) async fn adjust_clock<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::AdjustClockRequest>,
) -> Result<Response<pb::AdjustClockResponse>, Status> {
    let req = request.get_ref();
    let span = rpc_span("AdjustClock", &request, &req.game_id, "");
    traced(span, async {
        api.ready()?;
        // The call's access row (arbiter) let only an API key holder in, where keys are
        // configured: the caller acts for no seat.
        let (id, side, adjust) = clocks::adjust_clock(req)?;
        let acted = api
            .store
            .act(
                id,
                Holder::Arbiter(side),
                Action::AdjustClock(adjust),
                |_, _| Ok(()),
            )
            .await?;
        tracing::info!(game_id = %id, ?side, ?adjust, "clock adjusted by an arbiter");
        Ok(pb::AdjustClockResponse {
            game: Some(encode::game_as(
                &acted.view,
                pb::GameView::Full,
                Some(&api.move_lists),
                // The platform where it holds a key; on a server without keys, anyone, who
                // sees a hidden game as a spectator does.
                Sight::unseated(&caller(&request)).viewer(acted.view.hides()),
            )),
        })
    })
    .await
}
