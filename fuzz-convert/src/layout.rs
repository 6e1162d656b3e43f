//! Where the inputs are in what AFL and libFuzzer leave on disk, so that
//! `import` takes the inputs and nothing else.
//!
//! AFL (and AFL++) writes an output directory of instance directories
//! (`default/`, or the names given to `-M`/`-S`; AFL before 2.5x used the
//! output directory itself). Each instance has `queue/`, `crashes/` and
//! `hangs/`, whose inputs are named `id:NNNNNN,…` (`id_NNNNNN,…` where `:`
//! is not allowed), beside metadata that is not input: `fuzzer_stats`,
//! `plot_data`, `cmdline`, `fuzz_bitmap`, `.cur_input`, `.synced/`,
//! `crashes/README.txt`, `queue/.state/`. A libFuzzer corpus is a flat
//! directory of raw files with any names.

use fuzz_cli::{io, CliError};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

/// AFL's directories of inputs inside an instance directory.
const INPUT_DIRS: [&str; 3] = ["queue", "crashes", "hangs"];

/// The inputs one SRC operand names, and what people should hear about
/// it once every operand has been checked.
#[derive(Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    pub warnings: Vec<String>,
}

/// The input files of one SRC: itself if it is a file (or `-`), else the
/// inputs of the AFL tree or libFuzzer corpus it is. A missing operand, or
/// a directory that cannot be listed, is misuse.
pub fn inputs(src: &Path) -> Result<Found, CliError> {
    let mut found = Found::default();
    if io::is_stdio(src) {
        found.files.push(src.to_path_buf());
        return Ok(found);
    }
    let meta = fs::metadata(src).map_err(|e| CliError::io(src, &e))?;
    if meta.is_file() {
        found.files.push(src.to_path_buf());
        return Ok(found);
    }
    if !meta.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: not a regular file or a directory",
            fuzz_core::error::shown(src)
        )));
    }
    let input_dirs = afl_input_dirs(src)?;
    let what = if input_dirs.is_empty() {
        flat(src, &mut found)?;
        "files"
    } else {
        for dir in &input_dirs {
            afl_inputs(dir, &mut found)?;
        }
        "AFL inputs (id:… files)"
    };
    if found.files.is_empty() {
        let held = files_under(src);
        if held > 0 {
            return Err(CliError::misuse(format!(
                "{}: nothing to import: of the {held} files it holds, none is {}",
                fuzz_core::error::shown(src),
                if input_dirs.is_empty() {
                    "a file of its own (a libFuzzer corpus is read flat)".to_string()
                } else {
                    "an AFL input (an id:… file in a queue/, crashes/ or hangs/ directory)"
                        .to_string()
                }
            )));
        }
        found
            .warnings
            .push(format!("{}: no {what} found", fuzz_core::error::shown(src)));
    }
    Ok(found)
}

/// How many regular files are under `dir` (not in hidden directories),
/// at most a few levels down.
fn files_under(dir: &Path) -> usize {
    walkdir::WalkDir::new(dir)
        .max_depth(AFL_DEPTH + 1)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().as_encoded_bytes().starts_with(b"."))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .count()
}

/// How deep under SRC AFL's directories are looked for: SRC/queue,
/// `SRC/<instance>/queue` (AFL++), `SRC/<run>/<instance>/queue`.
const AFL_DEPTH: usize = 3;

/// Every `queue/`, `crashes/` and `hangs/` of AFL's at or under `src`: SRC
/// itself when it is one, else each one under it, however the instance
/// directory around it looks (AFL writes `fuzzer_stats` only once it has
/// run a while; a copied `out/` may hold only `default/queue/`). Hidden
/// directories (`.state/`, `.synced/`) are AFL's metadata, not inputs.
fn afl_input_dirs(src: &Path) -> Result<Vec<PathBuf>, CliError> {
    if is_afl_input_dir(src)? {
        return Ok(vec![src.to_path_buf()]);
    }
    let mut dirs = Vec::new();
    let walk = walkdir::WalkDir::new(src)
        .min_depth(1)
        .max_depth(AFL_DEPTH)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().as_encoded_bytes().starts_with(b"."));
    for e in walk.filter_map(Result::ok) {
        if e.file_type().is_dir() && is_afl_input_dir(e.path())? {
            dirs.push(e.into_path());
        }
    }
    Ok(dirs)
}

/// The entries of a directory, sorted by name.
fn list(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let err = |e: std::io::Error| CliError::io(dir, &e);
    let mut paths = Vec::new();
    for entry in fs::read_dir(dir).map_err(err)? {
        paths.push(entry.map_err(err)?.path());
    }
    paths.sort();
    Ok(paths)
}

fn name_of(path: &Path) -> &[u8] {
    path.file_name().map_or(&[][..], OsStr::as_encoded_bytes)
}

fn is_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// An AFL instance: a `queue/` directory beside `crashes/`, `hangs/` or
/// `fuzzer_stats`.
fn is_afl_instance(dir: &Path) -> bool {
    dir.join("queue").is_dir()
        && (dir.join("crashes").is_dir()
            || dir.join("hangs").is_dir()
            || dir.join("fuzzer_stats").is_file())
}

/// A `queue/`, `crashes/` or `hangs/` directory of AFL's: it sits in an
/// instance directory, or holds inputs named as AFL names them. (A
/// libFuzzer directory that happens to be called `crashes` is neither.)
fn is_afl_input_dir(dir: &Path) -> Result<bool, CliError> {
    // The real name: `.` or `queue/` given from inside count too.
    let real = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if !INPUT_DIRS.iter().any(|d| name_of(&real) == d.as_bytes()) {
        return Ok(false);
    }
    if real.parent().is_some_and(is_afl_instance) {
        return Ok(true);
    }
    Ok(list(dir)?.iter().any(|p| is_afl_name(name_of(p))))
}

fn is_afl_name(name: &[u8]) -> bool {
    name.starts_with(b"id:") || name.starts_with(b"id_")
}

/// The inputs of a `queue/`, `crashes/` or `hangs/` directory; other
/// files there are named as skipped (but AFL's own README.txt).
fn afl_inputs(dir: &Path, found: &mut Found) -> Result<(), CliError> {
    for path in list(dir)? {
        let name = name_of(&path);
        if is_afl_name(name) && is_file(&path) {
            found.files.push(path);
        } else if is_file(&path) && name != b"README.txt" && !name.starts_with(b".") {
            found.warnings.push(format!(
                "{}: skipping a file that is not an AFL input (not named id:…)",
                fuzz_core::error::shown(&path)
            ));
        }
    }
    Ok(())
}

/// Every regular, non-hidden file of a libFuzzer corpus directory.
fn flat(dir: &Path, found: &mut Found) -> Result<(), CliError> {
    for path in list(dir)? {
        if name_of(&path).starts_with(b".") {
            continue;
        }
        match fs::metadata(&path) {
            Ok(m) if m.is_file() => found.files.push(path),
            Ok(m) if m.is_dir() => found.warnings.push(format!(
                "{}: skipping a subdirectory (a libFuzzer corpus is read flat)",
                fuzz_core::error::shown(&path)
            )),
            _ => found.warnings.push(format!(
                "{}: skipping what is not a regular file",
                fuzz_core::error::shown(&path)
            )),
        }
    }
    Ok(())
}
