//! The corpus format: "go test fuzz v1" files, byte for byte as Go 1.19
//! reads and writes them ([`codec`]), and the typed values they hold
//! ([`value`]). The rest are Go's own lexer, float and quoting rules,
//! ported so that the codec matches Go exactly.

pub mod codec;
mod gofloat;
mod golex;
mod goquote;
pub(crate) mod isprint_table;
pub mod value;
