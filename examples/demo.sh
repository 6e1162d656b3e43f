#!/usr/bin/env bash
# The main job on the bundled examples: build the tools and the example
# targets, fuzz a target until it finds its planted bug, replay the crasher
# as go test would, see it pass on the fixed build, and shrink a bloated
# crasher with fuzz-minimize. Everything happens in a temporary directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

step() { printf '\n== %s\n' "$*" >&2; }

step "building the tools (release)"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
export PATH="$root/target/release:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
step "building the example targets into $work/lib"
"$here/build.sh" "$work/lib" >/dev/null
cd "$work"
export FUZZCACHE="$work/cache"

step "the targets of librust_typed.so"
fuzz-worker list lib/librust_typed.so

step "fuzzing FuzzRecord (a Rust target with a planted panic) until it fails"
status=0
fuzz-run -fuzz '^FuzzRecord$' -fuzztime 120s lib/librust_typed.so || status=$?
if [ "$status" -ne 1 ]; then
    echo "demo: expected fuzz-run to find the planted bug (exit 1), got exit $status" >&2
    exit 1
fi
crasher="$(find testdata/fuzz/FuzzRecord -type f | sort | head -n1)"

step "the crasher, a go test fuzz v1 file"
cat "$crasher"

step "regression mode replays it and fails, as go test does"
fuzz-run lib/librust_typed.so || true

step "the fixed build passes the same testdata"
mkdir -p fixed && cp lib/librust_typed_fixed.so fixed/librust_typed.so
fuzz-run fixed/librust_typed.so

step "fuzzing the C parser (gcc trace-pc build) until it crashes"
fuzz-run -fuzz c_parse_gcc -fuzztime 120s -parallel 2 lib/libc_parse_gcc.so || true

step "fuzz-minimize shrinks a 4 KB crasher to the bytes that matter"
{ printf 'TLVV\0'; head -c 4000 /dev/urandom; } > big
fuzz-minimize -raw lib/libc_parse_gcc.so big -o small
od -c small

if command -v go >/dev/null; then
    step "a Go package's own fuzz tests (examples/go), fuzzed as go test -fuzz fuzzes them"
    cp -r "$here/go" gopkg
    rm -rf gopkg/testdata
    fuzz-worker list "$(cd gopkg && fuzz-build)"
    status=0
    (cd gopkg && fuzz-run -fuzz '^FuzzQuote$' -fuzztime 120s .) || status=$?
    if [ "$status" -ne 1 ]; then
        echo "demo: expected fuzz-run to find FuzzQuote's planted bug (exit 1), got exit $status" >&2
        exit 1
    fi
    name="$(ls gopkg/testdata/fuzz/FuzzQuote)"
    step "go test reads the crasher fuzz-run wrote, and fails the same way"
    (cd gopkg && go test -run="FuzzQuote/$name" .) || true
else
    step "no go here: skipping the Go example (apt-get install golang-go)"
fi

echo "demo done: planted bugs found, replayed, fixed and minimized" >&2
