//! A Rust crate's library, built by cargo as an instrumented cdylib.
//!
//! Every crate of the build is instrumented with SanitizerCoverage (the
//! sancov-module pass, as ARCHITECTURE.md's "Targets" gives it), and cargo
//! is given the host's triple (`--target`), so that RUSTFLAGS reach only
//! what runs in the library, never a build script or a proc-macro, which
//! would then fail to link. `cargo rustc --crate-type cdylib` makes the
//! library whatever crate types the crate declares. cargo's target
//! directory is kept in the cache entry, and cargo's own freshness check
//! decides what is rebuilt; the library is copied to the entry's stable
//! path only when its bytes changed.

use crate::cache;
use crate::command::run;
use fuzz_cli::CliError;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The SanitizerCoverage options: edge counters, the PC table, and, but
/// for `-fast`, comparison tracing.
fn rustflags(fast: bool) -> String {
    let mut options = vec!["inline-8bit-counters", "pc-table"];
    if !fast {
        options.push("trace-compares");
    }
    let mut flags = String::from("-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3");
    for o in options {
        flags.push_str(&format!(" -Cllvm-args=-sanitizer-coverage-{o}"));
    }
    flags
}

/// What `cargo metadata --no-deps` says, of what matters here.
#[derive(Deserialize)]
struct Metadata {
    packages: Vec<Package>,
}

#[derive(Deserialize)]
struct Package {
    id: String,
    name: String,
    manifest_path: PathBuf,
    targets: Vec<Target>,
}

#[derive(Deserialize)]
struct Target {
    name: String,
    kind: Vec<String>,
}

/// One line of cargo's `--message-format json`, of what matters here.
#[derive(Deserialize)]
struct Message {
    reason: String,
    #[serde(default)]
    package_id: String,
    #[serde(default)]
    filenames: Vec<PathBuf>,
}

/// Builds the crate in `dir` (canonical, holding a Cargo.toml) into a
/// library in the cache `root` and returns its path.
pub fn build(
    dir: &Path,
    shown: &str,
    root: &Path,
    fast: bool,
    verbose: bool,
) -> Result<PathBuf, CliError> {
    let manifest = dir.join("Cargo.toml");
    let package = package_of(&manifest, shown, verbose)?;
    let lib = package
        .targets
        .iter()
        .find(|t| t.kind.iter().any(|k| LIB_KINDS.contains(&k.as_str())))
        .ok_or_else(|| {
            CliError::misuse(format!(
                "{shown}: the crate {} has no library (its fuzz targets go in src/lib.rs)",
                package.name
            ))
        })?;
    let name = lib.name.replace('-', "_");
    let identity = format!(
        "rust\0{}\0{}",
        dir.display(),
        if fast { "fast" } else { "" }
    );
    let entry = cache::Entry::open(root, identity.as_bytes(), &name)?;
    let built = cargo_build(&manifest, &entry, &package.id, fast, verbose, shown)?;
    if entry.install_copy(&built)? {
        eprintln!(
            "fuzz-build: built {} (Rust, {}) with cargo",
            package.name,
            if fast {
                "-fast"
            } else {
                "with comparison tracing"
            }
        );
    }
    Ok(entry.library())
}

/// The crate types that make a library of the crate's lib target.
const LIB_KINDS: [&str; 6] = ["lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro"];

/// The package whose manifest is `manifest` (a workspace's root manifest
/// without a package of its own is not a crate).
fn package_of(manifest: &Path, shown: &str, verbose: bool) -> Result<Package, CliError> {
    let mut cmd = cargo();
    cmd.args([
        "metadata",
        "--no-deps",
        "--format-version",
        "1",
        "--manifest-path",
    ])
    .arg(manifest);
    let out = run(&mut cmd, verbose, "install Rust: https://rustup.rs")?;
    if !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        return Err(CliError::misuse(format!(
            "{shown}: cargo cannot read the crate's Cargo.toml (cargo's error above)"
        )));
    }
    let meta: Metadata = serde_json::from_slice(&out.stdout)
        .map_err(|e| CliError::misuse(format!("{shown}: cargo metadata said: {e}")))?;
    meta.packages
        .into_iter()
        .find(|p| p.manifest_path == manifest)
        .ok_or_else(|| {
            CliError::misuse(format!(
                "{shown}: a workspace, not a crate: give the directory of the crate to build"
            ))
        })
}

/// Runs cargo rustc for the package `id` and returns the cdylib it made.
fn cargo_build(
    manifest: &Path,
    entry: &cache::Entry,
    id: &str,
    fast: bool,
    verbose: bool,
    shown: &str,
) -> Result<PathBuf, CliError> {
    let host = host_triple(verbose)?;
    let mut flags = rustflags(fast);
    if let Some(user) = std::env::var("RUSTFLAGS")
        .ok()
        .filter(|f| !f.trim().is_empty())
    {
        flags.push(' ');
        flags.push_str(&user);
    }
    let mut cmd = cargo();
    cmd.args(["rustc", "--release", "--lib", "--crate-type", "cdylib"])
        .args([
            "--message-format",
            "json-render-diagnostics",
            "--target",
            &host,
        ])
        .arg("--target-dir")
        .arg(entry.dir().join("cargo"))
        .arg("--manifest-path")
        .arg(manifest)
        .env("RUSTFLAGS", &flags)
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    if verbose {
        eprintln!("fuzz-build: RUSTFLAGS={flags}");
    }
    let out = run(&mut cmd, verbose, "install Rust: https://rustup.rs")?;
    if verbose || !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
    }
    if !out.status.success() {
        return Err(CliError::misuse(format!(
            "{shown}: the crate does not build as a fuzzing library (cargo's errors above)"
        )));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Message>(l).ok())
        .filter(|m| m.reason == "compiler-artifact" && m.package_id == id)
        .flat_map(|m| m.filenames)
        .find(|f| f.extension().is_some_and(|e| e == "so"))
        .ok_or_else(|| CliError::misuse(format!("{shown}: cargo made no shared library")))
}

/// The host's target triple, as rustc says it.
fn host_triple(verbose: bool) -> Result<String, CliError> {
    let mut cmd = Command::new("rustc");
    cmd.arg("-vV");
    let out = run(&mut cmd, verbose, "install Rust: https://rustup.rs")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| CliError::misuse("rustc -vV does not say the host's triple"))
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_leaves_out_comparison_tracing_only() {
        let full = rustflags(false);
        let fast = rustflags(true);
        assert!(full.contains("-sanitizer-coverage-trace-compares"));
        assert!(!fast.contains("trace-compares"));
        for both in [&full, &fast] {
            assert!(both.contains("-Cpasses=sancov-module"));
            assert!(both.contains("-sanitizer-coverage-inline-8bit-counters"));
            assert!(both.contains("-sanitizer-coverage-pc-table"));
        }
    }
}
