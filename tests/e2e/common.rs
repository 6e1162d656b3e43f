//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The path of one of our binaries, built by cargo for this test run.
pub fn bin(name: &str) -> PathBuf {
    let p = match name {
        "fuzz-run" => env!("CARGO_BIN_EXE_fuzz-run"),
        "fuzz-worker" => env!("CARGO_BIN_EXE_fuzz-worker"),
        "fuzz-minimize" => env!("CARGO_BIN_EXE_fuzz-minimize"),
        "fuzz-convert" => env!("CARGO_BIN_EXE_fuzz-convert"),
        "fuzz-corpus" => env!("CARGO_BIN_EXE_fuzz-corpus"),
        "fuzz-clean" => env!("CARGO_BIN_EXE_fuzz-clean"),
        "fuzz-build" => env!("CARGO_BIN_EXE_fuzz-build"),
        other => panic!("no binary {other}"),
    };
    PathBuf::from(p)
}

/// The seven tools, by binary name.
pub use fuzz_cli::TOOLS;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Test data under tests/data.
pub fn data(rel: &str) -> PathBuf {
    root().join("tests").join("data").join(rel)
}

/// What a finished command did.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    /// Panics with the whole output unless the exit code is `code`.
    #[track_caller]
    pub fn expect(self, code: i32) -> Run {
        assert_eq!(
            self.code,
            code,
            "exit {} (want {code})\nstdout:\n{}\nstderr:\n{}",
            self.code,
            self.out(),
            self.stderr
        );
        self
    }
    /// Asserts stderr is exactly one line, `tool: …`, naming `needle`.
    #[track_caller]
    pub fn one_line_error(&self, tool: &str, needle: &str) {
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "want one line on stderr, got:\n{}",
            self.stderr
        );
        assert!(
            lines[0].starts_with(&format!("{tool}: ")),
            "error should start with '{tool}: ': {}",
            lines[0]
        );
        assert!(
            lines[0].contains(needle),
            "error should mention {needle:?}: {}",
            lines[0]
        );
    }
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Runs a prepared command to its end, stdin closed.
pub fn run_command(mut c: Command) -> Run {
    c.stdin(Stdio::null()).output().map(Run::from).unwrap()
}

/// Runs one of our tools in `dir` with `args`, stdin closed.
pub fn run_in(dir: &Path, tool: &str, args: &[&str]) -> Run {
    run_command(cmd(dir, tool, args))
}

/// Runs one of our tools with `input` on stdin.
pub fn run_with_stdin(dir: &Path, tool: &str, args: &[&str], input: &[u8]) -> Run {
    use std::io::Write;
    let mut child = cmd(dir, tool, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run::from(out)
}

/// A command for one of our tools with a clean, isolated environment: the
/// cache variables point into `dir` so no test touches the real cache.
pub fn cmd(dir: &Path, tool: &str, args: &[&str]) -> Command {
    let mut c = Command::new(bin(tool));
    c.args(args)
        .current_dir(dir)
        .env_remove("FUZZCACHE")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", dir.join("home"));
    c
}

/// Runs `c` in a mount namespace of its own (`unshare -m`) in which each
/// of `dirs` (relative to `c`'s working directory, existing) is bind-mounted
/// read-only over itself, its files still there. A permission bit proves
/// nothing when the tests run as root, as CI runs them; a read-only mount
/// stops root too. The mounts go with the namespace when `c` ends.
pub fn run_read_only(c: &Command, dirs: &[&str]) -> Run {
    require_tool("unshare");
    require_tool("mount");
    let mut script = String::from("set -e; ");
    for d in dirs {
        script.push_str(&format!(
            "mount --bind {d} {d}; mount -o remount,bind,ro {d}; "
        ));
    }
    script.push_str("exec \"$@\"");
    run_in_mount_namespace(c, &script)
}

/// Runs `c` after the shell commands `script` (which end in `exec "$@"`)
/// in a mount namespace of its own (`unshare -m`, private propagation),
/// with `c`'s working directory and environment: what the script mounts
/// goes with the namespace when `c` ends.
pub fn run_in_mount_namespace(c: &Command, script: &str) -> Run {
    let mut u = Command::new("unshare");
    u.args(["-m", "--propagation", "private", "sh", "-c", script, "sh"])
        .arg(c.get_program())
        .args(c.get_args());
    if let Some(cwd) = c.get_current_dir() {
        u.current_dir(cwd);
    }
    for (k, v) in c.get_envs() {
        match v {
            Some(v) => u.env(k, v),
            None => u.env_remove(k),
        };
    }
    run_command(u)
}

/// A fresh temporary directory.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Every file below `dir`, relative, sorted, with its bytes: a snapshot to
/// show that a failed command changed nothing.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            out.push((
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                std::fs::read(e.path()).unwrap(),
            ));
        } else if e.file_type().is_dir() {
            out.push((
                e.path().strip_prefix(dir).unwrap().to_path_buf(),
                Vec::new(),
            ));
        }
    }
    out
}

/// Fails the test when an external tool is missing: tests never skip.
pub fn require_tool(name: &str) -> PathBuf {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} is required by this test and is not installed (run .ci/run, or install it)"
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// A `go` command that works offline and leaves no trace outside `scratch`:
/// its own build cache and module cache, no proxy, no toolchain download.
pub fn go(scratch: &Path) -> Command {
    require_tool("go");
    let mut c = Command::new("go");
    c.env("GOCACHE", scratch.join("gocache"))
        .env("GOPATH", scratch.join("gopath"))
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GO111MODULE", "on")
        .env("CGO_ENABLED", "0");
    c
}

/// A small seeded generator (fuzz-core's SplitMix64), so generated test
/// inputs are the same on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        fuzz_core::search::rng::splitmix64(&mut self.0)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Every library `examples/build.sh` builds (with clang-19 present).
pub const EXAMPLE_LIBRARIES: [&str; 29] = [
    "librust_typed.so",
    "librust_typed_fixed.so",
    "librust_typed_abort.so",
    "librust_bytes.so",
    "librust_bytes_fixed.so",
    "librust_cmp.so",
    "librust_cmp_fixed.so",
    "libc_parse_gcc.so",
    "libc_parse_gcc_fixed.so",
    "libc_parse_clang.so",
    "libc_parse_clang_fixed.so",
    "libc_stuck.so",
    "libc_parse_fnl.so",
    "libc_parse_fnl_fixed.so",
    "libc_asan.so",
    "libc_asan_fixed.so",
    "libcmp_c.so",
    "libcmp_c_fixed.so",
    "libcmp_number.so",
    "libcmp_number_fixed.so",
    "libcmp_number_fast.so",
    "libcmp_c_clang.so",
    "libcmp_c_clang_fixed.so",
    "libmisbehave.so",
    "libfaults.so",
    "libladder.so",
    "libhalves.so",
    "libscript.so",
    "liblength.so",
];

/// The example target libraries, built by `examples/build.sh` once per test
/// run into `<target dir>/e2e-examples` (concurrent tests wait for the one
/// build; concurrent test binaries take turns through build.sh's flock).
/// Panics with build.sh's output when the build fails or leaves out a
/// library (build.sh skips the clang-19 variants without clang-19; tests
/// never skip).
pub fn examples() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let target = match std::env::var_os("CARGO_TARGET_DIR") {
            Some(t) => root().join(t),
            None => root().join("target"),
        };
        let out_dir = target.join("e2e-examples");
        let out = Command::new("bash")
            .arg(root().join("examples").join("build.sh"))
            .arg(&out_dir)
            .stdin(Stdio::null())
            .output()
            .expect("cannot run bash examples/build.sh");
        let log = format!(
            "stdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "examples/build.sh {} failed ({}); it needs cargo, gcc and clang-19 \
             (apt-get install gcc clang-19)\n{log}",
            out_dir.display(),
            out.status
        );
        // A library left over from an earlier build does not count.
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("skipping"),
            "examples/build.sh skipped libraries: install clang-19 \
             (apt-get install clang-19)\n{log}"
        );
        for lib in EXAMPLE_LIBRARIES {
            assert!(
                out_dir.join(lib).is_file(),
                "examples/build.sh did not build {lib} (is clang-19 installed? \
                 apt-get install clang-19)\n{log}"
            );
        }
        out_dir
    })
}

/// An example library built by `examples()`, as a string for argv.
pub fn example_lib(name: &str) -> String {
    examples().join(name).to_str().unwrap().to_string()
}

/// A file of `examples/known-inputs/`, as a string for argv.
pub fn known_input(name: &str) -> String {
    let p = root().join("examples").join("known-inputs").join(name);
    assert!(p.is_file(), "no known input {}", p.display());
    p.to_str().unwrap().to_string()
}

/// Live (not zombie) processes whose environment holds `marker`, a
/// `NAME=value` a test set on the tool it started: the tool's children
/// inherit it, which tells them from those of tests running beside it.
pub fn marked_processes(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(env) = std::fs::read(e.path().join("environ")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(e.path().join("stat"))
            .map(|s| s.contains(") Z "))
            .unwrap_or(true);
        if !zombie && env.split(|&b| b == 0).any(|v| v == marker.as_bytes()) {
            found.push(name);
        }
    }
    found
}

/// Asserts that no unfinished write (a `.tmp` file, which every tool
/// renames into place when it is whole) is left under `dir`.
#[track_caller]
pub fn no_unfinished_writes(dir: &Path) {
    // Below `dir`: a test's own directory may be named .tmp… (tempfile).
    for e in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .flatten()
    {
        assert!(
            !e.file_name().to_string_lossy().starts_with(".tmp"),
            "{}",
            e.path().display()
        );
    }
}

/// Sends `signal` to every process `marker` marks, the deepest first and
/// `top` (the tool the test started) last, 50 ms apart: as a scheduler
/// stopping a job signals every process of it, in the worst order for the
/// tool (its workers and their children die before it has its signal).
pub fn signal_every_process(marker: &str, top: u32, signal: i32) {
    let depth = |pid: i32| {
        let mut depth = 0;
        let mut at = pid;
        while at > 1 {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{at}/stat")) else {
                break;
            };
            // After the command's closing parenthesis: state, then ppid.
            let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            at = after
                .split_whitespace()
                .nth(1)
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            depth += 1;
        }
        depth
    };
    let mut pids: Vec<(usize, i32)> = marked_processes(marker)
        .iter()
        .filter_map(|p| p.parse().ok())
        .filter(|&p| p != top as i32)
        .map(|p| (depth(p), p))
        .collect();
    pids.sort_unstable_by(|a, b| b.cmp(a));
    for pid in pids.iter().map(|&(_, p)| p).chain([top as i32]) {
        // SAFETY: signalling a process of the run the test started.
        unsafe { libc::kill(pid, signal) };
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Compiles C source into a shared object in `dir` with gcc (no coverage
/// instrumentation, no -z defs: undefined references stay undefined).
pub fn gcc_so(dir: &Path, name: &str, source: &str) -> String {
    gcc_so_with(dir, name, source, &[])
}

/// [`gcc_so`] with more flags (`-fsanitize-coverage=trace-pc`).
pub fn gcc_so_with(dir: &Path, name: &str, source: &str, flags: &[&str]) -> String {
    require_tool("gcc");
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let so = dir.join(name);
    let out = std::process::Command::new("gcc")
        .args(["-shared", "-fPIC", "-O1"])
        .args(flags)
        .arg("-o")
        .arg(&so)
        .arg(&c)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gcc failed building {name}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    so.to_str().unwrap().to_string()
}

/// A corpus directory `dir/name` of `[]byte` entries, each a file name and
/// the Go string literal's contents (escapes as Go writes them).
pub fn bytes_corpus(dir: &Path, name: &str, entries: &[(&str, &str)]) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    for (file, literal) in entries {
        std::fs::write(
            d.join(file),
            format!("go test fuzz v1\n[]byte(\"{literal}\")\n"),
        )
        .unwrap();
    }
    d
}

/// The JSON events of a `-json` run, one per stdout line, without the exit
/// event that ends every such run (checked here: last, its code the run's
/// exit code). Each line is checked to be exactly one of fuzz_core's
/// typed events, no field more or less.
pub fn json_events(r: &Run) -> Vec<serde_json::Value> {
    let mut ev: Vec<serde_json::Value> = r
        .out()
        .lines()
        .map(|l| {
            let v = serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"));
            assert_typed_event(&v);
            v
        })
        .collect();
    let last = ev
        .pop()
        .unwrap_or_else(|| panic!("no events:\n{}", r.stderr));
    assert_eq!(last["event"], "exit", "{last}");
    assert_eq!(last["exit_code"], r.code, "{last}");
    ev
}

/// `v` reads as one of fuzz-run's typed `-json` lines and writes back as
/// the same JSON: the line holds no field the type does not define.
fn assert_typed_event(v: &serde_json::Value) {
    use fuzz_core::run_events::{FuzzEvent, Line, RegressEvent};
    let back = match serde_json::from_value::<Line<FuzzEvent>>(v.clone()) {
        Ok(line) => serde_json::to_value(line),
        Err(fuzz_err) => match serde_json::from_value::<Line<RegressEvent>>(v.clone()) {
            Ok(line) => serde_json::to_value(line),
            Err(e) => panic!("not a typed event ({fuzz_err}; {e}): {v}"),
        },
    }
    .unwrap();
    assert_eq!(&back, v, "a field the typed event does not define");
}

/// Runs `tool args` in `dir` as `tool args | head -1` would: stdout read for
/// one line, then closed. The run's stdout is that line; its stderr goes
/// to a file (a pipe nobody reads while stdout is read would stop a tool
/// that warns a lot).
pub fn with_head_1(dir: &Path, tool: &str, args: &[&str]) -> Run {
    use std::io::{BufRead, BufReader};
    let log = tempdir();
    let err = log.path().join("stderr");
    let mut child = cmd(dir, tool, args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut first);
    let mut r = Run::from(child.wait_with_output().unwrap());
    r.stdout = first.into_bytes();
    r.stderr = std::fs::read_to_string(&err).unwrap();
    r
}

/// The scratch directories (shared memory, stderr captures) of the tool
/// with process id `pid` that are in /dev/shm.
pub fn scratch_dirs_of(pid: u32) -> Vec<String> {
    std::fs::read_dir("/dev/shm")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("fuzz-tools-") && n.contains(&format!("-{pid}-")))
        .collect()
}
