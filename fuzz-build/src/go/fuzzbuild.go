// This file is added to internal/fuzz of Go 1.19 in the libraries
// fuzz-build makes (go build -overlay; nothing on disk changes). It is the
// part of the harness that runs a package's fuzz tests for fuzz-worker
// with Go's own testing package: each FuzzXxx runs as go test -fuzz runs
// it, through testing.MainStart with a testDeps of ours, and the function
// testing hands its fuzzing worker is what fuzz-worker calls per input. It
// sits in internal/fuzz, which go test -fuzz leaves uninstrumented, so
// that none of it counts as the package's coverage.
//
// The package's own file (harness.go, the cgo exports) reaches these
// functions through go:linkname.

package fuzz

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"internal/testlog"
	"io"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

type fuzzbuildTest struct {
	name string
	fn   func(*testing.F)
}

var (
	fuzzbuildTests      []fuzzbuildTest
	fuzzbuildTestMain   func(*testing.M)
	fuzzbuildImportPath string
)

// fuzzbuildRegister records a fuzz test of the package (its generated
// _test.go files call it from init).
func fuzzbuildRegister(name string, fn func(*testing.F)) {
	fuzzbuildTests = append(fuzzbuildTests, fuzzbuildTest{name, fn})
}

// fuzzbuildRegisterMain records the package's TestMain.
func fuzzbuildRegisterMain(fn func(*testing.M)) { fuzzbuildTestMain = fn }

func fuzzbuildSetImportPath(path string) { fuzzbuildImportPath = path }

// fuzzbuildList is the names of the fuzz tests, one per line.
func fuzzbuildList() string {
	names := make([]string, len(fuzzbuildTests))
	for i, t := range fuzzbuildTests {
		names[i] = t.name
	}
	return strings.Join(names, "\n")
}

// A pass runs one fuzz test as go test does, up to the point it has what
// it came for: as go test -fuzz's coordinator (describe: the argument
// types and the f.Add values), or as one of its workers (prepare: the
// function that runs one input).
type fuzzbuildPass struct {
	worker bool
	done   chan struct{}
	once   sync.Once

	reached bool // f.Fuzz handed over what the pass came for
	types   []reflect.Type
	seeds   []CorpusEntry
	fn      func(CorpusEntry) error

	// How the fuzz test's own function ended (see fuzzbuildWrap).
	failed, skipped bool
	panicked        string
}

var fuzzbuildCurrent *fuzzbuildPass

func (p *fuzzbuildPass) finish() { p.once.Do(func() { close(p.done) }) }

// fuzzbuildHold ends a pass: testing's goroutine that called in here stays
// parked for the life of the process, so that nothing after it runs (a
// TestMain's os.Exit, in particular).
func fuzzbuildHold() {
	fuzzbuildCurrent.finish()
	select {}
}

type fuzzbuildDeps struct{}

func (fuzzbuildDeps) ImportPath() string { return fuzzbuildImportPath }

var fuzzbuildMatch struct {
	sync.Mutex
	pat string
	re  *regexp.Regexp
}

func (fuzzbuildDeps) MatchString(pat, str string) (bool, error) {
	m := &fuzzbuildMatch
	m.Lock()
	defer m.Unlock()
	if m.re == nil || m.pat != pat {
		re, err := regexp.Compile(pat)
		if err != nil {
			return false, err
		}
		m.pat, m.re = pat, re
	}
	return m.re.MatchString(str), nil
}

// SetPanicOnExit0 is called with true as M.Run starts and with false as it
// ends: the end of a pass whose fuzz test stopped short of f.Fuzz, or went
// on after it.
func (fuzzbuildDeps) SetPanicOnExit0(v bool) {
	testlog.SetPanicOnExit0(v)
	if !v {
		fuzzbuildHold()
	}
}

func (fuzzbuildDeps) StartCPUProfile(io.Writer) error              { return nil }
func (fuzzbuildDeps) StopCPUProfile()                              {}
func (fuzzbuildDeps) StartTestLog(io.Writer)                       {}
func (fuzzbuildDeps) StopTestLog() error                           { return nil }
func (fuzzbuildDeps) WriteProfileTo(string, io.Writer, int) error  { return nil }
func (fuzzbuildDeps) ReadCorpus(string, []reflect.Type) ([]CorpusEntry, error) {
	// fuzz-run reads testdata/fuzz itself.
	return nil, nil
}
func (fuzzbuildDeps) CheckCorpus(vals []any, types []reflect.Type) error {
	return CheckCorpus(vals, types)
}

// The coverage hooks bracket the fuzz function alone (testing calls them
// around it): comparisons are noted inside it only, and the counters are
// kept as it left them, so that what testing does after it (formatting
// the duration, with instrumented fmt) is nobody's coverage.
func (fuzzbuildDeps) ResetCoverage() { fuzzbuildTracing = 1 }

func (fuzzbuildDeps) SnapshotCoverage() {
	fuzzbuildTracing = 0
	copy(fuzzbuildSnapshot, fuzzbuildCounters)
	fuzzbuildSnapped = true
}

var (
	fuzzbuildCounters = coverage()
	fuzzbuildSnapshot = make([]byte, len(fuzzbuildCounters))
	fuzzbuildSnapped  bool
)

func (fuzzbuildDeps) CoordinateFuzzing(_ time.Duration, _ int64, _ time.Duration, _ int64, _ int,
	seeds []CorpusEntry, types []reflect.Type, _, _ string) error {
	p := fuzzbuildCurrent
	p.reached, p.types, p.seeds = true, types, seeds
	// The fuzz test goes on as after go test -fuzz; a second f.Fuzz, say,
	// fails it.
	return nil
}

func (fuzzbuildDeps) RunFuzzWorker(fn func(CorpusEntry) error) error {
	p := fuzzbuildCurrent
	p.reached, p.fn = true, fn
	fuzzbuildHold()
	return nil
}

// fuzzbuildWrap runs a fuzz test's function, noting how it ended. A panic
// in it, which under go test crashes the test binary with the panic's
// value and stack, fails the fuzz test with them instead of ending the
// process.
func fuzzbuildWrap(fn func(*testing.F)) func(*testing.F) {
	return func(f *testing.F) {
		p := fuzzbuildCurrent
		defer func() {
			if r := recover(); r != nil {
				p.panicked = fmt.Sprintf("panic: %v\n\n%s", r, debug.Stack())
				f.Fail()
			}
			p.failed, p.skipped = f.Failed(), f.Skipped()
		}()
		fn(f)
	}
}

// fuzzbuildRun runs the fuzz test `name` in a pass; its output (what
// testing prints for the fuzz test, as go test would show it) is returned.
func fuzzbuildRun(name string, worker bool) (*fuzzbuildPass, string, error) {
	var fn func(*testing.F)
	for _, t := range fuzzbuildTests {
		if t.name == name {
			fn = t.fn
		}
	}
	if fn == nil {
		return nil, "", fmt.Errorf("no fuzz test %s in this library", name)
	}
	// What testing prints for the fuzz test goes to os.Stdout: a pipe,
	// drained as it fills, while the pass runs.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	drained := make(chan []byte)
	go func() {
		text, _ := io.ReadAll(r)
		r.Close()
		drained <- text
	}()

	p := &fuzzbuildPass{worker: worker, done: make(chan struct{})}
	fuzzbuildCurrent = p
	os.Args = []string{os.Args[0]}
	testing.Init()
	set := map[string]string{
		"test.fuzz":           "^" + regexp.QuoteMeta(name) + "$",
		"test.run":            "^$",
		"test.fuzzcachedir":   os.TempDir(),
		"test.fuzzworker":     fmt.Sprint(worker),
		"test.paniconexit0":   "true",
		"test.parallel":       "1",
		"test.v":              fmt.Sprint(!worker),
	}
	for k, v := range set {
		if err := flag.Set(k, v); err != nil {
			return nil, "", err
		}
	}
	stdout := os.Stdout
	os.Stdout = w
	go func() {
		defer p.finish()
		m := testing.MainStart(fuzzbuildDeps{}, nil, nil,
			[]testing.InternalFuzzTarget{{Name: name, Fn: fuzzbuildWrap(fn)}}, nil)
		if fuzzbuildTestMain != nil {
			fuzzbuildTestMain(m)
		} else {
			m.Run()
		}
	}()
	<-p.done
	os.Stdout = stdout
	w.Close()
	text := <-drained
	return p, string(text) + p.panicked, nil
}

// fuzzbuildDescription is what describe tells fuzz-worker, as JSON.
type fuzzbuildDescription struct {
	// "ok", "fail" (the fuzz test failed before fuzzing could start, or
	// after its f.Fuzz) or "skip".
	Status string   `json:"status"`
	Args   []string `json:"args,omitempty"`
	// The f.Add values, each as a corpus file (Go's own encoding).
	Seeds  []string `json:"seeds,omitempty"`
	Output string   `json:"output,omitempty"`
	// The number of coverage counters.
	Counters int `json:"counters"`
}

// fuzzbuildDescribe runs the fuzz test `name` as go test -fuzz's
// coordinator would, and describes it as JSON.
func fuzzbuildDescribe(name string) string {
	d := fuzzbuildDescription{Counters: len(fuzzbuildCounters)}
	p, output, err := fuzzbuildRun(name, false)
	switch {
	case err != nil:
		d.Status, d.Output = "fail", err.Error()
	case p.failed || (!p.reached && !p.skipped):
		d.Status, d.Output = "fail", output
	case p.skipped:
		d.Status, d.Output = "skip", output
	default:
		d.Status = "ok"
		for _, t := range p.types {
			d.Args = append(d.Args, fuzzbuildTypeName(t))
		}
		for _, s := range p.seeds {
			d.Seeds = append(d.Seeds, string(marshalCorpusFile(s.Values...)))
		}
	}
	text, _ := json.Marshal(d)
	return string(text)
}

var (
	fuzzbuildFn    func(CorpusEntry) error
	fuzzbuildTypes []reflect.Type
)

// fuzzbuildPrepare runs the fuzz test `name` as a go test -fuzz worker
// would, up to where testing hands over the function that runs one
// input, and keeps it; `args` are its argument types (describe's).
// Returns "" or what went wrong.
func fuzzbuildPrepare(name, args string) string {
	types, err := fuzzbuildParseTypes(args)
	if err != nil {
		return err.Error()
	}
	p, output, err := fuzzbuildRun(name, true)
	if err != nil {
		return err.Error()
	}
	if p.fn == nil {
		if output == "" {
			output = fmt.Sprintf("%s ended before f.Fuzz when run as a fuzzing worker", name)
		}
		return output
	}
	fuzzbuildFn, fuzzbuildTypes = p.fn, types
	go fuzzbuildWatch()
	// One processor: the goroutine testing starts for each input then runs
	// on this thread as the caller waits, with no other thread woken.
	runtime.GOMAXPROCS(1)
	return ""
}

// fuzzbuildExec runs one input, its arguments in the packed encoding
// fuzz-worker passes to typed targets. Returns 0 for a pass (t.Skip too),
// 1 for a failure, whose message (testing's, as go test shows it) goes to
// standard error, and 2 for arguments that do not decode.
func fuzzbuildExec(data []byte) int32 {
	if fuzzbuildFn == nil {
		os.Stderr.WriteString("fuzz-build harness: no fuzz test prepared\n")
		return 2
	}
	vals, err := fuzzbuildDecode(data, fuzzbuildTypes)
	if err != nil {
		os.Stderr.WriteString("fuzz-build harness: " + err.Error() + "\n")
		return 2
	}
	fuzzbuildSnapped = false
	err = fuzzbuildFn(CorpusEntry{Values: vals})
	if fuzzbuildSnapped {
		copy(fuzzbuildCounters, fuzzbuildSnapshot)
	}
	if err != nil {
		msg := err.Error()
		if msg == "" {
			msg = "fuzz function failed with no input"
		}
		os.Stderr.WriteString(msg)
		return 1
	}
	return 0
}

// fuzzbuildWhere is set to 1 by fuzz-worker when an input has run past
// its time limit: fuzzbuildWatch then writes where the fuzz test's
// goroutines are, and sets it to 2. (The worker's own stack, the thread
// that called into Go, would show only Go's scheduler waiting.)
var fuzzbuildWhere uint32

func fuzzbuildWatch() {
	for {
		time.Sleep(20 * time.Millisecond)
		if atomic.LoadUint32(&fuzzbuildWhere) != 1 {
			continue
		}
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		// This goroutine's stack comes first: left out. Testing's, which
		// runs the input, go first.
		blocks := strings.Split(string(buf[:n]), "\n\n")[1:]
		var first, rest []string
		for _, b := range blocks {
			if strings.Contains(b, "testing.tRunner(") {
				first = append(first, b)
			} else {
				rest = append(rest, b)
			}
		}
		os.Stderr.WriteString("==fuzz-worker== timeout: the input ran past the time limit; " +
			"the fuzz test's goroutines were here:\n\n" + strings.Join(append(first, rest...), "\n\n") + "\n")
		atomic.StoreUint32(&fuzzbuildWhere, 2)
	}
}

// fuzzbuildTables hands fuzz-worker what it reads after each input: the
// coverage counters and the comparison tables (trace.go).
func fuzzbuildTables() (counters []byte, tracing *uint32, ints unsafe.Pointer, intCount *uint32,
	intCap int, strs unsafe.Pointer, strCount *uint32, strCap int, where *uint32) {
	return fuzzbuildCounters, &fuzzbuildTracing, unsafe.Pointer(&fuzzbuildInts), &fuzzbuildIntCount,
		len(fuzzbuildInts), unsafe.Pointer(&fuzzbuildStrs), &fuzzbuildStrCount, len(fuzzbuildStrs),
		&fuzzbuildWhere
}

var fuzzbuildTypeNames = map[reflect.Type]string{
	reflect.TypeOf([]byte(nil)):  "[]byte",
	reflect.TypeOf(""):           "string",
	reflect.TypeOf(false):        "bool",
	reflect.TypeOf(int(0)):       "int",
	reflect.TypeOf(int8(0)):      "int8",
	reflect.TypeOf(int16(0)):     "int16",
	reflect.TypeOf(int32(0)):     "rune",
	reflect.TypeOf(int64(0)):     "int64",
	reflect.TypeOf(uint(0)):      "uint",
	reflect.TypeOf(uint8(0)):     "byte",
	reflect.TypeOf(uint16(0)):    "uint16",
	reflect.TypeOf(uint32(0)):    "uint32",
	reflect.TypeOf(uint64(0)):    "uint64",
	reflect.TypeOf(float32(0)):   "float32",
	reflect.TypeOf(float64(0)):   "float64",
}

func fuzzbuildTypeName(t reflect.Type) string {
	if n, ok := fuzzbuildTypeNames[t]; ok {
		return n
	}
	return t.String()
}

func fuzzbuildParseTypes(list string) ([]reflect.Type, error) {
	var types []reflect.Type
	for _, name := range strings.Split(list, ", ") {
		found := false
		for t, n := range fuzzbuildTypeNames {
			if n == name {
				types, found = append(types, t), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("unsupported argument type %q", name)
		}
	}
	return types, nil
}

var errFuzzbuildShort = errors.New("arguments end early")

// fuzzbuildDecode unpacks typed-target arguments: fixed-size values
// little-endian, strings and byte slices as a 4-byte length then the
// bytes (fuzz-target's encoding).
func fuzzbuildDecode(data []byte, types []reflect.Type) ([]any, error) {
	vals := make([]any, len(types))
	for i, t := range types {
		if k := t.Kind(); k == reflect.String || k == reflect.Slice {
			if len(data) < 4 {
				return nil, errFuzzbuildShort
			}
			n := int(uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24)
			if len(data)-4 < n {
				return nil, errFuzzbuildShort
			}
			b := data[4 : 4+n]
			data = data[4+n:]
			if k == reflect.String {
				vals[i] = string(b)
			} else {
				vals[i] = append([]byte{}, b...)
			}
			continue
		}
		size := int(t.Size())
		if len(data) < size {
			return nil, errFuzzbuildShort
		}
		v := reflect.New(t)
		if t.Kind() == reflect.Bool {
			v.Elem().SetBool(data[0] != 0)
		} else {
			// Little-endian, as this machine is (amd64, arm64): the
			// bytes are the value, NaN payloads and all.
			copy(unsafe.Slice((*byte)(v.UnsafePointer()), size), data[:size])
		}
		data = data[size:]
		vals[i] = v.Elem().Interface()
	}
	return vals, nil
}
