//! Custom mutators: inputs a target knows how to change better than any
//! byte-level mutator does, because only well-formed ones reach its code.
//!
//! Two kinds, both deterministic from the seed the fuzzer passes:
//!
//! - **Self-mutating custom values** of typed targets. A type implementing
//!   [`CustomValue`] and registered with [`custom_value!`](crate::custom_value)
//!   becomes a closure argument of [`fuzz_target!`](crate::fuzz_target), is
//!   declared `custom(NAME)` in the target's `FuzzName_args`, is stored in
//!   corpus files as `custom("NAME", []byte("…"))`, is packed like a
//!   `[]byte`, and is mutated through the exported function
//!   `fuzz_mutate_NAME`, which has `LLVMFuzzerCustomMutator`'s prototype.
//! - **libFuzzer's `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver`**
//!   for the `LLVMFuzzerTestOneInput` entry
//!   ([`libfuzzer_custom_mutator!`](crate::libfuzzer_custom_mutator),
//!   [`libfuzzer_custom_cross_over!`](crate::libfuzzer_custom_cross_over)),
//!   which may call the fuzzer's default mutator through [`default_mutate`].
//!
//! The contract every mutator symbol keeps (`fuzz-worker(1)`, "CUSTOM
//! MUTATORS"): `size_t f(uint8_t *data, size_t size, size_t max_size,
//! unsigned int seed)` changes the `size` bytes at `data` in place, within
//! `max_size` bytes, and returns the new size; 0 means it made no input. The
//! same bytes and the same seed must give the same result, so any
//! randomness comes from `seed` (here, [`Rng::new`]) or from
//! `LLVMFuzzerMutate`, which the worker reseeds from `seed` before each call.

use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

/// The prefix of a custom value type's mutator symbol: `fuzz_mutate_NAME`.
///
/// Not `Fuzz` followed by a capital, digit or `_`: that would make the
/// mutator a target.
pub const MUTATOR_PREFIX: &str = "fuzz_mutate_";

/// Whether `name` can name a custom type with a mutator: one or more ASCII
/// letters, digits and `_`, so that `fuzz_mutate_NAME` is a C identifier.
///
/// Corpus files accept other names too (`custom("a.b", …)`); values of such
/// types have no mutator and are left as they are.
pub const fn valid_custom_name(name: &str) -> bool {
    let b = name.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if !(b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            return false;
        }
        i += 1;
    }
    true
}

/// The symbol that mutates values of the custom type `name`, when `name`
/// can have one ([`valid_custom_name`]).
pub fn mutator_symbol(name: &str) -> Option<String> {
    valid_custom_name(name).then(|| format!("{MUTATOR_PREFIX}{name}"))
}

/// A small deterministic generator (SplitMix64) for custom mutators: the
/// same seed gives the same sequence, on every platform.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator seeded with the seed the fuzzer passed.
    pub fn new(seed: u32) -> Rng {
        Rng {
            state: u64::from(seed) ^ 0x6a09_e667_f3bc_c909,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 32 random bits.
    pub fn u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A random byte.
    pub fn u8(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// A number in `0..n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True once in `one_in` draws (always for 0 and 1).
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    /// One small change to `bytes` (flip a bit, set, insert, remove or
    /// duplicate a byte), never leaving it longer than `max_len`; a value
    /// already longer is first cut to `max_len`.
    pub fn mutate_bytes(&mut self, bytes: &mut Vec<u8>, max_len: usize) {
        bytes.truncate(max_len);
        for _ in 0..16 {
            let len = bytes.len();
            match self.below(5) {
                0 if len > 0 => {
                    let i = self.below(len);
                    bytes[i] ^= 1 << self.below(8);
                }
                1 if len > 0 => {
                    let i = self.below(len);
                    bytes[i] = self.u8();
                }
                2 if len < max_len => {
                    let i = self.below(len + 1);
                    bytes.insert(i, self.u8());
                }
                3 if len > 0 => {
                    let i = self.below(len);
                    bytes.remove(i);
                }
                4 if len > 0 && len < max_len => {
                    let i = self.below(len);
                    bytes.insert(i, bytes[i]);
                }
                _ => continue,
            }
            return;
        }
    }
}

/// A self-mutating custom value: an argument type a typed target decodes
/// from bytes and knows how to mutate while keeping it well-formed.
///
/// Register it with [`custom_value!`](crate::custom_value), which names the
/// type and exports its mutator; then take it as a
/// [`fuzz_target!`](crate::fuzz_target) closure argument.
///
/// `Default` is the value mutation starts from when the bytes do not decode
/// (the zero value of a custom argument, which an empty corpus starts from,
/// is empty bytes).
pub trait CustomValue: Default + Sized {
    /// Decodes a value; `None` rejects the input (the target is not
    /// called), and the mutator starts again from `Default`.
    fn from_bytes(bytes: &[u8]) -> Option<Self>;

    /// Encodes the value; `from_bytes` must read it back.
    fn to_bytes(&self) -> Vec<u8>;

    /// Changes the value, with every random choice drawn from `rng`. Its
    /// encoding should fit in `max_len` bytes: a result that does not (or
    /// that encodes to nothing) is dropped and the mutation tried again, a
    /// few times, with the generator moving on.
    fn mutate(&mut self, rng: &mut Rng, max_len: usize);
}

/// How many mutations [`mutate_encoded`] tries before it gives up.
const TRIES: usize = 8;

/// What `fuzz_mutate_NAME` does, as a plain function (handy for testing a
/// mutator): decodes `bytes` (or starts from `Default`), mutates with
/// [`Rng::new`]`(seed)` and encodes. `None` when no try gave a non-empty
/// encoding of at most `max_len` bytes. Deterministic: the same bytes, seed
/// and `max_len` give the same result.
pub fn mutate_encoded<T: CustomValue>(bytes: &[u8], max_len: usize, seed: u32) -> Option<Vec<u8>> {
    let mut rng = Rng::new(seed);
    for _ in 0..TRIES {
        let mut value = T::from_bytes(bytes).unwrap_or_default();
        value.mutate(&mut rng, max_len);
        let out = value.to_bytes();
        if !out.is_empty() && out.len() <= max_len {
            return Some(out);
        }
    }
    None
}

/// Reports a panic in a mutator and aborts: a mutator cannot fail, and a
/// panic must not unwind into the fuzzer's C frames.
fn mutator_panicked(symbol: &str) -> ! {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "{symbol}: the custom mutator panicked; aborting"
    );
    std::process::abort()
}

/// The body of an exported `fuzz_mutate_NAME` (see [`custom_value!`](crate::custom_value)).
///
/// # Safety
/// `data` must point to `max_size` writable bytes, of which the first
/// `size` hold the value's encoding.
#[doc(hidden)]
pub unsafe fn export_mutate<T: CustomValue>(
    symbol: &str,
    data: *mut u8,
    size: usize,
    max_size: usize,
    seed: u32,
) -> usize {
    if data.is_null() || max_size == 0 {
        return 0;
    }
    // SAFETY: the caller passes `max_size` writable bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(data, max_size) };
    let size = size.min(max_size);
    match catch_unwind(AssertUnwindSafe(|| {
        mutate_encoded::<T>(&buf[..size], max_size, seed)
    })) {
        Ok(Some(out)) => {
            buf[..out.len()].copy_from_slice(&out);
            out.len()
        }
        Ok(None) => 0,
        Err(_) => mutator_panicked(symbol),
    }
}

/// The body of an exported `LLVMFuzzerCustomMutator` (see
/// [`libfuzzer_custom_mutator!`](crate::libfuzzer_custom_mutator)): the
/// closure edits the input as a `Vec`, whose length is then the new size
/// (cut to `max_size`).
///
/// # Safety
/// `data` must point to `max_size` writable bytes, of which the first
/// `size` hold the input.
#[doc(hidden)]
pub unsafe fn run_custom_mutator(
    data: *mut u8,
    size: usize,
    max_size: usize,
    seed: u32,
    f: impl FnOnce(&mut Vec<u8>, usize, u32),
) -> usize {
    if data.is_null() || max_size == 0 {
        return 0;
    }
    // SAFETY: the caller passes `max_size` writable bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(data, max_size) };
    let mut input = buf[..size.min(max_size)].to_vec();
    match catch_unwind(AssertUnwindSafe(|| f(&mut input, max_size, seed))) {
        Ok(()) => {
            let n = input.len().min(max_size);
            buf[..n].copy_from_slice(&input[..n]);
            n
        }
        Err(_) => mutator_panicked("LLVMFuzzerCustomMutator"),
    }
}

/// The body of an exported `LLVMFuzzerCustomCrossOver` (see
/// [`libfuzzer_custom_cross_over!`](crate::libfuzzer_custom_cross_over)):
/// the closure fills an empty `Vec`, whose length is then the size (cut to
/// `max_out_size`; 0 means no input was made).
///
/// # Safety
/// `data1`/`data2` must point to `size1`/`size2` readable bytes (or the
/// size be 0), `out` to `max_out_size` writable bytes.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_custom_cross_over(
    data1: *const u8,
    size1: usize,
    data2: *const u8,
    size2: usize,
    out: *mut u8,
    max_out_size: usize,
    seed: u32,
    f: impl FnOnce(&[u8], &[u8], &mut Vec<u8>, usize, u32),
) -> usize {
    if out.is_null() || max_out_size == 0 {
        return 0;
    }
    // SAFETY: the caller passes readable inputs and a writable output.
    let (a, b, out) = unsafe {
        let (Some(a), Some(b)) = (
            crate::target::input(data1, size1),
            crate::target::input(data2, size2),
        ) else {
            return 0;
        };
        (a, b, std::slice::from_raw_parts_mut(out, max_out_size))
    };
    let mut made = Vec::new();
    match catch_unwind(AssertUnwindSafe(|| f(a, b, &mut made, max_out_size, seed))) {
        Ok(()) => {
            let n = made.len().min(max_out_size);
            out[..n].copy_from_slice(&made[..n]);
            n
        }
        Err(_) => mutator_panicked("LLVMFuzzerCustomCrossOver"),
    }
}

type MutateFn = unsafe extern "C" fn(*mut u8, usize, usize) -> usize;

extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// `LLVMFuzzerMutate` of the running fuzzer (fuzz-worker exports it), found
/// once in the process's global scope.
fn llvm_fuzzer_mutate() -> Option<MutateFn> {
    static FOUND: OnceLock<usize> = OnceLock::new();
    let addr = *FOUND.get_or_init(|| {
        // SAFETY: dlsym with RTLD_DEFAULT (a null handle on glibc) and a
        // NUL-terminated name only looks the symbol up.
        unsafe { dlsym(std::ptr::null_mut(), c"LLVMFuzzerMutate".as_ptr()) as usize }
    });
    // SAFETY: a non-null `LLVMFuzzerMutate` has libFuzzer's prototype.
    (addr != 0).then(|| unsafe { std::mem::transmute::<usize, MutateFn>(addr) })
}

/// Mutates `data` with the fuzzer's default mutator, `LLVMFuzzerMutate`,
/// within `max_size` bytes (a longer input is first cut to it), as a custom
/// mutator does to the parts it does not understand. The worker reseeds it
/// from the seed it passed the custom mutator, so the result is
/// reproducible.
///
/// Returns false, leaving `data` alone, outside a fuzzer that exports
/// `LLVMFuzzerMutate` (in a unit test, say) or when `max_size` is 0.
pub fn default_mutate(data: &mut Vec<u8>, max_size: usize) -> bool {
    let Some(mutate) = llvm_fuzzer_mutate() else {
        return false;
    };
    if max_size == 0 {
        return false;
    }
    let size = data.len().min(max_size);
    data.resize(max_size, 0);
    // SAFETY: `data` holds `max_size` initialised bytes, `size` of them the
    // input, as LLVMFuzzerMutate's contract asks.
    let n = unsafe { mutate(data.as_mut_ptr(), size, max_size) };
    data.truncate(n.min(max_size));
    true
}

/// Registers a [`CustomValue`] type as the custom type `NAME`:
///
/// ```
/// use fuzz_target::custom::{CustomValue, Rng};
///
/// /// A list of small numbers, encoded one byte each, kept sorted.
/// #[derive(Default)]
/// struct Sorted(Vec<u8>);
///
/// impl CustomValue for Sorted {
///     fn from_bytes(bytes: &[u8]) -> Option<Self> {
///         bytes.windows(2).all(|w| w[0] <= w[1]).then(|| Sorted(bytes.to_vec()))
///     }
///     fn to_bytes(&self) -> Vec<u8> {
///         self.0.clone()
///     }
///     fn mutate(&mut self, rng: &mut Rng, max_len: usize) {
///         rng.mutate_bytes(&mut self.0, max_len);
///         self.0.sort();
///     }
/// }
///
/// fuzz_target::custom_value!(Sorted, "sorted");
///
/// fuzz_target::fuzz_target!(FuzzSorted, |list: Sorted, limit: u8| {
///     assert!(list.0.windows(2).all(|w| w[0] <= w[1]));
///     let _ = limit;
/// });
/// ```
///
/// makes `Sorted` a closure argument declared `custom(sorted)` in
/// `FuzzSorted_args` (`"custom(sorted), uint8"`) and stored in corpus files
/// as `custom("sorted", []byte("…"))`, and exports its mutator
/// `size_t fuzz_mutate_sorted(uint8_t *data, size_t size, size_t max_size,
/// unsigned int seed)`, which decodes the bytes (or starts from `Default`),
/// calls [`CustomValue::mutate`] with [`Rng::new`]`(seed)` and encodes the
/// result ([`mutate_encoded`]). Bytes that do not decode reject the input.
///
/// `NAME` is a string literal of ASCII letters, digits and `_` (checked at
/// compile time), unique in the library: the mutator symbol is exported. A
/// mutator that panics aborts the process with a message.
#[macro_export]
macro_rules! custom_value {
    ($ty:ty, $name:literal $(,)?) => {
        const _: () = ::core::assert!(
            $crate::custom::valid_custom_name($name),
            ::core::concat!(
                "custom_value!: \"",
                $name,
                "\" must be ASCII letters, digits and _"
            )
        );

        impl $crate::target::GoType for $ty {
            const GO_TYPE: &'static str = ::core::concat!("custom(", $name, ")");
        }

        impl<'a> $crate::target::FuzzArg<'a> for $ty {
            fn read(r: &mut $crate::ArgReader<'a>) -> ::core::option::Option<Self> {
                <$ty as $crate::custom::CustomValue>::from_bytes(r.bytes()?)
            }
        }

        const _: () = {
            /// The custom value's mutator (`fuzz-worker(1)`, CUSTOM MUTATORS).
            ///
            /// # Safety
            /// `data` must point to `max_size` writable bytes.
            #[export_name = ::core::concat!("fuzz_mutate_", $name)]
            unsafe extern "C" fn mutate(
                data: *mut u8,
                size: usize,
                max_size: usize,
                seed: u32,
            ) -> usize {
                // SAFETY: the caller keeps the mutator contract.
                unsafe {
                    $crate::custom::export_mutate::<$ty>(
                        ::core::concat!("fuzz_mutate_", $name),
                        data,
                        size,
                        max_size,
                        seed,
                    )
                }
            }
        };
    };
}

/// Defines libFuzzer's `LLVMFuzzerCustomMutator` for the library's
/// `LLVMFuzzerTestOneInput`, from a closure that edits the input in place:
///
/// ```
/// fuzz_target::libfuzzer_custom_mutator!(|data: &mut Vec<u8>, max_size: usize, seed: u32| {
///     // Keep a 4-byte header, let the fuzzer mutate the rest.
///     let mut body = data.split_off(data.len().min(4));
///     fuzz_target::custom::default_mutate(&mut body, max_size.saturating_sub(data.len()));
///     data.extend_from_slice(&body);
///     let _ = seed;
/// });
/// ```
///
/// `data` holds the input; whatever it holds when the closure returns is the
/// mutated input (cut to `max_size` bytes; empty means no input was made).
/// Draw randomness from `seed` ([`Rng::new`](crate::custom::Rng::new)) or
/// [`default_mutate`], never from elsewhere,
/// so a seeded run is reproducible. A panic aborts the process.
#[macro_export]
macro_rules! libfuzzer_custom_mutator {
    (|$data:ident $(: &mut Vec<u8>)?, $max:ident $(: usize)?, $seed:ident $(: u32)?| $body:expr $(,)?) => {
        /// libFuzzer's custom mutator (`fuzz-worker(1)`, CUSTOM MUTATORS).
        ///
        /// # Safety
        /// `data` must point to `max_size` writable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn LLVMFuzzerCustomMutator(
            data: *mut u8,
            size: usize,
            max_size: usize,
            seed: u32,
        ) -> usize {
            // SAFETY: the caller keeps libFuzzer's contract.
            unsafe {
                $crate::custom::run_custom_mutator(
                    data,
                    size,
                    max_size,
                    seed,
                    |$data: &mut ::std::vec::Vec<u8>, $max: usize, $seed: u32| {
                        let _ = (&$max, &$seed);
                        $body
                    },
                )
            }
        }
    };
}

/// Defines libFuzzer's `LLVMFuzzerCustomCrossOver` for the library's
/// `LLVMFuzzerTestOneInput`: the closure combines two inputs into `out`
/// (empty on entry):
///
/// ```
/// fuzz_target::libfuzzer_custom_cross_over!(
///     |a: &[u8], b: &[u8], out: &mut Vec<u8>, max_size: usize, seed: u32| {
///         let mut rng = fuzz_target::custom::Rng::new(seed);
///         out.extend_from_slice(&a[..rng.below(a.len() + 1)]);
///         out.extend_from_slice(&b[rng.below(b.len() + 1)..]);
///         out.truncate(max_size);
///     }
/// );
/// ```
///
/// `out` is cut to `max_size`; empty means no input was made. As for the
/// mutator, randomness comes from `seed` only, and a panic aborts.
#[macro_export]
macro_rules! libfuzzer_custom_cross_over {
    (|$a:ident $(: &[u8])?, $b:ident $(: &[u8])?, $out:ident $(: &mut Vec<u8>)?, $max:ident $(: usize)?, $seed:ident $(: u32)?| $body:expr $(,)?) => {
        /// libFuzzer's custom cross-over (`fuzz-worker(1)`, CUSTOM MUTATORS).
        ///
        /// # Safety
        /// `data1`/`data2` must point to `size1`/`size2` readable bytes and
        /// `out` to `max_out_size` writable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn LLVMFuzzerCustomCrossOver(
            data1: *const u8,
            size1: usize,
            data2: *const u8,
            size2: usize,
            out: *mut u8,
            max_out_size: usize,
            seed: u32,
        ) -> usize {
            // SAFETY: the caller keeps libFuzzer's contract.
            unsafe {
                $crate::custom::run_custom_cross_over(
                    data1,
                    size1,
                    data2,
                    size2,
                    out,
                    max_out_size,
                    seed,
                    |$a: &[u8],
                     $b: &[u8],
                     $out: &mut ::std::vec::Vec<u8>,
                     $max: usize,
                     $seed: u32| {
                        let _ = (&$max, &$seed);
                        $body
                    },
                )
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{ArgType, ArgWriter};
    use crate::target::{FAIL, PASS, REJECT};

    /// A pair `(a, b)` with `a <= b`, two bytes: the test's custom type.
    #[derive(Default, Debug, PartialEq)]
    struct Ordered(u8, u8);

    impl CustomValue for Ordered {
        fn from_bytes(bytes: &[u8]) -> Option<Self> {
            match bytes {
                [a, b] if a <= b => Some(Ordered(*a, *b)),
                _ => None,
            }
        }
        fn to_bytes(&self) -> Vec<u8> {
            vec![self.0, self.1]
        }
        fn mutate(&mut self, rng: &mut Rng, _max_len: usize) {
            let (x, y) = (rng.u8(), rng.u8());
            *self = Ordered(x.min(y), x.max(y));
        }
    }

    crate::custom_value!(Ordered, "ordered");

    /// Encodes to more bytes than any `max_len` allows after a mutation.
    #[derive(Default)]
    struct Huge(usize);

    impl CustomValue for Huge {
        fn from_bytes(bytes: &[u8]) -> Option<Self> {
            Some(Huge(bytes.len()))
        }
        fn to_bytes(&self) -> Vec<u8> {
            vec![0; self.0]
        }
        fn mutate(&mut self, _rng: &mut Rng, max_len: usize) {
            self.0 = max_len + 1;
        }
    }

    crate::custom_value!(Huge, "huge_1");

    crate::fuzz_target!(FuzzTestCustom, |pair: Ordered, n: u8| {
        if pair.0 == 1 && pair.1 == 2 && n == 3 {
            panic!("ordered 1 2 with 3");
        }
    });

    mod exported {
        extern "C" {
            #[link_name = "FuzzTestCustom_args"]
            pub static ARGS: u8;
            #[link_name = "fuzz_mutate_ordered"]
            pub fn mutate_ordered(data: *mut u8, size: usize, max: usize, seed: u32) -> usize;
            #[link_name = "fuzz_mutate_huge_1"]
            pub fn mutate_huge(data: *mut u8, size: usize, max: usize, seed: u32) -> usize;
        }
    }

    fn call_mutator(
        f: unsafe extern "C" fn(*mut u8, usize, usize, u32) -> usize,
        input: &[u8],
        max: usize,
        seed: u32,
    ) -> Option<Vec<u8>> {
        let mut buf = input.to_vec();
        buf.resize(max.max(input.len()), 0xAA);
        // SAFETY: `buf` has `max` writable bytes, `input.len()` of them input.
        let n = unsafe { f(buf.as_mut_ptr(), input.len(), max, seed) };
        assert!(n <= max, "returned {n} > {max}");
        (n > 0).then(|| buf[..n].to_vec())
    }

    #[test]
    fn names_and_symbols() {
        for ok in ["expr", "A", "_", "json_v2", "0"] {
            assert!(valid_custom_name(ok), "{ok}");
            assert_eq!(mutator_symbol(ok), Some(format!("fuzz_mutate_{ok}")));
        }
        for bad in ["", "a.b", "a-b", "é", "a b", "x()"] {
            assert!(!valid_custom_name(bad), "{bad}");
            assert_eq!(mutator_symbol(bad), None);
        }
        // Never a target name.
        assert!(!crate::target::valid_target_name("fuzz_mutate_X"));
    }

    #[test]
    fn custom_arguments_in_the_signature() {
        // SAFETY: the macro exported a NUL-terminated static.
        let sig = unsafe { std::ffi::CStr::from_ptr(std::ptr::addr_of!(exported::ARGS).cast()) };
        assert_eq!(sig.to_str().unwrap(), "custom(ordered), uint8");
        assert_eq!(
            ArgType::parse_list(sig.to_str().unwrap()).unwrap(),
            vec![ArgType::Custom("ordered".into()), ArgType::Uint8]
        );
    }

    #[test]
    fn custom_arguments_decode_like_bytes() {
        let call = |pair: &[u8], n: u8| {
            let mut w = ArgWriter::new();
            w.bytes(pair);
            w.u8(n);
            let packed = w.finish();
            // SAFETY: `packed` is a live slice.
            unsafe { FuzzTestCustom(packed.as_ptr(), packed.len()) }
        };
        assert_eq!(call(&[1, 2], 4), PASS);
        assert_eq!(call(&[1, 2], 3), FAIL);
        // Bytes that do not decode reject the input.
        assert_eq!(call(&[2, 1], 3), REJECT);
        assert_eq!(call(&[], 3), REJECT);
    }

    #[test]
    fn exported_mutator_is_deterministic_and_keeps_values_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200u32 {
            let a = call_mutator(exported::mutate_ordered, &[3, 9], 16, seed).unwrap();
            let b = call_mutator(exported::mutate_ordered, &[3, 9], 16, seed).unwrap();
            assert_eq!(a, b, "seed {seed}");
            assert_eq!(
                Some(a.clone()),
                mutate_encoded::<Ordered>(&[3, 9], 16, seed)
            );
            assert!(Ordered::from_bytes(&a).is_some(), "{a:?}");
            seen.insert(a);
        }
        assert!(seen.len() > 150, "only {} distinct values", seen.len());
        // Bytes that do not decode start from Default, and still mutate.
        let fresh = call_mutator(exported::mutate_ordered, b"garbage", 16, 1).unwrap();
        assert!(Ordered::from_bytes(&fresh).is_some());
        // Too small a room: no input made (0), whatever the tries.
        assert_eq!(call_mutator(exported::mutate_ordered, &[1, 2], 1, 1), None);
        assert_eq!(call_mutator(exported::mutate_ordered, &[1, 2], 0, 1), None);
        assert_eq!(call_mutator(exported::mutate_huge, &[0; 4], 8, 1), None);
        // SAFETY: a null pointer is refused before anything is read.
        assert_eq!(
            unsafe { exported::mutate_ordered(std::ptr::null_mut(), 0, 8, 1) },
            0
        );
    }

    #[test]
    fn rng_is_deterministic_and_spread() {
        let draws = |seed| {
            let mut r = Rng::new(seed);
            (0..8).map(|_| r.next_u64()).collect::<Vec<_>>()
        };
        assert_eq!(draws(7), draws(7));
        assert_ne!(draws(7), draws(8));
        let mut r = Rng::new(0);
        let mut counts = [0usize; 10];
        for _ in 0..10_000 {
            counts[r.below(10)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(r.below(0), 0);
        assert!(r.chance(1));
    }

    #[test]
    fn mutate_bytes_stays_within_max_len() {
        let mut r = Rng::new(3);
        let mut changed = 0;
        for _ in 0..2000 {
            let mut b = b"abcd".to_vec();
            r.mutate_bytes(&mut b, 6);
            assert!(b.len() <= 6);
            changed += usize::from(b != b"abcd");
        }
        assert!(changed > 1800, "only {changed} changed");
        let mut long = vec![1u8; 10];
        r.mutate_bytes(&mut long, 4);
        assert!(long.len() <= 4);
        let mut none = Vec::new();
        r.mutate_bytes(&mut none, 0);
        assert!(none.is_empty());
    }

    // The libFuzzer helpers, exported from this test binary.
    crate::libfuzzer_custom_mutator!(|data: &mut Vec<u8>, max_size: usize, seed: u32| {
        let mut rng = Rng::new(seed);
        data.push(b'0' + rng.below(10) as u8);
        data.insert(0, b'>');
        data.truncate(max_size);
    });

    crate::libfuzzer_custom_cross_over!(|a: &[u8],
                                         b: &[u8],
                                         out: &mut Vec<u8>,
                                         max_size: usize,
                                         seed: u32| {
        assert!(out.is_empty());
        let _ = seed;
        out.extend_from_slice(a);
        out.push(b'+');
        out.extend_from_slice(b);
        let _ = max_size; // cut by the helper
    });

    #[test]
    fn libfuzzer_custom_mutator_edits_in_place() {
        let a = call_mutator(LLVMFuzzerCustomMutator, b"xy", 8, 5).unwrap();
        assert_eq!(&a[..3], b">xy");
        assert_eq!(a.len(), 4);
        assert_eq!(call_mutator(LLVMFuzzerCustomMutator, b"xy", 8, 5), Some(a));
        // Cut to max_size.
        assert_eq!(
            call_mutator(LLVMFuzzerCustomMutator, b"abcdef", 3, 5).unwrap(),
            b">ab"
        );
    }

    #[test]
    fn libfuzzer_custom_cross_over_fills_out() {
        let cross = |a: &[u8], b: &[u8], max: usize| {
            let mut out = vec![0u8; max];
            // SAFETY: live slices and a buffer of `max` bytes.
            let n = unsafe {
                LLVMFuzzerCustomCrossOver(
                    a.as_ptr(),
                    a.len(),
                    b.as_ptr(),
                    b.len(),
                    out.as_mut_ptr(),
                    max,
                    9,
                )
            };
            out.truncate(n);
            out
        };
        assert_eq!(cross(b"ab", b"cd", 16), b"ab+cd");
        assert_eq!(cross(b"ab", b"cd", 3), b"ab+");
        assert_eq!(cross(b"", b"", 16), b"+");
        assert_eq!(cross(b"ab", b"cd", 0), b"");
    }

    #[test]
    fn default_mutate_needs_a_fuzzer() {
        // This test binary does not export LLVMFuzzerMutate: nothing changes.
        let mut d = b"abc".to_vec();
        assert!(!default_mutate(&mut d, 16));
        assert_eq!(d, b"abc");
    }
}
