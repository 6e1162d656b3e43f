//! Keeping the entries short while fuzzing (libFuzzer's `-reduce_inputs`).
//!
//! Each coverage feature belongs to the first entry that reached it: the
//! features an entry brought are what made it worth keeping. A mutant of
//! an entry that is shorter than the entry, reaches every feature the
//! entry brought and nothing new may take the entry's place: what it was
//! kept for stays, in fewer bytes, so that the mutations that follow land
//! on the bytes that matter. Without it an entry keeps the bytes its
//! mutations happened to add (a fuzz-run run does not minimize what it
//! adds with `-fuzzminimizetime 0`), and they pass on to every entry made
//! from it.
//!
//! What an entry brought is fixed when it is added, as libFuzzer fixes an
//! input's unique features: a shorter entry reaching the same features
//! later takes nothing from it, so that reducing one entry never makes
//! others easier to reduce (which would shrink the corpus towards the
//! shortest inputs that keep one feature each, and lose the rest).
//!
//! This is the bookkeeping alone; the worker's loop (fuzz-worker's
//! `fuzzing.rs`) calls it.

/// No entry has reached the feature.
const NONE: u32 = u32::MAX;

/// Which entry brought each feature, how many each brought, and their
/// sizes.
pub struct Owners {
    /// The entry that brought each feature (`NONE`: none reaches it).
    owner: Vec<u32>,
    /// How many features each entry brought.
    owned: Vec<u32>,
    /// The size of each entry, in bytes ([`super::minimize::size`]).
    sizes: Vec<usize>,
}

impl Owners {
    /// No entries, over features `0..features` (any feature outside is
    /// ignored).
    pub fn new(features: usize) -> Owners {
        Owners {
            owner: vec![NONE; features],
            owned: Vec::new(),
            sizes: Vec::new(),
        }
    }

    /// Adds the next entry, of `size` bytes and reaching `features`: the
    /// features no entry reached before are its own. Returns its index
    /// (entries are numbered in the order they are added).
    pub fn add(&mut self, size: usize, features: &[u32]) -> usize {
        let i = self.sizes.len();
        self.sizes.push(size);
        let mut owned = 0;
        for &f in features {
            if let Some(o) = self.owner.get_mut(f as usize) {
                if *o == NONE {
                    *o = i as u32;
                    owned += 1;
                }
            }
        }
        self.owned.push(owned);
        i
    }

    /// Whether a mutant of entry `i`, of `size` bytes and reaching
    /// `features` (each once, as an execution's features are), may take
    /// its place: it is shorter and reaches every feature the entry
    /// brought, of which there is one at least.
    pub fn replaces(&self, i: usize, size: usize, features: &[u32]) -> bool {
        let Some(&old) = self.sizes.get(i) else {
            return false;
        };
        let owned = self.owned[i];
        if size >= old || owned == 0 {
            return false;
        }
        let mine = features
            .iter()
            .filter(|&&f| self.owner.get(f as usize) == Some(&(i as u32)))
            .count();
        mine == owned as usize
    }

    /// Entry `i` is now `size` bytes long (a mutant that
    /// [`Owners::replaces`] it took its place); it keeps what it brought.
    pub fn replace(&mut self, i: usize, size: usize) {
        self.sizes[i] = size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_brings_the_features_no_entry_reached_before() {
        let mut o = Owners::new(16);
        assert_eq!(o.add(10, &[1, 2, 3]), 0);
        assert_eq!(o.add(5, &[2, 4, 99]), 1);
        assert_eq!(o.add(1, &[4, 5]), 2);
        assert_eq!(o.owned, [3, 1, 1], "smaller later entries take nothing");
        assert_eq!(&o.owner[1..6], [0, 0, 0, 1, 2]);
    }

    #[test]
    fn a_shorter_mutant_reaching_what_its_entry_brought_replaces_it() {
        let mut o = Owners::new(16);
        o.add(10, &[1, 3]);
        o.add(5, &[2, 4]);
        assert!(o.replaces(0, 9, &[1, 3]));
        assert!(
            o.replaces(0, 9, &[3, 7, 1]),
            "order and others do not matter"
        );
        assert!(!o.replaces(0, 10, &[1, 3]), "not shorter");
        assert!(!o.replaces(0, 9, &[1, 2]), "3 lost");
        assert!(
            !o.replaces(0, 9, &[1, 99]),
            "a feature outside is none of its own"
        );
        assert!(!o.replaces(7, 1, &[1]), "no such entry");
        o.replace(0, 4);
        assert!(!o.replaces(0, 4, &[1, 3]), "now 4 bytes long");
        assert!(o.replaces(0, 3, &[1, 3]));
        assert!(o.replaces(1, 4, &[2, 4]), "1 keeps what it brought");
    }

    #[test]
    fn an_entry_that_brought_nothing_is_never_replaced() {
        let mut o = Owners::new(8);
        o.add(9, &[1]);
        o.add(2, &[1]);
        assert!(!o.replaces(1, 1, &[1]));
    }
}
