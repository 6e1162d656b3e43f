//! The `fuzz-build` binary. Its whole work is in this crate's library (lib.rs);
//! the workspace's root package builds this file, so that the end-to-end
//! tests in tests/ reach every binary (see the root Cargo.toml).

fn main() -> std::process::ExitCode {
    fuzz_build::main()
}
