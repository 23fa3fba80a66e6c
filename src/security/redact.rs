//! Credentials never reach a log: every request's `authorization` and `x-api-key` values are
//! marked sensitive as they arrive (by the `gate`, first thing), so `http`'s and tonic's `Debug` print `Sensitive` instead
//! of them, whoever logs a request or its metadata later (chessd's own spans record only the
//! method, the game id and the request id).

/// `x-api-key`, the header that presents an API key.
pub(crate) static X_API_KEY: http::HeaderName = http::HeaderName::from_static("x-api-key");

/// The metadata that carry secrets. Names, not text: a name given as text is parsed again on
/// every look-up, and this runs on every call.
pub(crate) static SECRET_HEADERS: [http::HeaderName; 2] = [
    http::header::AUTHORIZATION,
    http::HeaderName::from_static("x-api-key"),
];

/// Marks every value of the secret headers sensitive.
pub(crate) fn mark<B>(mut request: http::Request<B>) -> http::Request<B> {
    for name in &SECRET_HEADERS {
        if let http::header::Entry::Occupied(mut entry) = request.headers_mut().entry(name.clone())
        {
            for value in entry.iter_mut() {
                value.set_sensitive(true);
            }
        }
    }
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After marking, neither the request's nor tonic's metadata `Debug` shows the secrets.
    #[test]
    fn secrets_print_as_sensitive() {
        let request = http::Request::builder()
            .header("authorization", "Bearer 0123456789abcdef0123456789abcdef")
            .header("x-api-key", "k-secret-key-1")
            .header("x-request-id", "r-1")
            .body(())
            .unwrap();
        let before = format!("{request:?}");
        assert!(before.contains("0123456789abcdef"), "{before}");
        let request = mark(request);
        let after = format!("{request:?}");
        assert!(!after.contains("0123456789abcdef"), "{after}");
        assert!(!after.contains("k-secret-key-1"), "{after}");
        assert!(
            after.contains("r-1"),
            "other metadata stays readable: {after}"
        );
        let metadata = tonic::metadata::MetadataMap::from_headers(request.headers().clone());
        let debug = format!("{metadata:?}");
        assert!(!debug.contains("0123456789abcdef"), "{debug}");
        assert!(
            metadata
                .get("authorization")
                .unwrap()
                .to_str()
                .unwrap()
                .ends_with("cdef"),
            "the handlers still read the value"
        );
    }
}
