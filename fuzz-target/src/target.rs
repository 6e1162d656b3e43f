//! The Rust side of writing a target: `fuzz_target!` for Go-style typed
//! targets and `libfuzzer_target!` for the libFuzzer entry point.
//!
//! A typed target is an exported C function `int FuzzName(const uint8_t
//! *args, size_t len)` plus an exported NUL-terminated data symbol
//! `FuzzName_args` naming its Go argument types (ARCHITECTURE.md,
//! "Targets"). The macros here write both from a typed closure, so a
//! target author never touches the packed encoding:
//!
//! ```
//! fuzz_target::fuzz_target!(FuzzParse, |name: &str, n: i64, data: &[u8]| {
//!     let _ = (name, n, data);
//! });
//! ```
//!
//! What this module keeps true:
//! - the signature string is computed at compile time from the closure's
//!   argument types ([`GoType::GO_TYPE`]), so it cannot drift from the
//!   decoding ([`FuzzArg::read`]);
//! - arguments that do not decode (truncated, trailing bytes, a `&str` that
//!   is not UTF-8, a `char` that is not a Unicode scalar value) reject the
//!   input (-1, Go's `t.Skip`) and the closure is never called;
//! - a panic in a typed target is caught and reported as a failure (1), so
//!   the worker process lives on; a panic in a libFuzzer entry aborts the
//!   process (a crash), as cargo-fuzz's `fuzz_target!` does.

use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::args::ArgReader;

/// Status a typed target returns for a passing input.
pub const PASS: i32 = 0;
/// Status that rejects an input (Go's `t.Skip`): never added to a corpus.
pub const REJECT: i32 = -1;
/// Status of a failing input (Go's `t.Fail`).
pub const FAIL: i32 = 1;

/// The Go type name of a closure argument type, as written in the
/// `FuzzName_args` signature.
pub trait GoType {
    /// Go's spelling: `"string"`, `"[]byte"`, `"int64"`, …
    const GO_TYPE: &'static str;
}

/// A type a typed target's closure may take: it names its Go type and reads
/// itself from the packed arguments.
///
/// Implemented for `&[u8]`, `Vec<u8>` (`[]byte`); `&str`, `String`,
/// [`GoStr`] (`string`); `bool`; `i8`, `i16`, `i32`, `i64`, `isize` (`int`);
/// `u8`, `u16`, `u32`, `u64`, `usize` (`uint`); `char` (`rune`); `f32`,
/// `f64`; and by [`custom_value!`](crate::custom_value) for a
/// [`CustomValue`](crate::CustomValue) type (`custom(NAME)`).
pub trait FuzzArg<'a>: GoType + Sized {
    /// Reads one value; `None` when the bytes do not hold one, which rejects
    /// the input.
    fn read(r: &mut ArgReader<'a>) -> Option<Self>;
}

/// A Go `string` argument that may hold any bytes.
///
/// Go strings are byte strings: the fuzzer's mutator happily produces
/// invalid UTF-8. A target that takes `&str` or `String` rejects such inputs
/// (they never reach the closure and never enter the corpus); a target that
/// must see every byte string takes `GoStr` instead, which derefs to
/// `[u8]` and converts on demand.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct GoStr<'a>(pub &'a [u8]);

impl<'a> GoStr<'a> {
    /// The raw bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
    /// The string, when it is valid UTF-8.
    pub fn to_str(&self) -> Result<&'a str, std::str::Utf8Error> {
        std::str::from_utf8(self.0)
    }
    /// The string with invalid sequences replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.0)
    }
}

impl std::ops::Deref for GoStr<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.0
    }
}

impl AsRef<[u8]> for GoStr<'_> {
    fn as_ref(&self) -> &[u8] {
        self.0
    }
}

impl std::fmt::Debug for GoStr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.0.escape_ascii())
    }
}

impl Display for GoStr<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Display::fmt(&self.to_string_lossy(), f)
    }
}

macro_rules! go_types {
    ($($t:ty => $name:literal),* $(,)?) => {
        $(impl GoType for $t { const GO_TYPE: &'static str = $name; })*
    };
}

go_types! {
    &[u8] => "[]byte",
    Vec<u8> => "[]byte",
    &str => "string",
    String => "string",
    GoStr<'_> => "string",
    bool => "bool",
    i8 => "int8",
    i16 => "int16",
    i32 => "int32",
    i64 => "int64",
    isize => "int",
    u8 => "uint8",
    u16 => "uint16",
    u32 => "uint32",
    u64 => "uint64",
    usize => "uint",
    char => "rune",
    f32 => "float32",
    f64 => "float64",
}

impl<'a> FuzzArg<'a> for &'a [u8] {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        r.bytes()
    }
}

impl<'a> FuzzArg<'a> for Vec<u8> {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        r.bytes().map(<[u8]>::to_vec)
    }
}

impl<'a> FuzzArg<'a> for GoStr<'a> {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        r.bytes().map(GoStr)
    }
}

impl<'a> FuzzArg<'a> for &'a str {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        std::str::from_utf8(r.bytes()?).ok()
    }
}

impl<'a> FuzzArg<'a> for String {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        <&str>::read(r).map(str::to_owned)
    }
}

impl<'a> FuzzArg<'a> for bool {
    /// Go packs `bool` as 0 or 1; any other byte rejects the input.
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        match r.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

macro_rules! fuzz_arg_ints {
    ($($t:ty => $read:ident as $raw:ty),* $(,)?) => {
        $(impl<'a> FuzzArg<'a> for $t {
            fn read(r: &mut ArgReader<'a>) -> Option<Self> {
                r.$read().map(|v| v as $raw as $t)
            }
        })*
    };
}

fuzz_arg_ints! {
    u8 => u8 as u8,
    i8 => u8 as u8,
    u16 => u16 as u16,
    i16 => u16 as u16,
    u32 => u32 as u32,
    i32 => u32 as u32,
    u64 => u64 as u64,
    i64 => u64 as u64,
}

impl<'a> FuzzArg<'a> for isize {
    /// Go's `int` is 8 bytes; a value that does not fit this platform's
    /// `isize` rejects the input.
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        isize::try_from(r.u64()? as i64).ok()
    }
}

impl<'a> FuzzArg<'a> for usize {
    /// Go's `uint` is 8 bytes; a value that does not fit this platform's
    /// `usize` rejects the input.
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        usize::try_from(r.u64()?).ok()
    }
}

impl<'a> FuzzArg<'a> for char {
    /// A `rune` that is not a Unicode scalar value (a surrogate, or beyond
    /// U+10FFFF, which Go allows) rejects the input.
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        char::from_u32(r.u32()?)
    }
}

impl<'a> FuzzArg<'a> for f32 {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        r.u32().map(f32::from_bits)
    }
}

impl<'a> FuzzArg<'a> for f64 {
    fn read(r: &mut ArgReader<'a>) -> Option<Self> {
        r.u64().map(f64::from_bits)
    }
}

/// An explicit verdict a target closure may return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The input ran normally.
    Pass,
    /// Reject the input (Go's `t.Skip`): it is never added to a corpus.
    Reject,
}

/// What a target closure may return, and how it maps to a status:
///
/// | closure returns | status |
/// |---|---|
/// | `()` | pass (0) |
/// | `bool` | `true` pass, `false` failure (1) with a message on stderr |
/// | [`Verdict`] | `Pass` 0, `Reject` -1 |
/// | `Result<T, E: Display>` | `Ok(t)` as `t`, `Err(e)` failure with `e` on stderr |
pub trait Outcome {
    /// The status (0, -1 or 1); a failure writes its message to stderr.
    fn status(self, target: &str) -> i32;
}

impl Outcome for () {
    fn status(self, _: &str) -> i32 {
        PASS
    }
}

impl Outcome for bool {
    fn status(self, target: &str) -> i32 {
        if self {
            PASS
        } else {
            message(format_args!("{target}: target returned false"));
            FAIL
        }
    }
}

impl Outcome for Verdict {
    fn status(self, _: &str) -> i32 {
        match self {
            Verdict::Pass => PASS,
            Verdict::Reject => REJECT,
        }
    }
}

impl<T: Outcome, E: Display> Outcome for Result<T, E> {
    fn status(self, target: &str) -> i32 {
        match self {
            Ok(t) => t.status(target),
            Err(e) => {
                message(format_args!("{e}"));
                FAIL
            }
        }
    }
}

/// Writes a failure message to stderr; a stderr that cannot be written is
/// ignored (`eprintln!` would panic outside the closure's `catch_unwind`).
fn message(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{args}");
}

/// Runs a typed target's closure: a panic is caught and is a failure (its
/// message and location were already written to stderr by the panic hook).
#[doc(hidden)]
pub fn run_typed<R: Outcome>(target: &str, f: impl FnOnce() -> R) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.status(target),
        Err(_) => FAIL,
    }
}

/// Runs a libFuzzer entry's closure: a failure or a panic aborts the
/// process, which the fuzzer reports as a crash.
#[doc(hidden)]
pub fn run_libfuzzer<R: Outcome>(f: impl FnOnce() -> R) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => match r.status("LLVMFuzzerTestOneInput") {
            PASS => PASS,
            REJECT => REJECT,
            _ => std::process::abort(),
        },
        Err(_) => std::process::abort(),
    }
}

/// The input bytes behind a C `(pointer, length)` pair; a null pointer is
/// only accepted with length 0.
///
/// # Safety
/// `data` must point to `len` readable bytes that outlive `'a`.
#[doc(hidden)]
pub unsafe fn input<'a>(data: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        Some(&[])
    } else if data.is_null() {
        None
    } else {
        // SAFETY: the caller guarantees `len` readable bytes at `data`.
        Some(unsafe { std::slice::from_raw_parts(data, len) })
    }
}

/// Length of the NUL-terminated signature built from `names`: the names
/// joined by `", "`, plus the NUL.
pub const fn signature_len(names: &[&str]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            len += 2;
        }
        len += names[i].len();
        i += 1;
    }
    len + 1
}

/// The NUL-terminated signature, `"string, int64, []byte\0"`; `N` must be
/// [`signature_len`]`(names)` (a mismatch fails to compile in a const).
pub const fn signature<const N: usize>(names: &[&str]) -> [u8; N] {
    assert!(N == signature_len(names), "signature length mismatch");
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            out[at] = b',';
            out[at + 1] = b' ';
            at += 2;
        }
        let name = names[i].as_bytes();
        let mut j = 0;
        while j < name.len() {
            out[at] = name[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Whether `name` is a typed target's name: `^Fuzz[A-Z0-9_][A-Za-z0-9_]*$`.
pub const fn valid_target_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.len() < 5 || b[0] != b'F' || b[1] != b'u' || b[2] != b'z' || b[3] != b'z' {
        return false;
    }
    if !(b[4].is_ascii_uppercase() || b[4].is_ascii_digit() || b[4] == b'_') {
        return false;
    }
    let mut i = 5;
    while i < b.len() {
        if !(b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    true
}

/// Defines a Go-style typed target in a Rust `cdylib`.
///
/// ```
/// fuzz_target::fuzz_target!(FuzzRecord, |name: &str, count: i64, payload: &[u8]| {
///     if name == "boom" && count == 42 && payload.is_empty() {
///         panic!("boom");
///     }
/// });
/// ```
///
/// exports `FuzzRecord(const uint8_t *args, size_t len) -> int` and the
/// data symbol `FuzzRecord_args = "string, int64, []byte"`. Arguments are
/// plain identifiers with a type implementing [`FuzzArg`]; an input whose
/// arguments do not decode (truncated, trailing bytes, non-UTF-8 for `&str`
/// and `String`) is rejected. The body may return `()`, `bool`, [`Verdict`]
/// or `Result<_, E: Display>` (see [`Outcome`]); a panic is caught and is a
/// failure, its message (from the panic hook) on stderr. A library built
/// with `panic = "abort"` cannot catch: there a panic is a crash.
///
/// The name must match `^Fuzz[A-Z0-9_][A-Za-z0-9_]*$` (checked at compile
/// time) and, being an exported C symbol, be unique in the library.
/// Attributes and doc comments before the name go on the exported function:
/// `fuzz_target!(/// Parses records.\n FuzzParse, |data: &[u8]| { … })`.
#[macro_export]
macro_rules! fuzz_target {
    ($(#[$attr:meta])* $name:ident, |$($arg:ident : $ty:ty),+ $(,)?| -> $ret:ty $body:block) => {
        $crate::fuzz_target!(@emit [$(#[$attr])*] $name, [$($arg : $ty),+], (-> $ret), $body);
    };
    ($(#[$attr:meta])* $name:ident, |$($arg:ident : $ty:ty),+ $(,)?| $body:expr $(,)?) => {
        $crate::fuzz_target!(@emit [$(#[$attr])*] $name, [$($arg : $ty),+], (), $body);
    };
    (@emit [$(#[$attr:meta])*] $name:ident, [$($arg:ident : $ty:ty),+], ($($ret:tt)*), $body:expr) => {
        const _: () = ::core::assert!(
            $crate::target::valid_target_name(::core::stringify!($name)),
            ::core::concat!(
                "fuzz_target!: `", ::core::stringify!($name),
                "` must match ^Fuzz[A-Z0-9_][A-Za-z0-9_]*$"
            )
        );

        // `FuzzName_args`: the NUL-terminated Go signature. macro_rules
        // cannot build that identifier, so the static gets its exported
        // name from `export_name`, in an anonymous const so that it adds
        // no Rust name.
        const _: () = {
            #[export_name = ::core::concat!(::core::stringify!($name), "_args")]
            #[used]
            static SIGNATURE: [u8; $crate::target::signature_len(
                &[$(<$ty as $crate::target::GoType>::GO_TYPE),+],
            )] = $crate::target::signature(&[$(<$ty as $crate::target::GoType>::GO_TYPE),+]);
        };

        $(#[$attr])*
        #[doc = ::core::concat!(
            "\n\nTyped fuzz target `", ::core::stringify!($name), "` (signature in `",
            ::core::stringify!($name), "_args`).\n\n# Safety\n`args` must point to `len` readable bytes (or `len` be 0)."
        )]
        #[no_mangle]
        #[allow(non_snake_case)]
        pub unsafe extern "C" fn $name(args: *const u8, len: usize) -> i32 {
            // SAFETY: the caller passes `len` readable bytes.
            let input = match unsafe { $crate::target::input(args, len) } {
                ::core::option::Option::Some(d) => d,
                ::core::option::Option::None => return $crate::target::REJECT,
            };
            let mut reader = $crate::ArgReader::new(input);
            $(
                let $arg: $ty = match <$ty as $crate::target::FuzzArg>::read(&mut reader) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return $crate::target::REJECT,
                };
            )+
            if !reader.is_empty() {
                return $crate::target::REJECT;
            }
            $crate::target::run_typed(::core::stringify!($name), move || {
                let body = |$($arg: $ty),+| $($ret)* { $body };
                body($($arg),+)
            })
        }
    };
}

/// Defines the libFuzzer entry point `LLVMFuzzerTestOneInput` in a Rust
/// `cdylib` (one per library; the target is named after the library file).
///
/// ```
/// fuzz_target::libfuzzer_target!(|data: &[u8]| {
///     if data.starts_with(b"FUZZ") {
///         // parse…
///     }
/// });
/// ```
///
/// The body may return what a typed target's may (see [`Outcome`]):
/// `Verdict::Reject` returns -1 (the input is not added to the corpus). A
/// panic, `false` or an `Err` aborts the process: for a libFuzzer entry a
/// failure is a crash, as with cargo-fuzz's `libfuzzer-sys`. The panic
/// message is on stderr first (from the panic hook).
#[macro_export]
macro_rules! libfuzzer_target {
    (|$data:ident $(: &[u8])?| $body:expr $(,)?) => {
        /// The libFuzzer entry point.
        ///
        /// # Safety
        /// `data` must point to `size` readable bytes (or `size` be 0).
        #[no_mangle]
        pub unsafe extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
            // SAFETY: the caller passes `size` readable bytes.
            let $data: &[u8] = match unsafe { $crate::target::input(data, size) } {
                ::core::option::Option::Some(d) => d,
                ::core::option::Option::None => return $crate::target::REJECT,
            };
            $crate::target::run_libfuzzer(move || $body)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{ArgType, ArgWriter};
    use std::ffi::CStr;

    fn call(f: unsafe extern "C" fn(*const u8, usize) -> i32, packed: &[u8]) -> i32 {
        // SAFETY: `packed` is a live slice of `packed.len()` bytes.
        unsafe { f(packed.as_ptr(), packed.len()) }
    }

    fn sig(bytes: &[u8]) -> &str {
        CStr::from_bytes_with_nul(bytes).unwrap().to_str().unwrap()
    }

    /// The signature symbols the macro exported, linked by their C names
    /// (the cdylib examples check the dynamic export with `nm -D`).
    mod exported {
        extern "C" {
            #[link_name = "FuzzTestRecord_args"]
            pub static RECORD: u8;
            #[link_name = "FuzzTestBool_args"]
            pub static BOOL: u8;
            #[link_name = "FuzzTestResult_args"]
            pub static RESULT: u8;
            #[link_name = "FuzzTest_All_args"]
            pub static ALL: u8;
        }
    }

    fn exported_sig(first: *const u8) -> String {
        // SAFETY: `first` is the start of a NUL-terminated static.
        unsafe { CStr::from_ptr(first.cast()) }
            .to_str()
            .unwrap()
            .to_string()
    }

    crate::fuzz_target!(FuzzTestRecord, |name: &str, count: i64, payload: &[u8]| {
        if name == "boom" && count == 42 {
            panic!("boom with {count} and {} bytes", payload.len());
        }
    });

    crate::fuzz_target!(FuzzTestBool, |flag: bool| flag);

    crate::fuzz_target!(FuzzTestResult, |n: u16,
                                         s: GoStr|
     -> Result<Verdict, String> {
        match n {
            0 => Ok(Verdict::Pass),
            1 => Ok(Verdict::Reject),
            _ => Err(format!("bad n {n} with {s:?}")),
        }
    });

    crate::fuzz_target!(
        FuzzTest_All,
        |a: i8,
         b: i16,
         c: i32,
         d: i64,
         e: isize,
         f: u8,
         g: u16,
         h: u32,
         i: u64,
         j: usize,
         k: f32,
         l: f64,
         m: char,
         n: bool,
         o: String,
         p: Vec<u8>,
         q: GoStr,
         r: &[u8],
         s: &str| {
            assert_eq!((a, b, c, d, e), (-1, -2, -3, -4, -5));
            assert_eq!((f, g, h, i, j), (1, 2, 3, 4, 5));
            assert_eq!((k, l, m, n), (1.5, -2.25, 'é', true));
            assert_eq!(
                (o.as_str(), p.as_slice(), q.as_bytes(), r, s),
                ("o", &b"p"[..], &b"\xffq"[..], &b"r"[..], "s")
            );
        }
    );

    #[test]
    fn signature_strings() {
        assert_eq!(sig(&FuzzTestRecord_sig()), "string, int64, []byte");
        assert_eq!(
            exported_sig(std::ptr::addr_of!(exported::RECORD)),
            "string, int64, []byte"
        );
        assert_eq!(exported_sig(std::ptr::addr_of!(exported::BOOL)), "bool");
        assert_eq!(
            exported_sig(std::ptr::addr_of!(exported::RESULT)),
            "uint16, string"
        );
        let all = exported_sig(std::ptr::addr_of!(exported::ALL));
        assert_eq!(
            all,
            "int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint, \
             float32, float64, rune, bool, string, []byte, string, []byte, string"
        );
        // What the worker will make of it.
        let types = ArgType::parse_list(&all).unwrap();
        assert_eq!(types.len(), 19);
        assert_eq!(types[12], ArgType::Int32);
    }

    // Keeps `signature` itself covered without the dlsym round trip.
    #[allow(non_snake_case)]
    fn FuzzTestRecord_sig() -> [u8; 22] {
        const NAMES: &[&str] = &["string", "int64", "[]byte"];
        signature::<{ signature_len(NAMES) }>(NAMES)
    }

    #[test]
    fn signature_building() {
        assert_eq!(signature_len(&["bool"]), 5);
        assert_eq!(&signature::<5>(&["bool"]), b"bool\0");
        assert_eq!(signature_len(&["a", "bc"]), 6);
        assert_eq!(&signature::<6>(&["a", "bc"]), b"a, bc\0");
    }

    #[test]
    fn target_names() {
        for ok in ["FuzzX", "Fuzz_", "Fuzz0", "FuzzParse_v2", "FuzzABC"] {
            assert!(valid_target_name(ok), "{ok}");
        }
        for bad in ["Fuzz", "Fuzzer", "fuzzX", "FuzzX-y", "XFuzzY", "Fuzzé"] {
            assert!(!valid_target_name(bad), "{bad}");
        }
    }

    fn record(name: &[u8], count: i64, payload: &[u8]) -> Vec<u8> {
        let mut w = ArgWriter::new();
        w.bytes(name);
        w.u64(count as u64);
        w.bytes(payload);
        w.finish()
    }

    #[test]
    fn typed_pass_fail_reject() {
        assert_eq!(call(FuzzTestRecord, &record(b"ok", 42, b"x")), PASS);
        // A panic is caught: a failure, and the process lives on.
        assert_eq!(call(FuzzTestRecord, &record(b"boom", 42, b"x")), FAIL);
        assert_eq!(call(FuzzTestRecord, &record(b"boom", 41, b"x")), PASS);
        // Non-UTF-8 for a `&str` argument rejects.
        assert_eq!(call(FuzzTestRecord, &record(b"\xff", 42, b"")), REJECT);
    }

    #[test]
    fn decoding_failures_reject() {
        let good = record(b"ab", 1, b"!");
        assert_eq!(call(FuzzTestRecord, &good), PASS);
        for cut in 0..good.len() {
            assert_eq!(call(FuzzTestRecord, &good[..cut]), REJECT, "cut at {cut}");
        }
        let mut extra = good.clone();
        extra.push(0);
        assert_eq!(call(FuzzTestRecord, &extra), REJECT);
        // A length prefix beyond the input.
        let mut long = good;
        long[0] = 200;
        assert_eq!(call(FuzzTestRecord, &long), REJECT);
        // Null pointer: only with length 0 (and then the arguments are short).
        // SAFETY: a null pointer with length 0 is allowed.
        assert_eq!(unsafe { FuzzTestRecord(std::ptr::null(), 0) }, REJECT);
        // SAFETY: a null pointer with a length must not be read.
        assert_eq!(unsafe { FuzzTestRecord(std::ptr::null(), 12) }, REJECT);
    }

    #[test]
    fn outcomes() {
        assert_eq!(call(FuzzTestBool, &[1]), PASS);
        assert_eq!(call(FuzzTestBool, &[0]), FAIL);
        assert_eq!(call(FuzzTestBool, &[2]), REJECT);
        let res = |n: u16, s: &[u8]| {
            let mut w = ArgWriter::new();
            w.u16(n);
            w.bytes(s);
            call(FuzzTestResult, &w.finish())
        };
        assert_eq!(res(0, b"\xff"), PASS);
        assert_eq!(res(1, b""), REJECT);
        assert_eq!(res(7, b"x"), FAIL);
    }

    #[test]
    fn every_type_decodes() {
        let mut w = ArgWriter::new();
        w.u8(-1i8 as u8);
        w.u16(-2i16 as u16);
        w.u32(-3i32 as u32);
        w.u64(-4i64 as u64);
        w.u64(-5i64 as u64);
        w.u8(1);
        w.u16(2);
        w.u32(3);
        w.u64(4);
        w.u64(5);
        w.u32(1.5f32.to_bits());
        w.u64((-2.25f64).to_bits());
        w.u32('é' as u32);
        w.bool(true);
        for s in [&b"o"[..], b"p", b"\xffq", b"r", b"s"] {
            w.bytes(s);
        }
        let packed = w.finish();
        assert_eq!(call(FuzzTest_All, &packed), PASS);
        // A surrogate is not a `char`: reject.
        let mut bad = packed.clone();
        let rune_at = 1 + 2 + 4 + 8 + 8 + 1 + 2 + 4 + 8 + 8 + 4 + 8;
        bad[rune_at..rune_at + 4].copy_from_slice(&0xD800u32.to_le_bytes());
        assert_eq!(call(FuzzTest_All, &bad), REJECT);
        // A wrong value fails through the caught assertion.
        let mut wrong = packed;
        wrong[0] = 0;
        assert_eq!(call(FuzzTest_All, &wrong), FAIL);
    }

    #[test]
    fn go_str() {
        let s = GoStr(b"a\xffb");
        assert!(s.to_str().is_err());
        assert_eq!(s.to_string_lossy(), "a\u{fffd}b");
        assert_eq!(format!("{s:?}"), "\"a\\xffb\"");
        assert_eq!(s.len(), 3);
        assert_eq!(GoStr(b"ok").to_str(), Ok("ok"));
    }
}
