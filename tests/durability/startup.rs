//! A database that cannot be used stops the server at start, with one clear line and a
//! non-zero exit, and is left as it was.

use crate::support::{self, DataDir, Server};

/// A second server on a directory another server holds exits at once, saying it is locked;
/// the first one goes on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locked_database_stops_the_second_server() {
    let dir = DataDir::new("locked");
    let first = Server::start(dir.path(), &[]);
    let (status, output) = support::start_failing(dir.path(), &[]);
    assert!(!status.success(), "the second server exited with {status}");
    assert!(
        output.contains("is locked by another process"),
        "output: {output}"
    );
    let mut client = first.client().await;
    support::create(&mut client, support::chess("a", "b")).await;
}

/// A file that is not a SQLite database is refused, and not overwritten.
#[test]
fn corrupt_database_is_refused_and_kept() {
    let dir = DataDir::new("corrupt");
    let path = dir.path().join("chessd.db");
    let garbage = b"this is not a database, but somebody's data all the same\n".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    let (status, output) = support::start_failing(dir.path(), &[]);
    assert!(!status.success(), "exited with {status}");
    assert!(output.contains("is damaged"), "output: {output}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        garbage,
        "the file was changed"
    );
}

/// A data directory that cannot be created is a start error too.
#[test]
fn unusable_directory_is_refused() {
    let dir = DataDir::new("unusable");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let (status, output) = support::start_failing(&file.join("data"), &[]);
    assert!(!status.success(), "exited with {status}");
    assert!(
        output.contains("cannot open the database"),
        "output: {output}"
    );
}

/// A database from a newer chessd (a higher schema version) is refused, and so is a SQLite
/// file chessd did not create; neither is changed.
#[test]
fn unknown_databases_are_refused() {
    for (name, setup, message) in [
        ("newer", "PRAGMA user_version = 99;", "schema version 99"),
        (
            "foreign",
            "CREATE TABLE notes (text TEXT);",
            "did not create",
        ),
    ] {
        let dir = DataDir::new(name);
        let path = dir.path().join("chessd.db");
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch(setup)
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let (status, output) = support::start_failing(dir.path(), &[]);
        assert!(!status.success(), "{name}: exited with {status}");
        assert!(output.contains(message), "{name}: output: {output}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "{name}: the file was changed"
        );
    }
}
