//! What `--otlp-endpoint` and `OTEL_SERVICE_NAME` configure, parsed at the edge: a collector's
//! OTLP/gRPC address is `http://HOST:PORT` or `https://HOST:PORT`, nothing else.

use std::fmt;

/// Where traces go, and under which service name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelemetryConfig {
    pub endpoint: OtlpEndpoint,
    /// `service.name` (`--otel-service-name`, `OTEL_SERVICE_NAME`); `None`: the one in
    /// `OTEL_RESOURCE_ATTRIBUTES`, else `chessd`.
    pub service_name: Option<String>,
}

/// A collector's OTLP/gRPC endpoint: scheme `http` or `https`, a host, an optional port, no
/// path, query or credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpEndpoint(String);

impl OtlpEndpoint {
    /// Checks `text` (the flag's or the variable's value).
    pub fn parse(text: &str) -> Result<OtlpEndpoint, String> {
        let text = text.trim();
        let expected = "expected http://HOST:PORT or https://HOST:PORT (a collector's OTLP/gRPC port, 4317 by default)";
        let uri: http::Uri = text
            .parse()
            .map_err(|e| format!("{text:?} is not a URL ({e}); {expected}"))?;
        match uri.scheme_str() {
            Some("http" | "https") => {}
            Some(other) => return Err(format!("scheme {other:?} in {text:?}; {expected}")),
            None => return Err(format!("no scheme in {text:?}; {expected}")),
        }
        let Some(authority) = uri.authority() else {
            return Err(format!("no host in {text:?}; {expected}"));
        };
        if authority.host().is_empty() {
            return Err(format!("no host in {text:?}; {expected}"));
        }
        if authority.as_str().contains('@') {
            return Err(
                "credentials in the endpoint are not sent; give them as headers in OTEL_EXPORTER_OTLP_HEADERS"
                    .to_owned(),
            );
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(format!(
                "a path ({}) is for OTLP over HTTP; chessd exports OTLP over gRPC, to an endpoint without a path: {expected}",
                uri.path_and_query().map_or("", |p| p.as_str())
            ));
        }
        Ok(OtlpEndpoint(text.to_owned()))
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// TLS to the collector.
    #[must_use]
    pub fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }
}

impl fmt::Display for OtlpEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scheme, a host and a port are taken as given.
    #[test]
    fn accepts_grpc_endpoints() {
        for ok in [
            "http://127.0.0.1:4317",
            "http://otel-collector.observability:4317/",
            "https://otlp.example.com:443",
            "http://[::1]:4317",
            " http://collector:4317 ",
        ] {
            let endpoint = OtlpEndpoint::parse(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(endpoint.as_str(), ok.trim());
        }
        assert!(OtlpEndpoint::parse("https://c:4317").unwrap().is_https());
        assert!(!OtlpEndpoint::parse("http://c:4317").unwrap().is_https());
    }

    /// What an operator might mistype is refused with the reason.
    #[test]
    fn refuses_the_rest() {
        for (bad, why) in [
            ("collector:4317", "scheme"),
            ("localhost", "scheme"),
            ("grpc://collector:4317", "scheme \"grpc\""),
            ("http://", "not a URL"),
            ("http://collector:4318/v1/traces", "OTLP over HTTP"),
            ("http://collector:4317?x=1", "OTLP over HTTP"),
            (
                "http://user:secret@collector:4317",
                "OTEL_EXPORTER_OTLP_HEADERS",
            ),
            ("http://collector:port", "not a URL"),
            ("", "not a URL"),
        ] {
            let e = OtlpEndpoint::parse(bad).expect_err(bad);
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
