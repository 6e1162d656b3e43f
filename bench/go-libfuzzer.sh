# Sourced by bench/go-coverage.sh and bench/go-knownbug.sh: the way OSS-Fuzz
# fuzzes Go code with libFuzzer. The package is built as a c-archive with
# Go's libFuzzer instrumentation (-tags=libfuzzer -gcflags=all=-d=libfuzzer),
# leaving out the packages go test -fuzz leaves out; a bytes-only
# LLVMFuzzerTestOneInput runs the fuzz test's own f.Fuzz body (copied from
# the fuzz test, t.Fatalf a panic); clang -fsanitize=fuzzer links it.
# Needs CLANG (the clang to link with: go_bench_tools sets it);
# LIBFUZZER_MODULE, when the body imports a module of its own.

# go_bench_tools: checks for Go 1.19 (fuzz-build's harness) and CLANG
# (default clang-19), exiting 2 with what to install, then builds the tools
# (BIN: their directory).
go_bench_tools() {
    local me
    me=$(basename "$0")
    command -v go >/dev/null || { echo "$me: needs go (apt-get install golang-go)" >&2; exit 2; }
    case "$(go env GOVERSION)" in go1.19*) ;; *)
        echo "$me: needs Go 1.19 (fuzz-build's harness); this is $(go env GOVERSION)" >&2; exit 2 ;;
    esac
    CLANG=${CLANG:-clang-19}
    command -v "$CLANG" >/dev/null || { echo "$me: needs $CLANG (apt-get install clang-19)" >&2; exit 2; }
    cargo build --release -q
    BIN=$PWD/target/release
}

# The packages go test -fuzz leaves uninstrumented (cmd/go, Go 1.19).
GO_UNINSTRUMENTED=(context internal/fuzz reflect runtime sync sync/atomic syscall testing time)

# libfuzzer_harness TEST_FILE TARGET DIR IMPORTS...: writes DIR/main.go, the
# libFuzzer harness of TARGET's f.Fuzz body in TEST_FILE, and builds it into
# DIR/fuzzer. IMPORTS are the import lines the body needs.
libfuzzer_harness() {
    local test_file=$1 target=$2 dir=$3 body imports=""
    shift 3
    mkdir -p "$dir"
    printf 'module example.com/%s\n\ngo 1.19\n' "$(basename "$dir")" >"$dir/go.mod"
    # LIBFUZZER_MODULE=PATH=DIR: the harness imports module PATH, found in DIR.
    if [ -n "${LIBFUZZER_MODULE:-}" ]; then
        printf 'require %s v0.0.0\nreplace %s => %s\n' "${LIBFUZZER_MODULE%%=*}" \
            "${LIBFUZZER_MODULE%%=*}" "${LIBFUZZER_MODULE#*=}" >>"$dir/go.mod"
    fi
    body=$(awk -v t="^func $target\\\\(" '
        $0 ~ t { f = 1 }
        f && /^\tf\.Fuzz\(func\(t \*testing\.T, b \[\]byte\) \{$/ { p = 1; next }
        p && /^\t\}\)$/ { exit }
        p { print }' "$test_file")
    [ -n "$body" ] || { echo "$0: no f.Fuzz body for $target in $test_file" >&2; exit 1; }
    for i in "$@"; do imports+=$'\t'"$i"$'\n'; done
    cat >"$dir/main.go" <<GO
// The libFuzzer harness of $target: its f.Fuzz body, copied from its fuzz
// test by bench/go-libfuzzer.sh, run on the bytes libFuzzer gives.
package main

import "C"

import (
	"fmt"
	"unsafe"
$imports)

type fakeT struct{}

func (fakeT) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

//export LLVMFuzzerTestOneInput
func LLVMFuzzerTestOneInput(data *C.char, size C.size_t) C.int {
	b := C.GoBytes(unsafe.Pointer(data), C.int(size))
	t := fakeT{}
	_ = t
	func() {
$body
	}()
	return 0
}

func main() {}
GO
    local flags=(-tags=libfuzzer -buildmode=c-archive -gcflags=all=-d=libfuzzer)
    for p in "${GO_UNINSTRUMENTED[@]}"; do flags+=("-gcflags=$p="); done
    (cd "$dir" && gofmt -w main.go && go build "${flags[@]}" -o harness.a . &&
        "$CLANG" -fsanitize=fuzzer harness.a -lpthread -o fuzzer)
}
