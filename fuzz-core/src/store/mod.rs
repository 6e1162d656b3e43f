//! Where corpus entries live on disk: corpus directories ([`corpus`]), the
//! generated-corpus cache and its layout ([`cache`]), the digest names of
//! entries ([`digest`]), and atomic writes ([`fsutil`]).

pub mod cache;
pub mod confined;
pub mod corpus;
pub mod digest;
pub mod fsutil;
pub mod sync;
