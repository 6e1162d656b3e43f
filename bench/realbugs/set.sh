# Sourced by build.sh, run.sh, check.sh and report.sh after they set HERE:
# SETDIR is the bug set they work on. SET empty (the default): the twelve
# bugs of README.md (bugs/, bugs.tsv); SET=heldout: the held-out bugs of
# HELDOUT.md (heldout/bugs/, heldout/bugs.tsv); SET=text: the text parsers
# of TEXT.md (text/bugs/, text/bugs.tsv).
case ${SET:-} in
"") SETDIR=$HERE ;;
heldout) SETDIR=$HERE/heldout ;;
text) SETDIR=$HERE/text ;;
*)
    echo "bench/realbugs: SET is empty, heldout or text, not '$SET'" >&2
    exit 2
    ;;
esac
