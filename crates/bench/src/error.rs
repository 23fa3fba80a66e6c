//! `BenchError`: why a bench could not run, as one line for the person at the terminal.

/// Why a bench could not run: what failed and why, ready to print after `chessd-bench: `.
#[derive(Debug)]
pub struct BenchError(String);

impl BenchError {
    /// A refusal that needs no cause (a bad flag combination).
    pub fn new(message: impl Into<String>) -> BenchError {
        BenchError(message.into())
    }
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BenchError {}

/// `what` failed because of `e`.
pub fn fail(what: &str, e: impl std::fmt::Display) -> BenchError {
    BenchError(format!("{what}: {e}"))
}
