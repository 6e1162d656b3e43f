//! Scratch directories of the tools that start workers (shared memory
//! files, stderr captures): in /dev/shm where there is one, named for
//! their owner (`fuzz_core::store::fsutil::temp_dir`), so that one left by
//! a tool killed with SIGKILL is removed by the next start of any tool.

use crate::CliError;
use fuzz_core::store::fsutil;
use std::path::Path;

/// Every scratch directory of every tool starts with this.
const BASE: &str = "fuzz-tools-";

/// A fresh scratch directory, removed when dropped; first removes those
/// that dead tools left.
pub fn dir() -> Result<tempfile::TempDir, CliError> {
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    fsutil::sweep(&base, BASE);
    fsutil::temp_dir(&base, BASE)
        .or_else(|_| fsutil::temp_dir(&std::env::temp_dir(), BASE))
        .map_err(|e| {
            CliError::misuse(format!(
                "cannot create a scratch directory in {}: {}",
                fuzz_core::error::shown(&base),
                fuzz_core::error::describe(&e)
            ))
        })
}
