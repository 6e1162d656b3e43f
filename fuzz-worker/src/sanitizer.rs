//! Libraries built with `-fsanitize=address -shared-libasan` need the
//! sanitizer runtime loaded before anything else. A worker started
//! without it (by hand, or by a tool that did not know) re-executes itself
//! with it preloaded, in the environment `fuzz_cli::sanitizer`
//! defines for the tools and the worker alike.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;

/// If `lib` needs the ASan runtime and this process does not have it yet,
/// re-executes the worker with it preloaded (and does not return).
/// Returns an error when the runtime cannot be found or executed.
pub fn ensure_runtime(lib: &Path, runtime: Option<&Path>) -> Result<(), String> {
    ensure_runtime_as(lib, runtime, std::env::args_os().skip(1).collect())
}

/// [`ensure_runtime`], re-executing with `args` rather than this
/// process's own (a spare worker told what to serve goes on as a worker
/// started with that).
pub fn ensure_runtime_as(
    lib: &Path,
    runtime: Option<&Path>,
    args: Vec<OsString>,
) -> Result<(), String> {
    let Some(env) = fuzz_cli::sanitizer::preload(lib, runtime)? else {
        return Ok(());
    };
    let exe = std::env::current_exe().map_err(|e| format!("cannot re-execute: {e}"))?;
    let err = std::process::Command::new(exe).args(args).envs(env).exec();
    Err(format!(
        "cannot re-execute with the sanitizer runtime: {err}"
    ))
}
