//! The handlers that create, read, list and describe games, where no seat acts: CreateGame,
//! GetGame, ListGames, ExportPgn, GetStats and AnalyzePosition.

use tonic::{Request, Response, Status};
use tracing::Span;

use crate::api::call::{caller, rpc_span, traced};
use crate::api::presence::{ClaimClock, fill};
use crate::api::service::GameApi;
use crate::api::{decode, encode, pgn};
use crate::game::Viewer;
use crate::game::delay;
use crate::security::access::Sight;
use crate::security::error::AccessError;
use crate::store::GameStore;
use chessd_proto::wire as pb;

pub(super) async fn create_game<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::CreateGameRequest>,
) -> Result<Response<pb::CreateGameResponse>, Status> {
    let span = rpc_span("CreateGame", &request, "", &request.get_ref().request_id);
    traced(span, async {
        api.ready()?;
        // Without an API key under --page-create: a game started from the page.
        let who = caller(&request);
        if let (Some(page), None) = (&api.guard.page_create, who.key) {
            page.admit(request.get_ref(), who.peer, api.guard.rate_limits)?;
        }
        let new = decode::new_game(request.into_inner())?;
        let created = api.store.create(new).await?;
        Span::current().record("game_id", tracing::field::display(created.view.id));
        Ok(encode::created(&created))
    })
    .await
}

pub(super) async fn get_game<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::GetGameRequest>,
) -> Result<Response<pb::GetGameResponse>, Status> {
    let span = rpc_span("GetGame", &request, &request.get_ref().game_id, "");
    traced(span, async {
        api.ready()?;
        let id = decode::game_id(&request.get_ref().game_id)?;
        let sight = api
            .read_seat(request.metadata(), caller(&request), id)
            .await?;
        // Both at once: on Redis each is a round trip, and neither needs the other.
        let (view, presence) = tokio::try_join!(api.store.get(id), api.store.read_presence(id))?;
        let viewer = sight.viewer(view.hides());
        let mut game = match delay::for_viewer(&view, viewer) {
            // The delayed game is no prefix the move lists keep: encoded afresh.
            Some(delayed) => encode::game_as(&delayed, pb::GameView::Full, None, Viewer::Whole),
            None => encode::game_as(&view, pb::GameView::Full, Some(&api.move_lists), viewer),
        };
        fill(&mut game, &ClaimClock::of(&view), &presence);
        Ok(pb::GetGameResponse {
            game: Some(game),
            seat: encode::maybe_color(sight.seat),
        })
    })
    .await
}

pub(super) async fn list_games<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ListGamesRequest>,
) -> Result<Response<pb::ListGamesResponse>, Status> {
    let span = rpc_span("ListGames", &request, "", "");
    traced(span, async {
        api.ready()?;
        let query = decode::list_query(request.get_ref(), api.max_page_size)?;
        let sight = Sight::unseated(&caller(&request));
        Ok(encode::page(&api.store.list(query).await?, sight))
    })
    .await
}

pub(super) async fn export_pgn<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::ExportPgnRequest>,
) -> Result<Response<pb::ExportPgnResponse>, Status> {
    let span = rpc_span("ExportPgn", &request, &request.get_ref().game_id, "");
    traced(span, async {
        api.ready()?;
        let id = decode::game_id(&request.get_ref().game_id)?;
        let sight = api
            .read_seat(request.metadata(), caller(&request), id)
            .await?;
        let view = api.store.get(id).await?;
        let viewer = sight.viewer(view.hides());
        let view = match delay::for_viewer(&view, viewer) {
            Some(delayed) => delayed,
            None if viewer.is_whole() => view,
            None => return Err(AccessError::RecordHidden.into()),
        };
        Ok(pb::ExportPgnResponse {
            pgn: pgn::pgn(&view),
            kif: pgn::kif(&view),
        })
    })
    .await
}

pub(super) async fn get_stats<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::GetStatsRequest>,
) -> Result<Response<pb::GetStatsResponse>, Status> {
    let span = rpc_span("GetStats", &request, "", "");
    traced(span, async {
        api.ready()?;
        let labels = decode::labels(&request.get_ref().labels)?;
        Ok(encode::stats(&api.store.stats(&labels).await?))
    })
    .await
}

pub(super) async fn analyze_position<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::AnalyzePositionRequest>,
) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
    let span = rpc_span("AnalyzePosition", &request, "", "");
    traced(span, async {
        api.ready()?;
        let position = decode::analysis_request(request.get_ref())?;
        Ok(encode::analysis(&position))
    })
    .await
}
