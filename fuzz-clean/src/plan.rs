//! What to remove, decided in full before anything is removed, then the
//! removal itself.
//!
//! The plan follows the cache's layout, `<lib>-<16 hex>/<Target>/<entry>`,
//! level by level, and takes only what has the cache's shape at its level;
//! anything else (a stray file, a hidden name, a directory where an entry
//! should be) is kept and reported, so that a cache that picked up a user's
//! file never loses it. Deciding first means a bad tree (an unreadable
//! directory) stops the tool before it has removed half of something, and
//! `-n` prints exactly what a real run would remove. Symbolic links are
//! never followed: each path is looked at with `symlink_metadata`, and a
//! link at a place the layout names is planned as an entry of its own,
//! removed with `remove_file`, which removes the link.

use fuzz_cli::CliError;
use fuzz_core::store::cache;
use std::ffi::OsStr;
use std::fs::Metadata;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
            // An mtime the platform cannot tell counts as fresh, and so
            // does one in the future: when unsure, keep.
            Age::Before(cutoff) => meta.modified().is_ok_and(|t| t < cutoff),
        }
    }
}

/// What the user selected inside the cache root.
pub struct Selection<'a> {
    /// The library's cache id, or every library.
    pub library: Option<&'a std::ffi::OsStr>,
    /// A target name, or every target.
    pub target: Option<&'a str>,
    pub age: Age,
}

/// The paths to remove, in the order to remove them (every directory after
/// what it holds), and the paths left in place because they are not laid
/// out as the cache is, each with why.
#[derive(Default, Debug)]
pub struct Plan {
    pub items: Vec<Item>,
    pub strays: Vec<(PathBuf, &'static str)>,
}

/// Plans a clean of `root`, a real (canonical) directory that is our
/// cache; the root itself and its tag are never planned.
pub fn plan(root: &Path, sel: &Selection) -> Result<Plan, CliError> {
    let mut plan = Plan::default();
    if let Some(lib) = sel.library {
        let path = root.join(lib);
        if let Some(meta) = look(&path)? {
            plan.library(&path, &meta, sel)?;
        }
        return Ok(plan);
    }
    for (path, meta) in children(root)? {
        let name = path.file_name().unwrap_or_default();
        if name == cache::TAG_FILE && meta.is_file() {
            continue;
        }
        if !cache::is_library_id(name) {
            plan.stray(path, "not named <library>-<16 hex digits>");
            continue;
        }
        plan.library(&path, &meta, sel)?;
    }
    Ok(plan)
}

impl Plan {
    fn stray(&mut self, path: PathBuf, why: &'static str) {
        self.strays.push((path, why));
    }

    /// A library's directory. Returns whether it is planned for removal.
    fn library(&mut self, path: &Path, meta: &Metadata, sel: &Selection) -> Result<bool, CliError> {
        if meta.file_type().is_symlink() {
            // A link where a library's directory should be: never entered;
            // removed as a link when the whole library goes.
            return Ok(sel.target.is_none() && self.link(path, meta, sel.age));
        }
        if !meta.is_dir() {
            self.stray(path.to_path_buf(), "not a directory");
            return Ok(false);
        }
        let mut all = true;
        for (child, cmeta) in children(path)? {
            let name = child.file_name().unwrap_or_default();
            if !cache::is_target_name(name) {
                self.stray(child, "a hidden name, not a target's directory");
                all = false;
                continue;
            }
            if sel.target.is_some_and(|t| OsStr::new(t) != name) {
                all = false;
                continue;
            }
            all &= self.target(&child, &cmeta, sel.age)?;
        }
        Ok(all && self.dir(path))
    }

    /// A target's directory. Returns whether it is planned for removal.
    fn target(&mut self, path: &Path, meta: &Metadata, age: Age) -> Result<bool, CliError> {
        if meta.file_type().is_symlink() {
            return Ok(self.link(path, meta, age));
        }
        if !meta.is_dir() {
            self.stray(path.to_path_buf(), "not a directory");
            return Ok(false);
        }
        let mut all = true;
        for (child, cmeta) in children(path)? {
            if !cache::is_entry_name(child.file_name().unwrap_or_default()) {
                self.stray(child, "not named by a digest");
                all = false;
            } else if cmeta.is_dir() {
                self.stray(child, "a directory where an entry should be");
                all = false;
            } else if age.is_old(&cmeta) {
                self.items.push(entry(&child, &cmeta));
            } else {
                all = false;
            }
        }
        Ok(all && self.dir(path))
    }

    /// A link at a place the layout names: removed as a link, by its own age.
    fn link(&mut self, path: &Path, meta: &Metadata, age: Age) -> bool {
        let old = age.is_old(meta);
        if old {
            self.items.push(entry(path, meta));
        }
        old
    }

    fn dir(&mut self, path: &Path) -> bool {
        self.items.push(Item {
            path: path.to_path_buf(),
            dir: true,
            size: 0,
        });
        true
    }
}

fn entry(path: &Path, meta: &Metadata) -> Item {
    Item {
        path: path.to_path_buf(),
        dir: false,
        size: meta.len(),
    }
}

/// What is at `path`, not following a link; `None` for nothing there.
fn look(path: &Path) -> Result<Option<Metadata>, CliError> {
    match path.symlink_metadata() {
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::io(path, &e)),
    }
}

/// The paths in a directory with what each is (links not followed),
/// sorted. What vanishes while we look was cleaned by someone else.
fn children(dir: &Path) -> Result<Vec<(PathBuf, Metadata)>, CliError> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(CliError::io(dir, &e)),
    };
    let mut out = Vec::new();
    for e in rd {
        let path = e.map_err(|e| CliError::io(dir, &e))?.path();
        if let Some(meta) = look(&path)? {
            out.push((path, meta));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn names(root: &Path, paths: impl Iterator<Item = PathBuf>) -> Vec<String> {
        paths
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn only_the_layout_is_planned() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        let t = root.join("foo-0123456789abcdef/FuzzA");
        fs::create_dir_all(&t).unwrap();
        fs::write(t.join("0123456789abcdef"), b"x").unwrap();
        fs::write(t.join(".tmp-abc123"), b"x").unwrap();
        fs::write(t.join("notes.txt"), b"mine").unwrap();
        fs::create_dir_all(root.join("foo-0123456789abcdef/FuzzB")).unwrap();
        fs::write(root.join("foo-0123456789abcdef/.hidden"), b"x").unwrap();
        fs::write(root.join(cache::TAG_FILE), cache::TAG_SIGNATURE).unwrap();
        fs::create_dir(root.join("src")).unwrap();
        let sel = Selection {
            library: None,
            target: None,
            age: Age::Any,
        };
        let p = plan(root, &sel).unwrap();
        assert_eq!(
            names(root, p.items.into_iter().map(|i| i.path)),
            [
                "foo-0123456789abcdef/FuzzA/.tmp-abc123",
                "foo-0123456789abcdef/FuzzA/0123456789abcdef",
                "foo-0123456789abcdef/FuzzB",
            ]
        );
        assert_eq!(
            names(root, p.strays.into_iter().map(|s| s.0)),
            [
                "foo-0123456789abcdef/.hidden",
                "foo-0123456789abcdef/FuzzA/notes.txt",
                "src"
            ]
        );
    }
}
