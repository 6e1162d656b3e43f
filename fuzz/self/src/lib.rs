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
        assert!(w.len() >= 8, "a word starts with an 8-byte immediate");
    }
});
