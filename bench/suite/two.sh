#!/usr/bin/env bash
# The suite's two-CPU engines: two instances of one command at once, as two
# machines of a fleet (or a peer's own parallel mode) would run them.
#
#   two.sh ROLE0 ROLE1 -- COMMAND [ARGS...]
#
# Instance i (0 or 1) runs COMMAND ARGS with every "{i}" in an argument
# replaced by i, and an argument "{role}" replaced by the words of ROLEi
# (split at spaces; nothing when ROLEi is empty). For example
#
#   two.sh "" "" -- fuzz-run ... -fuzzcachedir c/{i} -sync s -sync_id {i} lib.so
#   two.sh "-M main" "-S second" -- afl-fuzz {role} -o out ... -- ./target
#
# Both write to this script's standard output and error as they go. Exits
# with the larger of their statuses; SIGTERM and SIGINT are passed on to
# both.
set -euo pipefail
[ $# -ge 4 ] && [ "$3" = -- ] || { echo "usage: two.sh ROLE0 ROLE1 -- COMMAND [ARGS...]" >&2; exit 2; }
roles=("$1" "$2")
shift 3
pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null || true' TERM INT
for i in 0 1; do
    args=()
    for a in "$@"; do
        if [ "$a" = "{role}" ]; then
            read -r -a words <<<"${roles[$i]}"
            args+=("${words[@]}")
        else
            args+=("${a//\{i\}/$i}")
        fi
    done
    "${args[@]}" &
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
