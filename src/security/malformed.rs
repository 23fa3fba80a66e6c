//! Undecodable requests: tonic answers a request body that is not a protobuf message of the
//! method's type (or a frame cut short, or no message at all) with INTERNAL, which says "the
//! server is broken" and invites retries. It is the client's fault: this response mapper,
//! layered around every service, rewrites exactly those statuses (recognised by tonic's and
//! prost's messages) into INVALID_ARGUMENT with reason `MALFORMED_REQUEST`
//! (`ServiceError::MalformedRequest`). Every other response passes through untouched.
//!
//! One exception, on purpose: a message flagged compressed without a `grpc-encoding` stays
//! INTERNAL, because the gRPC compression spec requires exactly that status.

use tonic::{Code, Status};
use tower::util::MapResponseLayer;

use crate::error::ServiceError;

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

/// The layer: maps each response with [`rewrite`].
pub fn layer<B>() -> MapResponseLayer<fn(http::Response<B>) -> http::Response<B>> {
    MapResponseLayer::new(rewrite::<B>)
}

/// Turns tonic's INTERNAL for an undecodable request into INVALID_ARGUMENT.
pub fn rewrite<B>(mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let detail = Status::from_header_map(headers)
        .filter(|s| s.code() == Code::Internal)
        .and_then(|s| {
            DECODING_FAILURES
                .iter()
                .find(|(start, _)| s.message().starts_with(start))
                .map(|&(_, detail)| detail)
        });
    if let Some(detail) = detail {
        headers.remove(Status::GRPC_MESSAGE);
        headers.remove(Status::GRPC_STATUS_DETAILS);
        // Writing a status into headers fails only for an unencodable message; ours are plain.
        let _ = ServiceError::MalformedRequest { detail }
            .status()
            .add_header(headers);
    }
    response
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;

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
            let response = rewrite(Status::internal(message.clone()).into_http::<()>());
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
            let response = rewrite(kept.into_http::<()>());
            assert_eq!(
                Status::from_header_map(response.headers()).unwrap().code(),
                code
            );
        }
    }
}
