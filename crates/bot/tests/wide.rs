//! The `chessd-bot` binary at the wide family's games, created by key (no `Variant` number):
//! Fairy-Stockfish against itself at Capablanca (10x8) to the end, at Massacre from a
//! variants file given with `--variants-file`, at Loop (drops) for a few dozen plies, and at
//! shogi, minishogi and xiangqi, over UCI and (shogi and minishogi) over USI.

mod support;

use std::time::Duration;

use chessd_bot::proto as pb;
use support::*;

/// Shallow and quick: these tests prove the bot speaks each game, not that it plays well.
const QUICK: [&str; 4] = ["--depth", "6", "--untimed-movetime", "30ms"];

/// Both seats of a `key` game played by Fairy-Stockfish with `extra` flags, to the end, or
/// to `plies` plies and then stopped; returns the game and the `engine ready` line's variant.
async fn fairy_plays(key: &str, extra: &[&str], plies: Option<u32>) -> (pb::Game, String) {
    let (game, logs) = fairy_plays_logged(key, extra, plies).await;
    (game, ready_field(&logs, "variant"))
}

/// A field of White's bot's `engine ready` line.
fn ready_field(logs: &[serde_json::Value], name: &str) -> String {
    let ready = logs
        .iter()
        .find(|l| message(l) == "engine ready")
        .expect("engine ready");
    field(ready, name)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned()
}

/// [`fairy_plays`], returning White's bot's logs.
async fn fairy_plays_logged(
    key: &str,
    extra: &[&str],
    plies: Option<u32>,
) -> (pb::Game, Vec<serde_json::Value>) {
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
    eprintln!("{key}: {} plies, {}", game.ply, result(&game));
    (game, wlogs)
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

/// The commands White's bot wrote to its engine.
fn to_engine(logs: &[serde_json::Value]) -> Vec<String> {
    logs.iter()
        .filter(|l| message(l) == "to engine")
        .filter_map(|l| field(l, "command").and_then(|c| c.as_str()))
        .map(str::to_owned)
        .collect()
}

/// Fairy-Stockfish in USI mode (`--protocol usi`): shogi for forty plies and minishogi to the
/// end, every move the engine wrote in USI (`7g7f`, `P*5e`) accepted by the server; the engine
/// heard USI's words (`usinewgame`, `position startpos moves 7g7f`, sente's clock as `btime`)
/// and, at minishogi's end, `gameover`.
#[tokio::test]
async fn fairy_stockfish_plays_shogi_and_minishogi_over_usi() {
    for (key, plies) in [("shogi", Some(40)), ("minishogi", None)] {
        let (game, logs) = fairy_plays_logged(key, &["--protocol", "usi"], plies).await;
        assert_eq!(ready_field(&logs, "variant"), key);
        assert_eq!(ready_field(&logs, "protocol"), "usi");
        match plies {
            Some(n) => assert!(
                game.ply >= n || game.status == pb::GameStatus::Finished as i32,
                "{key}: {game:?}"
            ),
            None => assert_eq!(game.status, pb::GameStatus::Finished as i32, "{game:?}"),
        }
        let sent = to_engine(&logs);
        for word in ["usi", "usinewgame"] {
            assert!(sent.iter().any(|c| c == word), "{key}: no {word}: {sent:?}");
        }
        assert!(
            !sent
                .iter()
                .any(|c| c == "uci" || c.starts_with("position fen")),
            "{key}: UCI words sent: {sent:?}"
        );
        // Every move the server recorded reached the engine in USI, in order.
        let usi = chessd_bot::uci::usi::Usi::for_variant(key).expect("a shogi game");
        let moves: Vec<String> = game
            .moves
            .iter()
            .map(|m| usi.usi_move(&m.uci).expect("a shogi move"))
            .collect();
        let longest = sent
            .iter()
            .filter_map(|c| c.strip_prefix("position startpos moves "))
            .max_by_key(|m| m.len())
            .expect("a position with moves");
        let shown: Vec<&str> = longest.split(' ').collect();
        let n = shown.len().min(moves.len());
        assert!(n + 2 >= moves.len().min(40), "{key}: {longest}");
        assert_eq!(shown[..n], moves[..n], "{key}");
        assert!(
            sent.iter().any(|c| c.starts_with("go btime ")),
            "{key}: {sent:?}"
        );
        if plies.is_none() {
            assert!(
                sent.iter().any(|c| c.starts_with("gameover ")),
                "{key}: no gameover: {sent:?}"
            );
        }
        eprintln!("{key} over USI: {}", game.moves.len());
    }
}

/// A USI engine's own words: `bestmove resign` resigns the game for it; `bestmove win` (the
/// impasse declaration, in a game the server goes on with) is taken as no move, so the engine
/// is restarted and, declaring again, given up on.
#[tokio::test]
async fn a_usi_engine_resigns_and_declares() {
    let fairy = engine(FAIRY_STOCKFISH);
    let script = fake_engine();
    for mode in ["usi-resign", "usi-win"] {
        let server = Server::start().await;
        let mut client = server.client().await;
        let seats = create_by_key(&mut client, "shogi").await;
        let mut fake = vec!["--engine", "python3", "--engine-arg", &script];
        fake.extend(["--engine-arg", fairy, "--engine-arg", mode]);
        fake.extend(["--protocol", "usi"]);
        fake.extend(QUICK);
        let mut plain = vec!["--engine", fairy, "--protocol", "usi"];
        plain.extend(QUICK);
        let url = server.url();
        let white = Bot::spawn("white", &url, &seats.id, &seats.white, &fake, &[]);
        let black = Bot::spawn("black", &url, &seats.id, &seats.black, &plain, &[]);
        if mode == "usi-resign" {
            let game = game_over(&mut client, &seats.id, Duration::from_secs(60)).await;
            let (ws, logs) = white.finish(Duration::from_secs(30)).await;
            let (bs, _) = black.finish(Duration::from_secs(30)).await;
            assert!(ws.success() && bs.success(), "exits {ws} {bs}");
            assert_eq!(result(&game), "0-1 TERMINATION_RESIGNATION");
            assert_eq!(game.ply, 4, "resigned at its third move: {game:?}");
            assert_eq!(
                count(&logs, "resigning: the engine resigned (bestmove resign)"),
                1
            );
        } else {
            let (ws, logs) = white.finish(Duration::from_secs(60)).await;
            black.terminate();
            let _ = black.finish(Duration::from_secs(30)).await;
            assert!(
                !ws.success(),
                "the bot gives up on an engine that only declares"
            );
            assert!(
                count(
                    &logs,
                    "the engine declared an impasse win (bestmove win) in a game that goes on; the server's impasse rule does not grant it"
                ) >= 3
            );
            let game = get(&mut client, &seats.id).await;
            assert_eq!(game.ply, 0, "{game:?}");
        }
    }
}
