// bench/suite: Go's own fuzzer on the regex job, with Go's regexp (the same
// RE2 family of syntax as Rust's regex): compile the input (UTF-8 only) as a
// pattern and run it over the haystack of harness/regex.rs. Its kept corpus
// is replayed through the Rust regex meter like every engine's.
package suite

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

const haystack = "The quick brown fox jumps over the lazy dog 1234567890 times.\n" +
	"2024-01-15T10:20:30Z user.name+tag@example.com http://example.org/a?b=c#d\n" +
	"3.14159 -42 0x1F \"quoted\" [brackets] (parens) {braces} tab\there\n" +
	"Ünïcödé ΑΒΓ δεζ Жж 日本語 😀 é e\u0301\n"

func FuzzRegex(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			return
		}
		re, err := regexp.Compile(string(data))
		if err != nil {
			return
		}
		re.MatchString(haystack)
		re.FindAllStringIndex(haystack, -1)
		re.FindStringSubmatch(haystack)
	})
}
