//! Finding the `fuzz-worker` executable, for the tools that run targets
//! (only fuzz-worker loads them): `$FUZZ_WORKER` if set, else the one
//! beside the running executable, else the one on `PATH`.

use crate::CliError;
use std::path::{Path, PathBuf};

/// The fuzz-worker to start.
pub fn path() -> Result<PathBuf, CliError> {
    if let Some(p) = std::env::var_os("FUZZ_WORKER").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Ok(p);
        }
        return Err(CliError::misuse(format!(
            "FUZZ_WORKER={} is not a file",
            fuzz_core::error::shown(&p)
        )));
    }
    if let Some(beside) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("fuzz-worker")))
        .filter(|p| p.is_file())
    {
        return Ok(beside);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join("fuzz-worker");
            if is_executable(&p) {
                return Ok(p);
            }
        }
    }
    Err(CliError::misuse(
        "cannot find fuzz-worker: install it beside this tool or on PATH, or set FUZZ_WORKER",
    ))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}
