//! Durations as Go's `time.ParseDuration` reads them (`300ms`, `1h30m`,
//! `1.5s`), plus `d` for days (`30d`), which cache trimming wants; and
//! Go's `-fuzztime`/`-fuzzminimizetime` form, a duration or a count `Nx`.

use std::time::Duration;

/// Parses a Go duration. Negative durations are refused: no flag of ours
/// means anything by them.
pub fn parse(s: &str) -> Result<Duration, String> {
    let orig = s;
    let err = || format!("invalid duration {orig:?} (want e.g. 10s, 1h30m, 300ms, 30d)");
    let s = s.strip_prefix('+').unwrap_or(s);
    if s.starts_with('-') {
        return Err(format!("invalid duration {orig:?}: must not be negative"));
    }
    if s == "0" {
        return Ok(Duration::ZERO);
    }
    if s.is_empty() {
        return Err(err());
    }
    let mut total: f64 = 0.0;
    let mut rest = s;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num = &rest[..num_len];
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return Err(err());
        }
        let value: f64 = num.parse().map_err(|_| err())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "d" => 86400.0,
            "" => return Err(format!("invalid duration {orig:?}: missing unit")),
            _ => return Err(format!("invalid duration {orig:?}: unknown unit {unit:?}")),
        };
        total += value * scale;
    }
    if !total.is_finite() || total > 1e12 {
        return Err(format!("invalid duration {orig:?}: too large"));
    }
    Ok(Duration::from_secs_f64(total))
}

/// Formats a duration the way Go prints elapsed times in progress lines:
/// `3s`, `1m0s`, `1h2m3s`.
pub fn format_secs(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{m}m{s}s")
    } else {
        format!("{s}s")
    }
}

/// A limit given as a time or as a number of executions (`1000x`), as
/// Go's `-fuzztime` and `-fuzzminimizetime` take it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Time(Duration),
    Count(u64),
}

impl Limit {
    pub fn parse(s: &str) -> Result<Limit, String> {
        if let Some(n) = s.strip_suffix('x') {
            return match n.parse::<u64>() {
                Ok(0) | Err(_) => Err(format!(
                    "invalid count {s:?} (want a positive number of executions, e.g. 1000x)"
                )),
                Ok(n) => Ok(Limit::Count(n)),
            };
        }
        parse(s).map(Limit::Time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse("10s").unwrap(), Duration::from_secs(10));
        assert_eq!(parse("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse("300ms").unwrap(), Duration::from_millis(300));
        assert_eq!(parse("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse("720h").unwrap(), Duration::from_secs(720 * 3600));
        assert_eq!(parse("30d").unwrap(), Duration::from_secs(30 * 86400));
        assert_eq!(parse("0").unwrap(), Duration::ZERO);
        for bad in ["", "10", "abc", "1x", "-1s", "1..5s", "s", "1e5s"] {
            assert!(parse(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn limits() {
        assert_eq!(Limit::parse("100x").unwrap(), Limit::Count(100));
        assert_eq!(
            Limit::parse("2s").unwrap(),
            Limit::Time(Duration::from_secs(2))
        );
        assert!(Limit::parse("0x").is_err());
        assert!(Limit::parse("-5x").is_err());
    }

    #[test]
    fn elapsed_format() {
        assert_eq!(format_secs(3), "3s");
        assert_eq!(format_secs(60), "1m0s");
        assert_eq!(format_secs(3723), "1h2m3s");
    }
}
