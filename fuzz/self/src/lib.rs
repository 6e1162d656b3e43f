//! Typed fuzz targets over our own parsers. A panic is a failure.

use fuzz_core::format::codec::{decode, encode};
use fuzz_target::fuzz_target;

fuzz_target!(FuzzDecode, |data: &[u8]| {
    if let Ok(values) = decode(data) {
        let canonical = encode(&values);
        let again = decode(&canonical).expect("canonical output decodes");
        assert_eq!(again, values, "decode(encode(v)) == v");
        assert_eq!(encode(&again), canonical, "canonical form is a fixed point");
    }
});

fuzz_target!(FuzzDict, |data: &[u8]| {
    if let Ok(words) = fuzz_core::search::dict::parse(data) {
        assert!(words.iter().all(|w| !w.is_empty()));
    }
});

fuzz_target!(FuzzDuration, |text: &str| {
    let _ = fuzz_core::duration::parse(text);
    let _ = fuzz_core::duration::Limit::parse(text);
});

fuzz_target!(FuzzTypes, |text: &str| {
    if let Ok(types) = fuzz_core::ArgType::parse_list(text) {
        let again = fuzz_core::ArgType::parse_list(&fuzz_core::ArgType::format_list(&types));
        assert_eq!(again.ok(), Some(types));
    }
});

fuzz_target!(FuzzCodeWords, |code: &[u8]| {
    for w in fuzz_core::search::codewords::words(code) {
        assert!(w.len() >= 3, "a word is three bytes or more (\"GIF\")");
    }
});

// The code doubles as the read-only data, both at address `addr`.
fuzz_target!(FuzzCodeStrings, |addr: u64, code: &[u8]| {
    let rodata = |at: u64, n: usize| {
        let start = usize::try_from(at.wrapping_sub(addr)).ok()?;
        code.get(start..start.checked_add(n)?)
    };
    for w in fuzz_core::search::codestrings::strings(code, addr, rodata) {
        assert!(w.len() >= 2 && w.len() <= 32, "a word of 2 to 32 bytes");
        assert!(w.iter().all(|c| c.is_ascii_graphic()), "printable, no space");
    }
});
