package gofuzz

import "testing"

// FuzzParseRecord: ParseRecord must not panic (its planted bug does).
func FuzzParseRecord(f *testing.F) {
	f.Add("name=gopher;lang=go")
	f.Add("id=7")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRecord(s)
		if err == nil && r.Fields == nil {
			t.Fatal("no fields map")
		}
	})
}

// FuzzScale: scaling keeps the sign of n (its planted bug does not).
func FuzzScale(f *testing.F) {
	f.Add(int64(3), "k")
	f.Fuzz(func(t *testing.T, n int64, unit string) {
		got := Scale(n, unit)
		if n < 0 && got > 0 {
			t.Errorf("Scale(%d, %q) = %d: the sign is lost", n, unit, got)
		}
	})
}
