//! Backend API keys (`--api-key-file`): who may make the backend's calls (create and list
//! games, read statistics, the feed, player tokens, an arbiter's clock changes; the rows of
//! `access::RPCS` whose access is a key's).
//!
//! The file holds one key a line; blank lines and lines starting with `#` are skipped, so keys
//! can be labelled and rotated without downtime: add the new key, move the backends over,
//! remove the old one. The file is read again on SIGHUP and when its modification time or size
//! changes (checked every [`POLL_PERIOD`]); a file that no longer parses, or holds no key, is
//! refused with an error in the log and the keys in force stay.
//!
//! Keys are kept only as SHA-256 digests (like seat tokens, see `token::TokenDigest`; keys are
//! meant to be long random strings, so a fast hash is enough) and a presented key is compared
//! with every one of them in constant time, so neither the memory nor the timing of a refusal
//! tells anything about them. A key is known in logs and limiters by [`KeyId`], the first 8
//! bytes of its digest in hex, which says which key was used without revealing it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::security::SetupError;

/// The shortest key accepted: 128 bits of hex or 96 bits of base64, whichever a platform
/// generates; anything shorter could be guessed.
pub(crate) const MIN_KEY_LEN: usize = 24;
/// The longest key accepted.
pub(crate) const MAX_KEY_LEN: usize = 512;
/// How often the file's modification time and size are looked at.
pub(crate) const POLL_PERIOD: Duration = Duration::from_secs(2);

/// Which key a caller presented, safe to log.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(u64);

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyId({self})")
    }
}

/// The keys in force.
#[derive(Debug)]
pub struct ApiKeys {
    path: PathBuf,
    /// Replaced whole on reload. A std `RwLock`: read for one comparison, written on reload,
    /// never held across an await.
    digests: RwLock<Arc<Vec<[u8; 32]>>>,
    /// The file's modification time and size at the last load.
    stamp: RwLock<Option<(SystemTime, u64)>>,
}

impl ApiKeys {
    /// Reads the key file; at least one key is required.
    pub fn load(path: &Path) -> Result<ApiKeys, SetupError> {
        let stamp = stamp(path);
        let digests = read(path)?;
        Ok(ApiKeys {
            path: path.to_owned(),
            digests: RwLock::new(Arc::new(digests)),
            stamp: RwLock::new(stamp),
        })
    }

    /// The id of the key `presented` if it is one of the keys in force. Every key is compared,
    /// whatever matches first.
    #[must_use]
    pub fn check(&self, presented: &[u8]) -> Option<KeyId> {
        let digest: [u8; 32] = Sha256::digest(presented).into();
        let keys = self
            .digests
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let mut found = None;
        for key in keys.iter() {
            if bool::from(key.ct_eq(&digest)) {
                found = Some(key_id(key));
            }
        }
        found
    }

    /// Number of keys in force.
    #[must_use]
    pub fn len(&self) -> usize {
        self.digests
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the file again; on failure the keys in force stay. Returns the number of keys.
    pub fn reload(&self) -> Result<usize, SetupError> {
        let stamp_now = stamp(&self.path);
        let digests = read(&self.path)?;
        let n = digests.len();
        *self
            .digests
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(digests);
        *self
            .stamp
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = stamp_now;
        Ok(n)
    }

    /// Whether the file looks changed since the last load.
    fn changed(&self) -> bool {
        let now = stamp(&self.path);
        now.is_some()
            && now
                != *self
                    .stamp
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reloads on SIGHUP and when the file changes, for as long as the keys are in use.
    pub fn spawn_reloader(keys: &Arc<ApiKeys>) -> tokio::task::JoinHandle<()> {
        let weak: Weak<ApiKeys> = Arc::downgrade(keys);
        // Registered before this returns, not when the task first runs: a SIGHUP sent right
        // after start must reload, not kill the process (SIGHUP's default action).
        #[cfg(unix)]
        let mut hangup = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        {
            Ok(signal) => Some(signal),
            Err(e) => {
                tracing::warn!(error = %e, "no SIGHUP handler: API keys reload only when the file changes");
                None
            }
        };
        tokio::spawn(async move {
            let mut poll = tokio::time::interval(POLL_PERIOD);
            poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                #[cfg(unix)]
                let signalled = async {
                    match hangup.as_mut() {
                        Some(h) => h.recv().await.is_some(),
                        None => std::future::pending().await,
                    }
                };
                #[cfg(not(unix))]
                let signalled = std::future::pending::<bool>();
                let why = tokio::select! {
                    true = signalled => "SIGHUP",
                    _ = poll.tick() => "file changed",
                };
                let Some(keys) = weak.upgrade() else { return };
                if why == "file changed" && !keys.changed() {
                    continue;
                }
                match keys.reload() {
                    Ok(n) => tracing::info!(keys = n, reason = why, "API keys reloaded"),
                    Err(e) => tracing::error!(
                        error = %e,
                        reason = why,
                        "API keys not reloaded; the keys in force stay"
                    ),
                }
            }
        })
    }
}

fn key_id(digest: &[u8; 32]) -> KeyId {
    let mut first = [0; 8];
    first.copy_from_slice(&digest[..8]);
    KeyId(u64::from_be_bytes(first))
}

fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The digests of the keys in the file.
fn read(path: &Path) -> Result<Vec<[u8; 32]>, SetupError> {
    let text = std::fs::read_to_string(path).map_err(|cause| SetupError::Read {
        flag: "api-key-file",
        path: path.to_owned(),
        cause,
    })?;
    parse(&text).map_err(|problem| SetupError::Content {
        flag: "api-key-file",
        path: path.to_owned(),
        problem,
    })
}

/// The digests of the keys in a key file's text. Errors name the line, never the key.
pub(crate) fn parse(text: &str) -> Result<Vec<[u8; 32]>, String> {
    let mut digests = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let key = line.trim();
        if key.is_empty() || key.starts_with('#') {
            continue;
        }
        let n = i + 1;
        if !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!(
                "line {n}: a key is printable ASCII without spaces (metadata values cannot carry more)"
            ));
        }
        if key.len() < MIN_KEY_LEN || key.len() > MAX_KEY_LEN {
            return Err(format!(
                "line {n}: a key is {MIN_KEY_LEN} to {MAX_KEY_LEN} characters, this one has {}",
                key.len()
            ));
        }
        let digest: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        if !digests.contains(&digest) {
            digests.push(digest);
        }
    }
    if digests.is_empty() {
        return Err("no key in the file (one key a line, # starts a comment)".into());
    }
    Ok(digests)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    /// Comments and blank lines are skipped; bad lines are named by number, never echoed.
    #[test]
    fn parsing() {
        let keys = parse(&format!("# platform A\n{A}\n\n  {B}  \n# old: {A}x\n")).unwrap();
        assert_eq!(keys.len(), 2);
        for (text, line) in [
            (format!("{A}\nshort\n"), "line 2"),
            (format!("# x\n{A} {B}\n"), "line 2"),
            (format!("{A}é\n"), "line 1"),
        ] {
            let e = parse(&text).unwrap_err();
            assert!(e.contains(line), "{e}");
            assert!(!e.contains("aaaa"), "{e}");
        }
        assert!(parse("# nothing\n\n").unwrap_err().contains("no key"));
    }

    /// Only keys in force match; a reload swaps them; a broken file keeps the old ones.
    #[test]
    fn check_and_reload() {
        let dir = std::env::temp_dir().join(format!("chessd-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("keys");
        std::fs::write(&path, format!("{A}\n")).unwrap();
        let keys = ApiKeys::load(&path).unwrap();
        let id = keys.check(A.as_bytes()).expect("A is a key");
        assert_eq!(id.to_string().len(), 16);
        assert!(keys.check(B.as_bytes()).is_none());
        assert!(keys.check(b"").is_none());
        std::fs::write(&path, format!("{B}\n")).unwrap();
        assert_eq!(keys.reload().unwrap(), 1);
        assert!(keys.check(A.as_bytes()).is_none(), "A was rotated out");
        assert!(keys.check(B.as_bytes()).is_some());
        assert!(!keys.changed(), "nothing changed since the reload");
        std::fs::write(&path, format!("# rotated again\n{A}\n")).unwrap();
        assert!(keys.changed(), "the poll notices a rewritten file");
        keys.reload().unwrap();
        std::fs::write(&path, "# emptied by mistake\n").unwrap();
        assert!(keys.reload().is_err());
        assert!(keys.check(A.as_bytes()).is_some(), "A stays in force");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
