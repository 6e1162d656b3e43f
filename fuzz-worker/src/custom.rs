//! Custom mutators a target library exports, found once after loading and
//! called through a safe interface by the fuzzing loop.
//!
//! The symbols (`fuzz-worker(1)`, CUSTOM MUTATORS; `fuzz-target`'s
//! `custom` module and `fuzz_target.h` write them):
//! - `size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t
//!   max_size, unsigned int seed)` and `size_t LLVMFuzzerCustomCrossOver(const
//!   uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
//!   uint8_t *out, size_t max_out_size, unsigned int seed)`, libFuzzer's,
//!   for the `LLVMFuzzerTestOneInput` entry;
//! - `size_t fuzz_mutate_NAME(…)`, with the custom mutator's prototype, for
//!   values of the custom type `NAME` (`custom(NAME)` in a `FuzzName_args`
//!   list) of typed targets. Only names of ASCII letters, digits and `_`
//!   have one (`fuzz_target::custom::mutator_symbol`).
//!
//! What this module keeps true:
//! - a mutator returning 0 (no input made) leaves the caller's bytes as they
//!   were, and a result is never longer than the room given: the target
//!   works in a scratch buffer of `max_len` bytes, copied back on success;
//! - the fuzzer's own `LLVMFuzzerMutate` is reseeded from the seed passed to
//!   the target's mutator right before each call ([`crate::mutate::reseed`]),
//!   so a mutator that draws only from its seed and `LLVMFuzzerMutate` makes
//!   the same bytes from the same bytes and seed (given the same comparison
//!   tables, which `LLVMFuzzerMutate` also draws on, as in any seeded run);
//! - what the mutator's own instrumented code covers is never counted as
//!   the next input's coverage: the counters are zeroed after each call.
//!   (Its integer comparisons still reach the comparison tables, as in
//!   libFuzzer.)

use crate::coverage::CounterMap;
use crate::library::{Library, Target};
use fuzz_core::worker::protocol::TargetKind;
use fuzz_core::ArgType;
use std::cell::RefCell;
use std::ffi::c_uint;

/// `LLVMFuzzerCustomMutator`'s prototype, shared by `fuzz_mutate_NAME`.
pub type MutatorFn = unsafe extern "C" fn(*mut u8, usize, usize, c_uint) -> usize;
/// `LLVMFuzzerCustomCrossOver`'s prototype.
pub type CrossOverFn =
    unsafe extern "C" fn(*const u8, usize, *const u8, usize, *mut u8, usize, c_uint) -> usize;

/// libFuzzer's custom mutator symbol.
pub const CUSTOM_MUTATOR: &str = "LLVMFuzzerCustomMutator";
/// libFuzzer's custom cross-over symbol.
pub const CUSTOM_CROSS_OVER: &str = "LLVMFuzzerCustomCrossOver";

/// The custom mutators of one loaded library.
///
/// Like [`Library::function`]'s pointers, these stay valid while the
/// library stays loaded (the worker never unloads it).
pub struct Custom {
    mutator: Option<MutatorFn>,
    cross_over: Option<CrossOverFn>,
    /// `fuzz_mutate_NAME` by custom type name, for the custom types the
    /// library's targets take.
    values: Vec<(String, MutatorFn)>,
    /// Zeroed after each call (see the module doc).
    map: CounterMap,
    scratch: RefCell<Vec<u8>>,
}

impl Custom {
    /// Looks the optional symbols up in a loaded library: libFuzzer's two,
    /// and a `fuzz_mutate_NAME` for each custom type its targets take.
    pub fn load(lib: &Library) -> Custom {
        // SAFETY: these symbols are documented (module doc, man page) to
        // have exactly these prototypes.
        let (mutator, cross_over) = unsafe {
            (
                lib.optional_function::<MutatorFn>(CUSTOM_MUTATOR),
                lib.optional_function::<CrossOverFn>(CUSTOM_CROSS_OVER),
            )
        };
        let mut values: Vec<(String, MutatorFn)> = Vec::new();
        for t in &lib.targets {
            for a in &t.args {
                let ArgType::Custom(name) = a else { continue };
                if values.iter().any(|(n, _)| n == name) {
                    continue;
                }
                let Some(symbol) = fuzz_target::custom::mutator_symbol(name) else {
                    continue;
                };
                // SAFETY: as above, `fuzz_mutate_NAME` has the custom
                // mutator's prototype.
                if let Some(f) = unsafe { lib.optional_function::<MutatorFn>(&symbol) } {
                    values.push((name.clone(), f));
                }
            }
        }
        Custom::from_parts(
            mutator,
            cross_over,
            values,
            CounterMap::new(lib.uses_pc_map),
        )
    }

    fn from_parts(
        mutator: Option<MutatorFn>,
        cross_over: Option<CrossOverFn>,
        values: Vec<(String, MutatorFn)>,
        map: CounterMap,
    ) -> Custom {
        Custom {
            mutator,
            cross_over,
            values,
            map,
            scratch: RefCell::new(Vec::new()),
        }
    }

    /// The mutators that apply to a target of this kind: libFuzzer's two
    /// hooks are for the `LLVMFuzzerTestOneInput` entry only, never for a
    /// typed target (even one whose only argument is a `[]byte`).
    pub fn for_kind(mut self, kind: &TargetKind) -> Custom {
        if *kind == TargetKind::Typed {
            self.mutator = None;
            self.cross_over = None;
        }
        self
    }

    /// A library-free set of mutators: `values`' custom-type mutators only.
    #[cfg(test)]
    pub(crate) fn with_value_mutators(values: Vec<(String, MutatorFn)>) -> Custom {
        Custom::from_parts(None, None, values, CounterMap::new(false))
    }

    /// Whether the library exports none of these symbols.
    pub fn is_empty(&self) -> bool {
        self.mutator.is_none() && self.cross_over.is_none() && self.values.is_empty()
    }

    /// Whether the library exports `LLVMFuzzerCustomMutator`.
    pub fn has_mutator(&self) -> bool {
        self.mutator.is_some()
    }

    /// Whether the library exports `LLVMFuzzerCustomCrossOver`.
    pub fn has_cross_over(&self) -> bool {
        self.cross_over.is_some()
    }

    /// Whether the library exports `fuzz_mutate_NAME` for the custom type
    /// `name` (one its targets take).
    pub fn has_value_mutator(&self, name: &str) -> bool {
        self.value_mutator(name).is_some()
    }

    fn value_mutator(&self, name: &str) -> Option<MutatorFn> {
        self.values.iter().find(|(n, _)| n == name).map(|&(_, f)| f)
    }

    /// The exported symbols that mutate `target`'s inputs: libFuzzer's for a
    /// libFuzzer entry, `fuzz_mutate_NAME` for each custom argument type of
    /// a typed target that has one.
    pub fn symbols_for(&self, target: &Target) -> Vec<String> {
        match target.kind {
            TargetKind::LibFuzzer => {
                let mut out = Vec::new();
                if self.has_mutator() {
                    out.push(CUSTOM_MUTATOR.to_string());
                }
                if self.has_cross_over() {
                    out.push(CUSTOM_CROSS_OVER.to_string());
                }
                out
            }
            TargetKind::Typed => {
                let mut out: Vec<String> = Vec::new();
                for a in &target.args {
                    if let ArgType::Custom(name) = a {
                        if let Some(s) = fuzz_target::custom::mutator_symbol(name)
                            .filter(|_| self.has_value_mutator(name))
                            .filter(|s| !out.contains(s))
                        {
                            out.push(s);
                        }
                    }
                }
                out
            }
        }
    }

    /// libFuzzer's custom mutator on a libFuzzer entry's input: mutates
    /// `data` in place, where it may grow up to `max_len` bytes (a longer
    /// input is first cut to `max_len`), from `seed` as libFuzzer passes it
    /// (draw it from the slice's generator to keep runs reproducible).
    /// False, `data` unchanged, when the library has no custom mutator, when
    /// it returned 0 (no input made), or when `max_len` is 0.
    pub fn mutate(&self, data: &mut Vec<u8>, max_len: usize, seed: u32) -> bool {
        match self.mutator {
            Some(f) => self.call_mutator(f, data, max_len, seed),
            None => false,
        }
    }

    /// libFuzzer's custom cross-over of `a` and `b` into `out` (cleared
    /// first), at most `max_len` bytes. False, `out` empty, when the library
    /// has none, when it returned 0, or when `max_len` is 0.
    pub fn cross_over(
        &self,
        a: &[u8],
        b: &[u8],
        out: &mut Vec<u8>,
        max_len: usize,
        seed: u32,
    ) -> bool {
        out.clear();
        let Some(f) = self.cross_over else {
            return false;
        };
        if max_len == 0 {
            return false;
        }
        let mut buf = self.scratch.borrow_mut();
        buf.clear();
        buf.resize(max_len, 0);
        crate::mutate::reseed(u64::from(seed));
        // SAFETY: `a` and `b` are live slices of their lengths and `buf`
        // holds `max_len` writable bytes, as the cross-over's contract asks.
        let n = unsafe {
            f(
                a.as_ptr(),
                a.len(),
                b.as_ptr(),
                b.len(),
                buf.as_mut_ptr(),
                max_len,
                seed,
            )
        };
        self.map.reset();
        if n == 0 {
            return false;
        }
        out.extend_from_slice(&buf[..n.min(max_len)]);
        true
    }

    /// A typed target's custom value of type `name`: mutates its bytes (its
    /// encoding) with the library's `fuzz_mutate_NAME`, as [`Custom::mutate`]
    /// does. False, `data` unchanged, when the library has no mutator for
    /// `name`, when it returned 0, or when `max_len` is 0.
    pub fn mutate_value(&self, name: &str, data: &mut Vec<u8>, max_len: usize, seed: u32) -> bool {
        match self.value_mutator(name) {
            Some(f) => self.call_mutator(f, data, max_len, seed),
            None => false,
        }
    }

    fn call_mutator(&self, f: MutatorFn, data: &mut Vec<u8>, max_len: usize, seed: u32) -> bool {
        if max_len == 0 {
            return false;
        }
        let mut buf = self.scratch.borrow_mut();
        let size = data.len().min(max_len);
        buf.clear();
        buf.extend_from_slice(&data[..size]);
        buf.resize(max_len, 0);
        crate::mutate::reseed(u64::from(seed));
        // SAFETY: `buf` holds `max_len` writable bytes, the first `size` of
        // them the input, as the custom mutator's contract asks.
        let n = unsafe { f(buf.as_mut_ptr(), size, max_len, seed) };
        self.map.reset();
        if n == 0 {
            return false;
        }
        data.clear();
        data.extend_from_slice(&buf[..n.min(max_len)]);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Appends the seed's low byte; returns 0 (no input) for an input "none".
    unsafe extern "C" fn append_seed(
        data: *mut u8,
        size: usize,
        max: usize,
        seed: c_uint,
    ) -> usize {
        // SAFETY: the caller passes `max` writable bytes.
        let buf = unsafe { std::slice::from_raw_parts_mut(data, max) };
        if &buf[..size] == b"none" {
            buf[0] = b'!'; // scribbles, then makes nothing
            return 0;
        }
        if size < max {
            buf[size] = seed as u8;
            size + 1
        } else {
            max + 10 // a broken mutator: more than the room
        }
    }

    /// Mutates with LLVMFuzzerMutate, which the worker reseeded.
    unsafe extern "C" fn default_only(data: *mut u8, size: usize, max: usize, _: c_uint) -> usize {
        // SAFETY: passing the caller's buffer on.
        unsafe { crate::mutate::LLVMFuzzerMutate(data, size, max) }
    }

    /// a, '|', b, then LLVMFuzzerMutate over it all.
    unsafe extern "C" fn join(
        a: *const u8,
        na: usize,
        b: *const u8,
        nb: usize,
        out: *mut u8,
        max: usize,
        _: c_uint,
    ) -> usize {
        // SAFETY: per the cross-over contract.
        unsafe {
            let (a, b) = (
                std::slice::from_raw_parts(a, na),
                std::slice::from_raw_parts(b, nb),
            );
            if a.is_empty() && b.is_empty() {
                return 0;
            }
            let out = std::slice::from_raw_parts_mut(out, max);
            let mut v = [a, b"|", b].concat();
            v.truncate(max);
            out[..v.len()].copy_from_slice(&v);
            v.len()
        }
    }

    fn fake(mutator: Option<MutatorFn>, cross_over: Option<CrossOverFn>) -> Custom {
        Custom::from_parts(
            mutator,
            cross_over,
            vec![("tree".into(), default_only as MutatorFn)],
            CounterMap::new(false),
        )
    }

    #[test]
    fn mutate_keeps_the_contract() {
        let c = fake(Some(append_seed), None);
        assert!(c.has_mutator() && !c.has_cross_over());
        let mut d = b"ab".to_vec();
        assert!(c.mutate(&mut d, 8, 0x41));
        assert_eq!(d, b"abA");
        // 0 leaves the input as it was, even though the mutator scribbled.
        let mut d = b"none".to_vec();
        assert!(!c.mutate(&mut d, 8, 1));
        assert_eq!(d, b"none");
        // An input longer than the room is cut first; an overlong answer is
        // cut to the room.
        let mut d = b"abcdef".to_vec();
        assert!(c.mutate(&mut d, 4, 1));
        assert_eq!(d, b"abcd");
        // No room: nothing called.
        let mut d = b"ab".to_vec();
        assert!(!c.mutate(&mut d, 0, 1));
        assert_eq!(d, b"ab");
        // No mutator at all.
        let none = fake(None, None);
        assert!(!none.mutate(&mut d, 8, 1));
        assert_eq!(d, b"ab");
    }

    #[test]
    fn cross_over_fills_out() {
        let c = fake(None, Some(join));
        let mut out = b"old".to_vec();
        assert!(c.cross_over(b"ab", b"cd", &mut out, 16, 3));
        assert_eq!(out, b"ab|cd");
        assert!(c.cross_over(b"ab", b"cd", &mut out, 4, 3));
        assert_eq!(out, b"ab|c");
        assert!(!c.cross_over(b"", b"", &mut out, 16, 3));
        assert!(out.is_empty());
        assert!(!fake(None, None).cross_over(b"a", b"b", &mut out, 16, 3));
        assert!(!c.cross_over(b"a", b"b", &mut out, 0, 3));
    }

    #[test]
    fn a_typed_target_gets_no_libfuzzer_hook() {
        let typed = fake(Some(append_seed), Some(join)).for_kind(&TargetKind::Typed);
        assert!(!typed.has_mutator() && !typed.has_cross_over());
        assert!(typed.has_value_mutator("tree") && !typed.is_empty());
        let entry = fake(Some(append_seed), Some(join)).for_kind(&TargetKind::LibFuzzer);
        assert!(entry.has_mutator() && entry.has_cross_over());
    }

    #[test]
    fn value_mutators_by_type_name_are_deterministic() {
        let c = fake(None, None);
        assert!(c.has_value_mutator("tree") && !c.has_value_mutator("other"));
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..200u32 {
            let run = || {
                let mut d = b"a custom value".to_vec();
                assert!(c.mutate_value("tree", &mut d, 32, seed));
                d
            };
            let first = run();
            assert_eq!(run(), first, "seed {seed}");
            distinct.insert(first);
        }
        assert!(distinct.len() > 100, "only {}", distinct.len());
        let mut d = b"x".to_vec();
        assert!(!c.mutate_value("other", &mut d, 32, 1));
        assert_eq!(d, b"x");
    }

    /// A library built here with gcc: libFuzzer's entry and both libFuzzer
    /// hooks, and a typed target with custom arguments, one with a mutator.
    const LIBRARY: &str = r#"
#include <stddef.h>
#include <stdint.h>
#include <string.h>
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
size_t LLVMFuzzerCustomMutator(uint8_t *d, size_t n, size_t max, unsigned int seed) {
    if (max < 2) return 0;
    n = LLVMFuzzerMutate(d + 1, n > 0 ? n - 1 : 0, max - 1);
    d[0] = (uint8_t)(seed % 26 + 'a');
    return n + 1;
}
size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b,
                                 size_t nb, uint8_t *out, size_t max, unsigned int seed) {
    size_t k = na < max ? na : max, j = nb < max - k ? nb : max - k;
    (void)seed;
    memcpy(out, b, j);
    memcpy(out + j, a, k);
    return k + j;
}
const char FuzzTree_args[] = "custom(tree), custom(bare), custom(odd.name), int64";
int FuzzTree(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
size_t fuzz_mutate_tree(uint8_t *d, size_t n, size_t max, unsigned int seed) {
    n = LLVMFuzzerMutate(d, n, max);
    if (n < max) d[n++] = (uint8_t)seed;
    return n;
}
"#;

    /// The tests that run instrumented code take turns: the trace-pc map
    /// is one for the whole process.
    static INSTRUMENTED: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn build_library(dir: &Path) -> PathBuf {
        let src = dir.join("custom.c");
        std::fs::write(&src, LIBRARY).unwrap();
        let lib = dir.join("libcustom_unit.so");
        let out = Command::new("gcc")
            .args(["-O1", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror"])
            .arg("-fsanitize-coverage=trace-pc")
            .arg("-o")
            .arg(&lib)
            .arg(&src)
            .output()
            .expect("gcc is required by this test (apt-get install gcc)");
        assert!(
            out.status.success(),
            "gcc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        lib
    }

    #[test]
    fn a_real_library_s_mutators() {
        let _turn = INSTRUMENTED.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&build_library(dir.path()), None).unwrap();
        let c = Custom::load(&lib);
        assert!(c.has_mutator() && c.has_cross_over());
        assert!(c.has_value_mutator("tree"));
        // Declared but not exported; a name no C symbol can carry.
        assert!(!c.has_value_mutator("bare") && !c.has_value_mutator("odd.name"));
        let entry = lib.target(Some("custom_unit")).unwrap();
        assert_eq!(
            c.symbols_for(entry),
            ["LLVMFuzzerCustomMutator", "LLVMFuzzerCustomCrossOver"]
        );
        let typed = lib.target(Some("FuzzTree")).unwrap();
        assert_eq!(c.symbols_for(typed), ["fuzz_mutate_tree"]);

        // The same bytes and seed give the same input, LLVMFuzzerMutate's
        // draws included; different seeds give different inputs.
        let mut results = std::collections::HashSet::new();
        for seed in 0..100u32 {
            let once = || {
                let mut d = b"xhello, world".to_vec();
                assert!(c.mutate(&mut d, 64, seed));
                d
            };
            let a = once();
            assert_eq!(a[0], b'a' + (seed % 26) as u8);
            assert_eq!(once(), a, "seed {seed}");
            results.insert(a);

            let value = || {
                let mut d = b"(1 (2 3))".to_vec();
                assert!(c.mutate_value("tree", &mut d, 64, seed));
                d
            };
            let v = value();
            assert_eq!(*v.last().unwrap(), seed as u8);
            assert_eq!(value(), v, "seed {seed}");
        }
        assert!(results.len() > 50, "only {} distinct", results.len());

        let mut out = Vec::new();
        assert!(c.cross_over(b"abc", b"XY", &mut out, 64, 0));
        assert_eq!(out, b"XYabc");
        assert!(c.cross_over(b"abc", b"XY", &mut out, 4, 0));
        assert_eq!(out, b"Xabc");
        assert!(!c.cross_over(b"", b"", &mut out, 64, 0));
        let mut d = b"v".to_vec();
        assert!(!c.mutate_value("bare", &mut d, 64, 1));
        assert_eq!(d, b"v");
    }

    #[test]
    fn the_mutator_s_own_coverage_is_not_counted() {
        let _turn = INSTRUMENTED.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&build_library(dir.path()), None).unwrap();
        assert!(lib.uses_pc_map, "built with gcc's trace-pc");
        let c = Custom::load(&lib);
        let map = CounterMap::new(true);
        let mut features = Vec::new();
        // Called bare, the mutator's code shows in the counters...
        // SAFETY: the symbol has the custom mutator's prototype.
        let raw = unsafe { lib.optional_function::<MutatorFn>(CUSTOM_MUTATOR) }.unwrap();
        let mut buf = *b"xabc\0\0\0\0";
        // SAFETY: `buf` has 8 writable bytes, 4 of them the input.
        unsafe { raw(buf.as_mut_ptr(), 4, 8, 1) };
        map.collect(&mut features);
        assert!(!features.is_empty());
        // ...and through `Custom`, it does not.
        features.clear();
        let mut d = b"xabc".to_vec();
        assert!(c.mutate(&mut d, 64, 1));
        assert!(c.mutate_value("tree", &mut d, 64, 1));
        let mut out = Vec::new();
        assert!(c.cross_over(b"a", b"b", &mut out, 64, 1));
        map.collect(&mut features);
        assert!(features.is_empty(), "{features:?}");
    }
}
