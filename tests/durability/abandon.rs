//! An abandoned game is ended by the server's timer and its outcome committed like a flag
//! fall: after a crash it is still over, with the same result, and counted.

use std::time::{Duration, Instant};

use chessd::proto as pb;

use crate::support::{self, DataDir, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandonment_is_committed() {
    let dir = DataDir::new("abandon");
    let server = Server::start(dir.path(), &["--abandon-after", "1s"]);
    let mut client = server.client().await;
    let seats = support::create(&mut client, support::chess("ann", "bob")).await;
    support::play(&mut client, &seats, 0, "e2e4", "")
        .await
        .unwrap();
    support::play(&mut client, &seats, 1, "e7e5", "")
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let game = support::get(&mut client, &seats.id).await;
        if game.status == pb::GameStatus::Finished as i32 {
            break;
        }
        assert!(Instant::now() < deadline, "never abandoned: {game:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server.kill();

    let server = Server::start(dir.path(), &["--abandon-after", "off"]);
    let mut client = server.client().await;
    let game = support::get(&mut client, &seats.id).await;
    let outcome = game.outcome.expect("the outcome survived");
    assert_eq!(
        (outcome.pgn_result.as_str(), outcome.termination),
        ("0-1", pb::Termination::Abandonment as i32)
    );
    let stats = client
        .get_stats(pb::GetStatsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(stats.variants[0].black_wins, 1);
}
