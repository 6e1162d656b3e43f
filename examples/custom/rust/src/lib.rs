//! Example: a typed target taking a self-mutating custom value, an
//! arithmetic expression tree.
//!
//! `Expr` is registered with `custom_value!` as the custom type `expr`, so
//! `FuzzEval` is declared `custom(expr)`, its corpus files hold
//! `custom("expr", []byte("…"))` lines, and the library exports
//! `fuzz_mutate_expr`, which decodes a tree, changes it the way a person
//! would (a new number, a new operator, a node wrapped, hoisted or
//! replaced) and encodes it again: every input the fuzzer makes is a
//! well-formed tree. Byte-level mutation leaves custom values alone, and
//! would mostly make undecodable trees anyway.
//!
//! Planted bug: the evaluator refuses a literal zero divisor, `a / 0`, but
//! not a divisor that evaluates to zero, such as `7 / (3 - 3)`, which
//! panics ("attempt to divide by zero"). Trigger:
//! known-inputs/rust_custom.FuzzEval. `--features fixed` checks the value.

use fuzz_target::custom::{CustomValue, Rng};
use fuzz_target::{custom_value, fuzz_target};

/// Deeper trees are not decoded (and not made by mutation).
const MAX_DEPTH: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

const OPS: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

/// An expression, encoded in prefix order: `0 n` a number (one byte),
/// `1 e` a negation, `2 a b` … `5 a b` `+ - * /`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Num(u8),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
}

impl Default for Expr {
    fn default() -> Expr {
        Expr::Num(0)
    }
}

impl Expr {
    fn decode(bytes: &mut &[u8], depth: usize) -> Option<Expr> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (&tag, rest) = bytes.split_first()?;
        *bytes = rest;
        Some(match tag {
            0 => {
                let (&n, rest) = bytes.split_first()?;
                *bytes = rest;
                Expr::Num(n)
            }
            1 => Expr::Neg(Box::new(Expr::decode(bytes, depth + 1)?)),
            2..=5 => {
                let a = Expr::decode(bytes, depth + 1)?;
                let b = Expr::decode(bytes, depth + 1)?;
                Expr::Bin(OPS[tag as usize - 2], Box::new(a), Box::new(b))
            }
            _ => return None,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Expr::Num(n) => out.extend_from_slice(&[0, *n]),
            Expr::Neg(e) => {
                out.push(1);
                e.encode(out);
            }
            Expr::Bin(op, a, b) => {
                out.push(2 + OPS.iter().position(|o| o == op).unwrap() as u8);
                a.encode(out);
                b.encode(out);
            }
        }
    }

    fn nodes(&self) -> usize {
        match self {
            Expr::Num(_) => 1,
            Expr::Neg(e) => 1 + e.nodes(),
            Expr::Bin(_, a, b) => 1 + a.nodes() + b.nodes(),
        }
    }

    fn depth(&self) -> usize {
        match self {
            Expr::Num(_) => 1,
            Expr::Neg(e) => 1 + e.depth(),
            Expr::Bin(_, a, b) => 1 + a.depth().max(b.depth()),
        }
    }

    /// The node numbered `k` in prefix order.
    fn nth_mut(&mut self, k: &mut usize) -> Option<&mut Expr> {
        if *k == 0 {
            return Some(self);
        }
        *k -= 1;
        match self {
            Expr::Num(_) => None,
            Expr::Neg(e) => e.nth_mut(k),
            Expr::Bin(_, a, b) => match a.nth_mut(k) {
                Some(found) => Some(found),
                None => b.nth_mut(k),
            },
        }
    }

    /// A number, small ones and edge values most often.
    fn number(rng: &mut Rng) -> u8 {
        match rng.below(4) {
            0 => rng.below(4) as u8,
            1 => [1, 2, 3, 7, 10, 100, 127, 128, 255][rng.below(9)],
            _ => rng.u8(),
        }
    }

    /// A random tree at most `depth` deep.
    fn random(rng: &mut Rng, depth: usize) -> Expr {
        if depth <= 1 || rng.chance(2) {
            return Expr::Num(Expr::number(rng));
        }
        if rng.chance(5) {
            return Expr::Neg(Box::new(Expr::random(rng, depth - 1)));
        }
        Expr::Bin(
            OPS[rng.below(4)],
            Box::new(Expr::random(rng, depth - 1)),
            Box::new(Expr::random(rng, depth - 1)),
        )
    }

    /// One change at one node.
    fn mutate_node(node: &mut Expr, rng: &mut Rng) {
        let old = std::mem::take(node);
        *node = match (rng.below(6), old) {
            (0, Expr::Num(n)) => Expr::Num(match rng.below(3) {
                0 => n.wrapping_add(1),
                1 => n.wrapping_sub(1),
                _ => Expr::number(rng),
            }),
            (1, Expr::Bin(op, a, b)) => {
                let other =
                    OPS[(OPS.iter().position(|o| *o == op).unwrap() + 1 + rng.below(3)) % 4];
                Expr::Bin(other, a, b)
            }
            (2, Expr::Bin(op, a, b)) => Expr::Bin(op, b, a),
            // Hoist a child into its parent's place.
            (3, Expr::Neg(e)) => *e,
            (3, Expr::Bin(_, a, b)) => *(if rng.chance(2) { a } else { b }),
            // Wrap the node in an operation.
            (4, old) => {
                let leaf = Box::new(Expr::random(rng, 2));
                match rng.below(3) {
                    0 => Expr::Neg(Box::new(old)),
                    1 => Expr::Bin(OPS[rng.below(4)], Box::new(old), leaf),
                    _ => Expr::Bin(OPS[rng.below(4)], leaf, Box::new(old)),
                }
            }
            // Replace it with a fresh subtree.
            _ => Expr::random(rng, 3),
        };
    }
}

impl CustomValue for Expr {
    fn from_bytes(bytes: &[u8]) -> Option<Expr> {
        let mut rest = bytes;
        let e = Expr::decode(&mut rest, 1)?;
        rest.is_empty().then_some(e)
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode(&mut out);
        out
    }

    fn mutate(&mut self, rng: &mut Rng, _max_len: usize) {
        // A change that makes the tree too deep is tried again.
        for _ in 0..8 {
            let mut k = rng.below(self.nodes());
            let mut next = self.clone();
            if let Some(node) = next.nth_mut(&mut k) {
                Expr::mutate_node(node, rng);
            }
            if next.depth() <= MAX_DEPTH {
                *self = next;
                return;
            }
        }
    }
}

custom_value!(Expr, "expr");

/// Evaluates with wrapping arithmetic; `Err` for what the evaluator
/// refuses.
fn eval(e: &Expr) -> Result<i64, &'static str> {
    Ok(match e {
        Expr::Num(n) => i64::from(*n),
        Expr::Neg(e) => eval(e)?.wrapping_neg(),
        Expr::Bin(op, a, b) => {
            let x = eval(a)?;
            if *op == Op::Div && **b == Expr::Num(0) {
                return Err("division by a literal zero");
            }
            let y = eval(b)?;
            match op {
                Op::Add => x.wrapping_add(y),
                Op::Sub => x.wrapping_sub(y),
                Op::Mul => x.wrapping_mul(y),
                Op::Div => {
                    if cfg!(feature = "fixed") && y == 0 {
                        return Err("division by zero");
                    }
                    // The planted bug: a divisor that evaluates to zero.
                    x.wrapping_div(y)
                }
            }
        }
    })
}

fuzz_target!(
    /// Evaluates an expression tree; see `eval` for the planted bug.
    FuzzEval,
    |expr: Expr| {
        std::hint::black_box(eval(&expr)).ok();
    }
);
