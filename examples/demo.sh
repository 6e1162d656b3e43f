#!/usr/bin/env bash
# The main job on the bundled example, as far as the tools go today: build
# the tools, turn a raw (libFuzzer/AFL-style) corpus into Go seed files, look
# at them, check them, tidy a hand-written multi-argument seed into Go's
# canonical form, and show what fuzz-clean would remove. Fuzzing the example
# targets arrives with the engine (fuzz-worker, fuzz-run).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

echo "== building the tools" >&2
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release"
export PATH="$bin:$PATH"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

echo "== a raw corpus, as libFuzzer keeps one" >&2
mkdir -p raw
printf 'hello' > raw/a
printf 'FUZ\x00\xff' > raw/b
printf '{"key": [1, 2, 3]}' > raw/c

echo "== fuzz-convert import: raw files become testdata/fuzz/FuzzParse/ seeds" >&2
fuzz-convert import -target FuzzParse raw
echo "== fuzz-corpus list" >&2
fuzz-corpus list testdata/fuzz/FuzzParse
echo "== fuzz-corpus check" >&2
fuzz-corpus check -types '[]byte' testdata/fuzz/FuzzParse

echo "== a hand-written seed for a (string, int64, rune) target, put in Go's canonical form" >&2
mkdir -p testdata/fuzz/FuzzRecord
printf 'go test fuzz v1\r\nstring(`raw`) // name\r\nint64(0x2a)\r\nint32(0x263a)\r\n' > testdata/fuzz/FuzzRecord/hand
fuzz-corpus fmt -rename testdata/fuzz/FuzzRecord/hand
cat testdata/fuzz/FuzzRecord/*

echo "== back to raw bytes" >&2
fuzz-convert to-raw "$(ls testdata/fuzz/FuzzParse/* | head -1)" | od -c | head -3

echo "== what fuzz-clean would remove from a cache" >&2
mkdir -p cache/parse-0123456789abcdef/FuzzParse
cp testdata/fuzz/FuzzParse/* cache/parse-0123456789abcdef/FuzzParse/
fuzz-clean -n -fuzzcachedir cache
echo "demo done: the corpus tools work; fuzz-run arrives with the engine" >&2
