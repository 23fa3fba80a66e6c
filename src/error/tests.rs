//! The error contract's tests: every error's code and reason, the details it carries, and
//! that internals never reach a client.

use chessd_rules::{Color, DrawClaim};

use super::*;
use crate::game::GameId;

/// One example of every variant (a missing arm fails to compile in the table; a missing
/// example here would leave a row untested, and its line in `contract.txt` unmatched).
fn examples() -> Vec<(ServiceError, Code, &'static str)> {
    let id: GameId = "0000000000001".parse().unwrap();
    vec![
        (
            ServiceError::Request(RequestError::InvalidGameId),
            Code::InvalidArgument,
            "INVALID_GAME_ID",
        ),
        (
            ServiceError::Request(RequestError::InvalidVariant),
            Code::InvalidArgument,
            "INVALID_VARIANT",
        ),
        (
            ServiceError::Request(RequestError::InvalidFen {
                message: "black king missing".into(),
            }),
            Code::InvalidArgument,
            "INVALID_FEN",
        ),
        (
            ServiceError::Input(InputError::MalformedMove { text: "zz".into() }),
            Code::InvalidArgument,
            "MALFORMED_MOVE",
        ),
        (
            ServiceError::Request(RequestError::InvalidPageToken),
            Code::InvalidArgument,
            "INVALID_PAGE_TOKEN",
        ),
        (
            ServiceError::Input(InputError::InvalidField {
                field: "white_player",
                message: "too long".into(),
            }),
            Code::InvalidArgument,
            "INVALID_FIELD",
        ),
        (
            ServiceError::Input(InputError::RequestIdReused),
            Code::InvalidArgument,
            "REQUEST_ID_REUSED",
        ),
        (
            ServiceError::Request(RequestError::MalformedRequest { detail: "x" }),
            Code::InvalidArgument,
            "MALFORMED_REQUEST",
        ),
        (
            ServiceError::Store(StoreError::SeatTokensUnavailable { id }),
            Code::AlreadyExists,
            "SEAT_TOKENS_UNAVAILABLE",
        ),
        (
            ServiceError::Store(StoreError::GameNotFound { id }),
            Code::NotFound,
            "GAME_NOT_FOUND",
        ),
        (
            ServiceError::Play(PlayError::IllegalMove {
                message: "e2e5".into(),
            }),
            Code::FailedPrecondition,
            "ILLEGAL_MOVE",
        ),
        (
            ServiceError::Play(PlayError::AmbiguousMove {
                message: "Nd2".into(),
            }),
            Code::FailedPrecondition,
            "AMBIGUOUS_MOVE",
        ),
        (
            ServiceError::Play(PlayError::NotYourTurn { turn: Color::White }),
            Code::FailedPrecondition,
            "NOT_YOUR_TURN",
        ),
        (
            ServiceError::Play(PlayError::GameOver),
            Code::FailedPrecondition,
            "GAME_OVER",
        ),
        (
            ServiceError::Play(PlayError::NoFirstMove {
                timeout: std::time::Duration::from_secs(30),
            }),
            Code::FailedPrecondition,
            "GAME_OVER",
        ),
        (
            ServiceError::Play(PlayError::ClaimNotValid {
                claim: DrawClaim::FiftyMoves,
            }),
            Code::FailedPrecondition,
            "DRAW_CLAIM_INVALID",
        ),
        (
            ServiceError::Play(PlayError::ClaimOnOwnTurn),
            Code::FailedPrecondition,
            "CLAIM_ON_OWN_TURN",
        ),
        (
            ServiceError::Play(PlayError::OpponentConnected {
                opponent: Color::Black,
            }),
            Code::FailedPrecondition,
            "OPPONENT_CONNECTED",
        ),
        (
            ServiceError::Play(PlayError::ClaimTooEarly {
                claim_at: std::time::SystemTime::UNIX_EPOCH,
            }),
            Code::FailedPrecondition,
            "CLAIM_TOO_EARLY",
        ),
        (
            ServiceError::Play(PlayError::AbortTooLate),
            Code::FailedPrecondition,
            "ABORT_NOT_ALLOWED",
        ),
        (
            ServiceError::Play(PlayError::NoDrawOffer),
            Code::FailedPrecondition,
            "NO_DRAW_OFFER",
        ),
        (
            ServiceError::Play(PlayError::GameUntimed),
            Code::FailedPrecondition,
            "GAME_UNTIMED",
        ),
        (
            ServiceError::Play(PlayError::SetupPending),
            Code::FailedPrecondition,
            "SETUP_PENDING",
        ),
        (
            ServiceError::Play(PlayError::NoSetup { revealed: true }),
            Code::FailedPrecondition,
            "NO_SETUP",
        ),
        (
            ServiceError::Play(PlayError::SetupFinal),
            Code::FailedPrecondition,
            "SETUP_FINAL",
        ),
        (
            ServiceError::Play(PlayError::TooManyPlacements),
            Code::FailedPrecondition,
            "TOO_MANY_PLACEMENTS",
        ),
        (
            ServiceError::Play(PlayError::EntropyPending { reveals: false }),
            Code::FailedPrecondition,
            "ENTROPY_PENDING",
        ),
        (
            ServiceError::Play(PlayError::NoEntropyPhase { done: true }),
            Code::FailedPrecondition,
            "NO_ENTROPY_PHASE",
        ),
        (
            ServiceError::Play(PlayError::EntropyOutOfOrder { committed: true }),
            Code::FailedPrecondition,
            "ENTROPY_OUT_OF_ORDER",
        ),
        (
            ServiceError::Input(InputError::InvalidEntropy {
                field: "reveal",
                message: "its SHA-256 is not your commitment".into(),
            }),
            Code::InvalidArgument,
            "INVALID_ENTROPY",
        ),
        (
            ServiceError::Input(InputError::InvalidSetup {
                message: "the pawns on a2 and a3 share a file".into(),
            }),
            Code::InvalidArgument,
            "INVALID_SETUP",
        ),
        (
            ServiceError::Play(PlayError::TakebacksOff),
            Code::FailedPrecondition,
            "TAKEBACKS_OFF",
        ),
        (
            ServiceError::Play(PlayError::NothingToTakeBack),
            Code::FailedPrecondition,
            "NOTHING_TO_TAKE_BACK",
        ),
        (
            ServiceError::Play(PlayError::NoTakebackProposal),
            Code::FailedPrecondition,
            "NO_TAKEBACK_PROPOSAL",
        ),
        (
            ServiceError::Play(PlayError::TakebackPending { by: Color::Black }),
            Code::FailedPrecondition,
            "TAKEBACK_PENDING",
        ),
        (
            ServiceError::Play(PlayError::MoveTakenBack),
            Code::FailedPrecondition,
            "MOVE_TAKEN_BACK",
        ),
        (
            ServiceError::Play(PlayError::PlyMismatch {
                expected: 3,
                current: 4,
            }),
            Code::Aborted,
            "PLY_MISMATCH",
        ),
        (
            ServiceError::Access(AccessError::MissingToken),
            Code::Unauthenticated,
            "TOKEN_MISSING",
        ),
        (
            ServiceError::Seat(SeatError::InvalidToken),
            Code::Unauthenticated,
            "TOKEN_INVALID",
        ),
        (
            ServiceError::Access(AccessError::InvalidPlayerToken),
            Code::Unauthenticated,
            "TOKEN_INVALID",
        ),
        (
            ServiceError::Access(AccessError::TokenRevoked),
            Code::Unauthenticated,
            "TOKEN_REVOKED",
        ),
        (
            ServiceError::Seat(SeatError::PlayerNotSeated),
            Code::PermissionDenied,
            "PLAYER_NOT_SEATED",
        ),
        (
            ServiceError::Access(AccessError::PlayerTokensDisabled),
            Code::FailedPrecondition,
            "PLAYER_TOKENS_DISABLED",
        ),
        (
            ServiceError::Seat(SeatError::WrongSeat {
                seat: Color::White,
                required: Color::Black,
            }),
            Code::PermissionDenied,
            "WRONG_SEAT",
        ),
        (
            ServiceError::Access(AccessError::ApiKeyMissing),
            Code::Unauthenticated,
            "API_KEY_MISSING",
        ),
        (
            ServiceError::Access(AccessError::ApiKeyInvalid),
            Code::Unauthenticated,
            "API_KEY_INVALID",
        ),
        (
            ServiceError::Access(AccessError::PageCreateRefused {
                field: "labels",
                message: "a game started from the page (without an API key) may not set labels"
                    .into(),
            }),
            Code::PermissionDenied,
            "PAGE_CREATE_REFUSED",
        ),
        (
            ServiceError::Access(AccessError::ReadCredentialsMissing),
            Code::Unauthenticated,
            "CREDENTIALS_MISSING",
        ),
        (
            ServiceError::Access(AccessError::NotAPlayer),
            Code::PermissionDenied,
            "NOT_A_PLAYER",
        ),
        (
            ServiceError::Access(AccessError::RecordHidden),
            Code::PermissionDenied,
            "RECORD_HIDDEN",
        ),
        (
            ServiceError::Limit(LimitError::RateLimited {
                limit: "per peer address",
                retry_after: std::time::Duration::from_millis(250),
            }),
            Code::ResourceExhausted,
            "RATE_LIMITED",
        ),
        (
            ServiceError::Limit(LimitError::TooManyGames { limit: 1 }),
            Code::ResourceExhausted,
            "TOO_MANY_GAMES",
        ),
        (
            ServiceError::Limit(LimitError::TooManyWatchers { limit: 1 }),
            Code::ResourceExhausted,
            "TOO_MANY_WATCHERS",
        ),
        (
            ServiceError::Limit(LimitError::TooManyPeerWatchers {
                limit: 16,
                per_game: true,
            }),
            Code::ResourceExhausted,
            "TOO_MANY_PEER_WATCHERS",
        ),
        (
            ServiceError::Request(RequestError::UnknownMethod {
                path: "/chessd.v1.GameService/Nope".into(),
            }),
            Code::Unimplemented,
            "UNKNOWN_METHOD",
        ),
        (
            ServiceError::Limit(LimitError::RequestTooLarge { limit: 1 }),
            Code::ResourceExhausted,
            "REQUEST_TOO_LARGE",
        ),
        (
            ServiceError::Stream(StreamError::WatcherTooSlow {
                resume_after_seq: 7,
            }),
            Code::ResourceExhausted,
            "WATCHER_TOO_SLOW",
        ),
        (
            ServiceError::Stream(StreamError::SeqOutOfRange {
                after_seq: 9,
                last_seq: 2,
            }),
            Code::OutOfRange,
            "SEQ_OUT_OF_RANGE",
        ),
        (
            ServiceError::Stream(StreamError::ShuttingDown {
                resume_after_seq: Some(5),
            }),
            Code::Unavailable,
            "SHUTTING_DOWN",
        ),
        (
            ServiceError::Stream(StreamError::FeedShuttingDown {
                resume_after_cursor: "c".into(),
            }),
            Code::Unavailable,
            "SHUTTING_DOWN",
        ),
        (
            ServiceError::Stream(StreamError::CursorOutOfRange {
                oldest_cursor: "c".into(),
            }),
            Code::OutOfRange,
            "CURSOR_OUT_OF_RANGE",
        ),
        (
            ServiceError::Stream(StreamError::FeedTooSlow {
                resume_after_cursor: "c".into(),
            }),
            Code::ResourceExhausted,
            "FEED_TOO_SLOW",
        ),
        (
            ServiceError::Limit(LimitError::TooManyFeeds {
                limit: 8,
                per_peer: true,
            }),
            Code::ResourceExhausted,
            "TOO_MANY_FEEDS",
        ),
        (
            ServiceError::Store(StoreError::StoreUnavailable),
            Code::Unavailable,
            "STORE_UNAVAILABLE",
        ),
        (
            ServiceError::Stream(StreamError::WatchInterrupted),
            Code::Aborted,
            "WATCH_INTERRUPTED",
        ),
        (
            ServiceError::Store(StoreError::NotReplicated {
                confirmed: 0,
                required: 1,
            }),
            Code::Unavailable,
            "NOT_REPLICATED",
        ),
        (
            ServiceError::Internal("disk on fire".into()),
            Code::Internal,
            "INTERNAL",
        ),
    ]
}

/// Every variant maps to its documented code, and the status carries ErrorInfo with the
/// reason in chessd's domain.
#[test]
fn mapping_to_status() {
    for (error, code, reason) in examples() {
        let status = error.status();
        assert_eq!(status.code(), code, "{error:?}");
        let info = status
            .get_details_error_info()
            .unwrap_or_else(|| panic!("no ErrorInfo for {error:?}"));
        assert_eq!(info.reason, reason);
        assert_eq!(info.domain, ERROR_DOMAIN);
        assert!(!status.message().is_empty());
        assert!(!status.message().ends_with('.'), "{}", status.message());
    }
}

/// Facts travel in metadata; bad fields also get a BadRequest violation.
#[test]
fn details_carry_facts() {
    let status = ServiceError::Play(PlayError::PlyMismatch {
        expected: 3,
        current: 4,
    })
    .status();
    let info = status.get_details_error_info().unwrap();
    assert_eq!(info.metadata["expected_ply"], "3");
    assert_eq!(info.metadata["current_ply"], "4");
    let status = ServiceError::Stream(StreamError::WatcherTooSlow {
        resume_after_seq: 41,
    })
    .status();
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["resume_after_seq"],
        "41"
    );
    assert!(status.message().contains("after_seq 41"));
    let status = ServiceError::Request(RequestError::InvalidFen {
        message: "black king missing".into(),
    })
    .status();
    let bad = status.get_details_bad_request().unwrap();
    assert_eq!(bad.field_violations[0].field, "fen");
}

/// A rate limit refusal says when to retry, in RetryInfo and in ErrorInfo's metadata.
#[test]
fn rate_limits_carry_retry_info() {
    let status = ServiceError::Limit(LimitError::RateLimited {
        limit: "per seat token",
        retry_after: std::time::Duration::from_millis(1500),
    })
    .status();
    let retry = status.get_details_retry_info().expect("RetryInfo");
    assert_eq!(
        retry.retry_delay,
        Some(std::time::Duration::from_millis(1500))
    );
    let info = status.get_details_error_info().unwrap();
    assert_eq!(info.metadata["retry_after_ms"], "1500");
    assert_eq!(info.metadata["limit"], "per seat token");
}

/// The feed's errors carry the cursor to resume from, or the oldest one that resumes.
#[test]
fn feed_errors_carry_cursors() {
    let info = |e: ServiceError| e.status().get_details_error_info().unwrap().metadata;
    let slow = info(ServiceError::Stream(StreamError::FeedTooSlow {
        resume_after_cursor: "AQID".into(),
    }));
    assert_eq!(slow["resume_after_cursor"], "AQID");
    let draining = info(ServiceError::Stream(StreamError::FeedShuttingDown {
        resume_after_cursor: "AQIE".into(),
    }));
    assert_eq!(draining["resume_after_cursor"], "AQIE");
    let old = info(ServiceError::Stream(StreamError::CursorOutOfRange {
        oldest_cursor: "AQIF".into(),
    }));
    assert_eq!(old["oldest_cursor"], "AQIF");
    let full = info(ServiceError::Limit(LimitError::TooManyFeeds {
        limit: 8,
        per_peer: false,
    }));
    assert_eq!(
        (full["limit"].as_str(), full["scope"].as_str()),
        ("8", "server")
    );
}

/// An internal error never shows its cause to the client.
#[test]
fn internals_do_not_leak() {
    let status = ServiceError::Internal("sqlite: disk I/O error at /var/lib/x".into()).status();
    assert_eq!(status.message(), "internal error");
}

/// The variant's name, from its `Debug` form (`PlyMismatch { .. }` gives `PlyMismatch`).
fn variant_name(error: &ServiceError) -> String {
    let debug = format!("{error:?}");
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The contract's lines, comments and blank lines aside.
fn contract_lines() -> Vec<&'static str> {
    include_str!("contract.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect()
}

/// The table gives every error exactly the code and reason `contract.txt` lists: clients
/// match on reasons, so changing one (or adding an error) must show up as a change to that
/// file, in review, and not only inside a `match`.
#[test]
fn table_matches_the_contract() {
    let listed = contract_lines();
    let actual: Vec<String> = examples()
        .iter()
        .map(|(error, ..)| {
            format!(
                "{} {:?} {:?} {}",
                variant_name(error),
                error.layer(),
                error.code(),
                error.reason()
            )
        })
        .collect();
    let mut sorted = actual.clone();
    sorted.sort();
    let mut expected: Vec<String> = listed
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    expected.sort();
    assert_eq!(
        sorted,
        expected,
        "src/error/contract.txt and the error table disagree; the table gives:\n{}",
        actual.join("\n")
    );
}

/// INVALID_VARIANT names every variant chessd plays: its message is generated from the
/// protocol's enum, not kept by hand (the hand-kept one named only two).
#[test]
fn invalid_variant_names_every_variant() {
    let message = ServiceError::Request(RequestError::InvalidVariant).to_string();
    for variant in chessd_rules::any::AnyVariant::all().filter(|v| v.std().is_some()) {
        let wire = crate::api::encode::proto_variant(variant);
        let name = chessd_proto::wire::Variant::try_from(wire)
            .expect("a wire variant")
            .as_str_name();
        assert!(message.contains(name), "{name} missing from {message:?}");
    }
    assert!(!message.contains("UNSPECIFIED"), "{message}");
}

/// Every error's message keeps the house style, whatever the variant's facts.
#[test]
fn messages_are_lowercase_without_period() {
    for (error, ..) in examples() {
        let message = error.to_string();
        let first = message.chars().next().unwrap();
        assert!(!first.is_uppercase(), "{message}");
        assert!(!message.ends_with('.'), "{message}");
        assert_eq!(error.status().message(), message);
    }
}

/// The variant's line in `contract.txt` (counting from 0, comments aside). No wildcard: a new
/// variant fails to compile here until it gets the next number, and then the tests below fail
/// until it has an example and its line in the contract.
fn ordinal(error: &ServiceError) -> usize {
    match error {
        ServiceError::Request(RequestError::InvalidGameId) => 0,
        ServiceError::Request(RequestError::InvalidVariant) => 1,
        ServiceError::Request(RequestError::InvalidFen { .. }) => 2,
        ServiceError::Input(InputError::MalformedMove { .. }) => 3,
        ServiceError::Request(RequestError::InvalidPageToken) => 4,
        ServiceError::Input(InputError::InvalidField { .. }) => 5,
        ServiceError::Input(InputError::RequestIdReused) => 6,
        ServiceError::Request(RequestError::MalformedRequest { .. }) => 7,
        ServiceError::Store(StoreError::SeatTokensUnavailable { .. }) => 8,
        ServiceError::Store(StoreError::GameNotFound { .. }) => 9,
        ServiceError::Play(PlayError::IllegalMove { .. }) => 10,
        ServiceError::Play(PlayError::AmbiguousMove { .. }) => 11,
        ServiceError::Play(PlayError::NotYourTurn { .. }) => 12,
        ServiceError::Play(PlayError::GameOver) => 13,
        ServiceError::Play(PlayError::NoFirstMove { .. }) => 14,
        ServiceError::Play(PlayError::ClaimNotValid { .. }) => 15,
        ServiceError::Play(PlayError::ClaimOnOwnTurn) => 16,
        ServiceError::Play(PlayError::OpponentConnected { .. }) => 17,
        ServiceError::Play(PlayError::ClaimTooEarly { .. }) => 18,
        ServiceError::Play(PlayError::AbortTooLate) => 19,
        ServiceError::Play(PlayError::NoDrawOffer) => 20,
        ServiceError::Play(PlayError::GameUntimed) => 21,
        ServiceError::Play(PlayError::TakebacksOff) => 22,
        ServiceError::Play(PlayError::NothingToTakeBack) => 23,
        ServiceError::Play(PlayError::NoTakebackProposal) => 24,
        ServiceError::Play(PlayError::TakebackPending { .. }) => 25,
        ServiceError::Play(PlayError::MoveTakenBack) => 26,
        ServiceError::Play(PlayError::PlyMismatch { .. }) => 27,
        ServiceError::Access(AccessError::MissingToken) => 28,
        ServiceError::Seat(SeatError::InvalidToken) => 29,
        ServiceError::Access(AccessError::InvalidPlayerToken) => 30,
        ServiceError::Access(AccessError::TokenRevoked) => 31,
        ServiceError::Seat(SeatError::PlayerNotSeated) => 32,
        ServiceError::Access(AccessError::PlayerTokensDisabled) => 33,
        ServiceError::Seat(SeatError::WrongSeat { .. }) => 34,
        ServiceError::Access(AccessError::ApiKeyMissing) => 35,
        ServiceError::Access(AccessError::ApiKeyInvalid) => 36,
        ServiceError::Access(AccessError::PageCreateRefused { .. }) => 37,
        ServiceError::Access(AccessError::ReadCredentialsMissing) => 38,
        ServiceError::Access(AccessError::NotAPlayer) => 39,
        ServiceError::Limit(LimitError::RateLimited { .. }) => 40,
        ServiceError::Limit(LimitError::TooManyGames { .. }) => 41,
        ServiceError::Limit(LimitError::TooManyWatchers { .. }) => 42,
        ServiceError::Limit(LimitError::TooManyPeerWatchers { .. }) => 43,
        ServiceError::Request(RequestError::UnknownMethod { .. }) => 44,
        ServiceError::Limit(LimitError::RequestTooLarge { .. }) => 45,
        ServiceError::Stream(StreamError::WatcherTooSlow { .. }) => 46,
        ServiceError::Stream(StreamError::SeqOutOfRange { .. }) => 47,
        ServiceError::Stream(StreamError::ShuttingDown { .. }) => 48,
        ServiceError::Stream(StreamError::FeedShuttingDown { .. }) => 49,
        ServiceError::Stream(StreamError::CursorOutOfRange { .. }) => 50,
        ServiceError::Stream(StreamError::FeedTooSlow { .. }) => 51,
        ServiceError::Limit(LimitError::TooManyFeeds { .. }) => 52,
        ServiceError::Store(StoreError::StoreUnavailable) => 53,
        ServiceError::Stream(StreamError::WatchInterrupted) => 54,
        ServiceError::Store(StoreError::NotReplicated { .. }) => 55,
        ServiceError::Access(AccessError::RecordHidden) => 56,
        ServiceError::Play(PlayError::SetupPending) => 57,
        ServiceError::Play(PlayError::NoSetup { .. }) => 58,
        ServiceError::Play(PlayError::SetupFinal) => 59,
        ServiceError::Input(InputError::InvalidSetup { .. }) => 60,
        ServiceError::Play(PlayError::TooManyPlacements) => 61,
        ServiceError::Play(PlayError::EntropyPending { .. }) => 62,
        ServiceError::Play(PlayError::NoEntropyPhase { .. }) => 63,
        ServiceError::Play(PlayError::EntropyOutOfOrder { .. }) => 64,
        ServiceError::Input(InputError::InvalidEntropy { .. }) => 65,
        ServiceError::Internal(_) => 66,
    }
}

/// The examples hold one of each variant, so the table and the contract are checked whole.
#[test]
fn every_variant_has_an_example() {
    let mut seen: Vec<usize> = examples().iter().map(|(e, ..)| ordinal(e)).collect();
    seen.sort_unstable();
    let lines = contract_lines().len();
    let expected: Vec<usize> = (0..lines).collect();
    assert_eq!(seen, expected, "a variant without an example, or with two");
    for (error, ..) in examples() {
        let line = contract_lines()[ordinal(&error)];
        assert_eq!(
            line.split_whitespace().next(),
            Some(variant_name(&error).as_str()),
            "ordinal of {error:?}"
        );
    }
}
