//! fuzz-corpus status: where each instance sharing a `-sync` directory
//! stands (`fuzz_core::store::sync` keeps the statuses), one line each and
//! a total, as AFL++'s afl-whatsup shows a fleet.

use fuzz_cli::io::print_line;
use fuzz_cli::{CliError, Status};
use fuzz_core::store::sync::{self, META};
use serde_json::json;
use std::path::Path;

pub fn run(dir: &Path, json: bool) -> Result<Status, CliError> {
    if !dir.join(META).is_dir() {
        return Err(CliError::misuse(format!(
            "{}: not a -sync directory (no {META}/ in it)",
            fuzz_core::error::shown(dir)
        )));
    }
    let seen = sync::statuses(dir)?;
    let ok: Vec<(&sync::Seen, &sync::Status)> = seen
        .iter()
        .filter_map(|s| s.status.as_ref().ok().map(|st| (s, st)))
        .collect();
    let running = seen.iter().filter(|s| s.state() == "running").count();
    let sum = |f: fn(&sync::Status) -> u64| ok.iter().map(|(_, s)| f(s)).sum::<u64>();
    let rate: f64 = ok
        .iter()
        .filter(|(seen, _)| seen.state() == "running")
        .fold(0.0, |total, (_, s)| total + s.execs_per_sec);
    let broken = seen.len() - ok.len();
    if json {
        for s in &seen {
            let mut v = match &s.status {
                Ok(st) => serde_json::to_value(st).expect("a status serializes"),
                Err(why) => json!({ "id": s.id, "error": why }),
            };
            v["state"] = json!(s.state());
            v["age"] = json!(s.age);
            print_line(v)?;
        }
        print_line(json!({
            "total": true, "instances": seen.len(), "running": running,
            "broken": broken,
            "execs": sum(|s| s.execs), "execs_per_sec": rate,
            "crashers": sum(|s| s.crashers),
        }))?;
        return Ok(Status::Success);
    }
    let age = |s: &sync::Seen| s.age.map_or("never".to_string(), |a| format!("{a}s ago"));
    for s in &seen {
        match &s.status {
            Ok(st) => print_line(format!(
                "{:<16} {:<8} {}:{:<8} execs {:>12} ({:.0}/sec)  coverage {:>7}  corpus {:>7}  crashers {:>4}  updated {}",
                s.id,
                s.state(),
                st.host,
                st.pid,
                st.execs,
                st.execs_per_sec,
                st.coverage,
                st.corpus,
                st.crashers,
                age(s)
            ))?,
            Err(why) => print_line(format!("{:<16} {:<8} {why}", s.id, s.state()))?,
        }
    }
    let broken = if broken > 0 {
        format!(", {broken} without a readable status")
    } else {
        String::new()
    };
    print_line(format!(
        "total: {} instances ({running} running{broken}), execs {} ({rate:.0}/sec now), crashers {}",
        seen.len(),
        sum(|s| s.execs),
        sum(|s| s.crashers)
    ))?;
    Ok(Status::Success)
}
