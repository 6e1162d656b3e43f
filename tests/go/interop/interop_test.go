// Package interop holds Go fuzz targets whose corpora our tools write:
// tests/e2e/go_interop.rs fills testdata/fuzz/ with fuzz-convert and
// fuzz-corpus, then runs `go test` here. Each target logs exactly what Go
// decoded and fails when the values say so.
package interop

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func FuzzBytes(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		t.Logf("VALUES %s %x", t.Name(), b)
		if bytes.Contains(b, []byte("BUG")) {
			t.Fatalf("found BUG in %q", b)
		}
	})
}

func FuzzString(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		t.Logf("VALUES %s %x", t.Name(), s)
		if strings.HasPrefix(s, "fail") {
			t.Fatalf("input starts with fail: %q", s)
		}
	})
}

func FuzzMulti(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int64, r rune, b byte, x float64, y float32,
		ok bool, u uint16, raw []byte, i8 int8, u64 uint64, i int, u32 uint32, ui uint, i16 int16) {
		t.Logf("VALUES %s %x %d %d %d %016x %08x %v %d %x %d %d %d %d %d %d", t.Name(),
			s, n, r, b, math.Float64bits(x), math.Float32bits(y), ok, u, raw, i8, u64, i, u32, ui, i16)
		if !ok {
			t.Fatalf("ok is false")
		}
	})
}
