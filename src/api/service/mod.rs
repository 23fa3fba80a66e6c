//! `GameApi`: the GameService over a store, what every handler shares (the caller's seat, the
//! move limits, the drain), and the one trait impl tonic takes. Each handler decodes its
//! request (`decode`), calls the store, and encodes the answer (`encode`), inside
//! `call::traced` (span, log line, metrics, status); the bodies live by the proto's groups:
//!
//! - `games`: create, read, list, export, stats and analysis (no seat acts).
//! - `seats`: what a seat does in its game (moves, draws, takebacks, time, claims).
//! - `streams`: WatchGame and WatchGames, the two streams.
//! - `admin`: player tokens and the arbiter's clock adjustment.

mod admin;
mod games;
mod seats;
mod streams;

use std::sync::Arc;

use chessd_rules::Color;
use tokio_util::sync::CancellationToken;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::api::call::{Credential, credential};
use crate::api::feed::{FeedSlots, FeedStream};
use crate::api::move_lists::MoveLists;
use crate::api::watch::{PeerWatchers, PumpConfig, WatchStream};
use crate::error::ServiceError;
use crate::game::error::SeatError;
use crate::game::{GameId, Holder};
use crate::security::access::{self, Caller, Presented, Sight};
use crate::security::error::AccessError;
use crate::security::gate::{Guard, rate_limited};
use crate::security::limits::seat_key;
use crate::store::GameStore;
use crate::store::stream_error::StreamError;
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

    /// Who the caller is to game `id` (its seat, if its credential holds one; whether it is
    /// the platform), or the refusal when the caller may not see the game (`access::sight`
    /// decides).
    async fn read_seat(
        &self,
        metadata: &MetadataMap,
        caller: Caller,
        id: GameId,
    ) -> Result<Sight, ServiceError> {
        let presented = match self.holder(metadata).await {
            Err(ServiceError::Access(AccessError::MissingToken)) => Presented::Nothing,
            Err(e) => Presented::Invalid(e),
            Ok((holder, _)) => match self.store.seat(id, holder).await {
                Ok((seat, _)) => Presented::Seat(seat),
                Err(
                    ServiceError::Seat(SeatError::InvalidToken)
                    | ServiceError::Seat(SeatError::PlayerNotSeated),
                ) => Presented::Unseated,
                Err(e) => return Err(e),
            },
        };
        access::sight(self.guard.server(), &caller, presented)
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
            Err(ServiceError::Stream(StreamError::ShuttingDown {
                resume_after_seq: None,
            }))
        } else {
            Ok(())
        }
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
        games::create_game(self, request).await
    }

    async fn get_game(
        &self,
        request: Request<pb::GetGameRequest>,
    ) -> Result<Response<pb::GetGameResponse>, Status> {
        games::get_game(self, request).await
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        games::list_games(self, request).await
    }

    async fn submit_move(
        &self,
        request: Request<pb::SubmitMoveRequest>,
    ) -> Result<Response<pb::SubmitMoveResponse>, Status> {
        seats::submit_move(self, request).await
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        seats::resign(self, request).await
    }

    async fn offer_draw(
        &self,
        request: Request<pb::OfferDrawRequest>,
    ) -> Result<Response<pb::OfferDrawResponse>, Status> {
        seats::offer_draw(self, request).await
    }

    async fn respond_to_draw(
        &self,
        request: Request<pb::RespondToDrawRequest>,
    ) -> Result<Response<pb::RespondToDrawResponse>, Status> {
        seats::respond_to_draw(self, request).await
    }

    async fn claim_draw(
        &self,
        request: Request<pb::ClaimDrawRequest>,
    ) -> Result<Response<pb::ClaimDrawResponse>, Status> {
        seats::claim_draw(self, request).await
    }

    async fn propose_takeback(
        &self,
        request: Request<pb::ProposeTakebackRequest>,
    ) -> Result<Response<pb::ProposeTakebackResponse>, Status> {
        seats::propose_takeback(self, request).await
    }

    async fn respond_to_takeback(
        &self,
        request: Request<pb::RespondToTakebackRequest>,
    ) -> Result<Response<pb::RespondToTakebackResponse>, Status> {
        seats::respond_to_takeback(self, request).await
    }

    async fn withdraw_takeback(
        &self,
        request: Request<pb::WithdrawTakebackRequest>,
    ) -> Result<Response<pb::WithdrawTakebackResponse>, Status> {
        seats::withdraw_takeback(self, request).await
    }

    async fn abort(
        &self,
        request: Request<pb::AbortRequest>,
    ) -> Result<Response<pb::AbortResponse>, Status> {
        seats::abort(self, request).await
    }

    async fn watch_game(
        &self,
        request: Request<pb::WatchGameRequest>,
    ) -> Result<Response<WatchStream>, Status> {
        streams::watch_game(self, request).await
    }

    async fn export_pgn(
        &self,
        request: Request<pb::ExportPgnRequest>,
    ) -> Result<Response<pb::ExportPgnResponse>, Status> {
        games::export_pgn(self, request).await
    }

    async fn get_stats(
        &self,
        request: Request<pb::GetStatsRequest>,
    ) -> Result<Response<pb::GetStatsResponse>, Status> {
        games::get_stats(self, request).await
    }

    async fn watch_games(
        &self,
        request: Request<pb::WatchGamesRequest>,
    ) -> Result<Response<FeedStream>, Status> {
        streams::watch_games(self, request).await
    }

    async fn issue_player_token(
        &self,
        request: Request<pb::IssuePlayerTokenRequest>,
    ) -> Result<Response<pb::IssuePlayerTokenResponse>, Status> {
        admin::issue_player_token(self, request).await
    }

    async fn revoke_player_token(
        &self,
        request: Request<pb::RevokePlayerTokenRequest>,
    ) -> Result<Response<pb::RevokePlayerTokenResponse>, Status> {
        admin::revoke_player_token(self, request).await
    }

    async fn add_time(
        &self,
        request: Request<pb::AddTimeRequest>,
    ) -> Result<Response<pb::AddTimeResponse>, Status> {
        seats::add_time(self, request).await
    }

    async fn adjust_clock(
        &self,
        request: Request<pb::AdjustClockRequest>,
    ) -> Result<Response<pb::AdjustClockResponse>, Status> {
        admin::adjust_clock(self, request).await
    }

    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        seats::claim_victory(self, request).await
    }

    async fn submit_setup(
        &self,
        request: Request<pb::SubmitSetupRequest>,
    ) -> Result<Response<pb::SubmitSetupResponse>, Status> {
        seats::submit_setup(self, request).await
    }

    async fn submit_entropy(
        &self,
        request: Request<pb::SubmitEntropyRequest>,
    ) -> Result<Response<pb::SubmitEntropyResponse>, Status> {
        seats::submit_entropy(self, request).await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        games::analyze_position(self, request).await
    }
}
