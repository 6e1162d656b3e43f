//! The target a corpus path names, for the tools that ask for `-target`
//! (fuzz-minimize, fuzz-corpus cover and merge -lib): an input in
//! `testdata/fuzz/<Target>/` or in the cache's `<lib>-<16 hex>/<Target>/`
//! belongs to `<Target>`, so a library with several targets needs no
//! `-target` there (issue 22). A path naming a target the library does not
//! have gets the error an unknown `-target` gets.

use fuzz_core::store::cache;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The target `path` names by where it is: `…/testdata/fuzz/<Target>` or
/// `…/<lib>-<16 hex>/<Target>` (a cache directory), that directory itself
/// or a file in it. `None` for any other path, `-`, or a name that is not
/// UTF-8.
pub fn named_by_path(path: &Path) -> Option<String> {
    if crate::io::is_stdio(path) {
        return None;
    }
    // Absolute and without `..`, so that `FuzzX/entry` run from inside
    // testdata/fuzz/ names FuzzX too.
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir: PathBuf = if path.is_dir() {
        path
    } else {
        path.parent()?.to_path_buf()
    };
    let target = dir.file_name()?;
    let parent = dir.parent()?;
    let seed_dir = parent.file_name() == Some(OsStr::new("fuzz"))
        && parent.parent().and_then(Path::file_name) == Some(OsStr::new("testdata"));
    let cache_dir = parent.file_name().is_some_and(cache::is_library_id);
    if !(seed_dir || cache_dir) {
        return None;
    }
    target
        .to_str()
        .filter(|t| !t.is_empty() && !t.starts_with('.'))
        .map(str::to_string)
}

/// The target to ask the worker for: `-target` when given; else, when the
/// library has several targets, the one the `operands` name by their
/// paths (every operand that names one naming the same); else `None`,
/// which leaves the choice to the worker (a library's only target, or its
/// error asking for -target).
pub fn choose(
    worker: &Path,
    lib: &Path,
    given: Option<&str>,
    operands: &[&Path],
) -> Option<String> {
    if let Some(t) = given {
        return Some(t.to_string());
    }
    let mut named = operands.iter().filter_map(|p| named_by_path(p));
    let first = named.next()?;
    if named.any(|other| other != first) {
        return None;
    }
    (target_count(worker, lib)? > 1).then_some(first)
}

/// How many targets `fuzz-worker list` finds in `lib`; `None` when it
/// cannot tell (the library does not load: the worker started next says
/// why).
fn target_count(worker: &Path, lib: &Path) -> Option<usize> {
    let out = Command::new(worker)
        .envs(crate::sanitizer::worker_env(lib, None))
        .arg("list")
        .arg("--")
        .arg(lib)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        out.stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_and_cache_paths_name_their_target() {
        let named = |p: &str| named_by_path(Path::new(p));
        assert_eq!(named("/p/testdata/fuzz/FuzzX/abc"), Some("FuzzX".into()));
        assert_eq!(named("testdata/fuzz/c_parse/0123"), Some("c_parse".into()));
        assert_eq!(
            named("/c/fuzz/png-0123456789abcdef/FuzzY/e"),
            Some("FuzzY".into())
        );
        for other in [
            "/p/fuzz/FuzzX/abc",
            "/p/testdata/FuzzX/abc",
            "/c/png-0123456789ABCDEF/FuzzY/e",
            "/abc",
            "abc",
            "-",
        ] {
            assert_eq!(named(other), None, "{other}");
        }
    }
}
