# Helpers the bench scripts share. Source it from a script run at the
# repository's root: . bench/lib.sh

# The median of the numbers on stdin (separated by spaces or newlines);
# "-" (no figure) and empty fields are left out.
median() { tr ' ' '\n' | grep -v '^-\?$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# commit_label TABLE...: HEAD's short commit, with +dirty when the tree
# differs from it anywhere but the TABLEs (the sitting's own tables, given
# relative to the repository's root).
commit_label() {
    local keep=() t
    for t in "$@"; do keep+=(":!$t"); done
    echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . "${keep[@]}" || echo +dirty)"
}

# For a LABEL=DIR word of BINS: its label, and its directory made absolute.
bin_label() { echo "${1%%=*}"; }
bin_dir() { (cd "${1#*=}" && pwd); }

# sitting_args SCRIPT ARGS...: the arguments of a script that reads a
# realbugs sitting (OUT, whose runs are in OUT/runs, and its RESULTS.tsv);
# a one-line error naming SCRIPT and exit 2 when they are not that.
sitting_args() {
    local script=$1
    shift
    [ $# -eq 2 ] || { echo "usage: $script OUT RESULTS.tsv" >&2; exit 2; }
    [ -d "$1/runs" ] || { echo "$script: no runs in $1/runs" >&2; exit 2; }
    [ -f "$2" ] || { echo "$script: no such table: $2" >&2; exit 2; }
}

# build_label ROOT [FUZZ_BIN]: what a sitting's rows say fuzz-run was built
# from. With FUZZ_BIN: that directory, relative to the repository when it
# is inside (a path of this machine is no record), at the commit checked
# out; without: the commit, and whether tracked files differ from it.
build_label() {
    local root=$1 head
    head="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
    if [ -n "${2:-}" ]; then
        echo "FUZZ_BIN=${2#"$root"/} at git $head"
    elif [ -z "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        echo "git $head"
    else
        echo "git $head + uncommitted changes"
    fi
}
