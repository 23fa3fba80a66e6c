//! Oversized requests: tonic refuses a request message above `max_decoding_message_size` with
//! OUT_OF_RANGE, but gRPC's status-code guide and chessd's contract say a limit reached is
//! RESOURCE_EXHAUSTED. This response mapper, layered around every service, rewrites exactly
//! that status (recognised by tonic's message) into `ServiceError::RequestTooLarge`, with its
//! ErrorInfo. Every other response passes through untouched.

use tonic::{Code, Status};
use tower::util::MapResponseLayer;

use crate::error::ServiceError;

/// What tonic's own refusal says (checked by a test, so a tonic upgrade that rewords it fails
/// the build's tests rather than silently changing the code clients see).
const TONIC_TOO_LARGE: &str = "message length too large";

/// The layer: maps each response with [`rewrite`].
pub fn layer<B>(
    limit: usize,
) -> MapResponseLayer<impl Fn(http::Response<B>) -> http::Response<B> + Clone> {
    MapResponseLayer::new(move |response| rewrite(limit, response))
}

/// Turns tonic's OUT_OF_RANGE for an oversized request into RESOURCE_EXHAUSTED.
pub fn rewrite<B>(limit: usize, mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let too_large = Status::from_header_map(headers)
        .is_some_and(|s| s.code() == Code::OutOfRange && s.message().contains(TONIC_TOO_LARGE));
    if too_large {
        headers.remove(Status::GRPC_MESSAGE);
        headers.remove(Status::GRPC_STATUS_DETAILS);
        // Writing a status into headers fails only for an unencodable message; ours are plain.
        let _ = ServiceError::RequestTooLarge { limit }
            .status()
            .add_header(headers);
    }
    response
}

#[cfg(test)]
mod tests {
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
}
