//! `LLVMFuzzerMutate`, the default mutator that custom mutators call: small
//! byte-level changes, and comparison operands the target was seen to
//! compare against, inserted or written over the input.

use crate::sancov;
use std::sync::atomic::{AtomicU64, Ordering};

static STATE: AtomicU64 = AtomicU64::new(0x853c_49e6_748f_ea9b);

fn next() -> u64 {
    // SplitMix64 over an atomic counter: cheap and good enough here.
    let mut z = STATE.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn below(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (next() % n as u64) as usize
    }
}

/// Mutates `buf[..size]` in place within `buf.len()` bytes; returns the new
/// size.
pub fn mutate(buf: &mut [u8], size: usize) -> usize {
    let max = buf.len();
    let mut size = size.min(max);
    for _ in 0..=below(3) {
        match below(8) {
            0 if size > 0 => {
                let i = below(size);
                buf[i] ^= 1 << below(8);
            }
            1 if size > 0 => {
                let i = below(size);
                buf[i] = next() as u8;
            }
            2 if size > 0 => {
                let i = below(size);
                buf[i] = buf[i].wrapping_add((below(35) as u8).wrapping_sub(17));
            }
            3 if size < max => {
                let i = below(size + 1);
                buf.copy_within(i..size, i + 1);
                buf[i] = next() as u8;
                size += 1;
            }
            4 if size > 1 => {
                let i = below(size);
                buf.copy_within(i + 1..size, i);
                size -= 1;
            }
            5 if size > 0 => {
                let i = below(size);
                buf[i] = [0u8, 0xff, 0x7f, 0x80, b'0', b' '][below(6)];
            }
            6 => {
                let cmps = sancov::mem_comparisons();
                if let Some(c) = cmps.get(below(cmps.len().max(1))) {
                    let (src, n) = if below(2) == 0 {
                        (c.a, c.a_len as usize)
                    } else {
                        (c.b, c.b_len as usize)
                    };
                    if n > 0 && n <= max {
                        let at = below(max - n + 1).min(size);
                        buf[at..at + n].copy_from_slice(&src[..n]);
                        size = size.max(at + n);
                    }
                }
            }
            _ => {
                let cmps = sancov::int_comparisons();
                if let Some(c) = cmps.get(below(cmps.len().max(1))) {
                    let n = c.size as usize;
                    let v = if below(2) == 0 { c.a } else { c.b };
                    if n > 0 && n <= max {
                        let at = below(max - n + 1).min(size);
                        buf[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
                        size = size.max(at + n);
                    }
                }
            }
        }
    }
    size
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
        assert!(changed > 1000, "only {changed} mutations changed anything");
        let mut empty: [u8; 0] = [];
        assert_eq!(mutate(&mut empty, 0), 0);
    }
}
