// Package oracle asks Go's own corpus codec for its verdict on files: the
// test binary reads every file in $ORACLE_DIR with internal/fuzz's
// unmarshalCorpusFile and, when Go accepts it, re-encodes the values with
// marshalCorpusFile. tests/e2e/go_oracle.rs compares our codec with it.
package oracle

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	_ "unsafe" // for go:linkname
)

//go:linkname unmarshalCorpusFile internal/fuzz.unmarshalCorpusFile
func unmarshalCorpusFile(b []byte) ([]any, error)

//go:linkname marshalCorpusFile internal/fuzz.marshalCorpusFile
func marshalCorpusFile(vals ...any) []byte

func TestOracle(t *testing.T) {
	dir := os.Getenv("ORACLE_DIR")
	if dir == "" {
		t.Skip("ORACLE_DIR not set")
	}
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := unmarshalCorpusFile(b)
		switch {
		case err != nil:
			fmt.Fprintf(out, "%s\tREJECT\t%q\n", filepath.Base(n), err.Error())
		case len(vals) == 0:
			fmt.Fprintf(out, "%s\tEMPTY\n", filepath.Base(n))
		default:
			fmt.Fprintf(out, "%s\tACCEPT\t%x\n", filepath.Base(n), marshalCorpusFile(vals...))
		}
	}
}
