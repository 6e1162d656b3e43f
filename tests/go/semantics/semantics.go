// Package semantics holds fuzz tests that each exercise one rule of how
// go test runs a fuzz test (tests/e2e/go_fuzz.rs runs them with fuzz-run
// and with go test, and checks that both agree).
package semantics

// Magic is what FuzzCompare looks for.
func Magic(s string, n uint32) bool {
	return s == "fuzz-go!" && n == 0xc0ffee42
}
