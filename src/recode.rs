//! tonic's own refusals, recoded to chessd's contract. Some requests tonic refuses before
//! a handler runs, with codes that say the wrong thing; this response mapper, layered around
//! every service, rewrites exactly those statuses (recognised by tonic's and prost's messages)
//! into the `ServiceError` that says what was wrong, with its ErrorInfo. Every other response
//! passes through untouched, after one look at its status headers.
//!
//! - **Oversized requests**: tonic refuses a message above `max_decoding_message_size` with
//!   OUT_OF_RANGE, but gRPC's status-code guide and chessd's contract say a limit reached is
//!   RESOURCE_EXHAUSTED (`ServiceError::RequestTooLarge`, naming the limit).
//! - **Undecodable requests**: a body that is not a protobuf message of the method's type (or
//!   a frame cut short, or no message at all) tonic answers INTERNAL, which says "the server
//!   is broken" and invites retries. It is the client's fault: INVALID_ARGUMENT with reason
//!   `MALFORMED_REQUEST` (`ServiceError::MalformedRequest`). One exception, on purpose: a
//!   message flagged compressed without a `grpc-encoding` stays INTERNAL, because the gRPC
//!   compression spec requires exactly that status.
//!
//! One mapper rather than one per refusal: each would parse every response's status headers.

use tonic::{Code, Status};
use tower::util::MapResponseLayer;

use crate::error::ServiceError;

/// What tonic's own size refusal says (checked by a test, so a tonic upgrade that rewords it
/// fails the tests rather than silently changing the code clients see).
const TONIC_TOO_LARGE: &str = "message length too large";

/// The beginnings of tonic's and prost's decoding failures, and what each means (checked by
/// a test, so a tonic upgrade that rewords one fails the tests rather than silently changing
/// the code clients see).
const DECODING_FAILURES: [(&str, &str); 4] = [
    (
        "failed to decode Protobuf message",
        "the message is not valid protobuf of the method's request type",
    ),
    (
        "Unexpected EOF decoding stream",
        "the gRPC frame is shorter than its length prefix",
    ),
    ("Missing request message", "the request carries no message"),
    (
        "protocol error: received message with invalid compression flag",
        "the gRPC frame's compressed-flag byte is neither 0 nor 1",
    ),
];

/// The layer: maps each response with [`rewrite`]; `limit` is the request size limit every
/// service has.
pub fn layer<B>(
    limit: usize,
) -> MapResponseLayer<impl Fn(http::Response<B>) -> http::Response<B> + Clone> {
    MapResponseLayer::new(move |response| rewrite(limit, response))
}

/// Replaces tonic's status for an oversized or undecodable request with chessd's.
pub fn rewrite<B>(limit: usize, mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let Some(status) = Status::from_header_map(headers) else {
        return response;
    };
    let recoded = match status.code() {
        Code::OutOfRange if status.message().contains(TONIC_TOO_LARGE) => {
            ServiceError::RequestTooLarge { limit }
        }
        Code::Internal => match DECODING_FAILURES
            .iter()
            .find(|(start, _)| status.message().starts_with(start))
        {
            Some(&(_, detail)) => ServiceError::MalformedRequest { detail },
            None => return response,
        },
        _ => return response,
    };
    headers.remove(Status::GRPC_MESSAGE);
    headers.remove(Status::GRPC_STATUS_DETAILS);
    // Writing a status into headers fails only for an unencodable message; ours are plain.
    let _ = recoded.status().add_header(headers);
    response
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use tonic_types::StatusExt;

    use super::*;

    /// tonic's refusal becomes RESOURCE_EXHAUSTED with chessd's reason; other statuses pass.
    #[test]
    fn rewrites_only_the_size_refusal() {
        let tonic_says =
            "Error, decoded message length too large: found 1000 bytes, the limit is: 256 bytes";
        let response = rewrite(256, Status::out_of_range(tonic_says).into_http::<()>());
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "REQUEST_TOO_LARGE"
        );

        let other = ServiceError::SeqOutOfRange {
            after_seq: 9,
            last_seq: 1,
        }
        .status();
        let response = rewrite(256, other.into_http::<()>());
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(
            (
                status.code(),
                status.get_details_error_info().unwrap().reason.as_str()
            ),
            (Code::OutOfRange, "SEQ_OUT_OF_RANGE")
        );
    }

    /// The statuses tonic and prost produce today are recognised; others pass.
    #[test]
    fn rewrites_only_decoding_failures() {
        let prost_error = crate::proto::GetGameRequest::decode(&[0x0f][..]).unwrap_err();
        for message in [
            prost_error.to_string(),
            "Unexpected EOF decoding stream.".to_string(),
            "Missing request message.".to_string(),
            "protocol error: received message with invalid compression flag: 7 (valid flags are 0 and 1), while sending request".to_string(),
        ] {
            let response = rewrite(256, Status::internal(message.clone()).into_http::<()>());
            let status = Status::from_header_map(response.headers()).unwrap();
            assert_eq!(status.code(), Code::InvalidArgument, "{message}");
        }
        for kept in [
            Status::internal(
                "protocol error: received message with compressed-flag but no grpc-encoding was specified",
            ),
            Status::internal("internal error"),
            Status::not_found("failed to decode Protobuf message"),
        ] {
            let code = kept.code();
            let response = rewrite(256, kept.into_http::<()>());
            assert_eq!(
                Status::from_header_map(response.headers()).unwrap().code(),
                code
            );
        }
    }
}
