//! fuzz-build for Rust crates and C/C++ files: each built from a scratch
//! copy, fuzzed by fuzz-run to its planted bug, rebuilt when a source (or
//! a header) changes and only then; the fast build of a -cmp_lib pair
//! without comparison tracing; gcc where clang is missing, said so; what
//! it cannot build refused in one line, changing nothing; a fuzz-build
//! killed mid-build takes its compiler with it, and the next build sweeps
//! up what it left.

use crate::common::*;
use object::{Object, ObjectSymbol};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A scratch directory with the tools' caches in it.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch { dir: tempdir() }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn command(&self, tool: &str, args: &[&str]) -> Command {
        let mut c = Command::new(bin(tool));
        c.args(args)
            .current_dir(self.path())
            .env("FUZZ_BUILD_CACHE", self.path().join("build"))
            .env("FUZZCACHE", self.path().join("fuzzcache"))
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR");
        c
    }

    fn tool(&self, tool: &str, args: &[&str]) -> Run {
        run_command(self.command(tool, args))
    }

    /// examples/rust-bytes copied to `crate/`, its fuzz-target dependency
    /// pointed at this repository's.
    fn rust_crate(&self) -> PathBuf {
        let to = self.path().join("crate");
        std::fs::create_dir_all(to.join("src")).unwrap();
        let from = root().join("examples/rust-bytes");
        let manifest = std::fs::read_to_string(from.join("Cargo.toml")).unwrap();
        let fuzz_target = root().join("fuzz-target");
        let manifest = manifest.replace(
            "path = \"../../fuzz-target\"",
            &format!("path = {:?}", fuzz_target.to_str().unwrap()),
        );
        assert!(manifest.contains(fuzz_target.to_str().unwrap()));
        std::fs::write(to.join("Cargo.toml"), manifest).unwrap();
        std::fs::copy(from.join("src/lib.rs"), to.join("src/lib.rs")).unwrap();
        to
    }
}

/// The undefined and the defined symbols of a library, by name.
fn symbols(lib: &str) -> (Vec<String>, Vec<String>) {
    let bytes = std::fs::read(lib).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let (mut undefined, mut defined) = (Vec::new(), Vec::new());
    for s in file.dynamic_symbols() {
        let name = s.name().unwrap_or("").to_string();
        if s.is_undefined() {
            undefined.push(name);
        } else {
            defined.push(name);
        }
    }
    (undefined, defined)
}

fn traces_comparisons(lib: &str) -> bool {
    symbols(lib)
        .0
        .iter()
        .any(|s| s.starts_with("__sanitizer_cov_trace_") && s.contains("cmp"))
}

fn modified(path: &str) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

#[test]
fn a_rust_crate_is_built_fuzzed_to_its_bug_and_rebuilt_only_on_change() {
    require_tool("cargo");
    let s = Scratch::new();
    let krate = s.rust_crate();
    let before = snapshot(&krate);

    let first = s.tool("fuzz-build", &["crate"]).expect(0);
    let lib = first.out().trim().to_string();
    assert!(
        first.stderr.contains("fuzz-build: built rust-bytes"),
        "{}",
        first.stderr
    );
    assert!(lib.ends_with("/librust_bytes.so"), "{lib}");
    assert!(
        traces_comparisons(&lib),
        "the full build traces comparisons"
    );
    // cargo's target directory is in the cache: the crate is as it was,
    // but for the Cargo.lock cargo writes where there is none.
    let mut after = snapshot(&krate);
    after.retain(|(p, _)| p != Path::new("Cargo.lock"));
    assert!(after == before, "fuzz-build changed the crate's files");
    let list = s.tool("fuzz-worker", &["list", &lib]).expect(0);
    assert_eq!(list.out(), "rust_bytes\t[]byte\n");

    // Nothing changed: the same library, untouched, and nothing said.
    let when = modified(&lib);
    let again = s.tool("fuzz-build", &["crate"]).expect(0);
    assert_eq!(again.out().trim(), lib);
    assert!(again.stderr.is_empty(), "{}", again.stderr);
    assert_eq!(
        modified(&lib),
        when,
        "an unchanged crate's library was rewritten"
    );

    // A changed source: rebuilt, at the same path.
    let source = krate.join("src/lib.rs");
    let mut text = std::fs::read_to_string(&source).unwrap();
    text.push_str("\n#[no_mangle]\npub extern \"C\" fn fuzz_build_changed() -> u32 {\n    7\n}\n");
    std::fs::write(&source, text).unwrap();
    let third = s.tool("fuzz-build", &["crate"]).expect(0);
    assert_eq!(third.out().trim(), lib);
    assert!(
        third.stderr.contains("built rust-bytes"),
        "{}",
        third.stderr
    );
    assert!(symbols(&lib).1.contains(&"fuzz_build_changed".to_string()));

    // The flags are the ones examples/rustflags.sh prints for the fixtures.
    let verbose = s.tool("fuzz-build", &["-v", "crate"]).expect(0);
    let script = Command::new("sh")
        .arg(root().join("examples/rustflags.sh"))
        .output()
        .unwrap();
    let want = format!(
        "fuzz-build: RUSTFLAGS={}",
        String::from_utf8_lossy(&script.stdout)
    );
    assert!(verbose.stderr.contains(&want), "{want}\n{}", verbose.stderr);

    // The fast build: another library, without comparison tracing.
    let fast = s.tool("fuzz-build", &["-fast", "crate"]).expect(0);
    let fast = fast.out().trim().to_string();
    assert_ne!(fast, lib);
    assert!(!traces_comparisons(&fast), "-fast still traces comparisons");

    // fuzz-run takes the crate's directory as it takes a Go package's, and
    // finds the planted bug; the crasher goes under the crate's testdata.
    let run = s
        .tool(
            "fuzz-run",
            &["-fuzz", ".", "-fuzztime", "60s", "-parallel", "1", "crate"],
        )
        .expect(1);
    assert!(
        run.out().contains("panicked at src/lib.rs"),
        "{}",
        run.out()
    );
    let crashers = std::fs::read_dir(krate.join("testdata/fuzz/rust_bytes")).unwrap();
    assert_eq!(crashers.count(), 1);
    // And the -cmp_lib pair, the fast build run with the full one beside.
    let pair = s
        .tool(
            "fuzz-run",
            &[
                "-fuzz",
                ".",
                "-fuzztime",
                "60s",
                "-parallel",
                "1",
                &fast,
                "-cmp_lib",
                &lib,
            ],
        )
        .expect(1);
    assert!(
        pair.out().contains("panicked at src/lib.rs"),
        "{}",
        pair.out()
    );
}

/// A C file whose planted bug needs its header's magic value, so that a
/// changed header is a changed library.
const PARSE_C: &str = r#"#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include "magic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 3 && data[0] == MAGIC0 && data[1] == 'U' && data[2] == 'Z')
        abort();
    return 0;
}
"#;

#[test]
fn c_files_are_built_fuzzed_to_their_bug_and_rebuilt_when_a_header_changes() {
    require_tool("clang-19");
    let s = Scratch::new();
    let src = s.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("parse.c"), PARSE_C).unwrap();
    std::fs::write(src.join("magic.h"), "#define MAGIC0 'F'\n").unwrap();

    let first = s.tool("fuzz-build", &["src/parse.c"]).expect(0);
    let lib = first.out().trim().to_string();
    assert!(
        first
            .stderr
            .contains("fuzz-build: building libparse.so from src/parse.c with clang"),
        "{}",
        first.stderr
    );
    assert!(traces_comparisons(&lib));
    let bytes = std::fs::read(&lib).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    assert!(
        file.section_by_name("__sancov_pcs").is_some(),
        "clang's build has a PC table"
    );

    // The instrumentation is the one examples/build.sh gives the fixtures.
    let script = std::fs::read_to_string(root().join("examples/build.sh")).unwrap();
    let clang_cov = script
        .lines()
        .find_map(|l| l.strip_prefix("CLANG_COV=("))
        .and_then(|l| l.strip_suffix(')'))
        .unwrap();
    let verbose = s
        .tool("fuzz-build", &["-v", "src/parse.c", "-cflags=-DV"])
        .expect(0);
    assert!(
        verbose.stderr.contains(clang_cov),
        "{clang_cov}\n{}",
        verbose.stderr
    );
    s.tool("fuzz-build", &["src/parse.c"]).expect(0);

    let when = modified(&lib);
    let again = s.tool("fuzz-build", &["src/parse.c"]).expect(0);
    assert_eq!(again.out().trim(), lib);
    assert!(again.stderr.is_empty(), "{}", again.stderr);
    assert_eq!(modified(&lib), when);

    // The header changed: rebuilt, and the bug moved with it.
    std::fs::write(src.join("magic.h"), "#define MAGIC0 'G'\n").unwrap();
    let third = s.tool("fuzz-build", &["src/parse.c"]).expect(0);
    assert_eq!(third.out().trim(), lib);
    assert!(
        third.stderr.contains("building libparse.so"),
        "{}",
        third.stderr
    );

    let run = s
        .tool(
            "fuzz-run",
            &["-fuzz", ".", "-fuzztime", "60s", "-parallel", "1", &lib],
        )
        .expect(1);
    let crashers: Vec<_> = std::fs::read_dir(s.path().join("testdata/fuzz/parse"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(crashers.len(), 1, "{}", run.stderr);
    assert!(crashers[0].contains("[]byte(\"GUZ"), "{}", crashers[0]);

    // -cflags reach the compiler; -fast leaves out comparison tracing.
    let flagged = s
        .tool(
            "fuzz-build",
            &["-fast", "src/parse.c", "-cflags", "-DMAGIC0_UNUSED -O2"],
        )
        .expect(0);
    let fast = flagged.out().trim().to_string();
    assert_ne!(fast, lib);
    assert!(!traces_comparisons(&fast));
    let verbose = s
        .tool(
            "fuzz-build",
            &["-v", "-fast", "src/parse.c", "-cflags", "-DOTHER"],
        )
        .expect(0);
    assert!(verbose.stderr.contains("-DOTHER"), "{}", verbose.stderr);
}

/// The scratch directories fuzz-build left in its cache.
fn build_scratch(cache: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(cache)
        .into_iter()
        .flatten()
        .filter(|e| {
            e.file_type().is_dir() && e.file_name().to_string_lossy().starts_with(".build-")
        })
        .map(|e| e.into_path())
        .collect()
}

#[test]
fn a_fuzz_build_killed_mid_build_leaves_no_compiler_running_and_the_next_build_sweeps_up() {
    let clang = require_tool("clang-19");
    let s = Scratch::new();
    let src = s.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("parse.c"), PARSE_C).unwrap();
    std::fs::write(src.join("magic.h"), "#define MAGIC0 'F'\n").unwrap();
    let sources = snapshot(&src);
    // A clang-19 first on PATH that says the real one's version, then,
    // asked to compile, writes its pid and sleeps: a build that is under
    // way when the test kills fuzz-build.
    let shims = s.path().join("shims");
    std::fs::create_dir_all(&shims).unwrap();
    let started = s.path().join("started");
    let shim = shims.join("clang-19");
    std::fs::write(
        &shim,
        format!(
            "#!/bin/sh\ncase \"$1\" in --version) exec {} --version ;; esac\n\
             echo $$ >{}.part && mv {}.part {}\nexec sleep 60\n",
            clang.display(),
            started.display(),
            started.display(),
            started.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    let marker = format!("FUZZ_BUILD_KILLED={}", std::process::id());
    let mut c = s.command("fuzz-build", &["src/parse.c"]);
    c.env(
        "PATH",
        format!("{}:{}", shims.display(), std::env::var("PATH").unwrap()),
    )
    .env("FUZZ_BUILD_KILLED", std::process::id().to_string())
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null());
    let mut child = c.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !started.exists() {
        assert!(Instant::now() < deadline, "the compiler never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let compiler = std::fs::read_to_string(&started).unwrap();
    // SAFETY: killing the fuzz-build this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGKILL) };
    child.wait().unwrap();

    // The compiler dies with it.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !marked_processes(&marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        marked_processes(&marker),
        Vec::<String>::new(),
        "the compiler (pid {}) outlived fuzz-build",
        compiler.trim()
    );
    // What it was building is still in the cache...
    let cache = s.path().join("build");
    assert_eq!(build_scratch(&cache).len(), 1, "{:?}", snapshot(&cache));
    // ...until the next build, with the real compiler, which builds.
    let lib = s
        .tool("fuzz-build", &["src/parse.c"])
        .expect(0)
        .out()
        .trim()
        .to_string();
    assert!(Path::new(&lib).is_file(), "{lib}");
    assert_eq!(build_scratch(&cache), Vec::<PathBuf>::new());
    no_unfinished_writes(&cache);
    assert!(snapshot(&src) == sources, "the sources changed");
}

#[test]
fn cxx_files_link_as_cxx_and_gcc_stands_in_for_a_missing_clang() {
    let gcc = require_tool("gcc");
    let gxx = require_tool("g++");
    let s = Scratch::new();
    std::fs::write(
        s.path().join("a.cc"),
        "#include <string>\n#include <cstdint>\n#include <cstdlib>\n\
         extern \"C\" int check(const std::string &s);\n\
         extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n\
             return check(std::string((const char *)d, n));\n}\n",
    )
    .unwrap();
    std::fs::write(
        s.path().join("b.cc"),
        "#include <string>\n#include <cstdlib>\n#include <stdexcept>\n\
         extern \"C\" int check(const std::string &s) {\n\
             if (s.size() > 2 && s[0] == 'C' && s[1] == 'X' && s[2] == 'X') abort();\n\
             if (s.size() > 9999) throw std::runtime_error(\"long\");\n\
             return 0;\n}\n",
    )
    .unwrap();
    // A PATH with gcc and g++ but no clang.
    let shims = s.path().join("shims");
    std::fs::create_dir_all(&shims).unwrap();
    for (name, real) in [("gcc", &gcc), ("g++", &gxx)] {
        std::os::unix::fs::symlink(real, shims.join(name)).unwrap();
    }
    for tool in ["as", "ld"] {
        std::os::unix::fs::symlink(require_tool(tool), shims.join(tool)).unwrap();
    }
    let mut c = s.command("fuzz-build", &["-v", "a.cc", "b.cc"]);
    c.env("PATH", &shims);
    let built = run_command(c).expect(0);
    assert!(
        built.stderr.contains("note: no clang-19 or clang"),
        "{}",
        built.stderr
    );
    assert!(built.stderr.contains("with gcc"), "{}", built.stderr);
    let lib = built.out().trim().to_string();
    assert!(lib.ends_with("/liba.so"), "{lib}");
    let gcc_cov = std::fs::read_to_string(root().join("examples/build.sh"))
        .unwrap()
        .lines()
        .find_map(|l| {
            l.strip_prefix("GCC_COV=(")
                .and_then(|l| l.strip_suffix(')'))
        })
        .map(str::to_string)
        .unwrap();
    assert!(
        built.stderr.contains(&gcc_cov),
        "{gcc_cov}\n{}",
        built.stderr
    );
    let undefined = symbols(&lib).0;
    assert!(
        undefined.contains(&"__sanitizer_cov_trace_pc".to_string()),
        "{undefined:?}"
    );
    let dynamic = Command::new(require_tool("readelf"))
        .args(["-d", &lib])
        .output()
        .unwrap();
    let dynamic = String::from_utf8_lossy(&dynamic.stdout);
    assert!(
        dynamic.contains("libstdc++"),
        "not linked as C++:\n{dynamic}"
    );

    let run = s
        .tool(
            "fuzz-run",
            &["-fuzz", ".", "-fuzztime", "60s", "-parallel", "1", &lib],
        )
        .expect(1);
    assert!(run.out().contains("SIGABRT"), "{}", run.out());
}

#[test]
fn what_fuzz_build_cannot_build_is_refused_in_one_line_changing_nothing() {
    let s = Scratch::new();
    let krate = s.rust_crate();
    std::fs::write(s.path().join("a.c"), "int x;\n").unwrap();
    std::fs::create_dir_all(s.path().join("empty")).unwrap();
    let before = snapshot(s.path());
    for (args, needle) in [
        (&["a.c", "crate"][..], "crate: not a C or C++ file"),
        (
            &["-cflags", "-DX", "crate"][..],
            "-cflags: crate is not a C or C++ file",
        ),
        (&["-fast", "empty"][..], "empty: neither a Rust crate"),
        (
            &["empty"][..],
            "empty: neither a Rust crate (no Cargo.toml) nor a Go package",
        ),
        (&["a.h"][..], "a.h: no such file or directory"),
        (&["a.c/"][..], "a.c/"),
        (&["-o", "-", "a.c"][..], "-o -"),
    ] {
        let r = s.tool("fuzz-build", args).expect(2);
        r.one_line_error("fuzz-build", needle);
    }
    assert_eq!(
        snapshot(s.path()),
        before,
        "a refused build wrote something"
    );

    // A crate without a library, and a workspace without a package.
    std::fs::remove_file(krate.join("src/lib.rs")).unwrap();
    std::fs::write(krate.join("src/main.rs"), "fn main() {}\n").unwrap();
    let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap();
    let without_lib = manifest.split("[lib]").next().unwrap().to_string() + "[dependencies]\n";
    std::fs::write(krate.join("Cargo.toml"), without_lib).unwrap();
    let r = s.tool("fuzz-build", &["crate"]).expect(2);
    r.one_line_error("fuzz-build", "has no library");
    std::fs::write(krate.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    let r = s.tool("fuzz-build", &["crate"]).expect(2);
    r.one_line_error("fuzz-build", "a workspace, not a crate");
}
