//! tonic's own refusals, recoded to chessd's contract. Some requests tonic refuses before
//! a handler runs, with codes or messages that say the wrong thing; this layer, around every
//! service, rewrites exactly those statuses (recognised by tonic's and prost's messages) into
//! the `ServiceError` that says what was wrong, with its ErrorInfo. Every other response
//! passes through untouched, after one look at its status headers.
//!
//! - **Oversized requests**: tonic refuses a message above `max_decoding_message_size` with
//!   OUT_OF_RANGE, but gRPC's status-code guide and chessd's contract say a limit reached is
//!   RESOURCE_EXHAUSTED (`LimitError::RequestTooLarge`, naming the limit).
//! - **Undecodable requests**: a body that is not a protobuf message of the method's type (or
//!   a frame cut short, no message at all, a compressed-flag byte other than 0 or 1, or a
//!   message flagged compressed on a call that names no `grpc-encoding`) tonic answers
//!   INTERNAL, which says "the server is broken" and invites retries. It is the client's
//!   fault: INVALID_ARGUMENT with reason `MALFORMED_REQUEST` (`RequestError::MalformedRequest`).
//!   gRPC's compression document asks for INTERNAL in the last case; chessd answers every
//!   malformed request alike, so a client (or an attacker's fuzzer) learns what it sent wrong
//!   and no alert fires for a server fault that is not one.
//! - **Unknown methods**: tonic answers UNIMPLEMENTED with no message; chessd names the path
//!   (`RequestError::UnknownMethod`, reason `UNKNOWN_METHOD`).
//!
//! One layer rather than one per refusal: each would parse every response's status headers.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use http::uri::PathAndQuery;
use pin_project_lite::pin_project;
use tonic::{Code, Status};
use tower::{Layer, Service};

use crate::api::error::RequestError;
use crate::error::ServiceError;
use crate::security::error::LimitError;

/// What tonic's own size refusal says (checked by a test, so a tonic upgrade that rewords it
/// fails the tests rather than silently changing the code clients see).
const TONIC_TOO_LARGE: &str = "message length too large";

/// The beginnings of tonic's and prost's decoding failures, and what each means (checked by
/// a test, so a tonic upgrade that rewords one fails the tests rather than silently changing
/// the code clients see).
const DECODING_FAILURES: [(&str, &str); 5] = [
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
    (
        "protocol error: received message with compressed-flag but no grpc-encoding",
        "the message is flagged compressed but the call names no grpc-encoding",
    ),
];

/// The longest path quoted back in an UNKNOWN_METHOD refusal.
const MAX_QUOTED_PATH: usize = 128;

/// The layer; `limit` is the request size limit every service has.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecodeLayer {
    limit: usize,
}

/// The layer for services whose request size limit is `limit`.
#[must_use]
pub(crate) fn layer(limit: usize) -> RecodeLayer {
    RecodeLayer { limit }
}

impl<S> Layer<S> for RecodeLayer {
    type Service = Recode<S>;

    fn layer(&self, inner: S) -> Recode<S> {
        Recode {
            inner,
            limit: self.limit,
        }
    }
}

/// See the module doc.
#[derive(Clone, Debug)]
pub(crate) struct Recode<S> {
    inner: S,
    limit: usize,
}

impl<S, B, RB> Service<http::Request<B>> for Recode<S>
where
    S: Service<http::Request<B>, Response = http::Response<RB>>,
{
    type Response = http::Response<RB>;
    type Error = S::Error;
    type Future = Recoded<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        // Kept for an UNKNOWN_METHOD answer; a reference-counted copy, not a new string.
        let path = request.uri().path_and_query().cloned();
        Recoded {
            inner: self.inner.call(request),
            limit: self.limit,
            path,
        }
    }
}

pin_project! {
    /// A call's future, its response recoded.
    pub struct Recoded<F> {
        #[pin]
        inner: F,
        limit: usize,
        path: Option<PathAndQuery>,
    }
}

impl<F, RB, E> std::future::Future for Recoded<F>
where
    F: std::future::Future<Output = Result<http::Response<RB>, E>>,
{
    type Output = Result<http::Response<RB>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = ready!(this.inner.poll(cx))?;
        let path = this.path.as_ref().map_or("", PathAndQuery::path);
        Poll::Ready(Ok(rewrite(*this.limit, path, response)))
    }
}

/// Replaces tonic's status for an oversized or undecodable request, or an unknown method,
/// with chessd's.
pub(crate) fn rewrite<B>(
    limit: usize,
    path: &str,
    mut response: http::Response<B>,
) -> http::Response<B> {
    let headers = response.headers_mut();
    let Some(status) = Status::from_header_map(headers) else {
        return response;
    };
    let recoded = match status.code() {
        Code::OutOfRange if status.message().contains(TONIC_TOO_LARGE) => {
            ServiceError::Limit(LimitError::RequestTooLarge { limit })
        }
        Code::Internal => match DECODING_FAILURES
            .iter()
            .find(|(start, _)| status.message().starts_with(start))
        {
            Some(&(_, detail)) => ServiceError::Request(RequestError::MalformedRequest { detail }),
            None => return response,
        },
        // tonic's router and generated servers say nothing; a handler's own UNIMPLEMENTED
        // would carry its message.
        Code::Unimplemented if status.message().is_empty() => {
            ServiceError::Request(RequestError::UnknownMethod { path: quoted(path) })
        }
        _ => return response,
    };
    headers.remove(Status::GRPC_MESSAGE);
    headers.remove(Status::GRPC_STATUS_DETAILS);
    // Writing a status into headers fails only for an unencodable message; ours are plain.
    let _ = recoded.status().add_header(headers);
    response
}

/// `path`, cut to [`MAX_QUOTED_PATH`] bytes (a path is ASCII, so any cut is a char boundary).
fn quoted(path: &str) -> String {
    let mut end = path.len().min(MAX_QUOTED_PATH);
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    path[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use tonic_types::StatusExt;

    use super::*;
    use crate::store::stream_error::StreamError;

    /// tonic's refusal becomes RESOURCE_EXHAUSTED with chessd's reason; other statuses pass.
    #[test]
    fn rewrites_only_the_size_refusal() {
        let tonic_says =
            "Error, decoded message length too large: found 1000 bytes, the limit is: 256 bytes";
        let response = rewrite(
            256,
            "/chessd.v1.GameService/GetGame",
            Status::out_of_range(tonic_says).into_http::<()>(),
        );
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "REQUEST_TOO_LARGE"
        );

        let other = ServiceError::Stream(StreamError::SeqOutOfRange {
            after_seq: 9,
            last_seq: 1,
        })
        .status();
        let response = rewrite(
            256,
            "/chessd.v1.GameService/GetGame",
            other.into_http::<()>(),
        );
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
            "protocol error: received message with compressed-flag but no grpc-encoding was specified".to_string(),
        ] {
            let response = rewrite(256, "/chessd.v1.GameService/GetGame", Status::internal(message.clone()).into_http::<()>());
            let status = Status::from_header_map(response.headers()).unwrap();
            assert_eq!(status.code(), Code::InvalidArgument, "{message}");
        }
        for kept in [
            Status::internal("internal error"),
            Status::not_found("failed to decode Protobuf message"),
        ] {
            let code = kept.code();
            let response = rewrite(
                256,
                "/chessd.v1.GameService/GetGame",
                kept.into_http::<()>(),
            );
            assert_eq!(
                Status::from_header_map(response.headers()).unwrap().code(),
                code
            );
        }
    }

    /// An UNIMPLEMENTED without a message (tonic's router) names the path; one with a
    /// message (a handler's own) passes.
    #[test]
    fn names_unknown_methods() {
        let response = rewrite(
            256,
            "/chessd.v1.GameService/Teleport",
            Status::unimplemented("").into_http::<()>(),
        );
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(status.code(), Code::Unimplemented);
        let info = status.get_details_error_info().unwrap();
        assert_eq!(info.reason, "UNKNOWN_METHOD");
        assert_eq!(info.metadata["method"], "/chessd.v1.GameService/Teleport");
        assert!(
            status.message().contains("Teleport"),
            "{}",
            status.message()
        );
        let long = format!("/{}", "x".repeat(1000));
        let response = rewrite(256, &long, Status::unimplemented("").into_http::<()>());
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(
            status.get_details_error_info().unwrap().metadata["method"].len(),
            MAX_QUOTED_PATH
        );
        let own = Status::unimplemented("not in this build");
        let response = rewrite(256, "/x/y", own.into_http::<()>());
        let status = Status::from_header_map(response.headers()).unwrap();
        assert_eq!(status.message(), "not in this build");
    }
}
