//! The body of fuzz-clean: check every argument, find and vet the cache,
//! plan, then remove (or, under `-n`, list) and report.
//!
//! Every argument is checked before the cache is looked at, so a bad one
//! removes nothing.

use crate::cli::Cli;
use crate::plan::{self, Age, Item, Selection};
use crate::root::{self, Root};
use fuzz_cli::{CliError, Status};
use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

const TOOL: &str = "fuzz-clean";

pub fn run(cli: Cli) -> Result<Status, CliError> {
    if let Some(t) = &cli.target {
        check_target(t)?;
    }
    let library = cli.lib.as_deref().map(library_id).transpose()?;
    let age = match cli.older {
        None => Age::Any,
        Some(d) => SystemTime::now()
            .checked_sub(d)
            .map_or(Age::Never, Age::Before),
    };
    let root = match root::locate(cli.fuzzcachedir.as_deref(), cli.dry_run)? {
        Root::Dir(dir) => dir,
        Root::Missing(path) => {
            eprintln!(
                "{TOOL}: nothing to remove in {} (no such directory)",
                fuzz_core::error::shown(&path)
            );
            return Ok(Status::Success);
        }
    };
    let sel = Selection {
        library: library.as_deref(),
        target: cli.target.as_deref(),
        age,
    };
    let plan = plan::plan(&root, &sel)?;
    for (path, why) in &plan.strays {
        fuzz_cli::exit::warn(
            TOOL,
            &format!(
                "left {} in place: not part of the cache ({why})",
                fuzz_core::error::shown(path)
            ),
        );
    }
    let items = plan.items;
    if items.is_empty() {
        eprintln!(
            "{TOOL}: nothing to remove in {}",
            fuzz_core::error::shown(&root)
        );
        return Ok(Status::Success);
    }
    if cli.dry_run {
        list(&items)?;
        let entries = items.iter().filter(|i| !i.dir).count() as u64;
        let bytes = items.iter().map(|i| i.size).sum();
        let dirs = items.len() as u64 - entries;
        eprintln!(
            "{TOOL}: would remove {} from {}",
            amount(entries, bytes, dirs),
            fuzz_core::error::shown(&root)
        );
        return Ok(Status::Success);
    }
    let done = plan::remove(&items);
    for (path, e) in &done.failed {
        fuzz_cli::exit::warn(
            TOOL,
            &format!(
                "cannot remove {}: {}",
                fuzz_core::error::shown(path),
                fuzz_core::error::describe(e)
            ),
        );
    }
    if !done.failed.is_empty() {
        return Err(CliError::misuse(format!(
            "removed {} from {}, but {} could not be removed",
            amount(done.entries, done.bytes, done.dirs),
            fuzz_core::error::shown(&root),
            plural(done.failed.len() as u64, "path", "paths"),
        )));
    }
    if done.entries + done.dirs == 0 {
        eprintln!(
            "{TOOL}: nothing to remove in {}",
            fuzz_core::error::shown(&root)
        );
    } else {
        eprintln!(
            "{TOOL}: removed {} from {}",
            amount(done.entries, done.bytes, done.dirs),
            fuzz_core::error::shown(&root)
        );
    }
    Ok(Status::Success)
}

/// A target name must stay one path component inside a library's cache.
fn check_target(t: &str) -> Result<(), CliError> {
    if t.is_empty() || t == "." || t == ".." || t.contains('/') || t.contains('\0') {
        return Err(CliError::misuse(format!(
            "-target {t:?}: not a target name (a target's cache is one directory, so no '/', '.' or '..')"
        )));
    }
    Ok(())
}

/// The cache id of LIB, which must be an existing file.
fn library_id(lib: &Path) -> Result<std::ffi::OsString, CliError> {
    let meta = std::fs::metadata(lib).map_err(|e| CliError::io(lib, &e))?;
    if meta.is_dir() {
        return Err(CliError::misuse(format!(
            "{}: is a directory, not a library",
            fuzz_core::error::shown(lib)
        )));
    }
    if !meta.is_file() {
        return Err(CliError::misuse(format!(
            "{}: not a regular file, so not a library",
            fuzz_core::error::shown(lib)
        )));
    }
    Ok(fuzz_core::store::cache::library_id(lib)?)
}

/// `-n`: the paths, one per line, as raw bytes so that scripts get the
/// exact names.
fn list(items: &[Item]) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(fuzz_cli::io::stdout());
    for item in items {
        out.write_all(item.path.as_os_str().as_encoded_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// "12 entries (3.4 KiB)", "1 entry (5 B)", or, when only directories
/// go, "2 empty directories".
fn amount(entries: u64, bytes: u64, dirs: u64) -> String {
    if entries == 0 {
        return plural(dirs, "empty directory", "empty directories");
    }
    format!("{} ({})", plural(entries, "entry", "entries"), size(bytes))
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A size for people: bytes, then KiB, MiB, … with one decimal.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_amounts() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(1023), "1023 B");
        assert_eq!(size(3482), "3.4 KiB");
        assert_eq!(size(5 * 1024 * 1024), "5.0 MiB");
        assert_eq!(amount(1, 5, 0), "1 entry (5 B)");
        assert_eq!(amount(12, 3482, 4), "12 entries (3.4 KiB)");
        assert_eq!(amount(0, 0, 2), "2 empty directories");
    }

    #[test]
    fn target_names() {
        assert!(check_target("FuzzParse").is_ok());
        assert!(check_target("png_read").is_ok());
        for bad in ["", ".", "..", "a/b", "../x"] {
            assert!(check_target(bad).is_err(), "{bad}");
        }
    }
}
