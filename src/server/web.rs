//! The browser side of the gRPC port: the spectator page's static files and CORS for gRPC-Web.
//!
//! The page (`web/`, TypeScript built into `web/dist/` by `web/build.sh`) is committed and
//! embedded here with `include_bytes!`, so building and running chessd never needs Node. The
//! page talks gRPC-Web to the same port (tonic-web, layered in `run`).
//!
//! [`WebLayer`] sits in front of every gRPC service and splits requests by content type:
//! anything whose `content-type` starts with `application/grpc` (gRPC, gRPC-Web, gRPC-Web-text)
//! goes to the services untouched; everything else is a static-file request: `GET`/`HEAD` of
//! a known path answers the file with its content type, an ETag (revalidated with
//! `If-None-Match`), gzip when the client takes it, and a strict Content-Security-Policy; other methods on a known path get
//! 405; unknown paths, and every path under `--no-web`, get 404. Besides the built files,
//! `/config.json` tells the page what this deployment lets it do (`--page-create`: the time
//! controls it may offer), made once at start.

use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::future::{Either, Ready, ready};
use http::header::{self, HeaderName, HeaderValue};
use http::{Method, Request, Response, StatusCode};
use http_body_util::Full;
use tonic::body::Body;
use tonic::codegen::Bytes;
use tower::{Layer, Service};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// The page's Content-Security-Policy: only its own script, style and API; no inline code, no
/// frames, no foreign requests.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// How long a browser may cache a CORS preflight answer.
const CORS_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The browser settings of the server (`--no-web`, `--cors-allow-origin`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebConfig {
    /// Serve the spectator page at `/`.
    pub page: bool,
    /// Origins (`https://host[:port]`, or `*`) allowed to call the API with gRPC-Web from
    /// another site; empty: no CORS headers (same-origin callers need none).
    pub cors_allow_origins: Vec<String>,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            page: true,
            cors_allow_origins: Vec::new(),
        }
    }
}

/// One embedded file.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

/// Every file of the page, as `web/build.sh` writes them.
const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_bytes!("../../web/dist/index.html"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../../web/dist/app.js"),
    },
    Asset {
        path: "/app.css",
        content_type: "text/css; charset=utf-8",
        body: include_bytes!("../../web/dist/app.css"),
    },
    Asset {
        path: "/licenses.txt",
        content_type: "text/plain; charset=utf-8",
        body: include_bytes!("../../web/dist/licenses.txt"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_bytes!("../../web/dist/favicon.svg"),
    },
];

/// A file ready to serve: its ETag is a hash of its bytes, computed once at startup, and a
/// gzip copy when that is smaller (the script shrinks to about a third).
struct Served {
    path: &'static str,
    content_type: &'static str,
    body: Bytes,
    etag: HeaderValue,
    gzip: Option<(Bytes, HeaderValue)>,
}

impl Served {
    fn new(path: &'static str, content_type: &'static str, body: Bytes) -> Served {
        Served {
            path,
            content_type,
            etag: etag_of(&body, ""),
            gzip: gzip(&body).map(|g| (g, etag_of(&body, "-gzip"))),
            body,
        }
    }
}

/// Files smaller than this are sent as they are: gzip would save less than a packet.
const GZIP_MIN_BYTES: usize = 1024;

/// The static site: the files when the page is on, none under `--no-web`.
struct Site {
    files: Vec<Served>,
}

impl Site {
    /// The page's files and `/config.json` (`config_json`), or none.
    fn new(page: bool, config_json: String) -> Site {
        let files = if page {
            ASSETS
                .iter()
                .map(|a| Served::new(a.path, a.content_type, Bytes::from_static(a.body)))
                .chain(std::iter::once(Served::new(
                    "/config.json",
                    "application/json",
                    Bytes::from(config_json),
                )))
                .collect()
        } else {
            Vec::new()
        };
        Site { files }
    }

    fn answer<B>(&self, request: &Request<B>) -> Response<Body> {
        let Some(file) = self.files.iter().find(|f| f.path == request.uri().path()) else {
            return plain(StatusCode::NOT_FOUND, "not found\n");
        };
        let method = request.method();
        if method != Method::GET && method != Method::HEAD {
            let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed\n");
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return response;
        }
        let (body, etag, gzipped) = match &file.gzip {
            Some((gz, etag)) if accepts_gzip(request.headers()) => (gz.clone(), etag, true),
            _ => (file.body.clone(), &file.etag, false),
        };
        let fresh = request
            .headers()
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.trim_start_matches("W/") == etag
            });
        let length = body.len();
        let status = if fresh {
            StatusCode::NOT_MODIFIED
        } else {
            StatusCode::OK
        };
        let body = if fresh || method == Method::HEAD {
            Bytes::new()
        } else {
            body
        };
        let mut response = Response::new(Body::new(Full::new(body)));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(file.content_type),
        );
        if status == StatusCode::OK {
            headers.insert(header::CONTENT_LENGTH, length.into());
        }
        if gzipped {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        if file.gzip.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        headers.insert(header::ETAG, etag.clone());
        // The names are fixed, so browsers revalidate each time (a 304 costs one round trip)
        // and never run an old script against a new server.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        security_headers(headers);
        response
    }
}

/// The gzip of `body`, when it is worth sending instead.
fn gzip(body: &[u8]) -> Option<Bytes> {
    use std::io::Write;
    if body.len() < GZIP_MIN_BYTES {
        return None;
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    encoder.write_all(body).ok()?;
    let compressed = encoder.finish().ok()?;
    (compressed.len() < body.len()).then(|| Bytes::from(compressed))
}

/// Whether the client takes gzip (`Accept-Encoding: gzip`, not refused with `q=0`).
fn accepts_gzip(headers: &http::HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// The headers every static answer carries.
fn security_headers(headers: &mut http::HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Body::new(Full::new(Bytes::from_static(text.as_bytes()))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    security_headers(response.headers_mut());
    response
}

/// A strong ETag: the 64-bit FNV-1a hash of the bytes (stable across builds and runs, so a
/// restarted server with the same page keeps browsers' caches valid), with `suffix` naming
/// the encoding (each representation has its own tag).
fn etag_of(bytes: &[u8], suffix: &str) -> HeaderValue {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    // Hex digits, quotes and the fixed suffixes are always a valid header value; the fallback
    // is never taken, and a constant tag would only cost revalidations, never a panic.
    HeaderValue::from_str(&format!("\"{hash:016x}{suffix}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("\"chessd\""))
}

/// Whether a request is for the gRPC services (gRPC, gRPC-Web, gRPC-Web-text).
fn is_grpc<B>(request: &Request<B>) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/grpc"))
}

/// The layer that answers static-file requests and passes gRPC through.
#[derive(Clone)]
pub struct WebLayer {
    site: Arc<Site>,
}

impl WebLayer {
    /// The layer for `config` (no files under `--no-web`: every non-gRPC request gets 404),
    /// serving `config_json` at `/config.json`.
    #[must_use]
    pub fn new(config: &WebConfig, config_json: String) -> WebLayer {
        WebLayer {
            site: Arc::new(Site::new(config.page, config_json)),
        }
    }
}

impl<S> Layer<S> for WebLayer {
    type Service = WebService<S>;

    fn layer(&self, inner: S) -> WebService<S> {
        WebService {
            inner,
            site: Arc::clone(&self.site),
        }
    }
}

/// See [`WebLayer`].
#[derive(Clone)]
pub struct WebService<S> {
    inner: S,
    site: Arc<Site>,
}

impl<S, B> Service<Request<B>> for WebService<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    /// gRPC calls go on with the inner future, unboxed; the page's files are answered at once.
    type Future = Either<Ready<Result<Response<Body>, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if is_grpc(&request) {
            return Either::Right(self.inner.call(request));
        }
        let response = self.site.answer(&request);
        tracing::debug!(
            method = %request.method(),
            path = request.uri().path(),
            status = response.status().as_u16(),
            "static file"
        );
        Either::Left(ready(Ok(response)))
    }
}

/// The CORS layer for `--cors-allow-origin`, or `None` when no origin is allowed (then no CORS
/// header is ever sent and browsers refuse cross-site calls).
#[must_use]
pub fn cors_layer(config: &WebConfig) -> Option<CorsLayer> {
    if config.cors_allow_origins.is_empty() {
        return None;
    }
    let origin = if config.cors_allow_origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        // The flag's parser (`origin`) admitted only valid header values.
        AllowOrigin::list(
            config
                .cors_allow_origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o).ok()),
        )
    };
    let name = HeaderName::from_static;
    Some(
        CorsLayer::new()
            .allow_origin(origin)
            .allow_methods([Method::POST])
            .allow_headers([
                header::CONTENT_TYPE,
                header::AUTHORIZATION,
                name("x-grpc-web"),
                name("x-user-agent"),
                name("grpc-timeout"),
                // W3C Trace Context, so that a traced page's calls join its trace (see
                // `telemetry::propagate`).
                name("traceparent"),
                name("tracestate"),
            ])
            .expose_headers([
                name("grpc-status"),
                name("grpc-message"),
                name("grpc-status-details-bin"),
            ])
            .max_age(CORS_MAX_AGE),
    )
}

/// Parses a `--cors-allow-origin` value: `*`, or a scheme and host with an optional port and
/// nothing else (`https://example.com`, `http://localhost:5173`), as browsers send `Origin`.
pub fn origin(text: &str) -> Result<String, String> {
    let lower = text.trim().to_ascii_lowercase();
    let t = lower.as_str();
    if t == "*" {
        return Ok(lower);
    }
    let invalid = || {
        format!(
            "expected an origin such as https://example.com or http://localhost:8080, or *, got {text:?}"
        )
    };
    let rest = t
        .strip_prefix("http://")
        .or_else(|| t.strip_prefix("https://"))
        .ok_or_else(invalid)?;
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && (host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            || (host.starts_with('[')
                && host.ends_with(']')
                && host[1..host.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')));
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok());
    if host_ok && port_ok {
        Ok(lower)
    } else {
        Err(invalid())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Origins as browsers send them pass; paths, other schemes and garbage do not.
    #[test]
    fn origins() {
        for good in [
            "*",
            "https://example.com",
            "http://localhost:5173",
            "http://127.0.0.1:8080",
            "http://[::1]:8080",
        ] {
            assert!(origin(good).is_ok(), "{good}");
        }
        assert_eq!(
            origin("HTTPS://Example.COM").as_deref(),
            Ok("https://example.com")
        );
        for bad in [
            "",
            "example.com",
            "ftp://example.com",
            "https://",
            "https://example.com/",
            "https://example.com/path",
            "https://example.com:99999",
            "https://example.com:",
            "https://exa mple.com",
            "https://user@example.com",
        ] {
            assert!(origin(bad).is_err(), "{bad}");
        }
    }

    /// gzip is taken unless refused with q=0.
    #[test]
    fn accept_encoding() {
        let accepts = |value: &str| {
            let mut headers = http::HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
            accepts_gzip(&headers)
        };
        assert!(accepts("gzip"));
        assert!(accepts("gzip, deflate, br, zstd"));
        assert!(accepts("br;q=1.0, GZIP;q=0.5"));
        assert!(accepts("*"));
        assert!(!accepts("br"));
        assert!(!accepts("gzip;q=0"));
        assert!(!accepts("identity"));
        assert!(!accepts_gzip(&http::HeaderMap::new()));
    }

    /// Every embedded file has an ETag that changes with its bytes.
    #[test]
    fn etags_follow_content() {
        assert_ne!(etag_of(b"a", ""), etag_of(b"b", ""));
        assert_eq!(etag_of(b"a", ""), etag_of(b"a", ""));
        assert_ne!(etag_of(b"a", ""), etag_of(b"a", "-gzip"));
        let site = Site::new(true, "{}".into());
        assert_eq!(site.files.len(), ASSETS.len() + 1);
        assert!(Site::new(false, "{}".into()).files.is_empty());
    }
}
