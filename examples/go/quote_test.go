package gofuzz_test

import (
	"bytes"
	"testing"

	"example.com/gofuzz"
)

// FuzzQuote: Unquote(Quote(b)) is b (its planted bug: 0x7f is not).
func FuzzQuote(f *testing.F) {
	f.Add([]byte("a\"b\\c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		q := gofuzz.Quote(b)
		back, err := gofuzz.Unquote(q)
		if err != nil {
			t.Fatalf("Unquote(%q): %v", q, err)
		}
		if !bytes.Equal(back, b) {
			t.Fatalf("round trip of %q gave %q", b, back)
		}
	})
}
