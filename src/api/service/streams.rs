//! The handlers that open the two streams: WatchGame (one game) and WatchGames (the feed).
//! Each admits the stream against its bounds, subscribes, and hands the rest to a pump task.

use tonic::{Request, Response, Status};

use crate::api::call::{Credential, credential};
use crate::api::call::{caller, rpc_span, traced};
use crate::api::decode;
use crate::api::feed::{FeedPump, FeedStream, PlayerMode, Reader};
use crate::api::presence::ClaimClock;
use crate::api::service::GameApi;
use crate::api::watch::{Pump, Seats, WatchStream};
use crate::error::ServiceError;
use crate::game::delay;
use crate::game::error::SeatError;
use crate::security::error::AccessError;
use crate::store::GameStore;
use crate::transport::StreamReset;
use chessd_proto::wire as pb;

pub(super) async fn watch_game<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::WatchGameRequest>,
) -> Result<Response<WatchStream>, Status> {
    let req = request.get_ref();
    let span = rpc_span("WatchGame", &request, &req.game_id, "");
    let caller = caller(&request);
    let reset = stream_reset(&request);
    traced(span, async {
        api.ready()?;
        let id = decode::game_id(&req.game_id)?;
        let sight = api.read_seat(request.metadata(), caller, id).await?;
        // Backends (an API key) watch many games from few addresses; `--no-rate-limits`
        // is for a trusted network, often behind one proxy address.
        let peer = match caller.peer {
            Some(ip) if caller.key.is_none() && api.guard.rate_limits => {
                Some(api.peer_watchers.admit(ip, id)?)
            }
            _ => None,
        };
        let follow = api.store.presence().follow(id);
        let mut subscription = api.store.watch(id, req.after_seq).await?;
        // A resumed stream has no snapshot to learn the turn from. A spectator shown a
        // delayed view resumes from a snapshot instead: its events are those of the delayed
        // game, which only a snapshot begins (rare: subscribed again).
        let clock = if req.after_seq > 0 {
            let view = api.store.get(id).await?;
            if delay::for_viewer(&view, sight.viewer(view.hides())).is_some() {
                subscription = api.store.watch(id, 0).await?;
                None
            } else {
                Some((ClaimClock::of(&view), view.last_seq))
            }
        } else {
            None
        };
        // Counted once the stream is sure to open, and before its pump reads the presence
        // for the snapshot, so the seat sees itself connected.
        let present = sight.seat.map(|seat| api.store.presence().join(id, seat));
        let (stream, feed) = WatchStream::channel(id);
        let seats = Seats::new(follow, clock);
        let pump = Pump::new(
            id,
            subscription,
            (peer, present),
            sight,
            seats,
            &api.pump,
            reset,
            feed,
        );
        tokio::spawn(pump.run());
        Ok(stream)
    })
    .await
}

pub(super) async fn watch_games<S: GameStore>(
    api: &GameApi<S>,
    request: Request<pb::WatchGamesRequest>,
) -> Result<Response<FeedStream>, Status> {
    let span = rpc_span("WatchGames", &request, "", "");
    let caller = caller(&request);
    let reset = stream_reset(&request);
    traced(span, async {
        api.ready()?;
        let (after, mut filter) = decode::feed_request(request.get_ref())?;
        let player = match credential(request.metadata()) {
            Ok(Credential::Player(token)) => {
                api.guard.server().player_tokens()?;
                let player = api.store.player_of(token).await?;
                if filter.player.as_ref().is_some_and(|p| *p != player) {
                    return Err(SeatError::PlayerNotSeated.into());
                }
                filter.player = Some(player.clone());
                Some(PlayerMode { player, token })
            }
            Err(e @ ServiceError::Access(AccessError::InvalidPlayerToken)) => return Err(e),
            // No player token: the whole feed, a backend's read (the gate required its
            // key where keys are needed).
            _ => None,
        };
        let peer = caller
            .peer
            .filter(|_| caller.key.is_none() && api.guard.rate_limits);
        let place = api.feeds.admit(peer)?;
        let subscription = api
            .store
            .feed(after, player.as_ref().map(|m| m.player.clone()))
            .await?;
        let (stream, feed) = FeedStream::channel("feed");
        let pump = FeedPump::new(
            api.store.clone(),
            subscription,
            Reader {
                filter,
                player,
                platform: caller.key.is_some(),
            },
            place,
            &api.pump,
            reset,
            feed,
        );
        tokio::spawn(pump.run());
        Ok(stream)
    })
    .await
}

/// The transport's way to end this call's stream at once (one that does nothing for a call
/// served some other way).
fn stream_reset<T>(request: &Request<T>) -> StreamReset {
    request
        .extensions()
        .get::<StreamReset>()
        .cloned()
        .unwrap_or_default()
}
