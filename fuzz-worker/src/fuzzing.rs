//! The fuzzing loop of a worker, and what it remembers between slices.
//!
//! A slice mutates chains of [`CHAIN`] inputs, as Go's worker does, until
//! one adds coverage or fails or the budget ends. Go mutates the one entry
//! the coordinator sent; beyond Go (each part off with its switch in
//! [`Search`]), the worker keeps a copy of the whole corpus and
//! - chooses the parent of each chain by the rarity of the coverage it
//!   reaches (`fuzz_core::search::schedule`),
//! - now and then splices the parent with another entry
//!   (`fuzz_core::search::splice`),
//! - caps the growth of byte arguments, raising the cap by small steps
//!   while nothing new turns up (length control, as libFuzzer's),
//! - uses the target's own mutators when it has them (`fuzz-worker/src/custom.rs`:
//!   libFuzzer's `LLVMFuzzerCustomMutator` then replaces every other
//!   mutation, as in libFuzzer, and `LLVMFuzzerCustomCrossOver` splicing;
//!   a typed target's `custom(NAME)` argument is mutated by its
//!   `fuzz_mutate_NAME`),
//! - and writes comparison operands (`use_cmp`) and dictionary words into
//!   a share of the inputs, keeping the operands that led to new coverage
//!   as words of an automatic dictionary (`auto_dict`), and string
//!   constants read from the target's code (`code_strings`,
//!   `fuzz_core::search::codestrings`),
//! - and writes whole characters outside ASCII into arguments that are
//!   valid UTF-8 (`utf8`, `fuzz_core::search::utf8`),
//! - and moves whole lines of text, taking lines of other entries (`lines`,
//!   `fuzz_core::search::lines`), and whole fields of lists (`fields`,
//!   `fuzz_core::search::fields`),
//! - and changes numbers written as decimal text as numbers (`ascii_num`,
//!   `fuzz_core::search::asciinum`),
//! - and stacks several mutations on each input of a chain (`stack`), as
//!   AFL++'s havoc does,
//! - and lets a shorter mutant of an entry that reaches what the entry is
//!   kept for take its place (`reduce_inputs`,
//!   `fuzz_core::search::reduce`), as libFuzzer's `-reduce_inputs` does.

use crate::coverage::{Feature, BUCKET_BITS};
use crate::custom::Custom;
use crate::executor::{Executor, Mark, Verdict};
use crate::sancov;
use fuzz_core::search::minimize::size;
use fuzz_core::search::mutator::{Mutator, CHAIN};
use fuzz_core::search::reduce::Owners;
use fuzz_core::search::rng::Rng;
use fuzz_core::search::schedule::{self, Schedule, Weights};
use fuzz_core::worker::protocol::{Found, Search};
use fuzz_core::worker::shm::MutatorCall;
use fuzz_core::{format::codec, Value};
use std::time::{Duration, Instant};

/// The features seen so far, one bit each.
struct SeenFeatures {
    bits: Vec<u64>,
}

impl SeenFeatures {
    fn new(features: usize) -> SeenFeatures {
        SeenFeatures {
            bits: vec![0; features.div_ceil(64) + 1],
        }
    }

    /// Marks a feature seen; true if it was not before.
    fn insert(&mut self, f: Feature) -> bool {
        let (w, b) = ((f / 64) as usize, f % 64);
        match self.bits.get_mut(w) {
            Some(word) if *word & (1 << b) == 0 => {
                *word |= 1 << b;
                true
            }
            _ => false,
        }
    }
}

/// The limits and switches of one fuzzing slice.
pub struct Slice {
    pub seed: u64,
    pub max_len: usize,
    pub max_execs: Option<u64>,
    pub deadline: Option<Instant>,
    pub use_cmp: bool,
    pub search: Search,
}

/// How often (one mutation in this many) a comparison hint is used
/// instead of Go's mutators, and how often (in executions) the hints are
/// read again from the comparison tables.
const HINT_ONE_IN: usize = 4;
const HINT_REFRESH: u64 = 256;
/// With a comparison build of the target (`-cmp_lib`), the parent of one
/// chain in this many runs through it, and its comparisons are the hints
/// (about one execution of that build per twenty of the fast one).
const CMP_LIB_CHAIN_EVERY: u64 = 4;
/// One mutation in this many writes a dictionary word (`-dict`).
const DICT_ONE_IN: usize = 8;
/// One mutation in this many writes a whole UTF-8 character into text
/// (`-utf8`).
const UTF8_ONE_IN: usize = 16;
/// One mutation in this many moves whole lines (`-lines`), with lines of
/// another entry of the pool.
const LINES_ONE_IN: usize = 8;
/// One mutation in this many moves whole fields of a list (`-fields`),
/// with fields of another entry of the pool.
const FIELDS_ONE_IN: usize = 8;
/// One mutation in this many changes a number written as text
/// (`-ascii_num`).
const ASCII_NUM_ONE_IN: usize = 16;
/// One mutation in this many writes a string constant of the target's
/// code (`-code_strings`): a dictionary of its own, so its few hundred
/// words do not thin out the others.
const CODE_STRINGS_ONE_IN: usize = 32;
/// With `-stack`, each input of a chain gets 1 to 2^k more mutations, k
/// below this, drawn for each chain.
const STACK_POW2: usize = 4;
/// One chain in this many starts from a splice of two entries.
const SPLICE_ONE_IN: usize = 8;
/// The automatic dictionary holds at most this many words.
const AUTO_DICT_MAX: usize = 1024;
/// Length control starts from the longest byte argument of the corpus, but
/// not below this.
const FIRST_CAP: usize = 4;

/// When a slice looks at the time: every [`Clock::MAX_STRIDE`] executions
/// on fast targets (reading the clock costs about as much as a trivial
/// target's execution), and more often on slow ones, so that a slice ends
/// within about [`Clock::PERIOD`] of its deadline (every execution, on a
/// target slower than that).
struct Clock {
    /// When the time was last looked at, after how many executions, and
    /// after how many it is looked at next.
    now: Instant,
    then: u64,
    next: u64,
    /// Every MAX_STRIDE executions, whatever their pace: a slice without a
    /// deadline (under -seed) must do the same work however fast it runs.
    fixed: bool,
}

impl Clock {
    const MAX_STRIDE: u64 = 64;
    const PERIOD: Duration = Duration::from_millis(2);

    fn new(fixed: bool) -> Clock {
        Clock {
            now: Instant::now(),
            then: 0,
            next: 0,
            fixed,
        }
    }

    /// True when the time should be looked at after `execs` executions;
    /// `self.now` is then the time.
    fn due(&mut self, execs: u64) -> bool {
        if execs < self.next {
            return false;
        }
        if self.fixed {
            self.next = execs + Self::MAX_STRIDE;
            return true;
        }
        let now = Instant::now();
        let took = (now - self.now).as_nanos().max(1);
        // The executions that fit in PERIOD at the pace of the last ones.
        let fit = Self::PERIOD.as_nanos() * u128::from(execs - self.then) / took;
        self.next = execs + (fit as u64).clamp(1, Self::MAX_STRIDE);
        self.then = execs;
        self.now = now;
        true
    }
}

/// A worker's fuzzing state, kept from slice to slice.
pub struct Fuzzer {
    known: SeenFeatures,
    /// The corpus as the coordinator shared it.
    pool: Vec<Vec<Value>>,
    schedule: Schedule,
    /// Which entry of the pool brought each feature, and the entry the
    /// current chain was made from (`-reduce_inputs`).
    owners: Owners,
    chain_parent: Option<usize>,
    /// Entries replaced so, since the coordinator was last told.
    reduced: u64,
    /// Length control: the cap on byte arguments, and the executions since
    /// anything new was found.
    cap: usize,
    stalled: u64,
    /// When the schedule was last weighed again, what that cost, and the
    /// executions since.
    refreshed_at: Instant,
    refresh_cost: Duration,
    since_refresh: u64,
    /// Comparison operands that led to new coverage, used as dictionary
    /// words; and the operands written in the current chain.
    auto_dict: Vec<Vec<u8>>,
    in_auto_dict: std::collections::HashSet<Vec<u8>>,
    chain_words: Vec<Vec<u8>>,
    chain_n: usize,
    /// Chains started, for [`CMP_LIB_CHAIN_EVERY`].
    chains: u64,
    /// Whether the words `LLVMFuzzerMutate` writes (`-dict` and the
    /// automatic dictionary) must be handed to it again.
    words_stale: bool,
    /// Whether an entry has been timed in this process: the first timed
    /// entry runs once untimed before, so that it is not charged for the
    /// target's lazy initialisation (a replaced worker, or a later turn's,
    /// runs no baseline first).
    warm: bool,
}

impl Fuzzer {
    pub fn new(counters: u32) -> Fuzzer {
        let features = (counters as usize) << BUCKET_BITS;
        Fuzzer {
            known: SeenFeatures::new(features),
            pool: Vec::new(),
            schedule: Schedule::new(features, BUCKET_BITS),
            owners: Owners::new(features),
            chain_parent: None,
            reduced: 0,
            cap: FIRST_CAP,
            stalled: 0,
            refreshed_at: Instant::now(),
            refresh_cost: Duration::ZERO,
            since_refresh: 0,
            auto_dict: Vec::new(),
            in_auto_dict: std::collections::HashSet::new(),
            chain_words: vec![Vec::new(); CHAIN as usize],
            chain_n: 0,
            chains: 0,
            words_stale: true,
            warm: false,
        }
    }

    /// Features found elsewhere: not new when seen here.
    pub fn learn(&mut self, features: &[Feature]) {
        for &f in features {
            self.known.insert(f);
        }
    }

    /// Adds corpus entries to the pool, running each once for its
    /// coverage and, when `timed`, its execution time (those executions
    /// are bookkeeping: not counted, so that -fuzztime Nx counts the
    /// inputs fuzzing made).
    pub fn add_entries(
        &mut self,
        exec: &mut Executor,
        entries: &[String],
        timed: bool,
    ) -> Result<(), String> {
        for text in entries {
            let values = codec::decode(text.as_bytes())
                .map_err(|e| format!("bad entry from the coordinator: {e}"))?;
            // Its features are not learnt: one the coordinator has not
            // recorded (a minimized entry may reach more than the features
            // it was kept for) is still reported when a mutant reaches it.
            if timed && !self.warm {
                exec.exec(&values);
                self.warm = true;
            }
            let started = Instant::now();
            exec.exec(&values);
            let nanos = if timed {
                (started.elapsed().as_nanos() as u64).max(1)
            } else {
                0
            };
            let n = size(&values);
            self.owners.add(n, &exec.features);
            self.schedule.add(n, exec.features.clone(), nanos);
            self.cap = self.cap.max(longest(&values));
            self.pool.push(values);
        }
        Ok(())
    }

    /// One slice from `parent`: returns the executions and what was found.
    pub fn fuzz(
        &mut self,
        exec: &mut Executor,
        parent: &[Value],
        slice: &Slice,
    ) -> (u64, Option<Found>) {
        let search = slice.search;
        self.schedule.set_weights(Weights {
            size: search.size_weight,
            fresh: search.fresh_weight,
            first: search.fresh_first,
            cull: search.cull,
        });
        let mut mutator = Mutator::new(slice.seed, slice.max_len);
        let mut values = parent.to_vec();
        let mut cap = slice.max_len;
        let mut hints = fuzz_core::search::hints::Hints::default();
        let mut execs: u64 = 0;
        let mut stack_max = 1;
        let mut clock = Clock::new(slice.deadline.is_none());
        loop {
            if slice.max_execs.is_some_and(|m| execs >= m) {
                return (execs, None);
            }
            if clock.due(execs) {
                if slice.deadline.is_some_and(|d| clock.now >= d) {
                    return (execs, None);
                }
                if search.entropic {
                    self.refresh_when_due(slice);
                }
            }
            // The hints: what the last executions compared, or, with a
            // comparison build, what a recent parent compared in it.
            let cmp_lib = exec.cmp_function.is_some();
            if slice.use_cmp && !cmp_lib && execs % HINT_REFRESH == 0 {
                hints = sancov::hints();
            }
            if execs % CHAIN as u64 == 0 {
                cap = self.start_chain(
                    exec.custom.as_ref(),
                    &mut values,
                    parent,
                    mutator.rng_mut(),
                    slice,
                );
                mutator.set_max_len(cap);
                stack_max = stack_height(search.stack, mutator.rng_mut());
                if slice.use_cmp && cmp_lib && self.chains % CMP_LIB_CHAIN_EVERY == 0 {
                    exec.exec_for_comparisons(&values);
                    hints = sancov::hints();
                }
                self.chains += 1;
            }
            for _ in 0..stacked(stack_max, mutator.rng_mut()) {
                self.mutate(exec, &mut values, &hints, &mut mutator, cap, slice);
            }
            let ret = exec.exec(&values);
            execs += 1;
            self.since_refresh += 1;
            if search.entropic && execs % schedule::SAMPLE == 0 {
                self.schedule.record(&exec.features);
            }
            match exec.classify_ret(ret) {
                Verdict::Rejected => continue,
                Verdict::Failed => {
                    let message = exec.failure_message(&values);
                    return (
                        execs,
                        Some(Found::Failure {
                            entry: text_of(&values),
                            message,
                        }),
                    );
                }
                Verdict::Ok => {}
            }
            let mut new: Vec<u32> = Vec::new();
            for &f in &exec.features {
                if self.known.insert(f) {
                    new.push(f);
                }
            }
            if !new.is_empty() {
                self.stalled = 0;
                if search.auto_dict {
                    self.keep_chain_words(mutator.rng_mut());
                }
                return (
                    execs,
                    Some(Found::NewCoverage {
                        entry: text_of(&values),
                        features: new,
                    }),
                );
            }
            if search.reduce_inputs && self.reduced(&values, &exec.features) {
                // A change to the corpus, as libFuzzer counts it: the length
                // cap waits again.
                self.stalled = 0;
                continue;
            }
            self.stall(slice);
        }
    }

    /// Weighs the schedule again when it is due: after a twentieth of the
    /// time passed since the last one is what it cost (so it takes at
    /// most ~5% of the time, however large the corpus); under -seed
    /// (slices without a deadline), after a count of executions
    /// proportional to its cost instead, so that runs repeat.
    fn refresh_when_due(&mut self, slice: &Slice) {
        if self.since_refresh < 1024 {
            return;
        }
        let due = match slice.deadline {
            None => self.since_refresh >= (self.schedule.work() as u64 / 4).max(4096),
            Some(_) => {
                self.refreshed_at.elapsed()
                    >= (self.refresh_cost * 20).max(Duration::from_millis(20))
            }
        };
        if due {
            let started = Instant::now();
            self.schedule.refresh();
            self.refreshed_at = Instant::now();
            self.refresh_cost = self.refreshed_at - started;
            self.since_refresh = 0;
        }
    }

    /// Sets `values` to the parent of a new chain; returns the chain's cap
    /// on byte arguments.
    fn start_chain(
        &mut self,
        custom: Option<&Custom>,
        values: &mut Vec<Value>,
        parent: &[Value],
        rng: &mut Rng,
        slice: &Slice,
    ) -> usize {
        let search = slice.search;
        self.chain_n = 0;
        let picked = if search.entropic {
            self.schedule.pick(rng)
        } else {
            None
        };
        match picked {
            Some(i) => values.clone_from(&self.pool[i]),
            None => values.clone_from_slice(parent),
        }
        self.chain_parent = picked;
        let cap = if search.len_control == 0 {
            slice.max_len
        } else {
            slice.max_len.min(self.cap.max(longest(values)))
        };
        // A target with its own mutator or cross-over splices its own way.
        let own = custom.is_some_and(|c| c.has_mutator() || c.has_cross_over());
        if search.cross_over && !own && self.pool.len() > 1 && rng.intn(SPLICE_ONE_IN) == 0 {
            let other = &self.pool[rng.intn(self.pool.len())];
            fuzz_core::search::splice::splice(values, other, rng, cap);
        }
        cap
    }

    /// One mutation: a UTF-8 character, a number written as text, a
    /// dictionary word (given or automatic), a comparison operand, or Go's.
    fn mutate(
        &mut self,
        exec: &mut Executor,
        values: &mut [Value],
        hints: &fuzz_core::search::hints::Hints,
        mutator: &mut Mutator,
        cap: usize,
        slice: &Slice,
    ) {
        // The target's code's words belong to the automatic dictionary.
        let auto = slice.search.auto_dict;
        if exec.custom.is_some() && !values.is_empty() {
            if self.words_stale {
                let code = exec.code_words.iter().filter(|_| auto);
                let strings = exec
                    .code_strings
                    .iter()
                    .filter(|_| slice.search.code_strings);
                let words = exec
                    .dict
                    .iter()
                    .chain(&self.auto_dict)
                    .chain(code)
                    .chain(strings);
                crate::mutate::set_words(words);
                self.words_stale = false;
            }
            let rng = mutator.rng_mut();
            let seed = rng.uint32();
            let mutated = exec.guard_mutation(values, seed, |custom, values, mark| {
                self.mutate_custom(custom, values, seed, mark, rng, cap, slice)
            });
            if mutated == Some(true) {
                return;
            }
        }
        if slice.search.utf8 && mutator.rng_mut().intn(UTF8_ONE_IN) == 0 {
            let rng = mutator.rng_mut();
            if fuzz_core::search::utf8::mutate(values, rng, cap) {
                return;
            }
        }
        if slice.search.lines && mutator.rng_mut().intn(LINES_ONE_IN) == 0 {
            let rng = mutator.rng_mut();
            let donor = pick_donor(&self.pool, rng);
            if fuzz_core::search::lines::mutate(values, donor, rng, cap) {
                return;
            }
        }
        if slice.search.fields && mutator.rng_mut().intn(FIELDS_ONE_IN) == 0 {
            let rng = mutator.rng_mut();
            let donor = pick_donor(&self.pool, rng);
            if fuzz_core::search::fields::mutate(values, donor, rng, cap) {
                return;
            }
        }
        if slice.search.ascii_num && mutator.rng_mut().intn(ASCII_NUM_ONE_IN) == 0 {
            let rng = mutator.rng_mut();
            if fuzz_core::search::asciinum::mutate(values, rng, cap) {
                return;
            }
        }
        if slice.search.code_strings
            && !exec.code_strings.is_empty()
            && mutator.rng_mut().intn(CODE_STRINGS_ONE_IN) == 0
        {
            let rng = mutator.rng_mut();
            let word = &exec.code_strings[rng.intn(exec.code_strings.len())];
            if fuzz_core::search::hints::place_word(values, word, rng, cap) {
                return;
            }
        }
        let draw = mutator.rng_mut().intn(DICT_ONE_IN * HINT_ONE_IN);
        let code: &[Vec<u8>] = if auto { &exec.code_words } else { &[] };
        let lists = [&exec.dict[..], &self.auto_dict[..], code];
        let words: usize = lists.iter().map(|l| l.len()).sum();
        let worded = words > 0 && draw < HINT_ONE_IN && {
            let rng = mutator.rng_mut();
            let word = nth_word(lists, rng.intn(words));
            fuzz_core::search::hints::place_word(values, word, rng, cap)
        };
        if worded {
            return;
        }
        let slot = self.chain_n.min(CHAIN as usize - 1);
        let hinted = !hints.is_empty()
            && draw % HINT_ONE_IN == 0
            && fuzz_core::search::hints::mutate(
                values,
                hints,
                mutator.rng_mut(),
                cap,
                &mut self.chain_words[slot],
            );
        if hinted {
            if slice.search.auto_dict && self.chain_words[slot].len() >= 2 {
                self.chain_n = slot + 1;
            }
        } else {
            mutator.mutate(values);
        }
    }

    /// A mutation by the target's own mutators, seeded with `seed`, each
    /// call marked first with `mark`; false when it has none for this input
    /// (or they declined), and Go's and ours then mutate.
    #[allow(clippy::too_many_arguments)]
    fn mutate_custom(
        &self,
        custom: &Custom,
        values: &mut [Value],
        seed: u32,
        mark: &mut Mark,
        rng: &mut Rng,
        cap: usize,
        slice: &Slice,
    ) -> bool {
        if values.is_empty() {
            return false;
        }
        if let [Value::Bytes(data)] = values {
            // libFuzzer's entry: a cross-over one time in four, when the
            // target has one (and splicing is on), else its mutator.
            if slice.search.cross_over
                && custom.has_cross_over()
                && self.pool.len() > 1
                && rng.intn(4) == 0
            {
                if let [Value::Bytes(other)] = self.pool[rng.intn(self.pool.len())].as_slice() {
                    let mut out = Vec::new();
                    mark(MutatorCall::CrossOver, 0, cap, other);
                    if custom.cross_over(data, other, &mut out, cap, seed) {
                        *data = out;
                        return true;
                    }
                }
            }
            if !custom.has_mutator() {
                return false;
            }
            mark(MutatorCall::Mutator, 0, cap, &[]);
            return custom.mutate(data, cap, seed);
        }
        // A typed target: the argument Go's mutator would pick, if it is
        // a custom value with a mutator of its own. Length control and
        // -max_len bound []byte and string arguments; a custom value's
        // mutator gets -max_len of room, or its value's own length.
        let arg = rng.intn(values.len());
        match &mut values[arg] {
            Value::Custom { name, data } if custom.has_value_mutator(name) => {
                let room = slice.max_len.max(data.len());
                mark(MutatorCall::Value, arg, room, &[]);
                custom.mutate_value(name, data, room, seed)
            }
            _ => false,
        }
    }

    /// The operands written in a chain that found something new become
    /// dictionary words (a full dictionary replaces a word at random).
    fn keep_chain_words(&mut self, rng: &mut Rng) {
        for k in 0..self.chain_n {
            let word = &self.chain_words[k];
            if self.in_auto_dict.contains(word) {
                continue;
            }
            self.in_auto_dict.insert(word.clone());
            self.words_stale = true;
            if self.auto_dict.len() < AUTO_DICT_MAX {
                self.auto_dict.push(word.clone());
            } else {
                let i = rng.intn(AUTO_DICT_MAX);
                self.in_auto_dict.remove(&self.auto_dict[i]);
                self.auto_dict[i] = word.clone();
            }
        }
        self.chain_n = 0;
    }

    /// `-reduce_inputs`: whether `values` (reaching `features`, nothing
    /// new) took the place of the entry its chain was made from, being
    /// shorter and reaching every feature that entry brought.
    fn reduced(&mut self, values: &[Value], features: &[Feature]) -> bool {
        let Some(i) = self.chain_parent else {
            return false;
        };
        let n = size(values);
        if !self.owners.replaces(i, n, features) {
            return false;
        }
        self.owners.replace(i, n);
        self.schedule.replace(i, n, features.to_vec());
        self.pool[i] = values.to_vec();
        self.reduced += 1;
        true
    }

    /// The entries replaced by shorter inputs since the last call.
    pub fn take_reduced(&mut self) -> u64 {
        std::mem::take(&mut self.reduced)
    }

    /// Length control: after `len_control × log2(cap)` executions without
    /// anything new, byte arguments may grow by `log2(cap)` more bytes.
    fn stall(&mut self, slice: &Slice) {
        let n = slice.search.len_control as u64;
        if n == 0 || self.cap >= slice.max_len {
            return;
        }
        self.stalled += 1;
        let log = u64::from(self.cap.max(2).ilog2());
        if self.stalled >= n * log {
            self.cap = (self.cap + log as usize).min(slice.max_len);
            self.stalled = 0;
        }
    }
}

/// The most mutations a chain stacks on each of its inputs: one, or with
/// `-stack` 1, 2, 4 or 8, drawn for each chain as AFL++'s havoc draws 2 to
/// 16 for each pick (the generator is not drawn when off, so that a
/// seeded run without it makes the same inputs as before).
fn stack_height(stack: bool, rng: &mut Rng) -> usize {
    if stack {
        1 << rng.intn(STACK_POW2)
    } else {
        1
    }
}

/// How many mutations the next input of a chain gets: 1 to `height`.
fn stacked(height: usize, rng: &mut Rng) -> usize {
    if height > 1 {
        1 + rng.intn(height)
    } else {
        1
    }
}

/// Word `i` of the lists taken one after the other (`i` below their total
/// length).
fn nth_word(lists: [&[Vec<u8>]; 3], mut i: usize) -> &[u8] {
    for list in lists {
        match list.get(i) {
            Some(w) => return w,
            None => i -= list.len(),
        }
    }
    unreachable!("word index past the lists")
}

/// An entry of the pool drawn at random, whose parts the mutations that
/// move whole lines or fields take (`None` while the pool is empty).
fn pick_donor<'a>(pool: &'a [Vec<Value>], rng: &mut Rng) -> Option<&'a [Value]> {
    match pool.len() {
        0 => None,
        n => Some(pool[rng.intn(n)].as_slice()),
    }
}

/// The longest `[]byte`/`string` argument.
fn longest(values: &[Value]) -> usize {
    values
        .iter()
        .filter_map(|v| match v {
            Value::Bytes(b) | Value::String(b) => Some(b.len()),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

pub fn text_of(values: &[Value]) -> String {
    String::from_utf8(codec::encode(values)).expect("v1 text is UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(len_control: u32, max_len: usize) -> Slice {
        Slice {
            seed: 1,
            max_len,
            max_execs: None,
            deadline: None,
            use_cmp: false,
            search: Search {
                entropic: true,
                len_control,
                auto_dict: true,
                code_strings: true,
                utf8: true,
                ascii_num: true,
                size_weight: true,
                ..Search::GO
            },
        }
    }

    #[test]
    fn the_clock_is_read_every_execution_only_on_slow_targets() {
        // Fast executions: the time is looked at once in MAX_STRIDE.
        let mut c = Clock::new(false);
        let looks = (0..10_000).filter(|&n| c.due(n)).count();
        assert!(looks < 10_000 / 32, "{looks} looks at the time");
        // Without a deadline, every MAX_STRIDE executions, as a seeded run
        // needs: its schedule is weighed again after the same executions.
        let mut c = Clock::new(true);
        let looks: Vec<u64> = (0..200).filter(|&n| c.due(n)).collect();
        assert_eq!(looks, [0, 64, 128, 192]);
        // Executions slower than PERIOD: after every one of them, so that a
        // slice ends one execution after its deadline at most.
        let mut c = Clock::new(false);
        let mut looks = 0;
        for n in 0..5 {
            if c.due(n) {
                looks += 1;
            }
            std::thread::sleep(Clock::PERIOD + Duration::from_millis(1));
        }
        assert_eq!(looks, 5);
    }

    #[test]
    fn length_control_grows_by_log_steps_when_stalled() {
        let mut f = Fuzzer::new(8);
        let s = slice(100, 64);
        assert_eq!(f.cap, FIRST_CAP);
        // 100 × log2(4) executions without news: 4 + 2 bytes.
        for _ in 0..199 {
            f.stall(&s);
        }
        assert_eq!(f.cap, 4);
        f.stall(&s);
        assert_eq!(f.cap, 6);
        for _ in 0..100_000 {
            f.stall(&s);
        }
        assert_eq!(f.cap, 64, "never past -max_len");
        let mut off = Fuzzer::new(8);
        for _ in 0..1000 {
            off.stall(&slice(0, 64));
        }
        assert_eq!(off.cap, FIRST_CAP, "-len_control=0 does not step");
    }

    #[test]
    fn a_chain_starts_from_the_pool_and_caps_by_the_longest() {
        let mut f = Fuzzer::new(8);
        f.pool.push(vec![Value::Bytes(vec![7; 40])]);
        f.schedule.add(40, vec![1], 0);
        let mut values = Vec::new();
        let parent = [Value::Bytes(vec![1])];
        let mut rng = Rng::new(1);
        let cap = f.start_chain(None, &mut values, &parent, &mut rng, &slice(100, 4096));
        assert_eq!(values, f.pool[0], "the scheduled entry, not the slice's");
        assert_eq!(cap, 40, "a parent longer than the cap keeps its length");
        let mut go = slice(0, 4096);
        go.search.entropic = false;
        let cap = f.start_chain(None, &mut values, &parent, &mut rng, &go);
        assert_eq!((values.as_slice(), cap), (&parent[..], 4096));
    }

    /// Appends one byte, when there is room.
    unsafe extern "C" fn grow(
        data: *mut u8,
        size: usize,
        max: usize,
        _: std::ffi::c_uint,
    ) -> usize {
        if size >= max {
            return size;
        }
        // SAFETY: the caller passes `max` writable bytes.
        unsafe { *data.add(size) = b'+' };
        size + 1
    }

    #[test]
    fn a_custom_value_is_not_cut_to_the_length_control_cap() {
        let f = Fuzzer::new(8);
        let custom = Custom::with_value_mutators(vec![("tree".into(), grow as _)]);
        let mut values = vec![Value::Custom {
            name: "tree".into(),
            data: vec![b'a'; 100],
        }];
        let s = slice(100, 4096);
        assert!(f.mutate_custom(
            &custom,
            &mut values,
            1,
            &mut |_, _, _, _: &[u8]| {},
            &mut Rng::new(1),
            FIRST_CAP,
            &s
        ));
        let Value::Custom { data, .. } = &values[0] else {
            panic!("{values:?}")
        };
        assert_eq!(data.len(), 101, "grown by one, not cut to {FIRST_CAP}");
        let mut long = vec![Value::Custom {
            name: "tree".into(),
            data: vec![b'a'; 5000],
        }];
        assert!(f.mutate_custom(
            &custom,
            &mut long,
            1,
            &mut |_, _, _, _: &[u8]| {},
            &mut Rng::new(1),
            FIRST_CAP,
            &s
        ));
        let Value::Custom { data, .. } = &long[0] else {
            panic!("{long:?}")
        };
        assert_eq!(
            data.len(),
            5000,
            "longer than -max_len: keeps its own length"
        );
    }

    #[test]
    fn stacking_draws_heights_to_eight_and_nothing_when_off() {
        let mut rng = Rng::new(5);
        let mut heights = [0usize; 9];
        for _ in 0..4000 {
            heights[stack_height(true, &mut rng)] += 1;
        }
        for n in [1, 2, 4, 8] {
            assert!((800..1200).contains(&heights[n]), "{n}: {heights:?}");
        }
        let four = heights[1] + heights[2] + heights[4] + heights[8];
        assert_eq!(heights.iter().sum::<usize>(), four);
        let mut counts = [0usize; 9];
        for _ in 0..8000 {
            counts[stacked(8, &mut rng)] += 1;
        }
        assert_eq!(counts[0], 0);
        assert!(
            counts[1..].iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
        let (mut a, mut b) = (Rng::new(5), Rng::new(5));
        assert_eq!(stack_height(false, &mut a), 1);
        assert_eq!(stacked(1, &mut a), 1);
        assert_eq!(a.uint32(), b.uint32(), "off, the generator is not drawn");
    }

    #[test]
    fn words_of_a_winning_chain_join_the_dictionary_once() {
        let mut f = Fuzzer::new(8);
        f.chain_words[0] = b"MAGIC".to_vec();
        f.chain_words[1] = b"MAGIC".to_vec();
        f.chain_n = 2;
        f.keep_chain_words(&mut Rng::new(1));
        assert_eq!(f.auto_dict, vec![b"MAGIC".to_vec()]);
        assert_eq!(f.chain_n, 0);
    }
}
