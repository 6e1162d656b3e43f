# Sourced by build.sh, run.sh, check.sh and report.sh after they set HERE:
# SETDIR is the bug set they work on. SET empty (the default): the twelve
# bugs of README.md (bugs/, bugs.tsv); SET=heldout: the held-out bugs of
# HELDOUT.md (heldout/bugs/, heldout/bugs.tsv).
case ${SET:-} in
"") SETDIR=$HERE ;;
heldout) SETDIR=$HERE/heldout ;;
*)
    echo "bench/realbugs: SET is empty or heldout, not '$SET'" >&2
    exit 2
    ;;
esac
