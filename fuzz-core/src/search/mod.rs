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

/// For the property tests of the mutations of text (`lines`, `fields`):
/// bytes of `text`, and now and then (one byte in about a hundred) one
/// that makes the input not text (a lone lead byte, 0xff), so that most
/// inputs, long ones too, reach the mutation and some test its guard.
#[cfg(test)]
fn mostly_text(text: &'static [u8]) -> impl proptest::strategy::Strategy<Value = u8> {
    use proptest::strategy::Strategy;
    let n = text.len() * 50;
    (0..n + 2).prop_map(move |i| match i.checked_sub(n) {
        Some(0) => 0xc3,
        Some(_) => 0xff,
        None => text[i % text.len()],
    })
}
