//! `LLVMFuzzerMutate`, the default mutator that custom mutators call: small
//! byte-level changes, comparison operands the target was seen to compare
//! against, and dictionary words (`-dict` and the automatic dictionary,
//! which the fuzzing loop hands over with [`set_words`]), inserted or
//! written over the input.
//!
//! Its generator is seeded: `custom.rs` calls [`reseed`] with the seed it
//! passes a custom mutator right before calling it, so a custom mutator
//! that calls `LLVMFuzzerMutate` makes the same input from the same bytes
//! and seed (given the same comparison tables), and a `-seed` run stays
//! reproducible. The state is per thread, so what one thread draws never
//! shifts another's sequence.

use crate::sancov;
use fuzz_core::search::dict;
use fuzz_core::search::rng::{splitmix64, Draw, SPLITMIX_GAMMA};
use std::cell::{Cell, RefCell};

/// The seed the generator starts from before any [`reseed`].
const INITIAL: u64 = 0x853c_49e6_748f_ea9b;

/// The state of the stream seeded with `seed`: its first number is the mix
/// of `INITIAL ^ seed` (so the state is one [`SPLITMIX_GAMMA`] behind,
/// [`splitmix64`] adding it before it mixes).
const fn start(seed: u64) -> u64 {
    (INITIAL ^ seed).wrapping_sub(SPLITMIX_GAMMA)
}

thread_local! {
    static STATE: Cell<u64> = const { Cell::new(start(0)) };
    static WORDS: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Sets the dictionary words this thread's `LLVMFuzzerMutate` writes.
pub fn set_words<'a>(words: impl Iterator<Item = &'a Vec<u8>>) {
    WORDS.with(|w| {
        let mut w = w.borrow_mut();
        w.clear();
        w.extend(words.cloned());
    });
}

/// Restarts this thread's `LLVMFuzzerMutate` sequence from `seed`.
pub fn reseed(seed: u64) {
    STATE.with(|s| s.set(start(seed)));
}

fn next() -> u64 {
    STATE.with(|s| {
        let mut state = s.get();
        let z = splitmix64(&mut state);
        s.set(state);
        z
    })
}

fn below(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (next() % n as u64) as usize
    }
}

/// Mutates `buf[..size]` in place within `buf.len()` bytes; returns the new
/// size. One to four changes, each drawn again (up to [`TRIES`] times)
/// when the one drawn cannot apply (no room, no comparison operands), as
/// libFuzzer's does, so that a call rarely returns its input unchanged.
pub fn mutate(buf: &mut [u8], size: usize) -> usize {
    let mut size = size.min(buf.len());
    // The comparison tables, copied once per call, when first needed.
    let mut tables = Tables::default();
    for _ in 0..=below(3) {
        for _ in 0..TRIES {
            if apply(buf, &mut size, &mut tables) {
                break;
            }
        }
    }
    size
}

/// How many draws one change may take before it is given up.
const TRIES: usize = 16;

#[derive(Default)]
struct Tables {
    mem: Option<Vec<sancov::MemCmp>>,
    int: Option<Vec<sancov::IntCmp>>,
}

/// One change drawn at random; false when it could not apply.
fn apply(buf: &mut [u8], size: &mut usize, tables: &mut Tables) -> bool {
    let max = buf.len();
    let n = *size;
    match below(9) {
        0 if n > 0 => {
            let i = below(n);
            buf[i] ^= 1 << below(8);
        }
        1 if n > 0 => {
            let i = below(n);
            buf[i] = next() as u8;
        }
        2 if n > 0 => {
            let i = below(n);
            buf[i] = buf[i].wrapping_add((below(35) as u8).wrapping_sub(17));
        }
        3 if n < max => {
            let i = below(n + 1);
            buf.copy_within(i..n, i + 1);
            buf[i] = next() as u8;
            *size += 1;
        }
        4 if n > 1 => {
            let i = below(n);
            buf.copy_within(i + 1..n, i);
            *size -= 1;
        }
        5 if n > 0 => {
            let i = below(n);
            buf[i] = [0u8, 0xff, 0x7f, 0x80, b'0', b' '][below(6)];
        }
        6 => {
            let cmps = tables.mem.get_or_insert_with(sancov::mem_comparisons);
            let Some(c) = cmps.get(below(cmps.len().max(1))) else {
                return false;
            };
            let (src, len) = if below(2) == 0 {
                (c.a, c.a_len as usize)
            } else {
                (c.b, c.b_len as usize)
            };
            if len == 0 || len > max {
                return false;
            }
            let at = below(n.min(max - len) + 1);
            buf[at..at + len].copy_from_slice(&src[..len]);
            *size = n.max(at + len);
        }
        7 => {
            let cmps = tables.int.get_or_insert_with(sancov::int_comparisons);
            let Some(c) = cmps.get(below(cmps.len().max(1))) else {
                return false;
            };
            let len = c.size as usize;
            let v = if below(2) == 0 { c.a } else { c.b };
            if len == 0 || len > max {
                return false;
            }
            let at = below(n.min(max - len) + 1);
            buf[at..at + len].copy_from_slice(&v.to_le_bytes()[..len]);
            *size = n.max(at + len);
        }
        8 => return WORDS.with(|w| place_word(buf, size, &w.borrow())),
        _ => return false,
    }
    true
}

/// This thread's stream, as the draws [`dict::place`] makes.
struct Stream;

impl Draw for Stream {
    fn below(&mut self, n: usize) -> usize {
        below(n)
    }

    fn coin(&mut self) -> bool {
        below(2) == 0
    }
}

/// A dictionary word written over `buf[..size]` or inserted into it, as
/// the fuzzing loop places words ([`dict::place`]); false when there is no
/// word, or it fits neither way.
fn place_word(buf: &mut [u8], size: &mut usize, words: &[Vec<u8>]) -> bool {
    let Some(word) = words.get(below(words.len().max(1))) else {
        return false;
    };
    match dict::place(*size, word.len(), buf.len(), &mut Stream) {
        Some(at) => {
            *size = at.apply_in(buf, *size, word);
            true
        }
        None => false,
    }
}

/// # Safety
/// `data` must point to `max_size` writable bytes of which `size` hold the
/// input, as libFuzzer's contract says.
#[no_mangle]
pub unsafe extern "C" fn LLVMFuzzerMutate(data: *mut u8, size: usize, max_size: usize) -> usize {
    if data.is_null() || max_size == 0 {
        return 0;
    }
    // SAFETY: per the contract above.
    let buf = unsafe { std::slice::from_raw_parts_mut(data, max_size) };
    mutate(buf, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_within_bounds_and_changes_things() {
        let mut changed = 0;
        for _ in 0..2000 {
            let mut buf = [7u8; 16];
            let n = mutate(&mut buf, 8);
            assert!(n <= 16);
            if n != 8 || buf[..8] != [7u8; 8] {
                changed += 1;
            }
        }
        // A change that cannot apply is drawn again: almost every call
        // changes something (a byte may still be written over by itself).
        assert!(changed > 1900, "only {changed} mutations changed anything");
        let mut empty: [u8; 0] = [];
        assert_eq!(mutate(&mut empty, 0), 0);
    }

    /// What `LLVMFuzzerMutate` makes of `input` after `reseed(seed)`.
    fn seeded(seed: u64, input: &[u8], max: usize) -> Vec<u8> {
        reseed(seed);
        let mut buf = input.to_vec();
        buf.resize(max, 0);
        // SAFETY: `buf` holds `max` bytes, the first `input.len()` the input.
        let n = unsafe { LLVMFuzzerMutate(buf.as_mut_ptr(), input.len(), max) };
        buf.truncate(n);
        buf
    }

    #[test]
    fn the_stream_is_the_one_it_always_was() {
        // The first numbers of seeds 0 and 42, as the generator drew them
        // before it used fuzz_core's splitmix64: the mix of INITIAL ^ seed,
        // then of that plus the gamma.
        for (seed, want) in [
            (0, [0xfe10_ab73_82e8_e160, 0xae54_d7f9_9983_5fc4]),
            (42, [0xba71_9df1_7c4f_1600, 0x8af8_3d76_e8c9_bbac]),
        ] {
            reseed(seed);
            assert_eq!([next(), next()], want, "seed {seed}");
        }
    }

    #[test]
    fn reseeding_makes_it_deterministic() {
        let input = b"a seeded input";
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..300 {
            let a = seeded(seed, input, 32);
            // Draws in between do not matter: the reseed restarts the sequence.
            let _ = seeded(seed + 1000, b"other", 8);
            assert_eq!(seeded(seed, input, 32), a, "seed {seed}");
            distinct.insert(a);
        }
        assert!(
            distinct.len() > 200,
            "only {} distinct results",
            distinct.len()
        );
        // A sequence of calls after one reseed repeats as a whole too.
        let chain = |seed| {
            reseed(seed);
            let mut buf = [0u8; 24];
            buf[..5].copy_from_slice(b"chain");
            let mut n = 5;
            for _ in 0..10 {
                n = mutate(&mut buf, n);
            }
            buf[..n].to_vec()
        };
        assert_eq!(chain(42), chain(42));
    }

    #[test]
    fn dictionary_words_are_inserted_and_written_over() {
        let word = b"<WORD>".to_vec();
        set_words([word.clone()].iter());
        let (mut inserted, mut written) = (0, 0);
        for seed in 0..2000 {
            let out = seeded(seed, b"0123456789", 24);
            let Some(at) = out.windows(word.len()).position(|w| w == word) else {
                continue;
            };
            // The bytes around the word: all of the input (inserted), or
            // fewer (written over part of it).
            let rest: Vec<u8> = [&out[..at], &out[at + word.len()..]].concat();
            if rest == b"0123456789" {
                inserted += 1;
            } else {
                written += 1;
            }
        }
        set_words(std::iter::empty());
        assert!(
            inserted > 20 && written > 20,
            "{inserted} inserted, {written} written over"
        );
        // Without words, the draw that would place one is drawn again.
        for seed in 0..200 {
            assert!(!seeded(seed, b"0123456789", 24)
                .windows(6)
                .any(|w| w == word));
        }
    }

    #[test]
    fn threads_keep_their_own_sequence() {
        let here = seeded(7, b"threads", 16);
        let there = std::thread::spawn(|| {
            // Another thread's draws before and after do not disturb ours.
            let _ = seeded(99, b"noise", 16);
            seeded(7, b"threads", 16)
        })
        .join()
        .unwrap();
        assert_eq!(here, there);
    }
}
