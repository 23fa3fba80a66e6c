//! A game as clients read it: the full or basic view (move list and legal moves), a list's
//! summaries and page, and the answers that carry a game (CreateGame, SubmitMove).

use bytes::Bytes;
use chessd_rules::{self as rules};

use crate::api::board::{checks_given, geometry, hands, pockets};
use crate::api::encode::entropy;
use crate::api::encode::setup;
use crate::api::encode::values::{
    clock_start, clocks, color, labels, maybe_color, outcome, player_id, proto_time_control,
    proto_variant, status, takeback_policy, timestamp,
};
use crate::api::move_lists::{self, MoveLists};
use crate::api::variant_key;
use crate::game::codec::hex;
use crate::game::entropy::EntropyPhase;
use crate::game::setup::awaiting_setup;
use crate::game::{
    Acted, ClockStart, Created, GameStatus, GameSummary, GameView, HIDDEN_MOVE, MoveInfo, Viewer,
};
use crate::security::access::Sight;
use crate::store::GamePage;
use chessd_proto::wire as pb;

/// Every legal move of `pos` in both notations.
pub(super) fn notations(pos: &rules::any::AnyPosition) -> Vec<pb::MoveNotation> {
    pos.notations()
        .into_iter()
        .map(|(uci, san)| pb::MoveNotation { uci, san })
        .collect()
}

/// The full state of a game as `viewer` sees it, its move list encoded afresh (creations,
/// snapshots).
#[must_use]
pub fn game(view: &GameView, viewer: Viewer) -> Box<pb::Game> {
    game_as(view, pb::GameView::Full, None, viewer)
}

/// The state of a game in `detail`, as `viewer` sees it: the basic view leaves out the move
/// list and the legal moves. With `lists`, the move list is the server's encoded one,
/// extended by the moves since its last answer about the game. Boxed, as the messages that
/// carry it hold it (it is over a kilobyte: see `chessd-proto`'s build).
#[must_use]
pub fn game_as(
    view: &GameView,
    detail: pb::GameView,
    lists: Option<&MoveLists>,
    viewer: Viewer,
) -> Box<pb::Game> {
    let full = detail != pb::GameView::Basic;
    let g = &view.game;
    let pos = &g.position();
    let whole = viewer.is_whole();
    // A setup not revealed: the board being set up stands in for a position not there yet.
    let setting_up = view
        .setup
        .as_ref()
        .filter(|_| awaiting_setup(pos))
        .map(|s| setup::board(s, pos, viewer));
    let moves = match (full, lists) {
        (false, _) => Bytes::new(),
        (true, _) if !whole => move_lists::seen_moves(g, viewer),
        (true, Some(lists)) => lists.encoded(view.id, g),
        (true, None) => move_lists::all_moves(g),
    };
    let legal_moves = if g.is_over()
        || !full
        || !viewer.sees_moves_of(pos.turn())
        || setting_up.is_some()
        || view
            .entropy
            .as_ref()
            .is_some_and(|e| e.phase() != EntropyPhase::Done)
        || view.delayed
    {
        Bytes::new()
    } else {
        move_lists::legal_moves(pos)
    };
    let fields = chessd_proto::Game {
        game_id: view.id.to_string(),
        variant: proto_variant(pos.variant()),
        white_player: view.players.white.to_string(),
        black_player: view.players.black.to_string(),
        start_fen: match &setting_up {
            Some(board) => board.clone(),
            None if whole => start_fen(&g.start_position()),
            None => viewer.fen(&g.start()),
        },
        fen: match &setting_up {
            Some(board) => board.clone(),
            None => viewer.fen(pos),
        },
        ply: g.ply(),
        // In `moves` and `legal_moves` below, encoded.
        moves: Vec::new(),
        legal_moves: Vec::new(),
        // White moves first once the setup is revealed.
        turn: color(if setting_up.is_some() {
            rules::Color::White
        } else {
            pos.turn()
        }),
        // Whether a king is attacked is the board's to tell.
        in_check: whole && setting_up.is_none() && pos.is_check(),
        status: status(view.status()),
        outcome: g.outcome().map(outcome),
        time_control: view.time_control.map(proto_time_control),
        clocks: view.clocks.as_ref().map(clocks),
        draw_rule: match g.draw_rule() {
            rules::DrawRule::Claim => pb::DrawRule::Claim as i32,
            rules::DrawRule::Automatic => pb::DrawRule::Automatic as i32,
        },
        draw_offer: maybe_color(view.draw_offer),
        takebacks: takeback_policy(view.takebacks),
        takeback_offer: maybe_color(view.takeback_offer),
        last_seq: view.last_seq,
        created_at: Some(timestamp(view.created_at)),
        pockets: pockets(pos).filter(|_| whole),
        checks_given: checks_given(pos).filter(|_| whole),
        labels: labels(&view.labels),
        white_player_id: player_id(&view.players, rules::Color::White),
        black_player_id: player_id(&view.players, rules::Color::Black),
        clock_start: if view.time_control.is_some() {
            clock_start(view.start_rules.clock_start)
        } else {
            pb::ClockStart::Unspecified as i32
        },
        first_move_deadline: view.first_move_deadline.map(timestamp),
        clock_start_at: match view.start_rules.clock_start {
            ClockStart::At(at) => Some(timestamp(at)),
            _ => None,
        },
        // Presence is not the game's: the API sets it where it reads it (`api::presence`).
        white_presence: None,
        black_presence: None,
        geometry: Some(geometry(pos.variant())),
        variant_key: variant_key::key(pos.variant()),
        hands: hands(pos).filter(|_| whole),
        seed_sha256: view
            .chance
            .as_ref()
            .map(|c| hex(&c.commitment))
            .unwrap_or_default(),
        seed: view
            .chance
            .as_ref()
            .and_then(|c| c.seed.as_ref())
            .map(|s| hex(s.as_bytes()))
            .unwrap_or_default(),
        setup: view.setup.as_ref().map(|s| setup::setup(s, viewer)),
        public_delay_plies: u32::from(view.public_delay),
        entropy: view.entropy.as_ref().map(entropy::entropy),
    };
    Box::new(pb::Game {
        fields,
        moves,
        legal_moves,
    })
}

/// A game's start as FEN. Most games begin from their variant's start, whose FEN is a
/// constant: copied rather than written out again on every answer (SubmitMove's included).
pub(super) fn start_fen(start: &rules::any::AnyStart) -> String {
    if start.is_standard() {
        start.variant().start_fen().to_owned()
    } else {
        start.position().fen()
    }
}

/// A game in a list, as a caller with no seat in it (`sight`: the platform, or a spectator)
/// sees it.
#[must_use]
fn summary(s: &GameSummary, sight: Sight) -> pb::GameSummary {
    let viewer = sight.viewer(s.variant.hides_board() && s.outcome.is_none());
    pb::GameSummary {
        game_id: s.id.to_string(),
        variant: proto_variant(s.variant),
        white_player: s.players.white.to_string(),
        black_player: s.players.black.to_string(),
        status: status(GameStatus::of(s.outcome)),
        outcome: s.outcome.map(outcome),
        ply: s.ply,
        fen: if awaiting_setup(&s.position) {
            setup::empty_board()
        } else {
            viewer.fen(&s.position)
        },
        created_at: Some(timestamp(s.created_at)),
        labels: labels(&s.labels),
        white_player_id: player_id(&s.players, rules::Color::White),
        black_player_id: player_id(&s.players, rules::Color::Black),
        variant_key: variant_key::key(s.variant),
        geometry: Some(geometry(s.variant)),
    }
}

/// A page of games, as a caller with no seat in them (`sight`) sees it.
#[must_use]
pub(crate) fn page(p: &GamePage, sight: Sight) -> pb::ListGamesResponse {
    pb::ListGamesResponse {
        games: p.games.iter().map(|s| summary(s, sight)).collect(),
        next_page_token: p.next.map(|id| id.to_string()).unwrap_or_default(),
    }
}

/// A move as played.
#[must_use]
pub fn played(m: &MoveInfo) -> pb::PlayedMove {
    pb::PlayedMove {
        uci: m.mv.to_string(),
        san: m.san.clone(),
        ply: m.ply,
        color: color(m.color),
        seq: m.seq,
    }
}

/// A move its viewer may not see (a hidden game's opponent's): only that it was made, by
/// whom, at which ply and seq, its notations [`HIDDEN_MOVE`].
#[must_use]
pub(super) fn unseen(ply: u32, by: rules::Color, seq: u64) -> pb::PlayedMove {
    pb::PlayedMove {
        uci: HIDDEN_MOVE.to_owned(),
        san: HIDDEN_MOVE.to_owned(),
        ply,
        color: color(by),
        seq,
    }
}

/// A new game with its seat tokens, seen whole: its creator holds both seats.
#[must_use]
pub fn created(c: &Created) -> pb::CreateGameResponse {
    pb::CreateGameResponse {
        game: Some(game(&c.view, Viewer::Whole)),
        white_token: c.tokens.white().map(|t| t.to_string()).unwrap_or_default(),
        black_token: c.tokens.black().map(|t| t.to_string()).unwrap_or_default(),
    }
}

/// The answer to SubmitMove, with the game in `detail` (unknown values mean the full view) as
/// `viewer` (the seat that moved) sees it.
#[must_use]
pub fn submitted(
    a: &Acted,
    detail: i32,
    lists: &MoveLists,
    viewer: Viewer,
) -> pb::SubmitMoveResponse {
    let detail = pb::GameView::try_from(detail).unwrap_or(pb::GameView::Full);
    pb::SubmitMoveResponse {
        r#move: a.played.as_ref().map(played),
        game: Some(game_as(&a.view, detail, Some(lists), viewer)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer's start FEN is what writing the start out gives: the variant's constant for a
    /// standard start, the position itself for any other (move counters included).
    #[test]
    fn start_fen_is_the_written_start() {
        for variant in rules::any::AnyVariant::all() {
            let start = rules::any::AnyPosition::new(variant);
            assert_eq!(start_fen(&start.into()), start.fen(), "{variant}");
        }
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let Ok(start) = rules::any::AnyPosition::from_fen(rules::any::AnyVariant::CHESS, fen)
            else {
                panic!("{fen} is a valid position");
            };
            assert_eq!(start_fen(&start.into()), fen);
        }
    }
}
