//! The example bot (`crates/bot/examples/bot.rs`) against a real server: two bots finish a game, also when
//! their connections are cut in the middle of it.

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
