//! Helpers for writing fuzz targets, and the one definition of the
//! typed-argument encoding that both a target and the worker use.
//!
//! A Go-style typed target `int FuzzName(const uint8_t *args, size_t len)`
//! receives its arguments packed in order (see ARCHITECTURE.md, "Targets"):
//! fixed-width numbers little-endian, `bool` as one byte, `string` and
//! `[]byte` as a 4-byte little-endian length and then the bytes. This crate
//! has no dependencies so that a target can link it at no cost, and so that
//! the format lives in exactly one place; `fuzz-core` reuses it.
//!
//! [`custom`] holds custom mutators: self-mutating custom values of typed
//! targets ([`CustomValue`], [`custom_value!`], declared `custom(NAME)`,
//! stored as `custom("NAME", []byte("…"))`, mutated through the exported
//! `fuzz_mutate_NAME`), and libFuzzer's `LLVMFuzzerCustomMutator` and
//! `LLVMFuzzerCustomCrossOver` ([`libfuzzer_custom_mutator!`],
//! [`libfuzzer_custom_cross_over!`]).

pub mod args;
pub mod custom;
pub mod target;

pub use args::{ArgReader, ArgType, ArgWriter, ParseArgTypeError};
pub use custom::CustomValue;
pub use target::{FuzzArg, GoStr, GoType, Outcome, Verdict};
