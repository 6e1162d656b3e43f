//! A Go package's fuzz tests, built into a library fuzz-worker runs (its
//! side is fuzz-worker/src/golib.rs).
//!
//! What is built is go test's own test binary (`go test -c`), as a shared
//! library (`-buildmode=c-shared`), instrumented as `go test -fuzz`
//! instruments it. Three things are added with `go build -overlay`, so that
//! nothing on disk changes:
//!
//! - `go/fuzzbuild.go` and `go/trace.go` into Go's internal/fuzz (which
//!   go test leaves uninstrumented): the harness that runs a fuzz test with
//!   testing's own machinery, and comparison hooks that note operands;
//! - `go/harness.go` into the package: the C functions fuzz-worker calls;
//! - a `_test.go` file in the package (and one in its external test
//!   package) that registers its fuzz tests and TestMain with the harness.
//!
//! The harness uses testing's internals (`testing.MainStart`'s testDeps),
//! which change between Go releases: only the release it was written and
//! tested against is accepted.

use crate::cache::{self, Key};
use fuzz_cli::CliError;
use regex::Regex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The Go releases the harness is known to work with (see the module doc).
const SUPPORTED: &str = "go1.19";

/// The harness's files: into internal/fuzz, and into the package.
const FUZZBUILD_GO: &str = include_str!("go/fuzzbuild.go");
const TRACE_GO: &str = include_str!("go/trace.go");
const HARNESS_GO: &str = include_str!("go/harness.go");

/// The packages `go test -fuzz` leaves uninstrumented (cmd/go's
/// skipInstrumentation, Go 1.19).
const UNINSTRUMENTED: [&str; 9] = [
    "context",
    "internal/fuzz",
    "reflect",
    "runtime",
    "sync",
    "sync/atomic",
    "syscall",
    "testing",
    "time",
];

/// What `go env -json` says, of what matters here.
#[derive(Deserialize, Default)]
#[serde(rename_all = "UPPERCASE")]
struct GoEnv {
    goversion: String,
    goroot: String,
    gomod: String,
    goos: String,
    goarch: String,
    cc: String,
    goflags: String,
    cgo_cflags: String,
    cgo_ldflags: String,
}

/// One package of `go list -deps -test -json`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
#[serde(default)]
struct Listed {
    import_path: String,
    name: String,
    dir: String,
    standard: bool,
    for_test: String,
    module: Option<Module>,
    error: Option<ListError>,
    go_files: Vec<String>,
    cgo_files: Vec<String>,
    c_files: Vec<String>,
    h_files: Vec<String>,
    s_files: Vec<String>,
    syso_files: Vec<String>,
    embed_files: Vec<String>,
    test_go_files: Vec<String>,
    x_test_go_files: Vec<String>,
    test_embed_files: Vec<String>,
    x_test_embed_files: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
#[serde(default)]
struct Module {
    path: String,
    dir: String,
    main: bool,
    go_mod: String,
    replace: Option<Box<Module>>,
    version: String,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "PascalCase")]
#[serde(default)]
struct ListError {
    err: String,
}

/// The fuzz tests found in a package's test files.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tests {
    /// In the package itself, and in its external test package.
    internal: Vec<String>,
    external: Vec<String>,
    /// Where TestMain is, if anywhere.
    main: Option<Side>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Internal,
    External,
}

/// Builds the package in `dir` into a library in the cache `root` (unless
/// it is there already, built from the same content) and returns its path.
pub fn build(dir: &Path, root: &Path, verbose: bool) -> Result<PathBuf, CliError> {
    let shown = fuzz_cli::io::display(dir);
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| CliError::misuse(format!("{shown}: {}", fuzz_core::error::describe(&e))))?;
    if !dir.is_dir() {
        return Err(CliError::misuse(format!(
            "{shown}: not a directory (fuzz-build takes a Go package's directory)"
        )));
    }
    let env = go_env(&dir, verbose)?;
    if env.goversion != SUPPORTED && !env.goversion.starts_with(&format!("{SUPPORTED}.")) {
        return Err(CliError::misuse(format!(
            "{} is not supported: fuzz-build supports Go 1.19 (its harness uses testing's \
             internals, which change between releases); put Go 1.19's go first on PATH",
            env.goversion
        )));
    }
    if env.gomod.is_empty() || env.gomod == "/dev/null" {
        return Err(CliError::misuse(format!(
            "{shown}: not in a Go module (no go.mod at or above it; run go mod init)"
        )));
    }
    let packages = go_list(&dir, verbose)?;
    let pkg = packages
        .iter()
        .find(|p| {
            p.for_test.is_empty() && Path::new(&p.dir) == dir && !p.import_path.ends_with(".test")
        })
        .ok_or_else(|| CliError::misuse(format!("{shown}: go list does not show this package")))?;
    if let Some(e) = &pkg.error {
        return Err(CliError::misuse(format!("{shown}: {}", first_line(&e.err))));
    }
    let tests = find_tests(&dir, pkg)?;
    if tests.internal.is_empty() && tests.external.is_empty() {
        return Err(CliError::misuse(format!(
            "{shown}: no fuzz tests (func FuzzXxx(f *testing.F) in the package's _test.go files)"
        )));
    }
    let key = key(&env, &packages, &pkg.import_path)?;
    let entry = cache::Entry::open(
        root,
        dir.as_os_str().as_encoded_bytes(),
        &library_name(&pkg.import_path),
    )?;
    if entry.is_built(&key) {
        return Ok(entry.library());
    }
    let names: Vec<&str> = tests
        .internal
        .iter()
        .chain(&tests.external)
        .map(String::as_str)
        .collect();
    eprintln!(
        "fuzz-build: building {} ({}) with {}",
        pkg.import_path,
        names.join(", "),
        env.goversion
    );
    let scratch = entry.scratch()?;
    let overlay = write_overlay(scratch.path(), &dir, &env, pkg, &tests)?;
    let built = scratch.path().join("lib.so");
    compile(&dir, &overlay, &built, verbose, &shown)?;
    entry.install(&built, &key)?;
    Ok(entry.library())
}

/// The library's name: the last element of the import path, kept to the
/// characters a file name takes everywhere.
fn library_name(import_path: &str) -> String {
    let last = import_path.rsplit('/').next().unwrap_or(import_path);
    cache::library_name(last, "pkg")
}

fn first_line(s: &str) -> &str {
    s.trim().lines().next().unwrap_or("")
}

/// Runs go with `args` in `dir`; go's own failure is misuse, its output
/// shown.
fn go(dir: &Path, args: &[&str], verbose: bool) -> Result<Output, CliError> {
    let mut cmd = Command::new("go");
    cmd.args(args).current_dir(dir).env("CGO_ENABLED", "1");
    crate::command::run(
        &mut cmd,
        verbose,
        "install Go 1.19: apt-get install golang-1.19-go, or put its bin directory on PATH",
    )
}

fn go_env(dir: &Path, verbose: bool) -> Result<GoEnv, CliError> {
    let out = go(
        dir,
        &[
            "env",
            "-json",
            "GOVERSION",
            "GOROOT",
            "GOMOD",
            "GOOS",
            "GOARCH",
            "CC",
            "GOFLAGS",
            "CGO_CFLAGS",
            "CGO_LDFLAGS",
        ],
        verbose,
    )?;
    if !out.status.success() {
        return Err(CliError::misuse(format!(
            "go env failed: {}",
            first_line(&String::from_utf8_lossy(&out.stderr))
        )));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| CliError::misuse(format!("unexpected output from go env -json: {e}")))
}

/// The package and everything its tests import, as `go list -deps -test`
/// shows them.
fn go_list(dir: &Path, verbose: bool) -> Result<Vec<Listed>, CliError> {
    let fields = "ImportPath,Name,Dir,Standard,ForTest,Module,Error,GoFiles,CgoFiles,CFiles,\
                  HFiles,SFiles,SysoFiles,EmbedFiles,TestGoFiles,XTestGoFiles,TestEmbedFiles,\
                  XTestEmbedFiles";
    let json = format!("-json={fields}");
    let out = go(dir, &["list", "-e", "-deps", "-test", &json, "."], verbose)?;
    if !out.status.success() {
        return Err(CliError::misuse(format!(
            "{}: {}",
            dir.display(),
            first_line(&String::from_utf8_lossy(&out.stderr))
        )));
    }
    serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter::<Listed>()
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::misuse(format!("unexpected output from go list -json: {e}")))
}

/// Finds the fuzz tests and TestMain in the package's test files: a
/// `func FuzzXxx(f *testing.F)` at the start of a line, with testing
/// imported under its name, another name, or with a dot.
fn find_tests(dir: &Path, pkg: &Listed) -> Result<Tests, CliError> {
    let mut tests = Tests::default();
    for (files, side) in [
        (&pkg.test_go_files, Side::Internal),
        (&pkg.x_test_go_files, Side::External),
    ] {
        for file in files {
            let path = dir.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| CliError::io(&path, &e))?;
            let (fuzz, main) = scan_test_file(&text);
            let list = match side {
                Side::Internal => &mut tests.internal,
                Side::External => &mut tests.external,
            };
            list.extend(fuzz);
            if main {
                tests.main = Some(side);
            }
        }
    }
    Ok(tests)
}

/// The fuzz tests a test file defines, and whether it defines TestMain.
fn scan_test_file(text: &str) -> (Vec<String>, bool) {
    // How the file calls package testing: `testing.`, `alias.`, or nothing
    // (a dot import).
    let import = Regex::new(r#"(?m)^\s*(?:import\s+)?(\.|[A-Za-z_]\w*)?\s*"testing"\s*$"#)
        .expect("a valid pattern");
    let mut prefixes: Vec<String> = vec!["testing".into()];
    for c in import.captures_iter(text) {
        match c.get(1).map(|m| m.as_str()) {
            Some(".") => prefixes.push(String::new()),
            Some(alias) if alias != "import" => prefixes.push(alias.to_string()),
            _ => {}
        }
    }
    let alternatives: Vec<String> = prefixes
        .iter()
        .map(|p| {
            if p.is_empty() {
                String::new()
            } else {
                format!("{}\\s*\\.\\s*", regex::escape(p))
            }
        })
        .collect();
    let qual = format!("(?:{})", alternatives.join("|"));
    let fuzz = Regex::new(&format!(
        r"(?m)^func\s+(Fuzz[^\s(]*)\s*\(\s*\w+\s+\*\s*{qual}F\s*\)"
    ))
    .expect("a valid pattern");
    let main = Regex::new(&format!(
        r"(?m)^func\s+TestMain\s*\(\s*\w+\s+\*\s*{qual}M\s*\)"
    ))
    .expect("a valid pattern");
    let names = fuzz
        .captures_iter(text)
        .map(|c| c[1].to_string())
        // Go's rule (testing's isTest): Fuzz, then nothing or a character
        // that is not a lower-case letter.
        .filter(|n| !n[4..].starts_with(|c: char| c.is_lowercase()))
        .collect();
    (names, main.is_match(text))
}

/// What the library is built from: the Go release and environment, the
/// harness, and every file of the packages of the main module (or of a
/// module replaced by a directory) that the tests import; other modules
/// are fixed by go.sum.
fn key(env: &GoEnv, packages: &[Listed], import_path: &str) -> Result<Key, CliError> {
    let mut key = Key::default();
    for part in [
        env!("CARGO_PKG_VERSION"),
        &env.goversion,
        &env.goroot,
        &env.goos,
        &env.goarch,
        &env.cc,
        &env.goflags,
        &env.cgo_cflags,
        &env.cgo_ldflags,
        import_path,
        FUZZBUILD_GO,
        TRACE_GO,
        HARNESS_GO,
    ] {
        key.add(part.as_bytes());
    }
    let mut files: BTreeMap<PathBuf, ()> = BTreeMap::new();
    files.insert(PathBuf::from(&env.gomod), ());
    files.insert(Path::new(&env.gomod).with_file_name("go.sum"), ());
    for p in packages {
        let local = p
            .module
            .as_ref()
            .is_some_and(|m| m.main || m.replace.as_ref().is_some_and(|r| r.version.is_empty()));
        if p.standard || !local {
            continue;
        }
        if let Some(m) = &p.module {
            files.insert(PathBuf::from(&m.go_mod), ());
        }
        let dir = Path::new(&p.dir);
        for f in [
            &p.go_files,
            &p.cgo_files,
            &p.c_files,
            &p.h_files,
            &p.s_files,
            &p.syso_files,
            &p.embed_files,
            &p.test_go_files,
            &p.x_test_go_files,
            &p.test_embed_files,
            &p.x_test_embed_files,
        ]
        .into_iter()
        .flatten()
        {
            files.insert(dir.join(f), ());
        }
    }
    for path in files.keys() {
        key.add(path.as_os_str().as_encoded_bytes());
        match std::fs::read(path) {
            Ok(bytes) => key.add(&bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => key.add(b"(none)"),
            Err(e) => return Err(CliError::io(path, &e)),
        }
    }
    Ok(key)
}

/// Writes the harness and the overlay that adds it into `scratch`; returns
/// the overlay's path.
fn write_overlay(
    scratch: &Path,
    dir: &Path,
    env: &GoEnv,
    pkg: &Listed,
    tests: &Tests,
) -> Result<PathBuf, CliError> {
    let mut replace: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut add = |name: &str, text: &str, at: PathBuf| -> Result<(), CliError> {
        let file = scratch.join(name);
        std::fs::write(&file, text).map_err(|e| CliError::io(&file, &e))?;
        replace.insert(at, file);
        Ok(())
    };
    let fuzz = Path::new(&env.goroot).join("src/internal/fuzz");
    add("trace.go", TRACE_GO, fuzz.join("trace.go"))?;
    add(
        "fuzzbuild.go",
        FUZZBUILD_GO,
        fuzz.join(free_name(&fuzz, "zz_fuzzbuild", ".go")),
    )?;
    let package = if pkg.name.is_empty() {
        library_name(&pkg.import_path)
    } else {
        pkg.name.clone()
    };
    let harness = HARNESS_GO
        .replace("{{PACKAGE}}", &package)
        .replace("{{IMPORT_PATH}}", &pkg.import_path);
    add(
        "harness.go",
        &harness,
        dir.join(free_name(dir, "zz_fuzzbuild", ".go")),
    )?;
    let register = |side: Side, names: &[String], qual: &str| -> String {
        let mut text =
            String::from("// Generated by fuzz-build: registers the package's fuzz tests.\n\n");
        text.push_str(&match side {
            Side::Internal => format!("package {package}\n\n"),
            Side::External => format!(
                "package {package}_test\n\nimport fuzzbuildpkg {:?}\n\n",
                pkg.import_path
            ),
        });
        text.push_str("func init() {\n");
        for n in names {
            text.push_str(&format!("\t{qual}ZZFuzzBuildRegister({n:?}, {n})\n"));
        }
        if tests.main == Some(side) {
            text.push_str(&format!("\t{qual}ZZFuzzBuildRegisterMain(TestMain)\n"));
        }
        text.push_str("}\n");
        text
    };
    add(
        "register_test.go",
        &register(Side::Internal, &tests.internal, ""),
        dir.join(free_name(dir, "zz_fuzzbuild", "_test.go")),
    )?;
    if !tests.external.is_empty() || tests.main == Some(Side::External) {
        add(
            "register_x_test.go",
            &register(Side::External, &tests.external, "fuzzbuildpkg."),
            dir.join(free_name(dir, "zz_fuzzbuild_x", "_test.go")),
        )?;
    }
    let overlay = serde_json::json!({ "Replace": replace });
    let path = scratch.join("overlay.json");
    std::fs::write(&path, overlay.to_string()).map_err(|e| CliError::io(&path, &e))?;
    Ok(path)
}

/// A file name in `dir` that no file there has: `stem` + `ext`, or with a
/// number after the stem.
fn free_name(dir: &Path, stem: &str, ext: &str) -> String {
    (0..)
        .map(|i| {
            if i == 0 {
                format!("{stem}{ext}")
            } else {
                format!("{stem}{i}{ext}")
            }
        })
        .find(|n| !dir.join(n).exists())
        .expect("an unused name")
}

/// Runs the compiler: go test -c, as a shared library, instrumented.
fn compile(
    dir: &Path,
    overlay: &Path,
    out: &Path,
    verbose: bool,
    shown: &str,
) -> Result<(), CliError> {
    let overlay_flag = format!("-overlay={}", overlay.display());
    let out_flag = format!("-o={}", out.display());
    let mut args: Vec<String> = vec![
        "test".into(),
        "-c".into(),
        "-vet=off".into(),
        "-buildmode=c-shared".into(),
        out_flag,
        overlay_flag,
        "-gcflags=all=-d=libfuzzer".into(),
    ];
    args.extend(UNINSTRUMENTED.iter().map(|p| format!("-gcflags={p}=")));
    args.push(".".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = go(dir, &args, verbose)?;
    let said = String::from_utf8_lossy(&result.stderr);
    if verbose || !result.status.success() {
        eprint!("{said}{}", String::from_utf8_lossy(&result.stdout));
    }
    if !result.status.success() || !out.is_file() {
        return Err(CliError::misuse(format!(
            "{shown}: the package does not build as a fuzzing library (go's errors above)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fuzz_tests_however_testing_is_imported() {
        let plain = "package p\nimport \"testing\"\nfunc FuzzA(f *testing.F) {}\nfunc FuzzB(f *testing.F) {}\n\
                     func fuzzHelper(f *testing.F) {}\nfunc Fuzzy(f *testing.F) {}\nfunc Fuzz_9(f *testing.F) {}\n\
                     func TestX(t *testing.T) {}\n";
        assert_eq!(
            scan_test_file(plain),
            (vec!["FuzzA".into(), "FuzzB".into(), "Fuzz_9".into()], false)
        );
        let alias = "package p\nimport (\n\t\"fmt\"\n\tt \"testing\"\n)\nfunc FuzzC(f *t.F) {}\nfunc TestMain(m *t.M) {}\n";
        assert_eq!(scan_test_file(alias), (vec!["FuzzC".into()], true));
        let dot = "package p\nimport . \"testing\"\nfunc FuzzD(f *F) {}\nfunc Fuzz(x *F) {}\n";
        assert_eq!(
            scan_test_file(dot),
            (vec!["FuzzD".into(), "Fuzz".into()], false)
        );
        // Not a fuzz test: the wrong type, or not at the start of a line.
        let not = "package p\nimport \"testing\"\nfunc FuzzE(t *testing.T) {}\n// func FuzzF(f *testing.F) {}\n";
        assert_eq!(scan_test_file(not), (vec![], false));
    }

    #[test]
    fn library_names_are_file_names() {
        assert_eq!(library_name("example.com/parse"), "parse");
        assert_eq!(library_name("example.com/go-yaml.v3"), "go_yaml_v3");
        assert_eq!(library_name("m"), "m");
    }
}
