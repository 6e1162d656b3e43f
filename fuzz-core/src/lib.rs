//! The engine library shared by the fuzz tools.
//!
//! Grouped by concept, as Go's `internal/fuzz` is by file:
//!
//! - [`format`](mod@format): the "go test fuzz v1" corpus format, byte for byte as Go
//!   reads and writes it, and the values it holds;
//! - [`store`]: where entries live on disk: corpus directories, the cache,
//!   digest names, atomic writes;
//! - [`search`]: how new inputs are made and judged: the mutator, the
//!   comparison hints and dictionaries, scheduling, splicing, minimizing;
//! - [`worker`]: the coordinator's side of a worker process: the protocol,
//!   the shared memory, crash kinds and sites, and the client that drives it;
//! - [`run_events`]: fuzz-run's `-json` lines, for the scripts that read them.
//!
//! This crate is policy-free: no argument parsing, no printing, no
//! `process::exit`, no reading of argv or the environment. Callers pass in
//! what it needs and get back a `Result` whose error names the file and
//! line at fault.

pub mod duration;
pub mod error;
pub mod format;
pub mod image;
pub mod run_events;
pub mod search;
pub mod store;
pub mod worker;

pub use error::{Error, Result};
/// The Go release and Unicode version whose printable-rune table the writer uses.
pub use format::isprint_table::{GO_VERSION as QUOTE_TABLE_GO_VERSION, UNICODE_VERSION};
pub use format::value::Value;
pub use fuzz_target::ArgType;
