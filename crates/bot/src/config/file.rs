//! What the command line and the `--config` file share: the settings' defaults and the
//! shapes of the file's values that are not plain (an engine, its options, the draw score),
//! and where a path in the file is relative to. Both `cli` (the declarations) and `config`
//! (the resolution) read it; it reads neither.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::uci::Protocol;

pub const DEFAULT_ADDR: &str = "http://127.0.0.1:50051";
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(100);
pub const DEFAULT_UNTIMED_MOVETIME: Duration = Duration::from_secs(5);
pub const DEFAULT_RESIGN_MOVES: u32 = 3;
pub const DEFAULT_DRAW_SCORE: i32 = 0;
pub const DEFAULT_DRAW_MOVES: u32 = 3;
/// An engine option's value in the file: `Hash = 64`, `Ponder = false` or `Style = "Solid"`.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub(crate) enum OptionValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Text(s) => f.write_str(s),
        }
    }
}

/// `draw-score = 0` or `draw-score = "off"`.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub(crate) enum DrawScore {
    Score(i32),
    Word(String),
}

/// An engine as the file describes it.
#[derive(Deserialize, Debug, Default, Clone, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub(crate) struct EngineFile {
    pub(crate) engine: Option<PathBuf>,
    pub(crate) engine_args: Option<Vec<String>>,
    pub(crate) protocol: Option<Protocol>,
    #[serde(default)]
    pub(crate) engine_options: BTreeMap<String, OptionValue>,
}

/// A path from the file, relative to the file's folder.
pub(crate) fn file_path(base: &Path, path: PathBuf) -> PathBuf {
    if path.is_absolute() {
        path
    } else {
        base.join(path)
    }
}
