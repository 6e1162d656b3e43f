package testmain

import (
	"os"
	"testing"
)

var ready bool

// TestMain sets the package up, runs the tests and exits, as most do.
func TestMain(m *testing.M) {
	ready = true
	os.Exit(m.Run())
}

// FuzzNeedsMain fails unless TestMain ran first; and on "stop".
func FuzzNeedsMain(f *testing.F) {
	if !ready {
		f.Fatal("TestMain did not run")
	}
	f.Add("go")
	f.Fuzz(func(t *testing.T, s string) {
		if !ready {
			t.Fatal("TestMain did not run")
		}
		if s == "stop" {
			t.Fatal("stop")
		}
	})
}
