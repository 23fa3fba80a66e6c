//! The error contract's tests: every error's code and reason, the details it carries, and
//! that internals never reach a client.

use super::*;

/// One example of every variant (a missing arm fails to compile in the table; a missing
/// example here would leave a row untested, and its line in `contract.txt` unmatched).
fn examples() -> Vec<(ServiceError, Code, &'static str)> {
    let id: GameId = "0000000000001".parse().unwrap();
    use ServiceError as E;
    vec![
        (E::InvalidGameId, Code::InvalidArgument, "INVALID_GAME_ID"),
        (E::InvalidVariant, Code::InvalidArgument, "INVALID_VARIANT"),
        (
            E::InvalidFen {
                message: "black king missing".into(),
            },
            Code::InvalidArgument,
            "INVALID_FEN",
        ),
        (
            E::MalformedMove { text: "zz".into() },
            Code::InvalidArgument,
            "MALFORMED_MOVE",
        ),
        (
            E::InvalidPageToken,
            Code::InvalidArgument,
            "INVALID_PAGE_TOKEN",
        ),
        (
            E::InvalidField {
                field: "white_player",
                message: "too long".into(),
            },
            Code::InvalidArgument,
            "INVALID_FIELD",
        ),
        (
            E::RequestIdReused,
            Code::InvalidArgument,
            "REQUEST_ID_REUSED",
        ),
        (
            E::MalformedRequest { detail: "x" },
            Code::InvalidArgument,
            "MALFORMED_REQUEST",
        ),
        (
            E::SeatTokensUnavailable { id },
            Code::AlreadyExists,
            "SEAT_TOKENS_UNAVAILABLE",
        ),
        (E::GameNotFound { id }, Code::NotFound, "GAME_NOT_FOUND"),
        (
            E::IllegalMove {
                message: "e2e5".into(),
            },
            Code::FailedPrecondition,
            "ILLEGAL_MOVE",
        ),
        (
            E::AmbiguousMove {
                message: "Nd2".into(),
            },
            Code::FailedPrecondition,
            "AMBIGUOUS_MOVE",
        ),
        (
            E::NotYourTurn { turn: Color::White },
            Code::FailedPrecondition,
            "NOT_YOUR_TURN",
        ),
        (E::GameOver, Code::FailedPrecondition, "GAME_OVER"),
        (
            E::NoFirstMove {
                timeout: std::time::Duration::from_secs(30),
            },
            Code::FailedPrecondition,
            "GAME_OVER",
        ),
        (
            E::ClaimNotValid {
                claim: DrawClaim::FiftyMoves,
            },
            Code::FailedPrecondition,
            "DRAW_CLAIM_INVALID",
        ),
        (
            E::ClaimOnOwnTurn,
            Code::FailedPrecondition,
            "CLAIM_ON_OWN_TURN",
        ),
        (
            E::OpponentConnected {
                opponent: Color::Black,
            },
            Code::FailedPrecondition,
            "OPPONENT_CONNECTED",
        ),
        (
            E::ClaimTooEarly {
                claim_at: std::time::SystemTime::UNIX_EPOCH,
            },
            Code::FailedPrecondition,
            "CLAIM_TOO_EARLY",
        ),
        (
            E::AbortTooLate,
            Code::FailedPrecondition,
            "ABORT_NOT_ALLOWED",
        ),
        (E::NoDrawOffer, Code::FailedPrecondition, "NO_DRAW_OFFER"),
        (E::GameUntimed, Code::FailedPrecondition, "GAME_UNTIMED"),
        (E::TakebacksOff, Code::FailedPrecondition, "TAKEBACKS_OFF"),
        (
            E::NothingToTakeBack,
            Code::FailedPrecondition,
            "NOTHING_TO_TAKE_BACK",
        ),
        (
            E::NoTakebackProposal,
            Code::FailedPrecondition,
            "NO_TAKEBACK_PROPOSAL",
        ),
        (
            E::TakebackPending { by: Color::Black },
            Code::FailedPrecondition,
            "TAKEBACK_PENDING",
        ),
        (
            E::MoveTakenBack,
            Code::FailedPrecondition,
            "MOVE_TAKEN_BACK",
        ),
        (
            E::PlyMismatch {
                expected: 3,
                current: 4,
            },
            Code::Aborted,
            "PLY_MISMATCH",
        ),
        (E::MissingToken, Code::Unauthenticated, "TOKEN_MISSING"),
        (E::InvalidToken, Code::Unauthenticated, "TOKEN_INVALID"),
        (
            E::InvalidPlayerToken,
            Code::Unauthenticated,
            "TOKEN_INVALID",
        ),
        (E::TokenRevoked, Code::Unauthenticated, "TOKEN_REVOKED"),
        (
            E::PlayerNotSeated,
            Code::PermissionDenied,
            "PLAYER_NOT_SEATED",
        ),
        (
            E::PlayerTokensDisabled,
            Code::FailedPrecondition,
            "PLAYER_TOKENS_DISABLED",
        ),
        (
            E::WrongSeat {
                seat: Color::White,
                required: Color::Black,
            },
            Code::PermissionDenied,
            "WRONG_SEAT",
        ),
        (E::ApiKeyMissing, Code::Unauthenticated, "API_KEY_MISSING"),
        (E::ApiKeyInvalid, Code::Unauthenticated, "API_KEY_INVALID"),
        (
            E::PageCreateRefused {
                field: "labels",
                message: "a game started from the page (without an API key) may not set labels"
                    .into(),
            },
            Code::PermissionDenied,
            "PAGE_CREATE_REFUSED",
        ),
        (
            E::ReadCredentialsMissing,
            Code::Unauthenticated,
            "CREDENTIALS_MISSING",
        ),
        (E::NotAPlayer, Code::PermissionDenied, "NOT_A_PLAYER"),
        (
            E::RateLimited {
                limit: "per peer address",
                retry_after: std::time::Duration::from_millis(250),
            },
            Code::ResourceExhausted,
            "RATE_LIMITED",
        ),
        (
            E::TooManyGames { limit: 1 },
            Code::ResourceExhausted,
            "TOO_MANY_GAMES",
        ),
        (
            E::TooManyWatchers { limit: 1 },
            Code::ResourceExhausted,
            "TOO_MANY_WATCHERS",
        ),
        (
            E::TooManyPeerWatchers {
                limit: 16,
                per_game: true,
            },
            Code::ResourceExhausted,
            "TOO_MANY_PEER_WATCHERS",
        ),
        (
            E::UnknownMethod {
                path: "/chessd.v1.GameService/Nope".into(),
            },
            Code::Unimplemented,
            "UNKNOWN_METHOD",
        ),
        (
            E::RequestTooLarge { limit: 1 },
            Code::ResourceExhausted,
            "REQUEST_TOO_LARGE",
        ),
        (
            E::WatcherTooSlow {
                resume_after_seq: 7,
            },
            Code::ResourceExhausted,
            "WATCHER_TOO_SLOW",
        ),
        (
            E::SeqOutOfRange {
                after_seq: 9,
                last_seq: 2,
            },
            Code::OutOfRange,
            "SEQ_OUT_OF_RANGE",
        ),
        (
            E::ShuttingDown {
                resume_after_seq: Some(5),
            },
            Code::Unavailable,
            "SHUTTING_DOWN",
        ),
        (
            E::FeedShuttingDown {
                resume_after_cursor: "c".into(),
            },
            Code::Unavailable,
            "SHUTTING_DOWN",
        ),
        (
            E::CursorOutOfRange {
                oldest_cursor: "c".into(),
            },
            Code::OutOfRange,
            "CURSOR_OUT_OF_RANGE",
        ),
        (
            E::FeedTooSlow {
                resume_after_cursor: "c".into(),
            },
            Code::ResourceExhausted,
            "FEED_TOO_SLOW",
        ),
        (
            E::TooManyFeeds {
                limit: 8,
                per_peer: true,
            },
            Code::ResourceExhausted,
            "TOO_MANY_FEEDS",
        ),
        (E::StoreUnavailable, Code::Unavailable, "STORE_UNAVAILABLE"),
        (E::WatchInterrupted, Code::Aborted, "WATCH_INTERRUPTED"),
        (
            E::NotReplicated {
                confirmed: 0,
                required: 1,
            },
            Code::Unavailable,
            "NOT_REPLICATED",
        ),
        (
            E::Internal("disk on fire".into()),
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
    let status = ServiceError::PlyMismatch {
        expected: 3,
        current: 4,
    }
    .status();
    let info = status.get_details_error_info().unwrap();
    assert_eq!(info.metadata["expected_ply"], "3");
    assert_eq!(info.metadata["current_ply"], "4");
    let status = ServiceError::WatcherTooSlow {
        resume_after_seq: 41,
    }
    .status();
    assert_eq!(
        status.get_details_error_info().unwrap().metadata["resume_after_seq"],
        "41"
    );
    assert!(status.message().contains("after_seq 41"));
    let status = ServiceError::InvalidFen {
        message: "black king missing".into(),
    }
    .status();
    let bad = status.get_details_bad_request().unwrap();
    assert_eq!(bad.field_violations[0].field, "fen");
}

/// A rate limit refusal says when to retry, in RetryInfo and in ErrorInfo's metadata.
#[test]
fn rate_limits_carry_retry_info() {
    let status = ServiceError::RateLimited {
        limit: "per seat token",
        retry_after: std::time::Duration::from_millis(1500),
    }
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
    let slow = info(ServiceError::FeedTooSlow {
        resume_after_cursor: "AQID".into(),
    });
    assert_eq!(slow["resume_after_cursor"], "AQID");
    let draining = info(ServiceError::FeedShuttingDown {
        resume_after_cursor: "AQIE".into(),
    });
    assert_eq!(draining["resume_after_cursor"], "AQIE");
    let old = info(ServiceError::CursorOutOfRange {
        oldest_cursor: "AQIF".into(),
    });
    assert_eq!(old["oldest_cursor"], "AQIF");
    let full = info(ServiceError::TooManyFeeds {
        limit: 8,
        per_peer: false,
    });
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
    let message = ServiceError::InvalidVariant.to_string();
    for variant in chessd_rules::Variant::ALL {
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
    use ServiceError as E;
    match error {
        E::InvalidGameId => 0,
        E::InvalidVariant => 1,
        E::InvalidFen { .. } => 2,
        E::MalformedMove { .. } => 3,
        E::InvalidPageToken => 4,
        E::InvalidField { .. } => 5,
        E::RequestIdReused => 6,
        E::MalformedRequest { .. } => 7,
        E::SeatTokensUnavailable { .. } => 8,
        E::GameNotFound { .. } => 9,
        E::IllegalMove { .. } => 10,
        E::AmbiguousMove { .. } => 11,
        E::NotYourTurn { .. } => 12,
        E::GameOver => 13,
        E::NoFirstMove { .. } => 14,
        E::ClaimNotValid { .. } => 15,
        E::ClaimOnOwnTurn => 16,
        E::OpponentConnected { .. } => 17,
        E::ClaimTooEarly { .. } => 18,
        E::AbortTooLate => 19,
        E::NoDrawOffer => 20,
        E::GameUntimed => 21,
        E::TakebacksOff => 22,
        E::NothingToTakeBack => 23,
        E::NoTakebackProposal => 24,
        E::TakebackPending { .. } => 25,
        E::MoveTakenBack => 26,
        E::PlyMismatch { .. } => 27,
        E::MissingToken => 28,
        E::InvalidToken => 29,
        E::InvalidPlayerToken => 30,
        E::TokenRevoked => 31,
        E::PlayerNotSeated => 32,
        E::PlayerTokensDisabled => 33,
        E::WrongSeat { .. } => 34,
        E::ApiKeyMissing => 35,
        E::ApiKeyInvalid => 36,
        E::PageCreateRefused { .. } => 37,
        E::ReadCredentialsMissing => 38,
        E::NotAPlayer => 39,
        E::RateLimited { .. } => 40,
        E::TooManyGames { .. } => 41,
        E::TooManyWatchers { .. } => 42,
        E::TooManyPeerWatchers { .. } => 43,
        E::UnknownMethod { .. } => 44,
        E::RequestTooLarge { .. } => 45,
        E::WatcherTooSlow { .. } => 46,
        E::SeqOutOfRange { .. } => 47,
        E::ShuttingDown { .. } => 48,
        E::FeedShuttingDown { .. } => 49,
        E::CursorOutOfRange { .. } => 50,
        E::FeedTooSlow { .. } => 51,
        E::TooManyFeeds { .. } => 52,
        E::StoreUnavailable => 53,
        E::WatchInterrupted => 54,
        E::NotReplicated { .. } => 55,
        E::Internal(_) => 56,
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
