//! Where corpus entries live on disk: corpus directories ([`corpus`]), the
//! generated-corpus cache and its layout ([`cache`]), the digest names of
//! entries ([`digest`]), atomic writes ([`fsutil`]) and their flush to disk
//! off the writer's thread ([`flush`]), a directory no file in it can hurt
//! ([`confined`]) and a corpus shared through one ([`sync`]).

pub mod cache;
pub mod confined;
pub mod corpus;
pub mod digest;
pub mod flush;
pub mod fsutil;
pub mod sync;

/// True for a name a target's directory can have, in every place the
/// tools keep one (`testdata/fuzz/`, the cache, a `-sync` directory): one
/// path component, not hidden, at most 255 bytes, and without the tab and
/// newline that a `-sync` index separates with. The one rule: a place with
/// more to refuse adds it ([`sync::is_target_name`]).
pub fn is_target_name(name: &std::ffi::OsStr) -> bool {
    let b = name.as_encoded_bytes();
    !b.is_empty()
        && b.len() <= 255
        && b[0] != b'.'
        && !b.iter().any(|c| matches!(c, b'/' | b'\t' | b'\n' | b'\0'))
}
