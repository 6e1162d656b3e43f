//! Dictionary words read from a target's machine code: the string
//! constants the code hands over with their length.
//!
//! A key looked up in a hashed map never reaches a comparison until an
//! input holds it: phonenumber's `params.get("phone-context")` hashes the
//! input's parameter name first, and only a name whose hash lands on the
//! key's bucket is compared with it (by `bcmp`, which fuzz-worker sees), so
//! neither coverage nor comparison operands lead to the key. The key is in
//! the code all along: Rust passes a `&str` as a pointer and a length, and
//! x86-64 code builds the pair from a `lea reg, [rip + disp]` into read-only
//! data and a `mov reg, imm32` (`lea -0xd3a5a(%rip),%r14; mov $0xd,%edx;
//! call hash_one`); C's `memcmp(p, "GIF8", 4)` and `strncmp` do the same.
//!
//! [`strings`] scans the code at every byte offset for a `lea` of that form
//! and a `mov` of a 32-bit immediate from 2 to [`MAX_LEN`] within
//! [`WINDOW`] bytes either side, and keeps the constant's bytes when they
//! are a token: printable ASCII without spaces (a message, such as a
//! panic's, has spaces; `Debug`'s field and type names do not, and come
//! along: a few hundred words for a Rust library with regex in it). The
//! lengths of other things (a buffer's size, a count) that happen to sit
//! beside a `lea` make truncated words ("valid_up_" of "valid_up_to"),
//! harmless beside the whole ones.

/// How far apart (in bytes of code) the `lea` and the `mov` may be.
pub const WINDOW: usize = 16;

/// The longest constant kept.
pub const MAX_LEN: u32 = 32;

/// The string constants of x86-64 code `code` that starts at address
/// `code_addr`, deduplicated, in the order found; `rodata(addr, len)` gives
/// the bytes of read-only data at a virtual address, or `None` when the
/// address is not in read-only data.
pub fn strings<'a>(
    code: &[u8],
    code_addr: u64,
    rodata: impl Fn(u64, usize) -> Option<&'a [u8]>,
) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // The addresses `lea` loaded in the last WINDOW bytes, and the lengths
    // `mov` loaded: each new one is paired with those of the other kind.
    let mut leas: std::collections::VecDeque<(usize, u64)> = Default::default();
    let mut movs: std::collections::VecDeque<(usize, u32)> = Default::default();
    let mut keep = |addr: u64, len: u32| {
        if let Some(bytes) = rodata(addr, len as usize).filter(|b| token(b)) {
            if seen.insert(bytes) {
                out.push(bytes.to_vec());
            }
        }
    };
    for (at, &first) in code.iter().enumerate() {
        if !STARTS[usize::from(first)] {
            continue;
        }
        // Each queue is in the order of the code: what is out of reach
        // is at its front.
        while leas.front().is_some_and(|&(i, _)| at > i + WINDOW) {
            leas.pop_front();
        }
        while movs.front().is_some_and(|&(i, _)| at > i + WINDOW) {
            movs.pop_front();
        }
        if let Some(addr) = lea_rip(code, at, code_addr) {
            for &(i, len) in &movs {
                if i + 5 <= at {
                    keep(addr, len);
                }
            }
            leas.push_back((at, addr));
        } else if let Some(len) = mov_imm32(code, at).filter(|n| (2..=MAX_LEN).contains(n)) {
            for &(i, addr) in &leas {
                if i + 7 <= at {
                    keep(addr, len);
                }
            }
            movs.push_back((at, len));
        }
    }
    out
}

/// The bytes a `lea` or `mov` that [`strings`] reads can start with
/// (REX.W, REX.WR, B8+r, REX.B): the scan passes over every other byte
/// without decoding.
const STARTS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, 0x41 | 0x48 | 0x4c | 0xb8..=0xbf);
        b += 1;
    }
    table
};

/// Printable ASCII, no space: the bytes of a keyword, a key or a magic.
fn token(bytes: &[u8]) -> bool {
    bytes.iter().all(|&c| (0x21..0x7f).contains(&c))
}

/// The address a `lea r64, [rip + disp32]` at `at` loads (REX.W with or
/// without REX.R, 8D, ModRM mod 00 r/m 101): the instruction's end plus
/// its displacement.
#[inline]
fn lea_rip(code: &[u8], at: usize, code_addr: u64) -> Option<u64> {
    let head = code.get(at..at + 3)?;
    if !(matches!(head[0], 0x48 | 0x4c) && head[1] == 0x8d && head[2] & 0xc7 == 0x05) {
        return None;
    }
    let disp = i32::from_le_bytes(code.get(at + 3..at + 7)?.try_into().ok()?);
    let end = code_addr.checked_add(at as u64 + 7)?;
    end.checked_add_signed(i64::from(disp))
}

/// The immediate of a `mov r32, imm32` at `at` (B8+r, or 41 B8+r for
/// r8d to r15d).
#[inline]
fn mov_imm32(code: &[u8], at: usize) -> Option<u32> {
    let start = match *code.get(at)? {
        0xb8..=0xbf => at + 1,
        0x41 if matches!(*code.get(at + 1)?, 0xb8..=0xbf) => at + 2,
        _ => return None,
    };
    Some(u32::from_le_bytes(
        code.get(start..start + 4)?.try_into().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read-only data at 0x1000: "extphone-context" then other bytes.
    const RODATA: &[u8] = b"extphone-context a message\x00\x01";

    fn rodata(addr: u64, len: usize) -> Option<&'static [u8]> {
        let start = addr.checked_sub(0x1000)? as usize;
        RODATA.get(start..start.checked_add(len)?)
    }

    /// `lea disp(%rip),%r14` at `at` in code placed at 0x2000, loading
    /// 0x1000 + `offset`.
    fn lea_r14(at: usize, offset: u64) -> Vec<u8> {
        let disp = (0x1000 + offset) as i64 - (0x2000 + at as i64 + 7);
        let mut v = vec![0x4c, 0x8d, 0x35];
        v.extend_from_slice(&(disp as i32).to_le_bytes());
        v
    }

    /// `mov $len,%edx`.
    fn mov_edx(len: u8) -> [u8; 5] {
        [0xba, len, 0, 0, 0]
    }

    #[test]
    fn a_key_passed_with_its_length_is_a_word() {
        // What rustc made of phonenumber's params.get("phone-context"):
        // lea -0xd3a5a(%rip),%r14; mov $0xd,%edx; mov %r14,%rsi; call.
        let mut code = lea_r14(0, 3);
        code.extend_from_slice(&mov_edx(0x0d));
        code.extend_from_slice(&[0x4c, 0x89, 0xf6, 0xe8, 0, 0, 0, 0]);
        assert_eq!(strings(&code, 0x2000, rodata), [b"phone-context".to_vec()]);
    }

    #[test]
    fn the_length_may_come_first_and_in_a_high_register() {
        // mov $0x3,%r8d; lea …,%rdi (48 8d 3d)
        let mut code = vec![0x41, 0xb8, 3, 0, 0, 0];
        let disp = 0x1000i64 - (0x2000 + 6 + 7);
        code.extend_from_slice(&[0x48, 0x8d, 0x3d]);
        code.extend_from_slice(&(disp as i32).to_le_bytes());
        assert_eq!(strings(&code, 0x2000, rodata), [b"ext".to_vec()]);
    }

    #[test]
    fn messages_far_pairs_and_other_addresses_make_no_words() {
        // A constant with a space ("context a").
        let mut code = lea_r14(0, 8);
        code.extend_from_slice(&mov_edx(9));
        code.extend_from_slice(&[0x90; WINDOW + 1]);
        // A length of 1 and one above MAX_LEN.
        code.extend_from_slice(&lea_r14(code.len(), 0));
        code.extend_from_slice(&mov_edx(1));
        code.extend_from_slice(&mov_edx(MAX_LEN as u8 + 1));
        code.extend_from_slice(&[0x90; WINDOW + 1]);
        // A pair further apart than WINDOW.
        code.extend_from_slice(&lea_r14(code.len(), 3));
        code.extend_from_slice(&[0x90; WINDOW]);
        code.extend_from_slice(&mov_edx(0x0d));
        code.extend_from_slice(&[0x90; WINDOW + 1]);
        // An address outside read-only data.
        code.extend_from_slice(&lea_r14(code.len(), 0x8000));
        code.extend_from_slice(&mov_edx(4));
        assert!(strings(&code, 0x2000, rodata).is_empty());
    }

    #[test]
    fn a_constant_found_twice_is_one_word() {
        let mut code = lea_r14(0, 0);
        code.extend_from_slice(&mov_edx(3));
        code.extend_from_slice(&[0x90; WINDOW + 1]);
        code.extend_from_slice(&lea_r14(code.len(), 0));
        code.extend_from_slice(&mov_edx(3));
        assert_eq!(strings(&code, 0x2000, rodata), [b"ext".to_vec()]);
    }

    proptest::proptest! {
        #[test]
        fn no_instruction_read_starts_with_a_byte_the_scan_passes_over(
            first in proptest::strategy::Strategy::prop_filter(proptest::num::u8::ANY, "passed over", |&b| !STARTS[usize::from(b)]),
            rest in proptest::collection::vec(proptest::num::u8::ANY, 0..16),
            addr in proptest::num::u64::ANY,
        ) {
            let code = [&[first][..], &rest].concat();
            proptest::prop_assert_eq!(lea_rip(&code, 0, addr), None);
            proptest::prop_assert_eq!(mov_imm32(&code, 0), None);
        }

        #[test]
        fn any_bytes_scan_without_panic(
            code in proptest::collection::vec(proptest::num::u8::ANY, 0..512),
            addr in proptest::num::u64::ANY,
        ) {
            let found = strings(&code, addr, |a, n| {
                let start = usize::try_from(a.wrapping_sub(addr)).ok()?;
                code.get(start..start.checked_add(n)?)
            });
            for w in found {
                proptest::prop_assert!(w.len() >= 2 && token(&w));
            }
        }
    }
}
