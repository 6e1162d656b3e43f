//! Properties of the codec over generated input: decoding never panics,
//! whatever the bytes; everything decoded re-encodes to a file that decodes
//! to the same values; every value we can hold survives a round trip.

use fuzz_core::format::codec::{decode, encode};
use fuzz_core::Value;
use proptest::prelude::*;

/// Bytes that look like corpus lines: the characters Go's literal syntax
/// cares about, more often than chance would give them.
fn line_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"int64(".to_vec()),
        Just(b"[]byte(".to_vec()),
        Just(b"string(".to_vec()),
        Just(b"float64(".to_vec()),
        Just(b"rune(".to_vec()),
        Just(b"math.Float64frombits(".to_vec()),
        Just(b"custom(\"t\", []byte(".to_vec()),
        Just(b"0x1p-2".to_vec()),
        Just(b"'\\x".to_vec()),
        Just(b"\"\\u".to_vec()),
        Just(b"/*".to_vec()),
        Just(b"...".to_vec()),
        Just(b"\n".to_vec()),
        proptest::collection::vec(any::<u8>(), 1..4),
        proptest::collection::vec(
            prop::sample::select(b"()[]{},.;-+!^&_'\"`\\/*0123456789aefxpiInN \t\r".to_vec()),
            1..6
        ),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|ps| {
        let mut v = b"go test fuzz v1\n".to_vec();
        for p in ps {
            v.extend(p);
        }
        v
    })
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::Bytes),
        proptest::collection::vec(any::<u8>(), 0..40).prop_map(Value::String),
        any::<String>().prop_map(|s| Value::String(s.into_bytes())),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<i8>().prop_map(Value::Int8),
        any::<i16>().prop_map(Value::Int16),
        any::<i32>().prop_map(Value::Int32),
        any::<i64>().prop_map(Value::Int64),
        any::<u64>().prop_map(Value::Uint),
        any::<u8>().prop_map(Value::Uint8),
        any::<u16>().prop_map(Value::Uint16),
        any::<u32>().prop_map(Value::Uint32),
        any::<u64>().prop_map(Value::Uint64),
        any::<u32>().prop_map(|b| Value::Float32(f32::from_bits(b))),
        any::<u64>().prop_map(|b| Value::Float64(f64::from_bits(b))),
        (
            "[a-z][a-z0-9_.]{0,8}",
            proptest::collection::vec(any::<u8>(), 0..20)
        )
            .prop_map(|(name, data)| Value::Custom { name, data }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode(&bytes);
    }

    #[test]
    fn decoding_line_like_bytes_never_panics_and_is_stable(bytes in line_like()) {
        if let Ok(values) = decode(&bytes) {
            let again = encode(&values);
            prop_assert_eq!(decode(&again).unwrap(), values.clone());
            // Canonical form is a fixed point.
            prop_assert_eq!(encode(&decode(&again).unwrap()), again);
        }
    }

    #[test]
    fn every_value_round_trips(values in proptest::collection::vec(any_value(), 1..6)) {
        let bytes = encode(&values);
        prop_assert_eq!(decode(&bytes).unwrap(), values);
    }
}
