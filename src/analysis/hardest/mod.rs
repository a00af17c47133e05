//! The hardest boards of a puzzle: the most presses any solvable board
//! needs (Most Clicks, the covering radius of the quiet patterns' code),
//! and how the boards spread over their minimum presses.
//!
//! Boards solvable to a target correspond one to one with the cosets of
//! the kernel, and a board's minimum is its coset's lightest member, so
//! both questions are about the kernel alone. Its members act on whole
//! classes of cells (`classes.rs`): a press set is weighed against every
//! member by how many cells of each class it presses how often. Three
//! ways answer from there, for both rings:
//! - the tally (`spread.rs`): every count vector at once, exact, for any K,
//!   when the classes are small enough;
//! - for two states, the signed counts (`spectrum.rs`): a parity bound, a
//!   board that meets it or a finite search that lowers it, for any size
//!   whose kernel has at most 2^24 members;
//! - past both, a board built class by class and weighed by the solver:
//!   bounds, reported as bounds.
//!
//! Apart from these, [`hardest_settled`] answers the few sizes whose proof
//! takes longer than a server's time limit from a table shipped with the
//! library (`settled.rs`), its board solved again first.
//!
//! Every board reported is solved again by the game's exhaustive engine,
//! which must prove its minimum equal to the one claimed.

mod classes;
mod climb;
mod family;
mod image;
mod leader;
mod level;
mod settled;
mod sizes;
mod spectrum;
mod spread;
mod work;

pub use classes::QuietCode;
pub use family::{Carried, Family};
pub use settled::{SETTLED, SettledSize, TABLE_PROVENANCE, hardest_settled, settled_size};
pub use sizes::{EachSize, MAX_TABLE_SIZES, TableRun, most_clicks_table};

use std::ops::ControlFlow;
use std::sync::atomic::AtomicU64;

use num_bigint::BigUint;
use num_traits::Zero;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use self::classes::Classes;
use self::image::{Image, MAX_IMAGE_BOARDS};
use self::leader::{Leader, MAX_LEADER_BITS};
use self::level::Level;
use self::spectrum::{MAX_SPECTRUM_BITS, SPAN_BITS, Spectrum};
use self::work::Work;
use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::slices::{MAX_SHARDS, Reduction, Slice, Units};
use crate::solve::states::{StateSolver, StateTarget};
use crate::solve::{Board, Game, Limits, MergeError, Shard, Solver, Target, TargetOf};

/// Which boards are weighed: the ones solvable to one uniform state
/// (0 is all white for two states), or to any (each board to the state
/// nearest it: POJ 1753's either colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every cell in this state.
    State(u8),
    /// Whichever uniform state takes the fewest presses.
    Any,
}

/// How the most presses were settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A bound from the classes alone, met by a board built to meet it.
    ClosedForm,
    /// An exhaustive search: a tally of every board, or a search proving
    /// that no board needs more.
    Search,
    /// Not settled: the work ran out (or was stopped) between the bounds.
    Bounds,
    /// The table of sizes settled offline shipped with the library
    /// (`settled.rs`): its board solved again by the exhaustive engine, the
    /// bound above it the leader program's, run offline.
    Table,
}

impl How {
    /// `"closed form"`, `"search"`, `"bounds"` or `"shipped table"`.
    pub fn name(self) -> &'static str {
        match self {
            How::ClosedForm => "closed form",
            How::Search => "search",
            How::Bounds => "bounds",
            How::Table => "shipped table",
        }
    }
}

/// Where a bound on the most presses comes from, so that a reader can tell
/// a weak bound from a tight one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The average weight over the kernel's members, which the lightest
    /// cannot pass (for two states sharpened by the parity of the odd
    /// classes).
    Average,
    /// The same averaged over the members agreeing on a sub-span of the
    /// classes' keys, a sub-problem settled exactly.
    SubSpan,
    /// The leader program (the lightest member of the hardest coset
    /// weighed by the classes' counts), settled level by level by the
    /// branch and bound of the signed counts: a level it reaches is a
    /// lower bound, a level it refutes makes the one below the upper.
    Program,
    /// Every board counted (the tally of the cosets).
    Tally,
    /// A tabu search's board, certified by the exhaustive engine.
    Climb,
    /// A board built without a search (spread evenly or at random),
    /// certified by the exhaustive engine.
    Board,
    /// A smaller size of the same family (its classes scaled,
    /// `family.rs`): a board of the base's class sizes copied into the
    /// larger classes (a lower bound, certified by the exhaustive engine),
    /// or the base's proven level where it holds for every member (then
    /// both bounds).
    Family,
    /// The table of sizes settled offline ([`hardest_settled`]): a board
    /// solved again here, and the leader program's refutation run offline.
    Table,
}

impl Bound {
    /// `"parity"`, `"average"`, `"sub-span ceiling"`, `"leader program"`,
    /// `"every board counted"`, `"tabu search"`, `"a built board"`,
    /// `"the family's base"` or `"shipped table"`; the
    /// average is `"parity"` for two states, where the parity sharpens it.
    pub fn name(self, states: u8) -> &'static str {
        match self {
            Bound::Average if states == 2 => "parity",
            Bound::Average => "average",
            Bound::SubSpan => "sub-span ceiling",
            Bound::Program => "leader program",
            Bound::Tally => "every board counted",
            Bound::Climb => "tabu search",
            Bound::Board => "a built board",
            Bound::Family => "the family's base",
            Bound::Table => "shipped table",
        }
    }
}

/// What [`hardest`] may do.
#[derive(Clone, Copy, Debug)]
pub struct HardestOptions<'a> {
    /// Also count the boards of every minimum (refused past `work`).
    pub distribution: bool,
    /// Most member weighings (one member's weight updated by one class)
    /// the searches may make.
    pub work: u64,
    /// Where to write the weighings spent so far, for a caller watching
    /// from another thread: written at every stop check (about every 2^20
    /// weighings) and once at the end, never in the hot loop. Out of the
    /// total [`hardest_cost`] expects.
    pub progress: Option<&'a AtomicU64>,
}

impl Default for HardestOptions<'_> {
    fn default() -> Self {
        HardestOptions { distribution: false, work: DEFAULT_HARDEST_WORK, progress: None }
    }
}

/// The default work: 2^37 member weighings. At the rates of
/// [`WEIGHINGS_PER_SECOND`] that is about 14 CPU-seconds of counting every
/// board (5x5 over Z_3, A079875: 2.5·10^10; the 6x6 torus: 6.9·10^10), and
/// the leader program's branch and bound gets half of it, about 2
/// CPU-minutes (9x9, nullity 8, is proven in about 1.5·10^10). A count, so
/// that an answer is the same on every machine.
pub const DEFAULT_HARDEST_WORK: u64 = 1 << 37;

/// How much of the budget a search may spend in a row without progress
/// (a bound moved, or a whole percent of the leader program's search tree
/// refuted) before it stops: 1/32, so the default's 2^32 weighings, about
/// 9 CPU-seconds at the leader program's rate of [`WEIGHINGS_PER_SECOND`].
/// 9x9's proof goes at most 2.5·10^9 weighings between two percents; an
/// unsettled 16x16 stops 2^32 weighings after its last level is refuted.
/// `--max-work` raises the patience with the budget.
pub const STALL_SHARE: u64 = 32;

/// The patience of a search on a budget of `work` weighings: see
/// [`STALL_SHARE`].
pub fn stall_patience(work: u64) -> u64 {
    work / STALL_SHARE
}

/// Weighings a second, one thread, as measured on the shared 2-core
/// machine (docs/performance.md): the leader program's branch and bound
/// (which updates rows one by one) and the tally (whose blocks are walked
/// as vector `min`s). What a budget or a note converts to time with.
pub const WEIGHINGS_PER_SECOND: (f64, f64) = (5e8, 1e10);

/// Most weighings of a tally run only to count the hardest boards once the
/// most presses is settled another way: well under a second.
const CHEAP_TALLY: f64 = (1u64 << 24) as f64;

/// The hardest boards of a game for a goal.
#[derive(Clone, Debug)]
pub struct Hardest<B: Board> {
    /// A board needing this many presses exists (`None`: none certified).
    pub lower: Option<u64>,
    /// No solvable board needs more presses.
    pub upper: u64,
    /// A board whose minimum to the goal is exactly `lower`, proven by the
    /// exhaustive engine.
    pub board: Option<B>,
    /// Its lightest press set.
    pub presses: Option<B>,
    /// How the value was settled.
    pub how: How,
    /// How many boards need `upper` presses, where every board was counted.
    pub boards_at_most: Option<String>,
    /// Boards by their minimum presses (ascending, none left out but the
    /// zero counts), when asked and counted.
    pub distribution: Option<Vec<(u64, String)>>,
    /// The boards weighed: every board solvable to the goal.
    pub boards: String,
    /// Whether the time limit or the stop flag cut the work short.
    pub stopped: bool,
    /// Where the search stopped because nothing moved for a while: that
    /// many weighings without progress ([`stall_patience`] of the budget).
    pub stalled: Option<u64>,
    /// Where the bounds are left apart by the budget: the work (member
    /// weighings) that would settle it, the least of counting every board
    /// and the leader program's estimate for the level it was deciding
    /// (its work so far over the share of its search done).
    pub settle_work: Option<f64>,
    /// Where `lower` comes from.
    pub lower_from: Option<Bound>,
    /// Where `upper` comes from.
    pub upper_from: Bound,
    /// Where the bounds of a two-state grid were left apart by its own
    /// searches and its quiet patterns are a smaller grid's tiled: that
    /// family, and what the smaller grid's answer did for this one.
    pub family: Option<Family>,
}

impl<B: Board> Hardest<B> {
    /// Whether the most presses is proven: the bounds meet.
    pub fn exact(&self) -> bool {
        self.lower == Some(self.upper)
    }

    /// Why the bounds were left apart (`None` when they meet).
    pub fn stop(&self) -> Option<Stop> {
        if self.exact() {
            None
        } else if self.stopped {
            Some(Stop::Interrupted)
        } else if self.stalled.is_some() {
            Some(Stop::Stalled)
        } else {
            Some(Stop::Budget)
        }
    }
}

/// Why [`hardest`] left its bounds apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The time limit or the stop flag (Ctrl-C) cut the work short.
    Interrupted,
    /// No bound moved for [`stall_patience`] of the budget: more of the
    /// same budget was unlikely to move them (`--max-work` raises both).
    Stalled,
    /// The exact methods do not finish within the work budget (or none
    /// applies: past nullity 24 only the bounds are computed).
    Budget,
}

impl Stop {
    /// `"interrupted"`, `"stalled"` or `"budget"`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::Stalled => "stalled",
            Stop::Budget => "budget",
        }
    }
}

/// What the study of all boards asks of a game, beyond [`Game`]: its
/// quiet patterns cell by cell, its uniform targets, and boards made of
/// cell values. [`Solver`] and [`StateSolver`] have it.
pub trait Weighed: Game {
    /// The states of a cell: 2, or K.
    fn cell_states(&self) -> u8;

    /// The quiet patterns as cell values with their orders.
    ///
    /// # Errors
    /// [`Error::Limit`] when the game does not hold its quiet patterns.
    fn quiet_code(&self) -> Result<QuietCode, Error>;

    /// The targets a goal asks for.
    fn goal_targets(&self, goal: Goal) -> Vec<TargetOf<Self>>;

    /// The board of the puzzle's shape with these cell values (row by
    /// row, each below K).
    fn board_of(&self, cells: Vec<u8>) -> Self::Board {
        Board::from_cell_values(self.puzzle().rows(), self.puzzle().cols(), &cells)
    }

    /// A board's cell values, row by row.
    fn cells_of(&self, board: &Self::Board) -> Vec<u8> {
        board.cell_values()
    }

    /// The family of a two-state grid (`family.rs`): the smaller grid
    /// whose quiet patterns, tiled, are this one's, and that grid's
    /// solver. `None` by default.
    fn family(&self) -> Option<(Family, Solver)> {
        None
    }
}

impl Weighed for Solver {
    fn cell_states(&self) -> u8 {
        2
    }

    fn quiet_code(&self) -> Result<QuietCode, Error> {
        if !self.holds_quiet_patterns() {
            return Err(Error::Limit(format!(
                "the {} quiet patterns of this puzzle do not fit the memory limit",
                self.nullity()
            )));
        }
        let generators = self.quiet_patterns().iter().map(|q| (q.cell_values(), 2)).collect();
        Ok(QuietCode { states: 2, cells: self.puzzle().cells(), generators })
    }

    fn goal_targets(&self, goal: Goal) -> Vec<Target> {
        match goal {
            Goal::State(0) => vec![Target::White],
            Goal::State(_) => vec![Target::Black],
            Goal::Any => Target::EITHER.to_vec(),
        }
    }

    fn family(&self) -> Option<(Family, Solver)> {
        family::family_of(self)
    }
}

impl Weighed for StateSolver {
    fn cell_states(&self) -> u8 {
        self.states().get()
    }

    fn quiet_code(&self) -> Result<QuietCode, Error> {
        let generators =
            self.quiet_patterns().iter().map(|(q, order)| (q.cells().to_vec(), *order)).collect();
        Ok(QuietCode { states: self.states().get(), cells: self.puzzle().cells(), generators })
    }

    fn goal_targets(&self, goal: Goal) -> Vec<StateTarget> {
        match goal {
            Goal::State(t) => vec![StateTarget::Uniform(t)],
            Goal::Any => StateTarget::any(self.states()),
        }
    }
}

/// The hardest boards of `game` for `goal`: the most presses a solvable
/// board needs, proven where the work allows and bounded where not, a
/// board that needs them, and with `options.distribution` the count of
/// boards by their minimum.
///
/// # Errors
/// [`Error::Limit`] when the distribution is asked and would take more
/// than `options.work`, or the game does not hold its quiet patterns;
/// [`Error::BadInput`] for a goal state not below K; [`Error::Internal`]
/// if a board's minimum is not the one its construction claims.
///
/// # Example
/// ```
/// use lightsout::analysis::{Goal, HardestOptions, hardest};
/// use lightsout::{Method, Puzzle, Solver};
///
/// // 4x4: the hardest board to all white needs 7 presses; either colour, 6.
/// let solver = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// let white = hardest(&solver, Goal::State(0), &HardestOptions::default(), &Default::default())?;
/// assert_eq!((white.lower, white.upper), (Some(7), 7));
/// let either = hardest(&solver, Goal::Any, &HardestOptions::default(), &Default::default())?;
/// assert_eq!(either.lower, Some(6));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn hardest<G: Weighed>(
    game: &G,
    goal: Goal,
    options: &HardestOptions,
    limits: &Limits,
) -> Result<Hardest<G::Board>, Error> {
    let started = std::time::Instant::now();
    let stopped = limits.stopped(started);
    let mut work = Work::new(options.work, &stopped).watched(options.progress);
    hardest_within(game, goal, options.distribution, &mut work)
}

/// [`hardest`] on the weighings `work` has left, its stop check and its
/// counter: every step of the search, the family's base included, spends
/// from this one budget, so the whole run keeps `--max-work` and the
/// counter shows all of it.
fn hardest_within<G: Weighed>(
    game: &G,
    goal: Goal,
    distribution: bool,
    work: &mut Work,
) -> Result<Hardest<G::Board>, Error> {
    let budget = work.left();
    let Prepared { classes, per_coset, target_state } = prepare(game, goal)?;
    let states = classes.states;
    // Few solvable boards, fewer than the kernel's members (a complete
    // graph has two, and 2^(N−1) members): every one weighed, whatever the
    // kernel. Where the kernel is the smaller, its methods go first.
    let image = small_image(game, states);
    if let Some(boards) = image.filter(|&(_, smaller)| smaller).map(|(boards, _)| boards) {
        let any = goal == Goal::Any;
        if let Some(image) = image::weigh_image(game.puzzle(), states, boards, any, work) {
            work.report();
            let prepared = Prepared { classes, per_coset, target_state };
            return finish(game, goal, Found::from_image(image), &prepared, distribution, false, 0.0);
        }
    }
    let upper = average_bound(&classes);
    let mut found = Found::new(upper, Bound::Average);
    let cost = spread::tally_cost(&classes) + spread::untouched_cost(&classes);
    if distribution && cost > budget as f64 {
        let what = " (class counts weighed by members, and the counts of the untouched cells)".into();
        return Err(past_budget(cost, what, budget));
    }
    // Two states settle by the signed counts first (milliseconds where the
    // tally takes seconds); the tally then counts the hardest boards if it
    // is cheap, and settles every other case it can.
    let spectrum = states == 2 && classes.orders.len() <= MAX_SPECTRUM_BITS;
    let patience = stall_patience(budget);
    if spectrum && !distribution {
        found.settle_by_spectrum(&classes, work, patience);
    }
    let wanted = if found.how == How::Bounds { budget as f64 } else { CHEAP_TALLY };
    if distribution || cost <= wanted {
        found.settle_by_tally(&classes, work);
    }
    if spectrum && found.lower.is_none() {
        found.settle_by_spectrum(&classes, work, patience);
    }
    // Bounds left apart where the image is small, but not smaller than
    // the kernel: its walk settles them.
    if let Some((boards, false)) = image.filter(|_| found.how == How::Bounds) {
        let any = goal == Goal::Any;
        let mut part = work.share();
        let weighed = image::weigh_image(game.puzzle(), states, boards, any, &mut part);
        work.absorb(&mut part);
        if let Some(weighed) = weighed {
            found = Found::from_image(weighed);
        }
    }
    if found.lower.is_none() {
        found.climb(&classes, work);
    }
    // Bounds left apart on a grid of a family: a board of the smaller
    // grid's class sizes, and its proof where it carries over.
    let mut family = None;
    let looked = found.how == How::Bounds && states == 2 && goal != Goal::Any && !work.told_to_stop();
    if let Some((mut member, base)) = looked.then(|| game.family()).flatten() {
        let cols = game.puzzle().cols();
        member.carried = found.settle_by_family(&member, cols, &classes, &base, goal, work, true)?;
        family = Some(member);
    }
    work.report();
    let prepared = Prepared { classes, per_coset, target_state };
    let settle = found.close_work.map_or(cost, |close| close.min(cost));
    let mut hardest = finish(game, goal, found, &prepared, distribution, work.told_to_stop(), settle)?;
    hardest.family = family;
    Ok(hardest)
}

/// The answer from what the searches settled: the board built and
/// certified, the hardest boards counted, and the distribution when asked
/// (`cut_short`: the time limit or stop flag cut the work; `cost`: the
/// work that would settle bounds left apart).
fn finish<G: Weighed>(
    game: &G,
    goal: Goal,
    found: Found,
    prepared: &Prepared,
    distribution: bool,
    cut_short: bool,
    cost: f64,
) -> Result<Hardest<G::Board>, Error> {
    let Prepared { classes, per_coset, target_state } = prepared;
    let (classes, per_coset, target_state) = (classes, *per_coset, *target_state);
    let states = classes.states;
    let presses = found.presses(classes);
    let puzzle = game.puzzle();
    let targets = game.goal_targets(goal);
    let mut board = game.board_of(board_for(puzzle, &presses, states, target_state));
    let mut certified = certify(game, &board, &targets)?;
    if let (None, Some(Source::Image(image))) = (&certified, &found.source) {
        certified = Some(walked(game, &board, image, target_state, &targets)?);
    }
    if certified.is_none() && found.lower.is_none() {
        // A random board's minimum can be past the exhaustive engine's
        // reach where a structured one's is not (79x79: a board needing
        // 165 presses, proven by branch and bound): a weaker bound, but one.
        board = game.board_of(board_for(puzzle, &in_cell_order(classes), states, target_state));
        certified = certify(game, &board, &targets)?;
    }
    let mut lower_from = found.lower_from;
    let report = match (found.lower, certified) {
        (Some(claimed), Some((weight, lightest))) if weight == claimed => {
            (Some(weight), Some(board), Some(lightest))
        }
        (Some(claimed), certified) => {
            return Err(Error::Internal(format!(
                "a hardest board built to need {claimed} presses needs {:?}",
                certified.map(|c| c.0)
            )));
        }
        // A board built without a claim: its proven minimum bounds the
        // most presses from below.
        (None, Some((weight, lightest))) => {
            lower_from = Some(Bound::Board);
            (Some(weight), Some(board), Some(lightest))
        }
        (None, None) => (None, None, None),
    };
    let (lower, board, lightest) = report;
    let how =
        if lower == Some(found.upper) && found.how == How::Bounds { How::ClosedForm } else { found.how };
    let boards = solvable_boards(classes, per_coset);
    let (boards_at_most, distribution) = match &found.source {
        // The boards at the most need only the top of the convolution: the
        // untouched cells all pressed K − 1 times, one way.
        Some(Source::Tally(t)) => (
            Some((&t.by_weight[t.heaviest as usize] * per_coset).to_string()),
            distribution.then(|| boards_by_weight(t, classes, per_coset)),
        ),
        Some(Source::Image(image)) => {
            // Counted two ways: the walk's boards and the kernel's quotient.
            let counted: u64 = image.by_weight.iter().sum();
            if counted.to_string() != boards {
                return Err(Error::Internal(format!(
                    "the walk of the image counted {counted} boards where {boards} are solvable"
                )));
            }
            let by_weight = image.by_weight.iter().enumerate().map(|(w, &n)| (w as u64, BigUint::from(n)));
            (
                Some(image.by_weight[image.heaviest as usize].to_string()),
                distribution.then(|| by_weight.collect()),
            )
        }
        // Without quiet patterns every press set is its coset's lightest:
        // one needs the most, every cell pressed K − 1 times.
        _ if classes.orders.is_empty() && lower == Some(found.upper) => (Some(per_coset.to_string()), None),
        _ => (None, None),
    };
    Ok(Hardest {
        lower,
        upper: found.upper,
        board,
        presses: lightest,
        how,
        boards_at_most,
        distribution: distribution.map(to_decimal),
        boards,
        stopped: cut_short,
        stalled: found.stalled.filter(|_| how == How::Bounds && !cut_short),
        settle_work: (how == How::Bounds && !cut_short && cost.is_finite()).then_some(cost),
        lower_from,
        upper_from: found.upper_from,
        family: None,
    })
}

/// The units of the distribution's slices: the prefixes of its walk,
/// cut into as many as the count of slices asks for (a slice holds every
/// `count`-th from `index − 1`, as [`Shard`] cuts blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkPrefixes {
    /// How many prefixes the walk cut into this many slices has.
    pub prefixes: u64,
}

impl Units for WalkPrefixes {
    /// A walk has no plan beyond its cut: the problem fixes the walk.
    type Plan = ();
    const UNIT: &'static str = "prefix";
    /// A few prefixes per thread: a batch lost to a stop is short.
    const BATCH_PER_THREAD: u64 = 16;

    fn units(&self) -> u64 {
        self.prefixes
    }
}

/// What a slice of the distribution's walk comes to, its
/// [`Reduction`]: the cosets of the classes the quiet patterns touch, by
/// the weight of their lightest member there, over the prefixes walked,
/// and the first heaviest of them in walk order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CosetTally {
    /// `(weight, cosets)`, ascending, none zero (counts pass 2^64).
    pub cosets: Vec<(u64, BigUint)>,
    /// The first heaviest coset (none before a prefix is walked).
    pub heaviest: Option<SliceHeaviest>,
}

impl Reduction for CosetTally {
    /// Counts added weight by weight; of two heaviest, the heavier, then
    /// the one at the smaller prefix (the first in walk order, whatever
    /// the batches and slices).
    fn combine(self, other: CosetTally) -> CosetTally {
        let mut cosets = Vec::with_capacity(self.cosets.len().max(other.cosets.len()));
        let (mut mine, mut theirs) =
            (self.cosets.into_iter().peekable(), other.cosets.into_iter().peekable());
        loop {
            let next = match (mine.peek(), theirs.peek()) {
                (Some(a), Some(b)) if a.0 == b.0 => match (mine.next(), theirs.next()) {
                    (Some((weight, a)), Some((_, b))) => Some((weight, a + b)),
                    _ => None,
                },
                (Some(a), Some(b)) if a.0 < b.0 => mine.next(),
                (_, Some(_)) => theirs.next(),
                (Some(_), None) => mine.next(),
                (None, None) => None,
            };
            match next {
                Some(entry) => cosets.push(entry),
                None => break,
            }
        }
        let first_heaviest = |h: &SliceHeaviest| (h.weight, std::cmp::Reverse(h.prefix));
        let heaviest = match (self.heaviest, other.heaviest) {
            (Some(a), Some(b)) => Some(if first_heaviest(&b) > first_heaviest(&a) { b } else { a }),
            (a, None) => a,
            (None, b) => b,
        };
        CosetTally { cosets, heaviest }
    }
}

/// One slice of the distribution's walk, as [`hardest_slice`] gives it
/// and [`hardest_merged`] joins it: the long search's [`Slice`] over the
/// walk's prefixes, what it found a [`CosetTally`]. `done` of its
/// `units` prefixes are walked: all of them once it is finished; fewer
/// in a slice stopped on the way, which [`hardest_slice`] resumes.
pub type DistributionSlice = Slice<WalkPrefixes, CosetTally>;

/// The first heaviest coset of a slice, in walk order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceHeaviest {
    /// Its lightest member's weight on the touched classes.
    pub weight: u64,
    /// The prefix it is under.
    pub prefix: u64,
    /// Per class of cells (in key order), how many of its cells a press
    /// set of the coset presses 0, 1, …, K − 1 times.
    pub counts: Vec<Vec<u32>>,
}

/// Walks slice `shard` of the exact distribution's walk (its prefixes cut
/// as [`Shard`] cuts blocks, the same whatever the threads), for
/// [`hardest_merged`] to join with the others: from `resume`, the same
/// slice stopped part way, if given, in the batches of the long search's
/// loop ([`Slice::run_batches`]), telling `progress` the slice so far
/// after each batch of prefixes (to save it; it breaks to stop there).
/// The time limit or stop flag ends it after the last whole batch, `done`
/// short of the slice (`progress` is told that slice once more).
/// `options.work` bounds this slice's work alone.
///
/// # Errors
/// As [`hardest`] with the distribution asked, the refusal naming this
/// slice's work; [`Error::BadInput`] for a `resume` of another slice or
/// that does not hold up against the walk planned again.
pub fn hardest_slice<G: Weighed>(
    game: &G,
    goal: Goal,
    options: &HardestOptions,
    limits: &Limits,
    shard: Shard,
    resume: Option<&DistributionSlice>,
    progress: &mut dyn FnMut(&DistributionSlice) -> ControlFlow<()>,
) -> Result<DistributionSlice, Error> {
    let started = std::time::Instant::now();
    let stopped = limits.stopped(started);
    let Prepared { classes, .. } = prepare(game, goal)?;
    let cost = spread::slice_cost(&classes, shard);
    if cost > options.work as f64 {
        let what = format!(" in slice {shard} (class counts weighed by members)");
        return Err(past_budget(cost, what, options.work));
    }
    // The merge convolves the untouched cells in, with no budget of its
    // own: every slice holds it to its own (a nullity-0 100x100 would
    // pass its slices in milliseconds and hold the merge for minutes).
    let finish = spread::untouched_cost(&classes);
    if finish > options.work as f64 {
        let what = " to count the untouched cells when the slices merge".into();
        return Err(past_budget(finish, what, options.work));
    }
    let resume = match resume {
        None => None,
        Some(saved) if saved.shard != shard => {
            return Err(Error::BadInput(format!("a walk of slice {} resumed as slice {shard}", saved.shard)));
        }
        Some(saved) => {
            spread::check_slice(&classes, saved)
                .map_err(|why| Error::BadInput(format!("slice {shard} does not hold up: {why}")))?;
            Some(saved.clone())
        }
    };
    let mut work = Work::new(options.work, &stopped).watched(options.progress);
    let walked = spread::tally_slice(&classes, shard, resume, &mut work, progress);
    work.report();
    walked.ok_or_else(|| Error::Limit("the kernel is too large to walk".into()))
}

/// What [`hardest`] answers with the distribution asked, from slices
/// that cover its walk once each ([`hardest_slice`]): the same answer,
/// board and certification included, whatever the split.
///
/// # Errors
/// The outer error as [`hardest`]'s; the inner, a [`MergeError`] naming
/// the slices missing, given twice, of other splits, or not holding up
/// against the walk planned again here (their prefixes, the press sets
/// their counts add up to, their heaviest).
pub fn hardest_merged<G: Weighed>(
    game: &G,
    goal: Goal,
    slices: &[DistributionSlice],
) -> Result<Result<Hardest<G::Board>, MergeError>, Error> {
    let prepared = prepare(game, goal)?;
    let classes = &prepared.classes;
    let tally = match spread::join(classes, slices) {
        Ok(tally) => tally,
        Err(e) => return Ok(Err(e)),
    };
    let most = tally.heaviest + classes.untouched.len() as u64 * (u64::from(classes.states) - 1);
    let found = Found {
        lower: Some(most),
        how: How::Search,
        source: Some(Source::Tally(tally)),
        lower_from: Some(Bound::Tally),
        ..Found::new(most, Bound::Tally)
    };
    let cost = spread::tally_cost(classes) + spread::untouched_cost(classes);
    finish(game, goal, found, &prepared, true, false, cost).map(Ok)
}

/// The work of slice `shard` of the distribution (member weighings), as
/// [`hardest_slice`] holds it to its budget; for the whole (`Shard::WHOLE`),
/// as [`hardest`] does, with the untouched cells' convolution.
///
/// # Errors
/// As [`hardest`] for the game and goal.
pub fn distribution_cost<G: Weighed>(game: &G, goal: Goal, shard: Shard) -> Result<f64, Error> {
    let Prepared { classes, .. } = prepare(game, goal)?;
    Ok(if shard == Shard::WHOLE {
        spread::tally_cost(&classes) + spread::untouched_cost(&classes)
    } else {
        spread::slice_cost(&classes, shard)
    })
}

/// The work of slice `saved.shard` its walked prefixes (`saved.done`)
/// stand for, in member weighings as [`distribution_cost`] counts them:
/// where a resumed slice's progress starts (every prefix of a walk costs
/// the same, so it is the slice's work times the share walked).
///
/// # Errors
/// As [`hardest`] for the game and goal.
pub fn distribution_done<G: Weighed>(game: &G, goal: Goal, saved: &DistributionSlice) -> Result<f64, Error> {
    let len = saved.shard.len(saved.layout.prefixes);
    if len == 0 {
        return Ok(0.0);
    }
    let share = saved.done.min(len) as f64 / len as f64;
    Ok(distribution_cost(game, goal, saved.shard)? * share)
}

/// The fewest slices (at least 2) whose largest, the first, fits `work`,
/// if some count up to [`MAX_SHARDS`] does.
///
/// # Errors
/// As [`hardest`] for the game and goal.
pub fn distribution_shards<G: Weighed>(game: &G, goal: Goal, work: u64) -> Result<Option<u64>, Error> {
    let Prepared { classes, .. } = prepare(game, goal)?;
    // Slices do not share the merge's convolution of the untouched cells.
    if spread::untouched_cost(&classes) > work as f64 {
        return Ok(None);
    }
    let fits = |count: u64| spread::slice_cost(&classes, Shard { index: 1, count }) <= work as f64;
    // Doubling to a count that fits, then halving back to the first one:
    // a slice's work falls as the count grows (its share of one more
    // prefix level aside).
    let mut high = 2;
    while !fits(high) {
        if high >= MAX_SHARDS {
            return Ok(None);
        }
        high = (high * 2).min(MAX_SHARDS);
    }
    let mut low = high / 2;
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if fits(mid) { high = mid } else { low = mid }
    }
    Ok(Some(high.max(2)))
}

/// The refusal of a distribution of `needed` steps (`what` part of the
/// count) past the work `budget`.
fn past_budget(needed: f64, what: String, budget: u64) -> Error {
    // A count past f64 (256x256 on complete:1773) is said, not `inf`.
    let needed = match needed.is_finite() {
        true => format!("about {needed:.3e}"),
        false => format!("more than {:.3e}", f64::MAX),
    };
    Error::DistributionPastBudget { needed, what, budget }
}

/// The most member weighings [`hardest`] makes with these options: the
/// tally's exact count when the distribution is asked (`hardest` refuses
/// it past `options.work`), else at most `options.work` (two states, whose
/// searches stop when settled, often far sooner), or the tally's count
/// when that settles it within the budget (K states), or 0. A total for
/// the counter of [`HardestOptions::progress`]; it passes `u64` for large
/// kernels, hence a float.
///
/// # Errors
/// As [`hardest`] for the game and goal.
pub fn hardest_cost<G: Weighed>(game: &G, goal: Goal, options: &HardestOptions) -> Result<f64, Error> {
    let Prepared { classes, .. } = prepare(game, goal)?;
    let tally = spread::tally_cost(&classes);
    let budget = options.work as f64;
    let spectrum = classes.states == 2 && classes.orders.len() <= MAX_SPECTRUM_BITS;
    Ok(match () {
        () if options.distribution => tally,
        () if spectrum => budget,
        () if tally <= budget => tally,
        () => 0.0,
    })
}

/// A game's classes for a goal, before any search.
struct Prepared {
    classes: Classes,
    /// Boards per coset of the code weighed.
    per_coset: u32,
    /// The uniform state the board is built to (0 for any).
    target_state: u8,
}

fn prepare<G: Weighed>(game: &G, goal: Goal) -> Result<Prepared, Error> {
    let mut code = game.quiet_code()?;
    let states = code.states;
    let target_state = match goal {
        Goal::State(t) if t >= states => {
            return Err(Error::BadInput(format!(
                "target state {t} is not a state of this puzzle: its cells have {states} states, 0 to {}",
                states - 1
            )));
        }
        Goal::State(t) => t,
        Goal::Any => 0,
    };
    // Boards per coset of the code weighed: one for a fixed target; for
    // any, the code gains a press set reaching a uniform state, and each
    // coset holds the K boards that differ by a uniform state.
    let per_coset = match goal {
        Goal::State(_) => 1,
        Goal::Any => {
            if let Some(generator) = uniform_reacher(game, states)? {
                code.generators.push(generator);
            }
            u32::from(states)
        }
    };
    Ok(Prepared { classes: Classes::new(&code), per_coset, target_state })
}

/// What the searches settled: the bounds, how, and the tally or the
/// signed counts of a hardest press set.
struct Found {
    upper: u64,
    lower: Option<u64>,
    how: How,
    source: Option<Source>,
    upper_from: Bound,
    lower_from: Option<Bound>,
    /// The leader program's estimate of the work its last level would
    /// have taken, where the budget stopped it.
    close_work: Option<f64>,
    /// The patience that stopped the leader program, if it did.
    stalled: Option<u64>,
}

/// Where a hardest press set comes from.
enum Source {
    Tally(spread::Tally),
    Image(Image),
    Signed(Vec<i64>),
    Climbed(climb::Climbed),
}

impl Found {
    fn new(upper: u64, upper_from: Bound) -> Found {
        Found {
            upper,
            lower: None,
            how: How::Bounds,
            source: None,
            upper_from,
            lower_from: None,
            close_work: None,
            stalled: None,
        }
    }

    /// Every board weighed by the walk of a small image: exact.
    fn from_image(image: Image) -> Found {
        let most = image.heaviest;
        Found {
            lower: Some(most),
            how: How::Search,
            source: Some(Source::Image(image)),
            lower_from: Some(Bound::Tally),
            ..Found::new(most, Bound::Tally)
        }
    }

    fn settle_by_tally(&mut self, classes: &Classes, work: &mut Work) {
        if let Some(tally) = spread::tally(classes, work) {
            let most = tally.heaviest + classes.untouched.len() as u64 * (u64::from(classes.states) - 1);
            (self.upper, self.lower, self.how) = (most, Some(most), How::Search);
            self.source = Some(Source::Tally(tally));
            (self.upper_from, self.lower_from) = (Bound::Tally, Some(Bound::Tally));
        }
    }

    /// A lower bound past the exact methods: the board a climb reaches
    /// (K states, and kernels the signed counts do not take).
    fn climb(&mut self, classes: &Classes, work: &mut Work) {
        // A quarter of the work left: a lower bound, not a proof.
        let mut share = work.share_of(4);
        let climbed = climb::climb(classes, &mut share);
        work.absorb(&mut share);
        if let Some(climbed) = climbed {
            self.lower =
                Some(climbed.weight + classes.untouched.len() as u64 * (u64::from(classes.states) - 1));
            self.source = Some(Source::Climbed(climbed));
            self.lower_from = Some(Bound::Climb);
        }
    }

    /// Settles two states by the signed counts: the tabu search's level,
    /// the sub-span ceilings, then the leader program level by level until
    /// the levels meet, the work runs out, or neither a level nor the
    /// search's own progress moves for `patience` weighings.
    fn settle_by_spectrum(&mut self, classes: &Classes, work: &mut Work, patience: u64) {
        let spectrum = Spectrum::new(classes.orders.len(), classes.bit_keys(), classes.sizes());
        let cells = classes.cells() as i64;
        let untouched = classes.untouched.len() as i64;
        let most = |level: i64| ((cells + untouched + level) / 2) as u64;
        let mut ceiling = spectrum.parity_ceiling();
        self.upper = most(ceiling);
        let (climbed, signed) = spectrum.climb(ceiling, work);
        // Sub-spans of the keys lower the ceiling where the parity alone
        // is not met, on a quarter of the work left, at most the patience.
        if climbed < ceiling {
            let mut part = work.share_of(4).capped(patience);
            let spanned = spectrum.span_ceiling(ceiling, climbed, SPAN_BITS, &mut part);
            work.absorb(&mut part);
            if spanned < ceiling {
                (ceiling, self.how) = (spanned, How::Search);
                (self.upper, self.upper_from) = (most(ceiling), Bound::SubSpan);
            }
        }
        let mut best = (climbed, signed);
        let mut best_from = Bound::Climb;
        // Lower the ceiling level by level until a level is reached: by the
        // flag's branch and bound where its rows fit.
        let bits = classes.orders.len();
        let leader =
            (bits <= MAX_LEADER_BITS).then(|| Leader::new(bits, &classes.bit_keys(), &classes.sizes()));
        // Half the work left: the budget is sized for the tally's vector
        // walk, which weighs about 20 times faster (WEIGHINGS_PER_SECOND);
        // and no more once neither a level nor a whole percent of the
        // search's tree has been settled for `patience` weighings.
        let mut part = work.share_of(2).with_patience(patience);
        while best.0 < ceiling {
            let before = part.spent();
            let (level, done) = match &leader {
                Some(leader) => leader.decide(ceiling, &mut part),
                None => (spectrum.decide(ceiling, &mut part), 0.0),
            };
            match level {
                Level::Reached(signed) => {
                    best = (ceiling, signed);
                    (self.how, best_from) = (How::Search, Bound::Program);
                }
                Level::Refuted => {
                    ceiling -= 2;
                    (self.upper, self.upper_from) = (most(ceiling), Bound::Program);
                    self.how = How::Search;
                    part.progressed();
                }
                Level::Unknown => {
                    self.how = How::Bounds;
                    self.stalled = part.stalled().then_some(patience);
                    // What the whole search of this level would cost, by
                    // the share of it done: a rough guide, not a promise.
                    let spent = (part.spent() - before) as f64;
                    self.close_work = (done > 0.0).then(|| spent / done - spent);
                    break;
                }
            }
        }
        work.absorb(&mut part);
        if best.0 == ceiling && self.how == How::Bounds {
            self.how = How::ClosedForm;
        }
        self.lower = Some(most(best.0));
        self.source = Some(Source::Signed(best.1));
        self.lower_from = Some(best_from);
    }

    /// A lower bound from the base's classes: a tabu search over the
    /// member's keys with the base's sizes (fewer counts to move, and
    /// every count of the base fits the member's larger classes of the same
    /// parity). Taken where it reaches above the member's own lower bound
    /// (71x71: 2693 where the member's search reached 2692), on a quarter
    /// of the work left, spent from it.
    fn climb_the_base(&mut self, classes: &Classes, map: &[usize], sizes: &[u64], work: &mut Work) {
        let bits = classes.orders.len();
        if bits > MAX_SPECTRUM_BITS {
            return;
        }
        let small: Vec<u64> = map.iter().map(|&k| sizes[k]).collect();
        let spectrum = Spectrum::new(bits, classes.bit_keys(), small);
        let cells = (classes.cells() + classes.untouched.len()) as i64;
        let highest = 2 * self.upper as i64 - cells;
        let mut part = work.share_of(4);
        let (level, signed) = spectrum.climb(highest, &mut part);
        work.absorb(&mut part);
        let most = ((cells + level) / 2) as u64;
        if self.lower.is_none_or(|lower| most > lower) {
            self.lower = Some(most);
            self.source = Some(Source::Signed(signed));
            self.lower_from = Some(Bound::Family);
        }
    }

    /// Settles a member of a family by its base (`family.rs`): first (with
    /// `climb`) a tabu search on the base's class sizes, which may meet the
    /// upper bound or raise the lower; then the base's hardest boards are
    /// found (on half the work left), and where its
    /// level is proven and carries over, this size has it too, with the
    /// base's class counts copied into the larger classes as its board
    /// (which `finish` certifies). Skips the base when its smallest class
    /// is already too small for any level these bounds allow.
    ///
    /// # Errors
    /// [`Error::Internal`] if the base's level falls outside this size's
    /// own bounds, or its classes do not copy (both ruled out by the
    /// mathematics).
    #[allow(clippy::too_many_arguments)]
    fn settle_by_family(
        &mut self,
        family: &Family,
        cols: usize,
        classes: &Classes,
        base: &Solver,
        goal: Goal,
        work: &mut Work,
        climb: bool,
    ) -> Result<Carried, Error> {
        let base_classes = prepare(base, goal)?.classes;
        let sizes = base_classes.sizes();
        let smallest = sizes.iter().copied().min().unwrap_or(0);
        let cells = (classes.cells() + classes.untouched.len()) as i64;
        let Some(map) = family::class_map(family, cols, classes, &base_classes) else {
            return Err(Error::Internal(format!("the classes of {family:?} do not copy its base's")));
        };
        if climb {
            self.climb_the_base(classes, &map, &sizes, work);
        }
        if self.lower == Some(self.upper) {
            self.how = How::Search;
            return Ok(Carried::Settled);
        }
        // The highest level these bounds leave: the base's level is at most
        // it, so it carries only at the parity ceiling or with classes of
        // at least −level − 2 cells.
        let highest = 2 * self.upper as i64 - cells;
        let ceiling = spectrum::parity_ceiling(&sizes);
        if highest < ceiling && (smallest as i64) < -highest - 2 {
            return Ok(Carried::SmallClasses(smallest));
        }
        // Half the work left, spent from it: the base's search counts
        // against this size's budget, its stop check and its counter.
        let mut part = work.share_of(2);
        let settled = hardest_within(base, goal, false, &mut part);
        work.absorb(&mut part);
        let settled = settled?;
        let (Some(most), Some(presses)) = (settled.lower.filter(|_| settled.exact()), &settled.presses)
        else {
            return Ok(Carried::BaseUnsettled);
        };
        let base_cells = (base_classes.cells() + base_classes.untouched.len()) as i64;
        let level = 2 * most as i64 - base_cells;
        if !family::base_proof_carries(&sizes, level) {
            return Ok(Carried::SmallClasses(smallest));
        }
        // The base's lightest press set reaches its level with member 0 the
        // lightest: its class counts are the signed counts to copy.
        let pressed = base.cells_of(presses);
        let signed: Vec<i64> = map
            .iter()
            .map(|&k| {
                let class = &base_classes.classes[k];
                let on = class.cells.iter().filter(|&&cell| pressed[cell] == 1).count() as i64;
                2 * on - class.cells.len() as i64
            })
            .collect();
        let claimed = ((cells + level) / 2) as u64;
        if claimed > self.upper || self.lower.is_some_and(|lower| claimed < lower) {
            return Err(Error::Internal(format!(
                "the family's level gives {claimed} presses, outside the bounds {:?} to {}",
                self.lower, self.upper
            )));
        }
        (self.upper, self.lower, self.how) = (claimed, Some(claimed), How::Search);
        (self.upper_from, self.lower_from) = (Bound::Family, Some(Bound::Family));
        self.source = Some(Source::Signed(signed));
        (self.close_work, self.stalled) = (None, None);
        Ok(Carried::Settled)
    }

    /// A press set of the claimed weight (class by class, the untouched
    /// cells pressed K − 1 times), or when nothing was claimed one of
    /// seeded random presses: the quiet patterns have structure, and a
    /// press set without any is far from all of them (39x39: a board
    /// needing 618 presses, where one spread in cell order needed 105).
    fn presses(&self, classes: &Classes) -> Vec<u8> {
        let top = classes.states - 1;
        let mut presses = vec![0u8; classes.cells()];
        for &cell in &classes.untouched {
            presses[cell] = top;
        }
        if let Some(Source::Image(image)) = &self.source {
            return image.presses.clone();
        }
        let Some(source) = &self.source else {
            let mut rng = ChaCha8Rng::seed_from_u64(RANDOM_SEED);
            for cell in classes.classes.iter().flat_map(|class| &class.cells) {
                presses[*cell] = rng.random_range(0..classes.states);
            }
            return presses;
        };
        for (k, class) in classes.classes.iter().enumerate() {
            let counts: Vec<u32> = match source {
                Source::Tally(tally) => tally.counts[k].clone(),
                Source::Image(_) => unreachable!("an image's press set is returned whole"),
                Source::Climbed(climbed) => climbed.counts[k].clone(),
                Source::Signed(signed) => {
                    let pressed = ((class.cells.len() as i64 + signed[k]) / 2) as u32;
                    vec![class.cells.len() as u32 - pressed, pressed]
                }
            };
            let residues =
                counts.iter().enumerate().flat_map(|(r, &c)| std::iter::repeat_n(r as u8, c as usize));
            for (&cell, r) in class.cells.iter().zip(residues) {
                presses[cell] = r;
            }
        }
        presses
    }
}

/// The boards of the press matrix's image, `K^N / |kernel|` (the boards
/// solvable to one uniform target), where they are at most
/// [`MAX_IMAGE_BOARDS`], and whether they are fewer than the kernel's
/// members.
fn small_image<G: Weighed>(game: &G, states: u8) -> Option<(u64, bool)> {
    let kernel = game.kernel();
    let cells = game.puzzle().cells();
    // The logarithms first: K^N itself is not built for a large image.
    let log2 = cells as f64 * f64::from(states).log2() - kernel.log2;
    if log2 > (MAX_IMAGE_BOARDS as f64).log2() + 1.0 {
        return None;
    }
    let members = BigUint::parse_bytes(kernel.size.as_bytes(), 10)?;
    let all = BigUint::from(states).pow(u32::try_from(cells).ok()?);
    let boards = u64::try_from(all / &members).ok().filter(|&boards| boards <= MAX_IMAGE_BOARDS)?;
    Some((boards, BigUint::from(boards) < members))
}

/// A press set whose classes are spread evenly over the residues in
/// cell order (the untouched cells pressed K − 1 times).
fn in_cell_order(classes: &Classes) -> Vec<u8> {
    let k = usize::from(classes.states);
    let mut presses = vec![classes.states - 1; classes.cells()];
    for class in &classes.classes {
        let n = class.cells.len();
        for (i, &cell) in class.cells.iter().enumerate() {
            presses[cell] = (i * k / n) as u8;
        }
    }
    presses
}

/// The seed of the press set drawn when no method claims one: fixed, so
/// that an answer is the same run after run.
const RANDOM_SEED: u64 = 1;

/// The averaging bound: over the members, the mean weight of a press set
/// is at most `n_0·(K − 1) + Σ_k n_k·(K + g_k − 2)/2`, where class `k`'s
/// members add the multiples of `g_k = gcd(K, its key)`, each as often.
/// For two states with the parity of the odd classes it is sharper: see
/// `spectrum::parity_ceiling`.
fn average_bound(classes: &Classes) -> u64 {
    let k = u64::from(classes.states);
    let untouched = classes.untouched.len() as u64;
    if k == 2 {
        let ceiling = spectrum::parity_ceiling(&classes.sizes());
        return ((classes.cells() as i64 + untouched as i64 + ceiling) / 2) as u64;
    }
    let mut twice = 2 * untouched * (k - 1);
    for class in &classes.classes {
        let g = class.key.iter().fold(k, |g, &v| gcd(g, u64::from(v)));
        twice += class.cells.len() as u64 * (k + g - 2);
    }
    twice / 2
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A press set reaching the smallest uniform state `t > 0` reachable from
/// the all-0 board, with its order over the kernel (`K / t`), if any.
fn uniform_reacher<G: Weighed>(game: &G, states: u8) -> Result<Option<(Vec<u8>, u32)>, Error> {
    let zero = game.board_of(vec![0; game.puzzle().cells()]);
    for t in (1..states).filter(|t| states.is_multiple_of(*t)) {
        let target = game.goal_targets(Goal::State(t)).remove(0);
        if let Some(presses) = game.particular_to(&zero, &target)? {
            return Ok(Some((game.cells_of(&presses), u32::from(states / t))));
        }
    }
    Ok(None)
}

/// The board that `presses` turn into the uniform state `target`:
/// `target − A·presses` over Z_K.
fn board_for(puzzle: &Puzzle, presses: &[u8], states: u8, target: u8) -> Vec<u8> {
    let k = u16::from(states);
    let mut board = vec![u16::from(target); presses.len()];
    for (press, cells) in puzzle.press_lists().iter().enumerate() {
        let x = u16::from(presses[press]) % k;
        if x != 0 {
            for &cell in cells {
                board[cell] = (board[cell] + k - x) % k;
            }
        }
    }
    board.into_iter().map(|v| v as u8).collect()
}

/// The board's minimum over `targets` and its lightest press set, when the
/// game's engine proves it (`None` when it cannot).
fn certify<G: Weighed>(
    game: &G,
    board: &G::Board,
    targets: &[TargetOf<G>],
) -> Result<Option<(u64, G::Board)>, Error> {
    let mut best: Option<(u64, G::Board)> = None;
    for target in targets {
        let Some(solution) = game.solve_for(board, target)? else { continue };
        let weight = solution.presses.presses();
        if !solution.proven_minimal && best.as_ref().is_none_or(|(w, _)| solution.lower_bound < *w) {
            return Ok(None);
        }
        if best.as_ref().is_none_or(|(w, _)| weight < *w) {
            best = Some((weight, solution.presses));
        }
    }
    Ok(best)
}

/// A board of the image's walk whose minimum the engine cannot prove
/// (a star of 2000 leaves: nullity 1999): the walk's press set, checked to
/// reach the goal, and no press set the engine finds lighter. The walk
/// weighed every board, so its minimum is a proof of its own.
fn walked<G: Weighed>(
    game: &G,
    board: &G::Board,
    image: &Image,
    target_state: u8,
    targets: &[TargetOf<G>],
) -> Result<(u64, G::Board), Error> {
    let presses = game.board_of(image.presses.clone());
    let reached = game.goal_targets(Goal::State(target_state)).remove(0);
    game.check(board, &presses, &reached)?;
    for target in targets {
        if let Some(solution) = game.solve_for(board, target)?
            && solution.presses.presses() < image.heaviest
        {
            return Err(Error::Internal(format!(
                "the walk of the image gives a board {} presses, the engine {}",
                image.heaviest,
                solution.presses.presses()
            )));
        }
    }
    Ok((presses.presses(), presses))
}

/// Boards by their minimum: the tally of the touched classes' cosets
/// convolved with the untouched cells, times the boards per coset.
fn boards_by_weight(tally: &spread::Tally, classes: &Classes, per_coset: u32) -> Vec<(u64, BigUint)> {
    let untouched = spread::untouched_weights(classes.untouched.len(), usize::from(classes.states));
    let mut out = Vec::new();
    for w in 0..tally.by_weight.len() + untouched.len() - 1 {
        let mut cosets = BigUint::zero();
        for (w1, count) in tally.by_weight.iter().enumerate().take(w + 1) {
            if let Some(ways) = untouched.get(w - w1) {
                cosets += count * ways;
            }
        }
        if !cosets.is_zero() {
            out.push((w as u64, cosets * per_coset));
        }
    }
    out
}

fn to_decimal(distribution: Vec<(u64, BigUint)>) -> Vec<(u64, String)> {
    distribution.into_iter().filter(|(_, n)| !n.is_zero()).map(|(w, n)| (w, n.to_string())).collect()
}

/// `K^N · per_coset / |kernel|`: the boards solvable to the goal.
fn solvable_boards(classes: &Classes, per_coset: u32) -> String {
    let members = classes.orders.iter().fold(BigUint::from(1u32), |m, &o| m * o);
    let all = BigUint::from(classes.states).pow(classes.cells() as u32);
    (all * per_coset / members).to_string()
}
