//! The cells of a puzzle grouped by what the quiet patterns do to them:
//! every member of the kernel adds the same value to all cells of one
//! class, so a press set is weighed against the whole kernel by how many
//! of each class's cells it presses how often.

use std::collections::BTreeMap;

/// The quiet patterns of a game read cell by cell: the number of states K
/// (2 for two states) and generators of the kernel, each with its order,
/// whose combinations `Σ c_i·g_i` (`c_i < order_i`) are its members, each
/// once. What the study of all boards at once reads of either game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuietCode {
    /// K: a cell's states are `0..K`.
    pub states: u8,
    /// Cells (presses) of the puzzle.
    pub cells: usize,
    /// The generators: each one's value at every cell, and its order.
    pub generators: Vec<(Vec<u8>, u32)>,
}

impl QuietCode {
    /// How many members the kernel has (`Π order`), or `None` past `u128`.
    pub fn members(&self) -> Option<u128> {
        self.generators.iter().try_fold(1u128, |n, &(_, order)| n.checked_mul(u128::from(order)))
    }
}

/// The cells of one nonzero key: the generators' values at each of them.
#[derive(Clone, Debug)]
pub(crate) struct Class {
    pub key: Vec<u8>,
    pub cells: Vec<usize>,
}

/// A puzzle's cells by key: the ones no quiet pattern touches, then one
/// class per nonzero key, in key order.
#[derive(Clone, Debug)]
pub(crate) struct Classes {
    pub states: u8,
    pub orders: Vec<u32>,
    pub untouched: Vec<usize>,
    pub classes: Vec<Class>,
}

impl Classes {
    pub fn new(code: &QuietCode) -> Classes {
        let mut by_key: BTreeMap<Vec<u8>, Vec<usize>> = BTreeMap::new();
        for cell in 0..code.cells {
            let key = code.generators.iter().map(|(values, _)| values[cell]).collect();
            by_key.entry(key).or_default().push(cell);
        }
        let zero = vec![0; code.generators.len()];
        let untouched = by_key.remove(&zero).unwrap_or_default();
        Classes {
            states: code.states,
            orders: code.generators.iter().map(|&(_, order)| order).collect(),
            untouched,
            classes: by_key.into_iter().map(|(key, cells)| Class { key, cells }).collect(),
        }
    }

    /// All cells.
    pub fn cells(&self) -> usize {
        self.untouched.len() + self.classes.iter().map(|class| class.cells.len()).sum::<usize>()
    }

    /// The kernel's members, as a `u64` when they fit.
    pub fn members(&self) -> Option<u64> {
        self.orders.iter().try_fold(1u64, |n, &order| n.checked_mul(u64::from(order)))
    }

    /// `table[s · classes + k]`: what member `s` (mixed radix over the
    /// generators, the first one fastest) adds to the cells of class `k`,
    /// for the kernel's `members`.
    pub fn member_values(&self, members: usize) -> Vec<u8> {
        let k = u32::from(self.states);
        let mut table = Vec::with_capacity(members * self.classes.len());
        let mut digits = vec![0u32; self.orders.len()];
        for _ in 0..members {
            table.extend(self.classes.iter().map(|class| {
                let sum: u32 = class.key.iter().zip(&digits).map(|(&v, &c)| u32::from(v) * c % k).sum();
                (sum % k) as u8
            }));
            for (digit, &order) in digits.iter_mut().zip(&self.orders) {
                *digit += 1;
                if *digit < order {
                    break;
                }
                *digit = 0;
            }
        }
        table
    }

    /// For two states: each class's key as bits (generator `i` is bit `i`).
    pub fn bit_keys(&self) -> Vec<u64> {
        self.classes
            .iter()
            .map(|class| {
                class.key.iter().enumerate().fold(0u64, |bits, (i, &v)| bits | u64::from(v & 1) << i)
            })
            .collect()
    }

    /// Cells of each nonzero class.
    pub fn sizes(&self) -> Vec<u64> {
        self.classes.iter().map(|class| class.cells.len() as u64).collect()
    }
}
