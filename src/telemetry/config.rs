//! The flags and standard variables of traces, parsed at the edge: `--otlp-endpoint` (a
//! collector's OTLP/gRPC address, `http://HOST:PORT` or `https://HOST:PORT`, nothing else),
//! the service name, the collector's CA, and the OpenTelemetry variables that turn traces off
//! or ask for another protocol.

use std::ffi::OsStr;
use std::fmt;
use std::path::PathBuf;

/// The trace flags of `chessd serve`. Each flag also reads OpenTelemetry's own variable; the
/// hidden ones exist only because clap reads one variable per flag.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TelemetryArgs {
    /// Export traces over OTLP/gRPC to this collector (http://HOST:4317, or https://HOST:PORT
    /// for TLS; also read from OTEL_EXPORTER_OTLP_ENDPOINT). Off by default.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", value_parser = OtlpUrl)]
    pub otlp_endpoint: Option<OtlpEndpoint>,
    /// OTEL_EXPORTER_OTLP_ENDPOINT, the endpoint of every signal, which the traces' own
    /// variable and the flag override.
    #[arg(long = "otel-exporter-otlp-endpoint", env = "OTEL_EXPORTER_OTLP_ENDPOINT", value_parser = OtlpUrl, hide = true)]
    pub otlp_endpoint_any_signal: Option<OtlpEndpoint>,
    /// The service name traces carry (default: service.name in OTEL_RESOURCE_ATTRIBUTES, else
    /// chessd).
    #[arg(long, env = "OTEL_SERVICE_NAME", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub otel_service_name: Option<String>,
    /// With an https:// endpoint, trust this PEM CA certificate for the collector instead of
    /// the system's roots.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_CERTIFICATE")]
    pub otlp_ca_file: Option<PathBuf>,
    /// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: only `grpc` is spoken.
    #[arg(
        long = "otel-exporter-otlp-traces-protocol",
        env = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        hide = true
    )]
    pub otlp_protocol: Option<String>,
    /// OTEL_EXPORTER_OTLP_PROTOCOL: only `grpc` is spoken.
    #[arg(
        long = "otel-exporter-otlp-protocol",
        env = "OTEL_EXPORTER_OTLP_PROTOCOL",
        hide = true
    )]
    pub otlp_protocol_any_signal: Option<String>,
    /// OTEL_SDK_DISABLED=true turns traces off whatever else is set.
    #[arg(long = "otel-sdk-disabled", env = "OTEL_SDK_DISABLED", hide = true, value_parser = sdk_disabled, default_value = "false")]
    pub otel_sdk_disabled: bool,
}

impl TelemetryArgs {
    /// Where traces go, if anywhere: `--otlp-endpoint` (or
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), else `OTEL_EXPORTER_OTLP_ENDPOINT`, as
    /// OpenTelemetry's own precedence has it; nowhere with `OTEL_SDK_DISABLED=true`.
    #[must_use]
    pub fn config(&self) -> Option<TelemetryConfig> {
        if self.otel_sdk_disabled {
            return None;
        }
        let endpoint = self
            .otlp_endpoint
            .clone()
            .or_else(|| self.otlp_endpoint_any_signal.clone())?;
        let protocol = match (&self.otlp_protocol, &self.otlp_protocol_any_signal) {
            (Some(p), _) => Some(("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", p.clone())),
            (None, Some(p)) => Some(("OTEL_EXPORTER_OTLP_PROTOCOL", p.clone())),
            (None, None) => None,
        };
        Some(TelemetryConfig {
            endpoint,
            service_name: self.otel_service_name.clone(),
            ca_file: self.otlp_ca_file.clone(),
            protocol,
        })
    }
}

/// `OTEL_SDK_DISABLED`: `true` (any case) disables; anything else, as the specification
/// says, does not.
fn sdk_disabled(text: &str) -> Result<bool, String> {
    Ok(text.trim().eq_ignore_ascii_case("true"))
}

/// Where traces go, and under which service name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelemetryConfig {
    pub endpoint: OtlpEndpoint,
    /// `service.name` (`--otel-service-name`, `OTEL_SERVICE_NAME`); `None`: the one in
    /// `OTEL_RESOURCE_ATTRIBUTES`, else `chessd`.
    pub service_name: Option<String>,
    /// The collector's CA (`--otlp-ca-file`), for an https endpoint; `None`: the system's roots.
    pub ca_file: Option<PathBuf>,
    /// The protocol a variable asked for, and that variable's name; checked at start (only
    /// `grpc` is spoken), so that a setting meant for OTLP over HTTP is not silently ignored.
    pub protocol: Option<(&'static str, String)>,
}

/// A collector's OTLP/gRPC endpoint: scheme `http` or `https`, a host, an optional port, no
/// path, query or credentials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpEndpoint(String);

impl OtlpEndpoint {
    /// Checks `text` (the flag's or the variable's value).
    pub fn parse(text: &str) -> Result<OtlpEndpoint, String> {
        let text = text.trim();
        // Before anything quotes the value back.
        if text.contains('@') {
            return Err(
                "credentials in the endpoint are not sent; give them as headers in OTEL_EXPORTER_OTLP_HEADERS"
                    .to_owned(),
            );
        }
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
        // The URI parser takes any text after the host's colon; a dial would not.
        let after_host = &authority.as_str()[authority.host().len()..];
        if !after_host.is_empty() && authority.port_u16().is_none() {
            return Err(format!(
                "{text:?} is not a URL (the port is not a number); {expected}"
            ));
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

/// The clap parser of the endpoint flags, naming the flag or the variable in its refusal.
#[derive(Clone, Copy, Debug)]
struct OtlpUrl;

impl clap::builder::TypedValueParser for OtlpUrl {
    type Value = OtlpEndpoint;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<OtlpEndpoint, clap::Error> {
        let variable = arg
            .and_then(clap::Arg::get_env)
            .map(|v| v.to_string_lossy().into_owned());
        // The hidden flag is only ever its variable.
        let name = match (arg, variable) {
            (Some(arg), Some(variable)) if arg.is_hide_set() => variable,
            (_, Some(variable)) => format!("--otlp-endpoint (or {variable})"),
            (_, None) => "--otlp-endpoint".to_owned(),
        };
        let refuse = |why: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("{name}: {why}\n"),
            )
            .with_cmd(cmd)
        };
        let text = value
            .to_str()
            .ok_or_else(|| refuse("the endpoint is not UTF-8".to_owned()))?;
        OtlpEndpoint::parse(text).map_err(refuse)
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

    fn endpoint(text: &str) -> Option<OtlpEndpoint> {
        Some(OtlpEndpoint::parse(text).unwrap())
    }

    /// The traces' own endpoint (the flag or its variable) wins over every signal's; with
    /// neither, or with OTEL_SDK_DISABLED, traces are off.
    #[test]
    fn precedence() {
        let both = TelemetryArgs {
            otlp_endpoint: endpoint("http://traces:4317"),
            otlp_endpoint_any_signal: endpoint("http://all:4317"),
            ..TelemetryArgs::default()
        };
        assert_eq!(
            both.config().unwrap().endpoint.as_str(),
            "http://traces:4317"
        );
        let any = TelemetryArgs {
            otlp_endpoint_any_signal: endpoint("http://all:4317"),
            ..TelemetryArgs::default()
        };
        assert_eq!(any.config().unwrap().endpoint.as_str(), "http://all:4317");
        assert_eq!(TelemetryArgs::default().config(), None);
        let disabled = TelemetryArgs {
            otel_sdk_disabled: true,
            ..both.clone()
        };
        assert_eq!(disabled.config(), None);
        let protocols = TelemetryArgs {
            otlp_protocol: Some("grpc".into()),
            otlp_protocol_any_signal: Some("http/protobuf".into()),
            ..both
        };
        assert_eq!(
            protocols.config().unwrap().protocol,
            Some(("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc".to_owned()))
        );
    }

    /// Only `true`, in any case, disables.
    #[test]
    fn sdk_disabled_values() {
        assert_eq!(sdk_disabled("true"), Ok(true));
        assert_eq!(sdk_disabled(" TRUE "), Ok(true));
        for other in ["false", "1", "yes", ""] {
            assert_eq!(sdk_disabled(other), Ok(false), "{other}");
        }
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
