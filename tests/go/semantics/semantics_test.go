package semantics

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// FuzzVerdicts: t.Skip passes, t.Errorf and t.Fatalf fail with their
// file:line, a panic fails with its value and stack, and t.Log, t.Cleanup
// and t.TempDir work.
func FuzzVerdicts(f *testing.F) {
	f.Add("pass")
	f.Fuzz(func(t *testing.T, s string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if marker := os.Getenv("SEMANTICS_CLEANUP"); marker != "" {
				f, err := os.OpenFile(marker, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
				if err == nil {
					f.WriteString(s + "\n")
					f.Close()
				}
			}
		})
		t.Logf("input %q", s)
		switch {
		case strings.HasPrefix(s, "skip"):
			t.Skip("skipped on purpose")
		case strings.HasPrefix(s, "error"):
			t.Errorf("an error for %q", s)
		case strings.HasPrefix(s, "fatal"):
			t.Fatalf("fatal for %q", s)
		case strings.HasPrefix(s, "panic"):
			panic("a panic for " + s)
		case strings.HasPrefix(s, "goexit"):
			runtime.Goexit()
		case strings.HasPrefix(s, "exit0"):
			os.Exit(0)
		case strings.HasPrefix(s, "exit3"):
			os.Exit(3)
		case strings.HasPrefix(s, "parallel"):
			t.Parallel()
			t.Errorf("failed after t.Parallel")
		case strings.HasPrefix(s, "hang"):
			for spin(s) {
			}
		}
	})
}

// spin is true, out of the compiler's sight.
func spin(s string) bool { return len(s) > 0 }

// FuzzSeeds: its second f.Add value fails.
func FuzzSeeds(f *testing.F) {
	f.Add("good", int64(1))
	f.Add("bad", int64(2))
	f.Fuzz(func(t *testing.T, s string, n int64) {
		if s == "bad" {
			t.Fatalf("seed %d is bad", n)
		}
	})
}

// FuzzFatalFirst fails before f.Fuzz.
func FuzzFatalFirst(f *testing.F) {
	f.Fatal("not ready to fuzz")
	f.Fuzz(func(t *testing.T, b []byte) {})
}

// FuzzSkipAll skips before f.Fuzz.
func FuzzSkipAll(f *testing.F) {
	f.Skip("nothing to fuzz here")
	f.Fuzz(func(t *testing.T, b []byte) {})
}

// FuzzTwice calls f.Fuzz a second time, which fails it.
func FuzzTwice(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
	f.Fuzz(func(t *testing.T, b []byte) {})
}

// FuzzCompare: the bug is behind a string and a 32-bit equality that
// only comparison feedback gets past in seconds.
func FuzzCompare(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n uint32) {
		if Magic(s, n) {
			t.Fatalf("found the magic %q %#x", s, n)
		}
	})
}

// FuzzTwoBugs has two failures at two sites, for -keepfuzzing.
func FuzzTwoBugs(f *testing.F) {
	f.Add([]byte("...."))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1 && b[0] == 'A' && b[1] == 'B' {
			t.Fatalf("first bug")
		}
		if len(b) > 1 && b[0] == 'X' && b[1] == 'Y' {
			var m map[string]int
			m["second bug"]++ // a nil map write: a panic
		}
	})
}
