#!/bin/sh
# Prints the rustc flags that instrument a Rust target library with
# SanitizerCoverage as ARCHITECTURE.md ("Targets") describes: the sancov-module
# pass at level 3 (edges) with inline 8-bit counters, a PC table and
# comparison tracing. Every script that builds a Rust target takes them
# from here, so the recipe is written once.
#
#   RUSTFLAGS="$(examples/rustflags.sh)" \
#       cargo build --release --target "$(rustc -vV | sed -n 's/^host: //p')"
#   examples/rustflags.sh inline-8bit-counters pc-table   # without trace-compares
#
# Arguments, if any, replace the three -sanitizer-coverage-OPTION options
# (the pass and the level stay): the build without trace-compares that
# fuzz-run -cmp_lib pairs with the full one, or AFL++'s trace-pc-guard.
# Build with --target HOST: without it, RUSTFLAGS reach cargo's build
# scripts and proc-macros too, which then fail to link.
set -eu
[ $# -gt 0 ] || set -- inline-8bit-counters pc-table trace-compares
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3"
for option in "$@"; do
    flags="$flags -Cllvm-args=-sanitizer-coverage-$option"
done
printf '%s\n' "$flags"
