//! fuzz-worker: loads a coverage-instrumented target library and runs
//! inputs through its targets in-process.
//!
//! This crate owns the SanitizerCoverage runtime (`sancov.rs`, `c/`):
//! instrumented libraries resolve their callbacks against this executable,
//! which exports them (`-rdynamic`, see build.rs).

mod children;
pub mod cli;
mod coverage;
mod crash;
mod custom;
mod ends;
mod executor;
mod forked;
mod fuzzing;
mod go_pc_table;
mod golib;
mod inputs;
mod known_crashes;
mod library;
mod loaded;
mod mutate;
mod pc_table;
mod sancov;
mod sanitizer;
mod serve;
mod supervise;

use crate::cli::{Cli, Command};
use fuzz_cli::io::print_line;
use fuzz_cli::{CliError, Status};
use fuzz_core::worker::run_json::{RunLine, RunOutcome};
use fuzz_core::worker::serve_args::ServeArgs;
use library::Library;
use std::path::Path;
use std::time::Instant;
use supervise::Outcome;

const TOOL: &str = "fuzz-worker";

/// Runs fuzz-worker on this process's arguments: the binary's whole body.
pub fn main() -> std::process::ExitCode {
    fuzz_cli::exit::run::<Cli, _>(TOOL, run)
}

/// Opens the library `lib` (for a Go library, describes its fuzz tests:
/// only `only` when given).
fn open(lib: &Path, runtime: Option<&Path>, only: Option<&str>) -> Result<Library, CliError> {
    let misuse = |e: String| CliError::misuse(format!("{}: {e}", fuzz_core::error::shown(lib)));
    sanitizer::ensure_runtime(lib, runtime).map_err(misuse)?;
    Library::open(lib, only).map_err(misuse)
}

/// The target `name` of `lib` (the only one when `None`), which must be
/// able to run: a Go fuzz test whose set-up failed or skips cannot, which
/// is a finding, as under go test (reported in testing's words).
fn runnable<'a>(lib: &'a Library, name: Option<&str>) -> Result<&'a library::Target, CliError> {
    let target = lib.target(name).map_err(CliError::misuse)?;
    match &target.go {
        Some(go) if go.status != fuzz_core::worker::protocol::GoStatus::Ok => {
            let mut lines = vec![format!("{}: {}", target.name, go.why())];
            lines.extend(go.said().into_iter().skip(1).map(|l| format!("    {l}")));
            Err(CliError::finding(lines.join("\n")))
        }
        _ => Ok(target),
    }
}

/// Makes `target` of `lib` ready to run in this process (a Go library is
/// loaded here: see golib.rs).
fn load_target(lib: &Library, target: &library::Target) -> Result<(), CliError> {
    lib.load_target(target)
        .map_err(|e| CliError::misuse(format!("{}: {e}", lib.path.display())))
}

/// Opens the comparison build of `target` (`--cmp-lib`), runs its
/// initialiser, and finds the target in it. fuzz-run has checked it first
/// (`targets::check_cmp_lib`), trace-cmp callbacks included.
fn open_cmp_lib(
    path: &Path,
    target: &library::Target,
) -> Result<(Library, library::Target), CliError> {
    let misuse = |e: String| CliError::misuse(format!("-cmp_lib {}: {e}", path.display()));
    let lib = Library::open(path, None).map_err(misuse)?;
    if lib.is_go() {
        return Err(misuse(
            "a Go library cannot be a comparison build (two Go runtimes cannot share a process)"
                .into(),
        ));
    }
    let found = lib.same_target(target).map_err(misuse)?.clone();
    lib.initialize();
    Ok((lib, found))
}

fn run(cli: Cli) -> Result<Status, CliError> {
    match cli.command {
        Command::List {
            lib,
            json,
            sanitizer_runtime,
        } => list(&open(&lib, sanitizer_runtime.as_deref(), None)?, json),
        Command::Run {
            lib,
            target,
            limits,
            raw,
            sanitizer_runtime,
            coverage,
            json,
            inputs,
        } => {
            let lib = open(&lib, sanitizer_runtime.as_deref(), target.as_deref())?;
            let target = runnable(&lib, target.as_deref())?;
            let shown = Shown { coverage, json };
            let limits = forked::Limits {
                timeout: limits.timeout(),
                rss_limit_mb: limits.rss_limit_mb,
            };
            run_inputs(&lib, target, &inputs, raw, limits, shown)
        }
        Command::Serve(s) => serve_command(s),
        Command::PcTable {
            lib,
            sanitizer_runtime,
        } => {
            let lib = open(&lib, sanitizer_runtime.as_deref(), None)?;
            let table = if lib.is_go() {
                go_pc_table::pc_table(&lib.path)
                    .map_err(|e| CliError::misuse(format!("{}: {e}", lib.path.display())))?
            } else {
                pc_table::pc_table(&lib)
            };
            fuzz_cli::io::write_stdout(fuzz_core::search::pctable::format(&table).as_bytes())?;
            Ok(Status::Success)
        }
        Command::Bench {
            lib,
            target,
            n,
            limits,
            raw,
            sanitizer_runtime,
            cmp_outcomes,
            input,
        } => {
            let lib = open(&lib, sanitizer_runtime.as_deref(), target.as_deref())?;
            let target = runnable(&lib, target.as_deref())?;
            let values = match &input {
                Some(p) => inputs::load(p, target, raw)?,
                None => inputs::zero(target),
            };
            // The input is run once as `run` runs it (a child, -timeout,
            // -rss_limit_mb): one that fails is reported as run reports it,
            // and not timed.
            let limits = forked::Limits {
                timeout: limits.timeout(),
                rss_limit_mb: limits.rss_limit_mb,
            };
            let name = input
                .as_deref()
                .map_or("(zero values)".into(), fuzz_cli::io::display);
            if let Some(status) = bench_check(&lib, target, &values, limits, &name)? {
                return Ok(status);
            }
            bench(&lib, target, &values, n, cmp_outcomes)
        }
    }
}

/// `serve`: one worker of a coordinator's, until it says stop.
fn serve_command(s: ServeArgs) -> Result<Status, CliError> {
    let only = s.target.as_deref().filter(|_| !s.list);
    let lib = open(&s.lib, s.sanitizer_runtime.as_deref(), only)?;
    // What is read from the library's file alone (its code's constants,
    // its runtime's functions) is read on threads of their own while this
    // one loads and sets up the library: other cores' work, off the path
    // to the first execution (a 16 MB library's scans take as long as its
    // load). Both are joined before any input runs, so the worker forks
    // and takes signals with one thread, as before.
    //
    // The handlers go in first, while this is the only thread: they keep
    // a copy of stderr at a high descriptor, and the kernel grows a
    // descriptor table that threads share only after an RCU grace period
    // (5 to 10 ms that the helpers' scans would put on the path to the
    // first execution).
    crash::install(-1);
    children::install();
    let served = std::thread::scope(|scope| {
        let constants = scope.spawn(|| aside(|| library::code_constants(&lib.path)));
        let runtime = (!lib.is_go())
            .then(|| scope.spawn(|| aside(|| known_crashes::runtime_ranges(&lib.path))));
        let (s, pending) = match s.list {
            true => match told(&lib, &s)? {
                Some(told) => told,
                // The coordinator wanted the list alone.
                None => return Ok(None),
            },
            false => (s, Vec::new()),
        };
        if let Some(cmp) = &s.cmp_lib {
            sanitizer::ensure_runtime_as(cmp, s.sanitizer_runtime.as_deref(), s.to_args())
                .map_err(|e| CliError::misuse(format!("-cmp_lib {}: {e}", cmp.display())))?;
        }
        let target = runnable(&lib, s.target.as_deref())?;
        let shm = fuzz_core::worker::shm::Shm::open(&s.shm)?;
        load_target(&lib, target)?;
        if let Some(runtime) = runtime {
            known_crashes::init_for(lib.function(target), joined(runtime));
        }
        lib.initialize();
        // The comparison build stays loaded while the executor calls it.
        let (exec, cmp_lib) = serving_executor(
            &lib,
            target,
            shm,
            s.dict.as_deref(),
            s.cmp_lib.as_deref(),
            s.cmp_outcomes,
            joined(constants),
        )?;
        Ok::<_, CliError>(Some((exec, cmp_lib, target, s, pending)))
    })?;
    let Some((exec, _cmp_lib, target, s, pending)) = served else {
        return Ok(Status::Success);
    };
    let fds = (s.fd_in, s.fd_out);
    golib::within(|| serve::serve(exec, target, fds, pending, !s.no_warm_up))
        .map_err(CliError::misuse)?;
    Ok(Status::Success)
}

/// `serve --list`: the library's targets go to the coordinator first
/// ([`Response::Targets`]); then the arguments it is to serve with come
/// back, one line of JSON, on the same descriptors: they, and the bytes
/// read past them (the first requests, sent without waiting). `None` when
/// the coordinator closed its end instead: it wanted the list alone.
///
/// [`Response::Targets`]: fuzz_core::worker::protocol::Response::Targets
fn told(lib: &Library, s: &ServeArgs) -> Result<Option<(ServeArgs, Vec<u8>)>, CliError> {
    use fuzz_core::worker::protocol::{self, Response};
    use std::io::{Read, Write};
    use std::os::fd::FromRawFd;
    let broken = |e: std::io::Error| CliError::misuse(format!("the coordinator's pipe: {e}"));
    // SAFETY: the coordinator passed these descriptors for our use alone;
    // they are borrowed here, and serve() takes them afterwards.
    let mut output = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(s.fd_out) });
    let mut input = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(s.fd_in) });
    let targets = Response::Targets {
        version: protocol::VERSION,
        targets: listing(lib),
    };
    output
        .write_all(protocol::to_line(&targets).as_bytes())
        .map_err(broken)?;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(end) = got.iter().position(|&b| b == b'\n') {
            break end;
        }
        match input.read(&mut buf) {
            Ok(0) if got.is_empty() => return Ok(None),
            Ok(0) => return Err(CliError::misuse("the coordinator's arguments ended early")),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(broken(e)),
        }
    };
    let pending = got.split_off(end + 1);
    let told: ServeArgs = serde_json::from_slice(&got[..end])
        .map_err(|e| CliError::misuse(format!("the coordinator's arguments: {e}")))?;
    if told.lib != s.lib {
        return Err(CliError::misuse(format!(
            "told to serve {}, but {} is loaded",
            told.lib.display(),
            s.lib.display()
        )));
    }
    // Its own descriptors and library stay; the rest is what it was told.
    let told = ServeArgs {
        lib: s.lib.clone(),
        fd_in: s.fd_in,
        fd_out: s.fd_out,
        sanitizer_runtime: s.sanitizer_runtime.clone(),
        list: false,
        ..told
    };
    Ok(Some((told, pending)))
}

/// Runs `f` on a helper thread with every signal blocked: the worker's
/// signals (a timeout's, a child's end, Ctrl-C) go to its main thread.
fn aside<T>(f: impl FnOnce() -> T) -> T {
    let _ = nix::sys::signal::SigSet::all().thread_block();
    f()
}

/// The result of a helper thread (its panic, carried on, if it panicked).
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `list`: the library's targets and their signatures, or JSON objects.
fn list(lib: &Library, json: bool) -> Result<Status, CliError> {
    if json {
        for listed in listing(lib) {
            print_line(serde_json::to_string(&listed).expect("a listing serializes"))?;
        }
        return Ok(Status::Success);
    }
    for t in &lib.targets {
        match &t.go {
            Some(go) if go.status != fuzz_core::worker::protocol::GoStatus::Ok => {
                print_line(format!("{}\t(cannot run: {})", t.name, go.why()))?
            }
            _ => print_line(format!("{}\t{}", t.name, t.signature()))?,
        }
    }
    Ok(Status::Success)
}

/// The library's targets as the tools that never load it see them
/// (`list -json`, `serve --list`).
fn listing(lib: &Library) -> Vec<fuzz_core::worker::protocol::Listed> {
    let custom = custom::Custom::load(lib);
    (lib.targets.iter())
        .map(|t| fuzz_core::worker::protocol::Listed {
            target: t.desc.clone(),
            symbol: t.symbol.clone(),
            trace_cmp: lib.traces_cmp,
            coverage: lib.instrumented,
            mutators: custom.symbols_for(t),
            go: t.go.clone(),
        })
        .collect()
}

/// Runs `inputs` through the target in children under `limits` (the
/// warm-up rule, Ctrl-C ending the run), as `run` and `bench`'s check do.
fn supervised(
    lib: &Library,
    target: &library::Target,
    inputs: &[Vec<fuzz_core::Value>],
    limits: forked::Limits,
) -> Result<supervise::Outcomes, CliError> {
    // A Go library is loaded by each child, before its first input.
    let init = |exec: &mut executor::Executor| -> Result<(), String> {
        lib.load_target(target)?;
        lib.initialize();
        exec.remap_counters();
        Ok(())
    };
    let warm_up = inputs::zero(target);
    fuzz_cli::interrupt::install();
    let job = supervise::Job {
        inputs,
        timeout: limits.timeout,
        rss_limit_mb: limits.rss_limit_mb,
        init: &init,
        warm_up: &warm_up,
        stop: fuzz_cli::interrupt::interrupted,
    };
    let mut exec = executor::Executor::new(
        module_name(lib),
        lib.function(target),
        target.kind,
        coverage::CounterMap::new(lib.uses_pc_map),
        None,
    );
    supervise::run_all(&job, &mut exec).map_err(CliError::misuse)
}

/// How `run` shows each input's outcome.
struct Shown {
    coverage: bool,
    json: bool,
}

/// `run`: every input through the target, each reported; a finding when
/// any fails, crashes or hangs.
fn run_inputs(
    lib: &Library,
    target: &library::Target,
    inputs: &[std::path::PathBuf],
    raw: bool,
    limits: forked::Limits,
    shown: Shown,
) -> Result<Status, CliError> {
    let values = inputs
        .iter()
        .map(|p| inputs::load(p, target, raw))
        .collect::<Result<Vec<_>, _>>()?;
    let done = supervised(lib, target, &values, limits)?;
    let mut finding = false;
    for (path, outcome) in inputs.iter().zip(&done.outcomes) {
        finding |= outcome.is_finding();
        let name = fuzz_cli::io::display(path);
        if shown.json {
            print_line(
                serde_json::to_string(&to_json(&name, outcome)).expect("a line serializes"),
            )?;
        } else {
            print_line(format!("{name}: {}", describe(outcome, shown.coverage)))?;
        }
    }
    if done.stopped {
        // What ran is reported; the job is not done.
        return Err(CliError::stopped(&format!(
            "{} of {} inputs ran",
            done.outcomes.len(),
            inputs.len()
        )));
    }
    Ok(if finding {
        Status::Finding
    } else {
        Status::Success
    })
}

/// The library's file name, for crash sites.
fn module_name(lib: &Library) -> String {
    lib.path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The executor `serve` fuzzes with: the target of an initialised
/// library, its dictionaries, custom mutators and comparison build (also
/// returned: it must stay loaded while the executor runs).
fn serving_executor(
    lib: &Library,
    target: &library::Target,
    shm: fuzz_core::worker::shm::Shm,
    dict: Option<&Path>,
    cmp_lib: Option<&Path>,
    cmp_outcomes: bool,
    constants: library::CodeConstants,
) -> Result<(executor::Executor, Option<Library>), CliError> {
    let mut map = coverage::CounterMap::new(lib.uses_pc_map);
    if cmp_outcomes {
        map = map.with_outcomes(known_crashes::target_base().unwrap_or(0));
    }
    // Loaded after the counters are mapped: its own are not read.
    let cmp_lib = match cmp_lib {
        Some(path) => Some(open_cmp_lib(path, target)?),
        None => None,
    };
    let words = match dict {
        Some(path) => {
            let text = fuzz_cli::io::read_operand(path)?;
            fuzz_core::search::dict::parse(&text).map_err(|e| CliError::from(e.in_file(path)))?
        }
        None => Vec::new(),
    };
    let mut exec = executor::Executor::new(
        module_name(lib),
        lib.function(target),
        target.kind,
        map,
        Some(shm),
    );
    exec.dict = words;
    exec.code_words = constants.words;
    exec.code_strings = constants.strings;
    exec.custom = Some(custom::Custom::load(lib).for_kind(&target.kind)).filter(|c| !c.is_empty());
    let cmp_lib = cmp_lib.map(|(cmp, cmp_target)| {
        exec.cmp_function = Some(cmp.function(&cmp_target));
        cmp
    });
    Ok((exec, cmp_lib))
}

/// `bench`'s check: the input once in a child under the limits. Returns
/// the exit status when it failed (reported as `run` reports it) or the
/// run was interrupted, `None` when it passed.
fn bench_check(
    lib: &Library,
    target: &library::Target,
    values: &[fuzz_core::Value],
    limits: forked::Limits,
    name: &str,
) -> Result<Option<Status>, CliError> {
    let done = supervised(lib, target, &[values.to_vec()], limits)?;
    match done.outcomes.first() {
        None => Err(CliError::stopped("before the input ran")),
        Some(outcome) if outcome.is_finding() => {
            print_line(format!("{name}: {}", describe(outcome, false)))?;
            Ok(Some(Status::Finding))
        }
        Some(_) => Ok(None),
    }
}

/// `bench`: executions per second of one input through the executor, as
/// the fuzzing loop runs them (packing, the call, reading the counters).
fn bench(
    lib: &Library,
    target: &library::Target,
    values: &[fuzz_core::Value],
    n: u64,
    cmp_outcomes: bool,
) -> Result<Status, CliError> {
    crash::install(-1);
    load_target(lib, target)?;
    lib.initialize();
    let mut map = coverage::CounterMap::new(lib.uses_pc_map);
    if cmp_outcomes {
        map = map.with_outcomes(0);
    }
    let total = map.edge_counters();
    let module_counters = map.module_counters();
    let mut exec = executor::Executor::new(
        module_name(lib),
        lib.function(target),
        target.kind,
        map,
        None,
    );
    exec.reset_counters();
    let (done, elapsed) = golib::within(|| {
        // Warm up (first executions initialise lazily), then measure.
        for _ in 0..(n / 10).clamp(1, 1000) {
            exec.exec(values);
        }
        let start = Instant::now();
        let mut done = 0;
        while done < n {
            // Ctrl-C (the check's handler is installed) ends the timing early.
            if done % 4096 == 0 && fuzz_cli::interrupt::interrupted() {
                break;
            }
            exec.exec(values);
            done += 1;
        }
        (done, start.elapsed())
    });
    let asked = n;
    let n = done;
    let per = elapsed.as_nanos() as f64 / n.max(1) as f64;
    print_line(format!(
        "{}: {n} executions in {:.3}s: {per:.0} ns/exec ({:.0} execs/s), {total} counters read per execution ({module_counters} from modules, {} PC table entries), {} features per execution",
        target.name,
        elapsed.as_secs_f64(),
        1e9 / per.max(1e-9),
        sancov::pc_table_entries(),
        exec.features.len()
    ))?;
    if n < asked {
        return Err(CliError::stopped(&format!(
            "{n} of {asked} executions timed"
        )));
    }
    Ok(Status::Success)
}

/// The one-line outcome of an input, with any report indented below it.
fn describe(outcome: &Outcome, coverage: bool) -> String {
    let cov = |c: &Option<(usize, u64)>| match (coverage, c) {
        (true, Some((n, fp))) => format!(" (coverage: {n} features, fingerprint {fp:016x})"),
        _ => String::new(),
    };
    let indent = |report: &str| -> String {
        let lines: Vec<&str> = report.trim_matches('\n').lines().collect();
        // Reports are shown in full up to a point; a target that wrote
        // thousands of lines keeps its last 400 (the crash is at the end).
        const KEEP: usize = 400;
        let cut = lines.len().saturating_sub(KEEP);
        let mut out = String::new();
        if cut > 0 {
            out.push_str(&format!("\n    ... {cut} earlier lines of output"));
        }
        for l in &lines[cut..] {
            out.push_str("\n    ");
            out.push_str(l);
        }
        out
    };
    match outcome {
        Outcome::Ok { cov: c } => format!("ok{}", cov(c)),
        Outcome::Rejected { cov: c } => format!("rejected{}", cov(c)),
        Outcome::Failed { message, cov: c } => {
            let mut lines = message.lines();
            let first = lines.next().unwrap_or("");
            let rest: Vec<&str> = lines.collect();
            format!("failed: {first}{}{}", cov(c), indent(&rest.join("\n")))
        }
        Outcome::Crashed { kind, report } => format!("crashed: {kind}{}", indent(report)),
        Outcome::StackOverflow { report } => format!("stack overflow{}", indent(report)),
        Outcome::TimedOut { after, ran, report } => format!(
            "timed out after {after:?} (it ran {:.2}s){}",
            ran.as_secs_f64(),
            indent(report)
        ),
        Outcome::OutOfMemory { rss_mb, report } => {
            format!("out of memory ({rss_mb} MiB resident){}", indent(report))
        }
        Outcome::Exited { code, report } => {
            format!(
                "exited with status {code} (the target called exit){}",
                indent(report)
            )
        }
    }
}

/// One input's outcome as its `run -json` line.
fn to_json(input: &str, outcome: &Outcome) -> RunLine {
    let report = |r: &String| r.clone();
    let (out, cov) = match outcome {
        Outcome::Ok { cov } => (RunOutcome::Ok, cov),
        Outcome::Rejected { cov } => (RunOutcome::Rejected, cov),
        Outcome::Failed { message, cov } => (
            RunOutcome::Failed {
                message: message.clone(),
            },
            cov,
        ),
        Outcome::Crashed { kind, report: r } => (
            RunOutcome::Crashed {
                kind: kind.to_string(),
                report: report(r),
            },
            &None,
        ),
        Outcome::StackOverflow { report: r } => (
            RunOutcome::StackOverflow {
                kind: "stack overflow".into(),
                report: report(r),
            },
            &None,
        ),
        Outcome::TimedOut {
            after,
            ran,
            report: r,
        } => (
            RunOutcome::Timeout {
                kind: "timeout".into(),
                timeout_ms: after.as_millis() as u64,
                ran_ms: ran.as_millis() as u64,
                report: report(r),
            },
            &None,
        ),
        Outcome::OutOfMemory { rss_mb, report: r } => (
            RunOutcome::Oom {
                kind: "out of memory".into(),
                rss_mb: *rss_mb,
                report: report(r),
            },
            &None,
        ),
        Outcome::Exited { code, report: r } => (
            RunOutcome::Exit {
                kind: format!("exit status {code}"),
                exit_code: *code,
                report: report(r),
            },
            &None,
        ),
    };
    RunLine {
        input: input.to_string(),
        outcome: out,
        features: cov.map(|(n, _)| n),
        fingerprint: cov.map(|(_, fp)| format!("{fp:016x}")),
    }
}
