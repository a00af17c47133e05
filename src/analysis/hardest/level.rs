//! What the two searches of a level share, below both (`spectrum.rs`
//! asks the leader program for its sub-spans, and the leader program
//! answers in the spectrum's words): a level's verdict, and a span of
//! keys.

/// What deciding a level found ([`Spectrum::decide`](super::spectrum::Spectrum::decide),
/// and the leader program's).
pub(crate) enum Level {
    /// Reached by these signed counts.
    Reached(Vec<i64>),
    /// Reached by no signed counts: proven.
    Refuted,
    /// The work ran out first.
    Unknown,
}

/// A subspace of keys: its basis reduced (distinct leading bits), each
/// row with the combination of the added keys it is.
#[derive(Clone, Default)]
pub(crate) struct Span {
    pub basis: Vec<(u64, u64)>,
}

impl Span {
    /// Adds an independent key.
    pub fn add(&mut self, key: u64) {
        let (mut v, mut c) = (key, 1u64 << self.basis.len());
        for &(row, comb) in &self.basis {
            if v ^ row < v {
                (v, c) = (v ^ row, c ^ comb);
            }
        }
        debug_assert!(v != 0, "the key is independent");
        self.basis.push((v, c));
        self.basis.sort_by_key(|row| std::cmp::Reverse(row.0));
    }

    /// The key in the added keys' coordinates, if it is in the span.
    pub fn coords(&self, key: u64) -> Option<u64> {
        let (mut v, mut c) = (key, 0u64);
        for &(row, comb) in &self.basis {
            if v ^ row < v {
                (v, c) = (v ^ row, c ^ comb);
            }
        }
        (v == 0).then_some(c)
    }
}
