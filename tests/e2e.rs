//! End-to-end tests: they drive the real binaries (and, where the test says
//! so, real compilers and a real Go toolchain). One module per area.
// A test is one scenario, read top to bottom: the 100-line rule of
// Cargo.toml's lints is for the tools, not for these.
#![allow(clippy::too_many_lines)]

#[path = "e2e/common.rs"]
mod common;
/// A fuzzing test's working directory, with its own cache.
#[path = "e2e/work.rs"]
mod work;

/// fuzz-build for Rust crates and C/C++ files.
#[path = "e2e/build_native.rs"]
mod build_native;
/// fuzz-clean: the generated corpus cache.
#[path = "e2e/clean.rs"]
mod clean;
/// Argument spelling, help, version, exit codes shared by every tool.
#[path = "e2e/cli.rs"]
mod cli;
/// fuzz-convert: raw bytes <-> v1, AFL and libFuzzer import, export.
#[path = "e2e/convert.rs"]
mod convert;
/// fuzz-corpus: list, check, fmt, merge.
#[path = "e2e/corpus.rs"]
mod corpus;
/// fuzz-corpus cover: a corpus's coverage of a library, listed and drawn.
#[path = "e2e/cover.rs"]
mod cover;
/// fuzz-corpus cover's source view: lines marked on the page (as written
/// and as Chromium renders it), -lines, -diff.
#[path = "e2e/cover_lines.rs"]
mod cover_lines;
/// fuzz-corpus cover's line marks against llvm-cov's line counts, at
/// -O0, -O1 and -O2.
#[path = "e2e/cover_llvm.rs"]
mod cover_llvm;
/// Custom mutators: libFuzzer's, and self-mutating custom values.
#[path = "e2e/custom.rs"]
mod custom;
/// Faults in and around a run: kills, full disks, targets that misbehave.
#[path = "e2e/faults.rs"]
mod faults;
/// Go's own fuzz tests, built by fuzz-build and run by fuzz-run.
#[path = "e2e/go_fuzz.rs"]
mod go_fuzz;
/// Go's `go test` replays corpora our tools wrote.
#[path = "e2e/go_interop.rs"]
mod go_interop;
/// Differential test of the codec against Go's own reader and writer.
#[path = "e2e/go_oracle.rs"]
mod go_oracle;
/// Limits, hangs and signals the same in every tool.
#[path = "e2e/limits.rs"]
mod limits;
/// The man pages in man/ are what the clap definitions render.
#[path = "e2e/man_pages.rs"]
mod man_pages;
/// Every tool's verdict the same with its stdout closed early.
#[path = "e2e/matrix.rs"]
mod matrix;
/// fuzz-minimize and coverage-aware fuzz-corpus merge.
#[path = "e2e/minimize.rs"]
mod minimize;
/// Operands and outputs checked before any work or write, in our words.
#[path = "e2e/operands.rs"]
mod operands;
/// fuzz-run fuzzing the example targets.
#[path = "e2e/run_fuzz.rs"]
mod run_fuzz;
/// fuzz-run with -fuzz matching several targets, which take turns.
#[path = "e2e/run_multi.rs"]
mod run_multi;
/// fuzz-run without -fuzz: seed corpus replay, reported like plain `go test`.
#[path = "e2e/run_regress.rs"]
mod run_regress;
/// The Kubernetes and GitHub Actions examples against the Slurm scripts.
#[path = "e2e/schedulers.rs"]
mod schedulers;
/// The search beyond Go's: rarity scheduling and splicing.
#[path = "e2e/search.rs"]
mod search;
/// fuzz-run -sync as a Slurm job array on a real one-node cluster.
#[path = "e2e/slurm.rs"]
mod slurm;
/// A -sync directory no file in it can hurt, and no finding lost.
#[path = "e2e/sync_dir.rs"]
mod sync_dir;
/// The codec against every vector Go produced.
#[path = "e2e/vectors.rs"]
mod vectors;
/// fuzz-worker: list, run and bench against the example targets.
#[path = "e2e/worker.rs"]
mod worker;
