//! The memory store's own checks: what an idle game costs, retention, and the watch channel's
//! life.

use chessd_rules::{
    Color, DrawRule,
    any::{AnyPosition, AnyVariant},
};

use super::*;
use crate::game::error::PlayError;
use crate::game::{MoveText, Players};
use crate::store::game_store::GameFilter;
use crate::store::store_error::StoreError;

/// Lets every action in.
fn admit_all(_: chessd_rules::Color, _: Option<chessd_rules::Color>) -> Result<(), ServiceError> {
    Ok(())
}

fn limits() -> StoreLimits {
    StoreLimits {
        max_live_games: 10,
        max_finished_games: 2,
        max_watchers_per_game: 4,
        watch_buffer: 8,
        retention: None,
        abandon_after: None,
        feed_retention: std::time::Duration::from_secs(3600),
        feed_max_events: 1000,
    }
}

fn new_game() -> NewGame {
    NewGame {
        start: AnyPosition::new(AnyVariant::CHESS),
        draw_start: false,
        time_control: None,
        start_rules: crate::game::StartRules::default(),
        players: Players {
            white: "alice".into(),
            black: "bob".into(),
            ..Players::default()
        },
        draw_rule: DrawRule::Claim,
        request_id: None,
        labels: Labels::default(),
        takebacks: crate::game::TakebackPolicy::Off,
        seat_tokens: chessd_rules::ByColor::new(true, true),
        claim_after: std::time::Duration::from_secs(120),
        public_delay: 0,
        player_entropy: false,
    }
}

fn white(created: &Created) -> Holder {
    Holder::Seat(created.tokens.white().expect("a seat token"))
}

/// An idle new game fits in 1 KiB: its slot and map entry, its header (shared with the feed)
/// and the player names, and its record with what the record holds on the heap (no event log,
/// no channel, no request ids yet). `chessd-heap` counts the same with the allocator.
#[tokio::test]
async fn idle_game_is_small() {
    let store = MemoryStore::new(limits());
    let created = store.create(new_game()).await.unwrap();
    let entry = store.inner.find(created.view.id).unwrap();
    let state = entry.lock();
    let arc_counts = 2 * size_of::<usize>();
    let bytes = arc_counts
        + size_of::<GameEntry>()
        + size_of::<(GameId, Arc<GameEntry>)>() * 3 / 2 // map entry, with B-tree slack
        + arc_counts
        + size_of::<crate::game::GameHeader>()
        + entry.header.players.white.len()
        + entry.header.players.black.len()
        + state.held.heap_bytes();
    eprintln!("an idle game takes {bytes} bytes");
    assert!(bytes <= 1024, "an idle game takes {bytes} bytes");
}

/// A timed game has one entry in the flag timer's queue while it runs, however many moves
/// move its deadline, and none once it is over.
#[tokio::test]
async fn a_finished_game_leaves_no_deadline() {
    let store = MemoryStore::new(limits());
    let mut new = new_game();
    new.time_control = Some(crate::game::TimeControl::even(
        std::time::Duration::from_secs(60),
        std::time::Duration::from_secs(1),
    ));
    let created = store.create(new).await.unwrap();
    let id = created.view.id;
    let black = || Holder::Seat(created.tokens.black().expect("a seat token"));
    assert_eq!(store.inner.deadlines.len(), 1);
    for (i, (mv, seat)) in [
        ("e2e4", white(&created)),
        ("e7e5", black()),
        ("g1f3", white(&created)),
    ]
    .into_iter()
    .enumerate()
    {
        let action = Action::Move {
            text: MoveText::Uci(mv.parse().unwrap()),
            expected_ply: Some(i as u32),
            request_id: None,
            offer_draw: false,
        };
        store.act(id, seat, action, admit_all).await.unwrap();
        assert_eq!(store.inner.deadlines.len(), 1, "after {mv}");
    }
    store
        .act(id, black(), Action::Resign, admit_all)
        .await
        .unwrap();
    assert!(store.inner.deadlines.is_empty());
}

/// Finished games beyond the retention limit are forgotten, oldest first; statistics keep
/// counting them.
#[tokio::test]
async fn retention_keeps_stats() {
    let store = MemoryStore::new(limits());
    let mut ids = Vec::new();
    for _ in 0..3 {
        let created = store.create(new_game()).await.unwrap();
        let id = created.view.id;
        store
            .act(id, white(&created), Action::Resign, admit_all)
            .await
            .unwrap();
        ids.push(id);
    }
    assert!(matches!(
        store.get(ids[0]).await,
        Err(ServiceError::Store(StoreError::GameNotFound { .. }))
    ));
    let view: GameView = store.get(ids[2]).await.unwrap();
    assert!(view.game.is_over());
    assert_eq!(store.len(), 2);
    let stats = store.stats(&Labels::default()).await.unwrap();
    assert_eq!(stats.variants[0].black_wins, 3);
}

/// Unwatched games hold no broadcast channel; the last watcher leaving drops it at the next
/// event.
#[tokio::test]
async fn channel_only_while_watched() {
    let store = MemoryStore::new(limits());
    let created = store.create(new_game()).await.unwrap();
    let id = created.view.id;
    let entry = store.inner.find(id).unwrap();
    assert!(entry.lock().watchers.is_none());
    let subscription = store.watch(id, 0).await.unwrap();
    assert!(entry.lock().watchers.is_some());
    drop(subscription);
    store
        .act(id, white(&created), Action::OfferDraw, admit_all)
        .await
        .unwrap();
    assert!(entry.lock().watchers.is_none());
}

/// A finished game is held packed, answers reads as it did when it ended (its view, its page
/// summary, its replay), refuses a late move as over, and is packed again after each call.
#[tokio::test]
async fn finished_games_are_held_packed() {
    let store = MemoryStore::new(limits());
    let created = store.create(new_game()).await.unwrap();
    let id = created.view.id;
    let entry = store.inner.find(id).unwrap();
    for text in ["e4", "e5"] {
        let seat = if text == "e4" {
            white(&created)
        } else {
            Holder::Seat(created.tokens.black().expect("a seat token"))
        };
        let mv = Action::Move {
            text: crate::api::decode::move_text(text).unwrap(),
            expected_ply: None,
            request_id: None,
            offer_draw: false,
        };
        store.act(id, seat, mv, admit_all).await.unwrap();
    }
    assert!(
        !entry.lock().held.is_packed(),
        "an ongoing game is held as it is"
    );
    let ended = store
        .act(id, white(&created), Action::Resign, admit_all)
        .await
        .unwrap()
        .view;
    assert!(entry.lock().held.is_packed(), "packed once over");
    let view = store.get(id).await.unwrap();
    assert_eq!(
        crate::api::encode::game(&view, crate::game::Viewer::Whole),
        crate::api::encode::game(&ended, crate::game::Viewer::Whole)
    );
    assert!(entry.lock().held.is_packed(), "packed again after a read");
    let page = store
        .list(ListQuery {
            page_size: 10,
            before: None,
            filter: GameFilter::default(),
        })
        .await
        .unwrap();
    assert_eq!(page.games.len(), 1);
    assert_eq!(
        (page.games[0].ply, page.games[0].outcome),
        (2, view.game.outcome())
    );
    let replayed: Vec<_> = store.watch(id, 1).await.unwrap().replay.collect();
    assert_eq!(replayed.len(), 2, "the second move and the end");
    let late = Action::Move {
        text: crate::api::decode::move_text("Nf3").unwrap(),
        expected_ply: None,
        request_id: None,
        offer_draw: false,
    };
    let refused = store.act(id, white(&created), late, admit_all).await;
    assert!(
        matches!(refused, Err(ServiceError::Play(PlayError::GameOver))),
        "{refused:?}"
    );
    assert!(entry.lock().held.is_packed());
    assert_eq!(
        store.seat(id, white(&created)).await.unwrap(),
        (Color::White, None)
    );
}
