//! The AddressSanitizer runtime a library may need before anything else
//! of its own runs: whether it does, where the runtime is, and the
//! environment a worker of it runs in.
//!
//! A library built with `-fsanitize=address -shared-libasan` calls
//! `__asan_init` and leaves it to the process to have the runtime
//! (`libclang_rt.asan-x86_64.so`) loaded first, which only `LD_PRELOAD`
//! does for a library that is dlopened. fuzz-worker re-executes itself
//! with [`preload`]'s environment when it finds it lacks it; a tool that
//! starts a worker gives the worker that environment from the start
//! ([`worker_env`], [`serve_env`]): one start of the worker instead of
//! two, the first execution sooner. One definition for both sides, here
//! with the tools' conventions (fuzz-core reads no environment).

pub use fuzz_core::worker::client::EnvVar;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Set in a worker's environment once the runtime is preloaded.
pub const MARKER: &str = "FUZZ_WORKER_SANITIZER_PRELOADED";

/// The shared runtime's file name, as clang-19 installs it.
pub const ASAN_RUNTIME: &str = "libclang_rt.asan-x86_64.so";

/// The symbol a library built with AddressSanitizer calls and leaves
/// undefined.
pub const ASAN_INIT: &str = "__asan_init";

/// The environment a worker of `lib` needs beyond this process's: `None`
/// when it needs nothing (no AddressSanitizer, the runtime preloaded
/// already, or a file that is no library: the worker says what is wrong
/// with it); an error when it needs the runtime and it cannot be found.
/// `runtime` is `-sanitizer-runtime`, else clang-19's is looked for.
pub fn preload(lib: &Path, runtime: Option<&Path>) -> Result<Option<Vec<EnvVar>>, String> {
    if std::env::var_os(MARKER).is_some() || !needs_runtime(lib) {
        return Ok(None);
    }
    let runtime = match runtime {
        Some(p) => p.to_path_buf(),
        None => find_runtime().ok_or_else(|| {
            format!(
                "the library was built with AddressSanitizer and needs {ASAN_RUNTIME}: \
                 install clang-19, or pass -sanitizer-runtime PATH"
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
    let mut env = vec![
        ("LD_PRELOAD".into(), preload),
        ("ASAN_OPTIONS".into(), asan),
        (MARKER.into(), "1".into()),
    ];
    if std::env::var_os("ASAN_SYMBOLIZER_PATH").is_none() {
        if let Some(sym) = find_symbolizer() {
            env.push(("ASAN_SYMBOLIZER_PATH".into(), sym.into()));
        }
    }
    Ok(Some(env))
}

/// [`preload`]'s environment, or none when it fails: for a tool starting
/// a worker, which then reports the failure itself, in its own words.
pub fn worker_env(lib: &Path, runtime: Option<&Path>) -> Vec<EnvVar> {
    preload(lib, runtime).ok().flatten().unwrap_or_default()
}

/// [`worker_env`] for a `serve` worker: its library's, else its
/// comparison build's (`-cmp_lib`), which it loads too.
pub fn serve_env(serve: &fuzz_core::worker::serve_args::ServeArgs) -> Vec<EnvVar> {
    let runtime = serve.sanitizer_runtime.as_deref();
    let env = worker_env(&serve.lib, runtime);
    match &serve.cmp_lib {
        Some(cmp) if env.is_empty() => worker_env(cmp, runtime),
        _ => env,
    }
}

/// Whether `lib`, a regular file, is an ELF shared object that leaves
/// [`ASAN_INIT`] undefined. Anything else is `false`: a FIFO or a device
/// is not opened (it could block or never end).
pub fn needs_runtime(lib: &Path) -> bool {
    use object::{Object, ObjectSymbol};
    if !std::fs::metadata(lib).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = std::fs::File::open(lib) else {
        return false;
    };
    // SAFETY: a read-only map, parsed and dropped here; a library changed
    // in place meanwhile gives a wrong answer, which the worker's own
    // look at the library then corrects (its load fails, and says why).
    let Ok(map) = (unsafe { memmap2::Mmap::map(&file) }) else {
        return false;
    };
    let Ok(elf) = object::File::parse(&*map) else {
        return false;
    };
    elf.dynamic_symbols()
        .any(|s| s.is_undefined() && s.name() == Ok(ASAN_INIT))
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

    /// A shared object clang-19 builds in `dir` from `code`, with `flags`.
    fn built(dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
        let src = dir.join(format!("{name}.c"));
        std::fs::write(&src, "int f(int *p, int i) { return p[i]; }\n").unwrap();
        let lib = dir.join(format!("lib{name}.so"));
        let status = std::process::Command::new("clang-19")
            .args(["-shared", "-fPIC", "-O1"])
            .args(flags)
            .arg("-o")
            .arg(&lib)
            .arg(&src)
            .status()
            .expect("clang-19 runs (apt-get install clang-19)");
        assert!(status.success());
        lib
    }

    #[test]
    fn a_library_built_with_asan_is_given_the_runtime_first() {
        let dir = tempfile::tempdir().unwrap();
        let asan = built(
            dir.path(),
            "asan",
            &["-fsanitize=address", "-shared-libasan"],
        );
        let plain = built(dir.path(), "plain", &[]);
        assert!(needs_runtime(&asan));
        assert!(!needs_runtime(&plain));
        assert_eq!(preload(&plain, None), Ok(None));
        let env = preload(&asan, None)
            .unwrap()
            .expect("the runtime is needed");
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let first = get("LD_PRELOAD").unwrap();
        let first = std::env::split_paths(&first).next().unwrap();
        assert!(
            first.ends_with(ASAN_RUNTIME) && first.is_file(),
            "{}",
            first.display()
        );
        assert!(get("ASAN_OPTIONS")
            .unwrap()
            .to_string_lossy()
            .starts_with("abort_on_error=1:"));
        assert_eq!(get(MARKER).as_deref(), Some(std::ffi::OsStr::new("1")));
        assert_eq!(worker_env(&asan, None), env);
        let missing = dir.path().join("no-runtime.so");
        let err = preload(&asan, Some(&missing)).unwrap_err();
        assert!(
            err.contains("no-runtime.so does not exist (-sanitizer-runtime)"),
            "{err}"
        );
        assert!(worker_env(&asan, Some(&missing)).is_empty());
    }

    #[test]
    fn what_is_no_library_needs_no_runtime() {
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("text");
        std::fs::write(&text, "not an ELF file").unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        for path in [
            &text,
            &fifo,
            &dir.path().to_path_buf(),
            &dir.path().join("none"),
        ] {
            assert!(!needs_runtime(path), "{}", path.display());
            assert_eq!(preload(path, None), Ok(None));
            assert!(worker_env(path, None).is_empty());
        }
        // This test's own executable is ELF, without AddressSanitizer.
        assert!(!needs_runtime(&std::env::current_exe().unwrap()));
    }
}
