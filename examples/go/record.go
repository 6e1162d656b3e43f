// Package gofuzz is a small Go package with fuzz tests and planted bugs,
// fuzzed by fuzz-run as go test -fuzz fuzzes it (examples/README.md).
//
// A record is "key=value" pairs separated by ';'. Each planted bug sits
// behind a few single-byte checks, so coverage feedback reaches it from
// the seeds in seconds.
package gofuzz

import (
	"errors"
	"strconv"
	"strings"
)

// Record is a parsed record.
type Record struct {
	Fields map[string]string
}

// ParseRecord parses "k=v;k=v". Planted bug: a key "id" whose value starts
// with "#!" indexes past the end of the split value.
func ParseRecord(s string) (Record, error) {
	r := Record{Fields: map[string]string{}}
	for _, part := range strings.Split(s, ";") {
		if part == "" {
			continue
		}
		kv := strings.SplitN(part, "=", 2)
		if len(kv) != 2 {
			return r, errors.New("field without '='")
		}
		if kv[0] == "id" && len(kv[1]) > 1 && kv[1][0] == '#' && kv[1][1] == '!' {
			tags := strings.Split(kv[1], "!")
			r.Fields["tag"] = tags[2] // index out of range when there is one '!'
			continue
		}
		r.Fields[kv[0]] = kv[1]
	}
	return r, nil
}

// Scale returns n times the factor in unit ("k", "m", ...). Planted bug:
// the unit "kb" with a negative count comes out positive.
func Scale(n int64, unit string) int64 {
	f := int64(1)
	switch unit {
	case "k":
		f = 1000
	case "m":
		f = 1000000
	case "kb":
		f = 1024
		if n < 0 && n > -100 {
			return -n * f // wrong sign
		}
	}
	return n * f
}

// Quote escapes '\\' and '"' with a backslash and control bytes as \xNN;
// Unquote undoes it.
func Quote(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		switch {
		case c == '\\' || c == '"':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c < 0x20:
			sb.WriteString("\\x")
			sb.WriteString(strconv.FormatUint(uint64(c)+0x100, 16)[1:])
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// Unquote reverses Quote. Planted bug: it turns the byte 0x7f into '?'.
func Unquote(s string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			if c == 0x7f {
				c = '?' // planted: 0x7f does not survive a round trip
			}
			out = append(out, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, errors.New("trailing backslash")
		}
		i++
		if s[i] == 'x' {
			if i+3 > len(s) {
				return nil, errors.New("short \\x escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return nil, err
			}
			out = append(out, byte(v))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out, nil
}
