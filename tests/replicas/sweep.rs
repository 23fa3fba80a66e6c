//! The deadline sweep is not starved by due entries whose games do not end: more than a
//! sweep's batch of them in one bucket (games whose entry says due but whose true deadline is
//! far off, as after `--abandon-after` was raised, and damaged games) are moved out of the due
//! range, and a real flag behind them in the same bucket still falls on time. And the
//! finished-games trim runs on one replica at a time: none trims while another holds the
//! lease, so replicas never together forget more than the excess.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ::redis::AsyncCommands;

use crate::support::{self, Redis};

/// Base32 digits of game ids (Crockford's, as chessd writes them).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Stale due entries written: more than the sweep's batch of 256.
const STALE: usize = 300;
/// Damaged games among the due entries.
const DAMAGED: usize = 5;

/// A game id's bucket (its value mod 16: the low 4 bits of its last digit).
fn bucket_of(id: &str) -> usize {
    let last = *id.as_bytes().last().expect("id");
    ALPHABET.iter().position(|&a| a == last).expect("base32") & 15
}

fn bucket_key(bucket: usize, name: &str) -> String {
    format!("{{chessd:b{bucket:02}}}:{name}")
}

/// Ids in `template`'s bucket, different from it and from each other: its second to fourth
/// digits replaced by `n` (the first and last stay, so do the id's range and bucket).
fn sibling(template: &str, n: usize) -> String {
    let mut id = template.as_bytes().to_vec();
    for (k, at) in (1..4).enumerate() {
        id[at] = ALPHABET[(n >> (5 * (2 - k))) & 31];
    }
    String::from_utf8(id).expect("ascii")
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_due_entries_do_not_starve_a_flag() {
    let redis = Redis::start();
    // Default --abandon-after (a day): no game here is abandoned.
    let replica = support::replica(&redis).await;
    let mut client = replica.client().await;
    let mut db = ::redis::Client::open(redis.url())
        .expect("redis url")
        .get_multiplexed_async_connection()
        .await
        .expect("connect to redis");

    let template = support::create(&mut client, None).await.id;
    let bucket = bucket_of(&template);
    let deadlines = bucket_key(bucket, "deadlines");
    let fields: Vec<(String, String)> = db
        .hgetall(bucket_key(bucket, &format!("game:{template}")))
        .await
        .expect("template hash");
    // Copies of the untimed template: real, sound games a day from abandonment, whose
    // entries say they were due at the epoch's first millisecond.
    let ids: Vec<String> = (1..)
        .map(|n| sibling(&template, n))
        .filter(|id| *id != template)
        .take(STALE + DAMAGED)
        .collect();
    let (stale, damaged) = ids.split_at(STALE);
    for id in stale {
        let _: () = db
            .hset_multiple(bucket_key(bucket, &format!("game:{id}")), &fields)
            .await
            .expect("hset");
    }
    for id in damaged {
        let _: () = db
            .hset(bucket_key(bucket, &format!("game:{id}")), "seq", 0)
            .await
            .expect("hset");
    }
    let due: Vec<(f64, &str)> = ids.iter().map(|id| (1.0, id.as_str())).collect();
    let _: () = db.zadd_multiple(&deadlines, &due).await.expect("zadd");

    // A timed game in the same bucket (others land elsewhere and just flag there).
    let seats = loop {
        let seats = support::create(&mut client, Some(support::tc(1, 0))).await;
        if bucket_of(&seats.id) == bucket {
            break seats;
        }
    };
    support::play(&mut client, &seats, 'w', "e2e4").await;
    let moved = Instant::now();
    // Watched in Redis only: any call to the game would end it on the spot, sweep or not.
    let finished = bucket_key(bucket, "finished");
    loop {
        let ended: Option<f64> = db.zscore(&finished, &seats.id).await.expect("zscore");
        if ended.is_some() {
            break;
        }
        assert!(
            moved.elapsed() < Duration::from_secs(5),
            "black's 1 s flag did not fall in 5 s: starved behind {STALE} due entries"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let game = support::get(&mut client, &seats.id).await.expect("get");
    assert_eq!(
        game.outcome.expect("outcome").termination,
        chessd::proto::Termination::TimeForfeit as i32
    );

    // Every stale entry was rewritten to its game's true deadline (a day off), every damaged
    // one moved to +inf: none is due any more.
    let still_due: usize = db
        .zcount(&deadlines, "-inf", now_ms())
        .await
        .expect("zcount");
    assert_eq!(still_due, 0, "due entries left in the bucket");
    let day_ms = 24.0 * 3600.0 * 1000.0;
    for id in stale {
        let at: Option<f64> = db.zscore(&deadlines, id).await.expect("zscore");
        let at = at.unwrap_or_else(|| panic!("{id}'s entry is gone"));
        assert!(at > now_ms() + day_ms - 60_000.0, "{id} rewritten to {at}");
    }
    for id in damaged {
        let at: Option<f64> = db.zscore(&deadlines, id).await.expect("zscore");
        assert_eq!(at, Some(f64::INFINITY), "damaged {id}");
    }
}

/// Finished games kept in the trim test.
const KEEP: usize = 10;

/// Total entries of every bucket's finished set.
async fn finished_count(db: &mut ::redis::aio::MultiplexedConnection) -> usize {
    let mut total = 0;
    for bucket in 0..16 {
        let n: usize = db
            .zcard(bucket_key(bucket, "finished"))
            .await
            .expect("zcard");
        total += n;
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_games_are_trimmed_under_the_lease_only() {
    let redis = Redis::start();
    let config = || {
        let mut config = crate::common::on_redis(redis.url(), false);
        config.store.limits.max_finished_games = KEEP;
        config
    };
    let _r0 = support::replica_with(config()).await;
    let _r1 = support::replica_with(config()).await;
    let mut db = ::redis::Client::open(redis.url())
        .expect("redis url")
        .get_multiplexed_async_connection()
        .await
        .expect("connect to redis");

    // Someone else holds the lease: nobody may trim.
    let _: () = ::redis::cmd("SET")
        .arg("{chessd:trim}")
        .arg("test")
        .arg("PX")
        .arg(60_000)
        .query_async(&mut db)
        .await
        .expect("set lease");
    // Finished entries (ended at ms 1, 2, ...) spread over the buckets by their last digit.
    let ids: Vec<String> = (0..4 * KEEP)
        .map(|n| format!("0000000000{:02}{}", n / 32, ALPHABET[n % 32] as char))
        .collect();
    for (n, id) in ids.iter().enumerate() {
        let _: () = db
            .zadd(bucket_key(bucket_of(id), "finished"), id, n as f64 + 1.0)
            .await
            .expect("zadd");
    }
    // Both replicas tick every second: two ticks each.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(
        finished_count(&mut db).await,
        ids.len(),
        "trimmed while another held the lease"
    );

    let _: () = db.del("{chessd:trim}").await.expect("release");
    let start = Instant::now();
    while finished_count(&mut db).await > KEEP {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "not trimmed in 5 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(
        finished_count(&mut db).await,
        KEEP,
        "exactly the newest kept"
    );
    for id in &ids[ids.len() - KEEP..] {
        let at: Option<f64> = db
            .zscore(bucket_key(bucket_of(id), "finished"), id)
            .await
            .expect("zscore");
        assert!(at.is_some(), "{id}, among the newest, was forgotten");
    }
}
