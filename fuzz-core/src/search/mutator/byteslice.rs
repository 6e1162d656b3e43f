//! Go's byte mutators (Go 1.19 `internal/fuzz/mutators_byteslice.go`):
//! one small function per mutator, with its Go name in [`BYTE_MUTATORS`],
//! each drawing the numbers Go's draws, in the same order.
//!
//! Every mutator has the table's signature, `&mut Vec<u8>` included, since
//! some grow or shrink the slice (hence the `ptr_arg` allowance for the
//! others).
#![allow(clippy::ptr_arg)]

use super::Mutator;
use crate::search::rng::ByteOrder;

const INTERESTING8: [i8; 9] = [-128, -1, 0, 1, 16, 32, 64, 100, 127];
const INTERESTING16: [i16; 19] = [
    -32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767, // then interesting8
    -128, -1, 0, 1, 16, 32, 64, 100, 127,
];
const INTERESTING32: [i32; 27] = [
    -2147483648,
    -100663046,
    -32769,
    32768,
    65535,
    65536,
    100663045,
    2147483647, // then interesting16
    -32768,
    -129,
    128,
    255,
    256,
    512,
    1000,
    1024,
    4096,
    32767,
    -128,
    -1,
    0,
    1,
    16,
    32,
    64,
    100,
    127,
];

/// One of Go's byte mutators (`mutators_byteslice.go`): changes `b` in
/// place and returns true, or declines (false) when its precondition
/// fails, drawing what Go's draws in the same order. `cap` is Go's scratch
/// capacity, `max_len + 1`: a mutator that would make `b` reach it
/// declines.
pub type ByteMutator = fn(&mut Mutator, &mut Vec<u8>, usize) -> bool;

/// The byte mutators with their Go names, in Go's order:
/// [`Mutator::mutate_bytes`] draws an index into this table, and returns
/// the index of the one applied.
pub const BYTE_MUTATORS: [(&str, ByteMutator); 18] = [
    ("RemoveBytes", remove_bytes),
    ("InsertRandomBytes", insert_random_bytes),
    ("DuplicateBytes", duplicate_bytes),
    ("OverwriteBytes", overwrite_bytes),
    ("BitFlip", bit_flip),
    ("XORByte", xor_byte),
    ("SwapByte", swap_byte),
    ("ArithmeticUint8", arithmetic_uint8),
    ("ArithmeticUint16", arithmetic_uint16),
    ("ArithmeticUint32", arithmetic_uint32),
    ("ArithmeticUint64", arithmetic_uint64),
    ("OverwriteInterestingUint8", overwrite_interesting_uint8),
    ("OverwriteInterestingUint16", overwrite_interesting_uint16),
    ("OverwriteInterestingUint32", overwrite_interesting_uint32),
    ("InsertConstantBytes", insert_constant_bytes),
    ("OverwriteConstantBytes", overwrite_constant_bytes),
    ("ShuffleBytes", shuffle_bytes),
    ("SwapBytes", swap_bytes),
];

/// Removes a chunk.
fn remove_bytes(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let pos0 = m.rand(len);
    let n = m.choose_len(len - pos0);
    b.drain(pos0..pos0 + n);
    true
}

/// Inserts a chunk of random bytes.
fn insert_random_bytes(m: &mut Mutator, b: &mut Vec<u8>, cap: usize) -> bool {
    let len = b.len();
    let pos = m.rand(len + 1);
    let n = m.choose_len(1024);
    if len + n >= cap {
        return false;
    }
    b.resize(len + n, 0);
    b.copy_within(pos..len, pos + n);
    for x in &mut b[pos..pos + n] {
        *x = m.rng.intn(256) as u8;
    }
    true
}

/// Inserts a copy of a chunk elsewhere.
fn duplicate_bytes(m: &mut Mutator, b: &mut Vec<u8>, cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let (src, dst) = m.two_positions(len);
    let n = m.choose_len(len - src);
    if len + 2 * n >= cap {
        return false;
    }
    m.scratch.clear();
    m.scratch.extend_from_slice(&b[src..src + n]);
    b.splice(dst..dst, m.scratch.iter().copied());
    true
}

/// Copies a chunk over another place.
fn overwrite_bytes(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let (src, dst) = m.two_positions(len);
    let n = m.choose_len(len - src - 1);
    // Go's copy: as many bytes as fit from dst to the end.
    let k = n.min(len - dst);
    b.copy_within(src..src + k, dst);
    true
}

/// Flips one bit.
fn bit_flip(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.is_empty() {
        return false;
    }
    let pos = m.rand(b.len());
    b[pos] ^= 1 << m.rand(8);
    true
}

/// XORs one byte with a non-zero value.
fn xor_byte(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.is_empty() {
        return false;
    }
    let pos = m.rand(b.len());
    b[pos] ^= (1 + m.rand(255)) as u8;
    true
}

/// Swaps two bytes.
fn swap_byte(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.len() <= 1 {
        return false;
    }
    let (src, dst) = m.two_positions(b.len());
    b.swap(src, dst);
    true
}

/// Adds or subtracts 1 to 35 from one byte.
fn arithmetic_uint8(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.is_empty() {
        return false;
    }
    let pos = m.rand(b.len());
    let v = (m.rand(35) + 1) as u8;
    if m.rng.bool() {
        b[pos] = b[pos].wrapping_add(v);
    } else {
        b[pos] = b[pos].wrapping_sub(v);
    }
    true
}

/// Adds or subtracts 1 to 35 from a word of `width` bytes, in a random
/// byte order.
fn arithmetic_word(m: &mut Mutator, b: &mut [u8], width: usize) -> bool {
    let len = b.len();
    if len < width {
        return false;
    }
    let mut v = (m.rand(35) + 1) as u64;
    if m.rng.bool() {
        v = v.wrapping_neg();
    }
    let pos = m.rand(len - (width - 1));
    let order = m.rng.rand_byte_order();
    let word = &mut b[pos..pos + width];
    let old = get_word(word, order);
    put_word(word, order, old.wrapping_add(v));
    true
}

fn arithmetic_uint16(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    arithmetic_word(m, b, 2)
}

fn arithmetic_uint32(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    arithmetic_word(m, b, 4)
}

fn arithmetic_uint64(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    arithmetic_word(m, b, 8)
}

/// Writes an interesting 8-bit value over one byte.
fn overwrite_interesting_uint8(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.is_empty() {
        return false;
    }
    let pos = m.rand(b.len());
    b[pos] = INTERESTING8[m.rand(INTERESTING8.len())] as u8;
    true
}

/// Writes an interesting 16-bit value, in a random byte order.
fn overwrite_interesting_uint16(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.len() < 2 {
        return false;
    }
    let pos = m.rand(b.len() - 1);
    let v = INTERESTING16[m.rand(INTERESTING16.len())] as u16;
    let order = m.rng.rand_byte_order();
    put_word(&mut b[pos..pos + 2], order, u64::from(v));
    true
}

/// Writes an interesting 32-bit value, in a random byte order.
fn overwrite_interesting_uint32(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    if b.len() < 4 {
        return false;
    }
    let pos = m.rand(b.len() - 3);
    let v = INTERESTING32[m.rand(INTERESTING32.len())] as u32;
    let order = m.rng.rand_byte_order();
    put_word(&mut b[pos..pos + 4], order, u64::from(v));
    true
}

/// Inserts a run of one random byte.
fn insert_constant_bytes(m: &mut Mutator, b: &mut Vec<u8>, cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let dst = m.rand(len);
    let n = m.choose_len(4096);
    if len + n >= cap {
        return false;
    }
    let rb = m.rand(256) as u8;
    b.resize(len + n, 0);
    b.copy_within(dst..len, dst + n);
    b[dst..dst + n].fill(rb);
    true
}

/// Writes a run of one random byte over a chunk.
fn overwrite_constant_bytes(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let dst = m.rand(len);
    let n = m.choose_len(len - dst);
    let rb = m.rand(256) as u8;
    b[dst..dst + n].fill(rb);
    true
}

/// Shuffles a chunk (Fisher-Yates).
fn shuffle_bytes(m: &mut Mutator, b: &mut Vec<u8>, _cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let dst = m.rand(len);
    let n = m.choose_len(len - dst);
    if n <= 2 {
        return false;
    }
    for i in (1..n).rev() {
        let j = m.rand(i + 1);
        b.swap(dst + i, dst + j);
    }
    true
}

/// Swaps two disjoint chunks.
fn swap_bytes(m: &mut Mutator, b: &mut Vec<u8>, cap: usize) -> bool {
    let len = b.len();
    if len <= 1 {
        return false;
    }
    let (src, dst) = m.two_positions(len);
    let n = m.choose_len(len - src.max(dst) - 1);
    if (src > dst && dst + n >= src) || (dst > src && src + n >= dst) {
        return false;
    }
    if len + n >= cap {
        return false;
    }
    // The chunks are disjoint: swapping byte by byte is Go's three copies
    // through scratch space.
    for i in 0..n {
        b.swap(src + i, dst + i);
    }
    true
}

/// Reads a 2-, 4- or 8-byte word.
fn get_word(w: &[u8], order: ByteOrder) -> u64 {
    let mut buf = [0u8; 8];
    match order {
        ByteOrder::Little => {
            buf[..w.len()].copy_from_slice(w);
            u64::from_le_bytes(buf)
        }
        ByteOrder::Big => {
            buf[8 - w.len()..].copy_from_slice(w);
            u64::from_be_bytes(buf)
        }
    }
}

/// Writes the low bytes of `v` as a 2-, 4- or 8-byte word.
fn put_word(w: &mut [u8], order: ByteOrder, v: u64) {
    let n = w.len();
    match order {
        ByteOrder::Little => w.copy_from_slice(&v.to_le_bytes()[..n]),
        ByteOrder::Big => w.copy_from_slice(&v.to_be_bytes()[8 - n..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_helpers_round_trip() {
        let mut w = [0u8; 4];
        put_word(&mut w, ByteOrder::Big, 0x0102_0304);
        assert_eq!(w, [1, 2, 3, 4]);
        assert_eq!(get_word(&w, ByteOrder::Little), 0x0403_0201);
        let mut w = [0u8; 2];
        put_word(&mut w, ByteOrder::Little, 0xfffe);
        assert_eq!(w, [0xfe, 0xff]);
    }
}
