//! What fuzz mode tells people (stderr: progress, in Go's words) and
//! scripts (stdout: the failure report like `go test`'s, or with -json one
//! event per line).

use fuzz_cli::io::{print_json, print_line};
use fuzz_cli::CliError;
use fuzz_core::duration::format_secs;
use fuzz_core::run_events::{secs3, FuzzEnd, FuzzEvent, Line, Progress};
use fuzz_core::worker::crash::DeathKind;
use std::time::{Duration, Instant};

/// One target's voice. When several targets share a run, each line for
/// people ends with the target's name in brackets (Go's words otherwise
/// unchanged, so that what reads Go's lines still reads ours); every event
/// names its target.
pub struct Reporter {
    pub json: bool,
    /// When the run started: `elapsed` counts from there.
    start: Instant,
    target: String,
    /// Several targets: lines end with ` [Target]`.
    tagged: bool,
    /// The rate of the progress line: executions and time since the last
    /// line, counting only the target's own turns.
    last_line: Instant,
    last_execs: u64,
    last_rate: f64,
    /// What the last progress line said, so that it is never said twice.
    last_said: Option<Snapshot>,
}

/// Where a target's run stands, as progress lines and the summary say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Snapshot {
    pub execs: u64,
    /// Inputs added in this run, and the corpus in all.
    pub new_interesting: usize,
    pub corpus: usize,
    /// Coverage counters reached, and features (counter and hit-count
    /// bucket).
    pub edges: usize,
    pub features: usize,
    pub crashers: usize,
    /// Entries the workers replaced by shorter inputs.
    pub reduced: u64,
}

/// Why a target's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Its -fuzztime (time or count) was spent.
    Time,
    /// A finding stopped it.
    Finding,
    /// Ctrl-C, SIGTERM or SIGHUP.
    Interrupted,
}

impl Stop {
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Time => "time",
            Stop::Finding => "finding",
            Stop::Interrupted => "interrupted",
        }
    }
}

impl Reporter {
    pub fn new(json: bool, start: Instant, target: &str, tagged: bool) -> Reporter {
        Reporter {
            json,
            start,
            target: target.to_string(),
            tagged,
            last_line: Instant::now(),
            last_execs: 0,
            last_rate: 0.0,
            last_said: None,
        }
    }

    /// Several targets share the run: lines are tagged with the target.
    pub fn tagged(&self) -> bool {
        self.tagged
    }

    /// Time since the run started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn elapsed_text(&self) -> String {
        format_secs(self.start.elapsed().as_secs())
    }

    /// A line for people, on stderr.
    pub fn say(&self, line: &str) {
        if self.tagged {
            eprintln!("{line} [{}]", self.target);
        } else {
            eprintln!("{line}");
        }
    }

    /// `fuzz: elapsed: …, ` and `what`, for people.
    pub fn say_elapsed(&self, what: &str) {
        self.say(&format!("fuzz: elapsed: {}, {what}", self.elapsed_text()));
    }

    /// An event for scripts, on stdout with -json.
    pub fn event(&self, event: FuzzEvent) -> Result<(), CliError> {
        if self.json {
            let line = Line {
                event,
                target: Some(self.target.clone()),
                elapsed: Some(secs3(self.start.elapsed().as_secs_f64())),
            };
            print_json(&line)?;
        }
        Ok(())
    }

    /// The target's turn begins: the time it waited for it does not count
    /// in its rate.
    pub fn resume(&mut self) {
        self.last_line = Instant::now();
    }

    pub fn baseline(&self, done: usize, total: usize, workers: Option<usize>) {
        let tail = workers
            .map(|w| format!(", now fuzzing with {w} workers"))
            .unwrap_or_default();
        self.say_elapsed(&format!(
            "gathering baseline coverage: {done}/{total} completed{tail}"
        ));
    }

    /// Go's progress line, with the coverage and, when there are any,
    /// the crashers appended; also the `progress` event. With `last`, the
    /// line closing a turn or a run, which is not said again when the
    /// last one said the same.
    pub fn progress(&mut self, now: Snapshot, last: bool) -> Result<(), CliError> {
        if last && self.last_said == Some(now) {
            return Ok(());
        }
        let secs = self.last_line.elapsed().as_secs_f64();
        // A final line right after a tick keeps the last rate rather than
        // dividing a handful of executions by a few milliseconds; a run
        // that ends before its first tick has no last rate: its own.
        let first = self.last_rate == 0.0 && secs > 0.0;
        let rate = if secs >= 0.5 || first {
            (now.execs - self.last_execs) as f64 / secs
        } else {
            self.last_rate
        };
        self.last_rate = rate;
        self.last_line = Instant::now();
        self.last_execs = now.execs;
        self.last_said = Some(now);
        let crashers = match now.crashers {
            0 => String::new(),
            n => format!(", crashers: {n}"),
        };
        self.say_elapsed(&format!(
            "execs: {} ({rate:.0}/sec), new interesting: {} (total: {}), coverage: {} edges ({} features){crashers}",
            now.execs, now.new_interesting, now.corpus, now.edges, now.features,
        ));
        self.event(FuzzEvent::Progress(Progress {
            execs: now.execs,
            execs_per_sec: rate.round(),
            new_interesting: now.new_interesting,
            total: now.corpus,
            coverage: now.features,
            edges: now.edges,
            crashers: now.crashers,
        }))
    }

    /// The one line that ends a target's run, on stderr (the `end` event
    /// with -json): what it did in `fuzzed` of fuzzing, and why it
    /// stopped.
    pub fn summary(&self, now: Snapshot, fuzzed: Duration, stop: Stop) -> Result<(), CliError> {
        let secs = fuzzed.as_secs_f64();
        let rate = if secs > 0.0 {
            now.execs as f64 / secs
        } else {
            0.0
        };
        if self.json {
            return self.event(FuzzEvent::End(FuzzEnd {
                execs: now.execs,
                new_interesting: now.new_interesting,
                coverage: now.features,
                edges: now.edges,
                failures: now.crashers,
                corpus: now.corpus,
                reduced: now.reduced,
                fuzzed_seconds: secs3(secs),
                execs_per_sec: rate.round(),
                stopped: stop.as_str().to_string(),
                interrupted: stop == Stop::Interrupted,
            }));
        }
        self.say(&format!(
            "fuzz: done: elapsed {}, execs {} ({rate:.0}/sec), corpus {} ({} new), coverage {} edges ({} features), crashers {}; stopped: {}",
            fmt_duration(fuzzed),
            now.execs,
            now.corpus,
            now.new_interesting,
            now.edges,
            now.features,
            now.crashers,
            stop.as_str()
        ));
        Ok(())
    }
}

/// A duration as Go prints one (`2.5s`, `1m0s`, `250ms`), to the
/// millisecond.
pub fn fmt_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else if d.subsec_millis() == 0 || d >= Duration::from_secs(60) {
        format_secs(d.as_secs())
    } else {
        format!("{}.{:03}", d.as_secs(), d.subsec_millis())
            .trim_end_matches('0')
            .to_string()
            + "s"
    }
}

/// A failing input that could not be written: where it should have gone,
/// why not, and the input itself (as v1 text, when it is not too large).
pub struct Unwritten {
    pub dir: String,
    pub error: String,
    pub text: Option<String>,
    pub size: usize,
    pub sha256: String,
    /// Where it was written instead, if anywhere.
    pub kept_at: Option<String>,
}

/// The failure report, like `go test`'s, on stdout (unless -json).
pub struct Failure<'a> {
    pub target: &'a str,
    pub elapsed: Duration,
    /// One line: the failure message's first line, or the crash kind.
    pub headline: &'a str,
    /// The rest: message lines, the target's stderr, the backtrace.
    pub details: &'a str,
    /// Where the input was written, if it was.
    pub written: Option<&'a str>,
    /// Or why it could not be, with the input.
    pub unwritten: Option<&'a Unwritten>,
    /// The command that replays it (`rerun.rs`), when it was written.
    pub rerun: Option<&'a str>,
    pub seed_entry: Option<&'a str>,
}

impl Failure<'_> {
    pub fn print(&self) -> Result<(), CliError> {
        let mut out = format!(
            "--- FAIL: {} ({:.2}s)\n",
            self.target,
            self.elapsed.as_secs_f64()
        );
        if let Some(seed) = self.seed_entry {
            out.push_str(&format!(
                "    failure while testing seed corpus entry: {}/{seed}\n",
                self.target
            ));
        }
        out.push_str(&format!("    {}\n", self.headline));
        let details = self.details.trim_matches('\n');
        for l in details.lines() {
            out.push_str(&format!("    {l}\n"));
        }
        if let Some(u) = self.unwritten {
            out.push_str(&format!(
                "    \n    Failing input could not be written to {}: {}\n",
                u.dir, u.error
            ));
            if let Some(at) = &u.kept_at {
                out.push_str(&format!("    It was written to {at} instead.\n"));
            }
            match (&u.text, &u.kept_at) {
                (Some(text), _) => {
                    out.push_str("    Here it is, as a v1 file:\n");
                    for l in text.lines() {
                        out.push_str(&format!("    {l}\n"));
                    }
                }
                (None, Some(_)) => {}
                (None, None) => out.push_str(&format!(
                    "    It was not kept: {} bytes, SHA-256 {}\n",
                    u.size, u.sha256
                )),
            }
        }
        if let (Some(path), Some(rerun)) = (self.written, self.rerun) {
            out.push_str(&format!(
                "    \n    Failing input written to {path}\n    To re-run:\n    {rerun}\n"
            ));
        }
        print_line(out.trim_end())
    }
}

/// What a worker's death means, in Go's words where Go has them (the
/// headline of its finding), under this run's `-timeout` and
/// `-rss_limit_mb`.
pub fn death_headline(kind: &DeathKind, timeout: Duration, rss_limit_mb: u64) -> String {
    match kind {
        DeathKind::Timeout => {
            format!("fuzzing process hung: an input ran longer than {timeout:?} (-timeout)")
        }
        k @ DeathKind::OutOfMemory { .. } => {
            format!("fuzzing process ran {k}, over -rss_limit_mb {rss_limit_mb}")
        }
        k @ DeathKind::Exit { .. } => {
            format!("fuzzing process exited unexpectedly: {k} (the target called exit)")
        }
        DeathKind::LostPipes => "fuzzing process lost its pipes: the target closed \
            descriptors it did not open (fd 3 and up), which the worker talks to \
            fuzz-run on"
            .to_string(),
        k => format!("fuzzing process crashed: {k}"),
    }
}
