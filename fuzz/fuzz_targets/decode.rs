//! The v1 decoder must never panic, and whatever it accepts must re-encode
//! to a canonical file that decodes to the same values.
#![no_main]

use fuzz_core::format::codec::{decode, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(values) = decode(data) {
        let canonical = encode(&values);
        let again = decode(&canonical).expect("canonical output must decode");
        assert_eq!(again, values);
        assert_eq!(encode(&again), canonical);
    }
});
