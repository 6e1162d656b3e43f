#!/usr/bin/env bash
# What one fuzz-run -sync round costs an instance as the shared directory
# grows (bench/sync_cost.rs does the work; its header says how): 64
# simulated instances fill DIR to each size, then one instance's round is
# timed, with its bytes read, when nothing new arrived and when 100 new
# entries did. Flat as DIR grows is the goal.
#
#   bench/sync-cost.sh [DIR [ENTRIES...]]   # default: bench/out/sync-cost, 1000 10000 100000
#   INSTANCES=1000 bench/sync-cost.sh       # the same with 1000 instances
#
# DIR should be on the filesystem to judge (the local disk here; an NFS
# mount to see a shared one). 10^6 entries take about 4 GB of disk blocks
# and a few minutes to write. The table goes to standard output.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
dir="${1:-$here/out/sync-cost}"
shift || true
mkdir -p "$dir"
cargo bench --quiet --manifest-path "$root/Cargo.toml" --bench sync_cost -- "$dir" "$@"
