//! Finding the cache directory and deciding whether it is ours to clean.
//!
//! The root comes from `-fuzzcachedir` or the environment, either of which
//! can be mistyped, and a cleaner pointed at a project, `/usr` or a home
//! directory would be a disaster. So a root is cleaned only when it is
//! plainly our cache: it carries the `CACHEDIR.TAG` that fuzz-run writes
//! when it creates the cache, or, untagged (a cache made before the tag
//! existed), everything in it is laid out as the cache is; such a root is
//! tagged then, once. `/`, `$HOME` and the directories above them, and a
//! directory with `.git` at its root, are refused whatever they hold. All
//! of this is decided before a single file is removed.

use fuzz_cli::CliError;
use fuzz_core::store::cache::{self, Source};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The cache directory to clean.
pub enum Root {
    /// An existing directory, canonicalized, that is our cache.
    Dir(PathBuf),
    /// Nothing there: nothing to remove.
    Missing(PathBuf),
}

/// Reads the cache location the way ARCHITECTURE.md orders it, from the flag and
/// this process's environment, and vets it. `dry_run` writes nothing, not
/// even the tag of an untagged cache.
pub fn locate(flag: Option<&Path>, dry_run: bool) -> Result<Root, CliError> {
    let env = fuzz_cli::cache::env(flag)?;
    let (root, source) = env.locate()?;
    let home = env
        .home
        .as_ref()
        .filter(|h| !h.is_empty())
        .map(|h| env.cwd.join(h));
    let shown = match source {
        // The user's own spelling, which they will recognise.
        Source::Flag => fuzz_core::error::shown(flag.unwrap_or(&root)),
        _ => fuzz_core::error::shown(&root),
    };
    let refuse = |why: &str| {
        CliError::misuse(format!(
            "refusing to clean {shown} ({}): {why}",
            source.name()
        ))
    };
    let Some(canon) = resolve(&root, &refuse)? else {
        return Ok(Root::Missing(root));
    };
    if canon.parent().is_none() {
        return Err(refuse("it is the root directory"));
    }
    if let Some(home) = home {
        let home = home.canonicalize().unwrap_or(home);
        if home == canon {
            return Err(refuse("it is $HOME"));
        }
        if home.starts_with(&canon) {
            return Err(refuse("it holds $HOME"));
        }
    }
    if canon.join(".git").symlink_metadata().is_ok() {
        return Err(refuse("it holds .git: a repository, not a cache"));
    }
    if cache::is_tagged(&canon) {
        return Ok(Root::Dir(canon));
    }
    if let Some((stray, why)) = cache::first_stray(&canon)? {
        let rel = stray.strip_prefix(&canon).unwrap_or(&stray);
        return Err(refuse(&format!(
            "it has no {} and holds {} ({why}), so it is not laid out as the cache is \
             (<library>-<16 hex digits>/<Target>/<entry>); \
             if it is a cache, remove what is not",
            cache::TAG_FILE,
            fuzz_core::error::shown(rel)
        )));
    }
    // Laid out as the cache is: a cache from before the tag. Tag it, so
    // that from now on it is known without a look at every entry; an
    // empty directory is left as it is, since there is nothing to clean.
    let empty = std::fs::read_dir(&canon).is_ok_and(|mut rd| rd.next().is_none());
    if !dry_run && !empty {
        cache::write_tag(&canon)?;
    }
    Ok(Root::Dir(canon))
}

/// The canonical directory `root` names, `None` when nothing is there.
/// A symbolic link to a directory is resolved once; anything that is not a
/// directory is refused.
fn resolve(root: &Path, refuse: &dyn Fn(&str) -> CliError) -> Result<Option<PathBuf>, CliError> {
    let describe = fuzz_core::error::describe;
    let meta = match root.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(refuse(&describe(&e))),
    };
    if meta.file_type().is_symlink() {
        match root.metadata() {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(refuse(
                    "a symbolic link to something that is not a directory",
                ))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Err(refuse("a dangling symbolic link"))
            }
            Err(e) => {
                return Err(refuse(&format!(
                    "a symbolic link that cannot be followed: {}",
                    describe(&e)
                )))
            }
        }
    } else if !meta.is_dir() {
        return Err(refuse("not a directory"));
    }
    root.canonicalize()
        .map(Some)
        .map_err(|e| refuse(&describe(&e)))
}
