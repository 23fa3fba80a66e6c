//! Any bytes as each request message chessd decodes, through the decode layer (`chessd::api`'s
//! `decode`, `clocks` and `fields`): a value or a `ServiceError` whose status is a client error
//! with a short message, never a panic and never INTERNAL. The first byte picks the message;
//! the last arm feeds the bare text fields (game id, move text) that most requests carry.
#![no_main]

use chessd::api::{clocks, decode, encode};
use chessd::error::ServiceError;
use chessd::proto::wire as pb;
use libfuzzer_sys::fuzz_target;
use prost::Message;
use tonic::Code;

/// The page size cap the arm for ListGames decodes with (the service's is configured).
const MAX_PAGE_SIZE: usize = 500;

fn client_error(e: &ServiceError) {
    let status = e.status();
    assert!(
        !matches!(status.code(), Code::Internal | Code::Unknown | Code::Ok),
        "{e:?} mapped to {:?}",
        status.code()
    );
    assert!(!status.message().is_empty(), "{e:?} has no message");
    // Echoed client text is bounded: a message stays short whatever the input.
    assert!(status.message().len() < 1024, "{}", status.message().len());
}

fn check<T>(result: Result<T, ServiceError>) -> Option<T> {
    match result {
        Ok(v) => Some(v),
        Err(e) => {
            client_error(&e);
            None
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    match which % 12 {
        0 => {
            if let Ok(req) = pb::CreateGameRequest::decode(body)
                && let Some(new) = check(decode::new_game(req))
            {
                // A start position that passed is playable and encodes back.
                assert!(new.start.outcome().is_none());
                let answer = encode::analysis(&new.start);
                assert_eq!(answer.fen, new.start.fen());
            }
        }
        1 => {
            if let Ok(req) = pb::SubmitMoveRequest::decode(body) {
                check(decode::submit_move(&req));
            }
        }
        2 => {
            if let Ok(req) = pb::ListGamesRequest::decode(body)
                && let Some(q) = check(decode::list_query(&req, MAX_PAGE_SIZE))
            {
                assert!((1..=MAX_PAGE_SIZE).contains(&q.page_size));
            }
        }
        3 => {
            if let Ok(req) = pb::AnalyzePositionRequest::decode(body)
                && let Some(pos) = check(decode::analysis_request(&req))
            {
                let answer = encode::analysis(&pos);
                assert_eq!(answer.fen, pos.fen());
            }
        }
        4 => {
            if let Ok(req) = pb::ClaimDrawRequest::decode(body) {
                check(decode::game_id(&req.game_id));
                check(decode::claim(req.claim));
            }
        }
        5 => {
            if let Ok(req) = pb::WatchGamesRequest::decode(body) {
                check(decode::feed_request(&req));
            }
        }
        6 => {
            if let Ok(req) = pb::IssuePlayerTokenRequest::decode(body) {
                check(decode::token_player(&req));
            }
        }
        7 => {
            if let Ok(req) = pb::RevokePlayerTokenRequest::decode(body) {
                check(decode::revoke(&req));
            }
        }
        8 => {
            if let Ok(req) = pb::GetStatsRequest::decode(body) {
                check(decode::labels(&req.labels));
            }
        }
        9 => {
            if let Ok(req) = pb::AddTimeRequest::decode(body) {
                check(clocks::add_time(&req));
            }
        }
        10 => {
            if let Ok(req) = pb::AdjustClockRequest::decode(body) {
                check(clocks::adjust_clock(&req));
            }
        }
        _ => {
            if let Ok(text) = std::str::from_utf8(body) {
                check(decode::game_id(text));
                check(decode::move_text(text));
            }
        }
    }
});
