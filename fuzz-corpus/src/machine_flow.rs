//! A function's x86-64 machine code as a control-flow graph, and which of
//! its blocks one execution ran, for `fuzz-corpus cover`'s line marks.
//!
//! SanitizerCoverage counts only some blocks: it leaves out those whose
//! run another block's count implies (a block that joins two branches,
//! one that only leads to counted ones), and a branch the compiler turned
//! into a conditional move has no block at all. So a source line's mark
//! cannot come from the counted blocks that start on it. Here the
//! function's code is decoded (iced-x86) into machine blocks, split at
//! every branch, branch target and counted block, and the counts of one
//! execution are carried to the uncounted blocks by what the graph
//! implies: a block that always falls into another ran it; the only way
//! into a block that ran ran too; the other side of a branch whose one
//! side never ran was taken; a block whose ways in or ways out all never
//! ran did not run. What the graph cannot tell stays unknown, so that a
//! line is never called unreached when it may have run.

use iced_x86::{ConditionCode, Decoder, DecoderOptions, FlowControl, Instruction, Mnemonic};
use std::collections::{BTreeSet, HashMap};

/// How a machine block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It runs into the next block (which starts at a branch target).
    Falls,
    /// An unconditional jump within the function.
    Jumps,
    /// A conditional branch: `succs[0]` taken, `succs[1]` not.
    Branches,
    /// A call is its last instruction: it may not return (`abort`, a
    /// panic), so the next block is not known to run after it.
    AfterCall,
    /// A jump through a register, to one of `succs` (the targets of the
    /// function's jump tables) or, as a tail call, out of the function.
    Switch,
    /// It leaves the function (a return, a tail call, a trap), or jumps
    /// through a register where no jump table was found.
    Leaves,
}

/// One machine block: a run of instructions entered only at its start.
#[derive(Clone, Debug)]
pub struct Block {
    /// Each instruction's address, in order (the first is its start).
    pub instrs: Vec<u64>,
    /// The PC table index of the counted block that starts here.
    pub counter: Option<usize>,
    pub succs: Vec<usize>,
    pub preds: Vec<usize>,
    pub end: End,
    /// Addresses of its conditional moves and sets (`cmov`, `setcc`):
    /// choices made without a branch, whose two sides the counts cannot
    /// tell apart.
    pub choices: Vec<u64>,
}

/// A function's machine blocks; block 0 is its entry.
#[derive(Clone, Debug)]
pub struct Flow {
    pub blocks: Vec<Block>,
    /// It jumps through a register and no jump table was found: some
    /// blocks have ways in that the graph does not show.
    indirect: bool,
}

/// What one execution did with a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ran {
    Yes,
    No,
    Unknown,
}

impl Flow {
    /// Decodes the code of the function at `lo..lo + code.len()`;
    /// `counted` maps the addresses where counted blocks start to their
    /// PC table indices, `rodata` reads the library's read-only data
    /// (for jump tables). `None` when the code does not decode.
    pub fn decode(
        code: &[u8],
        lo: u64,
        counted: &HashMap<u64, usize>,
        rodata: impl Fn(u64) -> Option<i32>,
    ) -> Option<Flow> {
        let hi = lo + code.len() as u64;
        let mut decoder = Decoder::with_ip(64, code, lo, DecoderOptions::NONE);
        let mut instrs = Vec::new();
        while decoder.can_decode() {
            let i = decoder.decode();
            if i.is_invalid() {
                break;
            }
            instrs.push(i);
        }
        if instrs.is_empty() {
            return None;
        }
        let inside = |a: u64| (lo..hi).contains(&a);
        let mut starts: BTreeSet<u64> = BTreeSet::from([lo]);
        starts.extend(counted.keys().copied().filter(|&a| inside(a)));
        let mut indirect = false;
        for i in &instrs {
            match i.flow_control() {
                FlowControl::UnconditionalBranch | FlowControl::ConditionalBranch => {
                    if inside(i.near_branch_target()) {
                        starts.insert(i.near_branch_target());
                    }
                    starts.insert(i.next_ip());
                }
                FlowControl::IndirectBranch => {
                    indirect = true;
                    starts.insert(i.next_ip());
                }
                FlowControl::Return | FlowControl::Interrupt | FlowControl::Exception => {
                    starts.insert(i.next_ip());
                }
                _ => {}
            }
        }
        // Only starts on an instruction boundary: a counted address or a
        // target inside an instruction would be a misdecoding.
        let boundaries: BTreeSet<u64> = instrs.iter().map(|i| i.ip()).collect();
        starts.retain(|a| boundaries.contains(a));
        let cases = if indirect {
            jump_targets(&instrs, |a| inside(a) && boundaries.contains(&a), rodata)
        } else {
            Vec::new()
        };
        starts.extend(cases.iter().copied());
        // Every way in is known once the jump tables are.
        let indirect = indirect && cases.is_empty();
        let index: HashMap<u64, usize> = starts.iter().enumerate().map(|(n, &a)| (a, n)).collect();
        let mut blocks: Vec<Block> = starts
            .iter()
            .map(|&start| Block {
                instrs: Vec::new(),
                counter: counted.get(&start).copied(),
                succs: Vec::new(),
                preds: Vec::new(),
                end: End::Leaves,
                choices: Vec::new(),
            })
            .collect();
        let mut current = 0;
        for (n, i) in instrs.iter().enumerate() {
            if let Some(&b) = index.get(&i.ip()) {
                current = b;
            }
            let block = &mut blocks[current];
            block.instrs.push(i.ip());
            if is_choice(i) {
                block.choices.push(i.ip());
            }
            let last = instrs
                .get(n + 1)
                .map_or(true, |next| index.contains_key(&next.ip()));
            if last {
                let (end, succs) = ending(i, &index, inside);
                block.end = end;
                block.succs = succs;
                if i.flow_control() == FlowControl::IndirectBranch && !cases.is_empty() {
                    block.end = End::Switch;
                    block.succs = cases.iter().map(|c| index[c]).collect();
                }
            }
        }
        for b in 0..blocks.len() {
            for s in blocks[b].succs.clone() {
                if !blocks[s].preds.contains(&b) {
                    blocks[s].preds.push(b);
                }
            }
        }
        Some(Flow { blocks, indirect })
    }

    /// What one execution ran: `hit(i)` says whether it hit the counted
    /// block of PC table index `i`; `reached` whether it entered the
    /// function at all (the entry's 8-bit counter may have wrapped to 0).
    pub fn ran(&self, reached: bool, hit: impl Fn(usize) -> bool) -> Vec<Ran> {
        if !reached {
            return vec![Ran::No; self.blocks.len()];
        }
        let mut state: Vec<Ran> = self
            .blocks
            .iter()
            .map(|b| match b.counter {
                Some(i) if hit(i) => Ran::Yes,
                Some(_) => Ran::No,
                None => Ran::Unknown,
            })
            .collect();
        state[0] = Ran::Yes;
        loop {
            let mut changed = false;
            for b in 1..self.blocks.len() {
                if state[b] == Ran::Unknown {
                    let now = self.infer(b, &state);
                    if now != Ran::Unknown {
                        state[b] = now;
                        changed = true;
                    }
                }
            }
            if !changed {
                return state;
            }
        }
    }

    /// What the graph says of uncounted block `b` (not the entry), from
    /// what is known of its neighbours.
    fn infer(&self, b: usize, state: &[Ran]) -> Ran {
        let block = &self.blocks[b];
        let is = |x: usize, r: Ran| state[x] == r;
        // A block that always goes on to this one ran before it.
        let led_in = block.preds.iter().any(|&p| {
            is(p, Ran::Yes)
                && match self.blocks[p].end {
                    End::Falls | End::Jumps => true,
                    // The other side never ran: every run of p came here.
                    End::Branches => {
                        let s = &self.blocks[p].succs;
                        s.iter().all(|&o| o == b || is(o, Ran::No))
                    }
                    End::AfterCall | End::Switch | End::Leaves => false,
                }
        });
        if led_in {
            return Ran::Yes;
        }
        // A diamond: a block that ran whose every way on comes straight
        // here (Go's saturating counter increment is one).
        let joined = |p: usize| {
            let s = &self.blocks[p].succs;
            !s.is_empty()
                && s.iter().all(|&m| {
                    m == b
                        || (matches!(self.blocks[m].end, End::Falls | End::Jumps)
                            && self.blocks[m].succs.as_slice() == [b]
                            && self.blocks[m].preds.as_slice() == [p])
                })
        };
        let diamond = block.preds.iter().any(|&m| {
            self.blocks[m]
                .preds
                .iter()
                .any(|&p| is(p, Ran::Yes) && self.blocks[p].end == End::Branches && joined(p))
        });
        if diamond {
            return Ran::Yes;
        }
        if !self.indirect {
            // The only way into a block that ran.
            let only_way = block
                .succs
                .iter()
                .any(|&s| s != 0 && is(s, Ran::Yes) && self.blocks[s].preds.as_slice() == [b]);
            if only_way {
                return Ran::Yes;
            }
            // No way in ran (or there is none).
            if block.preds.iter().all(|&p| is(p, Ran::No)) {
                return Ran::No;
            }
        }
        // Every way on never ran, and the block can only go on.
        let goes_on = matches!(block.end, End::Falls | End::Jumps | End::Branches);
        if goes_on && block.succs.iter().all(|&s| is(s, Ran::No)) {
            return Ran::No;
        }
        Ran::Unknown
    }
}

/// The targets of the function's jump tables: tables of 32-bit offsets
/// from their own start (how compilers lay out a `switch` in
/// position-independent code), found at each address the function takes
/// with a RIP-relative `lea`, read while each entry lands on an
/// instruction of the function (`is_target`). A word read past a table's
/// end that happens to land on one adds a way in that is not there,
/// which only makes the graph say less.
fn jump_targets(
    instrs: &[Instruction],
    is_target: impl Fn(u64) -> bool,
    rodata: impl Fn(u64) -> Option<i32>,
) -> Vec<u64> {
    let mut targets = BTreeSet::new();
    for i in instrs {
        if i.mnemonic() != Mnemonic::Lea || !i.is_ip_rel_memory_operand() {
            continue;
        }
        let table = i.ip_rel_memory_address();
        for k in 0..4096u64 {
            let Some(off) = rodata(table + 4 * k) else {
                break;
            };
            let t = table.wrapping_add_signed(off.into());
            if !is_target(t) {
                break;
            }
            targets.insert(t);
        }
    }
    targets.into_iter().collect()
}

/// How the block whose last instruction is `i` ends, and where it goes.
fn ending(
    i: &Instruction,
    index: &HashMap<u64, usize>,
    inside: impl Fn(u64) -> bool,
) -> (End, Vec<usize>) {
    let next = index.get(&i.next_ip()).copied();
    let target = || {
        let t = i.near_branch_target();
        if inside(t) {
            index.get(&t).copied()
        } else {
            None
        }
    };
    match i.flow_control() {
        FlowControl::UnconditionalBranch => match target() {
            Some(t) => (End::Jumps, vec![t]),
            None => (End::Leaves, Vec::new()),
        },
        FlowControl::ConditionalBranch => match (target(), next) {
            (Some(t), Some(n)) => (End::Branches, vec![t, n]),
            // A branch out of the function (a conditional tail call).
            (None, Some(n)) => (End::AfterCall, vec![n]),
            _ => (End::Leaves, Vec::new()),
        },
        FlowControl::Call | FlowControl::IndirectCall => match next {
            Some(n) => (End::AfterCall, vec![n]),
            None => (End::Leaves, Vec::new()),
        },
        FlowControl::Next | FlowControl::XbeginXabortXend => match next {
            Some(n) => (End::Falls, vec![n]),
            None => (End::Leaves, Vec::new()),
        },
        _ => (End::Leaves, Vec::new()),
    }
}

/// A choice made without a branch: a conditional move or set (an
/// instruction with a condition that goes on to the next).
fn is_choice(i: &Instruction) -> bool {
    i.flow_control() == FlowControl::Next && i.condition_code() != ConditionCode::None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `if (x) a(); else b();` as a compiler lays it out, with only the
    /// entry and the taken side counted:
    ///   0: test edi,edi ; je 8
    ///   4: call rel32 (a) -- falls into 9 after a jmp
    ///   ...
    fn diamond() -> (Vec<u8>, HashMap<u64, usize>) {
        let code = vec![
            0x85, 0xff, // 0: test edi, edi
            0x74, 0x04, // 2: je 8
            0x31, 0xc0, // 4: xor eax, eax
            0xeb, 0x02, // 6: jmp 10
            0x0f, 0x0b, // 8: ud2 -- stands for the other side
            0x0f, 0x44, 0xc7, // 10: cmove eax, edi
            0xc3, // 13: ret
        ];
        let counted = HashMap::from([(0, 0), (8, 1)]);
        (code, counted)
    }

    #[test]
    fn splits_at_branches_and_counted_blocks() {
        let (code, counted) = diamond();
        let f = Flow::decode(&code, 0, &counted, |_| None).unwrap();
        let starts: Vec<u64> = f.blocks.iter().map(|b| b.instrs[0]).collect();
        assert_eq!(starts, [0, 4, 8, 10]);
        assert_eq!(f.blocks[0].end, End::Branches);
        assert_eq!(f.blocks[0].succs, [2, 1]);
        assert_eq!(f.blocks[1].end, End::Jumps);
        assert_eq!(f.blocks[2].end, End::Leaves);
        assert_eq!(f.blocks[3].preds, [1]);
        assert_eq!(f.blocks[3].choices, [10]);
        assert_eq!(f.blocks[2].counter, Some(1));
    }

    #[test]
    fn carries_counts_to_uncounted_blocks() {
        let (code, counted) = diamond();
        let f = Flow::decode(&code, 0, &counted, |_| None).unwrap();
        // The counted side never ran: the branch fell through, and the
        // join after it ran.
        assert_eq!(
            f.ran(true, |_| false),
            [Ran::Yes, Ran::Yes, Ran::No, Ran::Yes]
        );
        // The counted side ran (it traps): the other side is not known.
        let both = f.ran(true, |i| i == 1);
        assert_eq!(both[2], Ran::Yes);
        assert_eq!(both[1], Ran::Unknown);
        assert_eq!(f.ran(false, |_| true), [Ran::No; 4]);
    }

    #[test]
    fn a_diamond_with_no_count_on_either_side_joins_where_it_began() {
        // 0: cmp dl,0xff ; jne 7 ; 5: jmp 9 ; 7: inc edx ; 9: ret -- the
        // shape of Go's saturating counter increment.
        let code = [0x80, 0xfa, 0xff, 0x75, 0x02, 0xeb, 0x02, 0xff, 0xc2, 0xc3];
        let f = Flow::decode(&code, 0, &HashMap::from([(0, 0)]), |_| None).unwrap();
        assert_eq!(f.blocks.len(), 4);
        assert_eq!(f.ran(true, |_| true)[3], Ran::Yes);
    }

    #[test]
    fn a_jump_table_keeps_the_unseen_ways_in_unknown() {
        // 0: jmp rax ; 2: xor eax,eax ; 4: ret
        let code = [0xff, 0xe0, 0x31, 0xc0, 0xc3];
        let f = Flow::decode(&code, 0, &HashMap::from([(0, 0)]), |_| None).unwrap();
        assert_eq!(f.ran(true, |_| true), [Ran::Yes, Ran::Unknown]);
    }
}
