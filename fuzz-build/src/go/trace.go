// This file replaces internal/fuzz/trace.go of Go 1.19 in the libraries
// fuzz-build makes (go build -overlay; the files on disk are untouched).
// Go's own file defines the comparison hooks that -d=libfuzzer makes the
// compiler call as empty functions; here they note the operands, so that
// fuzz-worker can write them into inputs. Each hook is a check and a few
// stores: they run for every comparison of every instrumented package.

//go:build !libfuzzer

package fuzz

import _ "unsafe" // for go:linkname

//go:linkname libfuzzerTraceCmp1 runtime.libfuzzerTraceCmp1
//go:linkname libfuzzerTraceCmp2 runtime.libfuzzerTraceCmp2
//go:linkname libfuzzerTraceCmp4 runtime.libfuzzerTraceCmp4
//go:linkname libfuzzerTraceCmp8 runtime.libfuzzerTraceCmp8

//go:linkname libfuzzerTraceConstCmp1 runtime.libfuzzerTraceConstCmp1
//go:linkname libfuzzerTraceConstCmp2 runtime.libfuzzerTraceConstCmp2
//go:linkname libfuzzerTraceConstCmp4 runtime.libfuzzerTraceConstCmp4
//go:linkname libfuzzerTraceConstCmp8 runtime.libfuzzerTraceConstCmp8

//go:linkname libfuzzerHookStrCmp runtime.libfuzzerHookStrCmp
//go:linkname libfuzzerHookEqualFold runtime.libfuzzerHookEqualFold

// fuzzbuildIntCmp is one unequal integer comparison (24 bytes, as
// fuzz-worker reads it).
type fuzzbuildIntCmp struct {
	a, b uint64
	size uint32
	site uint32
}

// fuzzbuildStrCmp is one unequal string comparison: up to 32 bytes of each
// side, and their lengths (66 bytes, as fuzz-worker reads it).
type fuzzbuildStrCmp struct {
	a, b       [32]byte
	alen, blen uint8
}

// The first comparisons of one execution, in the order they were made (a
// parser's first ones are what its input's header must match; once a
// table is full, what follows is not noted, and a hook costs a check).
// Noted only while fuzzbuildTracing is non-zero: while the fuzz function
// runs.
var (
	fuzzbuildTracing  uint32
	fuzzbuildInts     [1024]fuzzbuildIntCmp
	fuzzbuildIntCount uint32
	fuzzbuildStrs     [128]fuzzbuildStrCmp
	fuzzbuildStrCount uint32
)

//go:nosplit
func fuzzbuildNoteInt(a, b uint64, size uint32, site uint) {
	if fuzzbuildTracing == 0 || a == b {
		return
	}
	i := fuzzbuildIntCount
	if i >= uint32(len(fuzzbuildInts)) {
		return
	}
	fuzzbuildIntCount = i + 1
	e := &fuzzbuildInts[i]
	e.a, e.b, e.size, e.site = a, b, size, uint32(site)
}

//go:nosplit
func fuzzbuildNoteStr(a, b string) {
	if fuzzbuildTracing == 0 || a == b {
		return
	}
	i := fuzzbuildStrCount
	if i >= uint32(len(fuzzbuildStrs)) {
		return
	}
	fuzzbuildStrCount = i + 1
	e := &fuzzbuildStrs[i]
	e.alen = uint8(copy(e.a[:], a))
	e.blen = uint8(copy(e.b[:], b))
}

func libfuzzerTraceCmp1(arg0, arg1 uint8, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 1, fakePC)
}
func libfuzzerTraceCmp2(arg0, arg1 uint16, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 2, fakePC)
}
func libfuzzerTraceCmp4(arg0, arg1 uint32, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 4, fakePC)
}
func libfuzzerTraceCmp8(arg0, arg1 uint64, fakePC uint) {
	fuzzbuildNoteInt(arg0, arg1, 8, fakePC)
}

func libfuzzerTraceConstCmp1(arg0, arg1 uint8, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 1, fakePC)
}
func libfuzzerTraceConstCmp2(arg0, arg1 uint16, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 2, fakePC)
}
func libfuzzerTraceConstCmp4(arg0, arg1 uint32, fakePC uint) {
	fuzzbuildNoteInt(uint64(arg0), uint64(arg1), 4, fakePC)
}
func libfuzzerTraceConstCmp8(arg0, arg1 uint64, fakePC uint) {
	fuzzbuildNoteInt(arg0, arg1, 8, fakePC)
}

func libfuzzerHookStrCmp(arg0, arg1 string, fakePC uint)    { fuzzbuildNoteStr(arg0, arg1) }
func libfuzzerHookEqualFold(arg0, arg1 string, fakePC uint) { fuzzbuildNoteStr(arg0, arg1) }
