#!/usr/bin/env bash
# Runs every check the project holds itself to: formatting, clippy with
# warnings as errors, and the whole test suite (unit tests and the
# end-to-end tests in tests/, which drive the real binaries and a real Go
# toolchain).
set -euo pipefail
cd "$(dirname "$0")"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
