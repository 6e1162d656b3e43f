//! Properties of the mutator over generated entries: `mutate` never panics
//! and always returns, whatever the values (NaN, extremes, empty and
//! overlong slices, custom values); it keeps every argument's type, keeps
//! `[]byte`/`string` arguments within `max_len`, and changes at most one
//! argument per call.

use fuzz_core::search::mutator::Mutator;
use fuzz_core::Value;
use proptest::prelude::*;

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(Value::Bytes),
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()].prop_map(Value::Int64),
        any::<i8>().prop_map(Value::Int8),
        any::<i16>().prop_map(Value::Int16),
        any::<i32>().prop_map(Value::Int32),
        any::<u64>().prop_map(Value::Uint),
        prop_oneof![Just(0), Just(u64::MAX), any::<u64>()].prop_map(Value::Uint64),
        any::<u8>().prop_map(Value::Uint8),
        any::<u16>().prop_map(Value::Uint16),
        any::<u32>().prop_map(Value::Uint32),
        any::<u32>().prop_map(|b| Value::Float32(f32::from_bits(b))),
        any::<u64>().prop_map(|b| Value::Float64(f64::from_bits(b))),
        prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::MAX),
            Just(-f64::MAX),
            Just(-0.0),
        ]
        .prop_map(Value::Float64),
        proptest::collection::vec(any::<u8>(), 0..8).prop_map(|data| Value::Custom {
            name: "t".into(),
            data,
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutate_never_panics_and_respects_max_len(
        vals in proptest::collection::vec(value(), 0..6),
        seed in any::<u64>(),
        max_len in prop_oneof![Just(0usize), Just(1), 0usize..64, Just(4096)],
        rounds in 1usize..60,
    ) {
        let mut m = Mutator::new(seed, max_len);
        let mut cur = vals.clone();
        for _ in 0..rounds {
            let before = cur.clone();
            m.mutate(&mut cur);
            prop_assert_eq!(cur.len(), vals.len());
            let mut changed = 0;
            for (a, b) in before.iter().zip(&cur) {
                prop_assert_eq!(a.arg_type(), b.arg_type());
                if a != b {
                    changed += 1;
                }
                if let Value::Bytes(x) | Value::String(x) = b {
                    if a != b {
                        prop_assert!(x.len() <= max_len);
                    }
                }
                if let (Value::Int8(x), true) = (b, a != b) {
                    prop_assert!(*x != i8::MIN);
                }
            }
            prop_assert!(changed <= 1);
        }
    }
}
