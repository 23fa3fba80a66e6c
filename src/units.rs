//! Parsers of the command line's units: durations (`500ms`, `5s`, `2m`, `1h`; a bare number
//! means seconds), retentions (also days), counts and rates. Each refuses what it cannot read
//! with a message that quotes the value and says what was expected.

use std::time::Duration;

/// The longest duration a flag accepts (a heartbeat or drain beyond a day is a typo).
pub(crate) const MAX_DURATION: Duration = Duration::from_secs(24 * 60 * 60);

/// A positive duration up to a day: a number and a unit (`ms`, `s`, `m`, `h`; none means
/// seconds).
pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("expected a duration such as 500ms, 5s or 2m, got {text:?}"))?;
    let d = match unit {
        "ms" => Duration::from_millis(n),
        "" | "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: expected ms, s, m or h"
            ));
        }
    };
    if d.is_zero() || d > MAX_DURATION {
        return Err(format!(
            "expected a duration above zero and at most 24h, got {text:?}"
        ));
    }
    Ok(d)
}

/// A duration as [`duration`] reads it, or zero (`0`, `0s`).
pub(crate) fn duration_or_zero(text: &str) -> Result<Duration, String> {
    match text.trim() {
        "0" | "0s" | "0ms" => Ok(Duration::ZERO),
        _ => duration(text),
    }
}

/// The longest retention a flag accepts (about a century: beyond it, keep games forever by
/// leaving the flag out).
pub(crate) const MAX_RETENTION: Duration = Duration::from_secs(36_500 * 24 * 60 * 60);

/// A retention: a number and a unit (`ms`, `s`, `m`, `h`, `d`), above zero.
pub(crate) fn retention(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("expected a retention such as 30d, 12h or 90s, got {text:?}"))?;
    let unit_secs = match unit {
        "ms" => return positive_retention(Duration::from_millis(n), text),
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => {
            return Err(format!(
                "unknown unit {unit:?} in {text:?}: expected ms, s, m, h or d"
            ));
        }
    };
    positive_retention(Duration::from_secs(n.saturating_mul(unit_secs)), text)
}

fn positive_retention(d: Duration, text: &str) -> Result<Duration, String> {
    if d.is_zero() || d > MAX_RETENTION {
        return Err(format!(
            "expected a retention above zero and at most 36500d, got {text:?}"
        ));
    }
    Ok(d)
}

/// A rate or count of at least 1.
pub(crate) fn rate(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number from 1 to {}, got {text:?}",
            u32::MAX
        )),
    }
}

/// A count of at least 1.
pub(crate) fn count(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number of at least 1, got {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Durations take ms/s/m/h, seconds by default; zero and garbage are refused.
    #[test]
    fn durations() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("5"), Ok(Duration::from_secs(5)));
        assert_eq!(duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in [
            "",
            "0s",
            "5x",
            "s",
            "-1s",
            "1.5s",
            "25h",
            "99999999999999999999h",
        ] {
            assert!(duration(bad).is_err(), "{bad:?}");
        }
    }

    /// A grace may also be zero.
    #[test]
    fn durations_or_zero() {
        for zero in ["0", "0s", "0ms"] {
            assert_eq!(duration_or_zero(zero), Ok(Duration::ZERO), "{zero:?}");
        }
        assert_eq!(duration_or_zero("3s"), Ok(Duration::from_secs(3)));
        for bad in ["", "s", "0x", "-0s", "25h"] {
            assert!(duration_or_zero(bad).is_err(), "{bad:?}");
        }
    }

    /// Retentions take days too; zero and garbage are refused.
    #[test]
    fn retentions() {
        assert_eq!(retention("30d"), Ok(Duration::from_secs(30 * 86_400)));
        assert_eq!(retention("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(retention("1500ms"), Ok(Duration::from_millis(1500)));
        for bad in ["", "0d", "3w", "-1d", "99999999999999999999d", "40000d"] {
            assert!(retention(bad).is_err(), "{bad:?}");
        }
    }

    /// Counts and rates must be at least 1.
    #[test]
    fn counts_and_rates() {
        assert_eq!(count("3"), Ok(3));
        assert!(count("0").is_err());
        assert!(count("-1").is_err());
        assert_eq!(rate(" 7 "), Ok(7));
        assert!(rate("0").is_err());
        assert!(rate("4294967296").is_err());
    }
}
