//! Several targets in one run: which target the workers serve, and for how
//! long. Go fuzzes one target per run; when -fuzz matches several, fuzz-run
//! gives them turns. During a turn every worker serves one target; the
//! targets take turns round-robin, so that each gets time early. This
//! module only decides the turns (`fuzz.rs` runs them); what it keeps true:
//!
//! - One target: one turn, the whole run, exactly Go's run.
//! - `-fuzztime D`: the run takes D. Each of the k targets has D/k, spent
//!   in turns of at most [`TURN`]; a target that finishes early (a
//!   failure) leaves what it has left to the others, and a turn that runs
//!   over what its target had left (a crash minimized under -keepfuzzing,
//!   a long baseline) is paid for by the others. (What the others cannot
//!   pay, and an overrun of the last turn, still lengthen the run.)
//! - `-fuzztime Nx`: N executions for each target (each does the work it
//!   would do alone), in turns of at most [`TURN`]. Under -seed, one turn
//!   per target, one after the other: each target's run is then its own
//!   reproducible -seed run.
//! - No -fuzztime: turns of [`TURN`] until stopped.

use fuzz_core::duration::Limit;
use std::time::Duration;

/// The longest turn: short enough that every target gets time early, long
/// enough that starting a turn's workers costs little.
pub const TURN: Duration = Duration::from_secs(10);

/// A turn shorter than this is not worth its workers' start: it is added
/// to the turn before it.
const SHORTEST: Duration = Duration::from_secs(1);

/// One turn of one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub target: usize,
    /// How long the turn lasts; `None`: until the target is done (its
    /// count, a failure, Ctrl-C).
    pub length: Option<Duration>,
    /// When `length` runs out, the target's time is up and it finishes
    /// (as a run ends at -fuzztime); otherwise it just hands over.
    pub last: bool,
}

/// Whose turn it is, and how much time each target has left (not to be
/// confused with `fuzz_core::search::schedule`, which picks inputs).
#[derive(Debug)]
pub struct Turns {
    /// Time each target has left; `None` when time does not bound it.
    left: Vec<Option<Duration>>,
    /// Targets not finished yet.
    active: Vec<bool>,
    /// The longest turn; `None`: one turn per target, to its end.
    turn: Option<Duration>,
    next: usize,
}

impl Turns {
    /// The schedule of `targets` targets under `fuzztime`; `seeded` when
    /// -seed asks for a reproducible run.
    pub fn new(targets: usize, fuzztime: Option<Limit>, seeded: bool) -> Turns {
        let share = match fuzztime {
            Some(Limit::Time(d)) => Some(d / targets.max(1) as u32),
            _ => None,
        };
        let sequential = seeded && matches!(fuzztime, Some(Limit::Count(_)));
        Turns {
            left: vec![share; targets],
            active: vec![true; targets],
            turn: (targets > 1 && !sequential).then_some(TURN),
            next: 0,
        }
    }

    /// The next turn, round-robin among the targets not finished; `None`
    /// when every target is.
    pub fn next_turn(&mut self) -> Option<Turn> {
        let n = self.active.len();
        let target = (0..n)
            .map(|k| (self.next + k) % n)
            .find(|&t| self.active[t])?;
        self.next = target + 1;
        let (length, last) = match (self.turn, self.left[target]) {
            (None, left) => (left, true),
            (Some(q), None) => (Some(q), false),
            (Some(q), Some(left)) if left <= q + SHORTEST => (Some(left), true),
            (Some(q), Some(_)) => (Some(q), false),
        };
        Some(Turn {
            target,
            length,
            last,
        })
    }

    /// Records that `target`'s turn took `used`, and whether the target is
    /// now `finished`. True when its time is up although it did not finish
    /// (a turn ran over, its baseline say): the caller finishes it. Time a
    /// turn took beyond what its target had left (a crash minimized under
    /// -keepfuzzing, a long baseline) is taken from the other targets, in
    /// equal parts, so that the run still takes -fuzztime.
    pub fn spent(&mut self, target: usize, used: Duration, finished: bool) -> bool {
        if let Some(left) = self.left[target].as_mut() {
            let over = used.saturating_sub(*left);
            *left = left.saturating_sub(used);
            self.charge_others(target, over);
        }
        if finished {
            self.finish(target);
            return false;
        }
        if self.left[target] == Some(Duration::ZERO) {
            self.active[target] = false;
            return true;
        }
        false
    }

    /// Takes `debt` from the time the targets other than `target` have
    /// left, in equal parts (none goes below zero).
    fn charge_others(&mut self, target: usize, debt: Duration) {
        let others: Vec<usize> = (0..self.active.len())
            .filter(|&t| t != target && self.active[t] && self.left[t].is_some())
            .collect();
        if debt.is_zero() || others.is_empty() {
            return;
        }
        let part = debt / others.len() as u32;
        for t in others {
            if let Some(left) = self.left[t].as_mut() {
                *left = left.saturating_sub(part);
            }
        }
    }

    /// Takes `target` out of the turns; the time it has left goes to the
    /// others, in equal parts.
    fn finish(&mut self, target: usize) {
        if !self.active[target] {
            return;
        }
        self.active[target] = false;
        let Some(rest) = self.left[target].take() else {
            return;
        };
        let heirs: Vec<usize> = (0..self.active.len())
            .filter(|&t| self.active[t] && self.left[t].is_some())
            .collect();
        if heirs.is_empty() {
            return;
        }
        let part = rest / heirs.len() as u32;
        for t in heirs {
            if let Some(left) = self.left[t].as_mut() {
                *left += part;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn one_target_is_one_turn() {
        let mut s = Turns::new(1, Some(Limit::Time(secs(60))), false);
        let t = s.next_turn().unwrap();
        assert_eq!((t.target, t.length, t.last), (0, Some(secs(60)), true));
        assert!(!s.spent(0, secs(60), true));
        assert_eq!(s.next_turn(), None);
        let mut s = Turns::new(1, None, false);
        assert_eq!(s.next_turn().unwrap().length, None);
    }

    #[test]
    fn time_is_shared_in_turns() {
        let mut s = Turns::new(2, Some(Limit::Time(secs(30))), false);
        let mut order = Vec::new();
        while let Some(t) = s.next_turn() {
            order.push((t.target, t.length.unwrap().as_secs(), t.last));
            let used = t.length.unwrap();
            s.spent(t.target, used, t.last);
        }
        assert_eq!(
            order,
            [(0, 10, false), (1, 10, false), (0, 5, true), (1, 5, true)]
        );
    }

    #[test]
    fn a_short_tail_joins_the_turn_before() {
        let mut s = Turns::new(1, Some(Limit::Time(secs(1))), false);
        s.turn = Some(TURN);
        s.left[0] = Some(TURN + Duration::from_millis(500));
        let t = s.next_turn().unwrap();
        assert!(t.last);
        assert_eq!(t.length, Some(TURN + Duration::from_millis(500)));
    }

    #[test]
    fn a_finished_target_leaves_its_time_to_the_others() {
        let mut s = Turns::new(3, Some(Limit::Time(secs(90))), false);
        let t = s.next_turn().unwrap();
        assert_eq!(t.target, 0);
        // Target 0 fails after 2 s: its 28 s go to 1 and 2.
        s.spent(0, secs(2), true);
        assert_eq!(s.left, [None, Some(secs(44)), Some(secs(44))]);
        assert_eq!(s.next_turn().unwrap().target, 1);
        assert_eq!(s.next_turn().unwrap().target, 2);
        assert_eq!(s.next_turn().unwrap().target, 1);
    }

    #[test]
    fn an_overrun_ends_the_targets_time() {
        let mut s = Turns::new(2, Some(Limit::Time(secs(40))), false);
        let t = s.next_turn().unwrap();
        assert!(!t.last);
        assert!(s.spent(0, secs(25), false), "its 20 s are spent");
        assert!(!s.active[0]);
        // The 5 s it ran over come out of the other's time: the run still
        // takes 40 s.
        assert_eq!(s.left[1], Some(secs(15)));
        let t = s.next_turn().unwrap();
        assert_eq!((t.target, t.length, t.last), (1, Some(secs(10)), false));
        s.spent(1, secs(10), false);
        let t = s.next_turn().unwrap();
        assert_eq!((t.target, t.length, t.last), (1, Some(secs(5)), true));
        // Three targets: an overrun is shared by the two others.
        let mut s = Turns::new(3, Some(Limit::Time(secs(30))), false);
        s.next_turn();
        assert!(s.spent(0, secs(16), false));
        assert_eq!(s.left, [Some(secs(0)), Some(secs(7)), Some(secs(7))]);
    }

    #[test]
    fn counts_and_no_limit() {
        // Nx: turns of TURN, each target until its count is done.
        let mut s = Turns::new(2, Some(Limit::Count(1000)), false);
        let t = s.next_turn().unwrap();
        assert_eq!((t.length, t.last), (Some(TURN), false));
        // Under -seed, one turn per target, to its end.
        let mut s = Turns::new(2, Some(Limit::Count(1000)), true);
        let t = s.next_turn().unwrap();
        assert_eq!((t.target, t.length, t.last), (0, None, true));
        s.spent(0, secs(3), true);
        assert_eq!(s.next_turn().unwrap().target, 1);
        s.spent(1, secs(3), true);
        assert_eq!(s.next_turn(), None);
        // No -fuzztime: turns of TURN, round-robin, forever.
        let mut s = Turns::new(2, None, true);
        for want in [0, 1, 0, 1, 0] {
            let t = s.next_turn().unwrap();
            assert_eq!((t.target, t.length, t.last), (want, Some(TURN), false));
            s.spent(t.target, TURN, false);
        }
    }
}
