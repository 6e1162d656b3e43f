//! Worker processes, from the side of the tools that drive them (only
//! fuzz-worker loads targets): the line-delimited JSON [`protocol`], the
//! memory a worker shares with its coordinator ([`shm`]), what a crash
//! report says and where a crash happened ([`crash`]), and the [`client`]
//! that starts a worker and turns its answers and its death into events
//! (Go's `workerClient`), with the command line it gives it
//! ([`serve_args`]), and the [`spare`] worker that lists a library's
//! targets and then serves one of them.

pub mod client;
pub mod crash;
pub mod protocol;
pub mod run_json;
pub mod serve_args;
pub mod shm;
pub mod spare;
