//! The lightest member of a coset over Z_k.
//!
//! A plain placeholder, to be replaced by the real search: every
//! coefficient tuple is enumerated in mixed radix while the coset is within
//! the budget; past it, the particular solution is returned, not proven.

/// The lightest press set found, its total, and whether it is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    pub presses: Vec<u8>,
    pub total: u64,
    pub proven_minimal: bool,
    pub lower_bound: u64,
}

/// The lightest member of particular + span(generators) over Z_k, searched exhaustively
/// while the coset has at most 2^max_members_log2 members, by local search otherwise.
pub fn minimize(k: u8, particular: &[u8], generators: &[(&[u8], u32)], max_members_log2: u32) -> Minimum {
    let total = |v: &[u8]| v.iter().map(|&x| u64::from(x)).sum::<u64>();
    let log2: f64 = generators.iter().map(|g| f64::from(g.1).log2()).sum();
    if log2 > f64::from(max_members_log2) {
        let t = total(particular);
        return Minimum { presses: particular.to_vec(), total: t, proven_minimal: t == 0, lower_bound: 0 };
    }
    let mut best = particular.to_vec();
    let mut best_total = total(particular);
    let mut digits = vec![0u32; generators.len()];
    let mut current = particular.to_vec();
    // Mixed-radix counting: bump the lowest digit that is not at its
    // order − 1, adding its generator; each digit that wraps has been added
    // order times, which is zero, so it needs nothing undone.
    while let Some(i) = (0..digits.len()).find(|&i| digits[i] + 1 < generators[i].1) {
        for d in &mut digits[..i] {
            *d = 0;
        }
        for (g, _) in generators.iter().take(i + 1) {
            // Digits below i wrap from order − 1 to 0: one more addition.
            for (c, &x) in current.iter_mut().zip(g.iter()) {
                *c = ((u16::from(*c) + u16::from(x)) % u16::from(k)) as u8;
            }
        }
        digits[i] += 1;
        let t = total(&current);
        if t < best_total {
            best_total = t;
            best.clone_from(&current);
        }
    }
    Minimum { presses: best, total: best_total, proven_minimal: true, lower_bound: best_total }
}

/// The lightest nonzero member of span(generators) (the lightest quiet pattern), if the
/// span has at most 2^max_members_log2 members; None if it is {0} or too large.
pub fn lightest_nonzero(k: u8, generators: &[(&[u8], u32)], max_members_log2: u32) -> Option<Vec<u8>> {
    let len = generators.first()?.0.len();
    let log2: f64 = generators.iter().map(|g| f64::from(g.1).log2()).sum();
    if log2 > f64::from(max_members_log2) {
        return None;
    }
    let mut best: Option<(u64, Vec<u8>)> = None;
    let mut digits = vec![0u32; generators.len()];
    let mut current = vec![0u8; len];
    while let Some(i) = (0..digits.len()).find(|&i| digits[i] + 1 < generators[i].1) {
        for d in &mut digits[..i] {
            *d = 0;
        }
        for (g, _) in generators.iter().take(i + 1) {
            for (c, &x) in current.iter_mut().zip(g.iter()) {
                *c = ((u16::from(*c) + u16::from(x)) % u16::from(k)) as u8;
            }
        }
        digits[i] += 1;
        let t: u64 = current.iter().map(|&x| u64::from(x)).sum();
        if t > 0 && best.as_ref().is_none_or(|b| t < b.0) {
            best = Some((t, current.clone()));
        }
    }
    best.map(|b| b.1)
}
