//! The search: how new inputs are made from old ones and which old ones
//! are chosen. Go's mutator and random generator ([`mutator`], [`rng`]);
//! what Go lacks: comparison hints ([`hints`]), dictionaries ([`dict`],
//! [`codewords`], [`codestrings`]), scheduling by rarity ([`schedule`],
//! over the coverage features [`pctable`] defines), splicing
//! ([`splice`]), whole characters ([`utf8`]), whole lines ([`lines`]) and
//! fields ([`fields`]), numbers written as text ([`asciinum`]), entries
//! kept short while fuzzing ([`reduce`]); and shrinking an input while it
//! keeps a property ([`minimize`]).

pub mod asciinum;
pub mod codestrings;
pub mod codewords;
pub mod dict;
pub mod fields;
pub mod hints;
pub mod lines;
pub mod minimize;
pub mod mutator;
pub mod pctable;
pub mod reduce;
pub mod rng;
pub mod schedule;
pub mod splice;
pub mod utf8;
