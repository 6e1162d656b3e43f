//! Dictionary words read from a target's machine code: the constants of
//! comparisons that no comparison callback shows.
//!
//! SanitizerCoverage's `trace-cmp` reports integer comparisons of 1, 2, 4
//! and 8 bytes, and fuzz-worker interposes `memcmp` & co. A comparison of
//! 9 to 16 bytes against a constant falls between them: rustc compiles
//! `payload == b"MAGIC_1234"` (a slice against a short array) to one
//! 80-bit integer comparison, which `trace-cmp` skips, and the code
//! generator then splits into an 8-byte immediate and a 2-byte one
//! (`movabs $0x32315f434947414d,%rcx; xor (%rbx),%rcx; xor $0x3433,%rax;
//! or; je`); clang and gcc do the same with small constant `memcmp`s when
//! they inline them. Such a bug is out of reach of coverage and of
//! comparison operands alike: libFuzzer does not find it.
//!
//! Narrower constants hide the same way. A comparison of an odd width
//! (`&buf[..3] == b"GIF"` is one 24-bit comparison in LLVM's IR, which
//! `trace-cmp` skips), or a short `memcmp`/`bcmp` that the code generator
//! expands after SanitizerCoverage has run (`starts_with` of PNG's 8-byte
//! signature: no callback, and no call left for the interposed `bcmp`),
//! reaches the machine code as a 32-bit or 64-bit immediate and nothing
//! else: `cmp $0x464947,%eax`, `movabs $0xa1a0a0d474e5089,%rcx`.
//!
//! [`words`] scans x86-64 code for that shape: an 8-byte immediate
//! (`movabs`) of printable bytes, alone and joined with each immediate
//! compared or XORed within the next few instructions (`cmp`/`xor`/`sub`
//! with an 8-, 16- or 32-bit immediate, or another `movabs`), in code
//! order: "MAGIC_12" and "MAGIC_1234"; a 32-bit immediate compared or
//! XORed whose bytes (less its high zeros) are three or four letters,
//! digits or spaces ("GIF", "Exif", "ftyp"); and an 8-byte immediate that
//! is not all printable but has no zero byte and three letters in a row
//! (a file signature: "\x89PNG\r\n\x1a\n"). The scan looks at every
//! byte offset (no instruction decoding to get lost in), so it sees some
//! immediates that are not instructions; requiring text keeps the words
//! few (a dozen to a few dozen for a whole Rust library, std included) and
//! most of them the strings the code compares with.

/// How far past an 8-byte immediate (in bytes of code) the immediates
/// joined to it may start.
const WINDOW: usize = 32;

/// The words of x86-64 machine code `code` (deduplicated, in the order
/// found). One pass, keeping only the 8-byte immediates of the last
/// `WINDOW` bytes: libraries of any size.
pub fn words(code: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut seen: std::collections::HashSet<Vec<u8>> = std::collections::HashSet::new();
    let mut push = |w: Vec<u8>| {
        if seen.insert(w.clone()) {
            out.push(w);
        }
    };
    // Printable 8-byte immediates still within reach, and where they are.
    let mut heads: std::collections::VecDeque<(usize, &[u8])> = Default::default();
    for (at, &first) in code.iter().enumerate() {
        if !STARTS[usize::from(first)] {
            continue;
        }
        let Some(imm) = immediate_at(code, at) else {
            continue;
        };
        while heads.front().is_some_and(|&(h, _)| at > h + WINDOW) {
            heads.pop_front();
        }
        let tail = trim_zeros(imm);
        if printable(tail) {
            // A head's instruction is 10 bytes: what starts inside it is
            // not another instruction.
            for &(_, head) in heads.iter().filter(|&&(h, _)| at >= h + 10) {
                push([head, tail].concat());
            }
        }
        if imm.len() == 8 && printable(imm) {
            push(imm.to_vec());
            heads.push_back((at, imm));
        } else if imm.len() == 8 && signature(imm) {
            push(imm.to_vec());
        } else if imm.len() == 4 && tail.len() >= 3 && tail.iter().all(|&c| word_char(c)) {
            push(tail.to_vec());
        }
    }
    out
}

/// Printable ASCII (and tab, newline, carriage return), at least one byte.
fn printable(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|&c| (0x20..0x7f).contains(&c) || matches!(c, b'\t' | b'\n' | b'\r'))
}

/// A letter, digit or space: what the bytes of a short constant compared
/// with as text are made of ("GIF", "Exif", "ftyp").
fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b' '
}

/// An 8-byte constant shaped like a file signature: no zero byte, not all
/// printable (those are words already), three different ASCII letters in
/// a row (PNG's "\x89PNG\r\n\x1a\n"). Hash constants rarely have them;
/// division's magic numbers repeat one byte (0x0555555555555556:
/// "VUUUUUU\x05").
fn signature(imm: &[u8]) -> bool {
    !imm.contains(&0)
        && imm.windows(3).any(|w| {
            w.iter().all(u8::is_ascii_alphabetic) && w[0] != w[1] && w[1] != w[2] && w[0] != w[2]
        })
}

/// An immediate wider than what it is compared with is zero-extended
/// (`xor $0x3433,%rax` after a 2-byte load): its high zero bytes are not
/// part of the word. One byte is kept of an all-zero immediate.
fn trim_zeros(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().rposition(|&b| b != 0).map_or(1, |i| i + 1);
    &bytes[..n.min(bytes.len())]
}

/// The bytes an instruction [`immediate_at`] reads can start with (its
/// opcode, or a 66 or REX prefix): the scan passes over every other byte
/// without decoding.
const STARTS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(
            b as u8,
            0x2d | 0x35 | 0x3c | 0x3d | 0x40..=0x4f | 0x66 | 0x80 | 0x81
        );
        b += 1;
    }
    table
};

/// The immediate of an instruction starting at `at`, if it is one of:
/// `movabs $imm64, %r64` (REX.W B8+r); `cmp`/`xor`/`sub` of `%al`/`%ax`/
/// `%eax`/`%rax` with an immediate (3C, 3D, 35, 2D); `cmp`/`xor`/`sub` of
/// a register or memory operand with an immediate (80 /7, 81 /7 /6 /5).
/// A 66 prefix makes the immediate 16 bits; a REX prefix may come first.
#[inline]
fn immediate_at(code: &[u8], at: usize) -> Option<&[u8]> {
    let b = |i: usize| code.get(i).copied();
    let first = b(at)?;
    if matches!(first, 0x48 | 0x49) && matches!(b(at + 1)?, 0xb8..=0xbf) {
        return code.get(at + 2..at + 10);
    }
    let wide16 = first == 0x66;
    let mut j = at + usize::from(wide16);
    if matches!(b(j)?, 0x40..=0x4f) {
        j += 1;
    }
    let size = if wide16 { 2 } else { 4 };
    match b(j)? {
        0x3d | 0x35 | 0x2d => code.get(j + 1..j + 1 + size),
        0x3c if !wide16 => code.get(j + 1..j + 2),
        0x81 => {
            let (len, op) = modrm(code, j + 1)?;
            let imm = j + 1 + len;
            matches!(op, 5..=7).then(|| code.get(imm..imm + size))?
        }
        0x80 if !wide16 => {
            let (len, op) = modrm(code, j + 1)?;
            let imm = j + 1 + len;
            (op == 7).then(|| code.get(imm..imm + 1))?
        }
        _ => None,
    }
}

/// The length of a ModRM byte at `at` with its SIB byte and displacement,
/// and its reg field (the operation of an 80/81 instruction).
fn modrm(code: &[u8], at: usize) -> Option<(usize, u8)> {
    let m = *code.get(at)?;
    let (mode, rm) = (m >> 6, m & 7);
    let mut len = 1;
    if mode != 3 && rm == 4 {
        let sib = *code.get(at + 1)?;
        len += 1;
        if mode == 0 && sib & 7 == 5 {
            len += 4;
        }
    }
    len += match (mode, rm) {
        (0, 5) => 4,
        (1, _) => 1,
        (2, _) => 4,
        _ => 0,
    };
    Some((len, (m >> 3) & 7))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What rustc 1.95 makes of `payload == b"MAGIC_1234"` (objdump of
    /// examples/cmp/rust): the 2-byte tail loaded first, then the 8-byte
    /// head compared with a movabs constant, then the tail.
    const MAGIC: &[u8] = &[
        0x0f, 0xb7, 0x43, 0x08, // movzwl 0x8(%rbx),%eax
        0x48, 0xb9, b'M', b'A', b'G', b'I', b'C', b'_', b'1', b'2', // movabs $…,%rcx
        0x48, 0x33, 0x0b, // xor (%rbx),%rcx
        0x48, 0x35, 0x33, 0x34, 0x00, 0x00, // xor $0x3433,%rax
        0x48, 0x09, 0xc8, // or %rcx,%rax
        0x74, 0x30, // je
    ];

    #[test]
    fn a_split_wide_comparison_gives_its_whole_constant() {
        assert_eq!(words(MAGIC), [b"MAGIC_12".to_vec(), b"MAGIC_1234".to_vec()]);
    }

    #[test]
    fn sixteen_bytes_in_two_movabs_and_other_tails() {
        let mut code = vec![0x48, 0xb8];
        code.extend_from_slice(b"0123456789");
        code.truncate(10);
        code.extend_from_slice(&[0x49, 0xba]);
        code.extend_from_slice(b"abcdefgh");
        // cmp $0x5a,%al; cmpw $0x2121,0x8(%rdi); cmpb $0x21,(%rsi,%rax,1)
        code.extend_from_slice(&[0x3c, b'Z']);
        code.extend_from_slice(&[0x66, 0x81, 0x7f, 0x08, b'!', b'!']);
        code.extend_from_slice(&[0x80, 0x3c, 0x06, b'?']);
        let w = words(&code);
        for want in [
            &b"01234567"[..],
            b"01234567abcdefgh",
            b"01234567Z",
            b"abcdefgh",
            b"abcdefghZ",
            b"abcdefgh!!",
            b"abcdefgh?",
        ] {
            assert!(
                w.contains(&want.to_vec()),
                "{:?} not in {w:?}",
                want.escape_ascii().to_string()
            );
        }
    }

    /// What rustc makes of image-gif 0.11's `&buf[..3] == b"GIF"` (a
    /// 24-bit comparison) and of kamadak-exif's `starts_with` of the PNG
    /// signature (a bcmp expanded after sancov ran).
    #[test]
    fn short_text_and_file_signatures_are_words() {
        let mut code = vec![0x3d, b'G', b'I', b'F', 0x00]; // cmp $0x464947,%eax
        code.extend_from_slice(&[0x81, 0x7f, 0x04, b'E', b'x', b'i', b'f']); // cmpl $..,0x4(%rdi)
        code.extend_from_slice(&[0x48, 0xb9, 0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]);
        assert_eq!(
            words(&code),
            [
                b"GIF".to_vec(),
                b"Exif".to_vec(),
                b"\x89PNG\r\n\x1a\n".to_vec()
            ]
        );
    }

    #[test]
    fn unprintable_far_or_truncated_immediates_make_no_words() {
        // Constants that are not text: a division's magic number, a
        // 32-bit mask, two letters.
        let mut code = vec![0x48, 0xb8, 0x56, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x05];
        code.extend_from_slice(&[0x48, 0xb8, 0x15, 0x7c, 0x4a, 0x7f, 0xb9, 0x79, 0x37, 0x9e]);
        code.extend_from_slice(&[0x3d, 0xff, 0xff, 0x00, 0x00, 0x3d, b'o', b'k', 0, 0]);
        code.extend_from_slice(&[0x3d, b'a', 0x01, b'b', 0]);
        assert!(words(&code).is_empty(), "{:?}", words(&code));
        // A tail beyond the window is not joined.
        code = vec![0x48, 0xb8];
        code.extend_from_slice(b"far away");
        code.extend(std::iter::repeat_n(0x90, WINDOW));
        code.extend_from_slice(&[0x66, 0x3d, b'!', b'!']);
        assert_eq!(words(&code), [b"far away".to_vec()]);
        // Cut short, empty, or no immediates at all: nothing, no panic.
        assert!(words(&MAGIC[..8]).is_empty());
        assert!(words(&[]).is_empty());
        assert!(words(&[0x48, 0xb8, b'a']).is_empty());
        assert!(words(&[0x81]).is_empty());
        assert!(words(&[0x66, 0x81, 0x04]).is_empty());
    }

    proptest::proptest! {
        #[test]
        fn no_instruction_read_starts_with_a_byte_the_scan_passes_over(
            first in proptest::strategy::Strategy::prop_filter(proptest::num::u8::ANY, "passed over", |&b| !STARTS[usize::from(b)]),
            rest in proptest::collection::vec(proptest::num::u8::ANY, 0..16),
        ) {
            let code = [&[first][..], &rest].concat();
            proptest::prop_assert_eq!(immediate_at(&code, 0), None);
        }

        #[test]
        fn any_bytes_scan_without_panic(code in proptest::collection::vec(proptest::num::u8::ANY, 0..512)) {
            for w in words(&code) {
                proptest::prop_assert!(
                    (w.len() >= 8 && (printable(&w) || signature(&w[..8])))
                        || ((3..=4).contains(&w.len()) && w.iter().all(|&c| word_char(c)))
                );
            }
        }
    }

    #[test]
    fn modrm_lengths() {
        assert_eq!(modrm(&[0xf8], 0), Some((1, 7))); // register
        assert_eq!(modrm(&[0x3f], 0), Some((1, 7))); // (%rdi)
        assert_eq!(modrm(&[0x7f, 0x08], 0), Some((2, 7))); // 0x8(%rdi)
        assert_eq!(modrm(&[0xbf, 0, 0, 0, 0], 0), Some((5, 7))); // disp32(%rdi)
        assert_eq!(modrm(&[0x3c, 0x06], 0), Some((2, 7))); // (%rsi,%rax,1)
        assert_eq!(modrm(&[0x3c, 0x25, 0, 0, 0, 0], 0), Some((6, 7))); // abs32 via SIB
        assert_eq!(modrm(&[0x35, 0, 0, 0, 0], 0), Some((5, 6))); // rip-relative
        assert_eq!(modrm(&[], 0), None);
    }
}
