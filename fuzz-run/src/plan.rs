//! A fuzzing run's plan: the flags checked and turned into what the run
//! needs before any worker starts (as ripgrep turns its flags into
//! `HiArgs` first). The coordinators take the plan, never the flags, and
//! their state its [`Config`].

use crate::cli::Cli;
use crate::state::Config;
use fuzz_cli::CliError;
use fuzz_core::duration::Limit;
use fuzz_core::worker::serve_args::ServeArgs;
use std::path::PathBuf;

/// The most workers a run may have.
const MAX_PARALLEL: u64 = 256;

pub struct Plan {
    /// The fuzz-worker binary.
    pub worker_bin: PathBuf,
    /// What every worker serves (its target set when it starts).
    pub serve: ServeArgs,
    /// The workers' working directory: a Go package's.
    pub cwd: Option<PathBuf>,
    /// Workers per turn.
    pub parallel: usize,
    /// What each target's decisions go by.
    pub config: Config,
    /// `-seed`: the run repeats.
    pub seed: Option<u64>,
    /// The library's file name as the worker loads it (its canonical
    /// path's), which crash reports name.
    pub lib_file: String,
}

impl Plan {
    /// Checks the flags that fuzzing uses and derives the run from them.
    /// Errors are one-line misuse naming the flag.
    pub fn new(cli: &Cli) -> Result<Plan, CliError> {
        check_limits(cli)?;
        if let Some(dict) = &cli.dict {
            // A bad dictionary is one line naming the line at fault.
            let flag = |e: CliError| CliError::misuse(format!("{} (-dict)", e.message));
            let text = fuzz_cli::io::read_operand(dict).map_err(flag)?;
            fuzz_core::search::dict::parse(&text)
                .map_err(|e| flag(CliError::from(e.in_file(dict))))?;
        }
        let lib_file = std::fs::canonicalize(&cli.lib)
            .unwrap_or_else(|_| cli.lib.clone())
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Plan {
            worker_bin: fuzz_cli::find_worker::path()?,
            serve: ServeArgs {
                dict: cli.dict.clone(),
                cmp_lib: cli.cmp_lib.clone(),
                cmp_outcomes: cli.cmp_outcomes,
                ..ServeArgs::new(cli.lib.clone(), None)
            },
            cwd: cli.package.as_ref().map(|p| p.dir.clone()),
            parallel: parallel(cli),
            config: config(cli),
            seed: cli.seed,
            lib_file,
        })
    }
}

/// The decisions' settings, from the flags.
fn config(cli: &Cli) -> Config {
    Config {
        fuzztime: cli.fuzz_limit(),
        minimize: cli.fuzzminimizetime,
        keepfuzzing: cli.keepfuzzing,
        timeout: cli.limits.timeout(),
        rss_limit_mb: cli.limits.rss_limit_mb,
        max_len: cli.max_len,
        seeded: cli.seed.is_some(),
        use_cmp: cli.use_cmp,
        search: cli.search,
        vary_workers: cli.vary_workers,
        shared: cli.sync.is_some(),
    }
}

/// Workers per turn: -parallel, else one per CPU; never more than a
/// `-fuzztime Nx` has executions.
fn parallel(cli: &Cli) -> usize {
    let parallel = cli
        .parallel
        .map(|p| p as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    match cli.fuzz_limit() {
        Some(Limit::Count(n)) => parallel.min(n.max(1) as usize),
        _ => parallel,
    }
    .max(1)
}

/// The limits that are refused before anything starts: -max_len 0 (no
/// input would fit), -parallel above 256 or above what RLIMIT_NPROC lets
/// this user start; above the CPU count is only a warning.
fn check_limits(cli: &Cli) -> Result<(), CliError> {
    if cli.max_len == 0 {
        return Err(CliError::misuse(
            "-max_len 0: want a positive size in bytes (default 4096)",
        ));
    }
    let Some(p) = cli.parallel.map(u64::from) else {
        return Ok(());
    };
    if p > MAX_PARALLEL {
        return Err(CliError::misuse(format!(
            "-parallel {p}: at most {MAX_PARALLEL} workers"
        )));
    }
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit into a local struct.
    let nproc = (unsafe { libc::getrlimit(libc::RLIMIT_NPROC, &mut lim) } == 0)
        .then_some(lim.rlim_cur)
        .filter(|&n| n != libc::RLIM_INFINITY);
    if let Some(n) = nproc.filter(|&n| p > n) {
        return Err(CliError::misuse(format!(
            "-parallel {p}: this user may start at most {n} processes (ulimit -u)"
        )));
    }
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    if p > cpus {
        fuzz_cli::exit::warn(
            "fuzz-run",
            &format!("-parallel {p} is more workers than the {cpus} CPUs: they will share them"),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use fuzz_core::worker::protocol::Search;

    fn cli(args: &[&str]) -> Cli {
        let argv = ["fuzz-run"].iter().chain(args).chain(&["lib.so"]);
        Cli::try_parse_from(argv).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    /// Every switch of the search (each field of `Search`, as the wire
    /// names it) is a flag of fuzz-run's that reaches the workers' settings:
    /// adding a switch is adding a field.
    #[test]
    fn every_search_field_is_a_flag_that_reaches_the_config() {
        let fields = serde_json::to_value(Search::GO).unwrap();
        let fields = fields.as_object().unwrap();
        assert!(fields.len() >= 11, "{fields:?}");
        for (name, off) in fields {
            let on = match off {
                serde_json::Value::Bool(_) => "1".to_string(),
                serde_json::Value::Number(_) => "7".to_string(),
                other => panic!("{name}: {other}"),
            };
            let flag = format!("--{name}");
            let c = cli(&[flag.as_str(), on.as_str()]);
            let got = serde_json::to_value(config(&c).search).unwrap();
            let want = if on == "1" {
                serde_json::json!(true)
            } else {
                serde_json::json!(7)
            };
            assert_eq!(got[name], want, "{flag} {on}");
        }
    }

    #[test]
    fn the_workers_per_turn_never_outnumber_the_executions_asked() {
        assert_eq!(parallel(&cli(&["--parallel", "4"])), 4);
        assert_eq!(parallel(&cli(&["--parallel", "4", "--fuzztime", "2x"])), 2);
        assert_eq!(parallel(&cli(&["--parallel", "4", "--fuzztime", "1x"])), 1);
        assert_eq!(parallel(&cli(&["--parallel", "4", "--fuzztime", "3s"])), 4);
    }

    #[test]
    fn limits_that_cannot_work_are_refused_naming_the_flag() {
        let e = check_limits(&cli(&["--max_len", "0"])).unwrap_err();
        assert!(e.message.starts_with("-max_len 0: "), "{}", e.message);
        let e = check_limits(&cli(&["--parallel", "257"])).unwrap_err();
        assert_eq!(e.message, "-parallel 257: at most 256 workers");
        assert!(check_limits(&cli(&["--parallel", "1"])).is_ok());
    }

    #[test]
    fn the_config_comes_from_the_flags() {
        let c = cli(&[
            "--keepfuzzing",
            "--sync",
            "s",
            "--seed",
            "5",
            "--max_len",
            "9",
        ]);
        let cfg = config(&c);
        assert!(cfg.keepfuzzing && cfg.shared && cfg.seeded && cfg.max_len == 9);
        let cfg = config(&cli(&[]));
        assert!(!cfg.keepfuzzing && !cfg.shared && !cfg.seeded && cfg.max_len == 4096);
    }
}
