//! The limits of one execution, one definition for every tool that runs a
//! target: `-timeout` (fuzz-run, fuzz-minimize, fuzz-worker, fuzz-corpus)
//! and `-rss_limit_mb` (all but fuzz-corpus, whose worker keeps its own).
//! Each tool flattens them into its arguments; fuzz-run's rerun command
//! writes them only where they differ from the defaults here.

use std::time::Duration;

/// `-timeout`'s default, as Go's worker and libFuzzer's -timeout use 10 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// `-rss_limit_mb`'s default, libFuzzer's.
pub const DEFAULT_RSS_LIMIT_MB: u64 = 2048;

/// How long one execution may run.
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeout {
    /// Time one input may run before it counts as a hang.
    #[arg(
        long = "timeout",
        value_name = "D",
        default_value = "10s",
        value_parser = fuzz_core::duration::parse
    )]
    pub timeout: Duration,
}

/// How long one execution may run, and how much memory it may hold.
#[derive(clap::Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    #[command(flatten)]
    pub time: Timeout,
    /// Resident memory (MiB) one input may reach before it counts as out of memory.
    #[arg(long = "rss_limit_mb", value_name = "MB", default_value_t = DEFAULT_RSS_LIMIT_MB)]
    pub rss_limit_mb: u64,
}

impl Limits {
    pub fn timeout(&self) -> Duration {
        self.time.timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        limits: Limits,
    }

    #[test]
    fn the_defaults_are_the_constants() {
        let cli = Cli::parse_from(["t"]);
        assert_eq!(cli.limits.timeout(), DEFAULT_TIMEOUT);
        assert_eq!(cli.limits.rss_limit_mb, DEFAULT_RSS_LIMIT_MB);
        let cli = Cli::parse_from(["t", "--timeout", "2s", "--rss_limit_mb", "64"]);
        assert_eq!(cli.limits.timeout(), Duration::from_secs(2));
        assert_eq!(cli.limits.rss_limit_mb, 64);
    }
}
