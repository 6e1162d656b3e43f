//! fuzz-corpus status: where each instance sharing a `-sync` directory
//! stands (`fuzz_core::store::sync` keeps the statuses), one line each and
//! a total, as AFL++'s afl-whatsup shows a fleet.

use fuzz_cli::io::print_line;
use fuzz_cli::{CliError, Status};
use fuzz_core::store::sync::{self, META};
use serde_json::json;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

pub fn run(dir: &Path, json: bool) -> Result<Status, CliError> {
    if !dir.join(META).is_dir() {
        return Err(CliError::misuse(format!(
            "{}: not a -sync directory (no {META}/ in it)",
            fuzz_core::error::shown(dir)
        )));
    }
    let statuses = sync::statuses(dir)?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let state = |s: &sync::Status| {
        if s.done {
            "done"
        } else if s.is_stale(now) {
            "stale"
        } else {
            "running"
        }
    };
    let running = statuses.iter().filter(|s| state(s) == "running").count();
    let sum = |f: fn(&sync::Status) -> u64| statuses.iter().map(f).sum::<u64>();
    let rate: f64 = statuses
        .iter()
        .filter(|s| state(s) == "running")
        .fold(0.0, |total, s| total + s.execs_per_sec);
    if json {
        for s in &statuses {
            let mut v = serde_json::to_value(s).expect("a status serializes");
            v["state"] = json!(state(s));
            v["age"] = json!(now.saturating_sub(s.updated));
            print_line(v)?;
        }
        print_line(json!({
            "total": true, "instances": statuses.len(), "running": running,
            "execs": sum(|s| s.execs), "execs_per_sec": rate,
            "crashers": sum(|s| s.crashers),
        }))?;
        return Ok(Status::Success);
    }
    for s in &statuses {
        print_line(format!(
            "{:<16} {:<8} {}:{:<8} execs {:>12} ({:.0}/sec)  coverage {:>7}  corpus {:>7}  crashers {:>4}  updated {}s ago",
            s.id,
            state(s),
            s.host,
            s.pid,
            s.execs,
            s.execs_per_sec,
            s.coverage,
            s.corpus,
            s.crashers,
            now.saturating_sub(s.updated)
        ))?;
    }
    print_line(format!(
        "total: {} instances ({running} running), execs {} ({rate:.0}/sec now), crashers {}",
        statuses.len(),
        sum(|s| s.execs),
        sum(|s| s.crashers)
    ))?;
    Ok(Status::Success)
}
