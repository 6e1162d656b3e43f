#!/usr/bin/env bash
# Fuzzes our own parsers with our own tools: builds fuzz/self (the v1
# codec, dictionaries, durations, type lists, the code-word and
# code-string scanners as typed targets) with the
# sancov flags and runs fuzz-run on each target for SECONDS (default 60),
# seeded with Go's hand-written vectors for the codec.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
secs="${1:-60}"
out="$here/out"
mkdir -p "$out"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
host="$(rustc -vV | sed -n 's/^host: //p')"
RUSTFLAGS="$("$root/examples/rustflags.sh")" \
    cargo build --release --quiet --target "$host" \
    --manifest-path "$here/self/Cargo.toml" --target-dir "$out/cargo"
cp "$out/cargo/$host/release/libfuzz_self.so" "$out/libfuzz_self.so"
cd "$out"
# Seeds for the codec: Go's hand-written vectors, as []byte entries.
"$root/target/release/fuzz-convert" import -target FuzzDecode -testdata testdata \
    "$root/tests/data/vectors/hand" >/dev/null 2>&1 || true
status=0
for t in FuzzDecode FuzzDict FuzzDuration FuzzTypes FuzzCodeWords FuzzCodeStrings; do
    echo "== $t" >&2
    "$root/target/release/fuzz-run" -fuzz "^$t\$" -fuzztime "${secs}s" -fuzzcachedir cache \
        libfuzz_self.so || status=1
done
exit "$status"
