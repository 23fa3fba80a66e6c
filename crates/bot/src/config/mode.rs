//! The mode: one game (`--game` with `--token`) or player mode (`--player-token`, with
//! `--max-games`), from the command line, the environment or the `--config` file.

use std::fmt;

use super::{ConfigError, err};
use crate::cli::Cli;

pub const DEFAULT_MAX_GAMES: usize = 1;
/// The most `--max-games` takes: each game runs an engine process, and a machine that runs
/// more than this many engines at once plays none of them well.
pub const MAX_MAX_GAMES: u32 = 256;

/// A token, never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    #[must_use]
    pub fn new(text: &str) -> Secret {
        Secret(text.to_owned())
    }

    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// What the bot plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--game` and `--token`: that seat of that game.
    Single { game: String, token: Secret },
    /// `--player-token`: every game the player is seated in, at most `max_games` at once.
    Player { token: Secret, max_games: usize },
}

/// One game (`--game` with `--token`) or player mode (`--player-token`, from the command
/// line, the environment or the file's `player-token`). `--game` on the command line picks
/// one game, so a player's config file also serves for a one-off game.
pub(super) fn resolve(
    cli: &Cli,
    file_token: Option<String>,
    file_max_games: Option<u32>,
) -> Result<Mode, ConfigError> {
    if let Some(game) = &cli.game {
        if cli.max_games.is_some() {
            return err("--max-games: only with --player-token (player mode), not with --game");
        }
        let Some(token) = cli.token.clone().filter(|t| !t.trim().is_empty()) else {
            return err(
                "--game needs --token (or CHESSD_TOKEN): the seat token of the side to play",
            );
        };
        return Ok(Mode::Single {
            game: game.clone(),
            token: Secret(token),
        });
    }
    let Some(token) = cli.player_token.clone().or(file_token) else {
        return err(
            "nothing to play: give --game ID with --token TOKEN (one game), or --player-token \
             TOKEN (every game of a player)",
        );
    };
    if token.trim().is_empty() {
        return err("player-token: empty");
    }
    let max_games = match cli.max_games.or(file_max_games) {
        None => DEFAULT_MAX_GAMES,
        Some(n @ 1..=MAX_MAX_GAMES) => n as usize,
        Some(n) => {
            return err(format!(
                "max-games: expected 1 to {MAX_MAX_GAMES} games at once, got {n}"
            ));
        }
    };
    Ok(Mode::Player {
        token: Secret(token),
        max_games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn mode(
        args: &[&str],
        file_token: Option<&str>,
        file_max: Option<u32>,
    ) -> Result<Mode, String> {
        let cli = Cli::try_parse_from([&["chessd-bot"][..], args].concat()).unwrap();
        resolve(&cli, file_token.map(str::to_owned), file_max).map_err(|e| e.0)
    }

    /// `--game` with `--token` plays one game; a player token (flag or file) plays the
    /// player's games, one at a time unless `max-games` says more; the command line wins.
    #[test]
    fn modes() {
        assert_eq!(
            mode(&["--game", "G", "--token", "T"], None, None),
            Ok(Mode::Single {
                game: "G".into(),
                token: Secret("T".into())
            })
        );
        assert_eq!(
            mode(&["--player-token", "chp_1"], None, None),
            Ok(Mode::Player {
                token: Secret("chp_1".into()),
                max_games: DEFAULT_MAX_GAMES
            })
        );
        assert_eq!(
            mode(&[], Some("chp_2"), Some(4)),
            Ok(Mode::Player {
                token: Secret("chp_2".into()),
                max_games: 4
            })
        );
        assert_eq!(
            mode(
                &["--player-token", "chp_1", "--max-games", "2"],
                Some("chp_2"),
                Some(4)
            ),
            Ok(Mode::Player {
                token: Secret("chp_1".into()),
                max_games: 2
            })
        );
        // --game picks one game over the file's player token.
        let single = mode(&["--game", "G", "--token", "T"], Some("chp_2"), Some(4)).unwrap();
        assert!(matches!(single, Mode::Single { .. }));
        assert!(!format!("{single:?}").contains("\"T\""));
    }

    /// A mode that cannot be played is named.
    #[test]
    fn mode_mistakes() {
        let e = |args: &[&str]| mode(args, None, None).unwrap_err();
        assert!(e(&[]).contains("--player-token"));
        assert!(e(&["--game", "G"]).contains("--token"));
        assert!(e(&["--game", "G", "--token", "T", "--max-games", "2"]).contains("--max-games"));
        assert!(e(&["--player-token", "chp_1", "--max-games", "0"]).contains("max-games"));
        assert!(e(&["--player-token", "chp_1", "--max-games", "100000"]).contains("256"));
        assert!(e(&["--player-token", " "]).contains("empty"));
    }
}
