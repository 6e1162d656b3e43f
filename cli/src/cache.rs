//! Where the corpus cache is, read from this process the same way in every
//! tool: the flag, the environment, and the working directory at start,
//! against which relative settings are resolved.

use crate::CliError;
use fuzz_core::store::cache::CacheEnv;
use std::path::Path;

/// The cache settings of this process, with `-fuzzcachedir` if given.
pub fn env(flag: Option<&Path>) -> Result<CacheEnv, CliError> {
    let cwd = std::env::current_dir().map_err(|e| {
        CliError::misuse(format!(
            "cannot read the working directory, against which the cache path is resolved: {}",
            fuzz_core::error::describe(&e)
        ))
    })?;
    Ok(CacheEnv {
        cwd,
        flag: flag.map(Path::to_path_buf),
        fuzzcache: std::env::var_os("FUZZCACHE"),
        xdg_cache_home: std::env::var_os("XDG_CACHE_HOME"),
        home: std::env::var_os("HOME"),
    })
}
