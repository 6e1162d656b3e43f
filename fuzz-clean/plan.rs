//! What to remove, decided in full before anything is removed, then the
//! removal itself.
//!
//! Deciding first means a bad tree (an unreadable directory) stops the tool
//! before it has removed half of something, and `-n` prints exactly what a
//! real run would remove. Symbolic links are never followed: the walk looks
//! at each path with `symlink_metadata`, and a link is planned as an entry
//! of its own, removed with `remove_file`, which removes the link.

use fuzz_cli::CliError;
use std::fs::Metadata;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use walkdir::WalkDir;

/// One path to remove.
#[derive(Debug)]
pub struct Item {
    pub path: PathBuf,
    /// A directory, removed once empty; anything else is an entry.
    pub dir: bool,
    /// An entry's size in bytes (a link's own size); 0 for a directory.
    pub size: u64,
}

/// Which entries go: all, or only those last modified before a time.
#[derive(Copy, Clone, Debug)]
pub enum Age {
    Any,
    Before(SystemTime),
    /// `-older` reaches back before any representable time: nothing is
    /// that old.
    Never,
}

impl Age {
    fn is_old(self, meta: &Metadata) -> bool {
        match self {
            Age::Any => true,
            Age::Never => false,
            // An mtime the platform cannot tell counts as fresh: when unsure,
            // keep.
            Age::Before(cutoff) => meta.modified().is_ok_and(|t| t < cutoff),
        }
    }
}

/// What the user selected inside the cache root.
pub struct Selection<'a> {
    /// The library's cache id, or every library.
    pub library: Option<&'a str>,
    /// A target name, or every target.
    pub target: Option<&'a str>,
    pub age: Age,
}

/// The paths to remove, in the order to remove them: every directory after
/// what it holds. `root` must be a real (canonical) directory; it is never
/// itself planned for removal.
pub fn plan(root: &Path, sel: &Selection) -> Result<Vec<Item>, CliError> {
    let mut items = Vec::new();
    match (sel.library, sel.target) {
        (None, None) => {
            walk(root, true, sel.age, &mut items)?;
        }
        (Some(lib), None) => {
            walk(&root.join(lib), false, sel.age, &mut items)?;
        }
        (Some(lib), Some(target)) => {
            let lib_dir = root.join(lib);
            if is_real_dir(&lib_dir)? {
                target_in(&lib_dir, target, sel.age, &mut items)?;
            }
        }
        (None, Some(target)) => {
            for lib_dir in subdirs(root)? {
                target_in(&lib_dir, target, sel.age, &mut items)?;
            }
        }
    }
    Ok(items)
}

/// Plans one target of one library, then the library's directory if the
/// target was all it held.
fn target_in(
    lib_dir: &Path,
    target: &str,
    age: Age,
    items: &mut Vec<Item>,
) -> Result<(), CliError> {
    if !walk(&lib_dir.join(target), false, age, items)? {
        return Ok(());
    }
    let only_target = read_dir(lib_dir)?
        .iter()
        .all(|p| p.file_name().is_some_and(|n| n == target));
    if only_target {
        items.push(Item {
            path: lib_dir.to_path_buf(),
            dir: true,
            size: 0,
        });
    }
    Ok(())
}

/// Plans the removal of what is old enough at and below `top`, and of the
/// directories that leaves empty; `keep_top` keeps `top` itself. Returns
/// whether `top` itself is planned for removal.
fn walk(top: &Path, keep_top: bool, age: Age, items: &mut Vec<Item>) -> Result<bool, CliError> {
    let meta = match top.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error(top, e)),
    };
    if !meta.is_dir() {
        // A file, or a link (to a directory or not) where a directory was
        // expected: an entry of its own.
        if keep_top || !age.is_old(&meta) {
            return Ok(false);
        }
        items.push(entry(top, &meta));
        return Ok(true);
    }
    // kept[d]: something at depth d, below the directory being finished at
    // depth d - 1, stays. With contents first, a directory comes right
    // after everything it holds, so kept[d + 1] is about its children only.
    let mut kept: Vec<bool> = vec![false];
    let walker = WalkDir::new(top)
        .follow_links(false)
        .follow_root_links(false)
        .contents_first(true)
        .sort_by_file_name();
    let mut top_removed = false;
    for e in walker {
        let e = match e {
            Ok(e) => e,
            Err(err) => {
                let path = err.path().unwrap_or(top).to_path_buf();
                match err.into_io_error() {
                    // Gone while we looked: someone else cleaned it.
                    Some(io) if io.kind() == ErrorKind::NotFound => continue,
                    Some(io) => return Err(io_error(&path, io)),
                    None => {
                        return Err(CliError::misuse(format!(
                            "{}: cannot walk the cache",
                            path.display()
                        )))
                    }
                }
            }
        };
        let depth = e.depth();
        if kept.len() < depth + 2 {
            kept.resize(depth + 2, false);
        }
        let meta = match e.metadata() {
            Ok(m) => m,
            Err(err) => match err.into_io_error() {
                Some(io) if io.kind() == ErrorKind::NotFound => continue,
                Some(io) => return Err(io_error(e.path(), io)),
                None => continue,
            },
        };
        let remove = if e.file_type().is_dir() {
            // Taking the flag also clears it for the next directory at
            // this depth.
            let child_kept = std::mem::take(&mut kept[depth + 1]);
            let top_kept = depth == 0 && keep_top;
            !(child_kept || top_kept)
        } else {
            age.is_old(&meta)
        };
        if remove {
            items.push(if e.file_type().is_dir() {
                Item {
                    path: e.path().to_path_buf(),
                    dir: true,
                    size: 0,
                }
            } else {
                entry(e.path(), &meta)
            });
            if depth == 0 {
                top_removed = true;
            }
        } else {
            kept[depth] = true;
        }
    }
    Ok(top_removed)
}

fn entry(path: &Path, meta: &Metadata) -> Item {
    Item {
        path: path.to_path_buf(),
        dir: false,
        size: meta.len(),
    }
}

/// True for a directory that is not a link; false for nothing there.
fn is_real_dir(path: &Path) -> Result<bool, CliError> {
    match path.symlink_metadata() {
        Ok(m) => Ok(m.is_dir()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(path, e)),
    }
}

/// The paths in a directory, sorted.
fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(io_error(dir, e)),
    };
    for e in rd {
        out.push(e.map_err(|e| io_error(dir, e))?.path());
    }
    out.sort();
    Ok(out)
}

/// The real directories (not links) in a directory, sorted.
fn subdirs(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in read_dir(dir)? {
        if is_real_dir(&p)? {
            out.push(p);
        }
    }
    Ok(out)
}

fn io_error(path: &Path, e: std::io::Error) -> CliError {
    CliError::io(path, &e)
}

/// What a removal did.
#[derive(Default)]
pub struct Outcome {
    pub entries: u64,
    pub bytes: u64,
    pub dirs: u64,
    /// Paths that could not be removed, with why.
    pub failed: Vec<(PathBuf, std::io::Error)>,
}

/// Removes the planned paths in order. What has already gone is not an
/// error; a directory that is no longer empty (a run added to it, or an
/// entry in it could not be removed) is kept quietly; anything else is
/// recorded and the removal goes on.
pub fn remove(items: &[Item]) -> Outcome {
    let mut out = Outcome::default();
    for item in items {
        let result = if item.dir {
            std::fs::remove_dir(&item.path)
        } else {
            std::fs::remove_file(&item.path)
        };
        match result {
            Ok(()) if item.dir => out.dirs += 1,
            Ok(()) => {
                out.entries += 1;
                out.bytes += item.size;
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(_) if item.dir && !is_empty_dir(&item.path) => {}
            Err(e) => out.failed.push((item.path.clone(), e)),
        }
    }
    out
}

fn is_empty_dir(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|mut rd| rd.next().is_none())
}
