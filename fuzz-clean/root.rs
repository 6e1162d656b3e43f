//! Finding the cache directory and deciding whether it is safe to clean.
//!
//! The root comes from `-fuzzcachedir` or the environment, either of which
//! can be mistyped; a cleaner pointed at `/` or `$HOME` would be a disaster,
//! so those, and anything that is not a directory, are refused before a
//! single file is looked at.

use fuzz_cli::CliError;
use fuzz_core::cache::CacheEnv;
use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The cache directory to clean.
pub enum Root {
    /// An existing directory, canonicalized.
    Dir(PathBuf),
    /// Nothing there: nothing to remove.
    Missing(PathBuf),
}

/// Reads the cache location the way DESIGN.md orders it, from the flag and
/// this process's environment, and vets it.
pub fn locate(flag: Option<&Path>) -> Result<Root, CliError> {
    let env = CacheEnv {
        flag: flag.map(Path::to_path_buf),
        fuzzcache: std::env::var_os("FUZZCACHE"),
        xdg_cache_home: std::env::var_os("XDG_CACHE_HOME"),
        home: std::env::var_os("HOME"),
    };
    let source = source_of(&env);
    let root = env.root()?;
    if root.as_os_str().is_empty() {
        return Err(CliError::misuse(format!(
            "{source}: empty cache directory path"
        )));
    }
    vet(&root, env.home.as_ref(), source)
}

/// Which setting the root came from, for messages.
fn source_of(env: &CacheEnv) -> &'static str {
    let set = |v: &Option<OsString>| v.as_ref().is_some_and(|s| !s.is_empty());
    if env.flag.is_some() {
        "-fuzzcachedir"
    } else if set(&env.fuzzcache) {
        "$FUZZCACHE"
    } else if set(&env.xdg_cache_home) {
        "$XDG_CACHE_HOME"
    } else {
        "$HOME"
    }
}

/// Refuses a root that is not a directory, is `/`, is `$HOME` or holds it.
/// A symbolic link to a directory is resolved once.
fn vet(root: &Path, home: Option<&OsString>, source: &str) -> Result<Root, CliError> {
    let shown = root.display();
    let refuse =
        |why: &str| CliError::misuse(format!("refusing to clean {shown} ({source}): {why}"));
    let meta = match root.symlink_metadata() {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Root::Missing(root.into())),
        Err(e) => {
            return Err(CliError::misuse(format!(
                "{shown} ({source}): {}",
                fuzz_core::error::describe(&e)
            )))
        }
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
                    fuzz_core::error::describe(&e)
                )))
            }
        }
    } else if !meta.is_dir() {
        return Err(refuse("not a directory"));
    }
    let canon = root.canonicalize().map_err(|e| {
        CliError::misuse(format!(
            "{shown} ({source}): {}",
            fuzz_core::error::describe(&e)
        ))
    })?;
    if canon.parent().is_none() {
        return Err(refuse("it is the root directory"));
    }
    if let Some(home) = home.filter(|h| !h.is_empty()) {
        let home = Path::new(home);
        let home = home.canonicalize().unwrap_or_else(|_| home.to_path_buf());
        if home == canon {
            return Err(refuse("it is $HOME"));
        }
        if home.starts_with(&canon) {
            return Err(refuse("it holds $HOME"));
        }
    }
    Ok(Root::Dir(canon))
}
