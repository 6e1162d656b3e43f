// bench/suite: Go's own fuzzer on the serde_json job, with Go's
// encoding/json: parse the input as any JSON value and print it back. Its
// kept corpus is replayed through the serde_json meter like every engine's.
package suite

import (
	"encoding/json"
	"testing"
)

func FuzzJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) == nil {
			json.Marshal(v)
		}
	})
}
