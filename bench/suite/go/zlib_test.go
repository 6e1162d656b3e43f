// bench/suite: Go's own fuzzer on the zlib job, with Go's compress/zlib:
// inflate the input to the end of the stream. Its kept corpus is replayed
// through the C zlib meter like every engine's.
package suite

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"
)

func FuzzZlib(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		io.Copy(io.Discard, r)
		r.Close()
	})
}
