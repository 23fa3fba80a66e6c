//! Who may call what, end to end: the gate applies each RPC's row of `security::access`
//! before the body is decoded, and a credential the gate admits a call for is the one the
//! handler then reads.

use chessd::ServerConfig;
use chessd::proto as pb;
use tonic::metadata::MetadataValue;
use tonic::{Code, Request};

use crate::TempDir;
use crate::support::{self, assert_refused};

const KEY: &str = "platform-a-0123456789abcdef0123456789";

/// A bearer credential that starts like a player token but is not visible ASCII: the handler
/// cannot read it as a player token, so the gate must not admit the feed for one. Were it
/// admitted, the handler would serve the whole feed, a backend's read, to a caller with no key.
#[tokio::test]
async fn a_feed_admitted_for_a_player_token_has_one() {
    let dir = TempDir::new("access");
    let mut config = ServerConfig::default();
    config.security.api_key_file = Some(dir.write("keys", &format!("{KEY}\n")));
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    let mut bytes = b"Bearer chp_".to_vec();
    bytes.extend_from_slice(&[0xC3, 0xA9]);
    bytes.extend_from_slice(&[b'0'; 30]);
    let value = MetadataValue::try_from(bytes.as_slice()).expect("obs-text is a header value");
    let mut request = Request::new(pb::WatchGamesRequest::default());
    request.metadata_mut().insert("authorization", value);
    assert_refused(
        client.watch_games(request).await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    server.shutdown().await.unwrap();
}

/// With `--private-watch`, the list of every game is refused at the gate, before its body is
/// read: a caller without a key learns nothing about the request it would have made.
#[tokio::test]
async fn private_lists_are_refused_before_decoding() {
    let mut config = ServerConfig::default();
    config.security.private_watch = true;
    let server = support::start_with(config).await;
    let mut client = server.client().await;
    assert_refused(
        client
            .list_games(pb::ListGamesRequest {
                page_token: "not a page token".into(),
                ..Default::default()
            })
            .await,
        Code::Unauthenticated,
        "API_KEY_MISSING",
    );
    server.shutdown().await.unwrap();
}
