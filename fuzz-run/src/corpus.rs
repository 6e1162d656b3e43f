//! One target's corpus and the coverage it reaches, as the coordinator
//! keeps them: Go's `coordinator.corpus` and its coverage mask.
//!
//! What it keeps true: an entry is in the corpus once (by its bytes); the
//! coverage only grows, and every feature added is appended to a log, so
//! that a worker can be told just what was added since it last heard
//! ([`Corpus::features_since`]); entries only ever get appended, so a
//! worker's copy is told just the entries after the ones it has.

use fuzz_core::format::codec;
use fuzz_core::search::pctable;
use fuzz_core::store::{corpus, digest};
use fuzz_core::ArgType;
use std::collections::HashSet;
use std::path::Path;

/// Where an entry came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Origin {
    /// A file of `testdata/fuzz/<Target>/`.
    Seed,
    /// A file of the generated corpus (the cache).
    Cache,
    /// Found in this run (or the zero values an empty corpus starts from).
    New,
}

/// One corpus entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its file name (a digest name for what we write; any name for seeds).
    pub name: String,
    /// Its v1 text, canonical.
    pub text: String,
    pub origin: Origin,
}

/// The corpus and its coverage.
#[derive(Default)]
pub struct Corpus {
    entries: Vec<Entry>,
    /// SHA-256 of every entry's text.
    hashes: HashSet<String>,
    /// The next entry a fuzzing slice starts from (round robin, as Go).
    next: usize,
    coverage: HashSet<u32>,
    /// The counters (edges) those features are of.
    edges: HashSet<u32>,
    /// The counters workers read (their hello): a feature of a higher
    /// number is a comparison outcome (`-cmp_outcomes`), not an edge.
    counters: Option<u32>,
    /// Entries that failed (a seed under -keepfuzzing, which carries on
    /// past it): never a parent, never the entry a worker warms up with.
    failed: HashSet<usize>,
    /// Every feature of `coverage`, in the order it was added.
    log: Vec<u32>,
}

impl Corpus {
    /// Adds an entry unless one with the same text is there already;
    /// returns whether it was added.
    pub fn add(&mut self, e: Entry) -> bool {
        if !self.hashes.insert(digest::sha256_hex(e.text.as_bytes())) {
            return false;
        }
        self.entries.push(e);
        true
    }

    /// An entry with this text is in the corpus.
    pub fn contains(&self, text: &str) -> bool {
        self.hashes.contains(&digest::sha256_hex(text.as_bytes()))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn get(&self, i: usize) -> &Entry {
        &self.entries[i]
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry the next fuzzing slice starts from: round robin over
    /// those that did not fail.
    pub fn next_parent(&mut self) -> Option<usize> {
        for _ in 0..self.entries.len() {
            let i = self.next % self.entries.len();
            self.next += 1;
            if !self.failed.contains(&i) {
                return Some(i);
            }
        }
        None
    }

    /// Entry `i` failed: it stays in the corpus (its name is taken), but
    /// nothing starts from it again.
    pub fn mark_failed(&mut self, i: usize) {
        self.failed.insert(i);
    }

    /// The first entry that did not fail, if any.
    pub fn first_passing(&self) -> Option<&Entry> {
        (0..self.entries.len())
            .find(|i| !self.failed.contains(i))
            .map(|i| &self.entries[i])
    }

    /// The features of `features` not reached yet.
    pub fn unseen(&self, features: &[u32]) -> Vec<u32> {
        features
            .iter()
            .copied()
            .filter(|f| !self.coverage.contains(f))
            .collect()
    }

    /// Adds features to the coverage; returns whether any was new.
    pub fn learn(&mut self, features: &[u32]) -> bool {
        let mut fresh = false;
        for &f in features {
            if self.coverage.insert(f) {
                let counter = pctable::counter_of(f);
                if self.counters.map_or(true, |n| counter < n) {
                    self.edges.insert(counter);
                }
                self.log.push(f);
                fresh = true;
            }
        }
        fresh
    }

    /// How many features the corpus reaches.
    pub fn coverage(&self) -> usize {
        self.coverage.len()
    }

    /// Workers read `n` counters: features past them are not edges.
    pub fn set_counters(&mut self, n: u32) {
        self.counters = Some(n);
    }

    /// How many edges (coverage counters) the corpus reaches: a feature is
    /// an edge and a bucket of its hit count, as libFuzzer counts them.
    pub fn edges(&self) -> usize {
        self.edges.len()
    }

    /// The features added after the first `n` (a worker told `n` so far),
    /// and the count to remember for next time.
    pub fn features_since(&self, n: usize) -> (Vec<u32>, usize) {
        (self.log[n.min(self.log.len())..].to_vec(), self.log.len())
    }

    /// The texts of the entries after the first `n` that did not fail (a
    /// worker's schedule and cross-over pick from them), and the count to
    /// remember for next time.
    pub fn texts_since(&self, n: usize) -> (Vec<String>, usize) {
        let texts = (n.min(self.entries.len())..self.entries.len())
            .filter(|i| !self.failed.contains(i))
            .map(|i| self.entries[i].text.clone())
            .collect();
        (texts, self.entries.len())
    }
}

/// Reads every entry of a corpus directory, type-checked: the good ones
/// and the errors. A directory that is not there holds nothing.
pub fn load(dir: &Path, types: &[ArgType], origin: Origin) -> (Vec<Entry>, Vec<fuzz_core::Error>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let Ok(files) = corpus::files_in(dir) else {
        return (good, bad);
    };
    for path in files {
        let entry = match corpus::Entry::read(&path) {
            Ok(e) => e,
            Err(e) => {
                bad.push(e);
                continue;
            }
        };
        let checked = entry.values.and_then(|v| {
            codec::check_types(&v, types)
                .map(|_| v)
                .map_err(|e| e.in_file(&path))
        });
        match checked {
            Ok(values) => good.push(Entry {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                text: text_of(&values),
                origin,
            }),
            Err(e) => bad.push(e),
        }
    }
    (good, bad)
}

/// A Go fuzz test's `f.Add` values (`fuzz-worker list` shows them as
/// corpus files in Go's encoding), as seed entries named as go test names
/// them: `seed#0`, `seed#1`, … Go's set-up checked their types already; one
/// that does not decode as Go wrote it is an error.
pub fn go_seeds(
    go: Option<&fuzz_core::worker::protocol::GoTest>,
    types: &[ArgType],
) -> Result<Vec<Entry>, String> {
    let Some(go) = go else {
        return Ok(Vec::new());
    };
    go.seeds
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let name = format!("seed#{i}");
            let values = codec::decode(text.as_bytes())
                .and_then(|v| codec::check_types(&v, types).map(|_| v))
                .map_err(|e| format!("{name}: {e}"))?;
            Ok(Entry {
                name,
                text: text_of(&values),
                origin: Origin::Seed,
            })
        })
        .collect()
}

/// The canonical v1 text of `values`.
pub fn text_of(values: &[fuzz_core::Value]) -> String {
    String::from_utf8(codec::encode(values)).expect("v1 text is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(text: &str) -> Entry {
        Entry {
            name: text.into(),
            text: text.into(),
            origin: Origin::New,
        }
    }

    #[test]
    fn entries_are_kept_once_and_chosen_round_robin() {
        let mut c = Corpus::default();
        assert_eq!(c.next_parent(), None);
        assert!(c.add(entry("a")));
        assert!(c.add(entry("b")));
        assert!(!c.add(entry("a")), "the same text twice");
        assert_eq!(c.len(), 2);
        let picks: Vec<_> = (0..5).map(|_| c.next_parent().unwrap()).collect();
        assert_eq!(picks, [0, 1, 0, 1, 0]);
        let (texts, n) = c.texts_since(1);
        assert_eq!((texts, n), (vec!["b".to_string()], 2));
        assert!(c.texts_since(2).0.is_empty());
    }

    #[test]
    fn a_failed_entry_is_never_a_parent_nor_the_warm_up_nor_shared() {
        let mut c = Corpus::default();
        c.add(entry("a"));
        c.add(entry("b"));
        c.mark_failed(0);
        assert_eq!(c.first_passing().unwrap().text, "b");
        let (texts, n) = c.texts_since(0);
        assert_eq!(
            (texts, n),
            (vec!["b".to_string()], 2),
            "nor one a worker's schedule or cross-over can pick"
        );
        let picks: Vec<_> = (0..3).map(|_| c.next_parent().unwrap()).collect();
        assert_eq!(picks, [1, 1, 1]);
        c.mark_failed(1);
        assert_eq!(c.next_parent(), None);
        assert!(c.first_passing().is_none());
        assert_eq!(c.len(), 2, "failed entries keep their place");
    }

    #[test]
    fn coverage_grows_and_is_told_by_increments() {
        let mut c = Corpus::default();
        assert!(c.learn(&[3, 1]));
        assert!(!c.learn(&[1]));
        assert_eq!(c.unseen(&[1, 2, 3, 4]), [2, 4]);
        assert!(c.learn(&[4]));
        assert_eq!(c.coverage(), 3);
        assert_eq!(c.edges(), 1, "features 1, 3 and 4 are buckets of counter 0");
        assert_eq!(c.features_since(0), (vec![3, 1, 4], 3));
        assert_eq!(c.features_since(2), (vec![4], 3));
        assert_eq!(c.features_since(3), (vec![], 3));
    }

    #[test]
    fn features_past_the_counters_are_coverage_but_not_edges() {
        let mut c = Corpus::default();
        c.set_counters(2);
        let bucket = |counter: u32| counter << pctable::BUCKET_BITS;
        assert!(c.learn(&[bucket(1), bucket(2), bucket(9)]));
        assert_eq!(c.coverage(), 3);
        assert_eq!(c.edges(), 1, "counters 2 and 9 are comparison outcomes");
    }
}
