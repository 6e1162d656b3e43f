#!/usr/bin/env bash
# Runs every check the project holds itself to: formatting, clippy and
# rustdoc with warnings as errors, and the whole test suite (unit tests and
# the end-to-end tests in tests/, which drive the real binaries, real
# compilers and a real Go toolchain).
#
# On a fresh machine it first installs what the tests need and is missing
# (with apt-get, as root or through sudo), and says what it installs:
# the tests never skip, so a missing tool would fail them (chromium renders
# fuzz-corpus cover's page as a browser would, for tests/e2e/cover_lines.rs).
# NO_INSTALL=1 only lists what is missing and stops.
set -euo pipefail
cd "$(dirname "$0")"

# command (or file) the tests need -> the Debian package that provides it
needs=(
    "go golang-go"
    "groff groff-base"
    "man man-db"
    "gcc gcc"
    "nm binutils"
    "readelf binutils"
    "clang-19 clang-19"
    "llvm-symbolizer-19 llvm-19"
    "/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.asan-x86_64.so libclang-rt-19-dev"
    "unshare util-linux"
    "mount mount"
    "ss iproute2"
    "munged munge"
    "slurmctld slurmctld"
    "slurmd slurmd"
    "sbatch slurm-client"
    "chromium chromium"
)
missing=()
for need in "${needs[@]}"; do
    what="${need%% *}" package="${need#* }"
    case "$what" in
    /*) [ -e "$what" ] && continue ;;
    *) command -v "$what" >/dev/null && continue ;;
    esac
    [[ " ${missing[*]-} " == *" $package "* ]] || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "test.sh: the tests need these Debian packages, missing here: ${missing[*]}" >&2
    if [ "${NO_INSTALL:-}" = 1 ]; then
        exit 1
    fi
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || {
            echo "test.sh: not root and no sudo: install them (apt-get install ${missing[*]}) and run again" >&2
            exit 1
        }
        sudo=(sudo)
    fi
    echo "test.sh: installing them with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for need in "${needs[@]}"; do
    what="${need%% *}"
    case "$what" in
    /*) [ -e "$what" ] ;;
    *) command -v "$what" >/dev/null ;;
    esac || { echo "test.sh: $what is still missing after the install" >&2; exit 1; }
done
command -v cargo >/dev/null || {
    echo "test.sh: cargo is required (https://rustup.rs)" >&2
    exit 1
}

cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
# The code's own documentation, private items too: a broken link or stray
# HTML is an error.
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items
cargo test --workspace
