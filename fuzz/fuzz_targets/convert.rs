//! Any bytes as each request message chessd decodes, through the protobuf-to-engine layer
//! (`chessd::convert`): a value or a `ServiceError` whose status is a client error with a
//! message, never a panic and never INTERNAL. The first byte picks the message.
#![no_main]

use chessd::convert;
use chessd_rules::Rules;
use chessd::proto as pb;
use libfuzzer_sys::fuzz_target;
use prost::Message;
use tonic::Code;

fn client_error(e: &chessd::error::ServiceError) {
    let status = e.status();
    assert!(
        !matches!(status.code(), Code::Internal | Code::Unknown | Code::Ok),
        "{e:?} mapped to {:?}",
        status.code()
    );
    assert!(!status.message().is_empty());
    // Echoed client text is bounded: a message stays short whatever the input.
    assert!(status.message().len() < 1024, "{}", status.message().len());
}

fn check<T>(result: Result<T, chessd::error::ServiceError>) -> Option<T> {
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
    match which % 6 {
        0 => {
            if let Ok(req) = pb::CreateGameRequest::decode(body)
                && let Some(new) = check(convert::new_game(req))
            {
                // A start position that passed is playable and encodes back.
                assert!(new.start.outcome().is_none());
                let _ = convert::analysis(&new.start);
            }
        }
        1 => {
            if let Ok(req) = pb::SubmitMoveRequest::decode(body) {
                check(convert::submit_move(&req));
            }
        }
        2 => {
            if let Ok(req) = pb::ListGamesRequest::decode(body) {
                if let Some(q) = check(convert::list_query(&req, 500)) {
                    assert!((1..=500).contains(&q.page_size));
                }
            }
        }
        3 => {
            if let Ok(req) = pb::AnalyzePositionRequest::decode(body)
                && let Some(pos) = check(convert::analysis_request(&req))
            {
                let answer = convert::analysis(&pos);
                assert_eq!(answer.fen, pos.fen());
            }
        }
        4 => {
            if let Ok(req) = pb::ClaimDrawRequest::decode(body) {
                check(convert::game_id(&req.game_id));
                check(convert::claim(req.claim));
            }
        }
        _ => {
            if let Ok(text) = std::str::from_utf8(body) {
                check(convert::game_id(text));
                check(convert::move_text(text));
            }
        }
    }
});
