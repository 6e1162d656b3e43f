//! The engine library shared by the fuzz tools.
//!
//! One module per concept, as in Go's `internal/fuzz`. This crate is
//! policy-free: no argument parsing, no printing, no `process::exit`, no
//! reading of argv or the environment. Callers pass in what it needs and get
//! back a `Result` whose error names the file and line at fault.

pub mod cache;
pub mod codec;
pub mod codewords;
pub mod corpus;
pub mod crash;
pub mod dict;
pub mod digest;
pub mod duration;
pub mod error;
pub mod fsutil;
mod gofloat;
mod golex;
mod goquote;
pub mod hints;
mod isprint_table;
pub mod minimize;
pub mod mutator;
pub mod pctable;
pub mod protocol;
pub mod rng;
pub mod schedule;
pub mod shm;
pub mod splice;
pub mod utf8;
pub mod value;
pub mod worker;

pub use error::{Error, Result};
pub use fuzz_target::ArgType;
/// The Go release and Unicode version whose printable-rune table the writer uses.
pub use isprint_table::{GO_VERSION as QUOTE_TABLE_GO_VERSION, UNICODE_VERSION};
pub use value::Value;
