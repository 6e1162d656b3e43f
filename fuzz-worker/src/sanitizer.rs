//! Libraries built with `-fsanitize=address -shared-libasan` need the
//! sanitizer runtime loaded before anything else. fuzz-worker finds it
//! (`-sanitizer-runtime PATH`, else in clang-19's resource directory, else
//! asks `clang-19 -print-file-name=…`)
//! and re-executes itself with the runtime in `LD_PRELOAD`.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

const MARKER: &str = "FUZZ_WORKER_SANITIZER_PRELOADED";
const ASAN_RUNTIME: &str = "libclang_rt.asan-x86_64.so";

/// If `lib` needs the ASan runtime and this process does not have it yet,
/// re-executes the worker with it preloaded (and does not return).
/// Returns an error when the runtime cannot be found or executed.
pub fn ensure_runtime(lib: &Path, runtime: Option<&Path>) -> Result<(), String> {
    let Ok(info) = crate::library::inspect(lib) else {
        return Ok(()); // Library::open reports what is wrong with it
    };
    if !info.needs_asan || std::env::var_os(MARKER).is_some() {
        return Ok(());
    }
    let runtime = match runtime {
        Some(p) => p.to_path_buf(),
        None => find_runtime().ok_or_else(|| {
            format!(
                "the library was built with AddressSanitizer and needs {ASAN_RUNTIME}: install clang-19, or pass -sanitizer-runtime PATH"
            )
        })?,
    };
    if !runtime.is_file() {
        return Err(format!(
            "sanitizer runtime {} does not exist (-sanitizer-runtime)",
            runtime.display()
        ));
    }
    let mut preload = OsString::from(&runtime);
    if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|v| !v.is_empty()) {
        preload.push(":");
        preload.push(old);
    }
    let mut asan = OsString::from("abort_on_error=1:detect_leaks=0:");
    if let Some(user) = std::env::var_os("ASAN_OPTIONS") {
        asan.push(user);
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot re-execute: {e}"))?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(std::env::args_os().skip(1))
        .env("LD_PRELOAD", preload)
        .env("ASAN_OPTIONS", asan)
        .env(MARKER, "1");
    if std::env::var_os("ASAN_SYMBOLIZER_PATH").is_none() {
        if let Some(sym) = find_symbolizer() {
            cmd.env("ASAN_SYMBOLIZER_PATH", sym);
        }
    }
    let err = cmd.exec();
    Err(format!(
        "cannot re-execute with the sanitizer runtime: {err}"
    ))
}

fn find_runtime() -> Option<PathBuf> {
    for clang in ["clang-19", "clang"] {
        if let Some(path) = runtime_beside(clang).or_else(|| ask_clang(clang)) {
            return Some(path);
        }
    }
    None
}

/// The runtime `clang -print-file-name` names, if it is a file.
fn ask_clang(clang: &str) -> Option<PathBuf> {
    let out = std::process::Command::new(clang)
        .arg(format!("-print-file-name={ASAN_RUNTIME}"))
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (out.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}

/// The runtime where `clang` itself looks for it, without starting clang
/// (which costs a tenth of a second or more, at every worker start): in
/// its resource directory, `<prefix>/lib/clang/<version>/lib/linux/`,
/// `<prefix>/bin` holding the real binary the name on `PATH` leads to.
fn runtime_beside(clang: &str) -> Option<PathBuf> {
    let on_path = std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(clang))
        .find(|p| p.is_file())?;
    let prefix = std::fs::canonicalize(on_path)
        .ok()?
        .parent()?
        .parent()?
        .to_path_buf();
    let mut versions: Vec<PathBuf> = std::fs::read_dir(prefix.join("lib/clang"))
        .ok()?
        .flatten()
        .map(|v| v.path())
        .collect();
    versions.sort();
    versions
        .into_iter()
        .rev()
        .map(|v| v.join("lib/linux").join(ASAN_RUNTIME))
        .find(|p| p.is_file())
}

fn find_symbolizer() -> Option<PathBuf> {
    [
        "/usr/lib/llvm-19/bin/llvm-symbolizer",
        "/usr/bin/llvm-symbolizer-19",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_found_beside_clang_is_the_one_clang_names() {
        let named = ask_clang("clang-19")
            .expect("clang-19 names no ASan runtime (apt-get install clang-19 libclang-rt-19-dev)");
        let found = runtime_beside("clang-19").expect("found without starting clang");
        assert_eq!(
            std::fs::canonicalize(found).unwrap(),
            std::fs::canonicalize(named).unwrap()
        );
        assert_eq!(runtime_beside("no-such-clang-anywhere"), None);
    }
}
