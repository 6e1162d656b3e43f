//! The one way a worker runs an input through the target, whatever asked
//! for it: the fuzzing loop and a coordinator's requests (`serve.rs`,
//! `fuzzing.rs`), the forked checks of minimization (`forked.rs`) and the
//! inputs of `fuzz-worker run` (`supervise.rs`) all execute here.
//!
//! Per execution: the values are packed into a reused buffer
//! ([`TargetKind::input`]), copied into the memory shared with the
//! coordinator when there is one (so that it can recover the input if the
//! target kills us), the target is called with comparison tracing on, and
//! the counters are read back into [`Executor::features`]. Nothing here
//! makes a system call or allocates once the buffers have grown.
//!
//! This module imports none of the modules that use it.

use crate::coverage::{CounterMap, Feature};
use crate::custom::Custom;
use crate::library::TargetFn;
use crate::sancov;
use fuzz_core::worker::protocol::TargetKind;
use fuzz_core::worker::shm::{Mutation, MutatorCall, Shm};
use fuzz_core::Value;

/// Marks a custom mutator call as under way: which one, on which argument,
/// with how much room, and a cross-over's other entry (empty for the other
/// calls; see [`Executor::guard_mutation`]).
pub type Mark<'a> = dyn FnMut(MutatorCall, usize, usize, &[u8]) + 'a;

/// One target, ready to execute.
pub struct Executor {
    /// The target library's file name, for crash sites.
    pub module: String,
    /// Dictionary words (`-dict`), written into inputs as hints are.
    pub dict: Vec<Vec<u8>>,
    /// Words of the target's machine code (`fuzz_core::search::codewords`), part
    /// of the automatic dictionary.
    pub code_words: Vec<Vec<u8>>,
    /// String constants of the target's machine code
    /// (`fuzz_core::search::codestrings`), a dictionary of their own
    /// (`-code_strings`).
    pub code_strings: Vec<Vec<u8>>,
    /// The target's own mutators, when it has any.
    pub custom: Option<Custom>,
    /// The same target built with comparison tracing (`-cmp_lib`), run
    /// only for the comparisons it makes ([`Executor::exec_for_comparisons`]).
    pub cmp_function: Option<TargetFn>,
    /// The coverage of the last execution.
    pub features: Vec<Feature>,
    function: TargetFn,
    kind: TargetKind,
    map: CounterMap,
    /// The memory shared with a coordinator (`serve`); none for `run`.
    shm: Option<Shm>,
    buf: Vec<u8>,
}

/// How an execution ended, by the target's return value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Rejected,
    Failed,
}

impl Verdict {
    /// -1 rejects the input; a typed target fails with anything but 0; a
    /// libFuzzer entry's other return values all pass (ARCHITECTURE.md, Targets).
    pub fn of(kind: TargetKind, ret: i32) -> Verdict {
        match (ret, kind) {
            (-1, _) => Verdict::Rejected,
            (_, TargetKind::LibFuzzer) | (0, TargetKind::Typed) => Verdict::Ok,
            _ => Verdict::Failed,
        }
    }
}

impl Executor {
    pub fn new(
        module: String,
        function: TargetFn,
        kind: TargetKind,
        map: CounterMap,
        shm: Option<Shm>,
    ) -> Executor {
        Executor {
            module,
            dict: Vec::new(),
            code_words: Vec::new(),
            code_strings: Vec::new(),
            custom: None,
            cmp_function: None,
            features: Vec::with_capacity(1 << 12),
            function,
            kind,
            map,
            shm,
            buf: Vec::with_capacity(1 << 16),
        }
    }

    /// Executes one entry; `self.features` then holds its coverage.
    pub fn exec(&mut self, values: &[Value]) -> i32 {
        let input = self.kind.input(values, &mut self.buf);
        if let Some(shm) = &mut self.shm {
            shm.begin(input);
        }
        self.features.clear();
        sancov::set_tracing(true);
        let (ret, survived) = crate::known_crashes::call(self.function, input);
        sancov::set_tracing(false);
        if let Some(shm) = &mut self.shm {
            shm.end();
        }
        self.map.collect(&mut self.features);
        if survived {
            // A crash at a recorded site: rejected, its coverage dropped,
            // so that a crashing input never joins the corpus.
            self.features.clear();
            return -1;
        }
        ret
    }

    /// Runs `values` through the comparison build of the target, when
    /// there is one, so that the comparison tables hold what this input
    /// compares and nothing older (nothing happens without one). Its
    /// coverage is not read (its counters are its own; what it wrote into
    /// counters the two builds share, gcc's PC map, is cleared), and its
    /// return value does not count: the fast build judges every input.
    /// Shared memory holds the input, so a crash here is reported like
    /// any other.
    pub fn exec_for_comparisons(&mut self, values: &[Value]) {
        let Some(function) = self.cmp_function else {
            return;
        };
        let input = self.kind.input(values, &mut self.buf);
        if let Some(shm) = &mut self.shm {
            shm.begin(input);
        }
        sancov::clear_comparisons();
        sancov::set_tracing(true);
        // SAFETY: the same target's contract, in its other build.
        unsafe { function(input.as_ptr(), input.len()) };
        sancov::set_tracing(false);
        if let Some(shm) = &mut self.shm {
            shm.end();
        }
        self.map.reset();
    }

    /// Runs `mutate`, which may call the target's own custom mutators on
    /// `values`, seeded with `seed`, as the coordinator times and blames
    /// an execution: shared memory holds the input being mutated, and
    /// `mutate` marks each call it makes (`mark(call, arg, max_size,
    /// other)`), so that a mutator that crashes or hangs is reported as
    /// such, with what reproduces it. None when the target has no custom
    /// mutators.
    pub fn guard_mutation<R>(
        &mut self,
        values: &mut [Value],
        seed: u32,
        mutate: impl FnOnce(&Custom, &mut [Value], &mut Mark) -> R,
    ) -> Option<R> {
        let custom = self.custom.as_ref()?;
        let Some(shm) = &mut self.shm else {
            return Some(mutate(custom, values, &mut |_, _, _, _| {}));
        };
        shm.stage(self.kind.input(values, &mut self.buf));
        let mut mark = |call, arg: usize, max_size: usize, other: &[u8]| {
            shm.stage_other(other);
            shm.begin_mutation(Mutation {
                call,
                arg: arg.min(u16::MAX as usize) as u16,
                max_size: max_size as u64,
                seed,
            })
        };
        let r = mutate(custom, values, &mut mark);
        shm.end_mutation();
        Some(r)
    }

    /// Reads the counter tables registered by now: a Go library registers
    /// its own as it loads, after this executor was made (golib.rs).
    pub fn remap_counters(&mut self) {
        self.map = self.map.remapped();
    }

    /// Zeroes the counters (what initialisation wrote is nobody's
    /// coverage).
    pub fn reset_counters(&self) {
        self.map.reset();
    }

    /// Coverage counters read per execution: the features below them
    /// (shifted right by `BUCKET_BITS`) are edges.
    pub fn counters(&self) -> u32 {
        self.map.edge_counters()
    }

    /// Every feature number an execution can give, shifted right by
    /// `BUCKET_BITS`: the counters, and comparison outcomes when on.
    pub fn feature_space(&self) -> u32 {
        self.map.feature_space()
    }

    /// How an execution ended, given the target's return value.
    pub fn classify_ret(&self, ret: i32) -> Verdict {
        Verdict::of(self.kind, ret)
    }

    /// Runs again with stderr captured, for a failure's message.
    pub fn failure_message(&mut self, values: &[Value]) -> String {
        let (ret, text) = capture_stderr(|| self.exec(values));
        failure_message(&text, ret)
    }
}

/// A typed target's failure message: what it wrote to stderr, with a Rust
/// panic's own message moved to the front (Rust prints "thread … panicked
/// at FILE:LINE:" first, and the message on the next line).
pub fn failure_message(stderr: &str, ret: i32) -> String {
    let text = stderr.trim();
    if text.is_empty() {
        return format!("the target returned {ret}");
    }
    let lines: Vec<&str> = text.lines().collect();
    if let Some(i) = lines.iter().position(|l| l.contains(" panicked at ")) {
        if let Some(msg) = lines.get(i + 1).filter(|m| !m.trim().is_empty()) {
            let mut out = vec![*msg, lines[i]];
            out.extend(
                lines
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i && *j != i + 1)
                    .map(|(_, l)| *l),
            );
            return out.join("\n");
        }
    }
    text.to_string()
}

/// Calls `f` with fd 2 redirected to a memory file; returns its result and
/// what it wrote.
pub fn capture_stderr(f: impl FnOnce() -> i32) -> (i32, String) {
    use nix::sys::memfd::{memfd_create, MFdFlags};
    use nix::unistd::{dup, dup2_stderr};
    use std::io::{Read, Seek};
    let (Ok(file), Ok(saved)) = (
        memfd_create(c"fuzz-worker-message", MFdFlags::empty()),
        dup(std::io::stderr()),
    ) else {
        return (f(), String::new());
    };
    let _ = dup2_stderr(&file);
    let ret = f();
    let _ = dup2_stderr(&saved);
    drop(saved);
    let mut file = std::fs::File::from(file);
    let _ = file.seek(std::io::SeekFrom::Start(0));
    let mut text = Vec::new();
    let _ = file.read_to_end(&mut text);
    (ret, String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_panic_message_comes_first() {
        let stderr = "\nthread '<unnamed>' (7) panicked at src/lib.rs:26:29:\nrecord \"ab\"\nnote: run with RUST_BACKTRACE=1\n";
        let m = failure_message(stderr, 1);
        assert!(
            m.starts_with("record \"ab\"\nthread '<unnamed>' (7) panicked at"),
            "{m}"
        );
        assert_eq!(failure_message("  \n", 3), "the target returned 3");
        assert_eq!(failure_message("bad input\n", 1), "bad input");
    }

    #[test]
    fn verdicts_by_kind() {
        use TargetKind::*;
        assert_eq!(Verdict::of(LibFuzzer, -1), Verdict::Rejected);
        assert_eq!(Verdict::of(LibFuzzer, 7), Verdict::Ok);
        assert_eq!(Verdict::of(Typed, 0), Verdict::Ok);
        assert_eq!(Verdict::of(Typed, -1), Verdict::Rejected);
        assert_eq!(Verdict::of(Typed, 2), Verdict::Failed);
    }
}
