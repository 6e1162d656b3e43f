//! A `-sync` directory that no file in it can hurt, and no finding lost:
//! each file another process (another user) could leave in a shared
//! directory — a FIFO, a terabyte-long sparse index, an entry that is a
//! link to /dev/zero or to a file outside, a link in place of our own
//! index or of a target's directory, a broken status — and a directory
//! full at the moment of a crash. In each, the instance ends on time, reads
//! and writes nothing outside the directory, and says what it passed over.

use crate::common::*;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the entry outside the directory holds: an input that crashes the
/// bait target, which fuzzing cannot guess (a 64-bit hash of the whole
/// input is compared), so a run that read it would fail.
const OUTSIDE: &str = "outside-the-sync-dir-7f3a9c";

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A coverage-instrumented target (`syncbait`) that aborts on exactly
/// [`OUTSIDE`] and has a few branches for a corpus to publish.
fn bait(dir: &Path) -> String {
    let source = format!(
        "#include <stddef.h>\n#include <stdint.h>\n#include <stdlib.h>\n\
         int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {{\n\
           uint64_t h = 0xcbf29ce484222325ULL;\n\
           for (size_t i = 0; i < n; i++) {{ h ^= d[i]; h *= 0x100000001b3ULL; }}\n\
           if (h == {:#x}ULL) abort();\n\
           if (n > 0 && d[0] == 'a') {{ if (n > 1 && d[1] == 'b') return 0; return 0; }}\n\
           if (n > 2) return 0;\n\
           return 0;\n\
         }}\n",
        fnv1a(OUTSIDE.as_bytes())
    );
    gcc_so_with(
        dir,
        "libsyncbait.so",
        &source,
        &["-fsanitize-coverage=trace-pc"],
    )
}

/// Every path below `top`, links not followed.
fn walk(top: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![top.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

fn v1(s: &str) -> String {
    format!("go test fuzz v1\n[]byte({s:?})\n")
}

/// The digest name an entry of `bytes` has (the cache's naming).
fn entry_name(bytes: &[u8]) -> String {
    fuzz_core::store::digest::entry_name(bytes)
}

/// A place for one case: `work/` (the run's cwd and cache), `DIR/` (the
/// shared directory) and `outside/` (what no instance may touch).
struct Case {
    _d: tempfile::TempDir,
    root: PathBuf,
}

impl Case {
    fn new() -> Case {
        let d = tempdir();
        let root = d.path().to_path_buf();
        for sub in ["work", "DIR/.sync/instances/peer", "outside/tdir"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::write(root.join("outside/entry"), v1(OUTSIDE)).unwrap();
        std::fs::write(root.join("outside/victim"), "line one\nline two\n").unwrap();
        Case { _d: d, root }
    }

    fn dir(&self) -> PathBuf {
        self.root.join("DIR")
    }

    /// The peer's index, naming `lines` (`<Target>\t<name>`).
    fn peer_index(&self, lines: &[String]) {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(self.dir().join(".sync/instances/peer/index"), text).unwrap();
    }

    /// Runs one instance (`-sync_id me`) for `fuzztime`, killed and failed
    /// if it is not done 30 s after.
    fn run(&self, lib: &str, fuzztime: &str) -> (Run, Duration) {
        let work = self.root.join("work");
        let dir = self.dir();
        let mut c = cmd(
            &work,
            "fuzz-run",
            &[
                "-fuzz",
                ".",
                "-fuzztime",
                fuzztime,
                "-parallel",
                "1",
                "-fuzzcachedir",
                "cache",
                "-sync",
                dir.to_str().unwrap(),
                "-sync_id",
                "me",
                "-sync_interval",
                "1s",
                lib,
            ],
        );
        let start = Instant::now();
        let out = tempdir();
        let (o, e) = (out.path().join("o"), out.path().join("e"));
        let mut child = c
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&o).unwrap())
            .stderr(std::fs::File::create(&e).unwrap())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "still running after 30 s:\n{}",
                    std::fs::read_to_string(&e).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let took = start.elapsed();
        (
            Run {
                code: status.code().unwrap_or(-1),
                stdout: std::fs::read(&o).unwrap(),
                stderr: std::fs::read_to_string(&e).unwrap(),
            },
            took,
        )
    }

    /// `outside/` as it is: every file, its bytes.
    fn outside(&self) -> Vec<(PathBuf, Vec<u8>)> {
        snapshot(&self.root.join("outside"))
    }

    /// Whether a regular file under DIR or the run's cache holds the
    /// entry outside (symbolic links are not followed).
    fn holds_outside(&self) -> bool {
        [self.dir(), self.root.join("work/cache")]
            .iter()
            .any(|top| {
                walk(top).iter().any(|p| {
                    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file() && m.len() < 1 << 20)
                        && String::from_utf8_lossy(&std::fs::read(p).unwrap()).contains(OUTSIDE)
                })
            })
    }

    /// The entries published for the bait target in DIR.
    fn published(&self) -> Vec<String> {
        match std::fs::read_dir(self.dir().join("syncbait")) {
            Ok(rd) => rd
                .flatten()
                .map(|e| e.file_name().into_string().unwrap())
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

#[test]
fn no_file_in_the_sync_directory_stalls_an_instance_or_reaches_outside() {
    let lib_dir = tempdir();
    let lib = bait(lib_dir.path());
    let outside_name = entry_name(v1(OUTSIDE).as_bytes());
    type Setup = fn(&Case, &str);
    let cases: [(&str, Setup, i32, &str); 7] = [
        (
            "an entry that is a FIFO",
            |c, name| {
                std::fs::create_dir_all(c.dir().join("syncbait")).unwrap();
                nix::unistd::mkfifo(
                    &c.dir().join("syncbait").join(name),
                    nix::sys::stat::Mode::from_bits_truncate(0o666),
                )
                .unwrap();
                c.peer_index(&[format!("syncbait\t{name}")]);
            },
            0,
            "a FIFO, not a regular file",
        ),
        (
            "an index that is a FIFO",
            |c, _| {
                nix::unistd::mkfifo(
                    &c.dir().join(".sync/instances/peer/index"),
                    nix::sys::stat::Mode::from_bits_truncate(0o666),
                )
                .unwrap();
            },
            0,
            "a FIFO, not a regular file",
        ),
        (
            "a sparse index of a terabyte",
            |c, _| {
                let f = std::fs::File::create(c.dir().join(".sync/instances/peer/index")).unwrap();
                f.set_len(1 << 40).unwrap();
            },
            0,
            "not an index",
        ),
        (
            "an entry linked to /dev/zero",
            |c, name| {
                std::fs::create_dir_all(c.dir().join("syncbait")).unwrap();
                symlink("/dev/zero", c.dir().join("syncbait").join(name)).unwrap();
                c.peer_index(&[format!("syncbait\t{name}")]);
            },
            0,
            "a symbolic link, not a regular file",
        ),
        (
            "an entry linked to a file outside",
            |c, name| {
                std::fs::create_dir_all(c.dir().join("syncbait")).unwrap();
                symlink(
                    c.root.join("outside/entry"),
                    c.dir().join("syncbait").join(name),
                )
                .unwrap();
                c.peer_index(&[format!("syncbait\t{name}")]);
            },
            0,
            "a symbolic link, not a regular file",
        ),
        (
            "a target's directory linked outside",
            |c, _| {
                symlink(c.root.join("outside/tdir"), c.dir().join("syncbait")).unwrap();
            },
            0,
            "cannot publish",
        ),
        (
            "our own index linked to a file outside",
            |c, _| {
                let me = c.dir().join(".sync/instances/me");
                std::fs::create_dir_all(&me).unwrap();
                symlink(c.root.join("outside/victim"), me.join("index")).unwrap();
            },
            2,
            "a symbolic link: not followed",
        ),
    ];
    for (what, setup, code, said) in cases {
        let case = Case::new();
        setup(&case, &outside_name);
        let before = case.outside();
        let (r, took) = case.run(&lib, "2s");
        assert_eq!(r.code, code, "{what}: {}\n{}", r.out(), r.stderr);
        assert!(
            took < Duration::from_secs(15),
            "{what}: took {took:?} for -fuzztime 2s"
        );
        assert!(r.stderr.contains(said), "{what}: {}", r.stderr);
        assert_eq!(case.outside(), before, "{what}: outside/ changed");
        assert!(
            !case.holds_outside(),
            "{what}: the outside entry was taken in"
        );
        assert!(
            !r.out().contains("--- FAIL"),
            "{what}: the entry outside was run: {}",
            r.out()
        );
        if code == 2 {
            assert_eq!(r.stderr.lines().count(), 1, "{what}: {}", r.stderr);
            assert!(r.stderr.contains("outside") || r.stderr.contains("index"));
        } else {
            // The instance did its work: it published what it found.
            let published = case.published();
            if what.contains("directory linked") {
                assert!(
                    std::fs::read_dir(case.root.join("outside/tdir"))
                        .unwrap()
                        .next()
                        .is_none(),
                    "{what}: written through the link"
                );
            } else {
                assert!(
                    published.iter().any(|n| n != &outside_name),
                    "{what}: published nothing: {}",
                    r.stderr
                );
            }
        }
    }
}

#[test]
fn fuzz_corpus_status_shows_a_broken_status_beside_the_others() {
    let lib_dir = tempdir();
    let lib = bait(lib_dir.path());
    let case = Case::new();
    let (r, _) = case.run(&lib, "1s");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let instances = case.dir().join(".sync/instances");
    for (id, write) in [("empty", Some("")), ("braces", Some("{}")), ("fifo", None)] {
        std::fs::create_dir_all(instances.join(id)).unwrap();
        match write {
            Some(text) => std::fs::write(instances.join(id).join("status"), text).unwrap(),
            None => nix::unistd::mkfifo(
                &instances.join(id).join("status"),
                nix::sys::stat::Mode::from_bits_truncate(0o666),
            )
            .unwrap(),
        }
    }
    let dir = case.dir();
    let start = Instant::now();
    let r = run_in(
        case.root.as_path(),
        "fuzz-corpus",
        &["status", dir.to_str().unwrap()],
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let line = |id: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("no line for {id}: {out}"))
            .to_string()
    };
    assert!(line("me").contains(" done "), "{out}");
    assert!(line("empty").contains("broken") && line("empty").contains("not a status file"));
    assert!(line("braces").contains("broken"), "{out}");
    assert!(line("fifo").contains("a FIFO"), "{out}");
    // The peer directory of Case::new has no status at all.
    assert!(line("peer").contains("no status written yet"), "{out}");
    assert!(
        out.contains("total: 5 instances (0 running, 4 without a readable status)"),
        "{out}"
    );
    let r = run_in(
        case.root.as_path(),
        "fuzz-corpus",
        &["status", "-json", dir.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let events: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 6, "{out}");
    assert_eq!(
        events.iter().filter(|e| e["state"] == "broken").count(),
        4,
        "{out}"
    );
    // A resumed instance adds to its executions; ages come from the file.
    let execs = |r: &Run| -> u64 {
        r.out()
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|e| e["id"] == "me")
            .and_then(|e| e["execs"].as_u64())
            .unwrap()
    };
    let first = execs(&r);
    assert!(first > 0, "{}", r.out());
    let (again, _) = case.run(&lib, "1s");
    assert_eq!(again.code, 0, "{}", again.stderr);
    let r = run_in(
        case.root.as_path(),
        "fuzz-corpus",
        &["status", "-json", dir.to_str().unwrap()],
    );
    assert!(execs(&r) > first, "{} then {}", first, r.out());
}

/// Runs `script` (shell, in `dir`) in a mount namespace of its own, where
/// it may mount a tmpfs that goes with the namespace. Every process it
/// starts carries `FUZZ_TEST_MARK=<dir>`.
fn in_a_mount_namespace(dir: &Path, script: &str) -> Run {
    require_tool("unshare");
    require_tool("mount");
    let mut c = Command::new("unshare");
    c.args(["-m", "--propagation", "private", "sh", "-c", script])
        .current_dir(dir)
        .env("FUZZ_TEST_MARK", dir);
    run_command(c)
}

#[test]
fn a_crash_found_while_the_directory_is_full_is_recorded_by_the_next_instance() {
    let misbehave = example_lib("libmisbehave.so");
    let d = tempdir();
    let seeds = d.path().join("testdata/fuzz/FuzzSegv");
    std::fs::create_dir_all(&seeds).unwrap();
    std::fs::write(seeds.join("seed"), v1("segu")).unwrap();
    let run = |id: &str| {
        format!(
            "{} -fuzzcachedir cache-{id} -fuzz '^FuzzSegv$' -fuzztime 30s -parallel 1 \
             -sync shared -sync_id {id} -sync_interval 1s {misbehave} > {id}.out 2> {id}.err \
             && echo 0 > {id}.rc || echo $? > {id}.rc",
            bin("fuzz-run").display()
        )
    };
    // Instance a finds the crash with the directory's file system full;
    // then space comes back, and instance b (its own testdata: a's
    // crasher there is removed) finds it again.
    let script = format!(
        "set -e; mkdir shared; mount -t tmpfs -o size=256k tmpfs shared; \
         cat /dev/zero > shared/.fill 2>/dev/null || true; {}; \
         find testdata/fuzz/FuzzSegv -type f ! -name seed -delete; rm shared/.fill; {}; \
         cp -a shared after",
        run("a"),
        run("b")
    );
    let r = in_a_mount_namespace(d.path(), &script);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Neither run left a process or an unfinished write (in the shared
    // directory, copied to after/ before it went, or anywhere else).
    let left = marked_processes(&format!("FUZZ_TEST_MARK={}", d.path().display()));
    assert!(left.is_empty(), "processes left running: {left:?}");
    no_unfinished_writes(d.path());
    let read = |f: &str| std::fs::read_to_string(d.path().join(f)).unwrap();
    assert_eq!(read("a.rc").trim(), "1", "{}", read("a.err"));
    assert!(
        read("a.err").contains("the crasher of FuzzSegv could not be written for the fleet")
            && read("a.err").contains("No space left on device"),
        "a's loss is said: {}",
        read("a.err")
    );
    assert_eq!(read("b.rc").trim(), "1", "{}", read("b.err"));
    assert!(
        !read("b.err").contains("found it first"),
        "{}",
        read("b.err")
    );
    let crashers: Vec<_> = std::fs::read_dir(d.path().join("after/crashers/FuzzSegv"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(crashers, [v1("segv")], "the fleet has the crasher");
    let sites = std::fs::read_dir(d.path().join("after/.sync/sites/FuzzSegv"))
        .unwrap()
        .count();
    assert_eq!(sites, 1);
}

/// Two instances on one machine, no scheduler: what the first publishes
/// while fuzzing, the second imports (and keeps in its own cache where it
/// adds coverage there), and does not publish again. The control is the
/// same second run without -sync.
#[test]
fn one_instance_imports_what_another_published() {
    let lib = example_lib("libc_parse_gcc_fixed.so");
    let d = tempdir();
    let shared = d.path().join("shared");
    let shared_arg = shared.to_str().unwrap().to_string();
    let fuzz = |name: &str, time: &str, sync: bool| -> Vec<String> {
        let dir = d.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let cache = dir.join("cache").display().to_string();
        let mut args = vec![
            "-fuzz",
            "c_parse",
            "-fuzztime",
            time,
            "-parallel",
            "1",
            "-seed",
            "7",
            "-fuzzcachedir",
            &cache,
        ];
        if sync {
            args.extend([
                "-sync",
                &shared_arg,
                "-sync_id",
                name,
                "-sync_interval",
                "1s",
            ]);
        }
        args.push(&lib);
        run_in(&dir, "fuzz-run", &args).expect(0);
        (walkdir(&dir.join("cache")).into_iter())
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect()
    };
    let index = |id: &str| {
        std::fs::read_to_string(shared.join(".sync/instances").join(id).join("index"))
            .unwrap_or_default()
    };
    fuzz("a", "3s", true);
    let published: Vec<String> = index("a")
        .lines()
        .map(|l| l.split_once('\t').expect("a whole line").1.to_string())
        .collect();
    assert!(published.len() > 5, "a published {published:?}");
    let of_a = |cached: &[String]| -> Vec<String> {
        (published.iter())
            .filter(|n| cached.contains(n))
            .cloned()
            .collect()
    };
    // The same few executions of b's own, with and without a's entries.
    let alone = of_a(&fuzz("control", "300x", false));
    let imported = of_a(&fuzz("b", "300x", true));
    eprintln!(
        "of a's {} entries, b holds {} with -sync and {} without",
        published.len(),
        imported.len(),
        alone.len()
    );
    assert!(
        imported.len() >= alone.len() + 3,
        "b holds {} of a's entries with -sync, {} without: {imported:?}",
        imported.len(),
        alone.len()
    );
    let b_index = index("b");
    let again: Vec<&str> = (b_index.lines())
        .filter_map(|l| l.split_once('\t').map(|(_, n)| n))
        .filter(|n| imported.iter().any(|i| i == n))
        .collect();
    assert!(again.is_empty(), "published again: {again:?}");
}

/// Every regular file below `top`.
fn walkdir(top: &Path) -> Vec<PathBuf> {
    walk(top).into_iter().filter(|p| p.is_file()).collect()
}
