//! One sliced exhaustive search, whatever the ring: a long search as a
//! value that can be stopped, saved and split.
//!
//! A coset offers slices what [`Sliced`] names: how its members split
//! into *units* (the GF(2) transform's and branch and bound's blocks, the
//! Z_K walk's tasks), a search of a range of units, and the weight and
//! unit of a member's [`Mask`]. On that, one [`Slice`] says which
//! [`Shard`] of the units a run covers, how far it has got and the
//! [`Best`] member so far; it runs batch by batch (its caller may save it
//! or stop between), checks what a record of it claims
//! ([`verify`](Slice::verify), [`recheck`](Slice::recheck)), and
//! [`merge`] joins the slices of one search once every one is present
//! exactly once. The engines below stay concrete: each implements
//! [`Sliced`] for its coset and [`SliceKind`] for its layout, which also
//! fixes the slice's wire format (a record's field names are the kind's).

use std::fmt::Debug;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::AtomicBool;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One member of a coset: bit `j` says whether the coset's basis pattern
/// `j` is added to the particular press set. Over the coset's own basis
/// (see [`Coset::member`](crate::solve::Coset::member)); serialised as the plain number.
///
/// The same type names a member of a coset over Z_K, where a member is a
/// tuple of coefficients `c_j < order_j`: the mask is that tuple read as a
/// mixed-radix number, `c_0` the least significant digit (see
/// [`from_digits`](Self::from_digits)). 128 bits: two-state bases of up to
/// 128 patterns, K-state cosets of up to 2^128 members.
///
/// In records a mask below 2^64 is a JSON number, as it always was; a
/// larger one is its decimal digits as a string, since JSON readers (ours
/// too, through `serde_json::Value`) hold numbers in 64 bits or a float.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mask(u128);

impl Serialize for Mask {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            Ok(small) => serializer.serialize_u64(small),
            Err(_) => serializer.serialize_str(&self.0.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Mask {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Number(u64),
            Digits(String),
        }
        match Wire::deserialize(deserializer)? {
            Wire::Number(n) => Ok(Mask(u128::from(n))),
            // Only digits, and only past 64 bits: one way to write each mask.
            Wire::Digits(text) => match text.parse::<u128>() {
                Ok(n) if n > u128::from(u64::MAX) && text.bytes().all(|b| b.is_ascii_digit()) => Ok(Mask(n)),
                _ => Err(serde::de::Error::custom(format!(
                    "mask \"{text}\" is not the decimal digits of a number from 2^64 to 2^128 - 1"
                ))),
            },
        }
    }
}

impl Mask {
    /// The particular press set itself.
    pub const ZERO: Mask = Mask(0);

    /// Most patterns (bits) a mask holds.
    pub const BITS: usize = 128;

    /// The mask of these bits (the searches make them; a record reads
    /// them back).
    pub(crate) fn from_bits(bits: impl Into<u128>) -> Mask {
        Mask(bits.into())
    }

    /// The bits: bit `j` for basis pattern `j`.
    pub fn bits(self) -> u128 {
        self.0
    }

    /// The mask of the coefficients `digits` (digit `j` below `radices[j]`),
    /// read as a mixed-radix number with digit 0 the least significant;
    /// `None` when a digit is out of range, the lengths differ or the
    /// number passes 128 bits.
    ///
    /// # Example
    /// ```
    /// use lightsout::solve::Mask;
    ///
    /// // Coefficients (2, 1) with orders (3, 4): 2 + 1·3 = 5.
    /// let mask = Mask::from_digits(&[2, 1], &[3, 4]).unwrap();
    /// assert_eq!((mask.bits(), mask.digits(&[3, 4])), (5, vec![2, 1]));
    /// assert_eq!(Mask::from_digits(&[3, 0], &[3, 4]), None);
    /// ```
    pub fn from_digits(digits: &[u32], radices: &[u32]) -> Option<Mask> {
        if digits.len() != radices.len() {
            return None;
        }
        let mut value = 0u128;
        for (&digit, &radix) in digits.iter().zip(radices).rev() {
            if digit >= radix {
                return None;
            }
            value = value.checked_mul(radix as u128)?.checked_add(digit as u128)?;
        }
        Some(Mask(value))
    }

    /// The coefficients this mask names over `radices` (the inverse of
    /// [`from_digits`](Self::from_digits); digits past the last radix are
    /// dropped).
    pub fn digits(self, radices: &[u32]) -> Vec<u32> {
        let mut value = self.0;
        radices
            .iter()
            .map(|&radix| {
                let radix = radix.max(1) as u128;
                let digit = (value % radix) as u32;
                value /= radix;
                digit
            })
            .collect()
    }
}

/// The lightest member found: its weight and mask. Of two members of equal
/// weight the one with the smaller mask is kept, so the result does not
/// depend on the order of the search or the number of threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Best {
    /// Presses in the member.
    pub weight: u64,
    /// Which basis patterns were added to the particular solution.
    pub mask: Mask,
}

impl Best {
    /// Whether a slice that claims `claimed` holds up when its `unit`s
    /// (blocks, tasks), searched again, hold `found` at best: refused when
    /// they hold a lighter member, one as light with a smaller mask (the
    /// tie rule), or any member where it claims none.
    ///
    /// # Errors
    /// What was found, in a few words.
    pub fn check_claim(claimed: Option<Best>, found: Option<Best>, unit: &str) -> Result<(), String> {
        match (found, claimed) {
            (Some(found), Some(best)) if found.weight < best.weight => Err(format!(
                "searched again, its {unit}s hold a member of {} presses where it claims {}",
                found.weight, best.weight
            )),
            (Some(found), Some(best)) if (found.weight, found.mask) < (best.weight, best.mask) => {
                Err(format!(
                    "searched again, its {unit}s hold a member of {} presses with a smaller mask than the one \
                 it claims (the tie rule keeps the smallest)",
                    found.weight
                ))
            }
            (Some(found), None) => Err(format!(
                "searched again, its {unit}s hold a member of {} presses where it claims none",
                found.weight
            )),
            _ => Ok(()),
        }
    }

    /// The better of two candidates (lighter, then smaller mask).
    pub fn better(a: Option<Best>, b: Option<Best>) -> Option<Best> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if (b.weight, b.mask) < (a.weight, a.mask) { b } else { a }),
            (a, None) => a,
            (None, b) => b,
        }
    }
}

/// What a slice's searched units come to, joined batch after batch as
/// the slice runs and slice with slice when slices merge: one `combine`
/// for both, so a merged search finds what one unsliced run finds. The
/// minimum's is the lightest member (`Option<Best>`); the hardest
/// distribution's, its cosets by weight with their first heaviest
/// ([`DistributionSlice`](crate::analysis::DistributionSlice)).
pub trait Reduction: Clone + Debug + Default + PartialEq {
    /// `self` and `other`, the reductions of two disjoint sets of units,
    /// as one. It must not depend on which side is which (ties go by a
    /// rule of the values, such as the smaller mask), so that the order of
    /// batches, threads and slices never shows.
    fn combine(self, other: Self) -> Self;
}

impl Reduction for Option<Best> {
    fn combine(self, other: Self) -> Self {
        Best::better(self, other)
    }
}

/// Slice `index` of `count` (1-based) of a search's blocks: every
/// `count`-th block from block `index − 1`. The slices of one count are
/// disjoint and together cover every block; interleaved, they share the
/// work evenly even where it is not even along the blocks (a symmetric
/// search weighs mostly small blocks, a table's late rows cost more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, from 1 to `count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

/// Most slices a search or a table is cut into (a slice list, a merge's
/// coverage table, stay small).
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// The whole search as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with `1 <= K <= N`.
    ///
    /// # Example
    /// ```
    /// use lightsout::solve::Shard;
    /// assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
    /// assert!(Shard::parse("0/4").is_err() && Shard::parse("5/4").is_err() && Shard::parse("1/0").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed =
            text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((_, count)) if count > MAX_SHARDS => {
                Err(format!("expected K/N with N at most {MAX_SHARDS}, got '{text}'"))
            }
            Some((index, count)) if count >= 1 && (1..=count).contains(&index) => Ok(Shard { index, count }),
            Some((_, 0)) => Err(format!("expected K/N with N at least 1, got '{text}'")),
            Some((_, count)) => Err(format!("expected K/N with K from 1 to {count}, got '{text}'")),
            None => Err(format!("expected K/N such as 3/8, got '{text}'")),
        }
    }

    /// Whether `1 <= index <= count <= MAX_SHARDS` (as [`parse`](Self::parse)
    /// makes sure; a record read back is checked with this).
    pub fn is_valid(&self) -> bool {
        (1..=self.count).contains(&self.index) && self.count <= MAX_SHARDS
    }

    /// How many of `total` blocks this slice holds.
    pub fn len(&self, total: u64) -> u64 {
        let first = self.index - 1;
        if total > first { (total - first).div_ceil(self.count) } else { 0 }
    }

    /// Whether this slice of `total` blocks holds none.
    pub fn is_empty(&self, total: u64) -> bool {
        self.len(total) == 0
    }

    /// The block that is the slice's `i`-th.
    pub fn block(&self, i: u64) -> u64 {
        i * self.count + self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How a long computation's work splits into units that slices share
/// (every `count`-th from `index − 1`, as [`Shard`] cuts them): what a
/// [`Slice`] needs of its layout to run batch by batch. Every
/// [`SliceKind`] (the minimum's blocks and tasks) is one; the hardest
/// distribution's walk prefixes
/// ([`WalkPrefixes`](crate::analysis::WalkPrefixes)) are another.
pub trait Units: Copy + Eq + Debug + Send + Sync {
    /// What else a slice records about how it works (see
    /// [`SliceKind::Plan`]).
    type Plan: Copy + Eq + Debug + Send + Sync;
    /// What a unit is called in messages (`block`, `task`, `prefix`).
    const UNIT: &'static str;
    /// Units a batch holds per thread: a batch is a fraction of a second.
    const BATCH_PER_THREAD: u64;
    /// Units in the whole computation.
    fn units(&self) -> u64;
}

impl<K: SliceKind> Units for K {
    type Plan = K::Plan;
    const UNIT: &'static str = K::UNIT;
    const BATCH_PER_THREAD: u64 = K::BATCH_PER_THREAD;
    fn units(&self) -> u64 {
        SliceKind::units(self)
    }
}

/// What a slice's batch loop ([`Slice::run_batches`]) asks of the work
/// it slices: what a range of the slice's units comes to.
pub trait Reduce<K: Units, R: Reduction> {
    /// The reduction of units `slice.shard.block(i)`, `i` in `range` (the
    /// next batch of `slice`, which holds what the batches before found),
    /// or `None` when the batch gave up (a stop, a budget): its work is
    /// dropped, to be done again.
    fn reduce(&mut self, slice: &Slice<K, R>, range: Range<u64>, stop: &AtomicBool) -> Option<R>;
}

/// A coset's search as a source of batches: the lightest member of a
/// range of units ([`Sliced::search_units_until`]).
struct Searched<'a, C> {
    coset: &'a C,
    skip_zero: bool,
}

impl<C: Sliced> Reduce<C::Kind, Option<Best>> for Searched<'_, C> {
    fn reduce(
        &mut self,
        slice: &Slice<C::Kind>,
        range: Range<u64>,
        stop: &AtomicBool,
    ) -> Option<Option<Best>> {
        self.coset.search_units_until(&slice.plan, slice.shard, range, slice.best, self.skip_zero, stop)
    }
}

/// How one kind of sliced search splits its members into units, and what
/// else a slice of it carries: the GF(2) [`Layout`](crate::solve::Layout) (blocks,
/// and a branch-and-bound plan) or the Z_K
/// [`TaskLayout`](crate::solve::states::minimum::TaskLayout) (tasks).
pub trait SliceKind: Copy + Eq + Debug + Send + Sync + Sized {
    /// What else a slice records about how it searches (a two-state
    /// slice's branch-and-bound plan; nothing for K states).
    type Plan: Copy + Eq + Debug + Send + Sync;
    /// A slice as records write it: the kind's field names, unchanged
    /// since the first records.
    type Wire: Serialize + DeserializeOwned;
    /// What a unit is called in messages (`block`, `task`).
    const UNIT: &'static str;
    /// Units a batch holds per thread: a batch is a fraction of a second.
    const BATCH_PER_THREAD: u64;

    /// Units in the whole search.
    fn units(&self) -> u64;
    /// Members in one unit.
    fn unit_members(&self) -> u128;
    /// The unit that holds member `mask`, if any does.
    fn unit_of(&self, mask: Mask) -> Option<u64>;
    /// The weight no member of a slice searched by `plan` may pass (a
    /// branch-and-bound incumbent): such a slice may rightly find nothing.
    fn bound(plan: &Self::Plan) -> Option<u64>;
    /// The slice as records write it.
    fn to_wire(slice: &Slice<Self>) -> Self::Wire;
    /// A slice read back from a record.
    fn from_wire(wire: Self::Wire) -> Slice<Self>;
}

/// What a coset offers to a sliced search of it.
pub trait Sliced: Sync {
    /// How its members split into units.
    type Kind: SliceKind;

    /// The layout of a search of this coset by `plan`, or `None` when the
    /// plan does not fit it (or the coset is past an exhaustive search).
    fn layout_for(&self, plan: &<Self::Kind as SliceKind>::Plan) -> Option<Self::Kind>;
    /// The lightest member (ties to the smaller mask) of the units
    /// `shard.block(i)`, `i` in `range`, searched by `plan`; `best` is the
    /// best found so far, which the search may use to look no higher (it
    /// still finds a member as light with a smaller mask). Mask 0 is left
    /// out when `skip_zero`.
    fn search_units(
        &self,
        plan: &<Self::Kind as SliceKind>::Plan,
        shard: Shard,
        range: Range<u64>,
        best: Option<Best>,
        skip_zero: bool,
    ) -> Option<Best>;
    /// [`search_units`](Self::search_units) that may give up once `stop`
    /// is set: `None` then, and the units' work is dropped (to be done
    /// again). By default the units are searched to their end (a batch is
    /// a fraction of a second); branch and bound, whose blocks may take
    /// minutes, gives up within milliseconds.
    #[allow(clippy::too_many_arguments)]
    fn search_units_until(
        &self,
        plan: &<Self::Kind as SliceKind>::Plan,
        shard: Shard,
        range: Range<u64>,
        best: Option<Best>,
        skip_zero: bool,
        stop: &AtomicBool,
    ) -> Option<Option<Best>> {
        let _ = stop;
        Some(self.search_units(plan, shard, range, best, skip_zero))
    }
    /// Checks that a slice searched by `plan` (read from a record) was
    /// searched as this coset is searched, and names `plan` as this coset
    /// would (a plan from an older record may leave out what newer ones
    /// name). By default every plan that fits is searched alike.
    ///
    /// # Errors
    /// How the slice was searched, and how this coset is, in a few words.
    fn adopt(&self, plan: &mut <Self::Kind as SliceKind>::Plan) -> Result<(), String> {
        let _ = plan;
        Ok(())
    }
    /// The weight of member `mask`, recomputed, or `None` when the mask
    /// names no member.
    fn weight_of(&self, mask: Mask) -> Option<u64>;
    /// Whether the search weighs unit `unit` (a symmetric search weighs
    /// one block per orbit).
    fn weighs_unit(&self, unit: u64) -> bool;
    /// The expected work of the `units` units of slice `shard` searched by
    /// `plan`, unit by unit in the order they are searched, where the
    /// coset has a model of it: what a progress bar measures its share
    /// done and its time left by, as units are far from equal in cost (a
    /// symmetric transform weighs one block per orbit, and the first
    /// blocks hold most orbits; branch and bound's blocks differ a
    /// hundredfold). `None` by default: every unit is taken to cost the
    /// same, as the K-state walk's tasks (of equal member counts) do.
    fn work_curve(
        &self,
        plan: &<Self::Kind as SliceKind>::Plan,
        shard: Shard,
        units: u64,
    ) -> Option<WorkCurve> {
        let _ = (plan, shard, units);
        None
    }
}

/// The expected work of a slice's first units, for every count of units
/// done: the units cut into at most [`WorkCurve::STEPS`] runs of equal
/// length, each run's expected work known, and the work within a run taken
/// to be spread evenly. The unit of work is the coset's own (weighed blocks
/// for the transform, group passes for branch and bound): only shares of
/// it mean anything.
///
/// # Example
/// ```
/// use lightsout::solve::WorkCurve;
///
/// // Ten units, the first two holding most of the work.
/// let curve = WorkCurve::from_units(10, |units| units.map(|u| if u < 2 { 40.0 } else { 2.5 }).sum());
/// assert_eq!(curve.total(), 100.0);
/// assert_eq!((curve.done(0), curve.done(2), curve.done(10)), (0.0, 80.0, 100.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct WorkCurve {
    /// Units in a run (the last run may be shorter).
    step: u64,
    units: u64,
    /// `cumulative[k]`: the work of the first `min(k · step, units)` units.
    cumulative: Vec<f64>,
}

impl WorkCurve {
    /// Most runs a curve holds: a share done to a few parts in 10^4.
    pub const STEPS: u64 = 4096;

    /// The curve of `units` units whose runs of units cost `work(run)`
    /// (called once for each run, on all threads; a negative or non-finite
    /// work counts as none).
    pub fn from_units(units: u64, work: impl Fn(Range<u64>) -> f64 + Sync) -> WorkCurve {
        use rayon::prelude::*;
        let step = units.div_ceil(Self::STEPS).max(1);
        let runs = units.div_ceil(step);
        let each: Vec<f64> = (0..runs)
            .into_par_iter()
            .map(|k| work(k * step..((k + 1) * step).min(units)))
            .map(|w| if w.is_finite() { w.max(0.0) } else { 0.0 })
            .collect();
        Self::from_runs(step, units, &each)
    }

    /// The curve of `units` units cut into runs of `step` units (the last
    /// one shorter), of work `runs[k]` each.
    pub(crate) fn from_runs(step: u64, units: u64, runs: &[f64]) -> WorkCurve {
        let mut cumulative = Vec::with_capacity(runs.len() + 1);
        cumulative.push(0.0);
        let mut sum = 0.0;
        for w in runs {
            sum += w;
            cumulative.push(sum);
        }
        WorkCurve { step: step.max(1), units, cumulative }
    }

    /// The expected work of the whole slice.
    pub fn total(&self) -> f64 {
        self.cumulative.last().copied().unwrap_or(0.0)
    }

    /// The expected work of the first `done` units (all of it from
    /// `units` on).
    pub fn done(&self, done: u64) -> f64 {
        let done = done.min(self.units);
        let k = (done / self.step) as usize;
        let Some(&below) = self.cumulative.get(k) else { return self.total() };
        let Some(&above) = self.cumulative.get(k + 1) else { return below };
        let run = (self.step).min(self.units - k as u64 * self.step);
        below + (above - below) * (done % self.step) as f64 / run as f64
    }

    /// Units the curve covers.
    pub fn units(&self) -> u64 {
        self.units
    }
}

/// How far an exhaustive search of one slice of a coset has got. The same
/// value is a checkpoint, a shard's result and a part of a merge.
///
/// # Example
/// ```
/// use std::ops::ControlFlow;
/// use lightsout::Grid;
/// use lightsout::solve::{Coset, SearchState, Shard, merge};
///
/// // x = 1111 plus any of two quiet patterns: the lightest member is 0011
/// // (x + 1100), found by whichever of two slices holds it.
/// let x = Grid::ones(1, 4);
/// let quiet = [Grid::from_fn(1, 4, |_, c| c < 2), Grid::from_fn(1, 4, |_, c| c % 2 == 0)];
/// let coset = Coset::new(&x, &quiet);
/// let slices: Vec<SearchState> = (1..=2)
///     .map(|index| {
///         let mut slice = SearchState::new(&coset, Shard { index, count: 2 });
///         slice.search_on(&coset, false, &mut |_| ControlFlow::Continue(()));
///         slice
///     })
///     .collect();
/// let best = merge(&coset, &[&slices[0], &slices[1]]).unwrap().unwrap();
/// assert_eq!(coset.member(&x, &quiet, best.mask), Grid::from_fn(1, 4, |_, c| c >= 2));
/// ```
///
/// The same value, over another [`Units`] layout and [`Reduction`], is a
/// slice of the hardest distribution's walk
/// ([`DistributionSlice`](crate::analysis::DistributionSlice)): one batch
/// loop ([`run_batches`](Slice::run_batches)) and one merge skeleton
/// ([`merge_slices`]) for both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice<K: Units, R: Reduction = Option<Best>> {
    /// How the work splits into units (for a search, fixed by the coset
    /// and the plan).
    pub layout: K,
    /// The slice searched.
    pub shard: Shard,
    /// Units in the slice.
    pub units: u64,
    /// Units of the slice searched so far (its first `done`).
    pub done: u64,
    /// What the units searched come to: for a minimum's search, the
    /// lightest member of the units searched.
    pub best: R,
    /// How it searches besides the layout (see [`SliceKind::Plan`]).
    pub plan: K::Plan,
}

impl<K: SliceKind> Serialize for Slice<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        K::to_wire(self).serialize(serializer)
    }
}

impl<'de, K: SliceKind> Deserialize<'de> for Slice<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        K::Wire::deserialize(deserializer).map(K::from_wire)
    }
}

impl<K: Units, R: Reduction> Slice<K, R> {
    /// A fresh search of `shard` of work split by `layout`, by `plan`.
    pub fn fresh(layout: K, shard: Shard, plan: K::Plan) -> Slice<K, R> {
        Slice { layout, shard, units: shard.len(Units::units(&layout)), done: 0, best: R::default(), plan }
    }

    /// Whether every unit of the slice has been searched.
    pub fn is_complete(&self) -> bool {
        self.done >= self.units
    }

    /// The batch loop of every long computation: works on from where the
    /// slice stands, batch by batch (`K::BATCH_PER_THREAD` units a
    /// thread), each batch's reduction combined into the slice's, until
    /// the slice is done or `after_batch`, called with the slice after
    /// every batch, breaks. A batch that `source` gives up (once `stop` is
    /// set, where it can) is dropped: the slice stays as the last batch
    /// left it, is handed to `after_batch` once more (to be saved), and
    /// the loop returns.
    pub fn run_batches(
        &mut self,
        source: &mut dyn Reduce<K, R>,
        stop: &AtomicBool,
        after_batch: &mut dyn FnMut(&Slice<K, R>) -> ControlFlow<()>,
    ) {
        let size = K::BATCH_PER_THREAD * rayon::current_num_threads().max(1) as u64;
        while self.done < self.units {
            let end = self.done.saturating_add(size).min(self.units);
            let Some(found) = source.reduce(self, self.done..end, stop) else {
                let _ = after_batch(self);
                return;
            };
            self.best = std::mem::take(&mut self.best).combine(found);
            self.done = end;
            if after_batch(self).is_break() {
                return;
            }
        }
    }
}

impl<K: SliceKind> Slice<K> {
    /// A fresh search of `shard` of `coset` by `plan`; `None` when the plan
    /// does not fit the coset.
    pub fn start<C: Sliced<Kind = K>>(coset: &C, shard: Shard, plan: K::Plan) -> Option<Slice<K>> {
        coset.layout_for(&plan).map(|layout| Slice::fresh(layout, shard, plan))
    }

    /// Members weighed so far.
    pub fn members_searched(&self) -> u128 {
        u128::from(self.done).saturating_mul(self.layout.unit_members())
    }

    /// Whether this state belongs to a search of `coset` (a valid slice,
    /// and the layout and slice bounds that `coset` gives it).
    pub fn fits<C: Sliced<Kind = K>>(&self, coset: &C) -> bool {
        self.shard.is_valid()
            && coset.layout_for(&self.plan).is_some_and(|layout| {
                layout == self.layout && self.shard.len(SliceKind::units(&layout)) == self.units
            })
            && self.done <= self.units
    }

    /// Checks what the state claims against `coset`, which can be rebuilt
    /// from the problem: its layout and slice, and its best member, whose
    /// weight is recomputed from its mask, which must lie within the plan's
    /// bound and in a unit of the slice that was searched. A slice that
    /// weighed a unit must name a best member (every member has a weight),
    /// unless its plan bounds what it looks for.
    ///
    /// A record's checksum shows damage; this catches a record that was
    /// edited and sealed again. It cannot catch a slice that claims a
    /// heavier best than it had: [`recheck`](Self::recheck) samples that.
    ///
    /// # Errors
    /// What does not hold, in a few words.
    pub fn verify<C: Sliced<Kind = K>>(&self, coset: &C) -> Result<(), String> {
        if !self.fits(coset) {
            return Err("its slice does not fit this search".into());
        }
        let unit = K::UNIT;
        let bound = K::bound(&self.plan);
        match self.best {
            Some(best) => {
                let Some(weight) = coset.weight_of(best.mask) else {
                    return Err("its best member is not a member of this coset".into());
                };
                if weight != best.weight {
                    return Err(format!("it claims {} presses for a member that has {weight}", best.weight));
                }
                if let Some(bound) = bound.filter(|&bound| weight > bound) {
                    return Err(format!("its best has {weight} presses, above its bound {bound}"));
                }
                let in_slice = self.layout.unit_of(best.mask).is_some_and(|u| {
                    u % self.shard.count == self.shard.index - 1
                        && u / self.shard.count < self.done
                        && coset.weighs_unit(u)
                });
                if !in_slice {
                    return Err(format!("its best member is not in a {unit} it searched"));
                }
            }
            // A bounded search finds nothing in a slice whose members all
            // weigh more than its bound: no claim to check.
            None if bound.is_none() && (0..self.done).any(|i| coset.weighs_unit(self.shard.block(i))) => {
                return Err(format!("it searched its {unit}s but names no best member"));
            }
            None => {}
        }
        Ok(())
    }

    /// Searches again the units `sample` (indices into the slice, below
    /// `done`) and refuses the state if any of them holds a member better
    /// than its claimed best (lighter, or as light with a smaller mask: the
    /// tie rule, which keeps a merged press set the unsharded one), or any
    /// member (within its plan's bound) where it claims none: a spot check
    /// of the work a record claims, which [`verify`](Self::verify) cannot
    /// make (run it first). A machine that skipped a share `p` of its units
    /// survives a check of `k` random units with probability about
    /// `(1 − p)^k`.
    ///
    /// # Errors
    /// What was found, in a few words.
    pub fn recheck<C: Sliced<Kind = K>>(&self, coset: &C, sample: &[u64]) -> Result<(), String> {
        use rayon::prelude::*;
        if let Some(&i) = sample.iter().find(|&&i| i >= self.done) {
            return Err(format!("{} {i} of the slice was never searched", K::UNIT));
        }
        let found = sample
            .par_iter()
            .filter_map(|&i| coset.search_units(&self.plan, self.shard, i..i + 1, self.best, false))
            .reduce_with(|a, b| Best::better(Some(a), Some(b)).unwrap_or(a));
        Best::check_claim(self.best, found, K::UNIT)
    }

    /// Searches on from where the state stands until the slice is done or
    /// `after_batch`, called with the state after every batch (a fraction
    /// of a second of work), breaks. Mask 0 is left out when `skip_zero`.
    pub fn search_on<C: Sliced<Kind = K>>(
        &mut self,
        coset: &C,
        skip_zero: bool,
        after_batch: &mut dyn FnMut(&Slice<K>) -> ControlFlow<()>,
    ) {
        static NEVER: AtomicBool = AtomicBool::new(false);
        self.search_on_until(coset, skip_zero, &NEVER, after_batch);
    }

    /// [`search_on`](Self::search_on) that drops the batch in flight once
    /// `stop` is set, where the coset can give up inside one
    /// ([`Sliced::search_units_until`]): the state stays as the last
    /// batch left it, is handed to `after_batch` once more (to be saved),
    /// and the search returns.
    pub fn search_on_until<C: Sliced<Kind = K>>(
        &mut self,
        coset: &C,
        skip_zero: bool,
        stop: &AtomicBool,
        after_batch: &mut dyn FnMut(&Slice<K>) -> ControlFlow<()>,
    ) {
        self.run_batches(&mut Searched { coset, skip_zero }, stop, after_batch);
    }
}

/// Why shards do not make one whole search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No shard at all.
    Empty,
    /// Shards cut into different numbers of slices (the counts found).
    MixedCounts(Vec<u64>),
    /// Slices given more than once.
    Duplicated(Vec<u64>),
    /// Slices not given.
    Missing(Vec<u64>),
    /// A slice that was not searched to its end (its index).
    Incomplete(u64),
    /// A slice whose claims do not hold against the coset (its index, and
    /// what does not hold: see [`Slice::verify`]).
    Inconsistent(u64, String),
}

/// The lightest member of `coset` over slices that together cover its
/// search exactly once, each complete, each consistent with `coset`
/// ([`Slice::verify`]) and all searched by one plan.
///
/// # Errors
/// [`MergeError`] naming the slices that are missing, duplicated,
/// unfinished or inconsistent.
pub fn merge<C: Sliced>(coset: &C, states: &[&Slice<C::Kind>]) -> Result<Option<Best>, MergeError> {
    merge_slices(states, |s| s.verify(coset))
}

/// What slices that together cover their work exactly once, each
/// complete, each holding up (`check` says why one does not) and all by
/// one plan, come to: their reductions combined. The merge of every kind
/// of slice ([`merge`] for a minimum's search; the hardest distribution's
/// [`hardest_merged`](crate::analysis::hardest_merged) checks its slices
/// against the walk planned again).
///
/// # Errors
/// [`MergeError`] naming the slices that are missing, duplicated,
/// unfinished or inconsistent.
pub fn merge_slices<K: Units, R: Reduction, F: Fn(&Slice<K, R>) -> Result<(), String>>(
    states: &[&Slice<K, R>],
    check: F,
) -> Result<R, MergeError> {
    let shards: Vec<Shard> = states.iter().map(|s| s.shard).collect();
    check_coverage(&shards)?;
    if let Some(s) = states.iter().find(|s| !s.is_complete()) {
        return Err(MergeError::Incomplete(s.shard.index));
    }
    for s in states {
        check(s).map_err(|why| MergeError::Inconsistent(s.shard.index, why))?;
        if s.plan != states[0].plan {
            let why =
                format!("it was searched by another engine or bound than slice {}", states[0].shard.index);
            return Err(MergeError::Inconsistent(s.shard.index, why));
        }
    }
    Ok(states.iter().fold(R::default(), |found, s| found.combine(s.best.clone())))
}

/// Checks that `shards` are the slices of one split, each exactly once.
///
/// # Errors
/// [`MergeError`] naming what is mixed, duplicated or missing.
pub fn check_coverage(shards: &[Shard]) -> Result<(), MergeError> {
    let first = shards.first().ok_or(MergeError::Empty)?;
    let mut counts: Vec<u64> = shards.iter().map(|s| s.count).collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.len() > 1 {
        return Err(MergeError::MixedCounts(counts));
    }
    let mut seen = vec![0u32; first.count.min(MAX_SHARDS) as usize];
    for s in shards {
        if let Some(n) = seen.get_mut((s.index - 1) as usize) {
            *n += 1;
        }
    }
    let slices = |pick: &dyn Fn(u32) -> bool| -> Vec<u64> {
        seen.iter().enumerate().filter(|&(_, &n)| pick(n)).map(|(i, _)| i as u64 + 1).collect()
    };
    let duplicated = slices(&|n| n > 1);
    if !duplicated.is_empty() {
        return Err(MergeError::Duplicated(duplicated));
    }
    let missing = slices(&|n| n == 0);
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 25, item 1): masks past 2^64 read back exactly,
    /// also through `serde_json::Value` (as records are checked); masks
    /// below keep the plain numbers old records hold.
    #[test]
    fn masks_past_64_bits_read_back_exactly() {
        let edges =
            [0, 1, u128::from(u64::MAX), u128::from(u64::MAX) + 1, 604462909807314587353088, u128::MAX];
        for bits in edges {
            let text = serde_json::to_string(&Mask(bits)).unwrap();
            assert_eq!(text.starts_with('"'), bits > u128::from(u64::MAX), "{text}");
            assert_eq!(serde_json::from_str::<Mask>(&text).unwrap(), Mask(bits));
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::from_value::<Mask>(value).unwrap(), Mask(bits));
        }
        for bad in [
            "\"12\"",
            "\"+18446744073709551616\"",
            "\"x\"",
            "-1",
            "1.5",
            "\"340282366920938463463374607431768211456\"",
        ] {
            assert!(serde_json::from_str::<Mask>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_cover_every_block_once() {
        for total in [0u64, 1, 5, 64, 1000] {
            for count in 1..=9u64 {
                let mut seen = vec![0; total as usize];
                for index in 1..=count {
                    let shard = Shard { index, count };
                    for i in 0..shard.len(total) {
                        seen[shard.block(i) as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{total} blocks in {count}");
            }
        }
    }

    /// Records keep the wire shapes they had before the two kinds shared
    /// one slice: two-state slices write `blocks` (and `branch` only for
    /// branch and bound), K-state slices `slice_tasks`, field for field in
    /// the old order, and read back the same; a field of the other kind is
    /// refused.
    #[test]
    fn each_kind_keeps_its_wire_fields() {
        use crate::solve::Layout;
        use crate::solve::minimal::Branching;
        use crate::solve::minimal::FoldTag;
        use crate::solve::states::minimum::TaskLayout;
        let best = Some(Best { weight: 7, mask: Mask::from_bits(5u8) });
        let layout = Layout { table_bits: 13, lane_bits: 5, outer_bits: 12, symmetries: 7 };
        let mut two = Slice::fresh(layout, Shard { index: 2, count: 3 }, None);
        (two.done, two.best) = (4, best);
        let text = serde_json::to_string(&two).unwrap();
        assert_eq!(
            text,
            r#"{"layout":{"table_bits":13,"lane_bits":5,"outer_bits":12,"symmetries":7},"shard":{"index":2,"count":3},"blocks":1365,"done":4,"best":{"weight":7,"mask":5}}"#
        );
        assert_eq!(serde_json::from_str::<Slice<Layout>>(&text).unwrap(), two);
        let plan = Branching { leaf_bits: 0, prefix_bits: 10, bound: 376, fold: Default::default() };
        let branch = Slice { plan: Some(plan), ..two.clone() };
        let text = serde_json::to_string(&branch).unwrap();
        assert!(
            text.ends_with(
                r#""best":{"weight":7,"mask":5},"branch":{"leaf_bits":0,"prefix_bits":10,"bound":376}}"#
            ),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Slice<Layout>>(&text).unwrap(), branch);
        // A plan that names its fold (record version 3) writes it last.
        for (fold, wire) in
            [(FoldTag::Folded(0xbe65_d158_9027_e7b3), "be65d1589027e7b3"), (FoldTag::Unfolded, "none")]
        {
            let named = Slice { plan: Some(Branching { fold, ..plan }), ..two.clone() };
            let text = serde_json::to_string(&named).unwrap();
            assert!(text.ends_with(&format!(r#""bound":376,"fold":"{wire}"}}}}"#)), "{text}");
            assert_eq!(serde_json::from_str::<Slice<Layout>>(&text).unwrap(), named);
        }
        let bad = text.replace(r#""bound":376"#, r#""bound":376,"fold":"be65""#);
        assert!(serde_json::from_str::<Slice<Layout>>(&bad).unwrap_err().to_string().contains("fold 'be65'"));
        let mut k = Slice::fresh(TaskLayout { tasks: 9, task_members: 4 }, Shard { index: 1, count: 2 }, ());
        (k.done, k.best) = (5, best);
        let text = serde_json::to_string(&k).unwrap();
        assert_eq!(
            text,
            r#"{"layout":{"tasks":9,"task_members":4},"shard":{"index":1,"count":2},"slice_tasks":5,"done":5,"best":{"weight":7,"mask":5}}"#
        );
        assert_eq!(serde_json::from_str::<Slice<TaskLayout>>(&text).unwrap(), k);
        let foreign = text.replace("slice_tasks", "blocks");
        assert!(
            serde_json::from_str::<Slice<TaskLayout>>(&foreign)
                .unwrap_err()
                .to_string()
                .contains("unknown field `blocks`")
        );
    }

    /// The verdict of a recheck follows the tie rule: a member as light
    /// as the claim but with a smaller mask refutes it, a larger one does
    /// not.
    #[test]
    fn a_recheck_verdict_follows_the_tie_rule() {
        let member = |weight, mask: u128| Some(Best { weight, mask: Mask::from_bits(mask) });
        assert_eq!(Best::check_claim(member(5, 9), member(5, 9), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), member(5, 12), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), member(6, 1), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), None, "block"), Ok(()));
        let tie = Best::check_claim(member(5, 9), member(5, 3), "block").unwrap_err();
        assert!(tie.contains("5 presses with a smaller mask"), "{tie}");
        let lighter = Best::check_claim(member(5, 9), member(4, 30), "block").unwrap_err();
        assert!(lighter.contains("4 presses where it claims 5"), "{lighter}");
        let none = Best::check_claim(None, member(7, 0), "task").unwrap_err();
        assert!(none.contains("its tasks hold a member of 7 presses where it claims none"), "{none}");
    }
}
