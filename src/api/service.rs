//! `GameApi`: the GameService handlers. Each one decodes its request (`decode`), calls the
//! store, and encodes the answer (`encode`), inside `call::traced` (span, log line, metrics,
//! status).

use std::sync::Arc;

use chessd_rules::Color;
use tokio_util::sync::CancellationToken;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};
use tracing::Span;

use crate::api::call::{Credential, caller, credential, rpc_span, traced};
use crate::api::clocks;
use crate::api::decode;
use crate::api::encode;
use crate::api::feed::{FeedPump, FeedSlots, FeedStream, PlayerMode, Reader};
use crate::api::move_lists::MoveLists;
use crate::api::pgn;
use crate::api::presence::{ClaimClock, fill};
use crate::api::watch::{PeerWatchers, Pump, PumpConfig, Seats, WatchStream};
use crate::error::ServiceError;
use crate::game::{Action, GameId, Holder};
use crate::security::access::{self, Caller, Presented};
use crate::security::gate::{Guard, rate_limited};
use crate::security::limits::seat_key;
use crate::store::GameStore;
use crate::transport::StreamReset;
use chessd_proto::wire as pb;
use chessd_proto::wire::game_service_server::GameService;

/// What the API needs of the server's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiConfig {
    /// The largest ListGames page (larger asks are capped).
    pub max_page_size: usize,
    /// Quiet time before a watcher's heartbeat.
    pub heartbeat: std::time::Duration,
    /// How long a watcher may take no message before it is cut off.
    pub stall_timeout: std::time::Duration,
}

/// The GameService implementation over a store.
#[derive(Debug)]
pub struct GameApi<S> {
    store: Arc<S>,
    /// Cancelled when the server starts draining: new calls are refused and open streams end.
    draining: CancellationToken,
    max_page_size: usize,
    /// Heartbeats, stall timeout and the drain, for every watcher's pump.
    pump: PumpConfig,
    /// The WatchGame streams each address holds (callers without an API key).
    peer_watchers: Arc<PeerWatchers>,
    /// The WatchGames streams open, in all and per address.
    feeds: Arc<FeedSlots>,
    /// API keys, rate limiters and `--private-watch`, shared with the gate.
    guard: Arc<Guard>,
    /// The encoded move lists of the games answered lately (full views).
    move_lists: MoveLists,
}

impl<S: GameStore> GameApi<S> {
    #[must_use]
    pub fn new(
        store: Arc<S>,
        config: ApiConfig,
        security: &crate::security::SecurityConfig,
        draining: CancellationToken,
    ) -> GameApi<S> {
        GameApi {
            store,
            pump: PumpConfig {
                heartbeat: config.heartbeat,
                stall: config.stall_timeout,
                draining: draining.clone(),
            },
            draining,
            max_page_size: config.max_page_size,
            move_lists: MoveLists::default(),
            peer_watchers: Arc::new(PeerWatchers::new(
                security.max_peer_watchers_per_game,
                security.max_peer_watchers,
            )),
            feeds: Arc::new(FeedSlots::new(security.max_peer_feeds, security.max_feeds)),
            guard: Arc::new(Guard::new(None, security)),
        }
    }

    /// The API shares `guard` with the gate in front of it.
    #[must_use]
    pub fn with_guard(mut self, guard: Arc<Guard>) -> GameApi<S> {
        self.guard = guard;
        self
    }

    /// Who the call's `authorization` says acts: a seat token, or the player of a player
    /// token in force (player tokens exist only where API keys do).
    async fn holder(&self, metadata: &MetadataMap) -> Result<(Holder, u64), ServiceError> {
        match credential(metadata)? {
            Credential::Seat(token) => Ok((Holder::Seat(token), seat_key(&token.digest()))),
            Credential::Player(token) => {
                self.guard.server().player_tokens()?;
                let player = self.store.player_of(token).await?;
                Ok((Holder::Player(player), seat_key(&token.digest())))
            }
        }
    }

    /// The seat the call's credential holds in game `id` (`None`: none, or no credential),
    /// or the refusal when the caller may not see the game (`access::sight` decides).
    async fn read_seat(
        &self,
        metadata: &MetadataMap,
        caller: Caller,
        id: GameId,
    ) -> Result<Option<Color>, ServiceError> {
        let presented = match self.holder(metadata).await {
            Err(ServiceError::MissingToken) => Presented::Nothing,
            Err(e) => Presented::Invalid(e),
            Ok((holder, _)) => match self.store.seat(id, holder).await {
                Ok((seat, _)) => Presented::Seat(seat),
                Err(e @ (ServiceError::InvalidToken | ServiceError::PlayerNotSeated)) => {
                    Presented::Unseated(e)
                }
                Err(e) => return Err(e),
            },
        };
        access::sight(self.guard.server(), &caller, presented).map(|sight| sight.seat)
    }

    /// The rate limits of a move, decided where the store has the game (see
    /// `GameStore::act`): a move on the seat's own turn is held only to the move floor; any
    /// other is held to the peer limit (charged by the gate) and the token limit. `key` is the
    /// token's limiter key; a player token's counts per game, as a seat token's does.
    fn admit_move(
        &self,
        caller: Caller,
        key: u64,
        id: GameId,
    ) -> impl FnOnce(Color, Option<Color>) -> Result<(), ServiceError> + Send + '_ {
        move |seat, turn| {
            if !self.guard.rate_limits {
                return Ok(());
            }
            let limiters = &self.guard.limiters;
            let key = key ^ id.get().rotate_left(17);
            let verdict = if turn == Some(seat) {
                limiters.own_move(key)
            } else if let Some(refused) = caller.deferred_refusal {
                Err(refused)
            } else {
                limiters.seat(key)
            };
            verdict.map_err(rate_limited)
        }
    }

    /// Refuses new work while draining.
    fn ready(&self) -> Result<(), ServiceError> {
        if self.draining.is_cancelled() {
            Err(ServiceError::ShuttingDown {
                resume_after_seq: None,
            })
        } else {
            Ok(())
        }
    }

    /// Runs a seat's action and encodes the game after it.
    async fn seat_action(
        &self,
        metadata: &MetadataMap,
        game_id: &str,
        action: Action,
    ) -> Result<pb::Game, ServiceError> {
        self.ready()?;
        let id = decode::game_id(game_id)?;
        let (holder, _) = self.holder(metadata).await?;
        let acted = self.store.act(id, holder, action, |_, _| Ok(())).await?;
        Ok(encode::game_as(
            &acted.view,
            pb::GameView::Full,
            Some(&self.move_lists),
        ))
    }
}

#[tonic::async_trait]
impl<S: GameStore> GameService for GameApi<S> {
    type WatchGameStream = WatchStream;
    type WatchGamesStream = FeedStream;

    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let span = rpc_span("CreateGame", &request, "", &request.get_ref().request_id);
        traced(span, async {
            self.ready()?;
            let new = decode::new_game(request.into_inner())?;
            let created = self.store.create(new).await?;
            Span::current().record("game_id", tracing::field::display(created.view.id));
            Ok(encode::created(&created))
        })
        .await
    }

    async fn get_game(
        &self,
        request: Request<pb::GetGameRequest>,
    ) -> Result<Response<pb::GetGameResponse>, Status> {
        let span = rpc_span("GetGame", &request, &request.get_ref().game_id, "");
        traced(span, async {
            self.ready()?;
            let id = decode::game_id(&request.get_ref().game_id)?;
            let seat = self
                .read_seat(request.metadata(), caller(&request), id)
                .await?;
            // Both at once: on Redis each is a round trip, and neither needs the other.
            let (view, presence) =
                tokio::try_join!(self.store.get(id), self.store.read_presence(id))?;
            let mut game = encode::game_as(&view, pb::GameView::Full, Some(&self.move_lists));
            fill(&mut game, &ClaimClock::of(&view), &presence);
            Ok(pb::GetGameResponse {
                game: Some(game),
                seat: encode::maybe_color(seat),
            })
        })
        .await
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        let span = rpc_span("ListGames", &request, "", "");
        traced(span, async {
            self.ready()?;
            let query = decode::list_query(request.get_ref(), self.max_page_size)?;
            Ok(encode::page(&self.store.list(query).await?))
        })
        .await
    }

    async fn submit_move(
        &self,
        request: Request<pb::SubmitMoveRequest>,
    ) -> Result<Response<pb::SubmitMoveResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("SubmitMove", &request, &req.game_id, &req.request_id);
        traced(span, async {
            self.ready()?;
            let (id, action) = decode::submit_move(request.get_ref())?;
            let (holder, key) = self.holder(request.metadata()).await?;
            let admit = self.admit_move(caller(&request), key, id);
            let acted = self.store.act(id, holder, action, admit).await?;
            Ok(encode::submitted(
                &acted,
                request.get_ref().view,
                &self.move_lists,
            ))
        })
        .await
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let span = rpc_span("Resign", &request, &request.get_ref().game_id, "");
        traced(span, async {
            let game = self
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

    async fn offer_draw(
        &self,
        request: Request<pb::OfferDrawRequest>,
    ) -> Result<Response<pb::OfferDrawResponse>, Status> {
        let span = rpc_span("OfferDraw", &request, &request.get_ref().game_id, "");
        traced(span, async {
            let game = self
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

    async fn respond_to_draw(
        &self,
        request: Request<pb::RespondToDrawRequest>,
    ) -> Result<Response<pb::RespondToDrawResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("RespondToDraw", &request, &req.game_id, "");
        traced(span, async {
            let action = Action::RespondToDraw { accept: req.accept };
            let game = self
                .seat_action(request.metadata(), &req.game_id, action)
                .await?;
            Ok(pb::RespondToDrawResponse { game: Some(game) })
        })
        .await
    }

    async fn claim_draw(
        &self,
        request: Request<pb::ClaimDrawRequest>,
    ) -> Result<Response<pb::ClaimDrawResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("ClaimDraw", &request, &req.game_id, "");
        traced(span, async {
            let action = Action::ClaimDraw(decode::claim(req.claim)?);
            let game = self
                .seat_action(request.metadata(), &req.game_id, action)
                .await?;
            Ok(pb::ClaimDrawResponse { game: Some(game) })
        })
        .await
    }

    async fn propose_takeback(
        &self,
        request: Request<pb::ProposeTakebackRequest>,
    ) -> Result<Response<pb::ProposeTakebackResponse>, Status> {
        let span = rpc_span("ProposeTakeback", &request, &request.get_ref().game_id, "");
        traced(span, async {
            let game = self
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

    async fn respond_to_takeback(
        &self,
        request: Request<pb::RespondToTakebackRequest>,
    ) -> Result<Response<pb::RespondToTakebackResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("RespondToTakeback", &request, &req.game_id, "");
        traced(span, async {
            let action = Action::RespondToTakeback { accept: req.accept };
            let game = self
                .seat_action(request.metadata(), &req.game_id, action)
                .await?;
            Ok(pb::RespondToTakebackResponse { game: Some(game) })
        })
        .await
    }

    async fn abort(
        &self,
        request: Request<pb::AbortRequest>,
    ) -> Result<Response<pb::AbortResponse>, Status> {
        let span = rpc_span("Abort", &request, &request.get_ref().game_id, "");
        traced(span, async {
            let game = self
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

    async fn watch_game(
        &self,
        request: Request<pb::WatchGameRequest>,
    ) -> Result<Response<WatchStream>, Status> {
        let req = request.get_ref();
        let span = rpc_span("WatchGame", &request, &req.game_id, "");
        let caller = caller(&request);
        let reset = request
            .extensions()
            .get::<StreamReset>()
            .cloned()
            .unwrap_or_default();
        traced(span, async {
            self.ready()?;
            let id = decode::game_id(&req.game_id)?;
            let seat = self.read_seat(request.metadata(), caller, id).await?;
            // Backends (an API key) watch many games from few addresses; `--no-rate-limits`
            // is for a trusted network, often behind one proxy address.
            let peer = match caller.peer {
                Some(ip) if caller.key.is_none() && self.guard.rate_limits => {
                    Some(self.peer_watchers.admit(ip, id)?)
                }
                _ => None,
            };
            let follow = self.store.presence().follow(id);
            let subscription = self.store.watch(id, req.after_seq).await?;
            // A resumed stream has no snapshot to learn the turn from.
            let clock = if req.after_seq > 0 {
                let view = self.store.get(id).await?;
                Some((ClaimClock::of(&view), view.last_seq))
            } else {
                None
            };
            // Counted once the stream is sure to open, and before its pump reads the presence
            // for the snapshot, so the seat sees itself connected.
            let present = seat.map(|seat| self.store.presence().join(id, seat));
            let (stream, feed) = WatchStream::channel(id);
            let seats = Seats::new(follow, clock);
            let pump = Pump::new(
                id,
                subscription,
                (peer, present),
                seat,
                seats,
                &self.pump,
                reset,
                feed,
            );
            tokio::spawn(pump.run());
            Ok(stream)
        })
        .await
    }

    async fn export_pgn(
        &self,
        request: Request<pb::ExportPgnRequest>,
    ) -> Result<Response<pb::ExportPgnResponse>, Status> {
        let span = rpc_span("ExportPgn", &request, &request.get_ref().game_id, "");
        traced(span, async {
            self.ready()?;
            let id = decode::game_id(&request.get_ref().game_id)?;
            self.read_seat(request.metadata(), caller(&request), id)
                .await?;
            let view = self.store.get(id).await?;
            Ok(pb::ExportPgnResponse {
                pgn: pgn::pgn(&view),
            })
        })
        .await
    }

    async fn get_stats(
        &self,
        request: Request<pb::GetStatsRequest>,
    ) -> Result<Response<pb::GetStatsResponse>, Status> {
        let span = rpc_span("GetStats", &request, "", "");
        traced(span, async {
            self.ready()?;
            let labels = decode::labels(&request.get_ref().labels)?;
            Ok(encode::stats(&self.store.stats(&labels).await?))
        })
        .await
    }

    async fn watch_games(
        &self,
        request: Request<pb::WatchGamesRequest>,
    ) -> Result<Response<FeedStream>, Status> {
        let span = rpc_span("WatchGames", &request, "", "");
        let caller = caller(&request);
        let reset = request
            .extensions()
            .get::<StreamReset>()
            .cloned()
            .unwrap_or_default();
        traced(span, async {
            self.ready()?;
            let (after, mut filter) = decode::feed_request(request.get_ref())?;
            let player = match credential(request.metadata()) {
                Ok(Credential::Player(token)) => {
                    self.guard.server().player_tokens()?;
                    let player = self.store.player_of(token).await?;
                    if filter.player.as_ref().is_some_and(|p| *p != player) {
                        return Err(ServiceError::PlayerNotSeated);
                    }
                    filter.player = Some(player.clone());
                    Some(PlayerMode { player, token })
                }
                Err(e @ ServiceError::InvalidPlayerToken) => return Err(e),
                // No player token: the whole feed, a backend's read (the gate required its
                // key where keys are needed).
                _ => None,
            };
            let peer = caller
                .peer
                .filter(|_| caller.key.is_none() && self.guard.rate_limits);
            let place = self.feeds.admit(peer)?;
            let subscription = self
                .store
                .feed(after, player.as_ref().map(|m| m.player.clone()))
                .await?;
            let (stream, feed) = FeedStream::channel("feed");
            let pump = FeedPump::new(
                self.store.clone(),
                subscription,
                Reader { filter, player },
                place,
                &self.pump,
                reset,
                feed,
            );
            tokio::spawn(pump.run());
            Ok(stream)
        })
        .await
    }

    async fn issue_player_token(
        &self,
        request: Request<pb::IssuePlayerTokenRequest>,
    ) -> Result<Response<pb::IssuePlayerTokenResponse>, Status> {
        let span = rpc_span("IssuePlayerToken", &request, "", "");
        traced(span, async {
            self.ready()?;
            let player = decode::token_player(request.get_ref())?;
            let issued = self.store.issue_player_token(player).await?;
            tracing::info!(token_id = %issued.id, player_id = %issued.player, "player token issued");
            Ok(encode::issued(&issued))
        })
        .await
    }

    async fn revoke_player_token(
        &self,
        request: Request<pb::RevokePlayerTokenRequest>,
    ) -> Result<Response<pb::RevokePlayerTokenResponse>, Status> {
        let span = rpc_span("RevokePlayerToken", &request, "", "");
        traced(span, async {
            self.ready()?;
            let what = decode::revoke(request.get_ref())?;
            let revoked = self.store.revoke_player_tokens(what.clone()).await?;
            tracing::info!(?what, revoked, "player tokens revoked");
            Ok(pb::RevokePlayerTokenResponse {
                revoked: u32::try_from(revoked).unwrap_or(u32::MAX),
            })
        })
        .await
    }

    async fn add_time(
        &self,
        request: Request<pb::AddTimeRequest>,
    ) -> Result<Response<pb::AddTimeResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("AddTime", &request, &req.game_id, "");
        traced(span, async {
            let (_, action) = clocks::add_time(req)?;
            let game = self
                .seat_action(request.metadata(), &req.game_id, action)
                .await?;
            Ok(pb::AddTimeResponse { game: Some(game) })
        })
        .await
    }

    async fn adjust_clock(
        &self,
        request: Request<pb::AdjustClockRequest>,
    ) -> Result<Response<pb::AdjustClockResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("AdjustClock", &request, &req.game_id, "");
        traced(span, async {
            self.ready()?;
            // The call's access row (arbiter) let only an API key holder in, where keys are
            // configured: the caller acts for no seat.
            let (id, side, adjust) = clocks::adjust_clock(req)?;
            let acted = self
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
                    Some(&self.move_lists),
                )),
            })
        })
        .await
    }

    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        let req = request.get_ref();
        let span = rpc_span("ClaimVictory", &request, &req.game_id, "");
        traced(span, async {
            self.ready()?;
            let id = decode::game_id(&req.game_id)?;
            let (holder, _) = self.holder(request.metadata()).await?;
            // Read before the claim: a seat that connects in between is too late to stop it,
            // as if it had connected just after.
            let presence = self.store.read_presence(id).await?;
            let action = Action::ClaimVictory {
                draw: req.draw,
                presence,
            };
            let acted = self.store.act(id, holder, action, |_, _| Ok(())).await?;
            let mut game = encode::game_as(&acted.view, pb::GameView::Full, Some(&self.move_lists));
            fill(&mut game, &ClaimClock::of(&acted.view), &presence);
            Ok(pb::ClaimVictoryResponse { game: Some(game) })
        })
        .await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        let span = rpc_span("AnalyzePosition", &request, "", "");
        traced(span, async {
            self.ready()?;
            let position = decode::analysis_request(request.get_ref())?;
            Ok(encode::analysis(&position))
        })
        .await
    }
}
