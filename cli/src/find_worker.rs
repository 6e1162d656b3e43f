//! Finding the `fuzz-worker` executable, for the tools that run targets
//! (only fuzz-worker loads them), and our other tools one of them runs
//! (fuzz-build): `$FUZZ_WORKER` (`$FUZZ_BUILD`) if set, else the one beside
//! the running executable, else the one on `PATH`.

use crate::CliError;
use std::path::{Path, PathBuf};

/// The fuzz-worker to start.
pub fn path() -> Result<PathBuf, CliError> {
    tool("fuzz-worker", "FUZZ_WORKER")
}

/// Our tool `name` to run, or the file the variable `var` names.
pub fn tool(name: &str, var: &str) -> Result<PathBuf, CliError> {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Ok(p);
        }
        return Err(CliError::misuse(format!(
            "{var}={} is not a file",
            fuzz_core::error::shown(&p)
        )));
    }
    if let Some(beside) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join(name)))
        .filter(|p| p.is_file())
    {
        return Ok(beside);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join(name);
            if is_executable(&p) {
                return Ok(p);
            }
        }
    }
    Err(CliError::misuse(format!(
        "cannot find {name}: install it beside this tool or on PATH, or set {var}"
    )))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}
