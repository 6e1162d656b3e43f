//! A fuzzing test's working directory: a temporary directory that holds
//! the seed corpora (`testdata/fuzz/<Target>/`) and its own generated
//! corpus cache (`cache/`), so that tests running side by side never share
//! a file. The fuzzing tests (run_fuzz, run_multi, custom, search) run
//! fuzz-run through it and look at what it wrote.
#![allow(dead_code)]

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A temporary directory with its own cache, removed when dropped.
pub struct Work {
    dir: tempfile::TempDir,
}

impl Work {
    pub fn new() -> Work {
        Work { dir: tempdir() }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The generated corpus cache of the runs here, for `-fuzzcachedir`.
    pub fn cache(&self) -> String {
        self.path().join("cache").display().to_string()
    }

    /// `fuzz-run -fuzzcachedir <cache> ARGS... LIB`, to run here.
    pub fn fuzz_command(&self, lib: impl AsRef<Path>, args: &[&str]) -> Command {
        let cache = self.cache();
        let lib = lib.as_ref().display().to_string();
        let mut all: Vec<&str> = vec!["-fuzzcachedir", &cache];
        all.extend_from_slice(args);
        all.push(&lib);
        cmd(self.path(), "fuzz-run", &all)
    }

    /// Runs `fuzz-run -fuzzcachedir <cache> ARGS... LIB` here.
    pub fn fuzz(&self, lib: impl AsRef<Path>, args: &[&str]) -> Run {
        run_command(self.fuzz_command(lib, args))
    }

    /// Starts the same command as [`Work::fuzz`] in the background, its
    /// output going to files (readable while it runs) and its environment
    /// marked, so that the processes it starts can be counted (see
    /// [`marked_processes`]).
    pub fn start_fuzz(&self, lib: impl AsRef<Path>, args: &[&str]) -> Fuzzing {
        let logs = tempdir();
        let out = std::fs::File::create(logs.path().join("stdout")).unwrap();
        let err = std::fs::File::create(logs.path().join("stderr")).unwrap();
        // A marker in the environment, which the workers inherit, tells
        // this run's processes from those of tests running beside it.
        let child = self
            .fuzz_command(lib, args)
            .env("FUZZ_TEST_MARK", self.path())
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap();
        Fuzzing {
            child,
            marker: format!("FUZZ_TEST_MARK={}", self.path().display()),
            work: self.path().to_path_buf(),
            logs,
        }
    }

    /// A target's seed corpus directory, created if need be.
    pub fn seed_dir(&self, target: &str) -> PathBuf {
        let dir = self.path().join("testdata/fuzz").join(target);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes a seed file (v1 bytes) for a target.
    pub fn seed(&self, target: &str, name: &str, v1: impl AsRef<[u8]>) {
        std::fs::write(self.seed_dir(target).join(name), v1).unwrap();
    }

    /// The files of a target's seed corpus directory, sorted; none when
    /// there is no such directory.
    pub fn testdata(&self, target: &str) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(self.path().join("testdata/fuzz").join(target))
                .map(|d| d.map(|e| e.unwrap().path()).collect())
                .unwrap_or_default();
        files.sort();
        files
    }

    /// The crashers written for a target: its seed corpus files named by
    /// their digest, sorted.
    pub fn crashers(&self, target: &str) -> Vec<PathBuf> {
        let mut files = self.testdata(target);
        files.retain(|p| {
            fuzz_core::store::digest::is_digest_name(&p.file_name().unwrap().to_string_lossy())
        });
        files
    }

    /// Every entry of the generated corpus, `<cache>/<lib id>/<Target>/<entry>`
    /// (not the root's CACHEDIR.TAG), sorted.
    pub fn cache_entries(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(self.path().join("cache"))
            .min_depth(3)
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect();
        files.sort();
        files
    }

    /// The names of the entries of a target's generated corpus, sorted.
    pub fn cached(&self, target: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .cache_entries()
            .iter()
            .filter(|p| p.parent().unwrap().ends_with(target))
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// A fuzz-run started by [`Work::start_fuzz`].
pub struct Fuzzing {
    child: Child,
    marker: String,
    /// The work directory: testdata, the cache, the run's files.
    work: PathBuf,
    /// Its stdout and stderr files.
    logs: tempfile::TempDir,
}

impl Fuzzing {
    /// How many processes of this run are alive: fuzz-run and its workers.
    pub fn processes(&self) -> usize {
        marked_processes(&self.marker).len()
    }

    /// fuzz-run's pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The pids of the run's processes other than fuzz-run itself.
    pub fn worker_pids(&self) -> Vec<i32> {
        let me = self.child.id().to_string();
        marked_processes(&self.marker)
            .into_iter()
            .filter(|p| *p != me)
            .map(|p| p.parse().unwrap())
            .collect()
    }

    /// Where fuzz-run's stderr goes.
    pub fn stderr_path(&self) -> PathBuf {
        self.logs.path().join("stderr")
    }

    /// What fuzz-run wrote, once it has ended.
    fn collect(&mut self) -> Run {
        let status = self.child.wait().unwrap();
        Run {
            code: status.code().unwrap_or(-1),
            stdout: std::fs::read(self.logs.path().join("stdout")).unwrap(),
            stderr: std::fs::read_to_string(self.stderr_path()).unwrap(),
        }
    }

    /// Waits for fuzz-run to end by itself.
    pub fn wait(mut self) -> Run {
        self.collect()
    }

    /// Waits for fuzz-run to end by itself, and asserts that none of its
    /// processes (workers, what their targets forked) is left.
    #[track_caller]
    pub fn wait_all(mut self) -> Run {
        let run = self.collect();
        let start = std::time::Instant::now();
        let mut left = marked_processes(&self.marker);
        while !left.is_empty() && start.elapsed() < std::time::Duration::from_secs(2) {
            std::thread::sleep(std::time::Duration::from_millis(20));
            left = marked_processes(&self.marker);
        }
        assert!(left.is_empty(), "processes left running: {left:?}");
        run
    }

    /// SIGKILLs fuzz-run, waits for it, and returns the processes of the
    /// run still alive 2 s later (the test then kills them, so as not to
    /// leave them behind whatever it asserts).
    pub fn kill(mut self) -> Vec<String> {
        // SAFETY: signalling our own child, which has not been waited for.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGKILL) };
        let _ = self.child.wait();
        let start = std::time::Instant::now();
        let mut left = marked_processes(&self.marker);
        while !left.is_empty() && start.elapsed() < std::time::Duration::from_secs(2) {
            std::thread::sleep(std::time::Duration::from_millis(20));
            left = marked_processes(&self.marker);
        }
        for pid in &left {
            // SAFETY: signalling a process this test's run started.
            unsafe { libc::kill(pid.parse().unwrap(), libc::SIGKILL) };
        }
        left
    }

    /// Ctrl-C: sends fuzz-run SIGINT, waits for it, and asserts that none
    /// of its processes is left running and no unfinished write (a
    /// `.tmp` file) is left in the cache.
    #[track_caller]
    pub fn interrupt(self) -> Run {
        // SAFETY: signalling our own child, which has not been waited for.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        self.stopped()
    }

    /// Sends `signal` to every process of the run, fuzz-run last (see
    /// [`signal_every_process`]), with the same checks as [`Self::interrupt`].
    #[track_caller]
    pub fn stop_every_process(self, signal: i32) -> Run {
        signal_every_process(&self.marker, self.pid(), signal);
        self.stopped()
    }

    /// Waits for a fuzz-run that was signalled to stop, and checks that it
    /// left no process and no unfinished write (crashers, cache, anywhere
    /// in the work directory).
    #[track_caller]
    fn stopped(mut self) -> Run {
        let run = self.collect();
        let left = marked_processes(&self.marker);
        assert!(left.is_empty(), "processes left running: {left:?}");
        no_unfinished_writes(&self.work);
        run
    }
}
