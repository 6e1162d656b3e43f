//! Input scheduling by value: which corpus entry to mutate next.
//!
//! Go hands entries out round-robin. Here each entry gets an energy from
//! what it holds that is rare, in the spirit of AFL's favoured entries and
//! power schedules and libFuzzer's entropic one:
//! - every edge the corpus reaches has a *winner*, the smallest entry
//!   reaching it (the oldest among equals); an entry that wins some edge
//!   is *favoured*, the others only keep a hundredth of their energy (AFL
//!   skips them 99 times in 100). A corpus of many inputs that all do the
//!   same thing then costs the time of one of them. An edge is a group of
//!   features (its hit-count buckets, `group_bits` of them in a feature's
//!   number): as AFL's `top_rated`, favour goes by edges, not by hit
//!   counts, or nearly every entry, the one reaching some loop 37 times
//!   included, would win something;
//! - every feature counts how often the inputs executed so far reached it
//!   (sampled: the caller records one execution in [`SAMPLE`]), and an
//!   entry's energy is the sum over its features of `1 / (1 + hits)`. So
//!   the entry holding what few executions reach (the newest rung of a
//!   ladder, the one input that got past a check) is picked most; as its
//!   mutants make its features common, its energy falls and others take
//!   over: the schedule balances itself without a fatigue term;
//! - smaller entries weigh more (cheaper to run, and their mutations change
//!   a larger share of them), and so do faster ones: an entry's energy is
//!   scaled by the corpus's mean execution time over its own, between 0.1
//!   and 3 (AFL's performance score), so that a family of slow inputs
//!   cannot take a run's throughput down with it.
//!
//! Four of these choices are switches ([`Weights`]), for their ablations
//! against AFL++'s tuning, which weighs size little and a new entry much:
//! the size term (on by default), a bonus for an entry until it has been
//! the parent of a few chains (off by default), new favoured entries
//! picked first, before any draw, until they have parented as many chains
//! (AFL++'s `pending_favored`; off by default), and favour for only the
//! entries a greedy cover of the edges needs (AFL++'s `cull_queue`; off by
//! default: every edge's winner is favoured).
//!
//! A new entry is weighed as it is added (as favoured: it brings something
//! new). Everything is weighed again by [`Schedule::refresh`], when the
//! caller decides: its cost is proportional to the features summed over
//! all entries ([`Schedule::work`]), so the caller spaces refreshes to keep
//! them a small share of the time.

use crate::search::rng::Rng;
use std::collections::VecDeque;

/// One execution in this many is recorded into the hit counts.
pub const SAMPLE: u64 = 16;
/// The share of its energy an entry that wins no feature keeps.
const UNFAVOURED: f64 = 0.01;
/// With [`Weights::fresh`], an entry weighs this much more until it has
/// been picked [`FRESH_PICKS`] times (AFL++ 4.40c weighs an entry not yet
/// fuzzed 2.5 times; one of its picks runs hundreds of mutants, one of
/// ours a chain of five).
const FRESH_BONUS: f64 = 4.0;
const FRESH_PICKS: u32 = 64;

/// Which optional terms weigh an entry's energy, which entries are
/// favoured and which go first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Divide by 1 + √(size / 64): smaller entries weigh more.
    pub size: bool,
    /// Weigh an entry `FRESH_BONUS` times until it has been picked
    /// `FRESH_PICKS` times.
    pub fresh: bool,
    /// Pick an entry added while this is on before any draw, the oldest
    /// first, while it is favoured and until it has been picked
    /// `FRESH_PICKS` times.
    pub first: bool,
    /// Favour the winners a greedy cover of the edges takes (walking the
    /// entries in order, each edge not yet covered takes its winner and
    /// covers all of the winner's edges), not every edge's winner.
    pub cull: bool,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            size: true,
            fresh: false,
            first: false,
            cull: false,
        }
    }
}

struct Entry {
    /// Its size in bytes (the sum of its values' sizes).
    size: usize,
    /// The features it reaches, each once.
    features: Vec<u32>,
    /// How long it ran, in nanoseconds (0: not timed).
    nanos: u64,
    /// How often it was picked as a parent.
    picks: u32,
}

/// The entries, their features and the hit counts of every feature.
pub struct Schedule {
    hits: Vec<u32>,
    /// Whether each entry is favoured: the smallest to reach one of its
    /// edges ([`Weights::cull`]: and taken by the cover).
    favoured: Vec<bool>,
    entries: Vec<Entry>,
    /// With [`Weights::first`], the entries added since, oldest first,
    /// that have not yet had their first picks.
    pending: VecDeque<u32>,
    /// Cumulative energies, for picking by binary search.
    cumulative: Vec<f64>,
    /// Features summed over all entries: the cost of one refresh.
    work: usize,
    /// The winner of each edge during a refresh (`NONE` between them).
    winner: Vec<u32>,
    /// A feature's edge is its number shifted right by this much.
    group_bits: u32,
    /// Execution times of the timed entries: their sum and count.
    nanos_sum: u64,
    timed: u64,
    weights: Weights,
}

const NONE: u32 = u32::MAX;

impl Schedule {
    /// An empty schedule over features `0..features`, whose edges are
    /// their numbers shifted right by `group_bits`.
    pub fn new(features: usize, group_bits: u32) -> Schedule {
        Schedule {
            hits: vec![0; features],
            favoured: Vec::new(),
            entries: Vec::new(),
            pending: VecDeque::new(),
            cumulative: Vec::new(),
            work: 0,
            winner: vec![NONE; (features >> group_bits) + 1],
            group_bits,
            nanos_sum: 0,
            timed: 0,
            weights: Weights::default(),
        }
    }

    /// Sets the switches; the energies are weighed again when they change
    /// (favour from the next refresh).
    pub fn set_weights(&mut self, weights: Weights) {
        if weights != self.weights {
            self.weights = weights;
            if !weights.first {
                self.pending.clear();
            }
            self.weigh();
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The features summed over all entries: what a refresh costs.
    pub fn work(&self) -> usize {
        self.work
    }

    /// Adds an entry of `size` bytes reaching `features`, that ran in
    /// `nanos` (0: not timed, as under -seed, where times would make runs
    /// differ), weighed at once as a favoured entry; returns its index.
    pub fn add(&mut self, size: usize, features: Vec<u32>, nanos: u64) -> usize {
        let features = self.each_once(features);
        self.work += features.len();
        if nanos > 0 {
            self.nanos_sum += nanos;
            self.timed += 1;
        }
        self.entries.push(Entry {
            size,
            features,
            nanos,
            picks: 0,
        });
        self.favoured.push(true);
        let i = self.entries.len() - 1;
        if self.weights.first {
            self.pending.push_back(i as u32);
        }
        let total = self.cumulative.last().copied().unwrap_or(0.0) + self.energy(i);
        self.cumulative.push(total);
        i
    }

    /// Entry `i` is now `size` bytes reaching `features` (a shorter input
    /// took its place, `super::reduce`); its weight changes at the next
    /// refresh.
    pub fn replace(&mut self, i: usize, size: usize, features: Vec<u32>) {
        let features = self.each_once(features);
        let e = &mut self.entries[i];
        self.work = self.work - e.features.len() + features.len();
        e.size = size;
        e.features = features;
    }

    /// An entry's features as kept: sorted, each once, those outside the
    /// schedule's range left out.
    fn each_once(&self, mut features: Vec<u32>) -> Vec<u32> {
        features.sort_unstable();
        features.dedup();
        features.retain(|&f| (f as usize) < self.hits.len());
        features
    }

    /// Records the features one execution reached (call for one execution
    /// in [`SAMPLE`]).
    pub fn record(&mut self, features: &[u32]) {
        for &f in features {
            if let Some(h) = self.hits.get_mut(f as usize) {
                *h = h.saturating_add(1);
            }
        }
    }

    /// The energy of entry `i`, with the favoured status of the last
    /// refresh and the hit counts of now.
    pub fn energy(&self, i: usize) -> f64 {
        let e = &self.entries[i];
        let rarity: f64 = e
            .features
            .iter()
            .map(|&f| 1.0 / (1.0 + f64::from(self.hits[f as usize])))
            .sum();
        let favour = if self.favoured[i] { 1.0 } else { UNFAVOURED };
        let speed = if e.nanos > 0 && self.timed > 0 {
            let mean = self.nanos_sum as f64 / self.timed as f64;
            (mean / e.nanos as f64).clamp(0.1, 3.0)
        } else {
            1.0
        };
        let fresh = if self.weights.fresh && e.picks < FRESH_PICKS {
            FRESH_BONUS
        } else {
            1.0
        };
        let size = if self.weights.size {
            1.0 + (e.size as f64 / 64.0).sqrt()
        } else {
            1.0
        };
        // A floor, so that no entry is ever starved entirely.
        (rarity * favour * speed * fresh).max(1e-9) / size
    }

    /// Weighs every entry again: which entries are favoured, and their
    /// energies from the hit counts of now.
    pub fn refresh(&mut self) {
        // The winner of each edge: the smallest entry, the oldest first.
        let bits = self.group_bits;
        for (i, e) in self.entries.iter().enumerate() {
            for &f in &e.features {
                let w = &mut self.winner[(f >> bits) as usize];
                if *w == NONE || self.entries[*w as usize].size > e.size {
                    *w = i as u32;
                }
            }
        }
        self.favoured.iter_mut().for_each(|x| *x = false);
        if self.weights.cull {
            self.favour_the_cover();
        } else {
            self.favour_every_winner();
        }
        self.weigh();
    }

    /// Favours the winner of every edge, and clears the winners.
    fn favour_every_winner(&mut self) {
        let bits = self.group_bits;
        for e in &self.entries {
            for &f in &e.features {
                let w = std::mem::replace(&mut self.winner[(f >> bits) as usize], NONE);
                if w != NONE {
                    self.favoured[w as usize] = true;
                }
            }
        }
    }

    /// Favours the winners a greedy cover of the edges takes, and clears
    /// the winners: walking the entries in order, each edge not yet
    /// covered takes its winner, which covers all of its own edges.
    fn favour_the_cover(&mut self) {
        let bits = self.group_bits;
        let mut covered = vec![false; self.winner.len()];
        for e in &self.entries {
            for &f in &e.features {
                let edge = (f >> bits) as usize;
                if !covered[edge] {
                    let w = self.winner[edge] as usize;
                    self.favoured[w] = true;
                    for &g in &self.entries[w].features {
                        covered[(g >> bits) as usize] = true;
                    }
                }
            }
        }
        for e in &self.entries {
            for &f in &e.features {
                self.winner[(f >> bits) as usize] = NONE;
            }
        }
    }

    /// The cumulative energies again, from the favour and hit counts of now.
    fn weigh(&mut self) {
        self.cumulative.clear();
        let mut total = 0.0;
        for i in 0..self.entries.len() {
            total += self.energy(i);
            self.cumulative.push(total);
        }
    }

    /// Picks an entry by energy; `None` when there is none.
    pub fn pick(&mut self, rng: &mut Rng) -> Option<usize> {
        while let Some(&first) = self.pending.front() {
            let e = &mut self.entries[first as usize];
            if self.favoured[first as usize] && e.picks < FRESH_PICKS {
                e.picks += 1;
                return Some(first as usize);
            }
            self.pending.pop_front();
        }
        let total = *self.cumulative.last()?;
        // 53 random bits as a fraction of the total.
        let draw = ((u64::from(rng.uint32()) << 21) ^ u64::from(rng.uint32() >> 11)) as f64
            / (1u64 << 53) as f64
            * total;
        let i = self
            .cumulative
            .partition_point(|&c| c <= draw)
            .min(self.entries.len() - 1);
        let picks = &mut self.entries[i].picks;
        *picks = picks.saturating_add(1);
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_entry_weighs_by_its_new_size_and_features() {
        let mut s = Schedule::new(100, 0);
        s.add(100, vec![1, 2], 0);
        s.add(50, vec![1, 2, 3], 0);
        s.refresh();
        assert_eq!(s.favoured, [false, true]);
        s.replace(0, 10, vec![2, 1, 1, 4, 500]);
        assert_eq!(
            s.work(),
            6,
            "3 features and 3: the duplicate and 500 dropped"
        );
        s.refresh();
        assert_eq!(
            s.favoured,
            [true, true],
            "0 wins 1, 2 and 4; 1 still wins 3"
        );
        s.replace(0, 10, vec![1, 2, 3]);
        s.refresh();
        assert_eq!(s.favoured, [true, false]);
    }

    #[test]
    fn the_entry_past_a_check_wins_until_it_is_common() {
        let mut s = Schedule::new(1000, 0);
        // 300 entries on common ground, one past a check.
        for _ in 0..300 {
            s.add(10, (0..150).collect(), 0);
        }
        let rung = s.add(10, (0..150).chain([500]).collect(), 0);
        for _ in 0..1000 {
            s.record(&(0..150).collect::<Vec<u32>>());
        }
        s.refresh();
        let mut rng = Rng::new(7);
        let picks = (0..10_000)
            .filter(|_| s.pick(&mut rng) == Some(rung))
            .count();
        assert!(picks > 5_000, "the entry past the check: {picks} of 10000");
        assert!(picks < 10_000, "the others are never starved entirely");
        // Once its feature is as common as the rest, it weighs as the first
        // of the 300 equals (the other favoured entry) and the 299 others
        // weigh 3 between them: a fifth of the picks.
        for _ in 0..1000 {
            s.record(&[500]);
        }
        s.refresh();
        let picks = (0..10_000)
            .filter(|_| s.pick(&mut rng) == Some(rung))
            .count();
        assert!((1_500..3_000).contains(&picks), "{picks}");
        assert!(!s.favoured[1] && s.favoured[0] && s.favoured[rung]);
        // A new entry past another check is weighed as it comes, before
        // any refresh.
        let next = s.add(10, (0..150).chain([501]).collect(), 0);
        let picks = (0..10_000)
            .filter(|_| s.pick(&mut rng) == Some(next))
            .count();
        assert!(picks > 5_000, "the new entry: {picks} of 10000");
    }

    #[test]
    fn favour_goes_by_edge_not_by_hit_count() {
        // Features are edge << 3 | bucket. Entry 0 reaches edge 1 once,
        // entry 1 reaches it 37 times (another bucket) and is larger;
        // entry 2 alone reaches edge 2.
        let entries = [(10, vec![8]), (20, vec![8 | 5]), (5, vec![16])];
        let mut by_edge = Schedule::new(64, 3);
        let mut by_feature = Schedule::new(64, 0);
        for (size, features) in &entries {
            by_edge.add(*size, features.clone(), 0);
            by_feature.add(*size, features.clone(), 0);
        }
        by_edge.refresh();
        by_feature.refresh();
        assert_eq!(by_edge.favoured, [true, false, true]);
        assert_eq!(by_feature.favoured, [true, true, true]);
        // Its hit-count bucket still counts for its rarity: unfavoured, it
        // keeps a hundredth of a favoured entry's energy, not nothing.
        assert!(by_edge.energy(1) > 0.0);
        assert!(by_edge.energy(1) < by_feature.energy(1) / 50.0);
    }

    #[test]
    fn smaller_entries_weigh_more() {
        let mut s = Schedule::new(10, 0);
        let small = s.add(4, vec![1], 0);
        let big = s.add(4000, vec![1], 0);
        s.refresh();
        assert!(s.energy(small) > 3.0 * s.energy(big));
    }

    #[test]
    fn without_the_size_term_size_does_not_weigh() {
        let mut s = Schedule::new(10, 0);
        let small = s.add(4, vec![1], 0);
        let big = s.add(4000, vec![2], 0);
        s.set_weights(Weights {
            size: false,
            ..Weights::default()
        });
        assert_eq!(s.energy(small), s.energy(big));
        let mut rng = Rng::new(5);
        let bigs = (0..10_000)
            .filter(|_| s.pick(&mut rng) == Some(big))
            .count();
        assert!((4_000..6_000).contains(&bigs), "{bigs}");
    }

    #[test]
    fn a_fresh_entry_weighs_more_until_picked_enough() {
        let mut s = Schedule::new(10, 0);
        s.set_weights(Weights {
            fresh: true,
            ..Weights::default()
        });
        let old = s.add(4, vec![1], 0);
        s.entries[old].picks = FRESH_PICKS;
        let new = s.add(4, vec![2], 0);
        s.refresh();
        assert_eq!(s.energy(new), FRESH_BONUS * s.energy(old));
        let mut rng = Rng::new(9);
        while s.entries[new].picks < FRESH_PICKS {
            s.pick(&mut rng);
        }
        s.refresh();
        assert_eq!(s.energy(new), s.energy(old));
    }

    #[test]
    fn the_cover_favours_only_the_winners_it_needs() {
        let weights = |cull| Weights {
            cull,
            ..Weights::default()
        };
        for (cull, favoured) in [(false, [true, true]), (true, [true, false])] {
            let mut s = Schedule::new(10, 0);
            s.set_weights(weights(cull));
            // The first wins edge 1, the second (smaller) edge 2; the cover
            // takes the first for edge 1, which covers edge 2 as well.
            s.add(10, vec![1, 2], 0);
            s.add(5, vec![2], 0);
            s.refresh();
            assert_eq!(s.favoured, favoured, "cull {cull}");
            assert!(s.winner.iter().all(|&w| w == NONE));
        }
    }

    #[test]
    fn new_favoured_entries_go_first_until_picked_enough() {
        let mut s = Schedule::new(10, 0);
        let old = s.add(4, vec![3], 0);
        s.set_weights(Weights {
            first: true,
            cull: true,
            ..Weights::default()
        });
        let a = s.add(10, vec![1, 2], 0);
        let b = s.add(5, vec![2], 0);
        let c = s.add(5, vec![4], 0);
        let mut rng = Rng::new(3);
        let firsts: Vec<usize> = (0..FRESH_PICKS)
            .map(|_| s.pick(&mut rng).unwrap())
            .collect();
        assert_eq!(firsts, vec![a; FRESH_PICKS as usize]);
        // The cover leaves b unfavoured: it loses its turn, c has its own.
        s.refresh();
        assert!(!s.favoured[b]);
        for _ in 0..FRESH_PICKS {
            assert_eq!(s.pick(&mut rng), Some(c));
        }
        // Then by draw, the entry from before included.
        let drawn: Vec<usize> = (0..200).map(|_| s.pick(&mut rng).unwrap()).collect();
        assert!(drawn.contains(&old) && drawn.contains(&a), "{drawn:?}");
        // Off, nothing goes first.
        s.set_weights(Weights::default());
        let d = s.add(1, vec![5], 0);
        assert!((0..20).any(|_| s.pick(&mut rng) != Some(d)));
    }

    #[test]
    fn slow_entries_weigh_less() {
        let mut s = Schedule::new(10, 0);
        let fast = s.add(4, vec![1], 1_000);
        let slow = s.add(4, vec![2], 100_000);
        let untimed = s.add(4, vec![3], 0);
        s.refresh();
        // The mean is 50.5 us: the fast one weighs 3 (the cap), the slow 0.5.
        assert!(s.energy(fast) > 5.0 * s.energy(slow));
        assert!(s.energy(fast) <= 3.0 * s.energy(untimed) + 1e-12);
    }

    #[test]
    fn pick_is_deterministic_and_in_range() {
        let mut a = Schedule::new(8, 0);
        assert_eq!(a.pick(&mut Rng::new(1)), None);
        for i in 0..5 {
            a.add(i, vec![i as u32, 100], 0); // 100 is out of range: ignored
        }
        let (mut r1, mut r2) = (Rng::new(3), Rng::new(3));
        for _ in 0..1000 {
            let i = a.pick(&mut r1).unwrap();
            assert!(i < 5);
            assert_eq!(Some(i), a.pick(&mut r2));
            a.record(&[i as u32]);
        }
    }
}
