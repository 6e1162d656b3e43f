//! fuzz-run -sync as a Slurm job array, on a real one-node cluster of
//! Debian's Slurm started for the test (tests/slurm/cluster.sh): the array
//! of examples/slurm/fuzz.sbatch shares one corpus, the distill job of
//! examples/slurm/distill.sbatch reduces it, `fuzz-corpus status` lists the
//! instances, and an array cancelled with scancel leaves no process and
//! nothing torn.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A one-node cluster, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        for tool in [
            "munged",
            "slurmctld",
            "slurmd",
            "sbatch",
            "squeue",
            "scancel",
        ] {
            require_tool(tool);
        }
        let script = root().join("tests/slurm/cluster.sh");
        let out = Command::new("bash")
            .arg(&script)
            .arg("start")
            .arg(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "the cluster did not start:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = dir.canonicalize().unwrap();
        Cluster {
            conf: dir.join("slurm.conf"),
            dir,
        }
    }

    /// A Slurm client command for this cluster.
    fn client(&self, tool: &str) -> Command {
        let mut c = Command::new(tool);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// Submits a batch script; returns the job id.
    fn sbatch(&self, args: &[&str], env: &[(&str, String)]) -> String {
        let mut c = self.client("sbatch");
        c.arg("--parsable").args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "sbatch {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap()
            .to_string()
    }

    /// The states of a job's tasks still known to the controller.
    fn active(&self, job: &str) -> String {
        let out = self
            .client("squeue")
            .args(["-h", "-j", job, "-t", "PD,R,CG,S,CF", "-o", "%i %T"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn wait(&self, job: &str, limit: Duration) {
        let start = Instant::now();
        while !self.active(job).is_empty() {
            assert!(
                start.elapsed() < limit,
                "job {job} still active after {limit:?}: {}",
                self.active(job)
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(root().join("tests/slurm/cluster.sh"))
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

/// The directory our binaries are in, for the jobs' PATH.
fn bin_dir() -> PathBuf {
    bin("fuzz-run").parent().unwrap().to_path_buf()
}

/// Every `<Target>\t<name>` line of every instance's index in DIR.
fn index_lines(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir.join(".sync/instances"))
        .unwrap()
        .flatten()
    {
        let text = std::fs::read_to_string(e.path().join("index")).unwrap_or_default();
        for line in text.lines() {
            let (t, n) = line.split_once('\t').expect("a whole index line");
            out.push((t.to_string(), n.to_string()));
        }
    }
    out
}

/// Every index line names a file that is there, parses and is named by
/// its digest; nothing half-written lies outside .sync/.
#[track_caller]
fn nothing_torn(dir: &Path) {
    for (target, name) in index_lines(dir) {
        let path = dir.join(&target).join(&name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        fuzz_core::format::codec::decode(&bytes).unwrap();
        assert!(
            fuzz_core::store::digest::name_matches(&name, &bytes),
            "{}",
            path.display()
        );
    }
    for e in walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| !e.path().starts_with(dir.join(".sync")))
    {
        assert!(
            !e.file_name().to_string_lossy().starts_with(".tmp"),
            "{}",
            e.path().display()
        );
    }
}

/// Features a corpus reaches: what `fuzz-corpus merge -lib` into an empty
/// directory says it kept.
fn coverage_of(work: &Path, lib: &str, target: &str, corpus: &Path) -> usize {
    let dst = tempdir();
    let r = run_in(
        work,
        "fuzz-corpus",
        &[
            "merge",
            "-lib",
            lib,
            "-target",
            target,
            dst.path().join("m").to_str().unwrap(),
            corpus.to_str().unwrap(),
        ],
    )
    .expect(0);
    // "... (0 -> N features, ...)"
    let at = r.stderr.find("(0 -> ").expect("a merge summary") + 6;
    r.stderr[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_slurm_job_array_shares_one_corpus_and_a_distill_job_reduces_it() {
    require_tool("bash");
    let d = tempdir();
    let cluster = Cluster::start(&d.path().join("cluster"));
    let work = d.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let sync = work.join("shared");
    let lib = example_lib("libc_parse_gcc.so");
    let target = "c_parse_gcc";
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mark = format!("slurm-{}", std::process::id());
    let env = [
        ("PATH", path),
        ("FUZZTIME", "8s".to_string()),
        ("SYNC_INTERVAL", "1s".to_string()),
        ("FUZZ_TEST_MARK", mark.clone()),
        ("FUZZCACHE", work.join("cache").display().to_string()),
    ];
    let logs = work.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let script = root().join("examples/slurm/fuzz.sbatch");
    let array = cluster.sbatch(
        &[
            "--array=0-3",
            &format!("--chdir={}", work.display()),
            &format!("--output={}/%A_%a.out", logs.display()),
            script.to_str().unwrap(),
            &lib,
            target,
            sync.to_str().unwrap(),
        ],
        &env,
    );
    let distill = cluster.sbatch(
        &[
            &format!("--dependency=afterany:{array}"),
            &format!("--chdir={}", work.display()),
            &format!("--output={}/distill.out", logs.display()),
            root()
                .join("examples/slurm/distill.sbatch")
                .to_str()
                .unwrap(),
            &lib,
            sync.to_str().unwrap(),
        ],
        &env,
    );
    cluster.wait(&array, Duration::from_secs(60));
    cluster.wait(&distill, Duration::from_secs(60));
    let log = |name: &str| std::fs::read_to_string(logs.join(name)).unwrap_or_default();
    let all_logs = || {
        std::fs::read_dir(&logs)
            .unwrap()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n----\n")
    };

    // Every entry any instance published is in DIR/<Target>/, whole.
    nothing_torn(&sync);
    let lines = index_lines(&sync);
    assert!(
        lines.len() > 5,
        "published {}:\n{}",
        lines.len(),
        all_logs()
    );
    // The planted bug, once for the fleet.
    let crashers: Vec<_> = std::fs::read_dir(sync.join("crashers").join(target))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(crashers.len(), 1, "{:?}\n{}", crashers, all_logs());
    // Collected into testdata, where it replays as a failure.
    let collected = work.join("testdata/fuzz").join(target);
    assert_eq!(
        std::fs::read_dir(&collected).unwrap().count(),
        1,
        "{}",
        log("distill.out")
    );
    assert_eq!(run_in(&work, "fuzz-run", &[&lib]).code, 1);
    // The distilled corpus reaches the union's coverage.
    let union = coverage_of(&work, &lib, target, &sync.join(target));
    let distilled = coverage_of(&work, &lib, target, &work.join("distilled").join(target));
    assert_eq!(distilled, union, "{}", log("distill.out"));
    // Four instances, all done.
    let r = run_in(&work, "fuzz-corpus", &["status", sync.to_str().unwrap()]).expect(0);
    let out = r.out();
    assert_eq!(
        out.lines().filter(|l| l.contains(" done ")).count(),
        4,
        "{out}"
    );
    assert!(out.contains("total: 4 instances"), "{out}");
    // Each task kept its generated corpus in a cache of its own.
    for task in 0..4 {
        let own = work.join("cache").join(format!("task-{task}"));
        assert!(own.join("CACHEDIR.TAG").is_file(), "{}", own.display());
    }
    let left = marked_processes(&format!("FUZZ_TEST_MARK={mark}"));
    assert!(left.is_empty(), "processes left: {left:?}");

    // An array cancelled mid-run: nothing left running, nothing torn. Its
    // tasks take their -fuzztime from the job's time limit.
    // (Elsewhere than `work`, and with a cache of its own, so that its
    // instances start from nothing and are publishing when it is
    // cancelled. The first to find the bug writes it to the testdata the
    // tasks share; those that start after it replay it as a seed and,
    // under -keepfuzzing, fuzz on.)
    let work2 = d.path().join("work2");
    std::fs::create_dir_all(&work2).unwrap();
    let sync2 = work2.join("shared");
    let mut env2 = env.clone();
    assert_eq!((env2[1].0, env2[4].0), ("FUZZTIME", "FUZZCACHE"));
    env2[1].1 = String::new();
    env2[4].1 = work2.join("cache").display().to_string();
    let cancelled = cluster.sbatch(
        &[
            "--array=0-3",
            "--time=5",
            &format!("--chdir={}", work2.display()),
            &format!("--output={}/c_%A_%a.out", logs.display()),
            script.to_str().unwrap(),
            &lib,
            target,
            sync2.to_str().unwrap(),
        ],
        &env2,
    );
    // Every instance fuzzing (its status counts executions, written at a
    // sync round), and some entries published, before the cancel lands.
    let start = Instant::now();
    while index_lines_or_none(&sync2) < 4 || fuzzing_instances(&sync2) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(40),
            "the second array did not get going:\n{}",
            all_logs()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let before = execs_by_id(&sync2);
    let out = cluster.client("scancel").arg(&cancelled).output().unwrap();
    assert!(out.status.success());
    cluster.wait(&cancelled, Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(500));
    let left = marked_processes(&format!("FUZZ_TEST_MARK={mark}"));
    assert!(left.is_empty(), "processes left after scancel: {left:?}");
    nothing_torn(&sync2);
    // Slurm signalled the workers too: a stop, never a finding.
    for dir in [&sync2, &work2.join("testdata")] {
        for e in walkdir::WalkDir::new(dir).into_iter().flatten() {
            let text = std::fs::read(e.path()).unwrap_or_default();
            assert!(
                !String::from_utf8_lossy(&text).contains("SIGTERM"),
                "{}: {}",
                e.path().display(),
                String::from_utf8_lossy(&text)
            );
        }
    }
    // The statuses are whole and none went back: an instance stopped by
    // SIGTERM writes its last, one killed after Slurm's KillWait keeps
    // the one before.
    let after = execs_by_id(&sync2);
    assert_eq!(after.len(), 4, "{after:?}");
    for (id, execs) in &before {
        assert!(after[id] >= *execs, "{before:?} then {after:?}");
    }
}

fn execs_by_id(dir: &Path) -> std::collections::BTreeMap<String, u64> {
    fuzz_core::store::sync::statuses(dir)
        .unwrap()
        .into_iter()
        .filter_map(|s| Some((s.id, s.status.ok()?.execs)))
        .collect()
}

fn index_lines_or_none(dir: &Path) -> usize {
    if dir.join(".sync/instances").is_dir() {
        index_lines(dir).len()
    } else {
        0
    }
}

/// Instances whose status counts executions.
fn fuzzing_instances(dir: &Path) -> usize {
    fuzz_core::store::sync::statuses(dir).map_or(0, |s| {
        s.iter()
            .filter(|s| s.status.as_ref().is_ok_and(|s| s.execs > 0))
            .count()
    })
}
