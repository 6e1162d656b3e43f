//! A Go package's or a Rust crate's directory where a tool takes a library
//! (`fuzz-run -fuzz FuzzParse .`): built with fuzz-build, whose library
//! then stands for it, and whose directory is where the targets run (as
//! go test runs a package's tests: they read testdata/ from there).

use crate::CliError;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A package directory given as the library operand.
#[derive(Clone, Debug)]
pub struct Package {
    /// The directory as it was given (`.`), for what is shown: seed files
    /// are under `<operand>/testdata`, and a re-run line names it.
    pub operand: PathBuf,
    /// Its canonical path: the working directory of the workers.
    pub dir: PathBuf,
    /// The library fuzz-build made of it.
    pub lib: PathBuf,
}

/// When `operand` is a directory, builds it with fuzz-build (whose
/// progress and errors go to stderr) and says where the library is; None
/// for anything else (a library, or a path that is not there: the caller
/// reports it).
pub fn build(operand: &Path) -> Result<Option<Package>, CliError> {
    if !operand.is_dir() {
        return Ok(None);
    }
    let shown = crate::io::display(operand);
    let dir = std::fs::canonicalize(operand).map_err(|e| CliError::io(operand, &e))?;
    let tool = crate::find_worker::tool("fuzz-build", "FUZZ_BUILD")?;
    let out = Command::new(&tool)
        .arg("--")
        .arg(&dir)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| {
            CliError::misuse(format!(
                "cannot run {}: {}",
                tool.display(),
                fuzz_core::error::describe(&e)
            ))
        })?;
    if !out.status.success() {
        return Err(CliError::misuse(format!(
            "{shown}: cannot build it into a library (fuzz-build's error above)"
        )));
    }
    let lib = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if lib.is_empty() {
        return Err(CliError::misuse(format!(
            "{shown}: fuzz-build printed no library path"
        )));
    }
    Ok(Some(Package {
        operand: operand.to_path_buf(),
        dir,
        lib: PathBuf::from(lib),
    }))
}
