//! WatchGames' messages: the feed's events, each repeating its game's header, and
//! heartbeats at the stream's cursor.

use std::time::SystemTime;

use chessd_rules as rules;

use crate::api::board::geometry;
use crate::api::encode::game::{start_fen, unseen};
use crate::api::encode::setup;
use crate::api::encode::values::{
    clocks, color, labels, maybe_color, outcome, player_id, proto_time_control, proto_variant,
    timestamp,
};
use crate::api::variant_key;
use crate::game::{FeedEvent, FeedKind, GameHeader, Viewer};
use crate::security::access::Sight;
use chessd_proto::wire as pb;

/// What never changes in a game, as every feed event repeats it, as `viewer` sees it.
#[must_use]
pub fn header(g: &GameHeader, viewer: Viewer) -> pb::GameHeader {
    pb::GameHeader {
        game_id: g.id.to_string(),
        variant: proto_variant(g.variant()),
        white_player: g.players.white.to_string(),
        black_player: g.players.black.to_string(),
        white_player_id: player_id(&g.players, rules::Color::White),
        black_player_id: player_id(&g.players, rules::Color::Black),
        labels: labels(&g.labels),
        time_control: g.time_control().map(proto_time_control),
        // A game with a secret setup begins on the empty board its players set up on; its
        // start comes with the reveal (GetGame).
        start_fen: if g.variant().has_secret_setup() {
            setup::empty_board()
        } else if viewer.is_whole() {
            start_fen(&g.start)
        } else {
            viewer.fen(&g.start.position())
        },
        draw_rule: match g.draw_rule {
            rules::DrawRule::Claim => pb::DrawRule::Claim as i32,
            rules::DrawRule::Automatic => pb::DrawRule::Automatic as i32,
        },
        created_at: Some(timestamp(g.created_at())),
        variant_key: variant_key::key(g.variant()),
        geometry: Some(geometry(g.variant())),
    }
}

/// One event of a WatchGames stream, after which the stream stands at `cursor` (empty for a
/// running game announced at a player-mode stream's start), for a consumer that is `sight`
/// to the event's game (its player's seat there, in player mode; the platform or not).
#[must_use]
pub(crate) fn feed_event(e: &FeedEvent, cursor: String, sight: Sight) -> pb::WatchGamesResponse {
    use pb::watch_games_response::Event as E;
    let byoyomi = e.game.time_control().and_then(|tc| tc.byoyomi);
    let variant = e.game.variant();
    let viewer =
        sight.viewer(variant.hides_board() && !matches!(e.kind, FeedKind::Finished { .. }));
    let seat = maybe_color(sight.seat);
    let body = match &e.kind {
        FeedKind::Created => E::GameCreated(pb::GameCreated {
            game: Some(header(&e.game, viewer)),
            seat,
        }),
        FeedKind::Moved {
            played,
            fen,
            clocks: c,
            draw_offer,
        } => E::GameMoved(pb::GameMoved {
            game_id: e.game.id.to_string(),
            r#move: Some(if viewer.sees_moves_of(played.color) {
                pb::PlayedMove {
                    uci: played.uci.to_string(),
                    san: played.san.to_string(),
                    ply: played.ply,
                    color: color(played.color),
                    seq: played.seq,
                }
            } else {
                unseen(played.ply, played.color, played.seq)
            }),
            fen: viewer.fen_of_text(variant, fen),
            clocks: c.as_ref().map(|c| clocks(&c.reading(byoyomi))),
            draw_offer: maybe_color(*draw_offer),
            seat,
        }),
        FeedKind::TakenBack {
            ply,
            fen,
            clocks: c,
            seq,
        } => E::GameTakenBack(pb::GameTakenBack {
            game_id: e.game.id.to_string(),
            ply: *ply,
            fen: viewer.fen_of_text(variant, fen),
            clocks: c.as_ref().map(|c| clocks(&c.reading(byoyomi))),
            seq: *seq,
            seat,
        }),
        FeedKind::Finished {
            outcome: o,
            fen,
            ply,
        } => E::GameFinished(pb::GameFinished {
            game: Some(header(&e.game, viewer)),
            outcome: Some(outcome(*o)),
            fen: setup::shown_fen(variant, fen),
            ply: *ply,
            ended_at: Some(timestamp(e.at)),
            seat,
        }),
        FeedKind::Entropy(sent) => E::GameEntropy(pb::GameEntropy {
            game_id: e.game.id.to_string(),
            by: color(sent.by),
            revealed: sent.revealed,
            commitment: sent.commitment.to_string(),
            white_secret: sent
                .secrets
                .as_ref()
                .map(|s| s.white().to_string())
                .unwrap_or_default(),
            black_secret: sent
                .secrets
                .as_ref()
                .map(|s| s.black().to_string())
                .unwrap_or_default(),
            start_fen: sent.start.as_deref().unwrap_or_default().to_owned(),
            seq: sent.seq,
            seat,
        }),
    };
    pb::WatchGamesResponse {
        cursor,
        server_time: Some(timestamp(e.at)),
        event: Some(body),
    }
}

/// A WatchGames heartbeat: the stream stands at `cursor`.
#[must_use]
pub fn feed_heartbeat(cursor: String, at: SystemTime) -> pb::WatchGamesResponse {
    pb::WatchGamesResponse {
        cursor,
        server_time: Some(timestamp(at)),
        event: Some(pb::watch_games_response::Event::Heartbeat(pb::Heartbeat {})),
    }
}
