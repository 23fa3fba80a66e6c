//! The answers that carry no game: a player token just issued, result counts and shares,
//! and an analysis of a position.

use chessd_rules::{self as rules};

use crate::api::board::{checks_given, geometry, hands, pockets};
use crate::api::encode::game::notations;
use crate::api::encode::values::{color, outcome, proto_variant};
use crate::api::variant_key;
use crate::game::{IssuedToken, Stats};
use chessd_proto::wire as pb;

/// A player token just issued: its secret, shown this once.
#[must_use]
pub fn issued(t: &IssuedToken) -> pb::IssuePlayerTokenResponse {
    pb::IssuePlayerTokenResponse {
        player_id: t.player.to_string(),
        token: t.token.to_string(),
        token_id: t.id.to_string(),
    }
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
                    variant_key: variant_key::key(v.variant),
                }
            })
            .collect(),
    }
}

/// AnalyzePosition: what the engine says about a position.
#[must_use]
pub fn analysis(pos: &rules::any::AnyPosition) -> pb::AnalyzePositionResponse {
    pb::AnalyzePositionResponse {
        fen: pos.fen(),
        turn: color(pos.turn()),
        legal_moves: notations(pos),
        in_check: pos.is_check(),
        outcome: pos.outcome().map(outcome),
        pockets: pockets(pos),
        checks_given: checks_given(pos),
        hands: hands(pos),
        geometry: Some(geometry(pos.variant())),
        variant_key: variant_key::key(pos.variant()),
    }
}
