//! The example bot (`crates/bot/examples/bot.rs`) against a real server: two bots finish a game, also when
//! their connections are cut in the middle of it. And chessd-bot (its runner, in-process) at
//! the wide family's games, known by key only: Fairy-Stockfish at Grand (10x10), at each other
//! game it has, and at BrainKing's Horde and Massacre (loaded from the bot's variants file),
//! Stockfish at Corner, `chessd random-engine` at Berolina and Legan, which no installed
//! engine has, Fairy-Stockfish refused for Berolina, and `chessd play` creating a game by key.

#[allow(dead_code)] // `main` and its flags are the example binary's, unused here.
#[path = "../crates/bot/examples/bot.rs"]
mod bot;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chessd::ServerConfig;
use chessd::proto::game_service_client::GameServiceClient;
use chessd::proto::{self as pb};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::{Channel, Endpoint};

/// Starts chessd on 127.0.0.1:0; dropping the sender stops it.
async fn server() -> (SocketAddr, oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(chessd::run(listener, ServerConfig::default(), async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

fn channel(addr: SocketAddr) -> Channel {
    Endpoint::from_shared(format!("http://{addr}"))
        .expect("endpoint")
        .connect_lazy()
}

async fn create(addr: SocketAddr, variant: pb::Variant) -> pb::CreateGameResponse {
    GameServiceClient::new(channel(addr))
        .create_game(pb::CreateGameRequest {
            variant: variant as i32,
            white_player: "bot-a".into(),
            black_player: "bot-b".into(),
            ..Default::default()
        })
        .await
        .expect("create game")
        .into_inner()
}

async fn final_game(addr: SocketAddr, id: &str) -> pb::Game {
    GameServiceClient::new(channel(addr))
        .get_game(pb::GetGameRequest { game_id: id.into() })
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("game")
}

/// Both bots report the server's outcome, and each played its share of the moves.
fn check_finished(game: &pb::Game, ends: &[bot::GameEnd; 2]) {
    let outcome = game
        .outcome
        .as_ref()
        .unwrap_or_else(|| panic!("game not over at {}", game.fen));
    for end in ends {
        assert_eq!(
            end.result, outcome.pgn_result,
            "final position {}",
            game.fen
        );
    }
    let played: u32 = ends.iter().map(|e| e.moves_played).sum();
    assert_eq!(
        played, game.ply,
        "moves the bots played vs the game's ply at {}",
        game.fen
    );
    assert_ne!(ends[0].side, ends[1].side, "the bots found different sides");
}

async fn two_bots(
    addr_a: SocketAddr,
    addr_b: SocketAddr,
    created: &pb::CreateGameResponse,
) -> [bot::GameEnd; 2] {
    let id = created.game.as_ref().expect("game").game_id.clone();
    let (ca, cb) = (channel(addr_a), channel(addr_b));
    let (ia, ib) = (id.clone(), id);
    let (ta, tb) = (created.white_token.clone(), created.black_token.clone());
    // Black's bot starts first: neither is told its colour, each must find it.
    let b = tokio::spawn(async move { bot::play(cb, &ib, &tb).await });
    let a = tokio::spawn(async move { bot::play(ca, &ia, &ta).await });
    let both = tokio::time::timeout(Duration::from_secs(60), async {
        (a.await.expect("bot task"), b.await.expect("bot task"))
    })
    .await
    .expect("the bots finish within 60 s");
    match both {
        (Ok(a), Ok(b)) => [a, b],
        (a, b) => panic!("a bot failed: {a:?} / {b:?}"),
    }
}

/// Two bots, each given only the game id and its token, play a chess game to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_finish_a_chess_game() {
    let (addr, _stop) = server().await;
    let created = create(addr, pb::Variant::Chess).await;
    let ends = two_bots(addr, addr, &created).await;
    let game = final_game(addr, &created.game.as_ref().unwrap().game_id).await;
    check_finished(&game, &ends);
    assert_eq!(ends[0].side, Some(chessd_rules::Color::White));
}

/// A TCP proxy whose open connections can all be cut at once; new connections still get
/// through, as after a network blip.
struct Proxy {
    addr: SocketAddr,
    open: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accepted: Arc<AtomicUsize>,
}

impl Proxy {
    async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let addr = listener.local_addr().expect("addr");
        let open: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let accepted = Arc::new(AtomicUsize::new(0));
        let (o, a) = (open.clone(), accepted.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                a.fetch_add(1, Ordering::SeqCst);
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                o.lock().unwrap().push(link);
            }
        });
        Proxy {
            addr,
            open,
            accepted,
        }
    }
}

/// Drops every open connection of a proxy (both directions close).
fn cut(open: &Mutex<Vec<JoinHandle<()>>>) {
    for link in open.lock().unwrap().drain(..) {
        link.abort();
    }
}

/// Racing Kings bots whose connections are cut five times mid-game resume from their last
/// seq and finish the game; every move is counted once (no move lost or played twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_survive_dropped_streams() {
    let (addr, _stop) = server().await;
    let proxy = Proxy::start(addr).await;
    let created = create(addr, pb::Variant::RacingKings).await;
    let id = created.game.as_ref().unwrap().game_id.clone();
    let cutter = {
        let open = proxy.open.clone();
        let id = id.clone();
        tokio::spawn(async move {
            let mut client = GameServiceClient::new(channel(addr));
            let mut cuts = 0;
            let mut last_ply = 0;
            // Cut after every few plies, while the game goes on.
            while cuts < 5 {
                tokio::time::sleep(Duration::from_millis(5)).await;
                let game = client
                    .get_game(pb::GetGameRequest {
                        game_id: id.clone(),
                    })
                    .await
                    .expect("get game")
                    .into_inner()
                    .game
                    .expect("game");
                if game.status != pb::GameStatus::Ongoing as i32 {
                    break;
                }
                if game.ply >= last_ply + 2 {
                    cut(&open);
                    cuts += 1;
                    last_ply = game.ply;
                }
            }
            cuts
        })
    };
    let ends = two_bots(proxy.addr, proxy.addr, &created).await;
    let cuts = cutter.await.expect("cutter");
    let game = final_game(addr, &id).await;
    check_finished(&game, &ends);
    let resumes: u32 = ends.iter().map(|e| e.resumes).sum();
    assert!(
        cuts >= 1,
        "the game ended before any cut ({} plies)",
        game.ply
    );
    assert!(resumes >= 1, "{cuts} cuts but no resume");
    assert!(
        proxy.accepted.load(Ordering::SeqCst) > 2,
        "the bots reconnected through the proxy"
    );
    eprintln!(
        "{cuts} cuts, {resumes} resumes, {} plies, {}",
        game.ply, ends[0].result
    );
}

/// A game of the wide family, created by its key alone (it has no `Variant` number).
async fn create_game(addr: SocketAddr, request: pb::CreateGameRequest) -> pb::CreateGameResponse {
    GameServiceClient::new(channel(addr))
        .create_game(pb::CreateGameRequest {
            white_player: "bot-a".into(),
            black_player: "bot-b".into(),
            ..request
        })
        .await
        .expect("create game")
        .into_inner()
}

/// chessd-bot's runner playing one seat of game `id` with `engine` (and `engine_args`), as
/// `chessd-bot --game ID --token TOKEN --engine ENGINE` would.
fn chessd_bot(
    addr: SocketAddr,
    id: &str,
    token: &str,
    engine: &str,
    engine_args: &[&str],
) -> JoinHandle<Result<chessd_bot::runner::GameEnd, chessd_bot::RunError>> {
    use clap::Parser;
    let url = format!("http://{addr}");
    let mut args = vec![
        "chessd-bot",
        "--addr",
        &url,
        "--game",
        id,
        "--token",
        token,
        "--engine",
        engine,
        "--untimed-movetime",
        "20ms",
    ];
    for arg in engine_args {
        args.extend(["--engine-arg", arg]);
    }
    let cli = chessd_bot::cli::Cli::try_parse_from(args).expect("bot flags");
    let settings = chessd_bot::config::Settings::from_cli(&cli).expect("bot settings");
    let (id, token) = (id.to_owned(), token.to_owned());
    tokio::spawn(async move { chessd_bot::run_single(&settings, &id, &token).await })
}

/// Both seats of a `key` game played by chessd-bot with `engine`, to the game's end or
/// `plies` plies, whichever comes first; returns the game as the server has it then.
async fn bots_play_by_key(key: &str, engine: &str, engine_args: &[&str], plies: u32) -> pb::Game {
    let request = pb::CreateGameRequest {
        variant_key: key.into(),
        ..Default::default()
    };
    bots_play(request, engine, engine_args, plies).await
}

/// Both seats of the game `request` creates (named by its key) played by chessd-bot, as
/// [`bots_play_by_key`].
async fn bots_play(
    request: pb::CreateGameRequest,
    engine: &str,
    engine_args: &[&str],
    plies: u32,
) -> pb::Game {
    let key = request.variant_key.clone();
    let key = key.as_str();
    let (addr, _stop) = server().await;
    let created = create_game(addr, request).await;
    let game = created.game.as_ref().expect("game");
    assert_eq!(
        (game.variant, game.variant_key.as_str()),
        (pb::Variant::Unspecified as i32, key)
    );
    let id = game.game_id.clone();
    let mut white = chessd_bot(addr, &id, &created.white_token, engine, engine_args);
    let mut black = chessd_bot(addr, &id, &created.black_token, engine, engine_args);
    let mut client = GameServiceClient::new(channel(addr));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let game = loop {
        let game = final_game(addr, &id).await;
        if game.status != pb::GameStatus::Ongoing as i32 || game.ply >= plies {
            break game;
        }
        // A bot that stops while the game goes on failed: its error is the test's message. It
        // also stops at the game's end, which may have come since the read above.
        if white.is_finished() || black.is_finished() {
            let again = final_game(addr, &id).await;
            if again.status != pb::GameStatus::Ongoing as i32 || again.ply >= plies {
                break again;
            }
            for bot in [&mut white, &mut black] {
                if bot.is_finished() {
                    let end = bot.await.expect("bot task");
                    panic!("{key}: a bot stopped at ply {}: {end:?}", again.ply);
                }
            }
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{key}: stuck at ply {} ({})",
            game.ply,
            game.fen
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    if game.status == pb::GameStatus::Ongoing as i32 {
        // The engines' processes are killed when their runners drop.
        white.abort();
        black.abort();
    } else {
        for bot in [white, black] {
            let end = tokio::time::timeout(Duration::from_secs(10), bot)
                .await
                .expect("the bot stops at the game's end")
                .expect("bot task")
                .unwrap_or_else(|e| panic!("{key}: the bot failed: {e}"));
            let outcome = game.outcome.as_ref().expect("outcome");
            assert_eq!(end.result, outcome.pgn_result);
        }
    }
    let legal = client
        .get_game(pb::GetGameRequest { game_id: id })
        .await
        .expect("get game")
        .into_inner()
        .game
        .expect("game");
    eprintln!(
        "{key}: {} plies, {} ({})",
        legal.ply,
        legal
            .outcome
            .as_ref()
            .map_or("*", |o| o.pgn_result.as_str()),
        legal.fen
    );
    legal
}

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// The Debian engine these tests play, which must be installed: they never skip silently.
fn fairy_stockfish() -> &'static str {
    assert!(
        std::path::Path::new(FAIRY_STOCKFISH).exists(),
        "{FAIRY_STOCKFISH} is missing: install it with `apt-get install -y fairy-stockfish`"
    );
    FAIRY_STOCKFISH
}

/// Grand Chess (10x10, `10` ranks in FENs, two-digit ranks in moves): Fairy-Stockfish
/// against itself through chessd-bot, every move the server's to accept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_plays_grand_by_key() {
    let game = bots_play_by_key("grand", fairy_stockfish(), &[], 40).await;
    assert!(
        game.ply >= 40 || game.status == pb::GameStatus::Finished as i32,
        "{game:?}"
    );
    assert_eq!(game.geometry.map(|g| (g.files, g.ranks)), Some((10, 10)));
    assert_eq!(game.moves.len(), game.ply as usize);
}

/// Every other game Fairy-Stockfish 11.1 has built in, and Massacre from the bot's variants
/// file: twenty plies each (or the end), so each game's own move texts (6x6 and 10x8 boards,
/// castling as each writes it, fairy promotions, drops) pass from engine to server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_plays_each_of_its_wide_games() {
    let fsf = fairy_stockfish();
    for key in [
        "losalamos",
        "janus",
        "embassy",
        "capablanca",
        "caparandom",
        "extinction",
        "amazon",
        "knightmate",
        "loop",
        "massacre",
    ] {
        let game = bots_play_by_key(key, fsf, &[], 20).await;
        assert!(
            game.ply >= 20 || game.status == pb::GameStatus::Finished as i32,
            "{key}: {game:?}"
        );
    }
}

/// BrainKing's Horde, which Fairy-Stockfish 11.1 lacks: the bot loads its own variants file
/// into the engine (VariantPath), and the engine plays it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_plays_bkhorde_from_the_bots_variants_file() {
    let game = bots_play_by_key("bkhorde", fairy_stockfish(), &[], 30).await;
    assert!(
        game.ply >= 30 || game.status == pb::GameStatus::Finished as i32,
        "{game:?}"
    );
}

/// Corner Chess is chess from a start of its own: Stockfish, which knows no variants, plays
/// it from the server's FEN.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_plays_corner_from_its_start() {
    let stockfish = "/usr/games/stockfish";
    assert!(
        std::path::Path::new(stockfish).exists(),
        "{stockfish} is missing: install it with `apt-get install -y stockfish`"
    );
    let game = bots_play_by_key("corner", stockfish, &[], 30).await;
    assert!(
        game.ply >= 30 || game.status == pb::GameStatus::Finished as i32,
        "{game:?}"
    );
    assert!(game.start_fen.starts_with('k'), "{}", game.start_fen);
}

/// Berolina and Legan, which no installed engine has: `chessd random-engine` plays them
/// through chessd-bot like any UCI engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_random_engine_plays_berolina_and_legan() {
    let chessd = env!("CARGO_BIN_EXE_chessd");
    for key in ["berolina", "legan"] {
        let game = bots_play_by_key(key, chessd, &["random-engine"], 60).await;
        assert!(
            game.ply >= 60 || game.status == pb::GameStatus::Finished as i32,
            "{key}: {game:?}"
        );
    }
}

/// The seed site's own games, the games of chance, Dark Chess (each bot seeing only its seat's
/// view), Ambiguous Chess's two-part turns and Screen Chess's secret setup (each bot places its
/// own army), which no engine anywhere plays: `chessd random-engine` plays them through
/// chessd-bot like any UCI engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_random_engine_plays_the_seed_sites_games() {
    let chessd = env!("CARGO_BIN_EXE_chessd");
    for key in [
        "cylinder",
        "knightrelay",
        "cheshirecat",
        "recycle",
        "iceage",
        "dice",
        "dice10x10",
        "behemoth",
        // Each bot sees only its seat's view of Dark Chess.
        "dark",
        "ambiguous",
        // Each bot places its army behind the screen, then plays from the revealed start.
        "screen",
        "crazyscreen",
    ] {
        let game = bots_play_by_key(key, chessd, &["random-engine"], 60).await;
        assert!(
            game.ply >= 60 || game.status == pb::GameStatus::Finished as i32,
            "{key}: {game:?}"
        );
    }
}

/// In a game with the players' entropy each bot commits to a secret of its own and reveals it
/// once both have committed, then plays the game the key draws.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_add_their_own_entropy() {
    let chessd = env!("CARGO_BIN_EXE_chessd");
    for key in ["dice", "behemoth"] {
        let request = pb::CreateGameRequest {
            variant_key: key.into(),
            player_entropy: true,
            ..Default::default()
        };
        let game = bots_play(request, chessd, &["random-engine"], 30).await;
        let round = game.entropy.as_ref().expect("the round");
        assert_eq!(round.phase, pb::EntropyPhase::Done as i32, "{key}");
        assert_eq!(round.white_secret.len(), 64, "{key}");
        assert!(
            game.ply >= 30 || game.status == pb::GameStatus::Finished as i32,
            "{key}: {game:?}"
        );
    }
}

/// Fairy-Stockfish does not have Berolina: the bot says so, naming the engine and the game,
/// before a move is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fairy_stockfish_is_refused_for_berolina() {
    let (addr, _stop) = server().await;
    let request = pb::CreateGameRequest {
        variant_key: "berolina".into(),
        ..Default::default()
    };
    let created = create_game(addr, request).await;
    let id = created.game.as_ref().expect("game").game_id.clone();
    let bot = chessd_bot(addr, &id, &created.white_token, fairy_stockfish(), &[]);
    let error = tokio::time::timeout(Duration::from_secs(30), bot)
        .await
        .expect("the bot gives up at once")
        .expect("bot task")
        .expect_err("Fairy-Stockfish cannot play berolina");
    let message = error.to_string();
    assert!(
        message.contains("Fairy-Stockfish") && message.contains("cannot play berolina"),
        "{message}"
    );
    assert!(message.contains("chessd random-engine"), "{message}");
    assert_eq!(final_game(addr, &id).await.ply, 0);
}

/// `chessd play --variant berolina`: the game is created by its key, and with no installed
/// engine for it the random mover takes the engine's seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chessd_play_creates_a_wide_game_by_key() {
    let (addr, _stop) = server().await;
    let request = chessd_bot::play::PlayRequest {
        addr: format!("http://{addr}"),
        variant: "berolina".into(),
        side: chessd_bot::play::Side::White,
        engine: None,
        fallback: Some((
            env!("CARGO_BIN_EXE_chessd").into(),
            vec!["random-engine".to_owned()],
        )),
        movetime: Duration::from_millis(10),
    };
    let prepared = chessd_bot::play::prepare(&request)
        .await
        .expect("prepare the game");
    let game = final_game(addr, &prepared.game_id).await;
    assert_eq!(
        (game.variant, game.variant_key.as_str()),
        (pb::Variant::Unspecified as i32, "berolina")
    );
    assert_eq!(
        (game.white_player.as_str(), game.black_player.as_str()),
        ("you", "random mover")
    );
}
