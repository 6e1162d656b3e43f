//! C and C++ files, compiled and linked into one instrumented library.
//!
//! clang-19 (or clang) instruments as libFuzzer's users build
//! (`inline-8bit-counters,pc-table,trace-cmp`); without clang, gcc
//! instruments with `trace-pc,trace-cmp` (every block, counted by the
//! worker's trace-pc callback, without a PC table), and fuzz-build says so.
//! `fuzz_target.h` is on the include path. The library is keyed by the
//! compiler, the flags, and the content of every file the compiler read
//! (the sources, and the headers its `-MD` output lists), so that a second
//! build with nothing changed runs no compiler.

use crate::cache::{self, Key};
use crate::command::run;
use fuzz_cli::CliError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// fuzz-target's header, for typed targets written in C.
const FUZZ_TARGET_H: &str = include_str!("../../fuzz-target/include/fuzz_target.h");

/// The extensions of the sources taken, and whether each is C++.
pub fn language(path: &Path) -> Option<Language> {
    match path.extension()?.to_str()? {
        "c" => Some(Language::C),
        "cc" | "cpp" | "cxx" | "C" | "c++" => Some(Language::Cxx),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Language {
    C,
    Cxx,
}

/// The compilers found: clang's (preferred) or gcc's, for C and C++.
struct Compilers {
    c: String,
    cxx: String,
    clang: bool,
}

impl Compilers {
    fn find() -> Result<Compilers, CliError> {
        for (c, cxx) in [("clang-19", "clang++-19"), ("clang", "clang++")] {
            if on_path(c) {
                return Ok(Compilers {
                    c: c.into(),
                    cxx: cxx.into(),
                    clang: true,
                });
            }
        }
        if on_path("gcc") {
            return Ok(Compilers {
                c: "gcc".into(),
                cxx: "g++".into(),
                clang: false,
            });
        }
        Err(CliError::misuse(
            "no C compiler: clang-19, clang and gcc are not on PATH (apt-get install clang-19)",
        ))
    }

    /// The instrumentation flags.
    fn coverage(&self, fast: bool) -> &'static str {
        match (self.clang, fast) {
            (true, false) => "-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp",
            (true, true) => "-fsanitize-coverage=inline-8bit-counters,pc-table",
            (false, false) => "-fsanitize-coverage=trace-pc,trace-cmp",
            (false, true) => "-fsanitize-coverage=trace-pc",
        }
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(d.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// The request: the sources (as given, and canonical), the extra flags.
pub struct Sources<'a> {
    pub given: &'a [PathBuf],
    pub cflags: Vec<String>,
    pub fast: bool,
}

/// Builds `sources` (files: lib.rs's `Kind::of` has checked) into a
/// library in the cache `root` (unless it is there already, built from
/// the same content) and returns its path.
pub fn build(req: &Sources, root: &Path, verbose: bool) -> Result<PathBuf, CliError> {
    let mut files = Vec::new();
    for given in req.given {
        let shown = fuzz_cli::io::display(given);
        let canonical = std::fs::canonicalize(given).map_err(|e| {
            CliError::misuse(format!("{shown}: {}", fuzz_core::error::describe(&e)))
        })?;
        files.push(canonical);
    }
    let compilers = Compilers::find()?;
    let name = library_name(&files[0]);
    let mut identity = String::from("c");
    for f in &files {
        identity.push('\0');
        identity.push_str(&f.to_string_lossy());
    }
    if req.fast {
        identity.push_str("\0fast");
    }
    let entry = cache::Entry::open(root, identity.as_bytes(), &name)?;
    let include = entry.dir().join("include");
    let flags = flags(&compilers, req, &include);
    let base = base_key(&compilers, &flags, verbose)?;
    if let Some(deps) = recorded_deps(&entry) {
        if entry.is_built(&key(&base, &deps)) {
            return Ok(entry.library());
        }
    }
    if !compilers.clang {
        eprintln!(
            "fuzz-build: note: no clang-19 or clang on PATH; building with gcc's trace-pc, which \
             counts blocks without a PC table (apt-get install clang-19 for libFuzzer's \
             instrumentation)"
        );
    }
    eprintln!(
        "fuzz-build: building lib{name}.so from {} with {}",
        req.given
            .iter()
            .map(|p| fuzz_cli::io::display(p))
            .collect::<Vec<_>>()
            .join(", "),
        compilers.c
    );
    fuzz_core::store::fsutil::create_dir_all(&include)
        .map_err(|e| CliError::misuse(e.to_string()))?;
    fuzz_core::store::fsutil::write_atomic(
        &include.join("fuzz_target.h"),
        FUZZ_TARGET_H.as_bytes(),
    )
    .map_err(|e| CliError::misuse(e.to_string()))?;
    let scratch = entry.scratch()?;
    let built = compile(
        &compilers,
        &files,
        &flags,
        scratch.path(),
        verbose,
        req.given,
    )?;
    let deps = read_deps(scratch.path(), &files)?;
    let list: String = deps.iter().map(|d| format!("{}\n", d.display())).collect();
    fuzz_core::store::fsutil::write_atomic(&entry.deps_file(), list.as_bytes())
        .map_err(|e| CliError::misuse(e.to_string()))?;
    entry.install(&built, &key(&base, &deps))?;
    Ok(entry.library())
}

/// The library's name: the first source's stem, kept to the characters a
/// file name takes everywhere (the target of an `LLVMFuzzerTestOneInput`
/// is named after it).
fn library_name(first: &Path) -> String {
    let stem = first
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    cache::library_name(&stem, "target")
}

/// Every flag but the sources' and the output's.
fn flags(compilers: &Compilers, req: &Sources, include: &Path) -> Vec<String> {
    let mut flags: Vec<String> = ["-g", "-O1", "-fPIC", "-fno-omit-frame-pointer"]
        .iter()
        .map(|f| f.to_string())
        .collect();
    flags.push(compilers.coverage(req.fast).into());
    flags.push(format!("-I{}", include.display()));
    flags.extend(req.cflags.iter().cloned());
    flags
}

/// The part of the key that does not depend on the files read: this
/// tool's version, the compilers (as they describe themselves) and the
/// flags.
fn base_key(compilers: &Compilers, flags: &[String], verbose: bool) -> Result<Key, CliError> {
    let mut key = Key::default();
    key.add(env!("CARGO_PKG_VERSION").as_bytes());
    for cc in [&compilers.c, &compilers.cxx] {
        key.add(cc.as_bytes());
        let out = run(
            Command::new(cc).arg("--version"),
            verbose,
            "apt-get install clang-19",
        )?;
        key.add(&out.stdout);
    }
    for f in flags {
        key.add(f.as_bytes());
    }
    Ok(key)
}

/// The whole key: the base, then every file read, by path and content.
fn key(base: &Key, deps: &[PathBuf]) -> Key {
    let mut key = Key::default();
    key.add(base.hex().as_bytes());
    for d in deps {
        key.add(d.as_os_str().as_encoded_bytes());
        match std::fs::read(d) {
            Ok(bytes) => key.add(&bytes),
            Err(_) => key.add(b"(none)"),
        }
    }
    key
}

/// The files the last build read, if one was recorded.
fn recorded_deps(entry: &cache::Entry) -> Option<Vec<PathBuf>> {
    let text = std::fs::read_to_string(entry.deps_file()).ok()?;
    Some(text.lines().map(PathBuf::from).collect())
}

/// Compiles each source to an object in `scratch` (its dependencies
/// listed beside it), then links them; returns the library.
fn compile(
    compilers: &Compilers,
    files: &[PathBuf],
    flags: &[String],
    scratch: &Path,
    verbose: bool,
    given: &[PathBuf],
) -> Result<PathBuf, CliError> {
    let mut objects = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let object = scratch.join(format!("{i}.o"));
        let cc = match language(file) {
            Some(Language::Cxx) => &compilers.cxx,
            _ => &compilers.c,
        };
        let mut cmd = Command::new(cc);
        cmd.args(flags)
            .arg("-MD")
            .arg("-MF")
            .arg(scratch.join(format!("{i}.d")))
            .arg("-c")
            .arg(file)
            .arg("-o")
            .arg(&object);
        checked(&mut cmd, verbose, &given[i])?;
        objects.push(object);
    }
    let cxx = files.iter().any(|f| language(f) == Some(Language::Cxx));
    let linker = if cxx { &compilers.cxx } else { &compilers.c };
    let library = scratch.join("lib.so");
    let mut cmd = Command::new(linker);
    cmd.args(flags)
        .arg("-shared")
        .args(&objects)
        .arg("-o")
        .arg(&library);
    checked(&mut cmd, verbose, &given[0])?;
    Ok(library)
}

/// Runs a compiler step; its failure is misuse, its errors shown.
fn checked(cmd: &mut Command, verbose: bool, source: &Path) -> Result<(), CliError> {
    let out = run(cmd, verbose, "apt-get install clang-19")?;
    if verbose || !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
    }
    if !out.status.success() {
        return Err(CliError::misuse(format!(
            "{}: does not build as a fuzzing library (the compiler's errors above)",
            fuzz_cli::io::display(source)
        )));
    }
    Ok(())
}

/// Every file the compiler read, from the `.d` files of the build in
/// `scratch`, made absolute, without repeats, in order.
fn read_deps(scratch: &Path, files: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut deps: Vec<PathBuf> = files.to_vec();
    for i in 0..files.len() {
        let path = scratch.join(format!("{i}.d"));
        let text = std::fs::read_to_string(&path).map_err(|e| CliError::io(&path, &e))?;
        for dep in make_prerequisites(&text) {
            let dep = std::fs::canonicalize(&dep).unwrap_or(PathBuf::from(dep));
            if !deps.contains(&dep) {
                deps.push(dep);
            }
        }
    }
    Ok(deps)
}

/// The prerequisites of a make rule as compilers write them with `-MD`:
/// `target: a.c b.h \` continued lines, spaces in names escaped.
fn make_prerequisites(text: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let Some((_, after)) = joined.split_once(": ") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = after.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                word.push(' ');
                chars.next();
            }
            ' ' | '\t' | '\n' => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_prerequisites_compilers_write() {
        let d = "0.o: /src/parse.c /usr/include/stdio.h \\\n /src/my\\ dir/x.h\n";
        assert_eq!(
            make_prerequisites(d),
            vec!["/src/parse.c", "/usr/include/stdio.h", "/src/my dir/x.h"]
        );
        assert!(make_prerequisites("garbage").is_empty());
    }

    #[test]
    fn sources_by_extension() {
        assert_eq!(language(Path::new("a.c")), Some(Language::C));
        assert_eq!(language(Path::new("a.cc")), Some(Language::Cxx));
        assert_eq!(language(Path::new("a.cpp")), Some(Language::Cxx));
        assert_eq!(language(Path::new("a.h")), None);
        assert_eq!(language(Path::new("Makefile")), None);
        assert_eq!(library_name(Path::new("/x/my-parse.c")), "my_parse");
    }
}
