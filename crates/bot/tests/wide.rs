//! The `chessd-bot` binary at the wide family's games, created by key (no `Variant` number):
//! Fairy-Stockfish against itself at Capablanca (10x8) to the end, at Massacre from a
//! variants file given with `--variants-file`, at Loop (drops) for a few dozen plies, and at
//! shogi, minishogi and xiangqi.

mod support;

use std::time::Duration;

use chessd_bot::proto as pb;
use support::*;

/// Shallow and quick: these tests prove the bot speaks each game, not that it plays well.
const QUICK: [&str; 4] = ["--depth", "6", "--untimed-movetime", "30ms"];

/// Both seats of a `key` game played by Fairy-Stockfish with `extra` flags, to the end, or
/// to `plies` plies and then stopped; returns the game and the `engine ready` line's variant.
async fn fairy_plays(key: &str, extra: &[&str], plies: Option<u32>) -> (pb::Game, String) {
    let fairy = engine(FAIRY_STOCKFISH);
    let server = Server::start().await;
    let mut client = server.client().await;
    let seats = create_by_key(&mut client, key).await;
    let mut args = vec!["--engine", fairy];
    args.extend(QUICK);
    args.extend(extra);
    let white = Bot::spawn("white", &server.url(), &seats.id, &seats.white, &args, &[]);
    let black = Bot::spawn("black", &server.url(), &seats.id, &seats.black, &args, &[]);
    let game = match plies {
        Some(n) => {
            let game = reach_ply(&mut client, &seats.id, n, Duration::from_secs(120)).await;
            white.terminate();
            black.terminate();
            game
        }
        None => game_over(&mut client, &seats.id, Duration::from_secs(180)).await,
    };
    let (ws, wlogs) = white.finish(Duration::from_secs(30)).await;
    let (bs, _) = black.finish(Duration::from_secs(30)).await;
    if plies.is_none() {
        assert!(ws.success() && bs.success(), "exits {ws} {bs}");
    }
    let ready = wlogs
        .iter()
        .find(|l| message(l) == "engine ready")
        .expect("engine ready");
    let name = field(ready, "variant")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned();
    eprintln!("{key}: {} plies, {}", game.ply, result(&game));
    (game, name)
}

/// Capablanca (10x8, files to j, archbishop and chancellor): to the end, every move the
/// engine chose on the wide board accepted by the server.
#[tokio::test]
async fn fairy_stockfish_plays_capablanca_to_the_end() {
    let (game, variant) = fairy_plays("capablanca", &[], None).await;
    assert_eq!(variant, "capablanca");
    assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}");
    assert_eq!(game.geometry.map(|g| (g.files, g.ranks)), Some((10, 8)));
}

/// Massacre from the user's own variants file (a copy of the bot's, elsewhere): the bot loads
/// it into the engine and the game, every move a capture, plays to its end.
#[tokio::test]
async fn a_variants_file_given_by_flag_is_loaded() {
    let dir = std::env::temp_dir().join(format!("chessd-bot-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mine.ini");
    std::fs::write(&file, chessd_bot::variants_file::BUNDLED).expect("write the file");
    let path = file.to_str().expect("utf-8 path").to_owned();
    let (game, variant) = fairy_plays("massacre", &["--variants-file", &path], None).await;
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(variant, "massacre");
    assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}");
    assert!(game.moves.iter().all(|m| m.san.contains('x')), "{game:?}");
}

/// Loop (drops back into play, `P@e5`): forty plies of it, drops included once pieces are
/// taken.
#[tokio::test]
async fn fairy_stockfish_plays_loop() {
    let (game, variant) = fairy_plays("loop", &[], Some(40)).await;
    assert_eq!(variant, "loop");
    assert!(game.ply >= 40 || game.status == pb::GameStatus::Finished as i32);
    eprintln!(
        "loop moves: {:?}",
        game.moves
            .iter()
            .map(|m| m.uci.as_str())
            .collect::<Vec<_>>()
    );
}

/// Shogi, minishogi and xiangqi: Fairy-Stockfish asked for each by its key plays moves the
/// server accepts (shogi's promotions `b2h8+` and drops `P@e5`, xiangqi's tenth rank);
/// minishogi to the end.
#[tokio::test]
async fn fairy_stockfish_plays_shogi_minishogi_and_xiangqi() {
    for (key, plies) in [
        ("shogi", Some(60)),
        ("xiangqi", Some(40)),
        ("minishogi", None),
    ] {
        let (game, variant) = fairy_plays(key, &[], plies).await;
        assert_eq!(variant, key);
        match plies {
            Some(n) => assert!(
                game.ply >= n || game.status == pb::GameStatus::Finished as i32,
                "{key}: {game:?}"
            ),
            None => assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}"),
        }
        let moves: Vec<&str> = game.moves.iter().map(|m| m.uci.as_str()).collect();
        eprintln!("{key} moves: {moves:?}");
    }
}
