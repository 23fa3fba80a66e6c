//! The Fairy-Stockfish variants file an engine loads (its `VariantPath` option) for a game its
//! `UCI_Variant` list lacks: the user's `--variants-file`, or the one the bot ships
//! (`data/fsf-variants.ini`, defining bkhorde and massacre), embedded in the binary so an
//! installed bot needs no data folder.
//!
//! An engine reads the file when the option is set, and the bot asks `uci` again right after,
//! so by the time the answer comes the file is read: the bundled copy is written to a fresh
//! file in the temp folder for that moment only and removed when its [`Loadable`] drops.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The bot's own definitions.
pub const BUNDLED: &str = include_str!("../data/fsf-variants.ini");

/// Which file to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantsFile {
    /// The bot's own, [`BUNDLED`].
    Bundled,
    /// The user's (`--variants-file`).
    Path(PathBuf),
}

impl VariantsFile {
    /// The file to load for a game: the user's if given (it may define any game), else the
    /// bundled one for the games it defines, else none.
    #[must_use]
    pub fn for_game(user: Option<&Path>, bundled_defines_it: bool) -> Option<VariantsFile> {
        match user {
            Some(path) => Some(VariantsFile::Path(path.to_owned())),
            None => bundled_defines_it.then_some(VariantsFile::Bundled),
        }
    }

    /// A path the engine can read now; the bundled text is written out for the occasion.
    pub fn materialize(&self) -> std::io::Result<Loadable> {
        match self {
            VariantsFile::Path(path) => Ok(Loadable {
                path: path.clone(),
                temporary: false,
            }),
            VariantsFile::Bundled => {
                let random = getrandom::u64().map_err(std::io::Error::other)?;
                let path = std::env::temp_dir().join(format!(
                    "chessd-bot-{}-{random:016x}.ini",
                    std::process::id()
                ));
                // `create_new`: never write through a file or link someone else put there.
                let mut file = std::fs::File::options()
                    .write(true)
                    .create_new(true)
                    .open(&path)?;
                let written = file.write_all(BUNDLED.as_bytes());
                let loadable = Loadable {
                    path,
                    temporary: true,
                };
                written.map(|()| loadable)
            }
        }
    }
}

impl std::fmt::Display for VariantsFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariantsFile::Bundled => f.write_str("the bot's own variants file"),
            VariantsFile::Path(path) => write!(f, "the variants file {}", path.display()),
        }
    }
}

/// A variants file on disk, removed on drop when the bot wrote it.
#[derive(Debug)]
pub struct Loadable {
    pub path: PathBuf,
    temporary: bool,
}

impl Drop for Loadable {
    fn drop(&mut self) {
        if self.temporary {
            // Best effort: the OS cleans its temp folder anyway.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bundled file defines exactly the games the profile table says it does, and is the
    /// rules tests' oracle file game for game.
    #[test]
    fn bundled_defines_the_file_games() {
        let sections = |text: &str| -> Vec<String> {
            text.lines()
                .filter_map(|l| l.strip_prefix('['))
                .filter_map(|l| l.split(':').next())
                .map(str::to_owned)
                .collect()
        };
        let defined = sections(BUNDLED);
        let wanted: Vec<String> = crate::variant::names()
            .into_iter()
            .filter(|n| crate::variant::named(n).is_some_and(|p| p.in_variants_file))
            .map(str::to_owned)
            .collect();
        assert_eq!(defined, wanted);
        // The oracle file also defines games no engine plays through chessd (Dark Chess: a
        // seat never gets the position an engine needs; the dice games: the die restricts
        // the moves); the games both define are the same text.
        let oracle = include_str!("../../rules/tools/fsf_variants.ini");
        let body = |text: &str| -> Vec<String> {
            let mut keep = true;
            text.lines()
                .filter(|l| {
                    if let Some(name) = l.strip_prefix('[').and_then(|l| l.split(':').next()) {
                        keep = defined.iter().any(|d| d == name);
                    }
                    keep && !l.starts_with('#') && !l.trim().is_empty()
                })
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(body(BUNDLED), body(oracle));
    }

    /// The bundled copy is written to a fresh file that goes when dropped; a user's file is
    /// used where it is and left alone.
    #[test]
    fn materialized_files() {
        let bundled = VariantsFile::Bundled.materialize().unwrap();
        let path = bundled.path.clone();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), BUNDLED);
        drop(bundled);
        assert!(!path.exists());
        let own = crate::tempfile::write(b"[mine:chess]\n");
        let user = VariantsFile::Path(own.to_path_buf()).materialize().unwrap();
        assert_eq!(user.path, own.to_path_buf());
        drop(user);
        assert!(own.exists());
        assert_eq!(
            VariantsFile::for_game(None, true),
            Some(VariantsFile::Bundled)
        );
        assert_eq!(VariantsFile::for_game(None, false), None);
        assert_eq!(
            VariantsFile::for_game(Some(&own), false),
            Some(VariantsFile::Path(own.to_path_buf()))
        );
    }
}
