//! [`Throttle`]: warnings of the accept loop at most once per `LOG_EVERY`, with the count held
//! back, so a flood of failures does not flood the log.

use tokio::time::Instant;

use crate::transport::config::LOG_EVERY;

/// Lets a warning through at most once per [`LOG_EVERY`], counting the ones held back.
#[derive(Debug)]
pub(super) struct Throttle {
    last: Option<Instant>,
    suppressed: u64,
}

impl Throttle {
    pub(super) fn new() -> Throttle {
        Throttle {
            last: None,
            suppressed: 0,
        }
    }

    /// `Some(warnings held back since the last one)` when a warning may be logged now.
    pub(super) fn ready(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self.last.is_some_and(|last| now < last + LOG_EVERY) {
            self.suppressed += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.suppressed))
    }
}
