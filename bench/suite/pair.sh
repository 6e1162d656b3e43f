#!/usr/bin/env bash
# The suite's fuzz-run-sync2 engine: two fuzz-run instances sharing one
# -sync directory, as two machines of a fleet would.
#
#   pair.sh SYNC_DIR FUZZ-RUN [ARGS...] LIB.so
#
# Each instance gets -sync SYNC_DIR -sync_id i -sync_interval 10s and a
# cache of its own (the -fuzzcachedir in ARGS, plus /i); their -json lines
# go to standard output as they come (one write per line), their progress
# to standard error. Exits with the larger of their statuses; SIGTERM and
# SIGINT are passed on to both.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: pair.sh SYNC_DIR FUZZ-RUN [ARGS...] LIB.so" >&2; exit 2; }
sync=$1
shift
pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null || true' TERM INT
for i in 0 1; do
    args=()
    next_is_cache=0
    for a in "$@"; do
        if [ "$next_is_cache" = 1 ]; then a="$a/$i" next_is_cache=0; fi
        [ "$a" != -fuzzcachedir ] || next_is_cache=1
        args+=("$a")
    done
    last=${args[-1]}
    unset 'args[-1]'
    "${args[@]}" -sync "$sync" -sync_id "$i" -sync_interval 10s "$last" &
    pids+=("$!")
done
status=0
for p in "${pids[@]}"; do
    rc=0
    while :; do
        wait "$p" && break || rc=$?
        # A trap ran (wait returned early, status > 128): wait again.
        kill -0 "$p" 2>/dev/null || break
    done
    [ "$rc" -le "$status" ] || status=$rc
done
exit "$status"
