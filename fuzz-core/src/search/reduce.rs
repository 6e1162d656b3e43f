//! Keeping the entries short while fuzzing (libFuzzer's `-reduce_inputs`).
//!
//! Each coverage feature is owned by the smallest entry that reaches it
//! (the older one on a tie). A mutant of an entry that is shorter than the
//! entry, reaches every feature the entry owns and nothing new may take
//! the entry's place: what made the entry worth keeping is kept, in fewer
//! bytes, so that the mutations that follow from it land on the bytes that
//! matter. Without it an entry keeps the bytes its mutations happened to
//! add (a fuzz-run run does not minimize what it adds with
//! `-fuzzminimizetime 0`), and those bytes pass on to every entry made from
//! it.
//!
//! This is the bookkeeping alone: which entry owns which feature, and the
//! test. The worker's loop (fuzz-worker's `fuzzing.rs`) calls it.

/// No entry owns the feature.
const NONE: u32 = u32::MAX;

/// Which entry owns each feature, and how many each owns.
pub struct Owners {
    /// The owner of each feature (`NONE`: no entry reaches it).
    owner: Vec<u32>,
    /// How many features each entry owns.
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

    /// Adds the next entry, of `size` bytes and reaching `features`: it
    /// takes every feature no smaller entry owns. Returns its index
    /// (entries are numbered in the order they are added).
    pub fn add(&mut self, size: usize, features: &[u32]) -> usize {
        let i = self.sizes.len();
        self.sizes.push(size);
        self.owned.push(0);
        self.claim(i, features);
        i
    }

    /// Whether a mutant of entry `i`, of `size` bytes and reaching
    /// `features` (each once, as an execution's features are), may replace
    /// it: it is shorter and reaches every feature the entry owns, of which
    /// there is one at least.
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

    /// Entry `i` is now `size` bytes reaching `features` (a mutant that
    /// [`Owners::replaces`] it): it keeps what it owned and takes every
    /// further feature it is now the smallest for.
    pub fn replace(&mut self, i: usize, size: usize, features: &[u32]) {
        self.sizes[i] = size;
        self.claim(i, features);
    }

    /// Entry `i` takes each of `features` that no entry smaller than it
    /// owns.
    fn claim(&mut self, i: usize, features: &[u32]) {
        let size = self.sizes[i];
        for &f in features {
            let Some(o) = self.owner.get_mut(f as usize) else {
                continue;
            };
            if *o == i as u32 {
                continue;
            }
            if *o == NONE || self.sizes[*o as usize] > size {
                if *o != NONE {
                    self.owned[*o as usize] -= 1;
                }
                *o = i as u32;
                self.owned[i] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_entry_owns_a_feature_and_the_older_on_a_tie() {
        let mut o = Owners::new(16);
        assert_eq!(o.add(10, &[1, 2, 3]), 0);
        assert_eq!(o.add(5, &[2, 4]), 1);
        assert_eq!(o.add(5, &[4, 5]), 2);
        assert_eq!(o.owned, [2, 2, 1]);
        assert_eq!(&o.owner[1..6], [0, 1, 0, 1, 2]);
    }

    #[test]
    fn a_shorter_mutant_reaching_what_its_parent_owns_replaces_it() {
        let mut o = Owners::new(16);
        o.add(10, &[1, 2, 3]);
        o.add(5, &[2, 4]);
        // Entry 0 owns 1 and 3.
        assert!(o.replaces(0, 9, &[1, 3]));
        assert!(
            o.replaces(0, 9, &[3, 7, 1]),
            "order and others do not matter"
        );
        assert!(!o.replaces(0, 10, &[1, 3]), "not shorter");
        assert!(!o.replaces(0, 9, &[1, 2]), "3 lost");
        assert!(
            !o.replaces(0, 9, &[1, 99]),
            "a feature outside is not one it owns"
        );
        assert!(!o.replaces(7, 1, &[1]), "no such entry");
        o.replace(0, 4, &[1, 2, 3]);
        assert_eq!(o.owned, [3, 1], "now the smallest to reach 2 as well");
        assert!(o.replaces(1, 4, &[4]), "1 still owns 4");
        assert!(!o.replaces(0, 3, &[1, 3]), "2 is now its own");
    }

    #[test]
    fn an_entry_that_owns_nothing_is_never_replaced() {
        let mut o = Owners::new(8);
        o.add(2, &[1]);
        o.add(9, &[1]);
        assert!(!o.replaces(1, 1, &[1]));
    }
}
